"""``logs match``: which AutoTVM records ``ApplyHistoryBest`` would pick for a target, and why the others miss.

TVM's dispatcher (python/tvm/autotvm/task/dispatcher.py, v0.7 - v0.19; spec section 9.2) loads the
records that measured without error and indexes the fastest one (lowest mean cost; the first of
equals) per ``(model, workload)`` for models other than ``"unknown"`` and per ``(key, workload)``
for every key of the record's resolved target. A query for a target looks up its model first,
then each of its resolved keys in order. When nothing is found, TVM warns "Cannot find config
for target=..." and falls back to a default schedule: this module says which field made each
record miss.

Records are read as the dispatcher read them: AutoTVM's JSON reader rewrote ``-target`` to
``-mtriple`` before parsing (spec section 9.2); a pickle row's task and result are pickles, which
are never decoded here, so pickle rows cannot be matched. The workload is the record's task name
and arguments (``input[1:3]``) as JSON text. AutoTVM v0.1 records are matched like v0.2 ones, as TVM
v0.6's dispatcher did (v0.7 and later skip them). One small entry is kept per AutoTVM record, as the
dispatcher itself keeps every record.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..target import Target
from .formats import Format
from .records import Record, writer_version
from .report import counts, plural, table
from .targets import TargetReader, autotvm_rewrite

__all__ = ["Matcher", "Query", "RecordMatch"]


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
    does not load it: a measurement error, or a target that does not read), ``unreadable``
    (a pickle row).
    """

    file: str
    line: int
    spec: str
    workload: int  # index into Matcher.workloads; -1 when unknown
    cost: float
    status: str
    via: str  # for a match: "model 'x'" or "key 'y'" (the first route the query would take)
    reason: str

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
    """The records of one distinct target spec."""

    records: int = 0
    statuses: Counter[str] = field(default_factory=Counter)
    how: str = ""


