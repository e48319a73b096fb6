"""The code blocks in the comments of a Python file: sphinx-gallery tutorials (TVM's own) write
their prose as reStructuredText in runs of ``#`` lines, with ``.. code-block:: python`` examples
in it. Each run of comment lines that holds a block marker is read as a document (its ``# ``
prefixes taken off), its Python blocks given to the Python fixer as a document's are, and the
fix written back under the same prefixes."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from ._block_fixing import FixBlock, fix_document, moved
from ._diff import opcodes
from ._document_blocks import line_spans
from ._findings import Finding
from ._text_place import Lines

__all__ = ["fix_comments"]

_MARKERS = ("code-block", "::", "```")  # (not ~~~: in reStructuredText, a title's underline)
_COMMENT = re.compile(r"[ \t]*# ?")


@dataclass(frozen=True)
class _Run:
    """Consecutive comment-only lines, ``text[start:end]``: each line's prefix and the first line
    (from 1)."""

    start: int
    end: int
    prefixes: tuple[str, ...]
    first_line: int


def _runs(text: str) -> Iterator[_Run]:
    start: int | None = None
    prefixes: list[str] = []
    first = end = 0
    for number, (begin, stop) in enumerate(line_spans(text), 1):
        line = text[begin:stop].rstrip("\r\n")
        prefix = _COMMENT.match(line)
        if prefix is not None:
            if start is None:
                start, first, prefixes = begin, number, []
            prefixes.append(prefix[0])
            end = stop
            continue
        if start is not None:
            yield _Run(start, end, tuple(prefixes), first)
            start = None
    if start is not None:
        yield _Run(start, end, tuple(prefixes), first)


def fix_comments(source: str, fixed: str, fix_block: FixBlock) -> tuple[str, list[Finding]]:
    """The code blocks in the comments of the Python ``source``: their findings (at the file's
    lines and columns), and ``fixed`` (the source as the Python fixer left it, its comments as they
    were) with their fixes."""
    if not any(marker in source for marker in _MARKERS):
        return fixed, []
    findings: list[Finding] = []
    cursor = 0
    for run in _runs(source):
        raw = source[run.start : run.end].split("\n")
        inner = "\n".join(row[len(prefix) :] for row, prefix in zip(raw, run.prefixes, strict=False))
        if len(raw) > len(run.prefixes):  # the run's last line ended in \n: an empty row after it
            inner += "\n" * (len(raw) - len(run.prefixes))
        if not any(marker in inner for marker in _MARKERS):
            continue
        first = run.first_line
        document = fix_document(inner, "```" in inner, fix_block, Lines(inner), first - 1)
        prefixes = run.prefixes

        def where(line: int, column: int, prefixes: tuple[str, ...] = prefixes, first: int = first) -> tuple[int, int]:
            return line, column + len(prefixes[max(0, min(line - first, len(prefixes) - 1))])

        findings += [moved(finding, where) for finding in document.findings]
        if document.text == inner:
            continue
        written = _prefixed(inner, document.text, prefixes)
        at = fixed.find(source[run.start : run.end], cursor)
        if at < 0:
            continue  # (the Python fixer changed the comment: it keeps every one, so never)
        fixed = fixed[:at] + written + fixed[at + run.end - run.start :]
        cursor = at + len(written)
    return fixed, findings


def _prefixed(inner: str, changed: str, prefixes: tuple[str, ...]) -> str:
    """``changed`` (``inner`` with fixes) under the prefixes of ``inner``'s lines: a line kept
    keeps its own, a new line takes the most common one (and a blank line that prefix less its
    trailing space)."""
    old = inner.split("\n")
    new = changed.split("\n")
    common = Counter(prefix for prefix in prefixes if prefix.endswith(" ")).most_common(1)
    usual = common[0][0] if common else (prefixes[0] if prefixes else "# ")
    out: list[str] = []
    for tag, i1, i2, j1, j2 in opcodes(old, new):  # linear past a few thousand lines
        if tag == "equal":
            out += [(prefixes[i] if i < len(prefixes) else "") + old[i] for i in range(i1, i2)]
            continue
        for j in range(j1, j2):
            i = i1 + (j - j1)
            prefix = prefixes[i] if i < min(i2, len(prefixes)) else usual
            out.append(prefix + new[j] if new[j] else prefix.rstrip(" \t"))
    return "\n".join(out)
