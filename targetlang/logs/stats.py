"""``logs stats``: the distinct targets of tuning logs, with what they are and how often they occur.

Each distinct spec is read once (the reader caches). Kind, model and keys are what AutoTVM's
dispatcher would see: for an AutoTVM JSON record whose target does not read as written, they come
from the text the JSON reader parsed (``-target`` rewritten to ``-mtriple``); the ``check`` column
still says whether the spec reads as written.

A row keeps what the report shows of its target, never the target read: a reading of a long
``-mattr`` list holds about 9 bytes per byte of it, and a log of 1,500 distinct 200 KB targets
held 2.9 GB of them. The texts themselves are shown, so they are kept, but a text longer than
:data:`LONG` characters (the model and keys of a target, or a TVM version, as well as the spec)
goes to a temporary file, and only its digest and first characters stay in memory: a distinct
target costs the same few hundred bytes however long it is.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from .._cache import LruCache
from ._held_texts import (
    LONG,
    LongText,
    NameCounts,
    Text,
    Texts,
    Write,
    dump_names,
    held_text,
    in_count_order,
    joined_texts,
    ordered_names,
    plain_texts,
    text_digest,
    write_text,
)
from ._loading import blank_load, loader_of
from .check import migration_fixes
from .formats import Format
from .records import Record, writer_version
from .report import counts, plural
from .targets import Reading, TargetReader, autotvm_rewrite

if TYPE_CHECKING:
    from .migration import LogMigrator

__all__ = ["LONG", "PLANS", "Stats", "StatsPlan", "TargetStats"]

_JSON_AUTOTVM = (Format.AUTOTVM_V02, Format.AUTOTVM_V01)


# Plans kept at once (see Stats.plan), besides the bound on their text.
PLANS = 4096


@dataclass
class TargetStats:
    """One distinct spec of one field (``target`` or ``host``): what the report says of it.

    ``kind``, ``model`` and ``keys`` are what the dispatcher read (they differ from what the spec
    reads as written only after the ``-target`` rewrite, ``read_after_rewrite``); ``error`` is
    the first problem's error class when the spec does not read as written, in the era of the
    first record that holds it. A text longer than :data:`LONG` characters is held in a file
    (``text``, and the names of the counts): ``spec`` reads it back."""

    name: str  # the field: "target" or "host"
    text: Text  # the spec
    order: int  # first appearance, to break ties in a stable way
    kind: str | None
    model: Text | None
    keys_json: Text | None  # the keys as a JSON array, held as the spec is (2,000 keys are one text)
    error: str | None
    read_after_rewrite: bool = False
    needs_migration: bool = False  # its problems are ones `logs migrate` fixes
    records: int = 0
    formats: Counter[str] = field(default_factory=Counter)
    tvm_versions: Counter[Text] = field(default_factory=Counter)
    eras: Counter[str] = field(default_factory=Counter)

    @property
    def spec(self) -> str:
        """The spec, as the records write it."""
        return str(self.text)

    @property
    def keys(self) -> tuple[str, ...] | None:
        """The resolved keys, ``None`` when the spec does not resolve."""
        return None if self.keys_json is None else tuple(json.loads(str(self.keys_json)))

    @property
    def check(self) -> str:
        """``ok``, ``needs migration`` (as ``logs check`` says), or the first problem's error class."""
        if self.error is None:
            return "ok"
        return "needs migration" if self.needs_migration else self.error

    def _data(self) -> dict[str, Any]:
        return {
            "record": "target",
            "field": self.name,
            "spec": self.text,
            "records": self.records,
            "formats": dict(self.formats),
            "kind": self.kind,
            "model": self.model,
            "keys": list(self.keys) if self.keys is not None else None,
            "tvm_versions": dict(self.tvm_versions),
            "eras": dict(self.eras),
            "check": self.error or "ok",
            "needs_migration": self.needs_migration,
            "read_after_rewrite": self.read_after_rewrite,
        }

    def to_json(self) -> dict[str, Any]:
        """The entry as one JSON object (``"record": "target"``)."""
        plain: dict[str, Any] = plain_texts(self._data())
        return plain

    def _cells(self) -> list[list[Text]]:
        """The row of the text report, each cell as its pieces."""
        return [
            [str(self.records)],
            [self.kind or "?"],
            [self.model or "?"],
            ["?"] if self.keys is None else [",".join(self.keys)],
            joined_texts(self.tvm_versions),
            joined_texts(self.eras),
            [self.check],
            ["host: ", self.text] if self.name == "host" else [self.text],
        ]


