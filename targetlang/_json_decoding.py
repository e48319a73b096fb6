"""JSON text decoded as the releases decoded it: the standard decoder with no NaN or infinity
(and one that notes each object it finishes, for where it stands), integers beyond 64 bits
refused where a release refused them, and a decoded config whose values are all plain, read
without the general path."""

from __future__ import annotations

import contextvars
import functools
import json
import re
from collections.abc import Callable, Iterator, Mapping
from types import MappingProxyType
from typing import Any

from ._diagnostics import LIMIT
from ._lexical import INT64_MAX, INT64_MIN
from ._registry import Registry
from ._resolution import reads_feature_keys
from ._schema import PLAIN_BOOL, PLAIN_INT, PLAIN_STRING, PLAIN_STRINGS, PLAIN_TARGET, plain_codes
from ._syntax import JsonArray, JsonNode, JsonObject
from ._target import Target, build_target
from ._versions import Version, registry_release
from .errors import IntegerOverflowError, InvalidJSONError

__all__ = [
    "FINISHED",
    "LONG_DIGITS",
    "NO_SPANS",
    "SCAN",
    "SCAN_NOTED",
    "check_int64",
    "check_json_int64",
    "plain_config",
    "refuses_long_json_ints",
]


NO_SPANS: Mapping[str, Any] = MappingProxyType({})


def check_int64(config: Mapping[str, Any]) -> None:
    """TVM's FFI converted a config mapping before reading any of it, and an integer anywhere in
    it beyond 64 bits was an ``OverflowError`` then, whatever else was wrong."""
    # In document order, a container at a time: an iterator over its items and the key it stands
    # at, so that nothing is made for an item (a path string and a tuple for each item of a
    # 5,000,000-item array took half of explain's memory), and the path is spelled out only for
    # a value that does not fit (spelled at each level, it was quadratic in the depth).
    seen = {id(config)}  # a mapping that holds itself is the reader's to report, once
    stack: list[tuple[Iterator[tuple[Any, Any]], Any]] = [(iter(config.items()), None)]
    while stack:
        items, _ = stack[-1]
        for key, value in items:
            if isinstance(value, bool | str):
                continue
            if isinstance(value, int):
                if not INT64_MIN <= value <= INT64_MAX:
                    path = "config" + "".join(f"[{at!r}]" for _, at in stack[1:])
                    raise IntegerOverflowError(f"{path}[{key!r}] is {value}, which does not fit 64 bits", "")
            elif isinstance(value, Mapping | list | tuple) and id(value) not in seen:
                seen.add(id(value))
                inner = value.items() if isinstance(value, Mapping) else enumerate(value)
                stack.append((iter(inner), key))
                break
        else:
            stack.pop()


def check_json_int64(root: JsonObject, text: str) -> None:
    """TVM v0.21 - v0.23 handed a JSON text to Python's ``json`` and the object it gave to the FFI,
    which refused the whole of it ("Cannot load config dict with python JSON loader") for an integer
    beyond 64 bits, before any field was read: raise that, at the first such integer the loader
    kept (of a key given twice, the last value)."""
    stack: list[JsonNode] = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, JsonObject):
            kept = {key: value for key, _, value in node.members}
            stack.extend(reversed(kept.values()))
        elif isinstance(node, JsonArray):
            stack.extend(reversed(node.items))
        elif type(node.value) is int and not INT64_MIN <= node.value <= INT64_MAX:
            raise InvalidJSONError(
                f"{node.value} does not fit 64 bits: TVM's JSON loader refused the whole text",
                text,
                node.start,
                node.end,
            )


@functools.cache
def refuses_long_json_ints(version: str) -> bool:
    # v0.24 on reads JSON text in C++ (an integer beyond 64 bits is a float there); v0.20 and
    # earlier wrapped it to 64 bits
    return _FFI_JSON_LOADER[0] <= registry_release(version).version <= _FFI_JSON_LOADER[1]


_FFI_JSON_LOADER = (Version.parse("0.21"), Version.parse("0.23"))


