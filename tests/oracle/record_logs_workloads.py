"""Record which records TVM v0.19's ``ApplyHistoryBest`` took for one workload: a workload is the
task name and arguments made Python tuples (``1``, ``1.0`` and ``true`` are one value), and one
whose arguments it cannot hash makes it raise. Each log holds a slower record, then a faster one:
one index entry means one workload. The real TopHub logs of AutoTVM v0.2 are recorded whole.
Goldens for tests/test_oracle_logs.py (see logs_oracle.py).

    /work/shared/tools/tvm-oracle/run.sh --tvm 019 tests/oracle/record_logs_workloads.py [OUT]
"""

from __future__ import annotations

import sys
from typing import Any

from logs_oracle import TARGET, autotvm_record, line, main

NAN, INF = float("nan"), float("inf")
TENSOR = ["TENSOR", [1, 64], "float32"]

# Pairs of (task name, arguments) of the two records.
PAIRS: list[tuple[str, tuple[Any, Any], tuple[Any, Any]]] = [
    ("1 and 1.0", ("dense", [1]), ("dense", [1.0])),
    ("1 and true", ("dense", [1]), ("dense", [True])),
    ("1.0 and true", ("dense", [1.0]), ("dense", [True])),
    ("0 and false", ("dense", [0]), ("dense", [False])),
    ("0 and -0.0", ("dense", [0]), ("dense", [-0.0])),
    ("1 and '1'", ("dense", [1]), ("dense", ["1"])),
    ("1 and [1]", ("dense", [1]), ("dense", [[1]])),
    ("nested 1 and 1.0", ("dense", [[1, 2], [3]]), ("dense", [[1.0, 2], [3.0]])),
    ("tensor shapes 1 and 1.0", ("dense", [TENSOR]), ("dense", [["TENSOR", [1.0, 64.0], "float32"]])),
    ("null and null", ("dense", [None]), ("dense", [None])),
    ("NaN and NaN", ("dense", [NAN]), ("dense", [NAN])),
    ("Infinity and Infinity", ("dense", [INF]), ("dense", [INF])),
    ("2**53 and 2.0**53", ("dense", [2**53]), ("dense", [2.0**53])),
    ("2**53 + 1 and 2.0**53", ("dense", [2**53 + 1]), ("dense", [2.0**53])),
    ("10**16 and 1e16", ("dense", [10**16]), ("dense", [1e16])),
    ("10**400 and 10**400", ("dense", [10**400]), ("dense", [10**400])),
    ("'ab' and ['a', 'b']", ("dense", "ab"), ("dense", ["a", "b"])),
    ("{} and []", ("dense", {}), ("dense", [])),
    ("{'a': 1} and ['a']", ("dense", {"a": 1}), ("dense", ["a"])),
    ("[] and []", ("dense", []), ("dense", [])),
    ("names 'dense' and ['dense']", ("dense", [1]), (["dense"], [1])),
    ("names 1 and 1.0", (1, [1]), (1.0, [1])),
    ("names 1 and true", (1, [1]), (True, [1])),
    ("names null and null", (None, [1]), (None, [1])),
    ("names [[1]] and [[1.0]]", ([[1]], [1]), ([[1.0]], [1])),
    ("names 'dense' and 'conv2d'", ("dense", [1]), ("conv2d", [1])),
    ("arguments [1, 2] and [2, 1]", ("dense", [1, 2]), ("dense", [2, 1])),
]

# Arguments and names a record cannot have: TVM raises while reading it, or while indexing it.
BAD: list[tuple[str, Any, Any]] = [
    ("an object among the arguments", "dense", [{"a": 1}]),
    ("an object deep in the arguments", "dense", [[1, {"a": 1}]]),
    ("arguments null", "dense", None),
    ("arguments a number", "dense", 5),
    ("arguments true", "dense", True),
    ("a name that is an object", {"a": 1}, [1]),
    ("a name holding an object", [{"a": 1}], [1]),
]


def record(number: int, name: Any, args: Any, cost: float, error_no: int = 0, kwargs: Any = None) -> str:
    entry = autotvm_record(number, result=[[cost], error_no, 1.5, 1700000000.0])
    entry["input"] = [TARGET, name, args, {} if kwargs is None else kwargs]
    return line(entry)


def pair_logs() -> list[tuple[str, str]]:
    cases = []
    for case, (name1, args1), (name2, args2) in PAIRS:
        cases.append((case, record(1, name1, args1, 0.002) + "\n" + record(2, name2, args2, 0.001) + "\n"))
    cases.append(
        (
            "kwargs {} and {'x': 1}",
            record(1, "dense", [1], 0.002) + "\n" + record(2, "dense", [1], 0.001, kwargs={"x": 1}) + "\n",
        )
    )
    # 1e999 is a JSON number Python reads as infinity; json.dumps writes Infinity.
    cases.append(
        (
            "1e999 and Infinity",
            record(1, "dense", [1.0], 0.002).replace("[1.0]", "[1e999]")
            + "\n"
            + record(2, "dense", [INF], 0.001)
            + "\n",
        )
    )
    cases.append(
        (
            "three: 1, 1.0, true",
            "\n".join(record(n, "dense", [v], 0.003 - n * 0.001 + 0.0005) for n, v in ((1, 1), (2, 1.0), (3, True)))
            + "\n",
        )
    )
    for case, name, args in BAD:
        good = record(1, "dense", [1], 0.001)
        cases.append((case, good + "\n" + record(2, name, args, 0.001) + "\n"))
        cases.append((f"{case}, measured with an error", good + "\n" + record(2, name, args, 0.001, error_no=4) + "\n"))
    return cases


if __name__ == "__main__":
    real = [
        ("TopHub llvm_v0.04.log", "file:corpus/logs/autotvm/tophub_llvm_v0.04.log"),
        ("TopHub vta_v0.10.log", "file:corpus/logs/autotvm/tophub_vta_v0.10.log"),
    ]
    main("workloads", "autotvm", [*pair_logs(), *real], sys.argv)
