"""targetlang's model of TVM's own log loaders against what TVM v0.19 did with the same logs.

The goldens under tests/data/oracle/logs-*.jsonl were recorded by tests/oracle/record_logs_*.py
with the real TVM v0.19 (see tests/oracle/logs_oracle.py for their fields); one row per log.
Each row is replayed here without TVM:

* an AutoTVM log: what ``load_from_file`` yielded (config index, mean cost, ``error_no == 0``)
  and raised, and what ``ApplyHistoryBest`` raised or indexed (by target key and by model:
  workload, and the config index of the record kept) must be what targetlang's model says
  (:func:`targetlang.logs._autotvm_loader.autotvm_line`, :class:`targetlang.logs.Matcher`);
* an auto_scheduler log: the records ``load_records`` returned, or that it raised;
* either way, ``logs check`` fails the log exactly when TVM's loader raised, when it takes the
  log for one of that loader (the loader of its first record).
"""

from __future__ import annotations

import io
import json
from collections import Counter
from typing import Any

import pytest

from targetlang._parsing import parse
from targetlang.logs import Format, Matcher, Query, Record, TargetReader, read_lines
from targetlang.logs._autotvm_loader import autotvm_line, workload_of
from targetlang.logs._loading import FileLoading, loader_of
from targetlang.logs._scheduler_reader import auto_scheduler_line
from targetlang.logs.check import Checker, CheckSummary
from targetlang.logs.match import target_error
from targetlang.logs.targets import autotvm_rewrite

from .conftest import data_path, read_jsonl

CLASSES = ["unloadable", "results", "versions", "workloads", "auto-scheduler", "v01", "dmlc", "targets"]
ROWS = [(name, row) for name in CLASSES for row in read_jsonl("oracle", f"logs-{name}.jsonl")]


def log_text(row: dict[str, Any]) -> str:
    if "file" in row:
        return data_path(*row["file"].split("/")).read_text(encoding="utf-8")
    text: str = row["log"]
    return text


def records(text: str) -> list[Record]:
    # Lines split at "\n" only, as TVM's readers split them ("\r\n" is a line break too).
    return list(read_lines(io.BytesIO(text.encode("utf-8", "surrogateescape")), "log"))


def tuples(value: Any) -> Any:
    """JSON arrays as tuples: a workload as Python compares it."""
    return tuple(tuples(item) for item in value) if isinstance(value, list) else value


def autotvm_model(text: str) -> dict[str, Any]:
    """What targetlang says AutoTVM's loaders do with ``text``, in the goldens' shape."""
    lines = records(text)
    reader = TargetReader(assume="0.19")  # records that do not say which TVM wrote them: v0.19 loads them
    yielded: list[list[Any]] = []
    raises = None
    index: dict[int, Any] = {}
    for record in lines:
        line = autotvm_line(record)
        index[record.line] = line.index
        if line.outcome in ("comment", "old"):
            continue
        if line.parsed:  # TVM parsed the target first
            reading = reader.read(autotvm_rewrite(line.spec))
            if reading.resolved is None:
                raises = target_error(line.spec, reading)
                break
        if line.outcome == "raises" and not line.dispatch:
            raises = line.error
            break
        yielded.append([line.index, repr(line.cost), bool(line.error_no == 0)])
    matcher = Matcher(Query.of(parse("llvm")), reader)
    for record in lines:
        matcher.add(record)
    matcher.finish()
    if matcher.failures:
        best: dict[str, Any] = {"raises": matcher.failures[0].error, "by_key": [], "by_model": []}
    else:
        best = {"raises": None}
        for by in ("key", "model"):
            entries = matcher.best(by)
            best[f"by_{by}"] = [[name, workload_of(*json.loads(task)), index[e.line]] for name, task, e in entries]
    return {"load": {"yielded": yielded, "raises": raises}, "apply_history_best": best}


def expected_autotvm(tvm: dict[str, Any]) -> dict[str, Any]:
    best = dict(tvm["apply_history_best"])
    for by in ("by_key", "by_model"):
        best[by] = [[name, tuples(json.loads(workload)), index] for name, workload, index in best[by]]
    return {"load": tvm["load"], "apply_history_best": best}


