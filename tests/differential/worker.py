"""The TVM side of the differential harness: a worker process that answers one input a line.

Started by the harness (never by hand) as ``ORACLE_PYTHON tests/differential/worker.py AREA``
with the Python of a real TVM: the shared oracle's ``run.sh --tvm 021`` or ``--tvm 019``, or the
Python of a venv holding apache-tvm 0.27. It speaks the protocol of tests/oracle/oracle_common.py
(``serve``: one ``repr`` of an input a line in, one marked JSON outcome a line out) and records
TVM's outcome with that module's functions, so the goldens it feeds have the existing format.

* ``target``: ``tvm.target.Target(spec)`` (``oracle_common.target_outcome``), with the Python of
  v0.21 (the ``target`` area) or v0.19 (the ``release`` area);
* ``tvm027``: ``tvm.target.Target(config)`` of apache-tvm 0.27 (the same function);
* ``tvmc``: tvmc's flags and ``target_from_cli`` (``record_tvmc_flags.outcome``);
* ``logs``: AutoTVM's ``load_from_file``/``ApplyHistoryBest`` or auto_scheduler's
  ``load_records`` on a log text (``logs_oracle``); the input is ``(loader, log)``, or
  ``("autotvm", log, queries)`` (``queries`` as JSON text: ``repr`` cannot carry a NaN): then
  also ``queries``, what ``ApplyHistoryBest(log)`` answered (``_query_inside``, the
  dispatcher's own lookup) for each ``[target, task name, arguments]`` (:func:`dispatch_queries`).
"""

from __future__ import annotations

import importlib
import json
import re
import sys
from pathlib import Path
from typing import Any

ORACLE_DIR = Path(__file__).resolve().parents[1] / "oracle"


def _python(value: Any) -> Any:
    """AutoTVM's ``clean_json_to_python`` (record.py, v0.19): JSON arrays as tuples."""
    if isinstance(value, list):
        return tuple(_python(item) for item in value)
    return value


def dispatch_queries(logs: Any, log: str, queries: list[list[Any]]) -> list[Any]:
    """For each ``[target, task name, arguments]``: what TVM v0.19's dispatcher found for that
    target and workload in ``ApplyHistoryBest(log)``: ``{"model", "keys", "index", "cost"}`` (the
    config index and mean cost of the record returned, ``null`` when none), ``{"target_raises": class}`` when
    ``Target(target)`` raised, or ``null`` for all queries when ``ApplyHistoryBest`` raised."""
    import os

    # imported by name, so that type checkers do not follow them into TVM
    ApplyHistoryBest = importlib.import_module("tvm.autotvm.task").ApplyHistoryBest
    Task = importlib.import_module("tvm.autotvm.task.task").Task
    Target = importlib.import_module("tvm.target").Target

    path = logs._write(log)
    try:
        try:
            context = ApplyHistoryBest(path)
        except Exception:
            return [None for _ in queries]
    finally:
        os.unlink(path)
    answers: list[Any] = []
    for target, name, args in queries:
        try:
            tgt = Target(target)
        except Exception as err:
            answers.append({"target_raises": type(err).__name__})
            continue
        try:
            workload = Task(_python(name), _python(args)).workload
        except Exception as err:  # arguments no task has: no dispatcher is ever asked this
            answers.append({"workload_raises": type(err).__name__})
            continue
        config = context._query_inside(tgt, workload)
        found = config is not None
        answers.append(
            {
                "model": str(tgt.model),
                "keys": [str(k) for k in tgt.keys],
                "index": config.index if found else None,
                "cost": repr(float(config.cost)) if found else None,
            }
        )
    return answers


_ERROR_LINE = re.compile(r"\w*Error: ")


def with_detail(record: Any) -> Any:
    """``oracle_common.error_record`` and, for an error of v0.19 (whose text is a C++ traceback,
    then the message; the last line kept, when the input holds newlines, is the end of its echo,
    and after a LOG(FATAL) re-raise the echo only), ``detail``: the line that says what failed."""

    def detailed(err: BaseException) -> dict[str, Any]:
        out: dict[str, Any] = record(err)
        lines = str(err).strip().splitlines()
        if lines and lines[0].startswith("Traceback"):
            # the message starts at the first line naming an error after the frames; its last
            # line can be the end of an input holding newlines
            found = [i for i, line in enumerate(lines) if _ERROR_LINE.match(line)]
            if found:
                # up to the echo of the input, newlines and all (a key or kind can hold one)
                rest = lines[found[0] :]
                end = next((i for i, line in enumerate(rest) if "Target creation from" in line), len(rest) - 1)
                detail = " ".join(line.strip() for line in rest[: end + 1])
                if detail != out["message"]:
                    out["detail"] = detail[:600]
        return out

    return detailed


def main(area: str) -> None:
    sys.path.insert(0, str(ORACLE_DIR))
    common = importlib.import_module("oracle_common")
    detailed = with_detail(common.__dict__["error_record"])
    common.__dict__["error_record"] = detailed
    if area in ("target", "tvm027"):
        outcome = common.target_outcome
    elif area == "tvmc":
        module = importlib.import_module("record_tvmc_flags")
        module.__dict__["error_record"] = detailed
        outcome = module.outcome
    elif area == "logs":
        logs = importlib.import_module("logs_oracle")

        def outcome(spec: Any) -> dict[str, Any]:
            loader, log = spec[0], spec[1]
            result: dict[str, Any] = (
                logs.autotvm_outcome(log) if loader == "autotvm" else logs.auto_scheduler_outcome(log)
            )
            if loader == "autotvm" and len(spec) > 2:
                result["queries"] = dispatch_queries(logs, log, json.loads(spec[2]))
            return result

    else:
        raise SystemExit(f"unknown area {area!r}")
    importlib.import_module("tvm")  # fail here, not on the first input, when TVM is missing

    common.serve(outcome)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "target")
