"""The semantic layer: :class:`Target`, immutable, typed, with semantic equality."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar, overload

from . import _printing as printing
from ._diagnostics import answers_recursion, on_large_stack
from ._json_text import json_member_spans, json_string_offsets
from ._legacy_words import legacy_spans
from ._lexical import encode_scalar, interpret, interpret_offsets
from ._registry import Registry
from ._resolution import DEFAULT_ENVIRONMENT, Environment, features_key, reads_feature_keys, resolve_parts
from ._schema import AttrSpec, KindSchema
from ._values import from_json, is_representable, to_text
from ._versions import registry_release
from .errors import TargetError, UnknownAttributeError

if TYPE_CHECKING:
    from ._attribute_names import (
        BoolAttribute,
        IntAttribute,
        StringArrayAttribute,
        StringAttribute,
        TargetArrayAttribute,
    )

__all__ = ["Target", "build_target", "locate", "make_target", "span_map", "text_form"]

# Where an option or member stands in the target's own text:
# (start of the option or key, end of the key, start of the value, end of the value).
Span = tuple[int, int, int, int]
_R = TypeVar("_R")

_EMPTY: Mapping[str, Any] = MappingProxyType({})


def _norm(value: Any, spec: AttrSpec) -> Any:
    if isinstance(value, MappingProxyType):
        return tuple(sorted(value.items()))
    if spec.type.name == "array" and not spec.ordered:
        return tuple(sorted(value, key=printing.sort_key))
    return value


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

    @classmethod
    def _make(
        cls,
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
        return cls._build(schema, registry, tag, keys, host, attrs, features, text, text_form, spans)

    @classmethod
    def _build(
        cls,
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
        # _make with every field given in order: a legacy string's reading calls this, since
        # keyword arguments cost a fifth of reading a short string.
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
        self.__class__ = cls
        built: Target = self
        return built

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
            value = _deep(lambda: hash(self._key()))
            object.__setattr__(self, "_hash", value)
        return value

    # ------------------------------------------------------------------ printing

    def __str__(self) -> str:
        """The text the target was parsed from, exactly; else :meth:`canonical`."""
        text = self._own_text()
        return text if text is not None else _deep(self.canonical)

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
        return _deep(lambda: printing.canonical_jsonish(self))

    def to_json(self) -> dict[str, Any]:
        """The modern form: a dict of JSON types (lists, nested host dict) for TVM >= 0.24."""
        return _deep(lambda: printing.to_json(self))

    def to_legacy_str(self, env: Environment | None = None) -> str:
        """Exactly what TVM v0.22's ``str()`` printed for this target once resolved with ``env``."""
        resolved = self.resolve(env)
        if env is not None and env != DEFAULT_ENVIRONMENT:
            return _deep(lambda: printing.legacy_str(resolved))
        return resolved._memoised("legacy_str", lambda: printing.legacy_str(resolved))

    # ------------------------------------------------------------------ resolution

    def resolve(self, env: Environment | None = None) -> Target:
        """TVM v0.22's construction pipeline: canonicaliser, keys assembly, defaults.

        Nested targets (host, devices) are resolved too. Idempotent.
        """
        if env is not None and env != DEFAULT_ENVIRONMENT:
            return _deep(lambda: self._resolve(env))
        # The default environment's result is kept: resolving is most of what printing,
        # comparing for dispatch and migrating a target cost, and it is asked for again and again.
        return self._memoised("resolve", lambda: self._resolve(DEFAULT_ENVIRONMENT))

    def _memoised(self, name: str, make: Callable[[], _R]) -> _R:
        """What ``make()`` gave the first time this target was asked for ``name``."""
        memo = self._memo
        if memo is None:
            memo = {}
            object.__setattr__(self, "_memo", memo)
        found: _R | None = memo.get(name)
        if found is None:
            found = memo[name] = _deep(make)
        return found

    def _resolve(self, env: Environment) -> Target:
        version = registry_release(self._registry.version).version
        keys, attrs, features = resolve_parts(
            self._schema, self._keys, self._attrs, env, self._locate, version, self._features
        )
        for name, value in attrs.items():
            spec = self._schema.attrs.get(name)
            if spec is not None and spec.type.holds_targets:
                attrs[name] = _map_targets(value, lambda t: t.resolve(env))
        host = None
        if self._host is not None:
            try:
                host = self._host.resolve(env)
            except TargetError as err:
                raise self._moved_into_text(err, "host") from None
        return Target._make(
            self._schema,
            self._registry,
            tag=self._tag,
            keys=keys,
            host=host,
            attrs=attrs,
            features=MappingProxyType(features),
        )

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

    def _moved_into_text(self, err: TargetError, name: str) -> TargetError:
        """An error about the nested target ``name``, moved into this target's text."""
        span = self._span_map().get(name)
        text = self._own_text()
        if text is None or span is None or not err.source:
            return err
        start, end = span[2], span[3]
        raw = text[start:end]
        if self._text_form == "json" and raw.startswith('"'):
            offsets = json_string_offsets(text, start, end)
            inner = "".join(text[i] for i in offsets) if "\\" not in raw else None
        elif self._text_form == "json":
            offsets, inner = list(range(start, end)), raw
        else:
            offsets = [start + i for i in interpret_offsets(raw)]
            inner = interpret(raw)
        if inner is not None and inner != err.source:
            return err
        return err.relocated(text, offsets, end)

    def _locate(self, name: str) -> tuple[str, int, int]:
        span = self._span_map().get(name)
        text = self._own_text()
        if text is None or span is None:
            return ("", 0, 0)
        return (text, span[2], span[3])

    # ------------------------------------------------------------------ edits

    def with_attr(self, name: str, value: Any) -> Target:
        """A copy with attribute ``name`` set to ``value`` (``keys``, ``tag``, ``host`` too).

        The value is checked against the kind's schema. In a target read from text only the
        edited option is written anew; every other byte keeps its spelling.
        """
        spec = self._spec(name)

        def nested(spec_value: Any, where: Any = None) -> Target:
            return spec_value if isinstance(spec_value, Target) else Target(spec_value, registry=self._registry)

        typed = from_json(list(value) if isinstance(value, tuple) else value, spec.type, name, nested)
        return self._edited(name, typed)

    def without_attr(self, name: str) -> Target:
        """A copy without attribute ``name``; the target itself when it has none."""
        self._spec(name)
        if not self._has(name):
            return self
        return self._edited(name, None)

    def with_host(self, host: TargetSpec | None) -> Target:
        """A copy whose host is ``host`` (a Target, spec text or dict); ``None`` removes it."""
        if host is None:
            return self.without_attr("host")
        return self.with_attr("host", host)

    def _spec(self, name: str) -> AttrSpec:
        spec = self._schema.attrs.get(name)
        if spec is None:
            import difflib  # only on the error path: it costs import time

            close = tuple(difflib.get_close_matches(name, list(self._schema.attrs), n=3, cutoff=0.6))
            hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
            err = UnknownAttributeError(f"kind '{self._kind}' has no attribute '{name}'{hint}")
            err.suggestions = close
            raise err
        return spec

    def _has(self, name: str) -> bool:
        if name == "host":
            return self._host is not None
        if name == "tag":
            return bool(self._tag)
        if name == "keys":
            return self._keys is not None
        return name in self._attrs

    def _edited(self, name: str, value: Any) -> Target:
        fields: dict[str, Any] = {
            "tag": self._tag,
            "keys": self._keys,
            "host": self._host,
            "attrs": dict(self._attrs),
        }
        if name in ("tag", "keys", "host"):
            fields[name] = value if value is not None or name != "tag" else ""
        elif value is None:
            fields["attrs"].pop(name, None)
        else:
            fields["attrs"][name] = value
        if self._features and reads_feature_keys(registry_release(self._registry.version).version):
            # as TVM v0.24 on reads an edited export: its features are given ones now
            fields["features"] = self._features
        edited = Target._make(self._schema, self._registry, **fields)
        # Splicing re-reads the text with v0.22's rules, so only text in that syntax is spliced;
        # a tag name or an older era's text gives way to a target without text.
        spliceable = self._text is not None and self._text_form in ("legacy", "json")
        text = self._spliced(name, value) if spliceable else None
        if text is not None:
            try:
                spliced = Target(text, registry=self._registry)
            except TargetError:
                spliced = None  # the edit is valid but its text is not
            # A text that says a key twice (JSON reads the last) may mean something else once
            # one of them is spliced: the text is kept only when it means the edited target.
            if spliced == edited:
                return spliced
        return edited

    def _spliced(self, name: str, value: Any) -> str | None:
        text = self._own_text()
        assert text is not None
        span = self._span_map().get(name)
        spec = self._schema.attrs[name]
        if self._text_form == "json":
            if value is None:
                return _json_removed(text, self._span_map(), name) if span else text
            rendered = json.dumps(printing.json_value(value, spec.type, False), ensure_ascii=False)
            if span is not None:
                return text[: span[2]] + rendered + text[span[3] :]
            spans = self._span_map()
            last = max(s[3] for s in spans.values()) if spans else text.index("{") + 1
            sep = ", " if spans else ""
            return f"{text[:last]}{sep}{json.dumps(name)}: {rendered}{text[last:]}"
        if value is not None and not is_representable(value, spec.type):
            return None
        if value is None:
            return _legacy_removed(text, span) if span else text
        raw = encode_scalar(to_text(value, spec.type, str))
        if span is not None:
            return f"{text[: span[1]]}={raw}{text[span[3] :]}"
        end = len(text.rstrip(" "))
        if text[:end].endswith("\\") and (len(text[:end]) - len(text[:end].rstrip("\\"))) % 2:
            end += 1
        return f"{text[:end]} -{name}={raw}{text[end:]}"


