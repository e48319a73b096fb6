"""``logs check``: every record's target (and host) reads, prints back byte for byte, and resolves,
and TVM's own loader reads every line.

Checking reports, it does not stop: one :class:`Problem` per failed check of a record, and a
:class:`CheckSummary` per file. A line the loader of the file's tuner raises on (a blank line, an
AutoTVM record without ``config``, see :mod:`._autotvm_loader`) is a problem too: TVM failed to load the
whole log.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ._autotvm_loader import AUTOTVM_LOADER, autotvm_line
from ._loading import FileLoading, LineLoad, is_blank
from .formats import Format
from .records import Record, parse_line, writer_version
from .report import counts, plural
from .targets import CheckFinding, Reading, TargetReader

if TYPE_CHECKING:
    from .migration import LogMigrator

__all__ = ["NEEDS_MIGRATION", "CheckSummary", "Checker", "FileSummary", "Problem", "migration_fixes"]

NEEDS_MIGRATION = "[needs migration: `targetlang logs migrate` fixes it]"

_AUTOTVM = frozenset(fmt for fmt in Format if fmt.is_autotvm)


@dataclass(frozen=True, slots=True)
class Problem:
    """One failed check of one record.

    ``rule`` is ``record`` (the line is no tuning record: not JSON, not UTF-8, no known format;
    or TVM's loader fails on it), ``parse``, ``round-trip``, ``canonical`` or ``resolve``; ``field`` the target
    field at fault (``None`` for ``record``); ``error`` the error's class (or
    ``RoundTripMismatch``, ``UnknownRecord``, ``BlankLine``, ``LoadError``);
    ``span`` where in ``spec`` the error points, when it does.
    """

    file: str
    line: int
    rule: str
    field: str | None
    error: str
    message: str
    detail: str  # the message with the spec and a caret under the fault, for people
    spec: str | None
    span: tuple[int, int] | None
    era: str | None  # the era the spec was read in
    needs_migration: bool = False  # `logs migrate` rewrites the record into one without problems

    @property
    def key(self) -> tuple[str | None, str, str, str, bool]:
        """What makes problems of different records the same problem: field, rule, error, message."""
        return (self.field, self.rule, self.error, self.message, self.needs_migration)

    def human(self, excerpt: bool = True) -> str:
        """``FILE:LINE: FIELD: RULE: ERROR: message``, with the caret excerpt when ``excerpt``."""
        where = f"{self.field}: " if self.field else ""
        text = self.detail if excerpt else self.message
        if self.needs_migration:
            first, newline, rest = text.partition("\n")
            text = f"{first} {NEEDS_MIGRATION}{newline}{rest}"
        return f"{self.file}:{self.line}: {where}{self.rule}: {self.error}: {text}"

    def to_json(self) -> dict[str, Any]:
        """The problem as one JSON object (``"record": "problem"``)."""
        return {
            "record": "problem",
            "file": self.file,
            "line": self.line,
            "rule": self.rule,
            "field": self.field,
            "error": self.error,
            "message": self.message,
            "spec": self.spec,
            "span": list(self.span) if self.span is not None else None,
            "era": self.era,
            "needs_migration": self.needs_migration,
        }


@dataclass
class FileSummary:
    """What a ``logs`` command counted in one file (or in all, for the total): lines, records by
    format, and the records that failed, by problem. (``check`` counts a blank line TVM's loader
    fails on as a record of its own sort, ``blank``, and the other blank lines as comments.)"""

    file: str
    lines: int = 0
    comments: int = 0
    formats: Counter[str] = field(default_factory=Counter)  # records (comments excepted) by format
    failed: int = 0  # records with at least one problem
    problems: Counter[str] = field(default_factory=Counter)  # "RULE: ERROR" -> count

    @property
    def records(self) -> int:
        """Lines that are not comments."""
        return self.lines - self.comments

    def add(self, other: FileSummary) -> None:
        """Count ``other`` in too (for the total over several files)."""
        self.lines += other.lines
        self.comments += other.comments
        self.formats.update(other.formats)
        self.failed += other.failed
        self.problems.update(other.problems)

    def _json(self) -> dict[str, Any]:
        return {
            "record": "summary",
            "file": self.file,
            "lines": self.lines,
            "records": self.records,
            "comments": self.comments,
            "formats": dict(sorted(self.formats.items())),
        }


@dataclass
class CheckSummary(FileSummary):
    """What ``check`` counted in one file (or in all, for the total)."""

    # Distinct specs, targets and hosts alike: a short one as itself, a longer one by a 128-bit
    # digest (which no two real texts share), so that this, the only memory that grows with
    # the distinct specs of a log, is under 120 bytes a spec however long the specs are.
    targets: set[str | bytes] = field(default_factory=set)
    # Which loader reads the file, and what it does with each line (per file; unused in a total).
    loading: FileLoading = field(default_factory=FileLoading, repr=False, compare=False)
    # Records whose every problem `logs migrate` fixes (counted apart from ``failed``).
    needs_migration: int = 0

    def add(self, other: FileSummary) -> None:
        """Count ``other`` in too (for the total over several files)."""
        super().add(other)
        if isinstance(other, CheckSummary):
            self.targets |= other.targets
            self.needs_migration += other.needs_migration

    def human(self) -> str:
        """One line: records by format, comments, distinct targets, problems by kind."""
        formats = f" ({counts(self.formats)})" if self.formats else ""
        problems = f" ({counts(self.problems)})" if self.problems else ""
        migrate = f", {self.needs_migration} need migration" if self.needs_migration else ""
        return (
            f"{self.file}: {plural(self.records, 'record')}{formats}, {plural(self.comments, 'comment line')}, "
            f"{plural(len(self.targets), 'distinct target')}; {self.failed} failed{migrate}{problems}"
        )

    def to_json(self) -> dict[str, Any]:
        """The summary as one JSON object (``"record": "summary"``)."""
        return {
            **self._json(),
            "distinct_targets": len(self.targets),
            "failed": self.failed,
            "needs_migration": self.needs_migration,
            "problems": dict(sorted(self.problems.items())),
        }


class Checker:
    """Checks records one at a time; readings are shared through ``reader``'s cache.

    With a ``migrator``, a record whose problems are all its targets' and that the migrator
    rewrites into a record without problems has them marked ``needs_migration`` and is counted
    in :attr:`CheckSummary.needs_migration`, not in ``failed``: the log is one TVM loaded, in
    the form it had then, and ``logs migrate`` brings it up to date.
    """

    def __init__(self, reader: TargetReader, migrator: LogMigrator | None = None) -> None:
        self.reader = reader
        self.migrator = migrator

    def check(self, record: Record, summary: CheckSummary) -> list[Problem]:
        """The problems of ``record``, counted into ``summary`` (the summary of its file).

        A line whose meaning depends on the file's tuner (one starting with a space, before the
        file's first record) is checked once that is known: its problems come with a later
        record's, or from :meth:`finish`.
        """
        loading = summary.loading
        if loading.loader is not None:  # the file's loader is known: no line waits
            line, load = loading.decide(record)
            return self._check(line, load, summary)
        problems: list[Problem] = []
        for line, load in loading.feed(record):
            problems.extend(self._check(line, load, summary))
        return problems

    def finish(self, summary: CheckSummary) -> list[Problem]:
        """The problems of the lines of ``summary``'s file still waiting when it ends."""
        problems: list[Problem] = []
        for line, load in summary.loading.finish():
            problems.extend(self._check(line, load, summary))
        return problems

    def _check(self, record: Record, load: LineLoad, summary: CheckSummary) -> list[Problem]:
        summary.lines += 1
        if load.what == "comment":
            summary.comments += 1
            return []
        blank = load.what == "fails" and is_blank(record)
        summary.formats["blank" if blank else record.format.value] += 1
        problems: list[Problem] = []
        if load.what == "fails":
            problems.append(_line_problem(record, load.error, load.message))
        elif record.format is Format.UNKNOWN:
            problems.append(_line_problem(record, "UnknownRecord", record.problem))
        elif record.format in _AUTOTVM:
            line = autotvm_line(record, workload=False)
            if line.outcome == "raises":
                stage = "ApplyHistoryBest.load" if line.dispatch else "load_from_file"
                why = (
                    f"{AUTOTVM_LOADER} raises {line.error} here ({stage}): {line.message}; the whole log fails to load"
                )
                problems.append(_line_problem(record, "LoadError", why))
        for target in record.fields:
            if not target.spec and target.name == "host":
                continue  # auto_scheduler writes "" for "no host"
            summary.targets.add(distinct_spec(target.spec))
            reading = self.reader.read(target.spec, writer_version(record))
            for finding in reading.findings:
                problems.append(self._problem(record, target.name, target.spec, reading.era, finding, reading))
        if problems:
            if self._migration_fixes(record, problems):
                problems = [replace(p, needs_migration=True) for p in problems]
                summary.needs_migration += 1
            else:
                summary.failed += 1
            summary.problems.update(f"{p.rule}: {p.error}" for p in problems)
        return problems

    def _migration_fixes(self, record: Record, problems: list[Problem]) -> bool:
        if self.migrator is None or any(p.field is None for p in problems):
            return False  # no migration asked for, or the line itself is at fault
        return migration_fixes(record, self.reader, self.migrator)

    def _problem(
        self, record: Record, name: str, spec: str, era: str, finding: CheckFinding, reading: Reading
    ) -> Problem:
        message, detail = finding.message, finding.detail
        if reading.reads_as_v08 and writer_version(record) is None and self.reader.assume is None:
            # Neither the record nor the user says which TVM wrote it; say which one would have read it.
            hint = "; TVM v0.8 - v0.9 read this target: give --tvm-version if one of them wrote this log"
            first, newline, excerpt = detail.partition("\n")
            message, detail = message + hint, first + hint + newline + excerpt
        span = finding.span
        return Problem(record.file, record.line, finding.rule, name, finding.error, message, detail, spec, span, era)


def migration_fixes(record: Record, reader: TargetReader, migrator: LogMigrator) -> bool:
    """Whether ``migrator`` (``logs migrate``) rewrites ``record`` into a line of the same format
    whose targets all pass ``reader``'s checks: what checking its output would find."""
    result = migrator.migrate(record)
    if result.problems or not result.changed:
        return False
    again = parse_line(result.text, record.newline, file=record.file, line=record.line)
    if again.format is not record.format:
        return False
    version = writer_version(again)
    return all(reader.read(target.spec, version).ok for target in again.fields if target.spec or target.name != "host")


def distinct_spec(spec: str) -> str | bytes:
    """What stands for ``spec`` among the distinct specs counted."""
    if len(spec) <= 48:
        return spec
    return hashlib.blake2b(spec.encode("utf-8", "surrogatepass"), digest_size=16).digest()


def _line_problem(record: Record, error: str, message: str) -> Problem:
    return Problem(record.file, record.line, "record", None, error, message, message, None, None, None)
