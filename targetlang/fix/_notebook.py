"""Jupyter notebooks for ``targetlang fix``: the Python of the code cells fixed, every other byte kept.

The notebook is read with the standard :mod:`json` module, not nbformat: nbformat hands over the
cells but writes a notebook its own way (keys sorted, one space of indentation, non-ASCII
unescaped), so a notebook saved by Colab, VS Code or an older Jupyter would change in every line.
Here ``json`` checks the file and finds where each value lies (``JSONDecoder.raw_decode``); only
the ``source`` values of the cells that change are written again, and in them only the characters
that change, each new one escaped as the file escapes (``\\uXXXX`` where the file has no raw
non-ASCII character but escapes one). Which characters are kept is found line by line first (with
the diff of lines ``fix`` prints, linear in the cell) and character by character only within the
lines that change: a cell of thousands of lines changes in a few.

Cells are numbered as ruff numbers them, ``cell N`` counting every cell of the notebook
(Markdown and raw ones too) from 1. IPython syntax (``%timeit``, ``!pip install``, ``obj?``,
``x = !ls``) is masked while the cell is fixed and put back byte for byte; a cell run by another
language's cell magic (``%%bash``) is left alone.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from difflib import SequenceMatcher
from typing import Any

from ..errors import SourceSyntaxError, TargetError
from ._diff import line_starts, lines, opcodes
from ._findings import Finding
from ._ipython import mask, unmask

__all__ = ["fix_notebook"]

_DECODER = json.JSONDecoder()
_SPACE = re.compile(r"[ \t\n\r]*")
_SIMPLE = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_PIECE = re.compile(r"\\u([0-9a-fA-F]{4})|\\(.)|[^\\]", re.DOTALL)
_PYTHONS = frozenset({"python", "python2", "python3", "ipython", "ipython2", "ipython3"})
# Characters of a changed run of lines (old and new each) up to which difflib matches them one by
# one; its time grows with their product. Past it only their common start and end are kept.
_CHARS = 1000


@dataclass(frozen=True)
class _Text:
    """A JSON string (or list of strings) decoded: its characters, the JSON text that wrote each,
    and where a string of a list ends and the next begins."""

    chars: str
    raws: tuple[str, ...]
    # Offsets into chars, ascending; an empty string of the list repeats one, or lies at 0 or the end.
    bounds: tuple[int, ...]


@dataclass(frozen=True)
class _Source:
    """Where a cell's ``source`` lies in the notebook and how it is written."""

    start: int
    end: int
    text: _Text
    separators: tuple[str, ...] | None  # None: one string; else the list's whitespace, [, between items, ]


def fix_notebook(
    text: str,
    fix_cell: Callable[[str], tuple[str, list[Finding]]],
    *,
    path: str = "<string>",
    errors: list[str] | None = None,
) -> tuple[str, list[Finding]]:
    """``text`` (a notebook's JSON) with each Python code cell's ``source`` replaced by what
    ``fix_cell`` makes of it, and the findings, each with its ``cell`` (ruff's number) and its
    line and column in that cell.

    Only the ``source`` values of the cells that change are rewritten, as a string or a list of
    lines as they were; every other byte stays. A cell that does not parse is left alone, with an
    error line (``path:cell N:line: ...``) appended to ``errors``. Raises
    :class:`~targetlang.SourceSyntaxError` for text that is not JSON or not an nbformat 4
    notebook.
    """
    book = _load(text, path)
    if not _is_python(book.get("metadata")):
        return text, []
    ascii_only = _escapes_non_ascii(text)
    findings: list[Finding] = []
    pieces: list[str] = []
    done = 0
    for number, (cell, source) in enumerate(_cells(text, book, path), 1):
        if cell.get("cell_type") != "code" or source is None:
            continue
        masked = mask(source.text.chars)
        if masked is None:
            continue
        code, originals = masked
        try:
            fixed, found = fix_cell(code)
        except TargetError as err:
            if errors is not None:
                message = err.message.removeprefix(f"{path}: ")
                errors.append(f"{path}:cell {number}:{err.line}: {message}; cell left alone")
            continue
        restored = unmask(fixed, originals)
        if restored is None:
            if errors is not None:
                errors.append(f"{path}:cell {number}: its IPython lines moved in the fix; cell left alone")
            continue
        findings += [replace(finding, cell=number) for finding in found]
        if restored == source.text.chars:
            continue
        pieces += [text[done : source.start], _written(source, restored, ascii_only)]
        done = source.end
    if not pieces:
        return text, findings
    return "".join(pieces) + text[done:], findings


