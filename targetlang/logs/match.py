"""``logs match``: which AutoTVM records ``ApplyHistoryBest`` would pick for a target, and why the others miss.

TVM's dispatcher (python/tvm/autotvm/task/dispatcher.py, v0.7 - v0.19; spec section 9.2) loads the
records that measured without error and indexes the fastest one (lowest mean cost; the first of
equals) per ``(model, workload)`` for models other than ``"unknown"`` and per ``(key, workload)``
for every key of the record's resolved target. A query for a target looks up its model first,
then each of its resolved keys in order. When nothing is found, TVM warns "Cannot find config
for target=..." and falls back to a default schedule: this module says which field made each
record miss.

Lines are loaded as ``load_from_file`` and ``ApplyHistoryBest.load`` loaded them (see
:mod:`._autotvm_loader`): the target is parsed with ``-target`` rewritten to ``-mtriple`` (spec section
9.2), the workload is the task name and arguments as Python tuples (``[1]``, ``[1.0]`` and
``[true]`` are one workload), the cost ``np.mean`` of the costs (NaN for none, which no record
beats), and a record is skipped unless its ``error_no == 0``. Records of AutoTVM's log format
v0.1 are skipped too: TVM v0.7 and later load none of them. A line the loader raises on (a blank
line, a record without ``config``, a target that does not read, a pickle row, another tuner's
record) makes the whole load fail: such lines are ``fails``, and the answer is the one TVM would
give without them.

Memory is bounded by what the answer needs, not by the log: the dispatcher's indexes (the best
record per key or model and workload, as ``ApplyHistoryBest`` keeps them), the distinct workloads,
and per distinct target its counts. What became of each record, which ``--verbose`` and ``--json``
say, goes to a temporary file as the records come (``keep``), and is read back when asked for.
A :class:`Matcher` of a later part of the logs (a worker's, of ``logs match -j N``) is counted in
with :meth:`Matcher.merge`, as if its records had come one by one.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Hashable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .._target import Target
from ._autotvm_loader import AUTOTVM_LOADER, autotvm_line, workload_of
from ._best_records import faster_because, keep_best, missed_because
from ._loading import is_blank
from ._match_rows import STATUSES, Rows
from .records import Record, writer_version
from .report import counts, plural, table
from .targets import Reading, TargetReader, autotvm_rewrite

__all__ = ["Matcher", "Query", "RecordMatch", "target_error"]


def target_error(spec: str, reading: Reading) -> str:
    """The Python class of what TVM v0.19's ``Target(spec)`` raised when ``spec`` does not read
    (``reading``). Its constructor re-raises every failure as ``LOG(FATAL) << "ValueError" <<
    e.what()``: a ``ValueError`` when the failure's own message starts with ``": "`` (the parser's
    errors), a ``TVMError`` when it is a failed ``ICHECK`` (an empty spec; quotes that do not pair,
    in ``SplitString``) or a kind's own check (canonicalisation)."""
    if not spec or reading.findings[0].error == "CanonicalizationError" or _unpaired_quote(spec):
        return "TVMError"
    return "ValueError"


def _unpaired_quote(spec: str) -> bool:
    """``SplitString``'s ``ICHECK(!pos_quoted)``: a ``'`` left open (a ``\\`` escapes the next character)."""
    quoted, pos = False, 0
    while pos < len(spec):
        if spec[pos] == "\\" and pos + 1 < len(spec):
            pos += 2
            continue
        quoted ^= spec[pos] == "'"
        pos += 1
    return quoted


@dataclass(frozen=True, slots=True)
class Query:
    """The target asked about, as the dispatcher sees it: its model and resolved keys."""

    spec: str
    model: str
    keys: tuple[str, ...]

    @classmethod
    def of(cls, target: Target) -> Query:
        """The query for ``target`` (resolved here, as ``Target()`` resolved in TVM)."""
        resolved = target.resolve()
        model = resolved.attrs.get("model")
        return cls(str(target), model if isinstance(model, str) else "unknown", resolved.keys)