@answers_recursion
def _deep(call: Callable[[], _R]) -> _R:
    """``call()``; if a deeply nested target runs it out of Python's stack, ``call()`` on a large
    stack (see :func:`targetlang._diagnostics.on_large_stack`). Free until the stack runs out."""
    try:
        return call()
    except RecursionError:
        pass
    return on_large_stack(call)


def _legacy_removed(text: str, span: Span) -> str:
    start, end = span[0], span[3]
    after = end
    while after < len(text) and text[after] == " ":
        after += 1
    if after < len(text):
        return text[:start] + text[after:]
    before = start
    while before > 0 and text[before - 1] == " ":
        before -= 1
    return text[:before] + text[end:]


def _json_removed(text: str, spans: Mapping[str, Span], name: str) -> str:
    order = sorted(spans.values())
    span = spans[name]
    i = order.index(span)
    if i > 0:
        return text[: order[i - 1][3]] + text[span[3] :]
    if i + 1 < len(order):
        return text[: span[0]] + text[order[i + 1][0] :]
    return text[: span[0]] + text[span[3] :]


def _map_targets(value: Any, fn: Any) -> Any:
    if isinstance(value, Target):
        return fn(value)
    if isinstance(value, tuple):
        return tuple(_map_targets(v, fn) for v in value)
    return value


TargetSpec: TypeAlias = "str | Mapping[str, object] | Target"
"""What :func:`targetlang.parse` reads: a legacy string, a tag name or JSON text; a config
mapping (``{"kind": "cuda", "host": "llvm"}``, whose values may be targets); or a
:class:`Target`, returned as it is."""


# What the readers (``_reading``, ``_eras``) and the migration use of a target's making and of its
# text, which Target itself keeps private: the constructors that take fields already read
# (``make_target``; ``build_target`` with every field given in order, the quickest), the form of
# its text (``"legacy"``, ``"json"``, ``"era X"``, or ``""`` for none), where its members stand.
make_target = Target._make
build_target = Target._build


def text_form(target: Target) -> str:
    """How ``target``'s text was written: ``"legacy"``, ``"json"``, ``"era X"``, or ``""``."""
    return target._text_form


def span_map(target: Target) -> Mapping[str, Span]:
    """Where each member of ``target`` stands in its own text: (key start, key end, value start,
    value end)."""
    return target._span_map()


def locate(target: Target, name: str) -> tuple[str, int, int]:
    """The text ``target`` was read from and where the value of its member ``name`` stands in it
    (``("", 0, 0)`` when it has no text or the text does not spell the member out)."""
    return target._locate(name)