def _load(text: str, path: str) -> dict[str, Any]:
    try:
        book = json.loads(text)
    except json.JSONDecodeError as err:
        raise SourceSyntaxError(f"{path}: not a Jupyter notebook: invalid JSON: {err.msg}", text, err.pos) from None
    except RecursionError:
        raise SourceSyntaxError(f"{path}: not a Jupyter notebook: JSON nested too deeply", text, 0) from None
    start = _SPACE.match(text).end()  # type: ignore[union-attr]
    if not isinstance(book, dict):
        raise SourceSyntaxError(f"{path}: not a Jupyter notebook: the JSON is no object", text, start)
    version = book.get("nbformat")
    if version != 4 or isinstance(version, bool):
        said = "has none" if version is None else f"is {json.dumps(version)}"
        raise SourceSyntaxError(
            f"{path}: not an nbformat 4 notebook: its 'nbformat' {said} (jupyter nbconvert --to notebook upgrades it)",
            text,
            start,
        )
    cells = book.get("cells")
    if not isinstance(cells, list) or not all(isinstance(cell, dict) for cell in cells):
        raise SourceSyntaxError(f"{path}: not an nbformat 4 notebook: 'cells' is no list of objects", text, start)
    return book


def _is_python(metadata: object) -> bool:
    """The notebook's language, by its kernel, is Python or unsaid."""
    if not isinstance(metadata, dict):
        return True
    for section, key in (("language_info", "name"), ("kernelspec", "language")):
        value = metadata.get(section, {}).get(key) if isinstance(metadata.get(section), dict) else None
        if isinstance(value, str) and value.strip():
            return value.strip().lower() in _PYTHONS
    return True


def _escapes_non_ascii(text: str) -> bool:
    """The file writes non-ASCII characters as ``\\uXXXX`` (``json.dump``'s ``ensure_ascii``):
    it escapes one and holds none raw. A file of ASCII alone is taken as nbformat writes."""
    if not text.isascii():
        return False
    return any(int(code, 16) >= 0x80 for code in re.findall(r"(?<!\\)(?:\\\\)*\\u([0-9a-fA-F]{4})", text))


# ------------------------------------------------------------------ where the values lie


def _cells(text: str, book: dict[str, Any], path: str) -> Iterator[tuple[dict[str, Any], _Source | None]]:
    """Each cell, with where its ``source`` lies (the last ``source`` key, as ``json`` reads it)."""
    cells_at = None
    for key, start, _ in _members(text, _SPACE.match(text).end()):  # type: ignore[union-attr]
        if key == "cells":
            cells_at = start
    assert cells_at is not None  # _load saw it
    for cell, (start, _) in zip(book["cells"], _elements(text, cells_at), strict=True):
        source = None
        for key, value_start, value_end in _members(text, start):
            if key == "source":
                source = (value_start, value_end)
        if source is None:
            yield cell, None
            continue
        found = _source(text, *source)
        if found is None or found.text.chars != _joined(cell.get("source")):
            raise SourceSyntaxError(
                f"{path}: not an nbformat 4 notebook: a cell's 'source' is no string or list of strings",
                text,
                source[0],
            )
        yield cell, found


def _joined(source: object) -> str | None:
    if isinstance(source, str):
        return source
    if isinstance(source, list) and all(isinstance(line, str) for line in source):
        return "".join(source)
    return None


def _members(text: str, at: int) -> Iterator[tuple[str, int, int]]:
    """Key, start and end of each value of the JSON object at ``text[at]`` (text ``json`` read)."""
    i = _space(text, at + 1)
    if text[i] == "}":
        return
    while True:
        key, i = _DECODER.raw_decode(text, i)
        i = _space(text, _space(text, i) + 1)  # past ':'
        _, end = _DECODER.raw_decode(text, i)
        yield key, i, end
        i = _space(text, end)
        if text[i] == "}":
            return
        i = _space(text, i + 1)  # past ','


def _elements(text: str, at: int) -> Iterator[tuple[int, int]]:
    """Start and end of each value of the JSON array at ``text[at]``."""
    i = _space(text, at + 1)
    if text[i] == "]":
        return
    while True:
        _, end = _DECODER.raw_decode(text, i)
        yield i, end
        i = _space(text, end)
        if text[i] == "]":
            return
        i = _space(text, i + 1)


def _space(text: str, at: int) -> int:
    return _SPACE.match(text, at).end()  # type: ignore[union-attr]


def _source(text: str, start: int, end: int) -> _Source | None:
    if text[start] == '"':
        return _Source(start, end, _decoded([text[start:end]]), None)
    if text[start] != "[":
        return None
    items = list(_elements(text, start))
    if any(text[s] != '"' for s, _ in items):
        return None
    bounds = [start + 1, *(i for item in items for i in item), end - 1]
    separators = tuple(text[bounds[k] : bounds[k + 1]] for k in range(0, len(bounds), 2))
    return _Source(start, end, _decoded([text[s:e] for s, e in items]), separators)


