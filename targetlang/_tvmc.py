"""tvmc's ``--target`` lists and per-kind flags (TVM v0.8 - v0.19, spec section 11).

tvmc, TVM's command-line driver until Relay was removed in v0.20, took a comma-separated list of
targets: BYOC codegens first, then one or two TVM targets (the second is the host)::

    >>> from targetlang._tvmc import parse_tvmc
    >>> t = parse_tvmc("cmsis-nn, c -mcpu=cortex-m55")
    >>> t.target
    Target('c -mcpu=cortex-m55')
    >>> [e.name for e in t.extra_targets]
    ['cmsis-nn']
    >>> str(t)
    'cmsis-nn, c -mcpu=cortex-m55'

It also generated one ``--target-KIND-ATTR`` flag per attribute of every kind; their values
override the options written in the list (:func:`add_target_args`, :func:`options_from_flags`).

For every list tvmc read correctly the result is tvmc v0.19's. tvmc's tokenizer silently
dropped the characters its regular expression did not know (``/ : @``, a second ``=``, quotes
around text with such characters); :func:`tokenize` keeps them, and gives tvmc's tokens for every
text where tvmc dropped nothing but whitespace. The differences are listed in the section
"tvmc target lists" of docs/language.md.
"""

from __future__ import annotations

import argparse
import functools
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, NamedTuple, NoReturn

from ._lexical import encode_scalar, split_items
from ._parsing import parse
from ._registry import Registry, builtin_registry
from ._target import Target
from ._versions import Version
from .errors import EmptyKeyOrValueError, MismatchedQuoteError, TargetError, show

__all__ = [
    "CODEGENS",
    "TVMC_VERSION",
    "EmptyTargetError",
    "EmptyValueError",
    "InlineJSONError",
    "Token",
    "TvmcEntry",
    "TvmcError",
    "TvmcTargets",
    "add_target_args",
    "options_from_flags",
    "parse_target_list",
    "parse_tvmc",
    "scan",
    "target_flags",
    "tokenize",
]

TVMC_VERSION = "0.19"
"""The last TVM release with tvmc; its registry is the default."""

CODEGENS: frozenset[str] = frozenset(
    # v0.19's REGISTERED_CODEGEN, plus the ones earlier releases had (spec 11.1 step 4). Some of
    # them were registered target kinds too (cmsis-nn, ethos-u, clml, mrvl); tvmc still treated
    # them as codegens, never as the target or the host.
    ("compute-library", "bnns", "vitis-ai", "clml", "mrvl", "cmsis-nn", "ethos-n", "ethos-n77", "ethos-n78", "ethos-u")
)
"""Names tvmc treated as BYOC codegens ("extra targets"), whether or not a kind has the name."""

# PassContext config fields that tvmc turned into --target-CODEGEN-FIELD flags. Only the fields
# the conformance cases use (c165-c167, tests of v0.18; the real config nodes had more, such as
# cmsis-nn's mattr and ethos-u's enable_striping), with tvmc's argparse types: String -> str,
# Bool (an IntImm then) -> int. No defaults: the cases show none reaching reconstruct_target_args.
_CODEGEN_FIELDS: dict[str, tuple[tuple[str, type], ...]] = {
    "cmsis-nn": (("mcpu", str),),
    "ethos-u": (("accelerator_config", str), ("enable_cascader", int)),
}
# Both codegens left tvmc's list after v0.18 (spec 11.1 step 4).
_CODEGEN_FIELDS_LAST = Version(0, 18)


class TvmcError(TargetError):
    """A target list or flag set that tvmc rejected, or crashed on (TVMCException's counterpart)."""


# tvmc v0.19 failed on some texts with a plain Python exception that escaped target_from_cli (it
# caught only ValueError): these errors are also instances of that exception's class.


class EmptyTargetError(TvmcError, IndexError):
    """No target at all, or none before or after a comma: tvmc read ``codegen_def[0]`` of an
    empty target, an ``IndexError``."""


class EmptyValueError(EmptyKeyOrValueError, IndexError):
    """An option with an empty value (``-mcpu=``, ``-mcpu=''``): tvmc read ``opt_value[0]`` of an
    empty string, an ``IndexError``."""


class InlineJSONError(TvmcError, UnboundLocalError):
    """A list that ``json.loads`` reads: tvmc took it for inline JSON and then used the unset
    ``target_host``, an ``UnboundLocalError``."""


