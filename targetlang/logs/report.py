"""Small helpers the text reports share: counts in order, plurals, aligned tables, and digests of
problems that a log repeats record after record."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass, field

__all__ = ["Digest", "by_count", "counts", "plural", "table"]


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


@dataclass
class _Entry:
    head: str  # the first record's report, first line
    excerpt: str  # the lines under it (the spec and a caret), or ""
    count: int = 0
    lines: list[int] = field(default_factory=list)  # the first few line numbers
    specs: set[str] = field(default_factory=set)  # the first few distinct specs


class Digest:
    """The reports of one file, each distinct one once: the first record's, with how many records
    it concerns, their first line numbers and how many distinct targets.

    A log repeats its targets, and a problem of one target is the problem of every record that
    holds it (1,164 records of one TopHub file): it is reported once, not 1,164 times. Memory is
    bounded: past ``limit`` distinct reports, those held are given out and counting starts again.
    """

    LINES = 5  # line numbers shown
    SPECS = 100  # distinct specs counted exactly; more are "100+"

    def __init__(self, limit: int = 10_000) -> None:
        self.limit = limit
        self._entries: dict[Hashable, _Entry] = {}
        self._full: list[str] = []

    def add(self, key: Hashable, line: int, spec: str | None, report: str) -> None:
        """Count one record's ``report`` (its first line a ``FILE:LINE: ...`` head) under ``key``."""
        entry = self._entries.get(key)
        if entry is None:
            if len(self._entries) >= self.limit:
                self._full.extend(self.drain())
            head, _, excerpt = report.partition("\n")
            entry = self._entries[key] = _Entry(head, excerpt)
        entry.count += 1
        if len(entry.lines) < self.LINES:
            entry.lines.append(line)
        if spec is not None and len(entry.specs) <= self.SPECS:
            entry.specs.add(spec)

    def again(self, key: Hashable, line: int, spec: str | None) -> bool:
        """Count one more record under ``key`` when a report of it is held, as :meth:`add` does;
        ``False`` (nothing counted) when none is: then :meth:`add` it, with its report."""
        entry = self._entries.get(key)
        if entry is None:
            return False
        entry.count += 1
        if len(entry.lines) < self.LINES:
            entry.lines.append(line)
        if spec is not None and len(entry.specs) <= self.SPECS:
            entry.specs.add(spec)
        return True

    def merge(self, other: Digest) -> bool:
        """Count in ``other``'s reports (of the records that come after this one's), exactly as
        adding them here one by one would have. ``False``, and nothing counted, when that cannot
        be told from ``other``: it gave out reports, or adding its reports here would have
        reached :attr:`limit` midway (then add its records one by one)."""
        if other._full:
            return False
        new = sum(1 for key in other._entries if key not in self._entries)
        if len(self._entries) + new > self.limit:
            return False
        for key, theirs in other._entries.items():
            mine = self._entries.get(key)
            if mine is None:
                self._entries[key] = _Entry(theirs.head, theirs.excerpt, theirs.count, [*theirs.lines], {*theirs.specs})
                continue
            mine.count += theirs.count
            mine.lines.extend(theirs.lines[: self.LINES - len(mine.lines)])
            # add() stops adding at SPECS + 1 specs: the set's size is all that is shown, and
            # it is the same whichever of ``theirs`` come in first.
            for spec in theirs.specs:
                if len(mine.specs) > self.SPECS:
                    break
                mine.specs.add(spec)
        return True

    def drain(self) -> Iterator[str]:
        """The reports held, in the order they first came, each with its counts; then none."""
        held, self._full = self._full, []
        yield from held
        entries, self._entries = self._entries, {}
        for entry in entries.values():
            head = entry.head
            if entry.count > 1:
                specs = len(entry.specs)
                targets = f"{self.SPECS}+" if specs > self.SPECS else str(specs)
                targets = f", {targets} distinct target{'' if specs == 1 else 's'}" if specs else ""
                more = ", ..." if entry.count > len(entry.lines) else ""
                lines = ", ".join(map(str, entry.lines))
                head += f" [{entry.count} records{targets}: lines {lines}{more}]"
            yield head + ("\n" + entry.excerpt if entry.excerpt else "")