def plain_config(
    config: dict[str, Any],
    registry: Registry,
    depth: int,
    own_text: str | tuple[str, int, int],
    slices: Mapping[int, tuple[int, int]],
) -> Target | None:
    """The target of a decoded config whose every value is plain: of the attribute's own JSON type
    (an ASCII string, an array of them, an int within 64 bits, a bool, an object of a target that
    is plain too), of a kind with no required attribute, for a release that reads no feature keys;
    ``None`` for any other config, which :func:`_from_config` reads (and whose errors it raises).
    It is what :func:`_from_config` makes of such a config, without the steps none of it needs."""
    kind = config.get("kind")
    if type(kind) is not str or "tag" in config or _reads_features(registry.version):
        return None
    schema = registry.kinds.get(kind)
    if schema is None or schema.required_names:
        return None
    codes = plain_codes(schema)
    attrs: dict[str, Any] = {}
    keys = host = None
    for key, value in config.items():
        if key == "kind":
            continue
        code = codes.get("-" + key)
        if code is None or code[0] != key:  # ("--name" is there too, for a legacy "---name")
            return None
        kept: Any
        form = code[1]
        if form == PLAIN_STRING:
            if type(value) is not str or not value.isascii():
                return None
            kept = value
        elif form == PLAIN_STRINGS:
            if type(value) is not list or not all(type(item) is str and item.isascii() for item in value):
                return None
            kept = tuple(value)
        elif form == PLAIN_INT:
            if type(value) is not int or not INT64_MIN <= value <= INT64_MAX:
                return None
            kept = value
        elif form == PLAIN_BOOL:
            if type(value) is not bool:
                return None
            kept = value
        else:
            # (a deep nesting is left to _from_config, whose use of the stack decides what a
            # nesting too deep for it raises)
            if depth >= _PLAIN_DEPTH or depth + 1 > LIMIT.get():
                return None
            if form == PLAIN_TARGET:
                if type(value) is not dict:
                    return None
                kept = _plain_nested(value, registry, depth + 1, own_text, slices)
                if kept is None:
                    return None
            else:
                if type(value) is not list:
                    return None
                targets = []
                for item in value:
                    target = _plain_nested(item, registry, depth + 1, own_text, slices) if type(item) is dict else None
                    if target is None:
                        return None
                    targets.append(target)
                kept = tuple(targets)
        if key == "keys":
            keys = kept
        elif key == "host":
            host = kept
        else:
            attrs[key] = kept
    return build_target(schema, registry, "", keys, host, attrs, NO_SPANS, own_text, "json", None)


def _plain_nested(
    config: dict[str, Any],
    registry: Registry,
    depth: int,
    own_text: str | tuple[str, int, int],
    slices: Mapping[int, tuple[int, int]],
) -> Target | None:
    found = slices.get(id(config))
    if found is None:
        return None
    source = own_text if isinstance(own_text, str) else own_text[0]
    return plain_config(config, registry, depth, (source, *found), slices)


_PLAIN_DEPTH = 8


@functools.cache
def _reads_features(version: str) -> bool:
    return reads_feature_keys(registry_release(version).version)


def _not_json(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


_DECODER = json.JSONDecoder(parse_constant=_not_json)


# (the decoder's scanner, which typeshed does not declare)
SCAN: Callable[[str, int], tuple[Any, int]] = _DECODER.scan_once  # type: ignore[attr-defined]


# The objects a decoding finishes, in order (the list of the decoding under way in this thread):
# one decoder for every text, where a decoder made for each cost more than the rest of a read.
FINISHED: contextvars.ContextVar[list[dict[str, Any]]] = contextvars.ContextVar("targetlang_json_finished")


def _noted(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    made = dict(pairs)
    FINISHED.get().append(made)
    return made


SCAN_NOTED: Callable[[str, int], tuple[Any, int]] = json.JSONDecoder(  # type: ignore[attr-defined]
    object_pairs_hook=_noted, parse_constant=_not_json
).scan_once


LONG_DIGITS = re.compile(r"[0-9]{19}")  # the shortest integer beyond 64 bits has 19 digits