# ---------------------------------------------------------------- tokens

# tvmc's regex, as character classes: a token is `-{0,2}[\w-]+` (the name part), an optional
# `=`, then pieces: unquoted `[\w+.-]+` runs (a comma inside one only before such a character)
# or quoted `'[\w+\-,\s.]+'` / `"..."` strings. `\w` and `\s` are Unicode-aware, as in tvmc.
_SPACE = re.compile(r"\s")
_NAME_CHAR = re.compile(r"[\w\-]")
_PIECE_CHAR = re.compile(r"[\w+.\-]")
_QUOTED_CONTENT = re.compile(r"[\w+\-,\s.]+")
_QUOTES = "'\""

# Where tvmc's regex would be inside the token being scanned. DIRTY: the token holds a character
# tvmc dropped, so tvmc's tokens differ from ours anyway and only our own comma rule applies.
_NAME, _EQ, _PIECE, _QUOTED, _DIRTY = range(5)


class Token(NamedTuple):
    """A token of a target list: its text and where it stands, ``text == source[start:end]``."""

    text: str
    start: int
    end: int


def tokenize(text: str) -> list[str]:
    """The tokens of a tvmc target list: ``","`` between targets, names and options otherwise.

    Equal to tvmc's ``tokenize_target`` whenever tvmc dropped no character but whitespace;
    otherwise the characters tvmc dropped stay in the token they touch. Raises
    :class:`MismatchedQuoteError` for a quote that is never closed.
    """
    return [token.text for token in scan(text)]


def scan(text: str) -> list[Token]:
    """:func:`tokenize` with the position of every token."""
    tokens: list[Token] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if _SPACE.match(c):
            i += 1
        elif c == ",":
            tokens.append(Token(",", i, i + 1))
            i += 1
        else:
            end = _token_end(text, i)
            tokens.append(Token(text[i:end], i, end))
            i = end
    return tokens


def _token_end(text: str, start: int) -> int:
    """Where the token starting at ``start`` (not a space, not a comma) ends."""
    n = len(text)
    # A token that does not start with a name character is one tvmc dropped characters of.
    state = _NAME if _NAME_CHAR.match(text[start]) else _DIRTY
    has_eq = False
    after_quote = False
    i = start
    while i < n:
        c = text[i]
        if c in _QUOTES:
            close = text.find(c, i + 1)
            if close < 0:
                raise MismatchedQuoteError("mismatched quote: this quote is never closed", text, i, i + 1)
            valid = state != _DIRTY and _QUOTED_CONTENT.fullmatch(text, i + 1, close) is not None
            state = _QUOTED if valid else _DIRTY
            after_quote = True
            i = close + 1
            continue
        if _SPACE.match(c):
            break
        if c == ",":
            following = text[i + 1] if i + 1 < n else ""
            if state == _PIECE and following and _PIECE_CHAR.match(following):
                i += 1  # tvmc's own rule: a comma between two value characters is in the value
                continue
            # Ours, for values with characters tvmc dropped (-libs=my/lib,cudnn): in a value
            # after "=", a comma followed by a non-space belongs to it. Never right after the
            # "=" or a closing quote, where tvmc separated targets in texts it read correctly.
            if (
                has_eq
                and not after_quote
                and text[i - 1] != "="
                and following
                and following != ","
                and not _SPACE.match(following)
            ):
                state = _DIRTY
                i += 1
                continue
            break
        after_quote = False
        if c == "=":
            has_eq = True
            state = _EQ if state == _NAME else _DIRTY
        elif _NAME_CHAR.match(c):
            if state in (_EQ, _PIECE, _QUOTED):
                state = _PIECE
        elif c in "+.":
            if state != _DIRTY:
                state = _PIECE
        else:
            state = _DIRTY
        i += 1
    return i


# ---------------------------------------------------------------- entries


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
class _Parsed:
    entry: TvmcEntry
    name_span: tuple[int, int]
    name_offset: int  # where the name's first character stands (after a removed quote)
    option_tokens: tuple[Token, ...]
    sources: Mapping[str, _Source] = field(default_factory=dict)


def _registry(registry: Registry | None) -> Registry:
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
        if c in _QUOTES:
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
    quoted = raw[0] in _QUOTES
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
    if len(text) >= 2 and text[0] in _QUOTES and text[-1] == text[0] and text[0] not in text[1:-1]:
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


