"""The semantic layer: :class:`Target`, immutable, typed, with semantic equality."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple, TypeAlias, TypeVar, overload

from . import _printing as printing
from ._diagnostics import answers_recursion, on_large_stack, run_deep
from ._json_text import json_member_spans
from ._legacy_words import legacy_spans
from ._lexical import Span
from ._registry import Registry
from ._resolution import DEFAULT_ENVIRONMENT, Environment, features_key, reads_feature_keys
from ._schema import AttrSpec, KindSchema
from ._versions import registry_release

if TYPE_CHECKING:
    from ._attribute_names import (
        BoolAttribute,
        IntAttribute,
        StringArrayAttribute,
        StringAttribute,
        TargetArrayAttribute,
    )

__all__ = ["Target", "build_target", "locate", "make_target", "own_text", "parts", "span_map", "text_form"]

_R = TypeVar("_R")

_EMPTY: Mapping[str, Any] = MappingProxyType({})


def _norm(value: Any, spec: AttrSpec) -> Any:
    return tuple(sorted(value.items())) if isinstance(value, MappingProxyType) else printing.ordered(value, spec)


class _Fields:
    """The fields of a :class:`Target`. A target is built as a :class:`_Building` (whose fields
    are set as any object's are, which costs a third of ``object.__setattr__`` calls) and then
    becomes a Target, which allows no setting."""

    __slots__ = (
        "_attrs",
        "_features",
        "_hash",
        "_host",
        "_keys",
        "_kind",
        "_memo",
        "_norm",
        "_registry",
        "_schema",
        "_spans",
        "_tag",
        "_text",
        "_text_form",
    )

    _attrs: dict[str, Any]
    _features: Mapping[str, Any]
    _hash: int | None
    _host: Target | None
    _keys: tuple[str, ...] | None
    _kind: str
    _memo: dict[str, Any] | None  # what canonical() and resolve() gave, once asked
    _norm: tuple[Any, ...] | None
    _registry: Registry
    _schema: KindSchema
    _spans: Mapping[str, Span] | None  # None: found in the text when first needed
    _tag: str
    # The text; a nested JSON object's is where it stands in the outer text (sliced when asked,
    # so that deep nesting holds one text, not a copy of it per level).
    _text: str | tuple[str, int, int] | None
    _text_form: str


class _Building(_Fields):
    __slots__ = ()


class Target(_Fields):
    """A compilation target: a kind, keys, a host, and typed attributes.

    ``Target(spec)`` is :func:`targetlang.parse`; ``Target(spec, host)`` replaces the host as
    TVM's two-argument constructor did. Targets are immutable and hashable; ``==`` compares
    meaning (attribute order, dash count, quoting and ``=`` versus space do not matter; the
    order of ``keys`` and of ordered arrays does), while ``str()`` gives the exact text the
    target was parsed from.

    A target is not a mapping: ``t.keys`` is TVM's dispatch keys, a tuple, as code written for
    TVM reads it, so ``t.keys()`` and ``dict(t)`` raise ``TypeError``. The attributes' mapping
    is ``t.attrs`` (``dict(t.attrs)``, ``len(t.attrs)``, ``t.attrs.items()``); one attribute
    is ``t["mcpu"]`` (typed for the built-in attributes), ``"mcpu" in t`` or ``t.get("mcpu")``.
    A target is not iterable and has no ``len()``.
    """

    __slots__ = ()

    def __new__(cls, spec: TargetSpec, host: TargetSpec | None = None, *, registry: Registry | None = None) -> Target:
        from ._parsing import parse  # the constructor is a façade over the parser above it

        target = parse(spec, registry=registry)
        return target if host is None else target.with_host(host)

    def __init__(self, spec: TargetSpec, host: TargetSpec | None = None, *, registry: Registry | None = None) -> None:
        """See :class:`Target`; all the work happens in ``__new__``."""

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Target is immutable; use with_attr(), without_attr() or with_host()")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Target is immutable")

    # ------------------------------------------------------------------ fields

    @property
    def kind(self) -> str:
        """The kind name (``llvm``, ``cuda``, ...)."""
        return self._kind

    @property
    def tag(self) -> str:
        """The ``tag`` label; ``""`` unless given (looking a tag up does not set it, as in TVM)."""
        return self._tag

    @property
    def keys(self) -> tuple[str, ...]:
        """Dispatch keys as written (``resolve()`` assembles the final ones); order matters."""
        return self._keys or ()

    @property
    def era(self) -> str:
        """The era whose rules read this target's text (``"0.6"``, ``"0.7"``, ``"0.8"``), or ``""``
        for TVM v0.10 - v0.23's rules, the default (``parse(text, era=...)``)."""
        return self._text_form[len("era ") :] if self._text_form.startswith("era ") else ""

    @property
    def declared_keys(self) -> tuple[str, ...] | None:
        """``keys`` as given, or ``None`` when no ``keys`` entry was given at all.

        The difference matters: any ``keys`` entry, even an empty one, stops ``resolve()`` from
        adding the kind's default keys.
        """
        return self._keys

    @property
    def host(self) -> Target | None:
        """The host target, or ``None``."""
        return self._host

    @property
    def attrs(self) -> Mapping[str, Any]:
        """Attribute name to typed value (int, bool, str, tuple, Target), read-only.

        ``keys``, ``tag`` and ``host`` are fields of their own and never appear here.
        """
        return MappingProxyType(self._attrs)

    @property
    def features(self) -> Mapping[str, Any]:
        """Features by name without the ``feature.`` prefix (``has_dsp``, ``is_test``, ...).

        Read as TVM v0.24 on, a config's ``feature.*`` keys are here from the start; a resolved
        target has what its canonicaliser derived, over the given ones (as TVM's export does).
        Empty otherwise until resolved."""
        return self._features

    @property
    def schema(self) -> KindSchema:
        """The kind's schema in the registry the target was read with."""
        return self._schema

    @property
    def registry(self) -> Registry:
        """The registry the target was read with."""
        return self._registry

    @property
    def device_type(self) -> int:
        """The DLPack device type: ``target_device_type`` when given, else the kind's."""
        value = self._attrs.get("target_device_type")
        return int(value) if value is not None else self._schema.device_type

    # An attribute looked up by name: t["mcpu"], "mcpu" in t, t.get("mcpu"). Nothing more of a
    # mapping: ``keys`` is TVM's dispatch keys (t.keys == ("cpu",)), which code written for TVM
    # reads, so dict(t) and t.keys() cannot work, and a Target that iterated and had a length
    # would invite them; t.attrs is the mapping (dict(t.attrs), len(t.attrs), t.attrs.items()).

    @overload
    def __getitem__(self, name: StringAttribute) -> str: ...
    @overload
    def __getitem__(self, name: IntAttribute) -> int: ...
    @overload
    def __getitem__(self, name: BoolAttribute) -> bool: ...
    @overload
    def __getitem__(self, name: StringArrayAttribute) -> tuple[str, ...]: ...
    @overload
    def __getitem__(self, name: TargetArrayAttribute) -> tuple[Target, ...]: ...
    @overload
    def __getitem__(self, name: str) -> Any: ...

    def __getitem__(self, name: str) -> Any:
        """The typed value of attribute ``name`` (typed for the built-in kinds' attributes: ``str``,
        ``int``, ``bool``, ``tuple[str, ...]``); ``KeyError`` when the target has none."""
        return self._attrs[name]

    def __contains__(self, name: object) -> bool:
        """Whether the target has attribute ``name`` (``keys``, ``tag`` and ``host`` are fields)."""
        return name in self._attrs

    # Not iterable (iter() would otherwise fall back on __getitem__ with 0, 1, ...): iterate
    # t.attrs.
    __iter__ = None

    def __bool__(self) -> bool:
        # A target is always true, attributes or not: `if target.host:` means "has a host".
        return True

    def get(self, name: str, default: Any = None) -> Any:
        """The typed value of attribute ``name``, or ``default``."""
        return self._attrs.get(name, default)

    # ------------------------------------------------------------------ equality

    def _key(self) -> tuple[Any, ...]:
        norm = self._norm
        if norm is None:
            specs = self._schema.attrs
            # an attribute a device query left null is an absent one (TVM printed neither)
            attrs = frozenset(
                (name, _norm(value, specs[name])) for name, value in self._attrs.items() if value is not None
            )
            norm = (self._kind, self._tag, self._keys, self._host, attrs)
            # as the printers write them: from v0.24 on features are data a config holds and the
            # JSON form carries; before, a canonicaliser's results, which no text carries
            if self._features and reads_feature_keys(registry_release(self._registry.version).version):
                norm = (*norm, features_key(self._features))
            object.__setattr__(self, "_norm", norm)
        return norm

    @answers_recursion
    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Target):
            return NotImplemented
        try:
            return self._key() == other._key()
        except RecursionError:  # a deep host chain: see _diagnostics.on_large_stack
            return on_large_stack(lambda: self._key() == other._key())

    def __hash__(self) -> int:
        value = self._hash
        if value is None:
            value = run_deep(lambda: hash(self._key()))
            object.__setattr__(self, "_hash", value)
        return value

    # ------------------------------------------------------------------ printing

    def __str__(self) -> str:
        """The text the target was parsed from, exactly; else :meth:`canonical`."""
        text = self._own_text()
        return text if text is not None else run_deep(self.canonical)

    def _own_text(self) -> str | None:
        text = self._text
        if isinstance(text, tuple):
            source, start, end = text
            return source[start:end]
        return text

    def __repr__(self) -> str:
        return f"Target({str(self)!r})"

    def canonical(self) -> str:
        """A deterministic legacy string that keeps host and tag: equal targets give equal
        strings and ``parse(t.canonical()) == t``. See :func:`targetlang._printing.canonical`."""
        # _memoised and _deep's steps without their calls: a target is printed once, and that
        # first time is most of what printing costs
        memo = self._memo
        found: str | None = memo.get("canonical") if memo is not None else None
        if found is None:
            try:
                found = printing.canonical(self)
            except RecursionError:
                found = on_large_stack(lambda: printing.canonical(self))
            if memo is None:
                memo = {}
                object.__setattr__(self, "_memo", memo)
            memo["canonical"] = found
        return found

    def canonical_jsonish(self) -> str:
        """The canonical JSON-ish text (stable key order, two-space indent, bare words where
        possible); ``parse(t.canonical_jsonish()) == t``."""
        return run_deep(lambda: printing.canonical_jsonish(self))

    def to_json(self) -> dict[str, Any]:
        """The modern form: a dict of JSON types (lists, nested host dict) for TVM >= 0.24."""
        return run_deep(lambda: printing.to_json(self))

    def to_legacy_str(self, env: Environment | None = None) -> str:
        """Exactly what TVM v0.22's ``str()`` printed for this target once resolved with ``env``."""
        resolved = self.resolve(env)
        if env is not None and env != DEFAULT_ENVIRONMENT:
            return run_deep(lambda: printing.legacy_str(resolved))
        return resolved._memoised("legacy_str", lambda: printing.legacy_str(resolved))

    # ------------------------------------------------------------------ resolution

    def resolve(self, env: Environment | None = None) -> Target:
        """TVM v0.22's construction pipeline: canonicaliser, keys assembly, defaults.

        Nested targets (host, devices) are resolved too. Idempotent.
        """
        if env is not None and env != DEFAULT_ENVIRONMENT:
            derived = _DERIVED or _derived()
            return run_deep(lambda: derived.resolved(self, env))
        # The default environment's result is kept: resolving is most of what printing,
        # comparing for dispatch and migrating a target cost, and it is asked for again and again
        # (so it is looked for first).
        memo = self._memo
        found: Target | None = memo.get("resolve") if memo is not None else None
        if found is None:
            derived = _DERIVED or _derived()
            found = self._memoised("resolve", lambda: derived.resolved(self, DEFAULT_ENVIRONMENT))
        return found

    def _memoised(self, name: str, make: Callable[[], _R]) -> _R:
        """What ``make()`` gave the first time this target was asked for ``name``."""
        memo = self._memo
        if memo is None:
            memo = {}
            object.__setattr__(self, "_memo", memo)
        found: _R | None = memo.get(name)
        if found is None:
            found = memo[name] = run_deep(make)
        return found

    def _span_map(self) -> Mapping[str, Span]:
        spans = self._spans
        if spans is None:
            # A text read without recording where its parts are (legacy strings, and JSON text on
            # the parser's fast path): they are found in the text when something first asks.
            text = self._own_text()
            assert text is not None
            found = legacy_spans(text) if self._text_form == "legacy" else json_member_spans(text)
            spans = MappingProxyType(found)
            object.__setattr__(self, "_spans", spans)
        return spans

    def source_span(self, name: str) -> tuple[int, int] | None:
        """Where option or member ``name`` (its key and value) stands in ``str(self)``, or
        ``None`` when the target has no text or the text does not spell it out."""
        span = self._span_map().get(name)
        if self._text is None or span is None:
            return None
        return (span[0], span[3])

    # ------------------------------------------------------------------ edits

    def with_attr(self, name: str, value: Any) -> Target:
        """A copy with attribute ``name`` set to ``value`` (``keys``, ``tag``, ``host`` too).

        The value is checked against the kind's schema. In a target read from text only the
        edited option is written anew; every other byte keeps its spelling.
        """
        return (_DERIVED or _derived()).with_value(self, name, value)

    def without_attr(self, name: str) -> Target:
        """A copy without attribute ``name``; the target itself when it has none."""
        return (_DERIVED or _derived()).without(self, name)

    def with_host(self, host: TargetSpec | None) -> Target:
        """A copy whose host is ``host`` (a Target, spec text or dict); ``None`` removes it."""
        if host is None:
            return self.without_attr("host")
        return self.with_attr("host", host)


