"""What the commands that read a target from their words share: the SPEC joined from the words
the shell gave, refused where joining them would change its meaning; an option of the command
found among them; a string given to a release that read none; and the record of a spec that did
not read, as ``--json`` prints it.
"""

from __future__ import annotations

import argparse
import re
import shlex
from collections.abc import Mapping, Sequence
from typing import Any

from .._diagnostics import unknown_kind
from .._registry import Registry
from .._versions import Release, release
from ..errors import TargetError, TargetSyntaxError

__all__ = [
    "NotText",
    "SpecFormatter",
    "UsageError",
    "before_spec",
    "error_record",
    "misplaced_option",
    "read_by_release",
    "spec_words",
    "text_of",
]


class UsageError(Exception):
    """A command line that argparse accepts but that cannot mean what it says: one message, exit 2."""


class SpecFormatter(argparse.RawDescriptionHelpFormatter):
    """The help of a command whose SPEC is every word after its options: the usage names it
    ``SPEC``, where argparse writes ``...`` for such an argument."""

    def _format_args(self, action: argparse.Action, default_metavar: str) -> str:
        if action.nargs == argparse.REMAINDER:
            return str(self._metavar_formatter(action, default_metavar)(1)[0])
        return super()._format_args(action, default_metavar)


# "-key=value" / "--key=value": the quotes the shell removed stood around the value.
_OPTION_VALUE = re.compile(r"(--?[^ =]+=)(.*)", re.DOTALL)
# What a shell's double quotes do not keep as it is.
_SHELL_SPECIAL = re.compile(r'["$`\\!]')


def before_spec(args: argparse.Namespace) -> list[str]:
    """The command line before the SPEC words (``args.argv``, every word; ``args.spec``, the last
    ones: the spec is every word from its first on)."""
    argv: list[str] = getattr(args, "argv", [])
    return argv[: len(argv) - len(args.spec)]


def spec_words(
    words: Sequence[str], before: Sequence[str], options: Mapping[str, bool] | None = None
) -> tuple[list[str], bool]:
    """The words of SPEC, without a leading ``--``, and whether there was one.

    ``before`` is the command line up to the first of them (``parse --tvm-version 0.19``), for the
    command a refusal shows. Raises :class:`UsageError` when the spec is in several words and one
    of them holds a space that separates words in a target string (one outside its single quotes,
    not escaped): the shell removed the quotes around it (``-host='llvm -mcpu=skylake'`` reached
    targetlang as ``-host=llvm -mcpu=skylake``), and the words joined by spaces would read as
    another target. The message shows the spec quoted as one word, to type instead; or, when a
    later word is one of the command's ``options`` (``fmt '{"kind": "llvm"}' --json``), that the
    option goes before the spec.
    """
    dashed = bool(words) and words[0] == "--"
    words = list(words[1:] if dashed else words)
    split = _split_values(words)
    if not split:
        return words, dashed
    if options is not None and not dashed:
        for index, word in enumerate(words[1:], 1):
            if word.split("=", 1)[0] in options:
                raise _option_first(words, index, before, options)
    requoted = [_requoted(word) if index in split else word for index, word in enumerate(words)]
    why = (
        f"SPEC is in {len(words)} words and {_shell_word(words[split[0]])} holds a space: the shell removed the "
        "quotes around it, and the words joined would read as another target"
    )
    if any(word is None for word in requoted):
        raise UsageError(f"{why}; give the whole spec as one quoted word, or '-' to read it from standard input")
    spec = " ".join(word for word in requoted if word is not None)
    line = " ".join(["targetlang", *(shlex.quote(word) for word in before), _shell_word(spec)])
    raise UsageError(f"{why}; quote the whole spec:\n  {line}")


def _split_values(words: Sequence[str]) -> list[int]:
    """The indexes of the words that are an option's value holding a space that separates words
    (:func:`_separates`): ``-key=VALUE``, or the word after a ``-key`` without ``=``. The first
    word (the kind, or a whole quoted spec) and the pieces of JSON text are joined as typed."""
    if len(words) < 2 or words[0].lstrip().startswith("{"):
        return []
    found = []
    for index in range(1, len(words)):
        word, before = words[index], words[index - 1]
        if not _separates(word):
            continue
        if _OPTION_VALUE.fullmatch(word) or (before.startswith("-") and "=" not in before and before.strip("-")):
            found.append(index)
    return found


def _separates(word: str) -> bool:
    """Whether ``word`` holds a space that separates words in a target string: one outside its
    single-quoted regions, not escaped by a backslash (docs/language.md, Words)."""
    quoted = False
    index = 0
    while index < len(word):
        char = word[index]
        if char == "\\":
            index += 1  # the next character is the backslash's
        elif char == "'":
            quoted = not quoted
        elif char == " " and not quoted:
            return True
        index += 1
    return False