def _parse_entries(text: str, registry: Registry) -> tuple[list[_Parsed], TargetError | None]:
    """The targets, read in tvmc's order: target by target, option by option, the first failure
    raised where tvmc's ``parse_target`` failed. An empty option name (``-=x``, ``--``), which
    tvmc kept, is an option of an extra target (tvmc passed it on to the codegen, unread); in a
    TVM target, which TVM rejected only when it built it, it is returned instead."""
    parsed: list[_Parsed] = []
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
        parsed.append(_Parsed(entry, (first.start, first.end), name_offset, tuple(group[1:]), sources))
    return parsed, deferred


def parse_target_list(text: str, *, registry: Registry | None = None) -> tuple[TvmcEntry, ...]:
    """The targets of a list, in order, without validating the list (tvmc's ``parse_target``)."""
    parsed, deferred = _parse_entries(text, _registry(registry))
    if deferred is not None:
        raise deferred
    return tuple(p.entry for p in parsed)


# ---------------------------------------------------------------- the whole list


def _is_json(text: str) -> bool:
    """Whether tvmc's ``is_inline_json`` held: ``json.loads`` reads the text."""
    try:
        json.loads(text)
    except RecursionError:
        return True  # nested too deeply for json.loads, which tvmc crashed on as well
    except ValueError:
        return False
    return True


def _validate(parsed: list[_Parsed], text: str, registry: Registry, options: Mapping[str, Mapping[str, Any]]) -> None:
    """tvmc's ``validate_targets``, in its order."""
    seen: set[str] = set()
    for p in parsed:
        if p.entry.name in seen:
            raise TvmcError(
                f"target {show(p.entry.name)} is given twice: each target may appear once", text, *p.name_span
            )
        seen.add(p.entry.name)
    last = parsed[-1]
    if not last.entry.is_tvm_target:
        name = last.entry.name
        what = "a BYOC codegen" if name in CODEGENS else "not a registered target kind or tag"
        choices = ", ".join(kind for kind in registry.kinds if kind not in CODEGENS)
        raise TvmcError(
            f"the last target must be a TVM target, and {show(name)} is {what}; kinds: {choices}",
            text,
            *last.name_span,
        )
    tvm = [p for p in parsed if p.entry.is_tvm_target]
    if len(tvm) > 2:
        found = ", ".join(p.entry.name for p in tvm)
        raise TvmcError(
            f"at most two TVM targets (a target and its host) can be given; found {len(tvm)}: {found}",
            text,
            *tvm[2].name_span,
        )
    names = {p.entry.name for p in parsed}
    for name, opts in options.items():
        # An empty mapping stands for no flag at all (tvmc failed on it with an IndexError).
        if opts and name not in names:
            # tvmc's wording, which its tests matched on.
            raise TvmcError(
                f"Passed --target-{name}-{next(iter(opts))} but did not specify {name} target", text, 0, len(text)
            )


def _one_word(value: str) -> bool:
    """Whether TVM reads ``value`` back as exactly this one word (no space outside quotes)."""
    try:
        items = split_items(value, " ")
    except MismatchedQuoteError:
        return False
    return len(items) == 1 and items[0][0] == value


def _render(value: Any, quoted: bool, flag: bool) -> str:
    """An option value as text for ``-key=VALUE`` (tvmc's ``_recombobulate_target``).

    tvmc wrote ``str(value)`` as it was. We do too for a per-kind flag value (``flag``), so that
    it reads as tvmc's did (an empty one, or one with spaces, is rejected as TVM rejected
    ``-mcpu=`` and ``-mcpu=a b``), and for a value of the list that is one word and was not
    quoted there (so TVM quoting inside it, as in ``x,'+a,+b'``, keeps its meaning); otherwise
    the value is escaped and quoted so that it arrives whole: tvmc had removed the quotes of
    ``-host='llvm -mcpu=skylake'`` and TVM then read ``-mcpu=skylake`` as an option.
    """
    text = str(value)
    if flag or (not quoted and _one_word(text)):
        return text
    return encode_scalar(text)


