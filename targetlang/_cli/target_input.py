"""Where the target commands read their specs: the words of the command line, standard input, a
file (a spec a line), or the sample that ships with the package; each spec read with the
registry and release the options give, its errors placed at its file and line."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from importlib import resources
from typing import Any

from .. import Registry, TargetError, builtin_registry, load_registry
from .._eras import release_reading
from .._layering import layered
from .spec_words import NotText, before_spec, error_record, misplaced_option, spec_words, text_of
from .spec_words import UsageError as _UsageError

__all__ = [
    "SAMPLE_NAME",
    "InputError",
    "each_spec",
    "read_file",
    "read_sample",
    "read_stdin",
    "reading_of",
    "spec_lines",
    "user_registry",
    "where_shown",
]

SAMPLE_NAME = "<package data targetlang/data/sample-targets.txt>"


class InputError(Exception):
    """Input that could not be read at all (no such file, not UTF-8): one message, exit 1."""


def user_registry(args: argparse.Namespace) -> Registry:
    """The registry every spec is read with: TVM v0.22's, plus the kinds and tags of the
    ``--registry`` file when one is given (read once per run)."""
    if args.registry is None:
        return builtin_registry()
    loaded: Registry | None = getattr(args, "loaded_registry", None)
    if loaded is None:
        loaded = load_registry(args.registry)
        args.loaded_registry = loaded
    return loaded


def reading_of(args: argparse.Namespace) -> tuple[Registry, str | None]:
    """The registry and era every spec is read with: ``--tvm-version``'s release (its era's rules,
    its own kinds and tags), else ``--era``'s rules, else TVM v0.22's; what a ``--registry`` file
    adds to its base is laid on that release's registry (the file's base does not pick the release)."""
    version = getattr(args, "tvm_version", None)
    if version is None:
        return user_registry(args), getattr(args, "era", None)
    rules, registry = release_reading(version)
    if args.registry is not None:
        registry = layered(user_registry(args), registry)
    return registry, rules.name


def _decode(data: bytes, name: str) -> str:
    try:
        return text_of(data, name)
    except NotText as err:
        raise InputError(str(err)) from None


def read_stdin() -> str:
    stdin = sys.stdin
    if stdin is None:
        raise InputError("there is no standard input to read")
    buffer = getattr(stdin, "buffer", None)
    if buffer is None:  # a text stream without bytes beneath it (an io.StringIO in a test)
        return stdin.read()
    # Bytes, not text: text mode's universal newlines would turn a '\r' inside a spec into '\n'.
    return _decode(buffer.read(), "<stdin>")


def read_file(path: str) -> str:
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as err:
        raise InputError(f"cannot read {path}: {err.strerror or err}") from None
    return _decode(data, path)


def read_sample() -> str:
    resource = resources.files("targetlang") / "data" / "sample-targets.txt"
    try:
        data = resource.read_bytes()
    except OSError as err:
        raise InputError(f"cannot read the bundled sample {SAMPLE_NAME}: {err.strerror or err}") from None
    return _decode(data, SAMPLE_NAME)


def _without_newline(text: str) -> str:
    """``text`` without one trailing line break (``\\n`` or ``\\r\\n``), which is not part of a spec."""
    if text.endswith("\n"):
        text = text[:-1]
        if text.endswith("\r"):
            text = text[:-1]
    return text


def spec_lines(text: str) -> list[tuple[int, str]]:
    """``(line number, spec)`` for every line that holds a spec.

    Lines are split at ``\\n`` only (``str.splitlines`` would also split at ``\\r``, form feeds
    and the like, which a spec may contain); the ``\\r`` of a ``\\r\\n`` is dropped. Trailing
    spaces stay: they are part of the spec (``llvm -keys=cpu `` is a real one).
    """
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()  # the newline that ends the last line does not start another
    specs = []
    for number, line in enumerate(lines, 1):
        spec = line[:-1] if line.endswith("\r") else line
        if spec.strip() and not spec.startswith("#"):
            specs.append((number, spec))
    return specs


def _spec_text(args: argparse.Namespace) -> str | None:
    """The SPEC words joined by spaces (``fmt llvm -mcpu=skylake`` reads ``llvm -mcpu=skylake``),
    without a leading ``--``; ``None`` when there are none. With ``--lines`` the one word names a
    file."""
    words, _ = spec_words(args.spec, before_spec(args), args.spec_options)
    if args.lines and len(words) > 1:
        raise _UsageError(
            f"--lines reads the specs of one FILE, not {len(words)} words; targetlang's own options go before it"
        )
    return " ".join(words) if words else None


def _specs(args: argparse.Namespace) -> Iterator[tuple[str, int | None, str]]:
    """``(source name, line number, spec)`` for each spec the command reads: the one SPEC, or with
    ``--lines`` one per line of the file SPEC names (``-`` or none: standard input)."""
    spec = _spec_text(args)
    if not args.lines:
        if spec is None:
            raise _UsageError("SPEC is missing: give a target string, tag name or JSON object, or '-'")
        yield "<stdin>" if spec == "-" else "SPEC", None, _without_newline(read_stdin()) if spec == "-" else spec
        return
    name = spec if spec not in (None, "-") else "<stdin>"
    text = read_stdin() if name == "<stdin>" else read_file(name)
    for number, line in spec_lines(text):
        yield name, number, line


def where_shown(name: str, line: int | None) -> str:
    return f"{name}:{line}: " if line is not None else ""


def each_spec(args: argparse.Namespace, run: Callable[[str, str, int | None, dict[str, Any]], bool]) -> int:
    """``run(spec, source name, line, record)`` on each spec of the command (``record`` holds its
    ``line`` and ``spec``, for ``--json``), and the exit status: 1 if any failed. A spec that does
    not read (``run`` raises :class:`TargetError`) is reported in its place and the next one read:
    ``{..., "error": {...}}`` on stdout with ``--json``, else ``FILE:LINE: error: ...`` on stderr.
    Every command with ``--lines`` and ``--json`` reports through here, so they all do alike."""
    failed = 0
    for name, line, spec in _specs(args):
        record: dict[str, Any] = {"line": line} if line is not None else {}
        record["spec"] = spec
        try:
            ok = run(spec, name, line, record)
        except TargetError as err:
            ok = False
            if line is None and name == "SPEC":
                words, dashed = spec_words(args.spec, before_spec(args))
                usage = None if dashed else misplaced_option(words, before_spec(args), args.spec_options, err)
                if usage is not None:
                    raise usage from None
            if args.json:
                print(json.dumps({**record, "error": error_record(err)}, ensure_ascii=False))
            else:
                print(f"{where_shown(name, line)}error: {err}", file=sys.stderr)
        failed += not ok
    return 1 if failed else 0