def _requoted(word: str) -> str | None:
    """``word`` as the spec must hold it: a value with a space in single quotes, the target
    language's quotes for a nested target (``None`` when it holds a single quote itself)."""
    if not _separates(word):
        return word
    found = _OPTION_VALUE.fullmatch(word)
    head, value = (found[1], found[2]) if found else ("", word)
    return None if "'" in value else f"{head}'{value}'"


def _shell_word(text: str) -> str:
    """``text`` as one word of a POSIX shell, in double quotes where they keep it as it is (the
    spec's single quotes then read as they are), else as :func:`shlex.quote` writes it."""
    return f'"{text}"' if not _SHELL_SPECIAL.search(text) else shlex.quote(text)


def misplaced_option(
    words: Sequence[str], before: Sequence[str], options: Mapping[str, bool], err: TargetError
) -> UsageError | None:
    """The usage error to report instead of ``err``, when ``err`` (the spec joined from ``words``
    did not read) is about a word that is one of the command's own ``options`` (each mapped to
    whether it takes a value): ``fmt llvm -mcpu=skylake --json`` put ``--json`` after the spec,
    where every word is the spec's. ``None`` when the error is about something else (``cuda --host
    llvm`` is a spec, though ``migrate`` has a ``--host`` too)."""
    spec = " ".join(words)
    if err.source != spec:
        return None
    start = 0
    for index, word in enumerate(words):
        end = start + len(word)
        if index and word.split("=", 1)[0] in options and start <= err.start < end:
            return _option_first(words, index, before, options)
        start = end + 1
    return None


def _option_first(words: Sequence[str], index: int, before: Sequence[str], options: Mapping[str, bool]) -> UsageError:
    """The error of the option ``words[index]`` written after the spec: it names the option and
    shows the command line with it (and its value) before the spec."""
    word = words[index]
    name = word.split("=", 1)[0]
    moved = [word]
    if options[name] and "=" not in word and index + 1 < len(words):
        moved.append(words[index + 1])  # its value
    rest = [*words[:index], *words[index + len(moved) :]]
    line = " ".join(["targetlang", *(shlex.quote(w) for w in [*before, *moved, *rest])])
    return UsageError(
        f"{name} is an option of this command, not of the target: targetlang's own options go before "
        f"SPEC (every word from SPEC on is the spec's):\n  {line}"
    )


def read_by_release(spec: str, version: str | Release | None, registry: Registry) -> None:
    """Raise the error TVM ``version`` raised for the text ``spec`` when it is a release that read
    no target strings (v0.24 on): it took a tag name (``registry``'s), JSON text, or a bare kind
    name, and refused a text with a space, the ``kind -key=value`` form (src/target/target.cc,
    ``TargetInternal::FromString``). Nothing for an older release or ``None``."""
    if version is None:
        return
    found = release(version)
    if found.reads_legacy or spec.startswith("{") or spec in registry.tags:
        return
    space = spec.find(" ")
    if space >= 0:
        raise TargetSyntaxError(
            f"TVM {found.version} reads no target strings, only JSON, a tag name or a bare kind name "
            f"('Cannot parse target string'): 'targetlang migrate --target-version {found.version}' writes "
            "this target as the JSON it reads",
            spec,
            space,
            len(spec),
        )
    if spec not in registry.kinds:  # no space to refuse it at: the whole text is the kind's name
        raise unknown_kind(spec, registry, spec, 0, len(spec))


def error_record(err: TargetError) -> dict[str, Any]:
    """A spec that did not read, as ``--json`` prints it under ``error``."""
    return {"type": type(err).__name__, "message": err.message, "start": err.start, "end": err.end}


class NotText(ValueError):
    """Bytes given where text was to be read: not UTF-8, or a gzip stream."""


def text_of(data: bytes, name: str) -> str:
    """``data`` (of the input ``name``) as text: UTF-8, a byte-order mark (a Windows editor's)
    dropped. Raises :class:`NotText` saying what it is instead."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        if data[:2] == b"\x1f\x8b":  # gzip's magic: said as the logs commands, which read it, know it
            raise NotText(
                f"{name} is gzip-compressed, not text: decompress it first (zcat FILE | targetlang ... -), "
                "or, for a tuning log, use 'targetlang logs', which reads .gz"
            ) from None
        raise NotText(f"{name} is not UTF-8 text ({err.reason} at byte {err.start})") from None
