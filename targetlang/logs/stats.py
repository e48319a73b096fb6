"""``logs stats``: the distinct targets of tuning logs, with what they are and how often they occur.

Each distinct spec is read once (the reader caches). Kind, model and keys are what AutoTVM's
dispatcher would see: for an AutoTVM JSON record whose target does not read as written, they come
from the text the JSON reader parsed (``-target`` rewritten to ``-mtriple``); the ``check`` column
still says whether the spec reads as written.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .check import migration_fixes
from .formats import Format
from .records import Record, writer_version
from .report import by_count, counts, plural, table
from .targets import Reading, TargetReader, autotvm_rewrite

if TYPE_CHECKING:
    from .migration import LogMigrator

__all__ = ["Stats", "TargetStats"]

_JSON_AUTOTVM = (Format.AUTOTVM_V02, Format.AUTOTVM_V01)


@dataclass
class TargetStats:
    """One distinct spec of one field (``target`` or ``host``)."""

    name: str  # the field: "target" or "host"
    spec: str
    order: int  # first appearance, to break ties in a stable way
    reading: Reading  # as written, in the era of the first record that holds it
    seen_as: Reading  # what the dispatcher read (differs only after the -target rewrite)
    needs_migration: bool = False  # its problems are ones `logs migrate` fixes
    records: int = 0
    formats: Counter[str] = field(default_factory=Counter)
    tvm_versions: Counter[str] = field(default_factory=Counter)
    eras: Counter[str] = field(default_factory=Counter)

    @property
    def check(self) -> str:
        """``ok``, ``needs migration`` (as ``logs check`` says), or the first problem's error class."""
        if not self.reading.findings:
            return "ok"
        return "needs migration" if self.needs_migration else self.reading.findings[0].error

    def to_json(self) -> dict[str, Any]:
        """The entry as one JSON object (``"record": "target"``)."""
        return {
            "record": "target",
            "field": self.name,
            "spec": self.spec,
            "records": self.records,
            "formats": dict(self.formats),
            "kind": self.seen_as.kind,
            "model": self.seen_as.model,
            "keys": list(self.seen_as.keys) if self.seen_as.keys is not None else None,
            "tvm_versions": dict(self.tvm_versions),
            "eras": dict(self.eras),
            "check": self.reading.findings[0].error if self.reading.findings else "ok",
            "needs_migration": self.needs_migration,
            "read_after_rewrite": self.seen_as is not self.reading,
        }