@dataclass(slots=True)
class RecordMatch:
    """One AutoTVM record and what the dispatcher does with it for the query.

    ``status``: ``picked`` (returned for its workload), ``beaten`` (it matches, another record is
    returned), ``missed`` (neither its model nor any key matches), ``skipped`` (the dispatcher
    does not load it: a measurement error, or AutoTVM's log format v0.1), ``fails`` (the loader
    raises on the line, and TVM loads nothing at all).
    """

    file: str
    line: int
    spec: str
    workload: int  # index into Matcher.workloads; -1 when none (a line that fails)
    cost: float
    status: str
    via: str  # for a match: "model 'x'" or "key 'y'" (the first route the query would take)
    reason: str
    error: str = ""  # for "fails": the class of the exception TVM raised

    def human(self) -> str:
        """``FILE:LINE: STATUS: reason``."""
        return f"{self.file}:{self.line}: {self.status}: {self.reason}"

    def to_json(self, workloads: list[str]) -> dict[str, Any]:
        """The record's outcome as one JSON object (``"record": "match"``)."""
        return {
            "record": "match",
            "file": self.file,
            "line": self.line,
            "status": self.status,
            "via": self.via or None,
            "reason": self.reason,
            "spec": self.spec,
            "workload": json.loads(workloads[self.workload]) if self.workload >= 0 else None,
        }


@dataclass
class _Group:
    """The records of one distinct target spec: how many, by status (``""``: it matches, picked
    or beaten as :meth:`Matcher.finish` says), and how its first record matched."""

    records: int = 0
    statuses: Counter[str] = field(default_factory=Counter)
    how: str = ""