def _decoded(strings: list[str]) -> _Text:
    """The characters of JSON string literals, each with the JSON text that wrote it."""
    chars: list[str] = []
    raws: list[str] = []
    bounds: list[int] = []
    for number, literal in enumerate(strings):
        if number:
            bounds.append(len(chars))
        high = False  # the last was a high surrogate's escape: json joins it with a low one's
        for match in _PIECE.finditer(literal, 1, len(literal) - 1):
            code, simple = match.group(1), match.group(2)
            char = chr(int(code, 16)) if code else _SIMPLE[simple] if simple else match.group(0)
            if high and code and "\udc00" <= char <= "\udfff":
                chars[-1] = chr(0x10000 + ((ord(chars[-1]) - 0xD800) << 10) + (ord(char) - 0xDC00))
                raws[-1] += match.group(0)
                high = False
                continue
            high = bool(code) and "\ud800" <= char <= "\udbff"
            chars.append(char)
            raws.append(match.group(0))
    return _Text("".join(chars), tuple(raws), tuple(bounds))


# ------------------------------------------------------------------ writing a source back


def _written(source: _Source, new: str, ascii_only: bool) -> str:
    """The JSON text of ``new`` in ``source``'s place: the characters kept as they were written,
    the new ones escaped as the file escapes; a list split into lines as nbformat splits it, and
    its strings that ended where a kept character ends (an empty one too) ending there still."""
    raws, bounds = _carried(source.text, new, ascii_only)
    if source.separators is None:
        return '"' + "".join(raws) + '"'
    cuts = Counter(bounds)
    for i, char in enumerate(new[:-1]):
        if char == "\n" and not cuts[i + 1]:
            cuts[i + 1] = 1
    if not new and not cuts:
        return "[]"
    items: list[str] = []
    begin = 0
    for at in sorted(cuts):
        for _ in range(cuts[at]):
            items.append("".join(raws[begin:at]))
            begin = at
    items.append("".join(raws[begin:]))
    opening, *between, closing = source.separators
    if not between:  # one line before: the lines stand as the first stood
        between = ["," + opening]
    written = [opening + '"' + items[0] + '"']
    for k, item in enumerate(items[1:]):
        written.append(between[min(k, len(between) - 1)] + '"' + item + '"')
    return "[" + "".join(written) + closing + "]"


def _carried(old: _Text, new: str, ascii_only: bool) -> tuple[list[str], list[int]]:
    """For each character of ``new``: the JSON text that writes it (the old one where the
    character is kept); and where in ``new`` the old list's strings end that ended after a kept
    character (or at the very start or end)."""
    blocks = list(_kept(old.chars, new))
    raws: list[str] = []
    at = 0
    for a, b, size in blocks:
        raws += [_escaped(char, ascii_only) for char in new[at:b]]
        raws += old.raws[a : a + size]
        at = b + size
    raws += [_escaped(char, ascii_only) for char in new[at:]]
    starts = [a for a, _, _ in blocks]
    bounds: list[int] = []
    for k in old.bounds:
        if k == 0:
            bounds.append(0)
        elif k == len(old.chars):
            bounds.append(len(new))
        else:
            index = bisect_left(starts, k) - 1  # the last block starting before k
            if index >= 0 and k <= starts[index] + blocks[index][2]:
                bounds.append(k - starts[index] + blocks[index][1])
    return raws, bounds


def _kept(old: str, new: str) -> Iterator[tuple[int, int, int]]:
    """The blocks of characters ``new`` keeps from ``old``, ascending (old offset, new offset,
    length): the lines the two share, then the characters the changed runs of lines share."""
    old_lines, new_lines = lines(old), lines(new)
    old_at, new_at = line_starts(old_lines), line_starts(new_lines)
    for tag, i1, i2, j1, j2 in opcodes(old_lines, new_lines):
        a1, a2, b1, b2 = old_at[i1], old_at[i2], new_at[j1], new_at[j2]
        if tag == "equal":
            yield a1, b1, a2 - a1
            continue
        head = 0
        while head < min(a2 - a1, b2 - b1) and old[a1 + head] == new[b1 + head]:
            head += 1
        tail = 0
        while tail < min(a2 - a1, b2 - b1) - head and old[a2 - 1 - tail] == new[b2 - 1 - tail]:
            tail += 1
        if head:
            yield a1, b1, head
        a1, b1, a2, b2 = a1 + head, b1 + head, a2 - tail, b2 - tail
        if 0 < a2 - a1 <= _CHARS and 0 < b2 - b1 <= _CHARS:
            matcher = SequenceMatcher(None, old[a1:a2], new[b1:b2], autojunk=False)
            yield from ((a1 + a, b1 + b, size) for a, b, size in matcher.get_matching_blocks() if size)
        if tail:
            yield a2, b2, tail


def _escaped(char: str, ascii_only: bool) -> str:
    surrogate = "\ud800" <= char <= "\udfff"  # no UTF-8 for it: escaped whatever the file does
    return json.dumps(char, ensure_ascii=ascii_only or surrogate)[1:-1]