@dataclass(frozen=True, slots=True, eq=False)
class StatsPlan:
    """What :meth:`Stats.add` counted for one record: its format, each target field's row, TVM
    version and era, and what the dispatcher read of its target (era, TVM version, kind, model,
    keys), all as the counts hold them. (Equal only to itself: a count is tallied per plan.)"""

    format: str
    fields: tuple[tuple[TargetStats, Text, str], ...]
    target: tuple[str, Text, str, Text, tuple[Text, ...]] | None
    rows: tuple[tuple[Any, ...], ...] = ()  # the row of each field's entry (see Stats.adopt)


def _held_nowhere(plan: StatsPlan) -> bool:
    """Whether no text ``plan`` counts is held by a file (:class:`LongText`, a ``Stats``'s own)."""
    texts: list[object] = []
    for entry, version, _ in plan.fields:
        texts += (entry.text, entry.model, entry.keys_json, version)
    if plan.target is not None:
        _, version, _, model, keys = plan.target
        texts += (version, model, *keys)
    # (a row holds its spec as the entry's text holds it: held when that is)
    return not any(isinstance(text, LongText) for text in texts)


class Stats:
    """Counts over the records of one or more files."""

    def __init__(self, reader: TargetReader, migrator: LogMigrator | None = None) -> None:
        self.reader = reader
        self.migrator = migrator  # to say which failing targets `logs migrate` fixes
        self.files = 0
        self.lines = 0
        self.comments = 0
        self.loader: str | None = None  # the TVM loader of the file being read (of its first record)
        self.formats: Counter[str] = Counter()
        self.targets: dict[tuple[Any, ...], TargetStats] = {}
        # Per record (its target field), as the dispatcher sees them.
        self.kinds: Counter[str] = Counter()
        self.keys = NameCounts()
        self.models = NameCounts()
        self.eras: Counter[str] = Counter()
        self.tvm_versions = NameCounts()
        self._texts = Texts()
        # What counting a record of each shape counted (see :meth:`plan`), kept by ``fast.StatsLines``
        # (bounded by count and by the text of their targets, as the other caches are).
        self.plans: LruCache[Any, StatsPlan] = LruCache(PLANS)
        # In a worker of -j N: the plans its earlier chunks made, which this one may adopt.
        self.earlier: LruCache[Any, StatsPlan] | None = None

    def add(self, record: Record) -> None:
        """Count ``record`` in."""
        self.lines += 1
        if record.format is Format.COMMENT:
            # a blank line the loader fails on is a record of its own sort, as check counts it
            if blank_load(record, self.loader) is None:
                self.comments += 1
            else:
                self.formats["blank"] += 1
            return
        self.formats[record.format.value] += 1
        if self.loader is None:
            self.loader = loader_of(record.format)
        for target in record.fields:
            if not target.spec and target.name == "host":
                continue  # auto_scheduler's "no host"
            reading = self.reader.read(target.spec, writer_version(record))
            row = self._row(target.name, reading)
            entry = self.targets.get(row)
            if entry is None:
                entry = self.targets[row] = self._entry(target.name, reading, record)
            era = reading.era
            version: Text = record.tvm_version or "-"
            if len(version) > LONG:
                version = self._texts.hold(version)
            entry.records += 1
            entry.formats[record.format.value] += 1
            entry.tvm_versions[version] += 1
            entry.eras[era] += 1
            if target.name != "target":
                continue
            self.eras[era] += 1
            self.tvm_versions.add(version)
            # each record as the dispatcher read it: whether -target was rewritten is its format's
            # doing, not the row's first record's (nor the first a worker of -j N met)
            seen = reading if reading.target is not None else self._seen_as(reading, record)
            hold = self._texts.hold
            self.kinds[seen.kind or "?"] += 1
            self.models.add(hold(seen.model) if seen.model else "?")
            self.keys.update(map(hold, seen.keys) if seen.keys else ("?",))

    def plan(self, record: Record) -> StatsPlan | None:
        """What :meth:`add` counted for ``record`` (added already), as :meth:`add_like` counts it
        again for each record like it: one of the same format, TVM version, target and host.
        ``None`` for a comment, a record of no target, or before the file's loader is known."""
        if record.format is Format.COMMENT or self.loader is None:
            return None
        fields: list[tuple[TargetStats, Text, str]] = []
        rows: list[tuple[Any, ...]] = []
        target: tuple[str, Text, str, Text, tuple[Text, ...]] | None = None
        version: Text = record.tvm_version or "-"
        if len(version) > LONG:
            version = self._texts.hold(version)
        for field_ in record.fields:
            if not field_.spec and field_.name == "host":
                continue
            reading = self.reader.read(field_.spec, writer_version(record))
            row = self._row(field_.name, reading)
            entry = self.targets.get(row)
            if entry is None:
                return None
            fields.append((entry, version, reading.era))
            rows.append(row)
            if field_.name == "target":
                seen = reading if reading.target is not None else self._seen_as(reading, record)
                hold = self._texts.hold
                model = hold(seen.model) if seen.model else "?"
                keys = tuple(map(hold, seen.keys)) if seen.keys else ("?",)
                target = (reading.era, version, seen.kind or "?", model, keys)
        return StatsPlan(record.format.value, tuple(fields), target, tuple(rows))

    def adopt(self, plan: StatsPlan) -> StatsPlan | None:
        """``plan``, made by another ``Stats`` of this process from a record that comes before
        every record of this one (a worker's earlier chunk of the file), as this one's own plan,
        or ``None`` where it holds a long text (held by the other's file). A row this one has
        not met is made from that plan's entry, its counts empty: what its first record said of
        it is the earlier record's, and is not what the command keeps, whose counts met the row
        first (:meth:`merge` keeps the first it met). So a chunk need not count each target's
        first record through :meth:`add` again."""
        if not _held_nowhere(plan):
            return None
        fields: list[tuple[TargetStats, Text, str]] = []
        for (entry, version, era), row in zip(plan.fields, plan.rows, strict=True):
            mine = self.targets.get(row)
            if mine is None:
                mine = self.targets[row] = replace(
                    entry, order=len(self.targets), records=0, formats=Counter(), tvm_versions=Counter(), eras=Counter()
                )
            fields.append((mine, version, era))
        return StatsPlan(plan.format, tuple(fields), plan.target, plan.rows)

    def add_like(self, plan: StatsPlan, number: int) -> None:
        """Count ``number`` more records like the one ``plan`` was made of (by :meth:`plan`)."""
        self.lines += number
        fmt = plan.format
        self.formats[fmt] += number
        for entry, version, era in plan.fields:
            entry.records += number
            entry.formats[fmt] += number
            entry.tvm_versions[version] += number
            entry.eras[era] += number
        if plan.target is not None:
            era, version, kind, model, keys = plan.target
            self.eras[era] += number
            self.tvm_versions.add(version, number)
            self.kinds[kind] += number
            self.models.add(model, number)
            for key in keys:
                self.keys.add(key, number)

    def _row(self, name: str, reading: Reading) -> tuple[Any, ...]:
        """What tells a row from the others: one row per distinct target *as read*, since the
        same text written by two TVM releases may read differently (its check, keys, era),
        whatever order the records come in. A long spec stands in it as held, and its findings
        as their digest."""
        if len(reading.spec) <= LONG:
            return (name, reading.spec, reading.era, reading.findings, reading.keys, reading.model)
        read = text_digest(repr((reading.findings, reading.keys, reading.model)))
        return (name, self._texts.hold(reading.spec), reading.era, read)

    def _entry(self, name: str, reading: Reading, record: Record) -> TargetStats:
        seen_as = self._seen_as(reading, record)
        entry = TargetStats(
            name,
            self._texts.hold(reading.spec),
            len(self.targets),
            *self._names(seen_as),
            reading.findings[0].error if reading.findings else None,
            seen_as is not reading,
        )
        if reading.findings and self.migrator is not None:
            entry.needs_migration = migration_fixes(record, self.reader, self.migrator)
        return entry

    def _seen_as(self, reading: Reading, record: Record) -> Reading:
        """What AutoTVM's dispatcher read of ``record``'s target: for an AutoTVM JSON record
        whose target does not read as written, the text the JSON reader parsed."""
        if _rewritten(reading, record):
            return self.reader.read(autotvm_rewrite(reading.spec), writer_version(record))
        return reading

    def _names(self, seen_as: Reading) -> tuple[str | None, Text | None, Text | None]:
        """The kind, model and keys (as JSON) of ``seen_as``, held."""
        hold = self._texts.hold
        model, keys = seen_as.model, seen_as.keys
        return seen_as.kind, None if model is None else hold(model), None if keys is None else hold(json.dumps(keys))

    def __getstate__(self) -> dict[str, Any]:
        # Counts go to another process without the reader and the migrator, and their caches;
        # their long texts as the texts (LongText.__reduce__), not the file that holds them here.
        state = dict(self.__dict__)
        state["reader"] = state["migrator"] = state["_texts"] = None
        state["plans"] = state["earlier"] = None  # (they hold this process's entries)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._texts = Texts()
        self.plans = LruCache(PLANS)

    def merge(self, other: Stats) -> None:
        """Count in ``other``'s counts, of records that come after all of this one's: as if they
        had been added here, one by one (a target first met there keeps what its first record
        there said of it)."""
        hold = self._texts.hold
        self.files += other.files
        self.lines += other.lines
        self.comments += other.comments
        self.formats.update(other.formats)
        for row, theirs in other.targets.items():
            if len(row) == 4:  # a long spec's
                row = (row[0], hold(row[1]), *row[2:])
            mine = self.targets.get(row)
            if mine is None:
                theirs.order = len(self.targets)
                theirs.text = hold(theirs.text)
                theirs.model = None if theirs.model is None else hold(theirs.model)
                theirs.keys_json = None if theirs.keys_json is None else hold(theirs.keys_json)
                theirs.tvm_versions = held_text(theirs.tvm_versions, hold)
                self.targets[row] = theirs
                continue
            mine.records += theirs.records
            mine.formats.update(theirs.formats)
            mine.tvm_versions.update(held_text(theirs.tvm_versions, hold))
            mine.eras.update(theirs.eras)
        self.kinds.update(other.kinds)
        self.eras.update(other.eras)
        for mine_names, theirs_names in (
            (self.keys, other.keys),
            (self.models, other.models),
            (self.tvm_versions, other.tvm_versions),
        ):
            for name, number in theirs_names.by_count():
                mine_names.add(hold(name), number)

    @property
    def records(self) -> int:
        """Lines that are not comments."""
        return self.lines - self.comments

    def rows(self) -> list[TargetStats]:
        """Distinct specs, most frequent first, then in order of appearance."""
        return sorted(self.targets.values(), key=lambda entry: (-entry.records, entry.order))

    def write(self, write: Write) -> None:
        """Write the text report, line by line: a header line, a table of distinct targets, and
        counts per record (what :meth:`table` returns, each line ended)."""
        formats = f" ({counts(self.formats)})" if self.formats else ""
        write(
            f"{plural(self.records, 'record')} in {plural(self.files, 'file')}{formats}, "
            f"{plural(self.comments, 'comment line')}; {plural(len(self.targets), 'distinct target')}\n"
        )
        header: list[list[Text]] = [[cell] for cell in ("records", "kind", "model", "keys", "tvm", "era", "check")]
        entries = self.rows()
        if entries:
            # the cells of one row at a time, twice: for the widths, then for the lines
            widths = [len(cell[0]) for cell in header]
            for entry in entries:
                for i, cell in enumerate(entry._cells()[: len(header)]):
                    widths[i] = max(widths[i], sum(map(len, cell)))
            table: Iterable[list[list[Text]]] = itertools.chain(
                [[*header, ["target"]]], (entry._cells() for entry in entries)
            )
            for cells in table:
                for i, (cell, width) in enumerate(zip(cells, widths, strict=False)):
                    pad = " " * (width - sum(map(len, cell)))
                    if i == 0:  # the counts, right-aligned (report.table's right=1)
                        write(pad)
                        write_text(cell, write)
                    else:
                        write_text(cell, write)
                        write(pad)
                    write("  ")
                write_text(cells[-1], write)
                write("\n")
        for name, counter in (
            ("kinds", self.kinds),
            ("keys", self.keys),
            ("models", self.models),
            ("eras", self.eras),
            ("tvm versions", self.tvm_versions),
        ):
            if len(counter):
                write(f"{name}: ")
                for n, (text, number) in enumerate(ordered_names(counter)):
                    write_text((", " if n else "", text, f" {number}"), write)
                write("\n")

    def table(self) -> str:
        """The text report: a header line, a table of distinct targets, and counts per record."""
        pieces: list[str] = []
        self.write(pieces.append)
        return "".join(pieces).removesuffix("\n")

    def _data(self) -> dict[str, Any]:
        return {
            "record": "summary",
            "files": self.files,
            "lines": self.lines,
            "records": self.records,
            "comments": self.comments,
            "formats": dict(in_count_order(self.formats)),
            "distinct_targets": len(self.targets),
            "kinds": dict(in_count_order(self.kinds)),
            "keys": self.keys,
            "models": self.models,
            "eras": dict(in_count_order(self.eras)),
            "tvm_versions": self.tvm_versions,
        }

    def to_json(self) -> dict[str, Any]:
        """The counts as one JSON object (``"record": "summary"``)."""
        plain: dict[str, Any] = plain_texts(self._data())
        return plain

    def write_json(self, write: Write) -> None:
        """Write one JSON line per distinct target (:meth:`TargetStats.to_json`, in the order of
        :meth:`rows`), then the summary (:meth:`to_json`), a text at a time."""
        for entry in self.rows():
            dump_names(entry._data(), write)
            write("\n")
        dump_names(self._data(), write)
        write("\n")


def _rewritten(reading: Reading, record: Record) -> bool:
    """Whether AutoTVM's JSON reader read ``record``'s target other than as written."""
    return reading.target is None and record.format in _JSON_AUTOTVM and autotvm_rewrite(reading.spec) != reading.spec
