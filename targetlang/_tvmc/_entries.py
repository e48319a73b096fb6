"""A tvmc target list read into its entries: each codegen or TVM target with its options and
where they stand."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from .._registry import Registry, builtin_registry
from ..errors import EmptyKeyOrValueError, TargetError, show
from ._tokens import CODEGENS, QUOTES, TVMC_VERSION, EmptyTargetError, EmptyValueError, Token, TvmcError, scan

__all__ = ["Parsed", "TvmcEntry", "parse_entries", "parse_target_list", "tvmc_registry"]


@dataclass(frozen=True)
class TvmcEntry:
    """One target of a list, as tvmc's ``parse_target`` described it.

    Attributes:
        name: the target's name (a kind, a tag, a codegen, or anything else).
        opts: option name to value, read-only: the text of ``-key=value`` (outer quotes
            removed), ``True`` for ``--flag``, or whatever per-kind flags gave.
        raw: tvmc's ``raw``, the target's tokens joined by single spaces.
        is_tvm_target: whether the target is a TVM target (a registered kind that is not a
            codegen, or a registered tag) rather than an extra (BYOC) target.
        text: the target's exact text in the list.
        span: ``(start, end)`` of ``text`` in the list.
    """

    name: str
    opts: Mapping[str, Any]
    raw: str
    is_tvm_target: bool
    text: str = ""
    span: tuple[int, int] = (0, 0)

    def __post_init__(self) -> None:
        # A private copy behind a read-only view: the entry stays immutable whatever the
        # caller does with the mapping it passed.
        object.__setattr__(self, "opts", MappingProxyType(dict(self.opts)))

    def __hash__(self) -> int:
        # opts values may be unhashable; equal entries still hash equal without them.
        return hash((self.name, tuple(self.opts), self.raw, self.is_tvm_target, self.text, self.span))

    def __repr__(self) -> str:
        return (
            f"TvmcEntry(name={self.name!r}, opts={dict(self.opts)!r}, raw={self.raw!r}, "
            f"is_tvm_target={self.is_tvm_target!r}, text={self.text!r}, span={self.span!r})"
        )


@dataclass(frozen=True)
class _Source:
    """Where one option stands in the list, to move errors about it into the list's text."""

    key_start: int
    token: tuple[int, int]
    value: tuple[int, int] | None  # the raw value, quotes included; None for --flags
    quoted: bool  # the value was quoted in the text (tvmc removed the quotes)
    overridden: bool = False  # a per-kind flag replaced the value
    verbatim: bool = False  # rebuilt as tvmc left it: it began with a quote that did not end it


@dataclass(frozen=True)
class Parsed:
    entry: TvmcEntry
    name_span: tuple[int, int]
    name_offset: int  # where the name's first character stands (after a removed quote)
    option_tokens: tuple[Token, ...]
    sources: Mapping[str, _Source] = field(default_factory=dict)


def tvmc_registry(registry: Registry | None) -> Registry:
    return registry if registry is not None else builtin_registry(TVMC_VERSION)


def _is_tvm_target(name: str, registry: Registry) -> bool:
    # Tags are our addition: tvmc's tokenizer cut every tag name apart at its "/".
    return (name in registry.kinds or name in registry.tags) and name not in CODEGENS


def _unquoted_eq(body: str) -> int:
    """The first "=" of ``body`` outside quoted regions, or -1."""
    i, n = 0, len(body)
    while i < n:
        c = body[i]
        if c == "=":
            return i
        if c in QUOTES:
            close = body.find(c, i + 1)
            i = n if close < 0 else close + 1
            continue
        i += 1
    return -1