def auto_scheduler_model(text: str) -> dict[str, Any]:
    """What targetlang says auto_scheduler's ``RecordReader`` (TVM v0.19) does with ``text``: it
    skips the comments, raises on any line its dmlc JSON reader cannot read as a record, and
    builds the target (and the host, when there is one) of every record, as TVM v0.19 builds
    them; a line without ``r`` gives the ``all_cost`` of the previous one (first: 0)."""
    loading = FileLoading("auto_scheduler")
    decided = [decision for record in records(text) for decision in loading.feed(record)]
    decided += loading.finish()
    reader = TargetReader(assume="0.19")
    loaded = []
    all_cost = 0.0
    for record, load in decided:
        if load.what == "comment":
            continue
        if load.what == "fails" or record.format is not Format.AUTO_SCHEDULER:
            return {"loaded": None, "raises": True}
        if any(reader.read(f.spec).resolved is None for f in record.fields if f.spec or f.name == "target"):
            return {"loaded": None, "raises": True}
        cost = auto_scheduler_line(record.text).all_cost
        all_cost = all_cost if cost is None else cost
        loaded.append(all_cost)
    return {"loaded": loaded, "raises": False}


def check_fails(text: str) -> tuple[bool, str | None]:
    """Whether ``logs check --tvm-version 0.19`` reports a problem in ``text`` (records that do
    not say which TVM wrote them are read as v0.19, which recorded the goldens), and the loader
    it took it for."""
    checker, summary = Checker(TargetReader(assume="0.19")), CheckSummary("log")
    problems = [problem for record in records(text) for problem in checker.check(record, summary)]
    problems += checker.finish(summary)
    return bool(problems), summary.loading.loader


@pytest.mark.parametrize(("name", "row"), ROWS, ids=[f"{name}: {row['case']}" for name, row in ROWS])
def test_targetlang_loads_logs_as_tvm_did(name: str, row: dict[str, Any]) -> None:
    text = log_text(row)
    tvm = row["tvm"]
    if row["loader"] == "autotvm":
        assert autotvm_model(text) == expected_autotvm(tvm)
        tvm_raises = tvm["apply_history_best"]["raises"] is not None
    else:
        assert auto_scheduler_model(text) == {"loaded": tvm["loaded"], "raises": tvm["raises"] is not None}
        tvm_raises = tvm["raises"] is not None
    fails, loader = check_fails(text)
    if loader == row["loader"]:
        assert fails == tvm_raises


def test_check_sees_what_match_sees() -> None:
    # `logs check` asks autotvm_line not to build workloads (and takes a fast way for records as
    # TVM wrote them): it must still say what the full walk says, on every line of the goldens.
    for _, row in ROWS:
        for record in records(log_text(row)):
            fast, full = autotvm_line(record, workload=False), autotvm_line(record)
            assert repr(fast._replace(workload=None)) == repr(full._replace(workload=None))


def test_the_goldens_cover_each_class() -> None:
    assert Counter(name for name, _ in ROWS) == {
        "unloadable": 215,
        "results": 102,
        "versions": 157,
        "workloads": 46,
        "auto-scheduler": 148,
        "v01": 9,
        "dmlc": 95,
        "targets": 100,
    }


def test_check_takes_a_log_for_its_loaders_unless_it_holds_no_record_or_starts_with_another_tuners() -> None:
    # `logs check` knows a log's loader from its first record; the comparison with TVM above is
    # made for every log it takes for the loader the golden was recorded with. The others hold
    # no record at all (a blank or commented line alone: AutoTVM's, for `check`), or start with
    # the record of another tuner (an auto_scheduler or meta-schedule line fed to AutoTVM).
    others: Counter[str] = Counter()
    for _, row in ROWS:
        lines = records(log_text(row))
        loader = check_fails(log_text(row))[1]
        if loader == row["loader"]:
            continue
        first = next((r for r in lines if r.format not in (Format.COMMENT, Format.UNKNOWN)), None)
        if first is None:
            assert loader == "autotvm"
            others["no record"] += 1
        else:
            assert loader_of(first.format) == loader != row["loader"]
            others["another tuner's record first"] += 1
    # (logs-dmlc.jsonl: "{} alone" and "target null", which no reader takes for a record.)
    assert others == {"no record": 24, "another tuner's record first": 6}
