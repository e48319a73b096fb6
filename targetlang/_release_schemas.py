"""The kinds each TVM release registered, read from its recorded schema (``data/tvm-schemas.json``)
and, from v0.22 on, what TVM 0.27's JSON form added; the data files read as they ship."""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from ._cache import bounded_cache
from ._schema import COMMON_ATTRS, AttrSpec, KindSchema, TypeSpec
from ._versions import (
    DATA,
    DEFAULT,
    MODERN,
    Version,
    data_file,
)
from .errors import RegistryError

__all__ = [
    "BUILTIN_CANONICALIZERS",
    "MODERN_TYPES",
    "attribute_releases",
    "load_data",
    "release_kind_names",
    "release_kinds",
    "release_variant",
    "tvm_schemas",
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


BUILTIN_CANONICALIZERS = frozenset({*_PARSERS.values(), "cpu-without-host-triple"})


_COMMON_NAMES = frozenset(spec.name for spec in COMMON_ATTRS)


def load_data(name: str) -> Any:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def _spec(name: str, type_text: str, default: Any = None) -> AttrSpec:
    return AttrSpec(name, TypeSpec.parse(type_text.lower()), default, name not in _UNORDERED)


# The type names of TVM 0.24 on (a kind's options as its wheel lists them), as targetlang writes types
MODERN_TYPES = {
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
            specs = {a: AttrSpec(a, TypeSpec.parse(MODERN_TYPES[t]), modern_only=True) for a, t in options.items()}
            keys = tuple(kind["bare_export"]["keys"])
            variant = release_variant(tvm_schemas()["kinds"].get(name, ()), MODERN)
            device_type = variant["device_type"] if variant is not None else 1
            kinds.append(KindSchema(name, specs, keys, device_type, modern_only=True))
            continue
        old = kinds[by_name[name]]
        extra = {
            a: AttrSpec(a, TypeSpec.parse(MODERN_TYPES[t]), modern_only=True)
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


def release_variant(variants: Iterable[Mapping[str, Any]], version: Version) -> Mapping[str, Any] | None:
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


def release_kind_names(version: str | Version) -> frozenset[str]:
    """The names of the kinds of release ``version`` (a name of :data:`SCHEMA_RELEASES`, or its
    :class:`Version`), without building their schemas."""
    return _release_kind_names(Version.parse(version))


@functools.cache
def _release_kind_names(want: Version) -> frozenset[str]:
    names = {name for name, variants in tvm_schemas()["kinds"].items() if release_variant(variants, want) is not None}
    if want >= DEFAULT:  # (as release_kinds adds them)
        names.update(load_data(data_file("kinds", str(MODERN)))["kinds"])
    return frozenset(names)


def release_kinds(version: str | Version) -> tuple[KindSchema, ...]:
    """The kinds of the built-in registry of release ``version`` (a name of
    :data:`SCHEMA_RELEASES`, or its :class:`Version`), without its tags, whose configs cost most
    of building one: migration reads the kinds of every release."""
    return _release_kinds(Version.parse(version))


@functools.cache
def _release_kinds(want: Version) -> tuple[KindSchema, ...]:
    data = tvm_schemas()
    kinds = []
    for name, variants in data["kinds"].items():
        variant = release_variant(variants, want)
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