class Matcher:
    """Loads AutoTVM records as ``ApplyHistoryBest.load`` did, then answers for one query."""

    def __init__(self, query: Query, reader: TargetReader) -> None:
        self.query = query
        self.reader = reader
        self.files = 0
        self.others: Counter[str] = Counter()  # records of other tuners, by format
        self.workloads: list[str] = []
        self._workload_ids: dict[str, int] = {}
        self.records: list[RecordMatch] = []
        self._by_model: dict[tuple[str, int], RecordMatch] = {}
        self._by_key: dict[tuple[str, int], RecordMatch] = {}
        self.picks: dict[int, RecordMatch] = {}  # workload -> the record returned for it
        self._groups: dict[str, _Group] = {}

    def add(self, record: Record) -> None:
        """Load ``record`` (records that are not AutoTVM's are only counted)."""
        if record.format is Format.COMMENT:
            return
        if not record.format.is_autotvm:
            self.others[record.format.value] += 1
            return
        spec = record.target or ""
        group = self._groups.setdefault(spec, _Group())
        group.records += 1
        if record.format is Format.AUTOTVM_PICKLE:
            reason = "a pickle row: its task and result are pickles, which targetlang does not decode"
            self._keep(record, spec, -1, math.inf, "unreadable", reason)
            return
        value = record.value
        inp, result = (value["input"], value.get("result")) if "input" in value else (value["i"], value.get("r"))
        workload = self._workload(inp)
        cost, error_no = _result(result)
        if error_no != 0:
            reason = f"measured with error_no {error_no}: the dispatcher does not load it"
            self._keep(record, spec, workload, math.inf, "skipped", reason)
            return
        reading = self.reader.read(autotvm_rewrite(spec), writer_version(record))
        if reading.resolved is None:
            first = reading.findings[0]
            reason = f"its target does not read: {first.error}: {first.message}"
            group.how = group.how or f"no: does not read ({first.error})"
            self._keep(record, spec, workload, cost, "skipped", reason)
            return
        model, keys = reading.model or "unknown", reading.keys or ()
        entry = self._keep(record, spec, workload, cost, "", "")
        for key in keys:
            _keep_best(self._by_key, (key, workload), entry)
        if model != "unknown":
            _keep_best(self._by_model, (model, workload), entry)
        query = self.query
        if model == query.model and model != "unknown":
            entry.via = f"model '{model}'"
        else:
            common = [key for key in query.keys if key in keys]
            if common:
                entry.via = f"key '{common[0]}'"
            else:
                entry.status, entry.reason = "missed", _miss(model, keys, query)
        group.how = group.how or (f"by {entry.via}" if entry.via else f"no: {entry.reason}")

    def _keep(self, record: Record, spec: str, workload: int, cost: float, status: str, reason: str) -> RecordMatch:
        entry = RecordMatch(record.file, record.line, spec, workload, cost, status, "", reason)
        self.records.append(entry)
        return entry

    def _workload(self, inp: list[Any]) -> int:
        text = json.dumps(inp[1:3])
        index = self._workload_ids.get(text)
        if index is None:
            index = self._workload_ids[text] = len(self.workloads)
            self.workloads.append(text)
        return index

    def finish(self) -> None:
        """Answer the query for every workload, then say for every record what became of it."""
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
        for entry in self.records:
            if not entry.status:
                winner = self.picks[entry.workload]
                where = f"line {winner.line}" if winner.file == entry.file else f"{winner.file}:{winner.line}"
                why = f"{winner.reason}{_faster(winner, entry)}"
                entry.status, entry.reason = "beaten", f"matches by {entry.via}, but {where} is picked ({why})"
            self._groups[entry.spec].statuses[entry.status] += 1

    def summary(self) -> dict[str, Any]:
        """Counts: records by status, workloads found by route and not found."""
        routes = Counter(pick.reason for pick in self.picks.values())
        return {
            "record": "summary",
            "target": self.query.spec,
            "model": self.query.model,
            "keys": list(self.query.keys),
            "files": self.files,
            "autotvm_records": len(self.records),
            "other_records": dict(self.others),
            "statuses": dict(Counter(entry.status for entry in self.records)),
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
        routes = Counter(pick.reason for pick in self.picks.values())
        found = f"{len(self.picks)} found" + (f" ({counts(routes)})" if routes else "")
        missing = len(self.workloads) - len(self.picks)
        others = f"; other tuners' records ignored: {counts(self.others)}" if self.others else ""
        lines.append(
            f"{plural(len(self.records), 'AutoTVM record')} in {plural(self.files, 'file')}, "
            f"{plural(len(self.workloads), 'workload')}: {found}, {missing} not found{others}"
        )
        if self._groups:
            rows = [("records", "picked", "target", "matches")]
            for spec, group in sorted(self._groups.items(), key=lambda item: -item[1].statuses["picked"]):
                rows.append((str(group.records), str(group.statuses["picked"]), spec, group.how or "no"))
            lines.extend(table(rows, right=2))
        return "\n".join(lines)


def _keep_best(index: dict[tuple[str, int], RecordMatch], key: tuple[str, int], entry: RecordMatch) -> None:
    # dispatcher.py replaces an entry only when the new record is strictly faster.
    other = index.get(key)
    if other is None or other.cost > entry.cost:
        index[key] = entry


def _result(result: Any) -> tuple[float, int]:
    """Mean cost and error number of an AutoTVM result ``[costs, error_no, all_cost, timestamp]``."""
    try:
        costs, error_no = result[0], int(result[1])
        return sum(float(c) for c in costs) / len(costs), error_no
    except (TypeError, ValueError, IndexError, ZeroDivisionError):
        return math.inf, 0


def _miss(model: str, keys: tuple[str, ...], query: Query) -> str:
    if query.model == "unknown":
        why = "the target has no model"
    elif model == "unknown":
        why = "the record has no model"
    else:
        why = f"model '{model}' is not '{query.model}'"
    return f"{why}, and no key in common (record keys: {', '.join(keys) or 'none'})"


def _faster(winner: RecordMatch, entry: RecordMatch) -> str:
    if winner.reason != f"by {entry.via}":
        return ""  # picked through an earlier route (the model, or a key that comes first)
    if winner.cost < entry.cost:
        return f", faster: {winner.cost:.3g} s against {entry.cost:.3g} s"
    return ", as fast and earlier"
