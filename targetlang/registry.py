"""Registries of kinds and tags; the built-in one is read from TVM's own schema files."""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from .errors import RegistryError
from .schema import COMMON_ATTRS, AttrSpec, KindSchema, TypeSpec

__all__ = ["Registry", "builtin_registry"]

# Built-in kinds whose TVM target parser we reproduce (spec section 7.2).
_CANONICALIZERS = {"llvm": "cpu", "c": "cpu", "cuda": "cuda", "nvptx": "nvptx", "rocm": "rocm", "test": "test"}
_BUILTIN_CANONICALIZERS = frozenset({*_CANONICALIZERS.values(), "cpu-without-host-triple"})
_UNORDERED = frozenset({"libs"})
_COMMON_NAMES = frozenset(spec.name for spec in COMMON_ATTRS)


class Registry:
    """An immutable set of kinds and tags.

    A registry is a value: ``with_kind`` and ``with_tag`` return new registries, and two
    registries with the same contents are equal. ``builtin_registry()`` is TVM v0.22's.
    """

    __slots__ = ("_hash", "kinds", "tags", "version")

    _hash: int
    kinds: Mapping[str, KindSchema]
    tags: Mapping[str, Mapping[str, Any]]
    version: str

    def __init__(
        self,
        kinds: Iterable[KindSchema] = (),
        tags: Mapping[str, Mapping[str, Any]] | None = None,
        version: str = "",
    ) -> None:
        object.__setattr__(self, "kinds", MappingProxyType({k.name: k for k in kinds}))
        object.__setattr__(self, "tags", MappingProxyType(dict(tags or {})))
        object.__setattr__(self, "version", version)
        object.__setattr__(self, "_hash", hash((version, frozenset(self.kinds), frozenset(self.tags))))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Registry is immutable; use with_kind() or with_tag()")

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
            and dict(self.kinds) == dict(other.kinds)
            and dict(self.tags) == dict(other.tags)
        )

    def __repr__(self) -> str:
        return f"<Registry {self.version or 'custom'}: {len(self.kinds)} kinds, {len(self.tags)} tags>"

    def with_kind(self, kind: KindSchema) -> Registry:
        """A copy with ``kind`` added (or replacing the kind of the same name)."""
        return Registry([*self.kinds.values(), kind], self.tags, self.version)

    def with_tag(self, name: str, config: Mapping[str, Any]) -> Registry:
        """A copy with tag ``name`` standing for ``config`` (a target config dict)."""
        return Registry(self.kinds.values(), {**self.tags, name: copy.deepcopy(dict(config))}, self.version)

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
        ...) or to ``(type, default)``. Arrays are ordered unless named in ``unordered``. A leaf
        kind is a code generator; a non-leaf kind may hold ``devices``, ``executor``, ``runtime``.
        """
        kind = KindSchema.build(
            name,
            attrs,
            default_keys=tuple(default_keys),
            device_type=device_type,
            unordered=tuple(unordered),
            canonicalizer=canonicalizer,
            leaf=leaf,
            required=tuple(required),
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
        base = builtin_registry(self.version or "0.22")
        kinds = {name: _kind_to_dict(kind) for name, kind in self.kinds.items() if base.kinds.get(name) != kind}
        tags = {name: config for name, config in self.tags.items() if base.tags.get(name) != config}
        return {"base": base.version, "kinds": kinds, "tags": tags}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Registry:
        """The registry a registry file describes: a built-in base plus kinds and tags."""
        if not isinstance(data, Mapping) or set(data) - {"base", "kinds", "tags"}:
            raise RegistryError("a registry file has the keys 'base', 'kinds' and 'tags' only")
        registry = builtin_registry(str(data.get("base", "0.22")))
        kinds = [_kind_from_dict(name, decl) for name, decl in _mapping(data, "kinds").items()]
        tags = {name: dict(_mapping(_mapping(data, "tags"), name)) for name in _mapping(data, "tags")}
        return cls([*registry.kinds.values(), *kinds], {**registry.tags, **tags}, registry.version)


def _mapping(data: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, Mapping):
        raise RegistryError(f"'{key}' in a registry file must be a table (object)")
    return value


_KIND_FIELDS = {"attrs", "default_keys", "device_type", "leaf", "canonicalizer"}
_ATTR_FIELDS = {"type", "default", "ordered", "required"}


def _kind_to_dict(kind: KindSchema) -> dict[str, Any]:
    if kind.preprocessor is not None or not (kind.canonicalizer is None or isinstance(kind.canonicalizer, str)):
        raise RegistryError(f"kind '{kind.name}' has a Python canonicaliser: it cannot be written to a file")
    common = {spec.name: spec for spec in COMMON_ATTRS}
    attrs: dict[str, Any] = {}
    for name, spec in kind.attrs.items():
        if common.get(name) == spec:
            continue
        decl: dict[str, Any] = {"type": str(spec.type)}
        if spec.default is not None:
            decl["default"] = list(spec.default) if isinstance(spec.default, tuple) else spec.default
        if not spec.ordered:
            decl["ordered"] = False
        if spec.required:
            decl["required"] = True
        attrs[name] = decl["type"] if len(decl) == 1 else decl
    out: dict[str, Any] = {"attrs": attrs, "default_keys": list(kind.default_keys), "device_type": kind.device_type}
    out["leaf"] = kind.leaf
    if kind.canonicalizer is not None:
        out["canonicalizer"] = kind.canonicalizer
    return out


def _kind_from_dict(name: str, decl: Any) -> KindSchema:
    if not isinstance(decl, Mapping) or set(decl) - _KIND_FIELDS:
        raise RegistryError(f"kind '{name}': expected a table with {', '.join(sorted(_KIND_FIELDS))}")
    specs = {}
    for attr, spec in _mapping(decl, "attrs").items():
        spec = {"type": spec} if isinstance(spec, str) else spec
        if not isinstance(spec, Mapping) or set(spec) - _ATTR_FIELDS or "type" not in spec:
            raise RegistryError(f"kind '{name}', attribute '{attr}': expected a type or a table with 'type'")
        try:
            typ = TypeSpec.parse(spec["type"])
        except ValueError as exc:
            raise RegistryError(f"kind '{name}', attribute '{attr}': {exc}") from None
        default = spec.get("default")
        default = tuple(default) if isinstance(default, list) else default
        specs[attr] = AttrSpec(attr, typ, default, bool(spec.get("ordered", True)), bool(spec.get("required", False)))
    canonicalizer = decl.get("canonicalizer")
    if canonicalizer is not None and canonicalizer not in _BUILTIN_CANONICALIZERS:
        raise RegistryError(f"kind '{name}': unknown canonicalizer {canonicalizer!r}")
    return KindSchema(
        name,
        specs,
        tuple(decl.get("default_keys", ())),
        int(decl.get("device_type", 1)),
        canonicalizer,
        leaf=bool(decl.get("leaf", True)),
    )


def _version_tuple(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.lstrip("v").split(".")[:2])


def _in_range(version: tuple[int, ...], first: str, last: str) -> bool:
    return _version_tuple(first) <= version <= _version_tuple(last)


def _load(name: str) -> Any:
    return json.loads((Path(__file__).parent / "data" / name).read_text(encoding="utf-8"))


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


def _add_modern(kinds: list[KindSchema], added: Mapping[str, Any]) -> None:
    """Add what TVM 0.27 reads and v0.22 did not, marked modern-only and without defaults (the
    modern form spells every value out, and a default would change v0.22's printed strings)."""
    modern = _load("kinds-v0.27.json")["kinds"]
    by_name = {kind.name: i for i, kind in enumerate(kinds)}
    for name, kind in modern.items():
        options = {a: t for a, t in kind["options"].items() if a != "kind" and a not in _COMMON_NAMES}
        if name not in by_name:
            specs = {a: AttrSpec(a, TypeSpec.parse(_MODERN_TYPES[t]), modern_only=True) for a, t in options.items()}
            keys = tuple(kind["bare_export"]["keys"])
            device_type = added.get(name, {}).get("device_type_id", 1)
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


def _canonicalizer(name: str | None, version: tuple[int, ...]) -> str | None:
    # TVM's CPU target parser came with v0.10's string semantics (before it, v0.8 printed
    # "llvm -keys=cpu -mcpu=cortex-m3"), and it filled llvm's mtriple from the host only from v0.16.
    if name != "cpu" or version >= (0, 16):
        return name
    return "cpu-without-host-triple" if version >= (0, 10) else None


@functools.cache
def _attribute_history() -> dict[tuple[str, str], tuple[str, str]]:
    data = _load("kinds-v0.22.json")["legacy_attrs_absent_in_v0_22"]
    return {(item["kind"], item["attr"]): (item["first_seen"], item["last_seen"]) for item in data}


def removed_attribute(kind: str, attr: str, version: str = "0.22") -> tuple[str, str] | None:
    """``(first, last)`` TVM releases (``"v0.8.0"``, ``"v0.9.0"``) in which kind ``kind`` had
    attribute ``attr``, when TVM ``version`` comes after them; else ``None``."""
    seen = _attribute_history().get((kind, attr))
    if seen is None or _version_tuple(version or "0.22") <= _version_tuple(seen[1]):
        return None
    return seen


@functools.cache
def builtin_registry(version: str = "0.22") -> Registry:
    """TVM's kinds and tags as of ``version`` (``"0.22"`` by default).

    Versions before 0.22 add the attributes and kinds that TVM had then and removed later
    (``system-lib``, ``link-params``, ``stackvm``, the Relay BYOC kinds, ...), from the
    version ranges recorded in the schema file; ``"0.23"`` adds ``opencl.texture_depth_limit``.
    Everything else is v0.22's schema.
    """
    data = _load("kinds-v0.22.json")
    want = _version_tuple(version)
    ids: dict[str, int] = data["device_type_ids"]
    attrs: dict[str, dict[str, AttrSpec]] = {}
    meta: dict[str, tuple[tuple[str, ...], int, str | None]] = {}
    for name, kind in data["kinds"].items():
        attrs[name] = {a: _spec(a, d["type"], d["default"]) for a, d in kind["attrs"].items()}
        meta[name] = (tuple(kind["default_keys"]), kind["device_type_id"], _CANONICALIZERS.get(name))
    if want < (0, 22):
        for name, kind in data["legacy_kinds_absent_in_v0_22"].items():
            if _in_range(want, kind["first_seen"], kind["last_seen"]):
                attrs[name] = {}
                meta[name] = (tuple(kind["default_keys_last"]), ids[kind["device_type"]], None)
        for name, kind in data["legacy_external_codegen_kinds"]["kinds"].items():
            if _in_range(want, kind["first_seen"], kind["last_seen"]):
                attrs[name] = {a: _spec(a, d["type"]) for a, d in kind["attrs"].items()}
                parser = "cpu" if kind.get("parser") else None
                meta[name] = ((), ids[kind["device_type"]], parser)
        for item in data["legacy_attrs_absent_in_v0_22"]:
            if item["kind"] in attrs and _in_range(want, item["first_seen"], item["last_seen"]):
                attrs[item["kind"]][item["attr"]] = _spec(item["attr"], item["type"], item["default"])
    if want >= (0, 23):
        for name, extra in data["v0_23_additions"].items():
            for a, d in extra.items():
                attrs[name][a] = _spec(a, d["type"], d["default"])
    kinds = [
        KindSchema(
            name,
            specs,
            meta[name][0],
            meta[name][1],
            _canonicalizer(meta[name][2], want),
            leaf=not any(spec.type.holds_targets for n, spec in specs.items() if n != "host"),
        )
        for name, specs in attrs.items()
    ]
    if want >= (0, 22):
        _add_modern(kinds, data["comparison_with_0_27"]["kinds_added"])
    tags = _load("tags-v0.22.json")["tags"]
    return Registry(kinds, tags, version)
