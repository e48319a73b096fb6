"""What a registry takes from its user: a kind (from Python or a registry file) or a tag's config,
each checked to be usable and frozen, and a kind written back as registry-file data."""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from ._release_schemas import BUILTIN_CANONICALIZERS
from ._schema import COMMON_ATTRS, AttrSpec, KindSchema, TypeSpec, thawed
from ._values import from_json, json_type
from .errors import RegistryError, TargetError, show

__all__ = [
    "FILE_FIELDS",
    "MAX_CONFIG_DEPTH",
    "checked_kind",
    "declared_kind",
    "kind_from_dict",
    "kind_to_dict",
    "listed",
    "names_field",
    "table_field",
    "tag_config",
]


_COMMON = {spec.name: spec for spec in COMMON_ATTRS}


# Read into the target's own fields, never its attributes: a default for them would never apply.
_STRUCTURAL = frozenset({"keys", "tag", "host"})


_NON_LEAF = ("devices", "executor", "runtime")


_RESERVED = {
    "kind": "it names the kind itself",
    "features": "a target's features are derived by its kind's canonicaliser",
}


FILE_FIELDS = frozenset({"base", "kinds", "tags", "removed_kinds", "removed_tags"})


_KIND_FIELDS = frozenset({"attrs", "default_keys", "device_type", "leaf", "canonicalizer", "modern_only"})


_ATTR_FIELDS = frozenset({"type", "default", "ordered", "required", "modern_only"})


def listed(names: Iterable[str]) -> str:
    return ", ".join(repr(name) for name in sorted(names))


def _name(name: object) -> str:
    return show(name) if isinstance(name, str) else repr(name)


def table_field(data: Mapping[str, Any], key: str, what: str) -> Mapping[str, Any]:
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


def names_field(value: Any, what: str, *, array: bool = False) -> tuple[str, ...]:
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
    if value is None or (isinstance(value, str) and value in BUILTIN_CANONICALIZERS) or (python and callable(value)):
        return value
    shown = json.dumps(value) if isinstance(value, str) else json_type(value)
    known = listed(BUILTIN_CANONICALIZERS) + (" or a function" if python else "")
    raise RegistryError(f"{where}: 'canonicalizer' must be one of {known}, not {shown}")


def tag_config(name: str, config: Any) -> Mapping[str, Any]:
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


def checked_kind(kind: KindSchema) -> KindSchema:
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


def kind_to_dict(kind: KindSchema) -> dict[str, Any]:
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


def kind_from_dict(name: str, decl: Any) -> KindSchema:
    where = f"kind {_name(name)}"
    if not isinstance(decl, Mapping):
        raise RegistryError(f"{where}: expected a table (object) with {listed(_KIND_FIELDS)}, not {json_type(decl)}")
    extra = sorted(set(decl) - _KIND_FIELDS)
    if extra:
        raise RegistryError(f"{where}: no field {listed(extra)}; a kind has {listed(_KIND_FIELDS)}")
    specs = {}
    for attr, spec in table_field(decl, "attrs", f"{where}: 'attrs'").items():
        at = f"{where}, attribute {show(attr)}"
        spec = {"type": spec} if isinstance(spec, str) else spec
        if not isinstance(spec, Mapping) or "type" not in spec:
            raise RegistryError(f"{at}: expected a type or a table with 'type', not {json_type(spec)}")
        extra = sorted(set(spec) - _ATTR_FIELDS)
        if extra:
            raise RegistryError(f"{at}: no field {listed(extra)}; an attribute has {listed(_ATTR_FIELDS)}")
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
        names_field(decl.get("default_keys", ()), f"{where}: 'default_keys'", array=True),
        _integer(decl.get("device_type", 1), f"{where}: 'device_type'"),
        _checked_canonicalizer(decl.get("canonicalizer"), where),
        leaf=_boolean(decl.get("leaf", True), f"{where}: 'leaf'"),
        modern_only=_boolean(decl.get("modern_only", False), f"{where}: 'modern_only'"),
    )


def declared_kind(
    name: str,
    attrs: Mapping[str, str | tuple[str, Any]] | None,
    *,
    default_keys: Iterable[str],
    device_type: int,
    leaf: bool,
    unordered: Iterable[str],
    required: Iterable[str],
    canonicalizer: str | None,
) -> KindSchema:
    """The kind ``Registry.register_kind``'s arguments declare, each argument checked (the kind as
    a whole is checked by :func:`checked_kind` when a registry takes it)."""
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
    unordered = names_field(unordered, f"{where}: 'unordered'")
    required = names_field(required, f"{where}: 'required'")
    for field, names in (("unordered", unordered), ("required", required)):
        for attr in names:
            if attr not in decls:
                raise RegistryError(f"{where}: {field!r} names {show(attr)}, which is not one of its attributes")
    return KindSchema.build(
        name,
        decls,
        default_keys=names_field(default_keys, f"{where}: 'default_keys'"),
        device_type=_integer(device_type, f"{where}: 'device_type'"),
        unordered=unordered,
        canonicalizer=_checked_canonicalizer(canonicalizer, where, python=True),
        leaf=_boolean(leaf, f"{where}: 'leaf'"),
        required=required,
    )
