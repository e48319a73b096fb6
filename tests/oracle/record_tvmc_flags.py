"""Record what tvmc v0.19 made of per-kind target flags (``--target-llvm-mcpu=...``), as goldens
for tests/test_oracle_goldens.py.

Run with the real TVM v0.19.0 oracle, from the repository root:

    /work/shared/tools/tvm-oracle/run.sh --tvm 019 tests/oracle/record_tvmc_flags.py [OUT]

OUT defaults to tests/data/oracle/tvmc-flags.jsonl. Each input is a ``--target`` list and
per-kind flags; they go through tvmc's own argparse flags (``generate_target_args``),
``reconstruct_target_args`` and ``target_from_cli``, as ``tvmc compile`` ran them. The outcome
records the options tvmc reconstructed (``options``), then the target TVM built (``str``,
``export``) and the extra targets, or the error. tvmc rebuilt each target as ``NAME -k1=v1
...`` from the flag values as they were, so an empty value gave ``-mcpu=``, which TVM rejected.

This file is not a test (pytest does not collect it): it needs TVM, which the project's tests do
not.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from oracle_common import error_record, main, plain


def outcome(spec: Any) -> dict[str, Any]:
    from tvm.driver.tvmc import target as tvmc_target

    parser = argparse.ArgumentParser(prog="tvmc", add_help=False)
    tvmc_target.generate_target_args(parser)
    args, _ = parser.parse_known_args([f"--target={spec['target']}", *spec["flags"]])
    options = tvmc_target.reconstruct_target_args(args)
    out: dict[str, Any] = {"options": plain(options)}
    try:
        target, extra = tvmc_target.target_from_cli(args.target, options)
    except Exception as err:
        return {**out, "accepted": False, "error": error_record(err)}
    out["accepted"] = True
    out["str"] = str(target)
    out["export"] = plain(target.export())
    out["extra_targets"] = [{"name": e["name"], "opts": plain(e["opts"])} for e in extra]
    return out


VALUES = ("", " ", "  ", "skylake", "a b", "+a,+b", "+a, +b", "x,", ",", "'q'", "a=b", "-x")


def inputs() -> list[Any]:
    out: list[Any] = []
    for attr in ("mcpu", "mattr", "libs", "model", "mtriple", "device"):
        for value in VALUES:
            out.append({"target": "llvm", "flags": [f"--target-llvm-{attr}={value}"]})
    for target in ("llvm -mcpu=cortex-a53", "cuda, llvm", "llvm -mcpu=x -mattr=+neon", "c"):
        for value in ("", " ", "cortex-a72"):
            kind = "c" if target == "c" else "llvm"
            out.append({"target": target, "flags": [f"--target-{kind}-mcpu={value}"]})
    out += [
        {"target": "cuda", "flags": ["--target-cuda-arch="]},
        {"target": "cuda", "flags": ["--target-cuda-arch=sm_80"]},
        {"target": "cuda, llvm", "flags": ["--target-cuda-arch=sm_80", "--target-llvm-mcpu="]},
        {"target": "llvm", "flags": ["--target-llvm-mcpu=", "--target-llvm-mattr=+neon"]},
        {"target": "llvm", "flags": ["--target-llvm-mcpu", ""]},
        {"target": "llvm", "flags": ["--target-llvm-mcpu", "cortex-a72"]},
        {"target": "llvm", "flags": ["--target-cuda-arch=sm_80"]},
        {"target": "llvm", "flags": ["--target-cuda-arch="]},
    ]
    return out


if __name__ == "__main__":
    main(__file__, "tvmc-flags", inputs(), outcome, sys.argv)