def _read_option(token: Token, source: str, empty_name: bool = False) -> tuple[str, Any, _Source]:
    """One option token, by tvmc's rules (spec 11.1 step 3); ``empty_name``: an empty option
    name is read (tvmc kept ``{"": value}``) rather than raised."""
    text = token.text
    if text.startswith("--"):
        # tvmc: everything after "--" is the name, even "host=llvm" in "--host=llvm".
        if len(text) == 2 and not empty_name:
            raise EmptyKeyOrValueError(f"empty option name in {show(text)}", source, token.start, token.end)
        return text[2:], True, _Source(token.start + 2, (token.start, token.end), None, False)
    skip = 1 if text.startswith("-") else 0
    body = text[skip:]
    eq = _unquoted_eq(body)
    if eq < 0:
        raise TvmcError(
            f"cannot read the option {show(text)}: an option is -NAME=VALUE, or --NAME for a flag",
            source,
            token.start,
            token.end,
        )
    key, raw = body[:eq], body[eq + 1 :]
    if not raw or raw in ("''", '""'):
        # tvmc's regex dropped the quotes of '' (its quoted form needs a character), so all of
        # these reached opt_value[0] empty.
        raise EmptyValueError(f"empty option value in {show(text)}", source, token.start, token.end)
    if not key and not empty_name:
        raise EmptyKeyOrValueError(f"empty option name or value in {show(text)}", source, token.start, token.end)
    # tvmc removed the first and last character of a value starting with a quote, whatever the
    # last one was ('a'b gives a'), and wrote what was left back as it was (c -model=a', which
    # TVM rejected for its quote)
    quoted = raw[0] in QUOTES
    value = raw[1:-1] if quoted else raw
    value_start = token.start + skip + eq + 1
    verbatim = quoted and (len(raw) < 2 or raw[-1] != raw[0])
    where = _Source(token.start + skip, (token.start, token.end), (value_start, token.end), quoted, verbatim=verbatim)
    return key, value, where


def _unquote_name(token: Token) -> tuple[str, int]:
    """The target name a token stands for, and where its first character is.

    tvmc dropped quote characters that began a token, so ``'llvm'`` was ``llvm``; a quoted
    name is how a tag with a comma (``'nvidia/geforce-gt-730-ddr3,128bit'``) is written.
    """
    text = token.text
    if len(text) >= 2 and text[0] in QUOTES and text[-1] == text[0] and text[0] not in text[1:-1]:
        return text[1:-1], token.start + 1
    return text, token.start


def _groups(tokens: list[Token]) -> tuple[list[list[Token]], list[Token]]:
    """The tokens of each target, split at the comma tokens (a target may be empty), and the commas."""
    groups: list[list[Token]] = [[]]
    commas: list[Token] = []
    for token in tokens:
        if token.text == ",":
            commas.append(token)
            groups.append([])
        else:
            groups[-1].append(token)
    return groups, commas


def _empty_target(i: int, commas: list[Token], source: str) -> EmptyTargetError:
    # tvmc read group[0] of the empty group: an IndexError, not a TVMCException.
    if not commas:
        return EmptyTargetError("no target given", source, 0, len(source))
    comma = commas[i] if i < len(commas) else commas[i - 1]
    where = "before" if i < len(commas) else "after"
    return EmptyTargetError(f"empty target: there is no target {where} this comma", source, comma.start, comma.end)


def parse_entries(text: str, registry: Registry) -> tuple[list[Parsed], TargetError | None]:
    """The targets, read in tvmc's order: target by target, option by option, the first failure
    raised where tvmc's ``parse_target`` failed. An empty option name (``-=x``, ``--``), which
    tvmc kept, is an option of an extra target (tvmc passed it on to the codegen, unread); in a
    TVM target, which TVM rejected only when it built it, it is returned instead."""
    parsed: list[Parsed] = []
    deferred: TargetError | None = None
    groups, commas = _groups(scan(text))
    for i, group in enumerate(groups):
        if not group:
            raise _empty_target(i, commas, text)
        first = group[0]
        name, name_offset = _unquote_name(first)
        opts: dict[str, Any] = {}
        sources: dict[str, _Source] = {}
        extra = not _is_tvm_target(name, registry)
        for token in group[1:]:
            try:
                key, value, where = _read_option(token, text, empty_name=extra)
            except EmptyKeyOrValueError as err:
                if isinstance(err, EmptyValueError):
                    raise
                deferred = deferred or err
                continue
            # A repeated option keeps its first place and its last value (tvmc's dict).
            opts[key] = value
            sources[key] = where
        span = (first.start, group[-1].end)
        entry = TvmcEntry(
            name,
            opts,
            " ".join(token.text for token in group),
            not extra,
            text[span[0] : span[1]],
            span,
        )
        parsed.append(Parsed(entry, (first.start, first.end), name_offset, tuple(group[1:]), sources))
    return parsed, deferred


def parse_target_list(text: str, *, registry: Registry | None = None) -> tuple[TvmcEntry, ...]:
    """The targets of a list, in order, without validating the list (tvmc's ``parse_target``)."""
    parsed, deferred = parse_entries(text, tvmc_registry(registry))
    if deferred is not None:
        raise deferred
    return tuple(p.entry for p in parsed)