def _spread(span: tuple[int, int], length: int) -> list[int]:
    """Offsets for ``length`` characters that stand for the source text at ``span``."""
    start, end = span
    if end - start == length:
        return list(range(start, end))
    # Different lengths (quotes added or escapes): the first character at the start, the others
    # at the end, so that an error about the whole value still covers the whole value.
    return [start] + [max(start, end - 1)] * (length - 1) if length else []


def _build(p: _Parsed, text: str, registry: Registry) -> Target:
    """A TVM target from an entry: a tag as is, else ``NAME -k1=v1 ...`` read by :func:`parse`."""
    entry = p.entry
    if entry.name not in registry.kinds:  # a tag
        if entry.opts:
            first = p.option_tokens[0] if p.option_tokens else None
            start, end = (first.start, first.end) if first is not None else p.name_span
            raise TvmcError(f"the tag {show(entry.name)} is a whole target: it takes no options", text, start, end)
        return parse(entry.name, registry=registry)
    # The text tvmc rebuilt, and for each of its characters where it came from in the list.
    parts = [entry.name]
    offsets = list(range(p.name_offset, p.name_offset + len(entry.name)))
    from_flags: list[tuple[int, int, tuple[int, int]]] = []  # rebuilt options a flag gave, and their anchors
    for key, value in entry.opts.items():
        where = p.sources.get(key)
        anchor = where.token if where is not None else p.name_span
        key_at = list(range(where.key_start, where.key_start + len(key))) if where else _spread(anchor, len(key))
        in_text = where is not None and not where.overridden
        verbatim = in_text and where is not None and where.verbatim
        raw = _render(value, in_text and where is not None and where.quoted, not in_text or verbatim)
        value_at = _spread((where.value or where.token) if in_text and where is not None else anchor, len(raw))
        if not in_text:
            start = len(offsets)
            from_flags.append((start, start + len(key) + len(raw) + 3, anchor))
        parts.append(f" -{key}={raw}")
        offsets += [anchor[0], anchor[0], *key_at, key_at[-1] if key_at else anchor[0], *value_at]
    rebuilt = "".join(parts)
    try:
        return parse(rebuilt, registry=registry)
    except TargetError as err:
        if err.source != rebuilt:
            raise
        for start, end, anchor in from_flags:  # a flag's option is not in the text: its target stands for it
            if start <= err.start < end:
                raise err.at(text, *anchor) from None
        raise err.relocated(text, offsets, entry.span[1]) from None