class Matcher:
    """Loads AutoTVM records as ``ApplyHistoryBest.load`` did, then answers for one query.

    With ``keep``, what became of each record is kept (in a temporary file) for :meth:`each`;
    without it, only the counts are. ``failures`` holds the first line TVM's loader raises on,
    ``failure_count`` how many there are."""

    def __init__(self, query: Query, reader: TargetReader, keep: bool = True) -> None:
        self.query = query
        self.reader = reader
        self.keep = keep
        self.files = 0
        self.others: Counter[str] = Counter()  # lines of other tuners (and blank lines), by format
        self.workloads: list[str] = []  # each workload's JSON text, as its first record wrote it
        self._workload_ids: dict[Hashable, int] = {}
        self._rows = Rows()
        self.failures: list[RecordMatch] = []  # the first line TVM's loader raises on
        self.failure_count = 0
        self.old = 0  # records of AutoTVM's log format v0.1, which TVM v0.7 and later skip
        self._by_model: dict[tuple[str, int], RecordMatch] = {}
        self._by_key: dict[tuple[str, int], RecordMatch] = {}
        # Under an entry of a NaN cost, which no record replaces: the fastest record that came
        # after it, which a merge gives to a matcher whose entry there is a cost (see keep_best).
        self._blocked: dict[tuple[str, int], RecordMatch] = {}
        self._blocked_model: dict[tuple[str, int], RecordMatch] = {}
        self.picks: dict[int, RecordMatch] = {}  # workload -> the record returned for it
        self._groups: dict[str, _Group] = {}
        self._order: list[str] = []  # the statuses, in the order their first records come (keep)
        self._finished = False

    @property
    def autotvm_records(self) -> int:
        """Records of AutoTVM's formats."""
        return sum(group.records for group in self._groups.values())

    @property
    def records(self) -> list[RecordMatch]:
        """What became of every record, in order (all of them in memory: see :meth:`each`)."""
        return list(self.each())

    def add(self, record: Record) -> None:
        """Load ``record``'s line as ``load_from_file`` and ``ApplyHistoryBest.load`` did."""
        line = autotvm_line(record)
        if line.outcome == "comment":
            return
        # A line of no AutoTVM format that AutoTVM reads whole anyway counts as its record.
        autotvm = record.format.is_autotvm or line.outcome == "record"
        if not autotvm:
            self.others["blank" if is_blank(record) else record.format.value] += 1
        spec = record.target if record.target is not None else line.spec
        group = self._groups.setdefault(spec, _Group()) if autotvm else None
        if group is not None:
            group.records += 1
        if line.outcome == "old":
            self.old += 1
            reason = 'AutoTVM log format v0.1 ("v": 0.1): TVM v0.7 and later skip it'
            if group is not None:
                group.how = group.how or "no: log format v0.1, which TVM v0.7 and later skip"
            self._keep(record, spec, self._workload(record, None), math.inf, "skipped", reason, group)
            return
        reading = None
        if line.parsed:
            # TVM parsed the target before anything else of the record (after -target became -mtriple).
            reading = self.reader.read(autotvm_rewrite(line.spec), writer_version(record))
            if reading.resolved is None:
                first = reading.findings[0]
                error = target_error(line.spec, reading)
                message = f"its target does not read ({first.error}: {first.message})"
                if group is not None:
                    group.how = (
                        group.how or f"no: its target does not read ({first.error}), and TVM fails to load the log"
                    )
                self._fail(record, spec, error, message, "load_from_file", group)
                return
        if line.outcome == "raises":
            where = "ApplyHistoryBest.load" if line.dispatch else "load_from_file"
            self._fail(record, spec, line.error, line.message, where, group)
            if group is not None:
                group.how = group.how or f"no: TVM's loader raises {line.error} on it, and fails to load the log"
            return
        assert reading is not None and group is not None
        if not line.indexed:
            error_no = json.dumps(line.error_no)
            if type(line.error_no) is not int:  # "0", null, true: none of them == 0 to Python
                error_no += ", which is not 0 to Python"
            reason = f"measured with error_no {error_no}: the dispatcher does not load it"
            self._keep(record, spec, self._workload(record, None), math.inf, "skipped", reason, group)
            return
        workload = self._workload(record, line.workload)
        model, keys = reading.model or "unknown", reading.keys or ()
        entry = RecordMatch(record.file, record.line, spec, workload, line.cost, "", "", "")
        query = self.query
        if model == query.model and model != "unknown":
            entry.via = f"model '{model}'"
        else:
            common = [key for key in query.keys if key in keys]
            if common:
                entry.via = f"key '{common[0]}'"
            else:
                entry.status, entry.reason = "missed", missed_because(model, keys, query)
        for key in keys:
            keep_best(self._by_key, (key, workload), entry, self._blocked)
        if model != "unknown":
            keep_best(self._by_model, (model, workload), entry, self._blocked_model)
        self._row(entry, group)
        group.how = group.how or (f"by {entry.via}" if entry.via else f"no: {entry.reason}")

    def _row(self, entry: RecordMatch, group: _Group | None) -> None:
        if group is not None:
            group.statuses[entry.status] += 1
        if self.keep:
            e = entry
            self._rows.add((e.file, e.line, e.spec, e.workload, e.cost, e.status, e.via, e.reason, e.error))

    def _keep(
        self, record: Record, spec: str, workload: int, cost: float, status: str, reason: str, group: _Group | None
    ) -> RecordMatch:
        entry = RecordMatch(record.file, record.line, spec, workload, cost, status, "", reason)
        self._row(entry, group)
        return entry

    def _fail(self, record: Record, spec: str, error: str, message: str, where: str, group: _Group | None) -> None:
        reason = f"{AUTOTVM_LOADER} raises {error} here ({where}): {message}"
        entry = RecordMatch(record.file, record.line, spec, -1, math.inf, "fails", "", reason, error)
        self._row(entry, group)
        self.failure_count += 1
        if not self.failures:
            self.failures.append(entry)

    def _workload(self, record: Record, workload: Hashable) -> int:
        """The index of the record's workload: ``workload`` as TVM hashed it, or (for a record TVM
        did not index) the one its task name and arguments make."""
        task = _task(record.value)
        if task is None:
            return -1
        if workload is None:
            workload = workload_of(*task)
            if workload is None:  # TVM never built it: the JSON text stands for it
                workload = (_UNBUILT, json.dumps(task))
        index = self._workload_ids.get(workload)
        if index is None:
            index = self._workload_ids[workload] = len(self.workloads)
            self.workloads.append(json.dumps(task))
        return index

    def __getstate__(self) -> dict[str, Any]:
        # A worker's matcher goes to the command without its reader (and its caches).
        state = dict(self.__dict__)
        state["reader"] = None
        return state

    def merge(self, other: Matcher) -> None:
        """Count in ``other``'s records, which come after all of this one's: as if they had been
        added here, one by one (``other`` is used up)."""
        self.others.update(other.others)
        self.old += other.old
        ids = [self._workload_id(key, text) for key, text in zip(other._workload_ids, other.workloads, strict=True)]
        for spec, theirs in other._groups.items():
            mine = self._groups.get(spec)
            if mine is None:
                self._groups[spec] = theirs
            else:
                mine.records += theirs.records
                mine.statuses.update(theirs.statuses)
                mine.how = mine.how or theirs.how
        moved: set[int] = set()
        for index, blocked, theirs_index, theirs_blocked in (
            (self._by_key, self._blocked, other._by_key, other._blocked),
            (self._by_model, self._blocked_model, other._by_model, other._blocked_model),
        ):
            for entry in (*theirs_index.values(), *theirs_blocked.values()):
                if id(entry) not in moved:
                    moved.add(id(entry))
                    entry.workload = ids[entry.workload]
            for (name, workload), entry in theirs_index.items():
                key = (name, ids[workload])
                current = index.get(key)
                if current is not None and math.isnan(entry.cost) and not math.isnan(current.cost):
                    # theirs would never have been made after this one: the record that would
                    # replace this one is the fastest of theirs after it, if any
                    later = theirs_blocked.get((name, workload))
                    if later is None:
                        continue
                    entry = later
                keep_best(index, key, entry, blocked)
        if not self.failures:
            self.failures = other.failures[:1]
        self.failure_count += other.failure_count
        if self.keep:
            for row in other._rows:
                workload = row[3]
                self._rows.add((*row[:3], ids[workload] if workload >= 0 else -1, *row[4:]))

    def _workload_id(self, workload: Hashable, text: str) -> int:
        index = self._workload_ids.get(workload)
        if index is None:
            index = self._workload_ids[workload] = len(self.workloads)
            self.workloads.append(text)
        return index

    def best(self, by: str = "key") -> list[tuple[str, str, RecordMatch]]:
        """The dispatcher's index ``by`` key (or ``"model"``), in the order TVM inserted its
        entries: ``(key or model, workload JSON text, record kept)``."""
        index = self._by_key if by == "key" else self._by_model
        return [(name, self.workloads[workload], entry) for (name, workload), entry in index.items()]

    def finish(self) -> None:
        """Answer the query for every workload; then say of each distinct target how many of its
        records were picked and beaten."""
        if self._finished:
            return
        self._finished = True
        query = self.query
        for workload in range(len(self.workloads)):
            pick = self._by_model.get((query.model, workload))
            if pick is not None:
                pick.status, pick.reason = "picked", f"by model '{query.model}'"
            else:
                for key in query.keys:
                    pick = self._by_key.get((key, workload))
                    if pick is not None:
                        pick.status, pick.reason = "picked", f"by key '{key}'"
                        break
            if pick is not None:
                self.picks[workload] = pick
        picked = Counter(pick.spec for pick in self.picks.values())
        for spec, group in self._groups.items():
            matching = group.statuses.pop("", 0)
            group.statuses["picked"] = picked[spec]
            group.statuses["beaten"] = matching - picked[spec]
        self._rows.flush()
        if self.keep:
            order: dict[str, None] = {}
            for entry in self.each():
                order.setdefault(entry.status)
                if len(order) == len(STATUSES):
                    break
            self._order = list(order)

    def each(self) -> Iterator[RecordMatch]:
        """What became of each record, in order (after :meth:`finish`; with ``keep``)."""
        picks = {(pick.file, pick.line): pick for pick in self.picks.values()}
        for file, line, spec, workload, cost, status, via, reason, error in self._rows:
            entry = RecordMatch(file, line, spec, workload, cost, status, via, reason, error)
            if not status:
                # (the first record at that place: a file given twice has its copy beaten by it)
                pick = picks.pop((file, line), None)
                if pick is not None:
                    entry.status, entry.reason = "picked", pick.reason
                else:
                    winner = self.picks[workload]
                    where = f"line {winner.line}" if winner.file == file else f"{winner.file}:{winner.line}"
                    why = f"{winner.reason}{faster_because(winner, entry)}"
                    entry.status, entry.reason = "beaten", f"matches by {via}, but {where} is picked ({why})"
            yield entry

    @property
    def loads(self) -> bool:
        """Whether ``ApplyHistoryBest`` loads the files (no line makes it raise)."""
        return not self.failures

    def summary(self) -> dict[str, Any]:
        """Counts: records by status (in the order their first records come, with ``keep``),
        workloads found by route and not found."""
        routes = Counter(pick.reason for pick in self.picks.values())
        statuses: Counter[str] = Counter()
        for group in self._groups.values():
            statuses.update(group.statuses)
        # (a line of no AutoTVM format fails, and is in no group)
        statuses["fails"] = self.failure_count
        order = self._order if self.keep else list(STATUSES)
        return {
            "record": "summary",
            "target": self.query.spec,
            "model": self.query.model,
            "keys": list(self.query.keys),
            "files": self.files,
            "loads": self.loads,
            "failures": self.failure_count,
            "autotvm_records": self.autotvm_records,
            "v01_records": self.old,
            "other_records": dict(self.others),
            "statuses": {status: statuses[status] for status in order if statuses[status]},
            "workloads": len(self.workloads),
            "found": len(self.picks),
            "found_by": dict(routes),
            "not_found": len(self.workloads) - len(self.picks),
        }

    def report(self) -> str:
        """The text report: the query, the workloads found, and a table per distinct record target."""
        query = self.query
        keys = ", ".join(query.keys) or "none"
        lines = [f"target: {query.spec}", f"  model '{query.model}', keys {keys}"]
        if self.failures:
            first = self.failures[0]
            more = self.failure_count - 1
            lines.append(
                f"TVM v0.7 - v0.19 cannot load these logs: ApplyHistoryBest raises {first.error} at "
                f"{first.file}:{first.line}" + (f" (and on {plural(more, 'more line')})" if more else "") + " and "
                "finds nothing; without the lines it fails on, it would find:"
            )
        if self.old:
            lines.append(
                f"{plural(self.old, 'record')} of AutoTVM's log format v0.1 skipped: TVM v0.7 - v0.19 load none "
                'of them ("AutoTVM log version 0.1 is no longer supported."); TVM v0.6 and older read them'
            )
        routes = Counter(pick.reason for pick in self.picks.values())
        found = f"{len(self.picks)} found" + (f" ({counts(routes)})" if routes else "")
        missing = len(self.workloads) - len(self.picks)
        others = f"; other lines: {counts(self.others)}" if self.others else ""
        lines.append(
            f"{plural(self.autotvm_records, 'AutoTVM record')} in {plural(self.files, 'file')}, "
            f"{plural(len(self.workloads), 'workload')}: {found}, {missing} not found{others}"
        )
        if self._groups:
            rows = [("records", "picked", "target", "matches")]
            for spec, group in sorted(self._groups.items(), key=lambda item: -item[1].statuses["picked"]):
                rows.append((str(group.records), str(group.statuses["picked"]), spec, group.how or "no"))
            lines.extend(table(rows, right=2))
        return "\n".join(lines)


class _Unbuilt:
    """The mark of a workload TVM never built, known by its JSON text (pickled as itself)."""

    def __reduce__(self) -> str:
        return "_UNBUILT"


_UNBUILT = _Unbuilt()


def _task(value: Any) -> tuple[Any, Any] | None:
    """The task name and arguments of a decoded AutoTVM record (``input[1:3]``, or ``i[1:3]`` in
    log format v0.1), or ``None``."""
    if not isinstance(value, dict):
        return None
    for key in ("input", "i"):
        inp = value.get(key)
        if isinstance(inp, list) and len(inp) >= 3:
            return inp[1], inp[2]
    return None
