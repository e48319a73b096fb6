"""Record which lines TVM v0.19's auto_scheduler ``RecordReader`` (``load_records``) read as records,
which it skipped as comments (a line starting with ``#`` or with a space), and which made it raise
(a blank line, or one that is no record), in generated logs and in the real logs of the corpus.
Goldens for tests/test_oracle_logs.py (see logs_oracle.py).

    /work/shared/tools/tvm-oracle/run.sh --tvm 019 tests/oracle/record_logs_auto_scheduler.py [OUT]
"""

from __future__ import annotations

import json
import sys
from typing import Any

from logs_oracle import autotvm_record, line, main

BLANKS = ["", " ", "   ", "\t", " \t", "\t ", "\x0b", "\x0c", "\u00a0", " \x0c "]
PREFIXES = [" ", "  ", " \t", "\t", "\t ", "\x0c", "#", " #", "\ufeff"]


def record(number: int) -> str:
    """An auto_scheduler record as TVM v0.19 wrote it, with ``number`` as its all_cost."""
    value: dict[str, Any] = {
        "i": [
            ['["matmul_add", 64, 64, 64, "float32"]', "llvm -keys=cpu", [8, 64, 64, 0, 0, 0, 0, 0], "", 2, []],
            [[], [["SP", 2, 0, 64, [2, 1, 4], 1], ["AN", 2, 9, 2]]],
        ],
        "r": [[0.001], 0, float(number), 1700000000],
        "v": "v0.6",
    }
    return json.dumps(value)


def logs() -> list[tuple[str, str]]:
    cases = [("three records", f"{record(1)}\n{record(2)}\n{record(3)}\n")]
    for prefix in PREFIXES:
        for place in ("only", "first", "middle", "last"):
            lines = {
                "only": [prefix + record(1)],
                "first": [prefix + record(1), record(2)],
                "middle": [record(1), prefix + record(2), record(3)],
                "last": [record(1), prefix + record(2)],
            }[place]
            cases.append((f"a record after {prefix!r} ({place})", "\n".join(lines) + "\n"))
    for blank in BLANKS:
        for place in ("only", "first", "middle", "last", "last, no line break"):
            for newline in ("\n", "\r\n"):
                if place == "last, no line break" and not blank:
                    continue
                lines = {
                    "only": [blank],
                    "first": [blank, record(2)],
                    "middle": [record(1), blank, record(3)],
                    "last": [record(1), blank],
                    "last, no line break": [record(1), blank],
                }[place]
                end = "" if place == "last, no line break" else newline
                cases.append((f"blank line {blank!r} ({place}, {newline!r})", newline.join(lines) + end))
    for text in (" garbage", "garbage", "\tgarbage", " " + line(autotvm_record(2)), " {", " #"):
        cases.append((f"a line {text[:12]!r}... between records", f"{record(1)}\n{text}\n{record(3)}\n"))
    cases.append(("spaces after a record", f"{record(1)}   \n{record(2)}\n"))
    return cases


REAL = [
    ("apache/tvm v0.19.0 ci_logs/matmul.json", "file:corpus/logs/auto_scheduler/tvm-v0.19.0_matmul.json"),
    (
        "apache/tvm v0.19.0 ci_logs/resnet-50-NHWC-B1-llvm.json",
        "file:corpus/logs/auto_scheduler/tvm-v0.19.0_resnet-50-NHWC-B1-llvm.json",
    ),
    ("apache/tvm v0.8.0 ci_logs/matmul.json", "file:corpus/logs/auto_scheduler/tvm-v0.8.0_matmul.json"),
    ("apache/tvm v0.19.0 ci_logs/sparse_dense.json", "file:corpus/logs/auto_scheduler/tvm-v0.19.0_sparse_dense.json"),
    (
        "apache/tvm v0.8.0 ci_logs/resnet-18-NHWC-B1-cuda.json",
        "file:corpus/logs/auto_scheduler/tvm-v0.8.0_resnet-18-NHWC-B1-cuda.json",
    ),
    (
        "tlc-pack/TLCBench afd738c saved_logs/2020_01_09/autoscheduler/t4/bert-B1-float32.json",
        "file:corpus/logs/auto_scheduler/tlcbench-afd738c_t4_bert-B1-float32.json",
    ),
]

if __name__ == "__main__":
    main("auto-scheduler", "auto_scheduler", [*logs(), *REAL], sys.argv)
