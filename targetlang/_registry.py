"""Registries of kinds and tags; the built-in one is read from TVM's own schema files."""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from ._cache import bounded_cache
from ._schema import COMMON_ATTRS, AttrSpec, KindSchema, TypeSpec, thawed
from ._values import from_json, json_type
from ._versions import (
    DATA,
    DEFAULT,
    MODERN,
    MODERN_RELEASES,
    NAMED_DISTRIBUTIONS,
    SCHEMA_RELEASES,
    Version,
    data_file,
    release,
)
from .errors import RegistryError, TargetError, show

__all__ = [
    "MAX_CHECKED_TAG_TARGETS",
    "MAX_TAG_DEPTH",
    "MAX_TAG_TARGETS",
    "Registry",
    "builtin_registry",
    "release_kinds",
    "tag_target_cache",
]

_UNORDERED = frozenset({"libs"})
# TVM's target parsers (v0.10 on) and attribute preprocessors (v0.7 - v0.9), by the C++ function
# the kind registered, and the canonicaliser of ours that does what it did (spec section 7.2).
_PARSERS = {
    "UpdateCUDAAttrs": "cuda",
    "UpdateNVPTXAttrs": "nvptx",
    "UpdateROCmAttrs": "rocm",
    "TestTargetParser": "test",
    "tvm::target::parsers::cpu::ParseTarget": "cpu",
    # v0.24 on: the CPU parser renamed, the same reading for what a legacy string can say
    "tvm::target::canonicalizer::llvm::Canonicalize": "cpu",
    "UpdateWebGPUAttrs": "webgpu",  # v0.24 on
}
# Registered by a release, and not modelled, with the reason.
_UNMODELLED_PARSERS: dict[str, str] = {}
_BUILTIN_CANONICALIZERS = frozenset({*_PARSERS.values(), "cpu-without-host-triple"})
_COMMON = {spec.name: spec for spec in COMMON_ATTRS}
_COMMON_NAMES = frozenset(_COMMON)
# Read into the target's own fields, never its attributes: a default for them would never apply.
_STRUCTURAL = frozenset({"keys", "tag", "host"})
_NON_LEAF = ("devices", "executor", "runtime")
_RESERVED = {
    "kind": "it names the kind itself",
    "features": "a target's features are derived by its kind's canonicaliser",
}
# The releases whose schema ships with targetlang; "none" is a registry built from scratch.
_BASES = SCHEMA_RELEASES
_NO_BASE = "none"


