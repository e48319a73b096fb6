"""Record how TVM v0.19's AutoTVM read the ``result`` of a record: the mean cost ``np.mean(costs)``
(or the exception it raised), whether ``ApplyHistoryBest`` indexed the record (``error_no != 0``
skips it), and which of several records of one workload it kept. Goldens for
tests/test_oracle_logs.py (see logs_oracle.py).

    /work/shared/tools/tvm-oracle/run.sh --tvm 019 tests/oracle/record_logs_results.py [OUT]
"""

from __future__ import annotations

import random
import sys
from typing import Any

from logs_oracle import TARGET, autotvm_record, line, main

INF, NAN = float("inf"), float("nan")

COSTS: list[Any] = [
    [0.001],
    [],
    [[]],
    [[], []],
    [0.001, 0.002, 0.003],
    0.001,
    0,
    True,
    [True],
    [True, False],
    [1, 2],
    ["0.001"],
    "0.001",
    [None],
    None,
    {},
    [{}],
    [[0.001], [0.002]],
    [[0.001], [0.002, 0.003]],
    [0.001, [0.002]],
    [[[0.001, 0.002]], [[0.003, 0.004]]],
    [INF],
    [NAN],
    [-INF, INF],
    [1e308, 1e308],
    [10**30],
    [10**30, 0.5],
    [10**400],
    [2**63],
    [2**64],
    [-(2**63) - 1],
    [1, "a"],
    [1, None],
    [0.1] * 9,
    [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1],
]

ERROR_NOS: list[Any] = [0, 1, 4, "0", "1", "", 0.0, -0.0, 1.5, False, True, None, [], [0], {}, NAN, INF]


def workload(n: int) -> list[Any]:
    """The input of a record whose workload is its own (``n``)."""
    return [TARGET, "dense_nopack.x86", [["TENSOR", [1, n], "float32"]], {}]


def single_logs() -> list[tuple[str, str]]:
    cases = []
    for costs in COSTS:
        for error_no in (0, 1):
            result = [costs, error_no, 1.5, 1700000000.0]
            cases.append((f"costs {costs!r}, error_no {error_no}", line(autotvm_record(1, result=result)) + "\n"))
    for error_no in ERROR_NOS:
        result = [[0.001], error_no, 1.5, 1700000000.0]
        cases.append((f"error_no {error_no!r}", line(autotvm_record(1, result=result)) + "\n"))
    return cases


def several(*results: tuple[Any, Any], model: bool = False) -> str:
    """Records of one workload, one per ``(costs, error_no)``, on lines 1, 2, ..."""
    target = TARGET + " -model=m1" if model else TARGET
    lines = []
    for n, (costs, error_no) in enumerate(results, 1):
        record = autotvm_record(n, result=[costs, error_no, 1.5, 1700000000.0])
        record["input"][0] = target
        lines.append(line(record))
    return "\n".join(lines) + "\n"


def contest_logs() -> list[tuple[str, str]]:
    return [
        ("the faster record is kept", several(([0.002], 0), ([0.001], 0))),
        ("the first of equals is kept", several(([0.001], 0), ([0.001], 0))),
        ("equal means of different costs", several(([0.1, 0.2, 0.3], 0), ([0.2, 0.2, 0.2], 0))),
        ("a failed measurement is not indexed", several(([0.002], 0), ([0.001], 4))),
        ("error_no '0' is not indexed", several(([0.002], 0), ([0.001], "0"))),
        ("error_no false is indexed", several(([0.002], 0), ([0.001], False))),
        ("error_no 0.0 is indexed", several(([0.002], 0), ([0.001], 0.0))),
        ("empty costs first: the NaN mean stays", several(([], 0), ([0.001], 0), ([0.0005], 0))),
        ("empty costs later: never kept", several(([0.001], 0), ([], 0))),
        ("NaN first stays", several(([NAN], 0), ([0.001], 0))),
        ("infinite cost replaced", several(([INF], 0), ([0.001], 0))),
        ("a scalar cost", several(([0.002], 0), (0.001, 0))),
        ("by model too", several(([0.002], 0), ([0.001], 0), ([0.001], 0), model=True)),
        ("empty costs first, by model", several(([], 0), ([0.001], 0), model=True)),
    ]


def mean_logs() -> list[tuple[str, str]]:
    """Records of many costs, each its own workload: numpy's mean sums pairwise from 8 on."""
    rng = random.Random(19)
    lines = []
    for n, size in enumerate([1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 31, 100, 128, 129, 200, 257, 1000], 1):
        costs: list[Any] = [rng.random() * 10 ** rng.randint(-6, 2) for _ in range(size)]
        if n % 4 == 0:
            costs = [rng.randint(0, 10**6) for _ in range(size)]
        lines.append(line(autotvm_record(n, input=workload(n), result=[costs, 0, 1.5, 1700000000.0])))
    mixed = [True, 3, 0.5, False, 2**40, 1e-9, 7, 0.25, 1, 2.5]
    lines.append(line(autotvm_record(len(lines) + 1, input=workload(0), result=[mixed, 0, 1.5, 1700000000.0])))
    return [("pairwise sums", "\n".join(lines) + "\n")]


if __name__ == "__main__":
    main("results", "autotvm", [*single_logs(), *contest_logs(), *mean_logs()], sys.argv)
