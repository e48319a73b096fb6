"""Words and values as the older eras read them: TVM v0.8's ``SplitString`` (quotes dropped),
``std::getline`` items, C++ stream integers, and each era's conversion of a value."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from .._lexical import stream_int
from .._schema import TypeSpec
from .._target import Target
from ..errors import MismatchedQuoteError, TargetError, ValueConversionError, show

__all__ = ["NOT_SPACE", "Nested", "Word", "era07_value", "era08_value", "getline_items", "split_quoted"]


class Word(NamedTuple):
    """A word as the era reads it, and where it stands in the source."""

    text: str  # after the era's quote removal (E2); the source slice otherwise
    offsets: Sequence[int]  # the source index of each character of ``text``
    start: int  # the raw extent in the source, quotes included
    end: int


# C++ ``operator>>`` skips what ``isspace`` calls space in the C locale.
NOT_SPACE = re.compile(r"[^ \t\n\v\f\r]+")


def split_quoted(text: str, sep: str) -> list[Word]:
    """E2: TVM v0.8's ``SplitString``.

    ``sep`` outside quotes ends a word; ``\\'`` is a quote character; a quote toggles quoting and
    is dropped; every other character, a backslash included, is kept. Empty words are dropped.
    """
    words: list[Word] = []
    chars: list[str] = []
    offsets: list[int] = []
    start = -1
    quoted = False
    quote_at = -1
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c == sep and not quoted:
            if chars:
                words.append(Word("".join(chars), tuple(offsets), start, i))
            chars, offsets, start = [], [], -1
            i += 1
            continue
        if start < 0:
            start = i
        if c == "\\" and i + 1 < n and text[i + 1] == "'":
            chars.append("'")
            offsets.append(i + 1)
            i += 2
        elif c == "'":
            quoted = not quoted
            quote_at = i
            i += 1
        else:
            chars.append(c)
            offsets.append(i)
            i += 1
    if quoted:
        raise MismatchedQuoteError("mismatched quote: this quote is never closed", text, quote_at, quote_at + 1)
    if chars:
        words.append(Word("".join(chars), tuple(offsets), start, n))
    return words


def getline_items(text: str) -> list[tuple[str, int]]:
    """``std::getline(stream, item, ',')`` in a loop: the items between commas with their offsets,
    empty ones included, except that a comma at the very end starts no item."""
    parts = text.split(",")
    if parts[-1] == "":
        parts.pop()
    items = []
    pos = 0
    for part in parts:
        items.append((part, pos))
        pos += len(part) + 1
    return items


_INT32 = re.compile(r"[ \t\n\v\f\r]*([+-]?[0-9]+)")
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")

Nested = Callable[[str], Target]


def _stream_int32(text: str) -> int | None:
    """C++ ``istream >> int``: leading whitespace, a sign, digits up to the first non-digit; the
    value must fit 32 bits (on overflow the stream fails)."""
    match = _INT32.match(text)
    if match is None:
        return None
    return stream_int(match.group(1), -(2**31), 2**31 - 1)


def _not_text(attr: str, typ: TypeSpec, text: str) -> ValueConversionError:
    return ValueConversionError(
        f"attribute {show(attr)} has type {typ}, which cannot be written as text", text, 0, len(text)
    )


def era07_value(text: str, typ: TypeSpec, attr: str, nested: Nested) -> Any:
    """TVM v0.7's ``ParseType`` from text. Errors carry ``text`` as their source."""
    name = typ.name
    if name == "string":
        return text  # ``is >> string`` of a word without whitespace is the word
    if name in ("int", "bool"):
        number = _stream_int32(text)
        if number is None:
            raise ValueConversionError(
                f"attribute {show(attr)} is {name}: cannot parse a 32-bit integer from {show(text)}", text, 0, len(text)
            )
        return number if name == "int" else number != 0
    if name == "target":
        return nested(text)
    if name == "array":
        assert typ.elem is not None
        values = []
        for item, offset in getline_items(text):
            if not item:
                raise ValueConversionError(
                    f"attribute {show(attr)} has an empty item: TVM v0.7 could not read it", text, offset, offset + 1
                )
            try:
                values.append(era07_value(item, typ.elem, attr, nested))
            except TargetError as err:
                raise err.relocated(text, range(offset, offset + len(item)), offset + len(item)) from None
        return tuple(values)
    raise _not_text(attr, typ, text)


def era08_value(text: str, typ: TypeSpec, attr: str, nested: Nested) -> Any:
    """TVM v0.8's ``ParseType`` from text (no interpretation: the split removed the quotes)."""
    name = typ.name
    if name == "string":
        stripped = text.strip(" ")
        if text and not stripped:
            # TVM took substr(npos) of it and threw std::out_of_range.
            raise ValueConversionError(
                f"attribute {show(attr)} is only spaces, which TVM v0.8 - v0.9 could not read", text, 0, len(text)
            )
        return stripped
    if name in ("int", "bool"):
        number = _stream_int32(text)
        if number is None:
            lowered = text.translate(_ASCII_LOWER)  # C's tolower: ASCII letters only
            number = 1 if lowered == "true" else 0 if lowered == "false" else None
        if number is None:
            raise ValueConversionError(
                f"attribute {show(attr)} is {name}: cannot parse a 32-bit integer from {show(text)}", text, 0, len(text)
            )
        return number if name == "int" else number != 0
    if name == "target":
        return nested(text)
    if name == "array":
        assert typ.elem is not None
        values = []
        for item in split_quoted(text, ","):
            try:
                values.append(era08_value(item.text, typ.elem, attr, nested))
            except TargetError as err:
                raise err.relocated(text, item.offsets, item.end) from None
        return tuple(values)
    raise _not_text(attr, typ, text)
