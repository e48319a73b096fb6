"""Record which lines TVM v0.19's AutoTVM loader read as records of its log format v0.2, which it
skipped as format v0.1 ("AutoTVM log version 0.1 is no longer supported."), and which made it
raise: objects with ``input`` or ``i`` and each kind of ``v`` and ``version``, other JSON values,
pickle rows. Goldens for tests/test_oracle_logs.py (see logs_oracle.py).

    /work/shared/tools/tvm-oracle/run.sh --tvm 019 tests/oracle/record_logs_versions.py [OUT]
"""

from __future__ import annotations

import itertools
import json
import sys
from typing import Any

from logs_oracle import TARGET, autotvm_record, line, main

MISSING = object()


def v01_input(line_number: int) -> list[Any]:
    """``i`` of an AutoTVM log v0.1 record, as TopHub's arm_cpu_v0.01.log has them."""
    config = {"e": [["tile_co", "sp", [8, 8]]], "t": "direct", "c": None, "i": line_number}
    return [TARGET, "topi_nn_dense", [["TENSOR", [1, 64], "float32"]], {}, ["dense", [1, 64, "float32"]], config]


V_VALUES: list[Any] = [MISSING, 0.1, 0.2, "0.1", "v0.6", 1, 0, None, True, [0.1]]
# Other spellings of the number 0.1, written into the line as they stand.
V_TEXTS = ["1e-1", "0.10", "0.1000000000000000055511151231257827", "0.1000001"]
VERSIONS: list[Any] = [MISSING, 0.1, 0.2]


def object_logs() -> list[tuple[str, str]]:
    cases = []
    for members, v, version in itertools.product(("input", "i", "input and i", "neither"), V_VALUES, VERSIONS):
        record: dict[str, Any] = {}
        if "input" in members:
            record.update(autotvm_record(1))
            del record["version"]
        if members.endswith("i") or members == "i":
            record["i"] = v01_input(1)
            record["r"] = [[0.001], 0, 1.5, 1700000000.0]
        if members == "neither":
            record["config"] = autotvm_record(1)["config"]
        if v is not MISSING:
            record["v"] = v
        if version is not MISSING:
            record["version"] = version
        v_text = "no v" if v is MISSING else f"v {json.dumps(v)}"
        version_text = "no version" if version is MISSING else f"version {json.dumps(version)}"
        cases.append((f"{members}, {v_text}, {version_text}", line(record) + "\n"))
    for members, text in itertools.product(("input", "i"), V_TEXTS):
        record = autotvm_record(1) if members == "input" else {"i": v01_input(1), "r": [[0.001], 0, 1, 1]}
        record["v"] = 0.5
        cases.append((f"{members}, v {text}", line(record).replace('"v": 0.5', f'"v": {text}') + "\n"))
    return cases


def other_logs() -> list[tuple[str, str]]:
    auto_scheduler = {
        "i": [['["matmul", 64]', "llvm -keys=cpu", [8, 64, 64, 0, 0, 0, 0, 0], "", 2, []], [[], []]],
        "r": [[0.001], 0, 1.5, 1700000000],
        "v": "v0.6",
    }
    values: list[tuple[str, Any]] = [
        ("an auto_scheduler record", auto_scheduler),
        ("a meta-schedule record", [0, [[[], []], [0.001], {"kind": "llvm"}, []]]),
        ("a meta-schedule workload", ["123", "AAAA"]),
        ("a list holding 'v'", ["v", 0.1]),
        ("a list", [1, 2]),
        ("a string holding v", "v0.1"),
        ("a string", "llvm"),
        ("a number", 0.1),
        ("null", None),
        ("true", True),
        ("an object with v 0.1 only", {"v": 0.1}),
        ("an object with i 5 and v 0.1", {"i": 5, "v": 0.1}),
        ("an empty object", {}),
    ]
    cases = [(name, json.dumps(value) + "\n") for name, value in values]
    good = line(autotvm_record(2)) + "\n"
    cases += [(f"{name}, then a good record", json.dumps(value) + "\n" + good) for name, value in values]
    pickle4 = "\t".join([TARGET, "gASVHQAAAA==", "gASVEgAAAA==", "gASVDAAAAA=="])
    pickle6 = pickle4 + "\t0.2\t0.19.0"
    cases += [
        ("a pickle row of 4 columns (log format v0.1)", pickle4 + "\n"),
        ("a pickle row of 6 columns (log format v0.2)", pickle6 + "\n"),
        (
            "a v0.1 record, then a good record",
            line({"i": v01_input(1), "r": [[0.001], 0, 1, 1], "v": 0.1}) + "\n" + good,
        ),
    ]
    return cases


if __name__ == "__main__":
    main("versions", "autotvm", [*object_logs(), *other_logs()], sys.argv)
