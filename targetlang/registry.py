"""Registries of kinds and tags; the built-in one is read from TVM's own schema files."""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from .schema import AttrSpec, KindSchema, TypeSpec

__all__ = ["Registry", "builtin_registry"]

# Built-in kinds whose TVM target parser we reproduce (spec section 7.2).
_CANONICALIZERS = {"llvm": "cpu", "c": "cpu", "cuda": "cuda", "nvptx": "nvptx", "rocm": "rocm", "test": "test"}
_UNORDERED = frozenset({"libs"})


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
        return Registry(self.kinds.values(), {**self.tags, name: config}, self.version)


def _version_tuple(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.lstrip("v").split(".")[:2])


def _in_range(version: tuple[int, ...], first: str, last: str) -> bool:
    return _version_tuple(first) <= version <= _version_tuple(last)


def _load(name: str) -> Any:
    return json.loads((Path(__file__).parent / "data" / name).read_text(encoding="utf-8"))


def _spec(name: str, type_text: str, default: Any = None) -> AttrSpec:
    return AttrSpec(name, TypeSpec.parse(type_text.lower()), default, name not in _UNORDERED)


def _canonicalizer(name: str | None, version: tuple[int, ...]) -> str | None:
    # TVM's CPU target parser came with v0.10's string semantics (before it, v0.8 printed
    # "llvm -keys=cpu -mcpu=cortex-m3"), and it filled llvm's mtriple from the host only from v0.16.
    if name != "cpu" or version >= (0, 16):
        return name
    return "cpu-without-host-triple" if version >= (0, 10) else None


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
    tags = _load("tags-v0.22.json")["tags"]
    return Registry(kinds, tags, version)