class _Derivers(NamedTuple):
    """What ``_derived`` makes of a target: it sits above this module (it makes Targets) and is
    imported on first use (an import statement in each method cost 1.6 µs a call, a third of
    resolving a target)."""

    resolved: Callable[[Target, Environment], Target]
    with_value: Callable[[Target, str, Any], Target]
    without: Callable[[Target, str], Target]


_DERIVED: _Derivers | None = None


def _derived() -> _Derivers:
    global _DERIVED
    from ._derived import resolved, with_value, without

    _DERIVED = _Derivers(resolved, with_value, without)
    return _DERIVED


TargetSpec: TypeAlias = "str | Mapping[str, object] | Target"
"""What :func:`targetlang.parse` reads: a legacy string, a tag name or JSON text; a config
mapping (``{"kind": "cuda", "host": "llvm"}``, whose values may be targets); or a
:class:`Target`, returned as it is."""


def make_target(
    schema: KindSchema,
    registry: Registry,
    *,
    tag: str = "",
    keys: tuple[str, ...] | None = None,
    host: Target | None = None,
    attrs: dict[str, Any] | None = None,
    features: Mapping[str, Any] = _EMPTY,
    text: str | tuple[str, int, int] | None = None,
    text_form: str = "",
    spans: Mapping[str, Span] | None = _EMPTY,
) -> Target:
    """A target of fields already read (the readers', ``_eras``', the migration's)."""
    return build_target(schema, registry, tag, keys, host, attrs, features, text, text_form, spans)


