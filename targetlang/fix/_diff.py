"""The unified diff ``fix`` prints, in time linear in the file.

``difflib.unified_diff`` looks for the longest matching block over the whole of both texts, again
in each part it splits off: on a document of many alike blocks, each changed, that grows with the
square of the file (16,000 Markdown blocks: 27 s of a 37 s run). The changes ``fix`` makes are
local: a run of equal lines, a few lines changed, equal again. So the texts are walked side by
side; past a difference, the two are brought back in step at the nearest place where a few lines
agree, found within a window of lines; and only the few lines between are handed to difflib. The
hunks are grouped as difflib groups them, and printed as ``unified_diff`` prints them. A file of
up to a few thousand lines is diffed by difflib whole, as before: the same diff, byte for byte.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator, Sequence
from typing import Literal

__all__ = ["line_starts", "lines", "opcodes", "python_lines", "unified_diff"]

_Tag = Literal["replace", "delete", "insert", "equal"]
_Opcode = tuple[_Tag, int, int, int, int]

# How far past a difference the texts are searched for the place they agree again (lines of each),
# and how many lines in a row must agree there: a single line (a blank one, a fence) agrees in
# many places.
_WINDOW = 400
_AGREE = 3
_CANDIDATES = 8  # places a line is looked for in the window: a line found more often is no anchor
_WHOLE = 4000  # lines of both texts up to which difflib diffs them whole (0.1 s at most)


def lines(text: str) -> list[str]:
    """``text``'s lines with their endings, split at ``\\n`` only: ``str.splitlines`` splits at a
    form feed, ``\\x1c`` - ``\\x1e``, ``\\x85``, U+2028 and U+2029 too, which no patch tool
    takes for line ends (a form feed's line would be a line without its newline: no patch)."""
    return _LINE.findall(text)


_LINE = re.compile(r"[^\n]*\n|[^\n]+\Z")


def python_lines(text: str) -> list[str]:
    """``text``'s lines with their endings, as Python's tokenizer, ``ast`` and LibCST count them:
    at ``\r\n``, ``\r`` or ``\n``."""
    return _PYTHON_LINE.findall(text)


_PYTHON_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def line_starts(pieces: Sequence[str]) -> list[int]:
    """Where each of ``pieces`` (lines with their endings) starts in their concatenation, and
    where the last ends."""
    starts = [0]
    for piece in pieces:
        starts.append(starts[-1] + len(piece))
    return starts


def unified_diff(a: Sequence[str], b: Sequence[str], fromfile: str, tofile: str, n: int = 3) -> Iterator[str]:
    """The lines of the unified diff of ``a`` and ``b`` (lines with their endings), as
    ``difflib.unified_diff(a, b, fromfile, tofile, n=n)`` writes them."""
    started = False
    for group in _Given(opcodes(a, b)).get_grouped_opcodes(n):
        if not started:
            started = True
            yield f"--- {fromfile}\n"
            yield f"+++ {tofile}\n"
        first, last = group[0], group[-1]
        yield f"@@ -{_range(first[1], last[2])} +{_range(first[3], last[4])} @@\n"
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                for line in a[i1:i2]:
                    yield " " + line
                continue
            if tag in ("replace", "delete"):
                for line in a[i1:i2]:
                    yield "-" + line
            if tag in ("replace", "insert"):
                for line in b[j1:j2]:
                    yield "+" + line


class _Given(difflib.SequenceMatcher[str]):
    """difflib's grouping of opcodes into hunks, over opcodes made here."""

    def __init__(self, opcodes: list[_Opcode]) -> None:
        super().__init__(None, [], [])
        self._given = opcodes

    def get_opcodes(self) -> list[_Opcode]:
        return list(self._given)  # get_grouped_opcodes edits the first and the last


def _range(start: int, stop: int) -> str:
    """A hunk's range as unified diffs write it (difflib's ``_format_range_unified``)."""
    beginning = start + 1
    length = stop - start
    if length == 1:
        return f"{beginning}"
    if not length:
        beginning -= 1
    return f"{beginning},{length}"


def opcodes(a: Sequence[str], b: Sequence[str]) -> list[_Opcode]:
    """Opcodes (as ``SequenceMatcher.get_opcodes``) that turn ``a`` into ``b``: difflib's own for
    texts of up to ``_WHOLE`` lines, where its time does not tell."""
    if len(a) + len(b) <= _WHOLE:
        return difflib.SequenceMatcher(None, a, b).get_opcodes()
    found: list[_Opcode] = []
    i = j = 0
    while True:
        start_i, start_j = i, j
        while i < len(a) and j < len(b) and a[i] == b[j]:
            i += 1
            j += 1
        if i > start_i:
            found.append(("equal", start_i, i, start_j, j))
        if i == len(a) or j == len(b):
            break
        again_i, again_j = _in_step(a, b, i, j)
        found += _refined(a, b, i, again_i, j, again_j)
        i, j = again_i, again_j
    found += _refined(a, b, i, len(a), j, len(b))
    return _merged(found)


def _in_step(a: Sequence[str], b: Sequence[str], i: int, j: int) -> tuple[int, int]:
    """Where past ``a[i] != b[j]`` the texts agree again for ``_AGREE`` lines (or to their ends):
    the nearest such place in ``a``, and there the nearest in ``b``; without one in the window,
    the window's end in both (a replacement of the lines between, still a right diff)."""
    places: dict[str, list[int]] = {}
    for k in range(j, min(len(b), j + _WINDOW)):
        seen = places.setdefault(b[k], [])
        if len(seen) <= _CANDIDATES:
            seen.append(k)
    for k in range(i, min(len(a), i + _WINDOW)):
        where = places.get(a[k])
        if where is None or len(where) > _CANDIDATES:
            continue
        for there in where:
            if _agree(a, b, k, there):
                return k, there
    return min(len(a), i + _WINDOW), min(len(b), j + _WINDOW)


def _agree(a: Sequence[str], b: Sequence[str], i: int, j: int) -> bool:
    for step in range(_AGREE):
        if i + step == len(a) and j + step == len(b):
            return True
        if i + step >= len(a) or j + step >= len(b) or a[i + step] != b[j + step]:
            return False
    return True


def _refined(a: Sequence[str], b: Sequence[str], i1: int, i2: int, j1: int, j2: int) -> list[_Opcode]:
    """difflib's opcodes for the few lines ``a[i1:i2]`` and ``b[j1:j2]``, placed in the whole."""
    if i1 == i2 and j1 == j2:
        return []
    matcher = difflib.SequenceMatcher(None, a[i1:i2], b[j1:j2])
    return [(tag, i1 + p, i1 + q, j1 + r, j1 + s) for tag, p, q, r, s in matcher.get_opcodes()]


def _merged(opcodes: list[_Opcode]) -> list[_Opcode]:
    """Runs of equal lines next to each other made one, as difflib's opcodes are."""
    merged: list[_Opcode] = []
    for code in opcodes:
        if merged and code[0] == "equal" and merged[-1][0] == "equal":
            tag, i1, _, j1, _ = merged[-1]
            merged[-1] = (tag, i1, code[2], j1, code[4])
        else:
            merged.append(code)
    return merged
