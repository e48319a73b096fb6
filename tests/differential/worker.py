"""The TVM side of the differential harness: a worker process that answers one input a line.

Started by the harness (never by hand) as ``ORACLE_PYTHON tests/differential/worker.py AREA``
with the Python of a real TVM: the shared oracle's ``run.sh --tvm 021`` or ``--tvm 019``, or the
Python of a venv holding apache-tvm 0.27. It speaks the protocol of tests/oracle/oracle_common.py
(``serve``: one ``repr`` of an input a line in, one marked JSON outcome a line out) and records
TVM's outcome with that module's functions, so the goldens it feeds have the existing format.

* ``target``: ``tvm.target.Target(spec)`` (``oracle_common.target_outcome``);
* ``tvm027``: ``tvm.target.Target(config)`` of apache-tvm 0.27 (the same function);
* ``tvmc``: tvmc's flags and ``target_from_cli`` (``record_tvmc_flags.outcome``);
* ``logs``: AutoTVM's ``load_from_file``/``ApplyHistoryBest`` or auto_scheduler's
  ``load_records`` on a log text (``logs_oracle``); the input is ``(loader, log)``.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

ORACLE_DIR = Path(__file__).resolve().parents[1] / "oracle"


def main(area: str) -> None:
    sys.path.insert(0, str(ORACLE_DIR))
    common = importlib.import_module("oracle_common")
    if area in ("target", "tvm027"):
        outcome = common.target_outcome
    elif area == "tvmc":
        outcome = importlib.import_module("record_tvmc_flags").outcome
    elif area == "logs":
        logs = importlib.import_module("logs_oracle")

        def outcome(spec: Any) -> dict[str, Any]:
            loader, log = spec
            result: dict[str, Any] = (
                logs.autotvm_outcome(log) if loader == "autotvm" else logs.auto_scheduler_outcome(log)
            )
            return result

    else:
        raise SystemExit(f"unknown area {area!r}")
    importlib.import_module("tvm")  # fail here, not on the first input, when TVM is missing

    common.serve(outcome)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "target")