def build_target(
    schema: KindSchema,
    registry: Registry,
    tag: str,
    keys: tuple[str, ...] | None,
    host: Target | None,
    attrs: dict[str, Any] | None,
    features: Mapping[str, Any],
    text: str | tuple[str, int, int] | None,
    text_form: str,
    spans: Mapping[str, Span] | None,
) -> Target:
    """:func:`make_target` with every field given in order: a legacy string's reading calls
    this, since keyword arguments cost a fifth of reading a short string."""
    self: Any = object.__new__(_Building)
    self._kind = schema.name
    self._schema = schema
    self._registry = registry
    self._tag = tag
    self._keys = keys
    self._host = host
    self._attrs = attrs if attrs is not None else {}
    self._features = features
    self._text = text
    self._text_form = text_form
    self._spans = spans
    self._norm = None
    self._hash = None
    self._memo = None
    self.__class__ = Target
    built: Target = self
    return built


def text_form(target: Target) -> str:
    """How ``target``'s text was written: ``"legacy"``, ``"json"``, ``"era X"``, or ``""``."""
    return target._text_form


def parts(
    target: Target,
) -> tuple[KindSchema, Registry, str, tuple[str, ...] | None, Target | None, dict[str, Any], Mapping[str, Any]]:
    """What ``target`` is made of, in ``build_target``'s order (schema, registry, tag, keys as
    given, host, attributes, given features), for the module that derives targets from it
    (``_derived``) in one call: it is on the path of every resolve. The attributes are the
    target's own dict, to read, never to change."""
    return (target._schema, target._registry, target._tag, target._keys, target._host, target._attrs, target._features)


def own_text(target: Target) -> str | None:
    """The text ``target`` was read from, or ``None`` for a target made without one."""
    return target._own_text()


def span_map(target: Target) -> Mapping[str, Span]:
    """Where each member of ``target`` stands in its own text: (key start, key end, value start,
    value end)."""
    return target._span_map()


def locate(target: Target, name: str) -> tuple[str, int, int]:
    """The text ``target`` was read from and where the value of its member ``name`` stands in it
    (``("", 0, 0)`` when it has no text or the text does not spell the member out)."""
    span = target._span_map().get(name)
    text = target._own_text()
    if text is None or span is None:
        return ("", 0, 0)
    return (text, span[2], span[3])
