"""Record what TVM v0.21 did with llvm targets for Arm A-profile triples, as goldens for
tests/test_oracle_goldens.py.

Run with the real TVM v0.21.0 oracle, from the repository root:

    /work/shared/tools/tvm-oracle/run.sh --tvm 021 tests/oracle/record_aprofile.py [OUT]

OUT defaults to tests/data/oracle/aprofile.jsonl. For an llvm target whose mtriple starts with
``aarch64``, or with ``arm`` while mcpu does not start with ``cortex-m``, TVM's A-profile parser
(src/target/parsers/aprofile.cc) builds LLVM's target info (``LLVMTargetInfo``,
src/target/llvm/llvm_instance.cc) while ``Target()`` reads the target, and that constructor
rejects ``-mfloat-abi`` other than hard/soft, ``-jit`` other than mcjit/orcjit, ``-vector-width``
outside 1..65536 and malformed ``-cl-opt`` entries. The inputs cross triples (Arm, and x86 for
control) with good and bad values of each of those options, plus M-profile and other controls,
JSON and dict forms, and hosts. Triples LLVM cannot resolve crash TVM and are left out.

This file is not a test (pytest does not collect it): it needs TVM, which the project's tests do
not.
"""

from __future__ import annotations

import sys
from typing import Any

from oracle_common import main, target_outcome

TRIPLES = (
    "aarch64-linux-gnu",
    "aarch64",
    "arm-linux-gnueabihf",
    "armv7a-linux-gnueabihf",
    "arm64-apple-darwin",
    "x86_64-linux-gnu",
)
OPTIONS = (
    "-jit=mcjit",
    "-jit=orcjit",
    "-jit=x",
    "-jit=MCJIT",
    "-jit=''",
    "-jit",
    "-mfloat-abi=hard",
    "-mfloat-abi=soft",
    "-mfloat-abi=softfp",
    "-mfloat-abi=Hard",
    "-mfloat-abi",
    "-vector-width=1",
    "-vector-width=65536",
    "-vector-width=0",
    "-vector-width=-1",
    "-vector-width=65537",
    "-vector-width=false",
    "-cl-opt=-unroll-threshold:uint=100",
    "-cl-opt=-option:",
    "-cl-opt=-option=2",
    "-cl-opt='-a:int=haha'",
)


def inputs() -> list[Any]:
    out: list[Any] = []
    for triple in TRIPLES:
        out.append(f"llvm -mtriple={triple}")
        out.extend(f"llvm -mtriple={triple} {option}" for option in OPTIONS)
    # mcpu decides between the profiles: cortex-m0/m3/m4/m7/m33/m35p/m55/m85 are M-profile (no
    # LLVM check); any other cortex-m keeps an arm triple out of the A-profile parser too, but
    # not an aarch64 one.
    for mcpu in ("cortex-a72", "cortex-m4", "cortex-m1", "cortex-m55"):
        for triple in ("arm-linux-gnueabihf", "aarch64-linux-gnu"):
            for option in ("-jit=x", "-mfloat-abi=softfp", "-vector-width=0", "-mfloat-abi=hard"):
                out.append(f"llvm -mtriple={triple} -mcpu={mcpu} {option}")
    # no triple: an mcpu keeps the host triple away; a bare llvm gets the host's (x86_64 here)
    out += ["llvm -jit=x", "llvm -mcpu=cortex-a53 -jit=x", "llvm -mcpu=cortex-a53 -vector-width=0"]
    out += [
        "llvm -mtriple=aarch64-linux-gnu -jit=x -mfloat-abi=x -vector-width=0",
        "llvm -mtriple=aarch64-linux-gnu -mfloat-abi=' hard '",
        "llvm -mtriple=aarch64-linux-gnu -mattr=+neon,+sve -jit=mcjit -mfloat-abi=soft -vector-width=256",
        "cuda -host='llvm -mtriple=aarch64-linux-gnu -jit=x'",
        "cuda -host='llvm -mtriple=aarch64-linux-gnu -jit=mcjit'",
        '{"kind": "llvm", "mtriple": "aarch64-linux-gnu", "jit": "x"}',
        '{"kind": "llvm", "mtriple": "arm-linux-gnueabihf", "vector-width": 0}',
        {"kind": "llvm", "mtriple": "aarch64-linux-gnu", "mfloat-abi": "softfp"},
        {"kind": "llvm", "mtriple": "aarch64-linux-gnu", "vector-width": False},
        {"kind": "llvm", "mtriple": "aarch64-linux-gnu", "vector-width": True},
        {"kind": "llvm", "mtriple": "aarch64-linux-gnu", "vector-width": 65537},
        {"kind": "llvm", "mtriple": "aarch64-linux-gnu", "cl-opt": ["-option:bool=2"]},
        {"kind": "cuda", "host": {"kind": "llvm", "mtriple": "arm-linux-gnueabihf", "jit": "x"}},
        {"kind": "c", "mcpu": "cortex-a72", "mfloat-abi": "x"},
        "llvm -mtriple=armx-unknown -jit=x",
        "llvm -mtriple=armfoo -jit=mcjit",  # LLVM cannot resolve it: crashes TVM, left out
    ]
    return out


if __name__ == "__main__":
    main(__file__, "aprofile", inputs(), target_outcome, sys.argv)
