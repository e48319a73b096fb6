"""Record what TVM v0.19's AutoTVM loaders did with records whose target TVM v0.19 cannot build,
or that is no string: ``decode`` builds ``Target(str(tgt))`` before anything else of the record,
and ``Target``'s constructor re-raises what failed as ``ValueError`` (the parser's errors) or
``TVMError`` (an empty target, quotes that do not pair, a kind's own check). Goldens for
tests/test_oracle_logs.py (see logs_oracle.py).

    /work/shared/tools/tvm-oracle/run.sh --tvm 019 tests/oracle/record_logs_targets.py [OUT]
"""

from __future__ import annotations

import sys
from typing import Any

from logs_oracle import autotvm_record, line, main

TARGETS: list[Any] = [
    "",
    "llvm -mcpu=sky'ake-avx512",
    "llvm -'cpu=skylake",
    "llvm -mcpu=\\'skylake",
    "llvm -keys='cpu'",
    "llvm -keys='aarch64-linux-gnu'",
    " -keys=cpu",
    "llvm -vector-width=256",
    "llvm -mcpu=skylake -mcpu=skylake",
    "llvm -mcpu=",
    "nope",
    "llvm -device=arm_cpu -mtriple=armv7a-linux-gnueabihf -mfloat-abi=x",
    "cuda -arch=sm_x",
    {"kind": "llvm"},
    {},
    ["llvm"],
    None,
    1,
    1.5,
    True,
]


def logs() -> list[tuple[str, str]]:
    cases = []
    for target in TARGETS:
        for version in ("0.19.0", None):
            fields: dict[str, Any] = {"input": [target, "dense_nopack.x86", [], {}]}
            if version is None:
                fields["tvm_version"] = ...
            bad = line(autotvm_record(2, **fields))
            good = line(autotvm_record(1))
            what = f"target {target!r}" + ("" if version else ", no tvm_version")
            cases.append((what, bad + "\n"))
            cases.append((f"{what}, after a record", good + "\n" + bad + "\n"))
        # The target is built before config is read: a record without config raises on its target first.
        no_config = line(autotvm_record(2, input=[target, "dense_nopack.x86", [], {}], config=...))
        cases.append((f"target {target!r}, no config", no_config + "\n"))
    return cases


if __name__ == "__main__":
    main("targets", "autotvm", logs(), sys.argv)