class Stats:
    """Counts over the records of one or more files."""

    def __init__(self, reader: TargetReader, migrator: LogMigrator | None = None) -> None:
        self.reader = reader
        self.migrator = migrator  # to say which failing targets `logs migrate` fixes
        self.files = 0
        self.lines = 0
        self.comments = 0
        self.formats: Counter[str] = Counter()
        self.targets: dict[tuple[Any, ...], TargetStats] = {}
        # Per record (its target field), as the dispatcher sees them.
        self.kinds: Counter[str] = Counter()
        self.keys: Counter[str] = Counter()
        self.models: Counter[str] = Counter()
        self.eras: Counter[str] = Counter()
        self.tvm_versions: Counter[str] = Counter()

    def add(self, record: Record) -> None:
        """Count ``record`` in."""
        self.lines += 1
        if record.format is Format.COMMENT:
            self.comments += 1
            return
        self.formats[record.format.value] += 1
        for target in record.fields:
            if not target.spec and target.name == "host":
                continue  # auto_scheduler's "no host"
            reading = self.reader.read(target.spec, writer_version(record))
            # One row per distinct target *as read*: the same text written by two TVM releases
            # may read differently (its check, keys, era), whatever order the records come in.
            row = (target.name, target.spec, reading.era, reading.findings, reading.keys, reading.model)
            entry = self.targets.get(row)
            if entry is None:
                seen_as = reading
                if reading.target is None and record.format in _JSON_AUTOTVM:
                    rewritten = autotvm_rewrite(target.spec)
                    if rewritten != target.spec:
                        seen_as = self.reader.read(rewritten, writer_version(record))
                entry = TargetStats(target.name, target.spec, len(self.targets), reading, seen_as)
                if reading.findings and self.migrator is not None:
                    entry.needs_migration = migration_fixes(record, self.reader, self.migrator)
                self.targets[row] = entry
            era = reading.era
            version = record.tvm_version or "-"
            entry.records += 1
            entry.formats[record.format.value] += 1
            entry.tvm_versions[version] += 1
            entry.eras[era] += 1
            if target.name != "target":
                continue
            self.eras[era] += 1
            self.tvm_versions[version] += 1
            self.kinds[entry.seen_as.kind or "?"] += 1
            self.models[entry.seen_as.model or "?"] += 1
            self.keys.update(entry.seen_as.keys or ("?",))

    def __getstate__(self) -> dict[str, Any]:
        # Counts go to another process without the reader and the migrator, and their caches.
        state = dict(self.__dict__)
        state["reader"] = state["migrator"] = None
        return state

    def merge(self, other: Stats) -> None:
        """Count in ``other``'s counts, of records that come after all of this one's: as if they
        had been added here, one by one (a target first met there keeps what its first record
        there said of it)."""
        self.files += other.files
        self.lines += other.lines
        self.comments += other.comments
        self.formats.update(other.formats)
        for row, theirs in other.targets.items():
            mine = self.targets.get(row)
            if mine is None:
                theirs.order = len(self.targets)
                self.targets[row] = theirs
                continue
            mine.records += theirs.records
            mine.formats.update(theirs.formats)
            mine.tvm_versions.update(theirs.tvm_versions)
            mine.eras.update(theirs.eras)
        for mine_counter, theirs_counter in (
            (self.kinds, other.kinds),
            (self.keys, other.keys),
            (self.models, other.models),
            (self.eras, other.eras),
            (self.tvm_versions, other.tvm_versions),
        ):
            mine_counter.update(theirs_counter)

    @property
    def records(self) -> int:
        """Lines that are not comments."""
        return self.lines - self.comments

    def rows(self) -> list[TargetStats]:
        """Distinct specs, most frequent first, then in order of appearance."""
        return sorted(self.targets.values(), key=lambda entry: (-entry.records, entry.order))

    def table(self) -> str:
        """The text report: a header line, a table of distinct targets, and counts per record."""
        formats = f" ({counts(self.formats)})" if self.formats else ""
        lines = [
            f"{plural(self.records, 'record')} in {plural(self.files, 'file')}{formats}, "
            f"{plural(self.comments, 'comment line')}; {plural(len(self.targets), 'distinct target')}"
        ]
        rows = [("records", "kind", "model", "keys", "tvm", "era", "check", "target")]
        for entry in self.rows():
            seen = entry.seen_as
            rows.append(
                (
                    str(entry.records),
                    seen.kind or "?",
                    seen.model or "?",
                    ",".join(seen.keys) if seen.keys is not None else "?",
                    ",".join(entry.tvm_versions),
                    ",".join(entry.eras),
                    entry.check,
                    ("host: " if entry.name == "host" else "") + entry.spec,
                )
            )
        if len(rows) > 1:
            lines.extend(table(rows))
        for name, counter in (
            ("kinds", self.kinds),
            ("keys", self.keys),
            ("models", self.models),
            ("eras", self.eras),
            ("tvm versions", self.tvm_versions),
        ):
            if counter:
                lines.append(f"{name}: {counts(counter, name_first=True)}")
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        """The counts as one JSON object (``"record": "summary"``)."""
        return {
            "record": "summary",
            "files": self.files,
            "lines": self.lines,
            "records": self.records,
            "comments": self.comments,
            "formats": dict(by_count(self.formats)),
            "distinct_targets": len(self.targets),
            "kinds": dict(by_count(self.kinds)),
            "keys": dict(by_count(self.keys)),
            "models": dict(by_count(self.models)),
            "eras": dict(by_count(self.eras)),
            "tvm_versions": dict(by_count(self.tvm_versions)),
        }
