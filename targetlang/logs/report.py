"""Small helpers the text reports share: counts in order, plurals, aligned tables."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

__all__ = ["by_count", "counts", "plural", "table"]


def by_count(counter: Counter[str]) -> list[tuple[str, int]]:
    """``counter``'s items, most frequent first, then by name (a stable order for reports and tests)."""
    return sorted(counter.items(), key=lambda item: (-item[1], item[0]))


def counts(counter: Counter[str], name_first: bool = False) -> str:
    """``"3 a, 1 b"`` (or ``"a 3, b 1"``): a counter in :func:`by_count` order."""
    return ", ".join(f"{name} {n}" if name_first else f"{n} {name}" for name, n in by_count(counter))


def plural(n: int, word: str) -> str:
    """``"1 record"``, ``"2 records"``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def table(rows: Sequence[Sequence[str]], right: int = 1) -> list[str]:
    """``rows`` as aligned lines: the first ``right`` columns right-aligned, the last one not padded
    (it holds long target strings, and a line must not end in spaces it does not need)."""
    if not rows:
        return []
    width = len(rows[0])
    widths = [max(len(row[i]) for row in rows) for i in range(width - 1)]
    lines = []
    for row in rows:
        cells = [
            cell.rjust(w) if i < right else cell.ljust(w) for i, (cell, w) in enumerate(zip(row, widths, strict=False))
        ]
        lines.append("  ".join([*cells, row[-1]]))
    return lines