class Registry:
    """An immutable set of kinds and tags.

    A registry is a value: ``with_kind`` and ``with_tag`` return new registries, and two
    registries with the same contents are equal. ``builtin_registry()`` is TVM v0.22's.
    Tag configs are read-only all the way down (objects as read-only mappings, arrays as
    tuples); a :class:`Target` in one is kept as its JSON form. ``version`` is the built-in
    registry this one extends, ``""`` for one built from scratch. The constructor takes kinds
    as they are; ``register_kind`` and registry files check a user kind first.
    """

    __slots__ = ("_hash", "_kinds", "_modern_tags", "_tag_targets", "_tags", "kinds", "tags", "version")

    _hash: int
    # The target a tag reads as, by name, once read (by the parser), for a tag that reads no
    # other: one with its own kind, extending no tag, whose target nests none. The tags and the
    # kinds never change, so neither does it. As many as there are tags, whatever the input.
    _tag_targets: dict[str, Any]
    # The dicts that ``kinds`` and ``tags`` show read-only, for the parser: a read-only view costs
    # every lookup a method call.
    _kinds: dict[str, KindSchema]
    _tags: dict[str, Mapping[str, Any]]
    # The modern release whose added tags ``{"tag": NAME}`` reads (``modern_tag``), where it is not
    # the registry's own: migration reads an input as written for the release it writes for.
    _modern_tags: str
    kinds: Mapping[str, KindSchema]
    tags: Mapping[str, Mapping[str, Any]]
    version: str

    def __init__(
        self,
        kinds: Iterable[KindSchema] = (),
        tags: Mapping[str, Mapping[str, Any]] | None = None,
        version: str = "",
    ) -> None:
        found: dict[str, KindSchema] = {}
        for kind in kinds:
            if not isinstance(kind, KindSchema):
                raise RegistryError(f"a registry holds KindSchema objects, not {type(kind).__name__}")
            found[kind.name] = kind
        if not isinstance(tags, Mapping | None):
            raise RegistryError(f"a registry's tags are a mapping from names to configs, not {type(tags).__name__}")
        self._fill(found, {name: _tag_config(name, config) for name, config in (tags or {}).items()}, version)

    def _fill(
        self, kinds: dict[str, KindSchema], tags: dict[str, Mapping[str, Any]], version: str, modern_tags: str = ""
    ) -> None:
        object.__setattr__(self, "kinds", MappingProxyType(kinds))
        object.__setattr__(self, "tags", MappingProxyType(tags))
        object.__setattr__(self, "_kinds", kinds)
        object.__setattr__(self, "_tags", tags)
        object.__setattr__(self, "version", version)
        object.__setattr__(self, "_modern_tags", modern_tags)
        object.__setattr__(self, "_hash", hash((version, modern_tags, frozenset(self.kinds), frozenset(self.tags))))
        object.__setattr__(self, "_tag_targets", {})

    def _derived(self, kinds: dict[str, KindSchema], tags: dict[str, Mapping[str, Any]]) -> Registry:
        # The tags are frozen already: a copy that adds one kind or tag need not freeze them again.
        registry = object.__new__(Registry)
        registry._fill(kinds, tags, self.version, self._modern_tags)
        return registry

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Registry is immutable; use with_kind() or with_tag()")

    def __reduce__(self) -> tuple[Any, ...]:
        # A built-in registry is unpickled as the same object as the unpickling process's own;
        # any other as its kinds, its tags as plain data, and its version.
        if self.version in SCHEMA_RELEASES and builtin_registry(self.version) is self:
            return (builtin_registry, (self.version,))
        tags = {name: thawed(config) for name, config in self.tags.items()}
        if self._modern_tags:
            return (_reading_tags_of, (Registry(tuple(self.kinds.values()), tags, self.version), self._modern_tags))
        return (Registry, (tuple(self.kinds.values()), tags, self.version))

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Registry):
            return NotImplemented
        return (
            self._hash == other._hash
            and self.version == other.version
            and self._modern_tags == other._modern_tags
            and dict(self.kinds) == dict(other.kinds)
            and dict(self.tags) == dict(other.tags)
        )

    def __repr__(self) -> str:
        return f"<Registry {self.version or 'custom'}: {len(self.kinds)} kinds, {len(self.tags)} tags>"

    @property
    def base(self) -> Registry | None:
        """The built-in registry this one extends (``builtin_registry(version)``), or ``None``."""
        return builtin_registry(self.version) if self.version else None

    def with_kind(self, kind: KindSchema) -> Registry:
        """A copy with ``kind`` added (or replacing the kind of the same name), once checked as
        ``register_kind`` checks a kind."""
        if not isinstance(kind, KindSchema):
            raise RegistryError(f"a kind is a KindSchema, not {type(kind).__name__}")
        return self._derived({**self.kinds, kind.name: _checked_kind(kind)}, dict(self.tags))

    def with_tag(self, name: str, config: Mapping[str, Any]) -> Registry:
        """A copy with tag ``name`` standing for ``config`` (a target config dict)."""
        if not isinstance(name, str) or not name:
            raise RegistryError(f"a tag's name is a non-empty string, not {name!r}")
        return self._derived(dict(self.kinds), {**self.tags, name: _tag_config(name, config)})

    def register_kind(
        self,
        name: str,
        attrs: Mapping[str, str | tuple[str, Any]] | None = None,
        *,
        default_keys: Iterable[str] = (),
        device_type: int = 1,
        leaf: bool = True,
        unordered: Iterable[str] = (),
        required: Iterable[str] = (),
        canonicalizer: str | None = None,
    ) -> Registry:
        """A copy with a user-defined kind.

        ``attrs`` maps each attribute to its type (``"int"``, ``"array<string>"``, ``"target"``,
        ``"map<string,int>"``, ...) or to ``(type, default)``. Arrays are ordered unless named in
        ``unordered``. A leaf kind is a code generator; a non-leaf kind may hold ``devices``,
        ``executor``, ``runtime``. ``kind`` and ``features`` are no attribute names, and the
        attributes every kind has (``keys``, ``host``, ``libs``, ...) keep their types.
        Raises :class:`RegistryError` for a kind that could not be used.
        """
        where = f"kind {_name(name)}"
        if not isinstance(name, str) or not name:
            raise RegistryError(f"a kind's name is a non-empty string, not {name!r}")
        if not isinstance(attrs, Mapping | None):
            raise RegistryError(f"{where}: 'attrs' must be a mapping from names to types, not {json_type(attrs)}")
        decls: dict[str, tuple[str, Any]] = {}
        for attr, decl in (attrs or {}).items():
            at = f"{where}, attribute {_name(attr)}"
            if not isinstance(attr, str) or not attr:
                raise RegistryError(f"{where}: an attribute's name is a non-empty string, not {attr!r}")
            if not (isinstance(decl, str) or (isinstance(decl, tuple) and len(decl) == 2)):
                raise RegistryError(f"{at}: expected a type such as 'int' or a (type, default) pair, not {decl!r}")
            type_text, default = (decl, None) if isinstance(decl, str) else decl
            decls[attr] = (str(_type(type_text, at)), default)
        unordered = _names(unordered, f"{where}: 'unordered'")
        required = _names(required, f"{where}: 'required'")
        for field, names in (("unordered", unordered), ("required", required)):
            for attr in names:
                if attr not in decls:
                    raise RegistryError(f"{where}: {field!r} names {show(attr)}, which is not one of its attributes")
        kind = KindSchema.build(
            name,
            decls,
            default_keys=_names(default_keys, f"{where}: 'default_keys'"),
            device_type=_integer(device_type, f"{where}: 'device_type'"),
            unordered=unordered,
            canonicalizer=_checked_canonicalizer(canonicalizer, where, python=True),
            leaf=_boolean(leaf, f"{where}: 'leaf'"),
            required=required,
        )
        return self.with_kind(kind)

    def register_tag(self, name: str, config: Mapping[str, Any]) -> Registry:
        """A copy with a user tag: ``name`` stands for the target ``config`` (which may be
        composite and may name other tags). It is checked when used, or by ``check_registry``."""
        return self.with_tag(name, config)

    def to_dict(self) -> dict[str, Any]:
        """What this registry adds to the built-in one it extends, as plain JSON data.

        ``Registry.from_dict(r.to_dict()) == r``; this is the registry file format.
        """
        base = self.base
        base_kinds = base.kinds if base is not None else {}
        base_tags = base.tags if base is not None else {}
        out: dict[str, Any] = {
            "base": self.version or _NO_BASE,
            "kinds": {name: _kind_to_dict(kind) for name, kind in self.kinds.items() if base_kinds.get(name) != kind},
            "tags": {name: thawed(config) for name, config in self.tags.items() if base_tags.get(name) != config},
        }
        removed_kinds = [name for name in base_kinds if name not in self.kinds]
        removed_tags = [name for name in base_tags if name not in self.tags]
        if removed_kinds:
            out["removed_kinds"] = removed_kinds
        if removed_tags:
            out["removed_tags"] = removed_tags
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Registry:
        """The registry a registry file describes: a built-in base (``"base"``, ``"0.22"`` when
        absent, ``"none"`` for none), less ``removed_kinds`` and ``removed_tags``, plus ``kinds``
        and ``tags``. Raises :class:`RegistryError` naming the kind or tag and field at fault."""
        if not isinstance(data, Mapping):
            raise RegistryError(f"a registry file holds a table (object), not {json_type(data)}")
        extra = sorted(set(data) - _FILE_FIELDS)
        if extra:
            raise RegistryError(
                f"a registry file has no field {', '.join(map(repr, extra))}: it has {_listed(_FILE_FIELDS)}"
            )
        version = data.get("base", str(DEFAULT))
        if version not in (*_BASES, _NO_BASE):
            shown = json.dumps(version) if isinstance(version, str) else json_type(version)
            raise RegistryError(
                f'\'base\' must be a TVM version from "{_BASES[0]}" to "{_BASES[-1]}" or "none", not {shown}'
            )
        base = builtin_registry(version) if version != _NO_BASE else cls()
        kinds = dict(base.kinds)
        tags = dict(base.tags)
        for field, present in (("removed_kinds", kinds), ("removed_tags", tags)):
            for name in _names(data.get(field, ()), f"'{field}'", array=True):
                if present.pop(name, None) is None:
                    raise RegistryError(f"'{field}' names {show(name)}, which the base registry does not have")
        for name, decl in _table(data, "kinds", "'kinds' in a registry file").items():
            kinds[name] = _checked_kind(_kind_from_dict(name, decl))
        for name, config in _table(data, "tags", "'tags' in a registry file").items():
            tags[name] = _tag_config(name, config)
        registry = object.__new__(cls)
        registry._fill(kinds, tags, "" if version == _NO_BASE else version)
        return registry


