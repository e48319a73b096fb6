"""What the record_logs_*.py scripts of this folder share: loading generated tuning logs with TVM
v0.19's own loaders and writing what they did as JSON lines under tests/data/oracle/.

Each golden line is one log: ``case`` (what it tries), the log itself as ``log`` (its exact text;
or ``file``, a path under tests/data, for a real log of the corpus), ``loader`` (``autotvm`` or
``auto_scheduler``) and ``tvm``, what TVM v0.19 did with it:

* ``autotvm``: ``load`` is what iterating ``tvm.autotvm.record.load_from_file(path)`` gave:
  ``yielded``, one ``[config index, repr of np.mean(costs), error_no == 0]`` per record it
  yielded, and ``raises``, the class of the exception that ended it (or ``null``).
  ``apply_history_best`` is what ``tvm.autotvm.task.ApplyHistoryBest(path)`` built: ``raises``
  (or ``null``), and ``by_key`` and ``by_model``, its two indexes in insertion order, one
  ``[target key or model, workload as JSON text, config index of the record kept]`` per entry.
  The generated logs give each record its line number as config index, so the index names the
  line.
* ``auto_scheduler``: ``loaded``, the ``all_cost`` of each record
  ``tvm.auto_scheduler.load_records(path)`` returned (the generated logs put the line number
  there), and ``raises`` (or ``null``).

Run a script with the real TVM v0.19 oracle, from the repository root:

    /work/shared/tools/tvm-oracle/run.sh --tvm 019 tests/oracle/record_logs_CLASS.py [OUT]

OUT defaults to tests/data/oracle/logs-CLASS.jsonl.

This file is not a test (pytest does not collect it): it needs TVM, which the project's tests do
not.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import tempfile
import warnings
from collections.abc import Iterable
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[1] / "data"
OUT_DIR = DATA / "oracle"

# The target of the generated AutoTVM records: TVM v0.19 reads it with keys ["cpu"], no model.
TARGET = "llvm -mcpu=skylake"
CONFIG = {"index": 0, "code_hash": None, "entity": [["tile_x", "sp", [-1, 4]], ["unroll", "ot", False]]}


def autotvm_record(line: int, **fields: Any) -> dict[str, Any]:
    """An AutoTVM v0.2 record as TVM v0.19 wrote it, with ``line`` as its config index;
    ``fields`` replace its members (``...`` removes one)."""
    record: dict[str, Any] = {
        "input": [TARGET, "dense_nopack.x86", [["TENSOR", [1, 64], "float32"], ["TENSOR", [32, 64], "float32"]], {}],
        "config": {**CONFIG, "index": line},
        "result": [[0.001], 0, 1.5, 1700000000.0],
        "version": 0.2,
        "tvm_version": "0.19.0",
    }
    for name, value in fields.items():
        if value is ...:
            del record[name]
        else:
            record[name] = value
    return record


def line(record: Any) -> str:
    """A record as TVM's writer wrote it: ``json.dumps`` with the default separators."""
    return json.dumps(record)


def _quiet() -> None:
    warnings.simplefilter("ignore")
    logging.disable(logging.CRITICAL)


def _write(log: str) -> str:
    handle, path = tempfile.mkstemp(suffix=".log")
    with os.fdopen(handle, "wb") as out:
        out.write(log.encode("utf-8", "surrogateescape"))
    return path


def autotvm_outcome(log: str) -> dict[str, Any]:
    """What TVM v0.19's AutoTVM did with ``log``: ``load_from_file`` and ``ApplyHistoryBest``."""
    import numpy as np
    from tvm.autotvm.record import load_from_file
    from tvm.autotvm.task import ApplyHistoryBest

    _quiet()
    path = _write(log)
    try:
        yielded: list[list[Any]] = []
        raises = None
        try:
            for inp, res in load_from_file(path):
                yielded.append([inp.config.index, repr(float(np.mean(res.costs))), bool(res.error_no == 0)])
        except Exception as err:
            raises = type(err).__name__
        best: dict[str, Any]
        try:
            context = ApplyHistoryBest(path)
        except Exception as err:
            best = {"raises": type(err).__name__, "by_key": [], "by_model": []}
        else:
            best = {
                "raises": None,
                "by_key": [
                    [k, json.dumps(w), inp.config.index] for (k, w), (inp, _) in context.best_by_targetkey.items()
                ],
                "by_model": [
                    [m, json.dumps(w), inp.config.index] for (m, w), (inp, _) in context.best_by_model.items()
                ],
            }
        return {"load": {"yielded": yielded, "raises": raises}, "apply_history_best": best}
    finally:
        os.unlink(path)


def auto_scheduler_outcome(log: str) -> dict[str, Any]:
    """What TVM v0.19's ``auto_scheduler.load_records`` did with ``log``."""
    from tvm import auto_scheduler

    _quiet()
    path = _write(log)
    try:
        try:
            loaded = [float(res.all_cost) for _, res in auto_scheduler.load_records(path)]
        except Exception as err:
            return {"loaded": None, "raises": type(err).__name__}
        return {"loaded": loaded, "raises": None}
    finally:
        os.unlink(path)


def main(name: str, loader: str, cases: Iterable[tuple[str, str]], argv: list[str]) -> None:
    """Record each ``(case, log)`` into tests/data/oracle/logs-NAME.jsonl (or the path given as
    the first argument). A case whose log is ``file:PATH`` names a file under tests/data."""
    outcome = autotvm_outcome if loader == "autotvm" else auto_scheduler_outcome
    out = Path(argv[1]) if len(argv) > 1 else OUT_DIR / f"logs-{name}.jsonl"
    out.parent.mkdir(parents=True, exist_ok=True)
    rows = []
    for case, log in cases:
        if log.startswith("file:"):
            where = {"file": log[len("file:") :]}
            text = (DATA / where["file"]).read_text(encoding="utf-8")
        else:
            where, text = {"log": log}, log
        rows.append({"case": case, **where, "loader": loader, "tvm": outcome(text)})
    with out.open("w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"{len(rows)} rows -> {out}", file=sys.stderr)
