"""Record what TVM v0.19's auto_scheduler ``load_records`` did with records its dmlc JSON reader
(include/dmlc/json.h; src/auto_scheduler/measure_record.cc) reads otherwise than ``json.loads``:
members missing (a record reuses the input and result of the record before it), repeated or
unknown; the search task's optional members (hardware params, host, layout rewrite option, task
input names); the types and numbers of the result's and the transform steps' members; escapes,
C's white space, text after the record, truncated lines; and targets TVM v0.19 cannot build.
Goldens for tests/test_oracle_logs.py (see logs_oracle.py).

    /work/shared/tools/tvm-oracle/run.sh --tvm 019 tests/oracle/record_logs_dmlc.py [OUT]
"""

from __future__ import annotations

import json
import sys
from typing import Any

from logs_oracle import main

KEY = '["matmul_add", 64, 64, 64, "float32"]'
HW = [8, 64, 64, 0, 0, 0, 0, 0]
STEPS: list[Any] = [["SP", 2, 0, 64, [2, 1, 4], 1], ["AN", 2, 9, 2]]


def value(number: int, **members: Any) -> dict[str, Any]:
    """An auto_scheduler record as TVM v0.19 wrote it, ``number`` its all_cost; ``members``
    replace its own (``...`` removes one; ``task``, ``state`` and ``steps`` replace parts of "i")."""
    task = members.pop("task", [KEY, "llvm -keys=cpu", HW, "", 2, []])
    state = members.pop("state", [[], members.pop("steps", STEPS)])
    record: dict[str, Any] = {"i": [task, state], "r": [[0.001], 0, float(number), 1700000000], "v": "v0.6"}
    for name, member in members.items():
        if member is ...:
            del record[name]
        else:
            record[name] = member
    return record


def record(number: int, **members: Any) -> str:
    return json.dumps(value(number, **members))


def with_result(number: int, result: str) -> str:
    """A record whose "r" is the text ``result`` (numbers json.dumps would not write)."""
    return record(number, r=[]).replace('"r": []', f'"r": {result}')