class TvmcTargets:
    """A tvmc target list read as tvmc v0.19 read it: the target, its host, the extra targets.

    Immutable. ``str()`` is the list's text, exactly; ``repr()`` is a :func:`parse_tvmc` call
    that gives the object back (when the registry is a built-in one).

    Attributes:
        target: the first TVM target, built from ``NAME -k1=v1 ...`` with the per-kind flag
            values merged in, host set; not resolved (call :meth:`Target.resolve`).
        host: ``target.host``: the second TVM target when there is one.
        targets: every target of the list, in order (:class:`TvmcEntry`).
        extra_targets: the targets that are not TVM targets (BYOC codegens), in order.
        options: the per-kind flag values that were merged in, read-only.
        registry: the registry the names were looked up in.
    """

    __slots__ = ("_options", "_registry", "_target", "_targets", "_text")

    _options: Mapping[str, Mapping[str, Any]]
    _registry: Registry
    _target: Target
    _targets: tuple[TvmcEntry, ...]
    _text: str

    def __new__(
        cls,
        text: str,
        *,
        registry: Registry | None = None,
        options: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> TvmcTargets:
        return parse_tvmc(text, registry=registry, options=options)

    @classmethod
    def _make(
        cls,
        text: str,
        registry: Registry,
        options: Mapping[str, Mapping[str, Any]],
        targets: tuple[TvmcEntry, ...],
        target: Target,
    ) -> TvmcTargets:
        self = object.__new__(cls)
        setter = object.__setattr__
        setter(self, "_text", text)
        setter(self, "_registry", registry)
        setter(self, "_options", options)
        setter(self, "_targets", targets)
        setter(self, "_target", target)
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("TvmcTargets is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("TvmcTargets is immutable")

    @property
    def target(self) -> Target:
        """The first TVM target, with its host."""
        return self._target

    @property
    def host(self) -> Target | None:
        """The host: the second TVM target, else a ``-host`` given inline, else ``None``."""
        return self._target.host

    @property
    def targets(self) -> tuple[TvmcEntry, ...]:
        """Every target of the list, in order, with the per-kind flag values merged in."""
        return self._targets

    @property
    def extra_targets(self) -> tuple[TvmcEntry, ...]:
        """The targets that are not TVM targets, in order (tvmc's ``extra_targets``)."""
        return tuple(entry for entry in self._targets if not entry.is_tvm_target)

    @property
    def options(self) -> Mapping[str, Mapping[str, Any]]:
        """The per-kind flag values given to :func:`parse_tvmc`."""
        return self._options

    @property
    def registry(self) -> Registry:
        """The registry the list was read with."""
        return self._registry

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        args = [repr(self._text)]
        if self._options:
            args.append(f"options={ {name: dict(opts) for name, opts in self._options.items()}!r}")
        registry = self._registry
        if registry != builtin_registry(TVMC_VERSION):
            builtin = registry.version and builtin_registry(registry.version) == registry
            args.append(f"registry=builtin_registry({registry.version!r})" if builtin else f"registry={registry!r}")
        return f"parse_tvmc({', '.join(args)})"

    def _key(self) -> tuple[Any, ...]:
        options = tuple((name, tuple(opts.items())) for name, opts in self._options.items())
        return (self._text, self._registry, options)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TvmcTargets):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash((self._text, self._registry, tuple(self._options)))

    def __reduce__(self) -> tuple[Any, ...]:
        version = self._registry.version
        if not version or builtin_registry(version) != self._registry:
            raise TypeError("only lists read with a built-in registry can be pickled")
        options = {name: dict(opts) for name, opts in self._options.items()}
        return (_unpickle, (self._text, version, options))


def _unpickle(text: str, version: str, options: dict[str, dict[str, Any]]) -> TvmcTargets:
    return parse_tvmc(text, registry=builtin_registry(version), options=options)


def parse_tvmc(
    text: str,
    *,
    registry: Registry | None = None,
    options: Mapping[str, Mapping[str, Any]] | None = None,
) -> TvmcTargets:
    """Read a tvmc ``--target`` list as tvmc v0.19's ``target_from_cli`` did (spec 11.1).

    ``registry`` decides which names are target kinds (default: v0.19's, tvmc's last).
    ``options`` maps a target name to option values, as :func:`options_from_flags` gives them;
    they override the options written in the list. Raises a :class:`TargetError` subclass
    (:class:`TvmcError` for the list's own rules) with a span into ``text``.
    """
    if not isinstance(text, str):
        raise TypeError(f"a tvmc target list is a str, not {type(text).__name__}")
    reg = _registry(registry)
    frozen = MappingProxyType({name: MappingProxyType(dict(opts)) for name, opts in (options or {}).items()})
    if text.strip() and _is_json(text):
        raise InlineJSONError(
            "tvmc read this as inline JSON, a path on which v0.8 - v0.19 failed (UnboundLocalError);"
            " read JSON targets with targetlang.parse",
            text,
            0,
            len(text),
        )
    parsed, deferred = _parse_entries(text, reg)
    _validate(parsed, text, reg, frozen)
    if deferred is not None:
        raise deferred
    merged = [p if p.entry.name not in frozen else _merged(p, frozen[p.entry.name]) for p in parsed]
    tvm = [p for p in merged if p.entry.is_tvm_target]
    target = _build(tvm[0], text, reg)
    if len(tvm) == 2:
        target = target.with_host(_build(tvm[1], text, reg))
    return TvmcTargets._make(text, reg, frozen, tuple(p.entry for p in merged), target)


def _merged(p: _Parsed, extra: Mapping[str, Any]) -> _Parsed:
    """``p`` with per-kind flag values merged over its options (tvmc's ``_combine_target_options``)."""
    sources = {key: replace(where, overridden=key in extra) for key, where in p.sources.items()}
    return replace(p, entry=replace(p.entry, opts={**p.entry.opts, **extra}), sources=sources)


# ---------------------------------------------------------------- per-kind flags


class _Flag(NamedTuple):
    kind: str
    attr: str
    type: type


def _version(registry: Registry) -> Version:
    """The registry's TVM release; one without a version is taken as tvmc's last."""
    return Version.find(registry.version) or Version.parse(TVMC_VERSION)


def _flag_type(type_name: str, int_era: bool) -> type | None:
    # tvmc's INTERNAL_TO_NATIVE_TYPE: String -> str, Array -> str (passed on verbatim, split
    # later by the target parser), IntImm -> int. From v0.18 ints and bools were BoxInt and
    # BoxBool, which the table did not know: no flags. Targets and maps never had flags.
    if type_name in ("string", "array"):
        return str
    if type_name in ("int", "bool") and int_era:
        return int
    return None


@functools.lru_cache(maxsize=32)
def _flags(registry: Registry) -> dict[str, _Flag]:
    version = _version(registry)
    flags: dict[str, _Flag] = {}
    for kind, schema in registry.kinds.items():
        if kind in CODEGENS:
            continue
        for attr, spec in schema.attrs.items():
            typ = _flag_type(spec.type.name, version <= Version(0, 17))
            if typ is not None:
                flags[f"--target-{kind}-{attr}"] = _Flag(kind, attr, typ)
    if version <= _CODEGEN_FIELDS_LAST:
        for codegen, fields in _CODEGEN_FIELDS.items():
            for attr, typ in fields:
                flags[f"--target-{codegen}-{attr}"] = _Flag(codegen, attr, typ)
    return flags


def _dest(kind: str, attr: str) -> str:
    return f"target_{kind.replace('-', '_')}_{attr.replace('-', '_')}"


def target_flags(registry: Registry | None = None) -> dict[str, tuple[str, str]]:
    """tvmc's per-kind flags: ``"--target-KIND-ATTR"`` to ``(kind, attr)`` (spec 11.2).

    Every attribute of every non-codegen kind whose type is a string, an array, or (up to
    v0.17) an int or bool; plus the codegen config fields tvmc offered. The argparse
    destination of a flag is ``target_<kind>_<attr>`` with ``-`` turned into ``_``.
    """
    return {flag: (f.kind, f.attr) for flag, f in _flags(_registry(registry)).items()}


def add_target_args(parser: argparse.ArgumentParser, registry: Registry | None = None) -> None:
    """Add ``--target`` and the per-kind flags to ``parser`` (tvmc's ``generate_target_args``)."""
    parser.add_argument(
        "--target", help="compilation target as plain string, inline JSON or path to a JSON file", required=False
    )
    groups: dict[str, argparse._ArgumentGroup] = {}
    for flag, f in _flags(_registry(registry)).items():
        group = groups.get(f.kind)
        if group is None:
            group = groups[f.kind] = parser.add_argument_group(f"target {f.kind}")
        group.add_argument(flag, dest=_dest(f.kind, f.attr), type=f.type, help=f"target {f.kind} {f.attr}")


class _FlagParser(argparse.ArgumentParser):
    """An argument parser that raises instead of printing and exiting."""

    def error(self, message: str) -> NoReturn:
        raise _FlagFailure(message)


class _FlagFailure(Exception):
    pass


def options_from_flags(
    flags: Mapping[str, Any] | Sequence[str], registry: Registry | None = None
) -> dict[str, dict[str, Any]]:
    """Per-kind options from flag values (tvmc's ``reconstruct_target_args``).

    ``flags`` is either the parsed values, keyed by argparse destination (``vars(args)``) or by
    flag (``"--target-llvm-mcpu"``), or a command line, parsed as tvmc's argparse parser did
    (arguments that are not per-kind flags are ignored). Returns ``{kind: {attr: value}}`` for
    the flags given (``None`` means not given), ready for :func:`parse_tvmc`'s ``options``.
    """
    specs = _flags(_registry(registry))
    if isinstance(flags, str):
        raise TypeError("flags are a mapping or a sequence of command-line arguments, not one str")
    values: Mapping[str, Any]
    if isinstance(flags, Mapping):
        values = {key[2:].replace("-", "_") if key.startswith("--") else key: v for key, v in flags.items()}
    else:
        argv = list(flags)
        parser = _FlagParser(prog="tvmc", add_help=False)
        add_target_args(parser, registry)
        try:
            namespace, _ = parser.parse_known_args(argv)
        except _FlagFailure as failure:
            line = " ".join(argv)
            raise TvmcError(f"bad tvmc flags: {failure}", line, 0, len(line)) from None
        values = vars(namespace)
    options: dict[str, dict[str, Any]] = {}
    for f in specs.values():
        value = values.get(_dest(f.kind, f.attr))
        if value is not None:
            options.setdefault(f.kind, {})[f.attr] = value
    return options