_FILE_FIELDS = frozenset({"base", "kinds", "tags", "removed_kinds", "removed_tags"})
_KIND_FIELDS = frozenset({"attrs", "default_keys", "device_type", "leaf", "canonicalizer", "modern_only"})
_ATTR_FIELDS = frozenset({"type", "default", "ordered", "required", "modern_only"})


def tag_target_cache(registry: Registry) -> dict[str, Any]:
    """The targets made from ``registry``'s tags so far, by tag name: the reader keeps each one it
    makes here (the registry is immutable, so a tag's target never changes)."""
    return registry._tag_targets


def _listed(names: Iterable[str]) -> str:
    return ", ".join(repr(name) for name in sorted(names))


def _name(name: object) -> str:
    return show(name) if isinstance(name, str) else repr(name)


def _table(data: Mapping[str, Any], key: str, what: str) -> Mapping[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, Mapping):
        raise RegistryError(f"{what} must be a table (object), not {json_type(value)}")
    return value


def _boolean(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise RegistryError(f"{what} must be true or false, not {json_type(value)}")
    return value


def _integer(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RegistryError(f"{what} must be an integer, not {json_type(value)}")
    return value


def _names(value: Any, what: str, *, array: bool = False) -> tuple[str, ...]:
    """``value`` as a tuple of strings: a JSON array of them (``array``) or any iterable but a string."""
    ok = isinstance(value, (list, tuple)) if array else isinstance(value, Iterable) and not isinstance(value, str)
    items = tuple(value) if ok else ()
    bad = [item for item in items if not isinstance(item, str)]
    if not ok or bad:
        got = f"an array holding {json_type(bad[0])}" if bad else json_type(value)
        raise RegistryError(f"{what} must be an array of strings, not {got}")
    return items


def _type(text: Any, at: str) -> TypeSpec:
    if not isinstance(text, str):
        raise RegistryError(f'{at}: the type must be a string such as "int", not {json_type(text)}')
    try:
        return TypeSpec.parse(text)
    except ValueError as exc:
        raise RegistryError(f"{at}: {exc}") from None


def _checked_canonicalizer(value: Any, where: str, *, python: bool = False) -> Any:
    """A built-in canonicaliser's name, ``None``, or (from Python, not a file) a function."""
    if value is None or (isinstance(value, str) and value in _BUILTIN_CANONICALIZERS) or (python and callable(value)):
        return value
    shown = json.dumps(value) if isinstance(value, str) else json_type(value)
    known = _listed(_BUILTIN_CANONICALIZERS) + (" or a function" if python else "")
    raise RegistryError(f"{where}: 'canonicalizer' must be one of {known}, not {shown}")


def _tag_config(name: str, config: Any) -> Mapping[str, Any]:
    where = f"tag {_name(name)}"
    if not isinstance(name, str) or not name:
        raise RegistryError(f"a tag's name is a non-empty string, not {name!r}")
    if not isinstance(config, Mapping):
        raise RegistryError(f"{where}: a tag stands for a target config, a table (object), not {json_type(config)}")
    frozen_config: Mapping[str, Any] = _json_data(config, where)
    return frozen_config


# How deeply a tag's config may nest (hosts of hosts, arrays of arrays): far beyond any real tag,
# well inside Python's stack.
MAX_CONFIG_DEPTH = 100
# How far tags that name tags may take a reading. A tag naming another twice, which names another
# twice, ... doubles the targets at each level: 40 such tags (2.2 KB of JSON) stood for 2 ** 40
# targets, and loading them still ran after 60 s at 1.3 GB. So a reading (of a text, a config or
# a tag's name) makes at most MAX_TAG_TARGETS targets out of tags' configs, a tag counting each
# time it is named, and tags name tags at most MAX_TAG_DEPTH deep; checking all the tags of a
# registry (check_registry, load_registry) makes at most MAX_CHECKED_TAG_TARGETS in all, or a
# registry of many tags each naming a large one would take as many times as long. TVM's tags
# stand for 1 or 2 targets each, and name no tag; its 257 make some 400 targets checked.
MAX_TAG_TARGETS = 1_000
MAX_TAG_DEPTH = 32
MAX_CHECKED_TAG_TARGETS = 50_000


def _json_data(value: Any, where: str, depth: int = 0) -> Any:
    """``value`` checked to be JSON data (or targets, kept as their JSON form) and frozen."""
    if depth > MAX_CONFIG_DEPTH:
        raise RegistryError(f"{where}: the config nests more than {MAX_CONFIG_DEPTH} levels deep")
    to_json = getattr(value, "to_json", None)
    if callable(to_json):  # a Target, or anything else that gives its JSON form
        return _json_data(to_json(), where, depth + 1)
    if isinstance(value, float) and not math.isfinite(value):
        raise RegistryError(f"{where}: {value} is not a JSON number")
    if value is None or isinstance(value, (str, int, float)):
        return value
    if isinstance(value, (list, tuple)):
        return tuple(_json_data(item, where, depth + 1) for item in value)
    if isinstance(value, Mapping):
        for key in value:
            if not isinstance(key, str):
                raise RegistryError(f"{where}: an object's keys are strings, not {key!r}")
        return MappingProxyType({key: _json_data(item, where, depth + 1) for key, item in value.items()})
    raise RegistryError(f"{where}: a config holds JSON data and targets, not {type(value).__name__}")


def _checked_kind(kind: KindSchema) -> KindSchema:
    """``kind`` once it is known to be usable: no attribute named ``kind`` or ``features``, the
    attributes every kind has keeping their types, ``devices``/``executor``/``runtime`` on a
    non-leaf kind only, and each default converted to its attribute's type."""
    where = f"kind {_name(kind.name)}"
    if not isinstance(kind.name, str) or not kind.name:
        raise RegistryError(f"a kind's name is a non-empty string, not {kind.name!r}")
    specs = dict(kind.attrs)
    for name, spec in kind.attrs.items():
        at = f"{where}, attribute {show(name)}"
        if name in _RESERVED:
            raise RegistryError(f"{at}: {show(name)} cannot be an attribute: {_RESERVED[name]}")
        common = _COMMON.get(name)
        # A BYOC configuration's 'device' may be a target of its own (docs/composite.md, structure 3):
        # TVM reads 'device' into the keys only when it is a string.
        retyped = name == "device" and spec.type == TypeSpec("target")
        if common is not None and spec.type != common.type and not retyped:
            raise RegistryError(f"{at}: every kind has {show(name)}, of type {common.type}; it cannot be {spec.type}")
        if name in _STRUCTURAL and spec.default is not None:
            raise RegistryError(f"{at}: {show(name)} takes no default (it is a target's own field)")
        if spec.default is not None:
            specs[name] = replace(spec, default=_default(spec, at))
    declared = [name for name in _NON_LEAF if name in kind.attrs]
    if kind.leaf and declared:
        raise RegistryError(
            f"{where} is a leaf kind (a code generator) but declares {', '.join(map(show, declared))}: only a "
            "non-leaf kind (leaf=False) holds devices, an executor or a runtime"
        )
    return replace(kind, attrs=specs) if specs != dict(kind.attrs) else kind


def _default(spec: AttrSpec, at: str) -> Any:
    def no_target(value: Any, where: Any = None) -> Any:
        raise RegistryError(f"{at}: a target-typed attribute has no default")

    try:
        return from_json(thawed(spec.default), spec.type, spec.name, no_target)
    except RegistryError:
        raise
    except TargetError as err:
        shown = json.dumps(thawed(spec.default), default=repr)
        raise RegistryError(f"{at}: the default {shown} does not fit: {err.message}") from None


def _kind_to_dict(kind: KindSchema) -> dict[str, Any]:
    if kind.preprocessor is not None or not (kind.canonicalizer is None or isinstance(kind.canonicalizer, str)):
        raise RegistryError(f"kind '{kind.name}' has a Python canonicaliser: it cannot be written to a file")
    attrs: dict[str, Any] = {}
    for name, spec in kind.attrs.items():
        if _COMMON.get(name) == spec:
            continue
        decl: dict[str, Any] = {"type": str(spec.type)}
        if spec.default is not None:
            decl["default"] = thawed(spec.default)
        if not spec.ordered:
            decl["ordered"] = False
        if spec.required:
            decl["required"] = True
        if spec.modern_only:
            decl["modern_only"] = True
        attrs[name] = decl["type"] if len(decl) == 1 else decl
    out: dict[str, Any] = {"attrs": attrs, "default_keys": list(kind.default_keys), "device_type": kind.device_type}
    out["leaf"] = kind.leaf
    if kind.canonicalizer is not None:
        out["canonicalizer"] = kind.canonicalizer
    if kind.modern_only:
        out["modern_only"] = True
    return out


def _kind_from_dict(name: str, decl: Any) -> KindSchema:
    where = f"kind {_name(name)}"
    if not isinstance(decl, Mapping):
        raise RegistryError(f"{where}: expected a table (object) with {_listed(_KIND_FIELDS)}, not {json_type(decl)}")
    extra = sorted(set(decl) - _KIND_FIELDS)
    if extra:
        raise RegistryError(f"{where}: no field {_listed(extra)}; a kind has {_listed(_KIND_FIELDS)}")
    specs = {}
    for attr, spec in _table(decl, "attrs", f"{where}: 'attrs'").items():
        at = f"{where}, attribute {show(attr)}"
        spec = {"type": spec} if isinstance(spec, str) else spec
        if not isinstance(spec, Mapping) or "type" not in spec:
            raise RegistryError(f"{at}: expected a type or a table with 'type', not {json_type(spec)}")
        extra = sorted(set(spec) - _ATTR_FIELDS)
        if extra:
            raise RegistryError(f"{at}: no field {_listed(extra)}; an attribute has {_listed(_ATTR_FIELDS)}")
        specs[attr] = AttrSpec(
            attr,
            _type(spec["type"], at),
            spec.get("default"),
            _boolean(spec.get("ordered", True), f"{at}: 'ordered'"),
            _boolean(spec.get("required", False), f"{at}: 'required'"),
            _boolean(spec.get("modern_only", False), f"{at}: 'modern_only'"),
        )
    return KindSchema(
        name,
        specs,
        _names(decl.get("default_keys", ()), f"{where}: 'default_keys'", array=True),
        _integer(decl.get("device_type", 1), f"{where}: 'device_type'"),
        _checked_canonicalizer(decl.get("canonicalizer"), where),
        leaf=_boolean(decl.get("leaf", True), f"{where}: 'leaf'"),
        modern_only=_boolean(decl.get("modern_only", False), f"{where}: 'modern_only'"),
    )


def load_data(name: str) -> Any:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def _spec(name: str, type_text: str, default: Any = None) -> AttrSpec:
    return AttrSpec(name, TypeSpec.parse(type_text.lower()), default, name not in _UNORDERED)


_MODERN_TYPES = {
    "str": "string",
    "int": "int",
    "bool": "bool",
    "Array<str>": "array<string>",
    "target.Target": "target",
    "Array<target.Target>": "array<target>",
}


def _add_modern(kinds: list[KindSchema]) -> None:
    """Add what TVM 0.27 reads and v0.22 did not, marked modern-only and without defaults (the
    modern form spells every value out, and a default would change v0.22's printed strings)."""
    modern = load_data(data_file("kinds", str(MODERN)))["kinds"]
    by_name = {kind.name: i for i, kind in enumerate(kinds)}
    for name, kind in modern.items():
        options = {a: t for a, t in kind["options"].items() if a != "kind" and a not in _COMMON_NAMES}
        if name not in by_name:
            specs = {a: AttrSpec(a, TypeSpec.parse(_MODERN_TYPES[t]), modern_only=True) for a, t in options.items()}
            keys = tuple(kind["bare_export"]["keys"])
            variant = _variant(tvm_schemas()["kinds"].get(name, ()), MODERN)
            device_type = variant["device_type"] if variant is not None else 1
            kinds.append(KindSchema(name, specs, keys, device_type, modern_only=True))
            continue
        old = kinds[by_name[name]]
        extra = {
            a: AttrSpec(a, TypeSpec.parse(_MODERN_TYPES[t]), modern_only=True)
            for a, t in options.items()
            if a not in old.attrs
        }
        if extra:
            kinds[by_name[name]] = replace(old, attrs={**old.attrs, **extra})


def _canonicalizer(variant: Mapping[str, Any], version: Version) -> str | None:
    function = variant.get("target_parser") or variant.get("preprocessor")
    if function is None:
        return None
    if function in _UNMODELLED_PARSERS:
        return None
    name = _PARSERS.get(function)
    if name is None:
        raise RegistryError(f"the schema of TVM v{version} names target parser {function!r}, which targetlang lacks")
    # TVM's CPU target parser filled llvm's mtriple from the host only from v0.16.
    if name == "cpu" and version < Version(0, 16):
        return "cpu-without-host-triple"
    return name


@functools.cache
def tvm_schemas() -> Mapping[str, Any]:
    data: Mapping[str, Any] = load_data("tvm-schemas.json")
    return data


def _variant(variants: Iterable[Mapping[str, Any]], version: Version) -> Mapping[str, Any] | None:
    """The variant of a kind or tag that release ``version`` had, if it had one."""
    want = str(version)
    return next((v for v in variants if want in v["releases"]), None)


# keyed by the attribute names of unknown-attribute errors: input, so bounded by its text
@bounded_cache(1024)
def attribute_releases(kind: str, attr: str) -> tuple[Version, ...]:
    """The TVM releases whose kind ``kind`` had attribute ``attr``, oldest first."""
    found: set[Version] = set()
    for variant in tvm_schemas()["kinds"].get(kind, ()):
        if any(a[0] == attr for a in variant["attrs"]):
            found.update(Version.parse(r) for r in variant["releases"])
    return tuple(sorted(found))


@functools.cache
def _tags_added_in_modern(release: str) -> Mapping[str, Mapping[str, Any]]:
    old = builtin_registry(str(DEFAULT)).tags
    added = {}
    for name, config in load_data(data_file("tags", release))["tags"].items():
        if name not in old:
            added[name] = _tag_config(name, _unexported(config))
    return MappingProxyType(added)


def _unexported(config: Mapping[str, Any]) -> dict[str, Any]:
    """A tag's config as recorded from TVM 0.27's export less what is no part of the config: what
    its canonicaliser derives (``feature.*``) and the empty tag label, at every level (a Jetson's
    ``host`` carries its own features)."""
    kept: dict[str, Any] = {}
    for key, value in config.items():
        if key.startswith("feature.") or (key, value) == ("tag", ""):
            continue
        kept[key] = _unexported(value) if isinstance(value, Mapping) else value
    return kept


def modern_tag(registry: Registry, name: str) -> Mapping[str, Any] | None:
    """The config of tag ``name`` as the modern ``{"tag": NAME, ...}`` form reads it: the
    registry's own, else one of the tags added since TVM v0.22, for a registry built on TVM v0.22
    or later (TVM v0.22 itself never read those names): those of the release
    :func:`reading_tags_of` named, else of the registry's release if it is a modern one (a 0.24
    registry reads no tag 0.27 added), else of the newest."""
    config = registry.tags.get(name)
    if config is None and registry.version in SCHEMA_RELEASES and Version.parse(registry.version) >= DEFAULT:
        config = _tags_added_in_modern(modern_tags_release(registry)).get(name)
    return config


def modern_tags_release(registry: Registry) -> str:
    """The modern release (or distribution) whose added tags ``registry`` reads in the
    ``{"tag": NAME}`` form: see :func:`modern_tag`."""
    if registry._modern_tags:
        return registry._modern_tags
    own = Version.parse(registry.version) if registry.version in SCHEMA_RELEASES else None
    return str(own if own is not None and own in MODERN_RELEASES else MODERN)


def tag_added_in(registry: Registry, name: str) -> str:
    """The modern release that first registered tag ``name``, of those up to the one whose added
    tags ``registry`` reads (:func:`modern_tags_release`); that release itself for a named
    distribution's tag no release has."""
    reading = modern_tags_release(registry)
    if reading in NAMED_DISTRIBUTIONS and name not in _tags_added_in_modern(str(MODERN)):
        return reading
    for version in MODERN_RELEASES:
        if name in _tags_added_in_modern(str(version)):
            return str(version)
    return reading


def reading_tags_of(registry: Registry, release: str) -> Registry:
    """``registry`` reading the tags added by modern release ``release`` (``"0.25"``,
    ``"tirx-0.1"``) in the ``{"tag": NAME}`` form, not its own release's: a target migrated for
    0.25 means 0.25's tag by that name."""
    if release == modern_tags_release(registry) and not registry._modern_tags:
        return registry
    return _reading_tags_of(registry, release)


def _reading_tags_of(registry: Registry, release: str) -> Registry:
    copy = object.__new__(Registry)
    copy._fill(dict(registry.kinds), dict(registry.tags), registry.version, release)
    return copy


@functools.cache
def builtin_registry(version: str = str(DEFAULT)) -> Registry:
    """TVM's own kinds and tags as of release ``version`` (``"0.22"`` by default; ``"0.7"`` to
    ``"0.27"``), as TVM's source registered them (``targetlang/data/tvm-schemas.json``, extracted
    from each tagged release by ``tests/oracle/extract_schemas.py``).

    From v0.22 on the registry also reads what TVM 0.27's JSON form added, marked modern-only (a
    legacy string cannot use it; migration writes it). Raises :class:`ValueError` for a version
    targetlang has no schema of.
    """
    want = release(version).version
    if str(want) not in SCHEMA_RELEASES:
        raise ValueError(
            f"targetlang has the schemas of TVM v{SCHEMA_RELEASES[0]} to v{SCHEMA_RELEASES[-1]}, not {version!r}"
        )
    # One object per release, however the version is spelled ("0.22", "v0.22.0" or none).
    return _release_registry(str(want))


@functools.cache
def _release_registry(name: str) -> Registry:
    want = Version.parse(name)
    tags = {}
    for tag, variants in tvm_schemas()["tags"].items():
        variant = _variant(variants, want)
        if variant is not None:
            tags[tag] = variant["config"]
    return Registry(release_kinds(name), tags, str(want))


@functools.cache
def release_kind_names(version: str) -> frozenset[str]:
    """The names of the kinds of release ``version`` (a name of :data:`SCHEMA_RELEASES`), without
    building their schemas."""
    want = Version.parse(version)
    names = {name for name, variants in tvm_schemas()["kinds"].items() if _variant(variants, want) is not None}
    if want >= DEFAULT:  # (as release_kinds adds them)
        names.update(load_data(data_file("kinds", str(MODERN)))["kinds"])
    return frozenset(names)


@functools.cache
def release_kinds(version: str) -> tuple[KindSchema, ...]:
    """The kinds of the built-in registry of release ``version`` (a name of
    :data:`SCHEMA_RELEASES`), without its tags, whose configs cost most of building one: migration
    reads the kinds of every release."""
    want = Version.parse(version)
    data = tvm_schemas()
    kinds = []
    for name, variants in data["kinds"].items():
        variant = _variant(variants, want)
        if variant is None:
            continue
        # v0.24 on lists "kind" among a kind's options; here it is the kind itself, never an attribute
        specs = {a: _spec(a, type_text, default) for a, type_text, default in variant["attrs"] if a != "kind"}
        kinds.append(
            KindSchema(
                name,
                specs,
                tuple(variant["default_keys"]),
                variant["device_type"],
                _canonicalizer(variant, want),
                leaf=not any(spec.type.holds_targets for n, spec in specs.items() if n != "host"),
                common=False,
            )
        )
    if want >= DEFAULT:
        _add_modern(kinds)
    return tuple(kinds)
