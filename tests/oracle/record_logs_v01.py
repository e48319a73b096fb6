"""Record what TVM v0.19's ``ApplyHistoryBest`` took from logs holding records of AutoTVM's log
format v0.1 (TopHub's arm_cpu_v0.01.log, and generated ones beside records of format v0.2): it
skips every v0.1 record ("AutoTVM log version 0.1 is no longer supported."), so a target finds
nothing in a v0.1 log. Goldens for tests/test_oracle_logs.py (see logs_oracle.py).

    /work/shared/tools/tvm-oracle/run.sh --tvm 019 tests/oracle/record_logs_v01.py [OUT]
"""

from __future__ import annotations

import sys
from typing import Any

from logs_oracle import TARGET, autotvm_record, line, main


def v01(number: int, cost: float, target: str = TARGET, error_no: int = 0) -> str:
    """A record of AutoTVM's log format v0.1, as TopHub's arm_cpu_v0.01.log has them."""
    config = {"e": [["tile_co", "sp", [8, 8]]], "t": "direct", "c": None, "i": number}
    args: list[Any] = [["TENSOR", [1, 64], "float32"], ["TENSOR", [32, 64], "float32"]]
    inp = [target, "dense_nopack.x86", args, {}, ["dense", [1, 64, "float32"], [32, 64, "float32"]], config]
    return line({"r": [[cost], error_no, 1.5, 1533118978.762497], "v": 0.1, "i": inp})


def v02(number: int, cost: float) -> str:
    return line(autotvm_record(number, result=[[cost], 0, 1.5, 1700000000.0]))


def logs() -> list[tuple[str, str]]:
    model = "llvm -device=arm_cpu -model=rk3399 -mtriple=aarch64-linux-gnu"
    return [
        ("one v0.1 record", v01(1, 0.001) + "\n"),
        ("v0.1 records of two targets", v01(1, 0.001) + "\n" + v01(2, 0.001, model) + "\n"),
        (
            "a v0.1 record with -target",
            v01(1, 0.001, "llvm -device=arm_cpu -model=rk3399 -target=aarch64-linux-gnu") + "\n",
        ),
        ("a faster v0.1 record before a v0.2 record", v01(1, 0.0001) + "\n" + v02(2, 0.001) + "\n"),
        ("a faster v0.1 record after a v0.2 record", v02(1, 0.001) + "\n" + v01(2, 0.0001) + "\n"),
        ("a v0.1 record with an error", v01(1, 0.001, error_no=4) + "\n" + v02(2, 0.002) + "\n"),
        ("a v0.1 record that is not one of v0.2's", line({"v": 0.1, "i": "anything"}) + "\n" + v02(2, 0.002) + "\n"),
        ("a v0.1 pickle row", "\t".join([TARGET, "gASV", "gASV", "gASV"]) + "\n" + v02(2, 0.002) + "\n"),
        ("TopHub arm_cpu_v0.01.log", "file:corpus/logs/autotvm/tophub_arm_cpu_v0.01.log"),
    ]


if __name__ == "__main__":
    main("v01", "autotvm", logs(), sys.argv)
