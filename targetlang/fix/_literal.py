"""Python source for a target config: the dict literal ``targetlang fix`` writes.

Values come from the migrated JSON (str, int, float, bool, list, dict). A string may hold
placeholders that stand for Python expressions of the original code (a non-literal argument of
a helper, the ``{cpu}`` of an f-string): a string that is exactly one placeholder is written as
that expression, one that holds them among text as an f-string.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["PLACEHOLDER", "Code", "placeholder", "render", "string_body"]

# Private-use characters: no real target text holds them, and TVM's reader keeps them as text.
PLACEHOLDER = re.compile("\ue000([0-9]+)\ue001")


class Code(str):
    """A value written as this Python code, as it is (``int(n)``, ``mattr.split(",")``)."""

    __slots__ = ()


def placeholder(index: int) -> str:
    """The text that stands for expression ``index`` while a target is read."""
    return f"\ue000{index}\ue001"


_ESCAPES = {"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


# What a string's body must escape, besides its quote and (in an f-string) its braces.
_ESCAPED = re.compile(r"[\\\x00-\x1f\x7f\ud800-\udfff]")


def string_body(text: str, quote: str, braces: bool = False) -> str:
    """``text`` as the body of a string literal in ``quote`` (with ``braces``: of an f-string)."""
    if quote not in text and not _ESCAPED.search(text) and not (braces and ("{" in text or "}" in text)):
        return text  # (most target text: nothing to escape)
    out = []
    for char in text:
        if char in _ESCAPES:
            out.append(_ESCAPES[char])
        elif char == quote:
            out.append("\\" + quote)
        elif braces and char in "{}":
            out.append(char * 2)
        elif ord(char) < 0x20 or ord(char) == 0x7F or 0xD800 <= ord(char) <= 0xDFFF:
            out.append(f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return "".join(out)


def _text(value: str, quote: str, exprs: Sequence[str]) -> str | None:
    parts = PLACEHOLDER.split(value)
    if len(parts) == 1:
        return quote + string_body(value, quote) + quote
    if parts[0] == "" and parts[2] == "" and len(parts) == 3:
        return exprs[int(parts[1])]
    body = []
    for i, part in enumerate(parts):
        if i % 2 == 0:
            body.append(string_body(part, quote, braces=True))
            continue
        expr = exprs[int(part)]
        if quote in expr or "\\" in expr or "{" in expr or "\n" in expr:
            return None  # not writable inside an f-string before Python 3.12
        body.append("{" + expr + "}")
    return "f" + quote + "".join(body) + quote


def render(value: Any, quote: str = '"', exprs: Sequence[str] = ()) -> str | None:
    """``value`` as a Python expression on one line, strings in ``quote``; ``None`` when a
    placeholder cannot be written (an expression that an f-string cannot hold)."""
    if isinstance(value, Code):
        return str(value)
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return _text(value, quote, exprs)
    if isinstance(value, Mapping):
        items = []
        for key, item in value.items():
            key_text, item_text = _text(str(key), quote, exprs), render(item, quote, exprs)
            if key_text is None or item_text is None:
                return None
            items.append(f"{key_text}: {item_text}")
        return "{" + ", ".join(items) + "}"
    if isinstance(value, (list, tuple)):
        texts = [render(item, quote, exprs) for item in value]
        if any(text is None for text in texts):
            return None
        return "[" + ", ".join(t for t in texts if t is not None) + "]"
    raise TypeError(f"cannot write {type(value).__name__} as a target value")
