"""TVM v0.22's rules for the text of one value: splitting, quote and escape interpretation.

These are the functions ``SplitString``, ``IsQuoted``, ``Interpret`` and ``Uninterpret`` of
``src/target/target.cc`` (spec section 2), plus their exact inverses, which TVM lacked, for the
canonical printer. The grammar cuts a target string into words; everything inside a word is
handled here, per value, because TVM interprets quotes and escapes per attribute type.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

from .errors import MismatchedQuoteError

__all__ = [
    "INT64_MAX",
    "INT64_MIN",
    "MKLDNN",
    "Span",
    "encode_item",
    "encode_scalar",
    "escape",
    "interpret",
    "interpret_offsets",
    "is_quoted",
    "iter_items",
    "parse_int",
    "split_items",
    "stream_int",
]

# Where an option or member stands in a target's text: (start of the option or key, end of the
# key, start of the value, end of the value).
Span = tuple[int, int, int, int]

_QUOTE = "'"
_ESC = "\\"

MKLDNN = "-libs=mkldnn"
"""TVM v0.9 - v0.23's Python ``Target()`` replaced every ``mkldnn`` of a target string holding this
text by ``dnnl`` before reading it (python/tvm/target/target.py)."""


def split_items(text: str, sep: str = ",") -> list[tuple[str, int]]:
    """Split ``text`` at ``sep`` outside quoted regions and escapes (TVM's ``SplitString``).

    Quotes and escapes are kept in the items; empty items are dropped. Returns ``(item, offset)``
    pairs. Raises :class:`MismatchedQuoteError` at the opening quote of an unclosed region.
    """
    if _QUOTE not in text and _ESC not in text:
        items: list[tuple[str, int]] = []
        pos = 0
        for part in text.split(sep):
            if part:
                items.append((part, pos))
            pos += len(part) + 1
        return items
    items = []
    start = 0
    in_quote = False
    quote_at = -1
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c == sep and not in_quote:
            if i > start:
                items.append((text[start:i], start))
            start = i + 1
        elif c == _ESC and i + 1 < n:
            i += 1
        elif c == _QUOTE:
            in_quote = not in_quote
            quote_at = i
        i += 1
    if in_quote:
        raise MismatchedQuoteError("mismatched quote: this quote is never closed", text, quote_at, quote_at + 1)
    if n > start:
        items.append((text[start:], start))
    return items


def iter_items(text: str, sep: str = ",") -> Iterator[tuple[str, int]]:
    """:func:`split_items`, one item at a time: a long array is never held twice, as a list of
    items and as the values made from them. A mismatched quote is found before the first item."""
    if _QUOTE not in text and _ESC not in text:
        return ((m.group(), m.start()) for m in _runs_without(sep).finditer(text))
    return iter(split_items(text, sep))


@functools.cache
def _runs_without(sep: str) -> re.Pattern[str]:
    return re.compile(f"[^{re.escape(sep)}]++")


def is_quoted(value: str) -> bool:
    """True when ``value`` is one single-quoted region, enclosing quotes included (``IsQuoted``)."""
    if len(value) < 2 or value[0] != _QUOTE or value[-1] != _QUOTE:
        return False
    inside = value[1:-1]
    if _ESC not in inside:
        return _QUOTE not in inside
    # Inside, no unescaped quote; an escape may not take the closing quote. With the escaped
    # backslashes gone (str.replace pairs a run's backslashes from the left, as the escapes do),
    # every backslash left escapes the character after it.
    inside = inside.replace(_ESC + _ESC, "")
    return not inside.endswith(_ESC) and inside.count(_QUOTE) == inside.count(_ESC + _QUOTE)


def interpret(value: str) -> str:
    """The text a raw value stands for (TVM's ``Interpret``).

    Enclosing quotes are removed once; outside quoted regions an escape yields the escaped
    character; inside them escapes and quotes are kept verbatim.
    """
    if _QUOTE not in value and _ESC not in value:
        return value
    body = value[1:-1] if is_quoted(value) else value
    if _ESC not in body:
        return body  # a quoted region is kept as written, its quotes too: only escapes change
    unescaped = _unescape(body)
    if unescaped is not None:
        return unescaped
    # The pieces are joined every few thousand, so that a value dense with quoted regions never
    # holds one string object per region.
    chunks: list[str] = []
    pieces: list[str] = []
    for m in _REGIONS.finditer(body):
        outside, quoted = m.group(1, 2)
        if outside:
            pieces.append(_unescape_outside(outside) if _ESC in outside else outside)
        if quoted:
            pieces.append(quoted)
        if len(pieces) >= 4096:
            chunks.append("".join(pieces))
            pieces.clear()
    chunks.append("".join(pieces))
    return chunks[0] if len(chunks) == 1 else "".join(chunks)


# A run outside quoted regions (its escapes taken whole, and a backslash at the very end), then
# the quoted region that ends it, kept verbatim up to its closing quote or the end (an escape
# inside it is kept, and so is a backslash at the very end). An escape pairs a backslash with the
# next character alike inside and outside a region, so the runs are found in one pass.
_REGIONS = re.compile(r"((?:[^'\\]++|\\[\s\S])*+\\?)('(?:[^'\\]++|\\[\s\S])*+(?:'|\\?\Z))?")

# Characters a text rarely holds, to stand for an escaped backslash while the other escapes go.
_MARKS = ("\x00", "\x01", "\ufffe", "\uffff", "\U0010fffe", "\U0010ffff")


def _unescape(text: str) -> str | None:
    """``text`` with each escape replaced by the character it escapes and a backslash at the very
    end dropped, or ``None`` when it holds a quote no backslash escapes (a quoted region)."""
    # str.replace pairs the backslashes of a run from the left, as the escapes do: the pairs
    # stand aside as a mark, and every backslash left escapes the character after it.
    if _ESC + _ESC not in text:
        if _QUOTE in text and text.count(_QUOTE) != text.count(_ESC + _QUOTE):
            return None
        return text.replace(_ESC, "")
    for mark in _MARKS:
        if mark not in text:
            marked = text.replace(_ESC + _ESC, mark)
            if _QUOTE in marked and marked.count(_QUOTE) != marked.count(_ESC + _QUOTE):
                return None
            return marked.replace(_ESC, "").replace(mark, _ESC)
    if _QUOTE in text:
        return None
    return _ESCAPE.sub(_escaped, text)


_ESCAPE = re.compile(r"\\([\s\S]?)")


def _unescape_outside(text: str) -> str:
    """:func:`_unescape` of a run outside any quoted region, whose quotes are all escaped."""
    unescaped = _unescape(text)
    return _ESCAPE.sub(_escaped, text) if unescaped is None else unescaped


def _escaped(m: re.Match[str]) -> str:
    return m.group(1)


def interpret_offsets(value: str) -> list[int]:
    """For each character of ``interpret(value)``, its index in ``value``."""
    if not value:
        return []
    lo, hi = (1, len(value) - 1) if is_quoted(value) else (0, len(value))
    kept: list[int] = []
    in_quote = False
    escaping = False
    for i in range(lo, hi):
        c = value[i]
        if escaping:
            kept.append(i)
            escaping = False
        elif c == _ESC:
            escaping = True
            if in_quote:
                kept.append(i)
        else:
            if c == _QUOTE:
                in_quote = not in_quote
            kept.append(i)
    return kept


def escape(text: str) -> str:
    """Put a backslash before every backslash and single quote (TVM's ``Uninterpret``)."""
    if _QUOTE not in text and _ESC not in text:
        return text
    return text.replace(_ESC, _ESC + _ESC).replace(_QUOTE, _ESC + _QUOTE)


def encode_scalar(text: str) -> str:
    """A raw value that interprets back to ``text`` and forms one word.

    As TVM's printer: escape, then quote when there is a space; unlike it, an empty text is
    written ``''`` so that it survives.
    """
    raw = escape(text)
    if not raw or " " in raw:
        return f"'{raw}'"
    return raw


def encode_item(text: str) -> str:
    """A raw array item that interprets back to ``text`` and has no unprotected comma."""
    raw = escape(text)
    if not raw or " " in raw or "," in raw:
        return f"'{raw}'"
    return raw


_INT = re.compile(r"[ \t\n\v\f\r]*([+-]?[0-9]+)")
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1  # TVM v0.21+ holds integers as int64_t


def stream_int(digits: str, low: int, high: int) -> int | None:
    """The value of ``digits`` (a sign, then decimal digits), or ``None`` outside ``low..high``,
    where a C++ stream fails on overflow."""
    # Past 20 digits no 64-bit value is left, and past 4300 Python's int() refuses the text.
    if len(digits.lstrip("+-").lstrip("0")) > 20:
        return None
    value = int(digits)
    return value if low <= value <= high else None


def parse_int(text: str, bits: int = 64) -> int | None:
    """C++ ``istream >> int64_t`` (or ``int``, ``bits`` 32), then ``true``/``false`` in any case
    (TVM's integer parse).

    Leading whitespace is skipped and reading stops at the first non-digit (``4abc`` is 4);
    at least one digit and no overflow are needed. ``None`` when nothing parses.
    """
    m = _INT.match(text)
    if m is not None:
        value = stream_int(m.group(1), -(2 ** (bits - 1)), 2 ** (bits - 1) - 1)
        if value is not None:
            return value
    lowered = text.lower()
    if lowered == "true":
        return 1
    if lowered == "false":
        return 0
    return None
