"""Typed attribute values: from legacy text, from JSON/dict values, and back to text.

Conversion follows TVM v0.22's ``ParseType`` (spec section 3): every raw value is interpreted
first, then converted by its declared type, arrays recursively. Nested targets are delegated
to a callback so that this module stays below the :class:`Target` layer.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from ._lexical import INT64_MAX, INT64_MIN, encode_item, interpret, interpret_offsets, iter_items, parse_int
from ._schema import TypeSpec
from .errors import TargetError, ValueConversionError, check_encodable, show

__all__ = ["from_json", "from_text", "is_representable", "to_text"]

# Builds a nested Target from text, a mapping or a Target (text path: nested(text); JSON path:
# nested(value, json_node)).
Nested = Callable[..., Any]


def _relocate(err: TargetError, outer: str, offsets: Sequence[int], end: int) -> TargetError:
    return err.relocated(outer, offsets, end)


def from_text(raw: str, typ: TypeSpec, attr: str, nested: Nested, int_bits: int = 64) -> Any:
    """Convert a raw option value (quotes and escapes still in it) to ``typ``; integers have
    ``int_bits`` bits (TVM v0.10 - v0.20 read them into a C ``int``, 32).

    Errors carry ``raw`` as their source; the caller moves them into the whole string.
    """
    text = interpret(raw)
    try:
        return _convert_text(text, typ, attr, nested, int_bits)
    except TargetError as err:
        if text == raw:
            raise
        offsets = interpret_offsets(raw)
        raise _relocate(err, raw, offsets, len(raw)) from None


def _convert_text(text: str, typ: TypeSpec, attr: str, nested: Nested, int_bits: int = 64) -> Any:
    name = typ.name
    if name == "string":
        return text.strip(" ")
    if name == "int" or name == "bool":
        number = parse_int(text, int_bits)
        if number is None:
            width = "an integer" if int_bits == 64 else f"a {int_bits}-bit integer"
            raise ValueConversionError(
                f"attribute '{attr}' is {name}: cannot parse {width} from {show(text)}", text, 0, len(text)
            )
        return number if name == "int" else number != 0
    if name == "target":
        return nested(text)
    if name == "array":
        assert typ.elem is not None
        return tuple(_items_from_text(text, typ.elem, attr, nested, int_bits))
    raise ValueConversionError(
        f"attribute '{attr}' has type {typ}, which cannot be written as text", text, 0, len(text)
    )


def _items_from_text(text: str, elem: TypeSpec, attr: str, nested: Nested, int_bits: int) -> Iterator[Any]:
    for item, offset in iter_items(text, ","):
        try:
            yield from_text(item, elem, attr, nested, int_bits)
        except TargetError as err:
            span = range(offset, offset + len(item))
            raise _relocate(err, text, span, offset + len(item)) from None


def from_json(value: Any, typ: TypeSpec, attr: str, nested: Nested, where: Any = None, source: str = "") -> Any:
    """Convert a dict/JSON value to ``typ`` with TVM's rules for configs (spec section 5.2).

    No text conversion happens: ``"true"`` is not a bool. Booleans are accepted for ints and
    integers for bools, as TVM's object conversion does, and ``None`` for a target is a null
    target (``None``), as TVM's was (the caller decides what a null host means). ``where`` is the JSON node the value
    came from in ``source`` (its ``start``/``end`` locate errors), or ``None``. ``nested`` is
    called as ``nested(value, where)``.
    """
    name = typ.name
    if name == "string":
        if isinstance(value, str):
            if not value.isascii():  # a JSON "\\ud800" escape decodes to a lone surrogate
                try:
                    check_encodable(value)
                except TargetError as err:
                    start = where.start if where is not None else 0
                    end = where.end if where is not None else 0
                    raise err.at(source, start, end) if source else err from None
            return value
    elif name in ("int", "bool"):
        if isinstance(value, int):
            if not INT64_MIN <= value <= INT64_MAX:
                raise ValueConversionError(
                    f"attribute '{attr}' is {name}: {value} is beyond the 64-bit integers TVM holds",
                    source,
                    where.start if where is not None else 0,
                    where.end if where is not None else 0,
                )
            return int(value) if name == "int" else bool(value)
    elif name == "target":
        if value is None:
            return None
        if isinstance(value, (str, Mapping)) or hasattr(value, "kind"):
            return nested(value, where)
    elif name == "array":
        if isinstance(value, (list, tuple)):
            assert typ.elem is not None
            items = getattr(where, "items", None)
            return tuple(
                from_json(v, typ.elem, attr, nested, items[i] if items is not None else None, source)
                for i, v in enumerate(value)
            )
    elif name == "map":
        if isinstance(value, Mapping):
            return MappingProxyType(dict(value))
    raise ValueConversionError(
        f"attribute '{attr}' must be {_describe(typ)}, not {json_type(value)}",
        source,
        where.start if where is not None else 0,
        where.end if where is not None else 0,
    )


def _describe(typ: TypeSpec) -> str:
    return {
        "string": "a string",
        "int": "an integer",
        "bool": "a boolean",
        "target": "a target (string or object)",
        "map": "an object",
    }.get(typ.name, f"an array ({typ})")


def json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number with a fraction"
    if isinstance(value, str):
        return "a string"
    if value is None:
        return "null"
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, (list, tuple)):
        return "an array"
    return type(value).__name__


def to_text(value: Any, typ: TypeSpec, render_target: Callable[[Any], str]) -> str:
    """The interpreted text that converts back to ``value`` (the inverse of ``_convert_text``)."""
    name = typ.name
    if name == "string":
        return str(value)
    if name == "bool":
        return "1" if value else "0"
    if name == "int":
        return str(int(value))
    if name == "target":
        return render_target(value)
    if name == "array":
        assert typ.elem is not None
        elem = typ.elem
        return ",".join(encode_item(to_text(v, elem, render_target)) for v in value)
    raise ValueConversionError(f"a {typ} value cannot be written as text")


def is_representable(value: Any, typ: TypeSpec) -> bool:
    """Whether the legacy syntax can carry ``value`` at all (strings lose outer spaces there,
    integers are 64-bit, maps have no text form). Nested targets are always representable:
    their text may fall back to JSON; a null one (``None``, from a config) has no text form."""
    name = typ.name
    if value is None:
        return False
    if name == "string":
        return isinstance(value, str) and value == value.strip(" ")
    if name == "int":
        return INT64_MIN <= int(value) <= INT64_MAX
    if name == "array":
        assert typ.elem is not None
        return all(is_representable(v, typ.elem) for v in value)
    return name != "map"
