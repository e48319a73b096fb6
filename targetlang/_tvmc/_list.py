"""A whole tvmc target list: checked as tvmc checked it, its targets built, and the
immutable :class:`TvmcTargets` that prints it back."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from .._lexical import encode_scalar, split_items
from .._parsing import parse
from .._registry import Registry, builtin_registry
from .._target import Target
from ..errors import MismatchedQuoteError, TargetError, show
from ._entries import Parsed, TvmcEntry, parse_entries, tvmc_registry
from ._tokens import CODEGENS, TVMC_VERSION, InlineJSONError, TvmcError

__all__ = ["TvmcTargets", "parse_tvmc"]


def _is_json(text: str) -> bool:
    """Whether tvmc's ``is_inline_json`` held: ``json.loads`` reads the text."""
    try:
        json.loads(text)
    except RecursionError:
        return True  # nested too deeply for json.loads, which tvmc crashed on as well
    except ValueError:
        return False
    return True


def _validate(parsed: list[Parsed], text: str, registry: Registry, options: Mapping[str, Mapping[str, Any]]) -> None:
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


def _build(p: Parsed, text: str, registry: Registry) -> Target:
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
    reg = tvmc_registry(registry)
    frozen = MappingProxyType({name: MappingProxyType(dict(opts)) for name, opts in (options or {}).items()})
    if text.strip() and _is_json(text):
        raise InlineJSONError(
            "tvmc read this as inline JSON, a path on which v0.8 - v0.19 failed (UnboundLocalError);"
            " read JSON targets with targetlang.parse",
            text,
            0,
            len(text),
        )
    parsed, deferred = parse_entries(text, reg)
    _validate(parsed, text, reg, frozen)
    if deferred is not None:
        raise deferred
    merged = [p if p.entry.name not in frozen else _merged(p, frozen[p.entry.name]) for p in parsed]
    tvm = [p for p in merged if p.entry.is_tvm_target]
    target = _build(tvm[0], text, reg)
    if len(tvm) == 2:
        target = target.with_host(_build(tvm[1], text, reg))
    return TvmcTargets._make(text, reg, frozen, tuple(p.entry for p in merged), target)


def _merged(p: Parsed, extra: Mapping[str, Any]) -> Parsed:
    """``p`` with per-kind flag values merged over its options (tvmc's ``_combine_target_options``)."""
    sources = {key: replace(where, overridden=key in extra) for key, where in p.sources.items()}
    return replace(p, entry=replace(p.entry, opts={**p.entry.opts, **extra}), sources=sources)
