"""Values TVM read as other than what was written: ``-num-cores=4abc`` is 4, ``-fast-math=2`` true.

TVM's legacy parser read an integer as C++'s ``istream >> int64_t`` does: leading white space
skipped, a sign and decimal digits, and whatever follows ignored (``4abc``, ``0x10``, ``1.5``,
``4,5``); a boolean was such an integer, any one but 0 true; an integer option written as a flag
(``-num-cores``) was 1. The migrated JSON holds what TVM read, so each such value is reported.
Canonical spellings of the same value are not: white space around an integer, a ``+``, leading
zeros, ``true``/``false`` in any case, quotes and escapes, spaces around a string, empty items of
an array.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from .._lexical import interpret, split_items
from .._schema import TypeSpec
from .._target import Target, locate, text_form
from ..errors import show

__all__ = ["misread"]

_WHOLE_INT = re.compile(r"[ \t\n\v\f\r]*[+-]?[0-9]+[ \t\n\v\f\r]*")
_LEADING_INT = re.compile(r"[ \t\n\v\f\r]*([+-]?[0-9]+)")
_WORDS = ("true", "false")


def _read(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def _from_text(raw: str, typ: TypeSpec, value: Any) -> list[str]:
    """Why the legacy text ``raw`` (quotes and escapes in it) does not say ``value``, per item."""
    text = interpret(raw)
    if typ.name == "array" and typ.elem is not None and isinstance(value, tuple | list):
        items = split_items(text, ",")
        if len(items) != len(value):
            return []
        return [why for (item, _), v in zip(items, value, strict=True) for why in _from_text(item, typ.elem, v)]
    if typ.name not in ("int", "bool") or text.lower() in _WORDS:
        return []
    if _WHOLE_INT.fullmatch(text):
        if typ.name == "int" or int(text.strip(" \t\n\v\f\r")) in (0, 1):
            return []
        return [f"{show(text)} read as {_read(value)}: TVM took every integer but 0 as true"]
    leading = _LEADING_INT.match(text)
    if leading is None:  # not what parse reads: nothing to say
        return []
    return [
        f"{show(text)} read as {_read(value)}: TVM read the leading integer {leading.group(1)} and ignored the rest"
    ]


def _from_json(written: Any, typ: TypeSpec, value: Any) -> list[str]:
    """Why the JSON value ``written`` does not say ``value``: an integer but 0 or 1 for a bool."""
    if typ.name == "bool" and isinstance(written, int) and not isinstance(written, bool) and written not in (0, 1):
        return [f"{written} read as {_read(value)}: TVM took every integer but 0 as true"]
    return []


def misread(target: Target, name: str, written: Mapping[str, Any] | None) -> list[str]:
    """Why the value of attribute ``name`` of ``target`` is not what its input said (one reason a
    value or array item), from the text ``target`` was read from, or ``written``, the mapping it
    was given as."""
    spec = target.schema.attrs.get(name)
    value = target.attrs.get(name)
    if spec is None or value is None or spec.type.name not in ("int", "bool", "array"):
        return []
    if written is not None:
        return _from_json(written.get(name), spec.type, value) if name in written else []
    source, start, end = locate(target, name)
    if not source:
        return []
    raw = source[start:end]
    if text_form(target) == "json":
        try:
            literal = json.loads(raw)
        except ValueError:  # a JSON-ish bare word or quote: its own reader's business
            return []
        return _from_json(literal, spec.type, value)
    if raw == "":  # a flag: true for a bool, 1 for an integer
        return ["written without a value, read as 1"] if spec.type.name == "int" else []
    return _from_text(raw, spec.type, value)
