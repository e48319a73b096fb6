"""Printers: the canonical string, TVM v0.22's ``str()``, and the modern JSON form.

They read a target through its public fields (``kind``, ``tag``, ``keys``, ``host``,
``attrs``, ``schema``) and its kind schema, so this module does not depend on the class.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping
from contextvars import ContextVar
from typing import Any

from ._lexical import INT64_MAX, INT64_MIN, MKLDNN, encode_item, encode_scalar, escape
from ._resolution import features_json, reads_feature_keys
from ._schema import AttrSpec, TypeSpec
from ._values import is_representable, to_text
from ._versions import registry_release
from .errors import UnprintableTargetError

__all__ = [
    "canonical",
    "canonical_json_text",
    "canonical_jsonish",
    "json_value",
    "legacy_str",
    "ordered",
    "to_json",
]

_STRING_ARRAY = TypeSpec("array", TypeSpec("string"))
_BAD_NAME_CHARS = frozenset(" '\\=\"")


def _plain_name(name: str, *, first: str = "") -> bool:
    return bool(name) and not (_BAD_NAME_CHARS & set(name)) and not name.startswith(("-", *first))


# (asked of every kind and attribute each time a target prints: the names are a registry's)
@functools.lru_cache(maxsize=4096)
def _plain_attr_name(name: str) -> bool:
    return _plain_name(name)


@functools.lru_cache(maxsize=4096)
def _plain_kind_name(name: str) -> bool:
    return _plain_name(name, first="{")


def _sort_key(value: Any) -> tuple[str, str]:
    return (type(value).__name__, repr(value) if not hasattr(value, "canonical") else value.canonical())


def ordered(value: Any, spec: AttrSpec) -> Any:
    """``value`` of attribute ``spec`` with an unordered array sorted, as printing and equality take it."""
    if spec.type.name == "array" and not spec.ordered:
        return tuple(sorted(value, key=_sort_key))
    return value


# How the canonical string writes an attribute, by its spec: a string, an int, a bool, an array of
# strings kept in order or sorted; any other value by the general steps; none at all (a modern
# attribute, or a name the legacy syntax cannot carry: the whole target is then JSON text).
_GENERAL, _STRING, _INT, _BOOL, _STRINGS, _UNORDERED_STRINGS, _UNWRITABLE = range(7)

# By each kind schema's id (with the schema, which keeps the id its own): the codes of its
# attributes, and whether the legacy syntax writes its kind at all (a plain name, not a modern kind);
# emptied when it holds many, as registries come and go.
_PRINT_CODES: dict[int, tuple[Any, dict[str, int], bool]] = {}


def _print_codes(schema: Any) -> tuple[Any, dict[str, int], bool]:
    held = _PRINT_CODES.get(id(schema))
    if held is not None and held[0] is schema:
        return held
    codes = {name: _print_code(name, spec) for name, spec in schema.attrs.items()}
    if len(_PRINT_CODES) >= 1024:
        _PRINT_CODES.clear()
    held = _PRINT_CODES[id(schema)] = (schema, codes, _plain_kind_name(schema.name) and not schema.modern_only)
    return held


def _print_code(name: str, spec: AttrSpec) -> int:
    if spec.modern_only or not _plain_name(name):
        return _UNWRITABLE
    typ = spec.type
    if typ.name == "array":
        if typ.elem is None or typ.elem.name != "string":
            return _GENERAL
        return _STRINGS if spec.ordered else _UNORDERED_STRINGS
    return {"string": _STRING, "int": _INT, "bool": _BOOL}.get(typ.name, _GENERAL)


def _all_str(values: tuple[Any, ...]) -> bool:
    return all(type(value) is str for value in values)


def _legacy_canonical(t: Any) -> str | None:
    schema = t.schema
    held = _PRINT_CODES.get(id(schema))
    if held is None or held[0] is not schema:
        held = _print_codes(schema)
    kind = t.kind
    if not (held[2] if kind == schema.name else _plain_kind_name(kind) and not schema.modern_only):
        return None  # (a kind of no plain name, or of TVM's modern releases only)
    attrs = t.attrs
    host = t.host
    if not attrs and host is None and kind in t.registry.tags:
        return None
    parts = [kind]
    keys = t.declared_keys
    if keys is not None:
        if all(type(key) is str for key in keys):  # (what the steps below make of it, in fewer)
            if any(key != key.strip(" ") for key in keys):
                return None
            parts.append("-keys=" + encode_scalar(",".join(map(encode_item, keys))))
        elif not is_representable(keys, _STRING_ARRAY):
            return None
        else:
            parts.append("-keys=" + encode_scalar(to_text(keys, _STRING_ARRAY, _nested_text)))
    tag = t.tag
    if tag:
        if tag != tag.strip(" "):
            return None
        parts.append("-tag=" + encode_scalar(tag))
    if host is not None:
        parts.append("-host=" + encode_scalar(_nested_text(host)))
    if schema.modern_only or (t.features and _exported_features(t)):
        return None
    codes = held[1]
    for name in sorted(attrs) if attrs else ():
        value = attrs[name]
        if value is None:
            continue  # left null by a device query: absent to every printer, as to TVM's str()
        # A string, an int, a bool or an array of strings is written here; any other value as the
        # general steps below say (what they make of these, in fewer steps).
        code = codes[name]
        if code == _STRING and type(value) is str:
            if value != value.strip(" "):
                return None
            if value and " " not in value and "'" not in value and "\\" not in value:
                parts.append(f"-{name}={value}")  # (encode_scalar leaves it as it is)
            else:
                parts.append(f"-{name}={encode_scalar(value)}")
        elif (code == _INT and type(value) is int) or (code == _BOOL and type(value) is bool):
            if not INT64_MIN <= value <= INT64_MAX:
                return None
            parts.append(f"-{name}={int(value)}")
        elif (code == _STRINGS or code == _UNORDERED_STRINGS) and type(value) is tuple and _all_str(value):
            if code == _UNORDERED_STRINGS:
                value = tuple(sorted(value, key=_sort_key))
            if any(item != item.strip(" ") for item in value):
                return None
            parts.append(f"-{name}={encode_scalar(','.join(map(encode_item, value)))}")
        elif code == _UNWRITABLE:
            return None
        else:
            spec = schema.attrs[name]
            value = ordered(value, spec)
            if not is_representable(value, spec.type):
                return None
            parts.append(f"-{name}={encode_scalar(to_text(value, spec.type, _nested_text))}")
    return " ".join(parts)


def _nested_text(t: Any) -> str:
    # Every level of nesting in legacy text escapes the level inside it again, so quotes and
    # backslashes double per level; a nested target that would need them is written as JSON,
    # which nests without escaping.
    if _JSON_TEXTS.get() is None:  # the outermost nested target: the texts of its chain kept
        token = _JSON_TEXTS.set({})
        try:
            return _nested_text(t)
        finally:
            _JSON_TEXTS.reset(token)
    text = _legacy_canonical(t)
    if text is None or "'" in text or "\\" in text:
        return canonical_json_text(t)
    return text


# The canonical JSON texts made in one canonical() call, by the id of their target. In a chain of
# hosts every level whose legacy text would quote the text inside it is written as JSON text:
# each is made of its host's (taken out of here, so that the chain holds one or two texts at a
# time), where json.dumps of each level encoded every level inside it again, quadratic in depth
# (9 s for 4,000 levels).
_JSON_TEXTS: ContextVar[dict[int, str] | None] = ContextVar("_JSON_TEXTS", default=None)


def canonical(t: Any) -> str:
    """A deterministic legacy string with everything in it (keys, tag, host).

    Attributes are sorted bytewise, unordered arrays sorted, every value written with ``=``
    and quoted only when it has to be. A target the legacy syntax cannot carry (a string with
    outer spaces, say) is written as canonical JSON text instead, which ``parse`` also reads, and
    so is one whose text would hold ``-libs=mkldnn``, which ``parse`` (as TVM) reads as ``dnnl``.
    """
    text = _legacy_canonical(t)  # (a nested target's text keeps the texts of its chain itself)
    if text is not None and MKLDNN not in text:
        return text
    token = _JSON_TEXTS.set({}) if _JSON_TEXTS.get() is None else None
    try:
        return _kept_from_mkldnn_rewrite(canonical_json_text(t))
    finally:
        if token is not None:
            _JSON_TEXTS.reset(token)


def _kept_from_mkldnn_rewrite(json_text: str) -> str:
    """JSON text in which no ``-libs=mkldnn`` is left to rewrite: in JSON that text stands
    inside a string, where ``\u002d`` is the same dash."""
    return json_text.replace(MKLDNN, "\\u002d" + MKLDNN[1:])


def canonical_json_text(t: Any) -> str:
    """Compact JSON of :func:`to_json` with sorted keys and unordered arrays sorted."""
    made = _JSON_TEXTS.get()
    if made is None or t.host is None:
        return _dumps(to_json(t, sort_unordered=True))
    text = made.get(id(t))
    if text is None:
        host = canonical_json_text(t.host)  # (made already, when its level needed it)
        made.pop(id(t.host), None)
        # json.dumps of the object with its keys sorted, the host's text in its place
        own = _to_json(t, True, with_host=False)
        own["host"] = None
        text = "{" + ",".join(f"{_dumps(k)}:{host if k == 'host' else _dumps(v)}" for k, v in sorted(own.items())) + "}"
        made[id(t)] = text
    return text


def _dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def json_value(value: Any, typ: TypeSpec, sort_unordered: bool) -> Any:
    if value is None:  # a null target (an item of devices given as None)
        return None
    if typ.name == "target":
        return to_json(value, sort_unordered=sort_unordered)
    if typ.name == "array":
        assert typ.elem is not None
        elem = typ.elem
        return [json_value(v, elem, sort_unordered) for v in value]
    if typ.name == "map":
        return dict(value)
    return value


def to_json(t: Any, *, sort_unordered: bool = False) -> dict[str, Any]:
    """The modern form: a dict of JSON types that TVM >= 0.24 accepts with ``Target(d)``."""
    return _to_json(t, sort_unordered)


def _to_json(t: Any, sort_unordered: bool, *, with_host: bool = True) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": t.kind}
    if t.tag:
        out["tag"] = t.tag
    if t.declared_keys is not None:
        out["keys"] = list(t.declared_keys)
    if t.host is not None and with_host:
        out["host"] = to_json(t.host, sort_unordered=sort_unordered)
    specs = t.schema.attrs
    for name, value in t.attrs.items():
        if value is None:
            continue  # left null by a device query: no input form carries a null attribute
        spec = specs[name]
        if sort_unordered:
            value = ordered(value, spec)
        out[name] = json_value(value, spec.type, sort_unordered)
    features = _exported_features(t)
    if features:
        out.update(features_json(features))
    return out


def _exported_features(t: Any) -> Mapping[str, Any]:
    """The features written with the attributes: TVM v0.24 on exports them and reads them back
    (apache/tvm#18883); the releases before kept them apart and rejected them in a config."""
    features: Mapping[str, Any] = t.features
    if features and reads_feature_keys(registry_release(t.registry.version).version):
        return features
    return {}


def _legacy_scalar(value: Any, name: str) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        text = escape(value)
        return f"'{text}'" if " " in text else text
    raise UnprintableTargetError(
        f"TVM v0.22 cannot print attribute '{name}': it holds a {type(value).__name__}, not an int, bool or string"
    )


def legacy_str(t: Any) -> str:
    """TVM v0.22's ``str(target)`` of an already resolved target, quirks included.

    Bytewise-sorted attributes, defaults printed, bools as ``1``/``0``, empty values left
    out, a trailing space when nothing follows the keys, array items escaped twice, and
    ``host`` and ``tag`` dropped.
    """
    head: str = t.kind
    if t.keys:
        head += " -keys=" + ",".join(t.keys)
    parts = []
    for name in sorted(t.attrs):
        value = t.attrs[name]
        if value is None:
            continue
        if isinstance(value, tuple):
            items = []
            for item in value:
                text = escape(_legacy_scalar(item, name))
                items.append(f"'{text}'" if "," in text else text)
            rendered = ",".join(items)
        else:
            rendered = _legacy_scalar(value, name)
        if rendered:
            parts.append(f"-{name}={rendered}")
    return head + " " + " ".join(parts)


_BARE = re.compile(r"(?:[A-Za-z_+.]|/(?!/))(?:[A-Za-z0-9_+.\-]|/(?!/))*")
_LITERAL_WORDS = frozenset({"true", "false", "null", "True", "False", "None"})


def _jsonish_word(text: str) -> str:
    if _BARE.fullmatch(text) and text not in _LITERAL_WORDS:
        return text
    return json.dumps(text, ensure_ascii=False)


def _jsonish(value: Any, indent: str) -> str:
    if isinstance(value, dict):
        if not value:
            return "{}"
        inner = indent + "  "
        members = [f"{inner}{_jsonish_word(k)}: {_jsonish(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(members) + "\n" + indent + "}"
    if isinstance(value, list):
        if not any(isinstance(v, (dict, list)) for v in value):
            return "[" + ", ".join(_jsonish(v, indent) for v in value) + "]"
        inner = indent + "  "
        return "[\n" + ",\n".join(inner + _jsonish(v, inner) for v in value) + "\n" + indent + "]"
    if isinstance(value, str):
        return _jsonish_word(value)
    return json.dumps(value)


def _canonical_order(data: dict[str, Any]) -> dict[str, Any]:
    head = [k for k in ("kind", "tag", "keys", "host") if k in data]
    ordered = {k: data[k] for k in [*head, *sorted(k for k in data if k not in head)]}
    for key, value in ordered.items():
        if isinstance(value, dict):
            ordered[key] = _canonical_order(value)
        elif isinstance(value, list):
            ordered[key] = [_canonical_order(v) if isinstance(v, dict) else v for v in value]
    return ordered


def canonical_jsonish(t: Any) -> str:
    """The canonical JSON-ish text: ``kind``, ``tag``, ``keys``, ``host`` first, then the
    attributes sorted, unordered arrays sorted, two-space indent, bare words where they read
    back the same, double quotes elsewhere."""
    return _kept_from_mkldnn_rewrite(_jsonish(_canonical_order(to_json(t, sort_unordered=True)), ""))