def logs() -> list[tuple[str, str]]:
    one, two, three = record(1), record(2), record(3)
    cases: list[tuple[str, str]] = []

    def add(case: str, *lines: str) -> None:
        cases.append((case, "\n".join(lines) + "\n"))

    # Members missing, repeated, unknown.
    add("no v", record(1, v=...))
    add("no r, first", record(1, r=...), two)
    add("no r, after a record", one, record(2, r=...))
    add("no i, first", record(1, i=...), two)
    add("no i, after a record", one, record(2, i=...))
    add("no i and no r, after a record", one, record(2, i=..., r=...))
    add("{} after a record", one, "{}")
    add("{} alone", "{}")
    add("no i, after a record with a bad target", record(1, task=[KEY, "", HW, "", 2, []]), record(2, i=...))
    add("an unknown member", one, json.dumps({**value(2), "x": 1}))
    add("i twice, the first bad", one, record(2).replace('{"i": ', '{"i": 5, "i": ', 1))
    add("r twice", one, record(2).replace('"v": ', '"r": [[0.5], 0, 7.0, 1], "v": ', 1))
    add("v a number", one, record(2, v=0.6))
    add("v null", one, record(2, v=None))
    # The search task.
    add("task without hardware params", record(1, task=[KEY, "llvm -keys=cpu"]))
    add("task of 3", record(1, task=[KEY, "llvm -keys=cpu", HW]))
    add("host without layout rewrite option", record(1, task=[KEY, "llvm -keys=cpu", HW, "llvm"]))
    add("host '' without layout rewrite option", record(1, task=[KEY, "llvm -keys=cpu", HW, ""]))
    add("host 'llvm', layout rewrite option", record(1, task=[KEY, "llvm -keys=cpu", HW, "llvm", 2]))
    add("host 'c', task input names", record(1, task=[KEY, "llvm -keys=cpu", HW, "c", 0, ["a", "b"]]))
    add("host 'cuda'", record(1, task=[KEY, "llvm -keys=cpu", HW, "cuda", 2, []]))
    add("host 'foo'", record(1, task=[KEY, "llvm -keys=cpu", HW, "foo", 2, []]))
    add("task of 7", record(1, task=[KEY, "llvm -keys=cpu", HW, "", 2, [], 1]))
    add("task input names not strings", record(1, task=[KEY, "llvm -keys=cpu", HW, "", 2, [1]]))
    add("layout rewrite option 2.0", record(1, task=[KEY, "llvm -keys=cpu", HW, "", 2.0, []]))
    add("hardware params of 7", record(1, task=[KEY, "llvm -keys=cpu", HW[:7], "", 2, []]))
    add("hardware params of 9", record(1, task=[KEY, "llvm -keys=cpu", [*HW, 0], "", 2, []]))
    add("hardware params with 64.0", record(1, task=[KEY, "llvm -keys=cpu", [8, 64.0, 64, 0, 0, 0, 0, 0], "", 2, []]))
    add("hardware params with 2**31", record(1, task=[KEY, "llvm -keys=cpu", [8, 2**31, 64, 0, 0, 0, 0, 0], "", 2, []]))
    add("workload key a number", record(1, task=[1, "llvm -keys=cpu", HW, "", 2, []]))
    add("workload key 'x'", record(1, task=["x", "llvm -keys=cpu", HW, "", 2, []]))
    add("target null", record(1, task=[KEY, None, HW, "", 2, []]))
    # Targets TVM v0.19 builds, or not.
    for target in ("", "  llvm", "llvm -vector-width=256", "llvm -mcpu=sky'ake", "llvm -keys='aarch64-linux-gnu'",
                   "llvm -keys=1", "cuda -model=1080ti", "nope"):  # fmt: skip
        add(f"target {target!r}", one, record(2, task=[KEY, target, HW, "", 2, []]))
    # The state and its transform steps.
    add("state of 1", record(1, state=[[]]))
    add("stages not empty", record(1, state=[[1], STEPS]))
    add("no steps", record(1, steps=[]))
    add("an unknown step", record(1, steps=[["XX", 1]]))
    add("an empty step", record(1, steps=[[]]))
    add("a step with too few members", record(1, steps=[["AN", 2, 9]]))
    add("a step with too many members", record(1, steps=[["AN", 2, 9, 2, 1]]))
    add("a split whose inner_to_outer is 2", record(1, steps=[["SP", 2, 0, 64, [2, 1, 4], 2]]))
    add("a split whose lengths hold 1.5", record(1, steps=[["SP", 2, 0, 64, [2, 1.5], 1]]))
    add("a pragma whose type is a number", record(1, steps=[["PR", 2, 0, 8]]))
    add("each step kind", record(1, steps=[
        ["AN", 2, 9, 2], ["FU", 4, [0, 1]], ["PR", 2, 0, "auto_unroll_max_step$8"], ["RE", 2, [0, 1]],
        ["SP", 2, 0, 64, [2, 1, 4], 1], ["FSP", 4, 0, 0, 2], ["FFSP", 4, 0, [1, 2], 1, 1], ["SA", 2, 0, 8, 0],
        ["CA", 2, 4, 3], ["CI", 1], ["CR", 1], ["CHR", 1, "shared", [2]], ["CHW", 3, "local"], ["RF", 2, 0, 1],
    ]))  # fmt: skip
    # The result.
    for name, result in (
        ("all_cost true", "[[0.001], 0, true, 1700000000]"),
        ("all_cost a string", '[[0.001], 0, "x", 1700000000]'),
        ("all_cost null", "[[0.001], 0, null, 1700000000]"),
        ("all_cost 7 (an int)", "[[0.001], 0, 7, 1700000000]"),
        ("all_cost 1e400", "[[0.001], 0, 1e400, 1700000000]"),
        ("all_cost 1e-400", "[[0.001], 0, 1e-400, 1700000000]"),
        ("all_cost NaN", "[[0.001], 0, NaN, 1700000000]"),
        ("all_cost -0.0", "[[0.001], 0, -0.0, 1700000000]"),
        ("all_cost .5", "[[0.001], 0, .5, 1700000000]"),
        ("all_cost 5.", "[[0.001], 0, 5., 1700000000]"),
        ("all_cost +5", "[[0.001], 0, +5, 1700000000]"),
        ("all_cost 1e", "[[0.001], 0, 1e, 1700000000]"),
        ("error_no 0.0", "[[0.001], 0.0, 2, 1700000000]"),
        ("error_no 1e0", "[[0.001], 1e0, 2, 1700000000]"),
        ("error_no 2147483648", "[[0.001], 2147483648, 2, 1700000000]"),
        ("error_no -2147483648", "[[0.001], -2147483648, 2, 1700000000]"),
        ("error_no +0", "[[0.001], +0, 2, 1700000000]"),
        ("error_no true", "[[0.001], true, 2, 1700000000]"),
        ("costs []", "[[], 0, 2, 1700000000]"),
        ("costs [true]", "[[true], 0, 2, 1700000000]"),
        ("costs [[0.1]]", "[[[0.1]], 0, 2, 1700000000]"),
        ("costs 0.1", "[0.1, 0, 2, 1700000000]"),
        ("result of 3", "[[0.001], 0, 2]"),
        ("result of 5", "[[0.001], 0, 2, 1700000000, 0]"),
        ("result a string", '"x"'),
        ("result null", "null"),
        ("timestamp 1.5", "[[0.001], 0, 2, 1.5]"),
    ):
        add(f"result: {name}", one, with_result(2, result))
    # The text: escapes, white space, what follows the record, truncation.
    add("a \\u escape in the target", one, record(2).replace('"llvm -keys=cpu"', '"llvm\\u0020-keys=cpu"'))
    add("a \\/ escape in the target", one, record(2).replace('"llvm -keys=cpu"', '"llvm -keys=cpu\\/x"'))
    add("a \\t escape in the target", one, record(2).replace('"llvm -keys=cpu"', '"llvm\\t-keys=cpu"'))
    add("a raw tab in the target", one, record(2).replace('"llvm -keys=cpu"', '"llvm\t-keys=cpu"'))
    add("a \\u escape in the workload key", one, record(2).replace("matmul_add", "matmul\\u005fadd"))
    add("text after the record", one, record(2) + " garbage")
    add("a second record after the record", one, record(2) + record(3))
    add("no closing brace", one, record(2)[:-1])
    add("truncated in the timestamp", one, record(2, v=...)[:-4])
    add("truncated after the result", one, record(2, v=...).rsplit("]", 1)[0])
    add("truncated in the version", one, record(2)[:-3])
    add("truncated in the steps", one, record(2)[:120])
    add("compact separators", one, json.dumps(value(2), separators=(",", ":")))
    add("spaces inside", one, record(2).replace(", ", " ,  ").replace(": ", " : "))
    add("a vertical tab inside", one, record(2).replace(", ", ",\x0b"))
    add("a carriage return at the end", one + "\r", three)
    add("three records", one, two, three)
    return cases


if __name__ == "__main__":
    main("dmlc", "auto_scheduler", logs(), sys.argv)
