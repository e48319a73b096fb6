"""Where a decoded JSON value's text stands in its line, exactly.

Decoding a line with ``json.loads`` runs at C speed but forgets positions. The writer's text is
recovered instead: a tuner wrote each line with one JSON dumper, so the text before the value (or
after it) is the same dumper's output for the members before it (or after it). When that
reconstructed text is found at the start (or the end) of the line, followed (or preceded) by the
value's own serialization, the position is proven, not guessed. When a writer did something
``json.dumps`` does not reproduce (a C++ float printer, hand editing), a unique occurrence of the
value's serialization is accepted; failing that, a small string-aware scanner walks the line.

No tuner's dumper gives a key twice in an object, but a hand-made line may: ``json.loads`` keeps
the last value, and a rebuilt prefix, or a reading of the text that stops at the first key, would
point at the first. :func:`walk` reads on to the end of each object on the way to the value, and
a key given again there sends the line to the scanner, which takes the last.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from json import scanner
from typing import Any

from .formats import Path

__all__ = ["STYLES", "Style", "locate", "scan", "walk"]

Style = tuple[str, str, bool]
"""How a dumper wrote JSON: item separator, key separator, and whether it escaped non-ASCII."""

PYTHON: Style = (", ", ": ", True)  # Python's json.dumps defaults: AutoTVM's and auto_scheduler's logs
COMPACT: Style = (",", ":", False)  # TVM's C++ dumper (meta-schedule since v0.9)
STYLES: tuple[Style, ...] = (PYTHON, COMPACT, (", ", ": ", False), (",", ":", True))


_ENCODERS = {style: json.JSONEncoder(separators=(style[0], style[1]), ensure_ascii=style[2]).encode for style in STYLES}


_BLANK = " \t\r\n"  # JSON's whitespace


def _dumps(value: Any, style: Style) -> str:
    # One encoder per style: json.dumps with separators builds a new encoder on every call.
    return _ENCODERS[style](value)


def _prefix(root: Any, path: Path, style: Style) -> str:
    """The text a dumper in ``style`` writes before the value at ``path``."""
    item, colon = style[0], style[1]
    parts = []
    node = root
    for step in path:
        if isinstance(node, dict):
            before = []
            for key, value in node.items():
                if key == step:
                    break
                before.append(_dumps(key, style) + colon + _dumps(value, style))
            parts.append("{" + "".join(b + item for b in before) + _dumps(step, style) + colon)
        else:
            assert isinstance(step, int)
            parts.append("[" + "".join(_dumps(v, style) + item for v in node[:step]))
        node = node[step]
    return "".join(parts)


def _suffix(root: Any, path: Path, style: Style) -> str:
    """The text a dumper in ``style`` writes after the value at ``path``."""
    item, colon = style[0], style[1]
    parts = []
    node = root
    for step in path:
        if isinstance(node, dict):
            keys = list(node)
            after = keys[keys.index(step) + 1 :]
            parts.append("".join(item + _dumps(k, style) + colon + _dumps(node[k], style) for k in after) + "}")
        else:
            assert isinstance(step, int)
            parts.append("".join(item + _dumps(v, style) for v in node[step + 1 :]) + "]")
        node = node[step]
    return "".join(reversed(parts))


_SCAN_ONCE: Any = scanner.make_scanner(json.JSONDecoder())  # type: ignore[arg-type]  # typeshed types it oddly


def _skip(line: str, i: int) -> int:
    """The index of the first character at or after ``i`` that is not JSON whitespace."""
    while line[i] in _BLANK:
        i += 1
    return i


REPEATED = (-1, -1)
"""What :func:`walk` gives when an object on the way to the value gives its key twice."""


def walk(line: str, path: Path, start: int = 0) -> tuple[int, int] | None:
    """``(start, end)`` of the value at ``path`` in the JSON text ``line``, found by reading the
    text itself: keys are read and the values besides the one wanted are skipped by the C scanner
    of ``json``. ``None`` when the text does not have that shape (then :func:`locate`'s other ways
    apply); :data:`REPEATED` when an object on the way gives the key twice (the value is the last
    one's, which :func:`scan` finds).
    """
    scan_once = _SCAN_ONCE
    try:
        i = _skip(line, start)
        for step in path:
            if isinstance(step, str):
                found = None
                for key, at in _members(line, i):
                    if key == step:
                        if found is not None:
                            return REPEATED
                        found = at
                if found is None:
                    return None
                i = found
            else:
                if line[i] != "[":
                    return None
                i = _skip(line, i + 1)
                for _ in range(step):
                    i = _skip(line, scan_once(line, i)[1])
                    if line[i] != ",":
                        return None
                    i = _skip(line, i + 1)
        return (i, scan_once(line, i)[1])
    except (StopIteration, IndexError, _NotThisShape):
        return None


class _NotThisShape(Exception):
    pass


def _members(line: str, i: int) -> Iterator[tuple[str, int]]:
    """``(key, start of its value)`` of each member of the object at ``i``, to its end (every
    member is read: a key may be given again after the one looked for)."""
    scan_once = _SCAN_ONCE
    if line[i] != "{":
        raise _NotThisShape
    i = _skip(line, i + 1)
    while True:
        if line[i] != '"':
            raise _NotThisShape
        key, i = scan_once(line, i)
        i = _skip(line, i)
        if line[i] != ":":
            raise _NotThisShape
        i = _skip(line, i + 1)
        yield key, i
        i = _skip(line, scan_once(line, i)[1])
        if line[i] == "}":
            return
        if line[i] != ",":
            raise _NotThisShape
        i = _skip(line, i + 1)


def locate(line: str, root: Any, path: Path, styles: tuple[Style, ...], from_end: bool = False) -> tuple[int, int]:
    """``(start, end)`` of the text of the value at ``path`` in ``line``, the JSON text ``root`` was
    decoded from (leading and trailing whitespace allowed). ``styles`` are tried in order;
    ``from_end`` when the value sits near the end of the line, so the shorter reconstruction is
    tried first. Raises ``LookupError`` if the value cannot be found (the line is not ``root``'s).
    """
    value = root
    for step in path:
        value = value[step]
    lead = len(line) - len(line.lstrip(_BLANK))
    body_end = len(line.rstrip(_BLANK))
    if from_end:  # the text after the last member, rebuilt: it is the last one's, if given twice
        for style in styles:
            text = _dumps(value, style)
            suffix = _suffix(root, path, style)
            start = body_end - len(suffix) - len(text)
            if line.endswith(suffix, 0, body_end) and line.startswith(text, start) and start >= lead:
                return (start, start + len(text))
    found = walk(line, path)
    if found is REPEATED:
        return _scanned(line, path)
    if found is not None:
        return found
    for style in styles:
        text = _dumps(value, style)
        prefix = _prefix(root, path, style)
        start = lead + len(prefix)
        if line.startswith(prefix, lead) and line.startswith(text, start):
            return (start, start + len(text))
    for style in styles:
        text = _dumps(value, style)
        start = line.find(text)
        # One occurrence, which is a whole token: a string's opening quote is never escaped, an
        # object's brace never follows a letter. Anything less clear-cut goes to the scanner.
        if start >= 0 and line.find(text, start + 1) < 0 and _token_boundary(line, start):
            return (start, start + len(text))
    return _scanned(line, path)


def _scanned(line: str, path: Path) -> tuple[int, int]:
    span = scan(line, path)
    if span is None:
        raise LookupError(f"no value at {list(path)} in this line")
    return span


def _token_boundary(line: str, start: int) -> bool:
    before = line[:start].rstrip(_BLANK)
    return not before or before[-1] in "[{,:"


# Strings (escapes included), punctuation, and runs of anything else (numbers, literals).
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{},:]|[^\s\[\]{},:"]+', re.DOTALL)


def scan(line: str, path: Path) -> tuple[int, int] | None:
    """``(start, end)`` of the value at ``path`` in the JSON text ``line``, by walking its tokens
    (the regular expression skips whole strings at C speed); ``None`` if there is none.

    A key given twice in an object counts with its last value, as ``json.loads`` decodes it.
    """
    # Each open container: [is_object, current key or index, a key comes next].
    stack: list[list[Any]] = []
    depth = len(path)
    start = -1
    found = None
    for match in _TOKEN.finditer(line):
        token = match.group()
        first = token[0]
        if first == ",":
            if stack:
                top = stack[-1]
                if top[0]:
                    top[2] = True
                else:
                    top[1] += 1
            continue
        if first == ":":
            continue
        if first in "]}":
            stack.pop()
            if start >= 0 and len(stack) == depth:
                found, start = (start, match.end()), -1
            continue
        if stack and stack[-1][0] and stack[-1][2]:
            stack[-1][1] = json.loads(token) if first == '"' else token
            stack[-1][2] = False
            continue
        here = len(stack) == depth and all(frame[1] == step for frame, step in zip(stack, path, strict=True))
        if first in "[{":
            if here:
                start = match.start()
            stack.append([first == "{", 0 if first == "[" else None, first == "{"])
        elif here:
            found = (match.start(), match.end())
    return found
