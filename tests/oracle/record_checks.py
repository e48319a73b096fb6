"""Record what apache-tvm 0.27's ``Target(config)`` did with configs that each check of
targetlang/data/checks-v0.27.json is about, as goldens for tests/test_migration.py.

Run with a Python holding apache-tvm 0.27 (the goldens were recorded with 0.27.0.post1 from
PyPI), from the repository root:

    env -u LD_PRELOAD /tmp/tvm027/bin/python tests/oracle/record_checks.py [OUT]

OUT defaults to tests/data/oracle/checks-v0.27.jsonl: one line per config, its input and what
0.27 did (tests/oracle/oracle_common.py's format). The configs: for each check, values on both
sides of its condition (prefixes, exact strings, bounds, each way an LLVM command-line option is
written right or wrong), in each context that decides whether the check runs (Arm A-profile or
M-profile triples and CPUs, other triples; ``supports_subgroups`` set or not), nested as a host
and as a composite's device; then values of the wrong type for the schema.

This file is not a test (pytest does not collect it): it needs TVM, which the project's tests do
not.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from typing import Any

from oracle_common import main, target_outcome

SM = ("sm_80", "sm_", "sm_90a", "80", "SM_80", "", " sm_80", "sm80", "compute_80")
GFX = ("gfx908", "gfx9", "gfx90a:sramecc+:xnack-", "gfx", "gfx_9", "GFX908", "gfx\u00e9", "xgfx908", "gfx 9", "")
TRIPLES = {
    "nvptx": ("nvptx64-nvidia-cuda", "nvptx64-nvidia-cuda ", "nvptx-nvidia-cuda", "NVPTX64-nvidia-cuda", ""),
    "rocm": ("amdgcn-amd-amdhsa-hcc", "amdgcn-amd-amdhsa", "amdgcn-amd-amdhsa-hcc-", ""),
}
# (mtriple, mcpu): A-profile or not, as TVM's canonicaliser tells (None: not set)
ARM: tuple[tuple[str | None, str | None], ...] = (
    ("aarch64-linux-gnu", None),
    ("aarch64-linux-gnu", "cortex-a72"),
    ("aarch64-linux-gnu", "cortex-m7"),
    ("aarch64-linux-gnu", "cortex-m33"),
    ("aarch64-linux-gnu", "cortex-m1"),
    ("aarch64-linux-gnu", "cortex-m"),
    ("armv7a-linux-gnueabihf", None),
    ("armv7a-linux-gnueabihf", "cortex-a53"),
    ("armv7a-linux-gnueabihf", "cortex-m1"),
    ("arm-linux-gnueabihf", "cortex-m55"),
    ("thumbv7em-none-eabi", "cortex-m4"),
    ("thumbv7em-none-eabi", None),
    ("x86_64-linux-gnu", None),
    ("riscv64-unknown-linux-gnu", None),
    (None, "cortex-a72"),
    (None, None),
)
LLVM_VALUES: dict[str, tuple[Any, ...]] = {
    "jit": ("mcjit", "orcjit", "x", "MCJIT", "", "orcjit "),
    "mfloat-abi": ("hard", "soft", "softfp", "Hard", ""),
    "vector-width": (1, 128, 65536, 0, -1, 65537),
    "cl-opt": (["-x"], ["-x:int=1e3"], ["-unroll-threshold:uint=100", "x"]),
}
CL_OPT = (
    "-x",
    "--x",
    "---x",
    "x",
    "-",
    "--",
    "-x=1",
    "-x=0",
    "-x=true",
    "-x=TRUE",
    "-x=tRuE",
    "-x=falsE",
    "-x=yes",
    "-x=2",
    "-x=+1",
    "-x=-0",
    "-x=00",
    "-x=01",
    "-x=-1",
    "-x= 1",
    "-x=\t1",
    "-x=1 ",
    "-x=",
    "-x:bool",
    "-x:bool=false",
    "-x:bool=",
    "-x:BOOL=1",
    "-x:int=5",
    "-x:int= 5",
    "-x:int=+5",
    "-x:int=-5",
    "-x:int=5 ",
    "-x:int=",
    "-x:int",
    "-x:uint=5",
    "-x:uint=-5",
    "-x:int=9223372036854775807",
    "-x:int=9223372036854775808",
    "-x:int=-9223372036854775808",
    "-x:int=-9223372036854775809",
    "-x:int=000000000000000000000000001",
    "-x:int=0x10",
    "-x:string",
    "-x:string=",
    "-x:string=a=b:c",
    "-x:float=1",
    "-x:=1",
    "-x:",
    "-:int=1",
    "-x:int:int=1",
    "-x=1=2",
    "-x=a:b",
    "-x y=1",
    "-unroll-threshold:uint=100",
    "-unroll-threshold=1",
    "-unroll-threshold:string=x",
    "-unroll-threshold:bool=true",
    "-x:bool=1",
    "-x:uint",
)
# the pieces of generated cl-opt entries
PIECES = (
    "-",
    "--",
    "x",
    ":",
    "=",
    "int",
    "uint",
    "bool",
    "string",
    "1",
    "0",
    "-1",
    "+",
    " ",
    "true",
    "FALSE",
    "a",
    "9223372036854775808",
    "\t",
)


def llvm(mtriple: str | None, mcpu: str | None, **attrs: Any) -> dict[str, Any]:
    config: dict[str, Any] = {"kind": "llvm"}
    if mtriple is not None:
        config["mtriple"] = mtriple
    if mcpu is not None:
        config["mcpu"] = mcpu
    return {**config, **attrs}


def inputs() -> Iterator[Any]:
    for arch in SM:
        yield {"kind": "cuda", "arch": arch}
        yield {"kind": "nvptx", "mcpu": arch}
    for gfx in GFX:
        yield {"kind": "rocm", "mcpu": gfx}
    for kind, triples in TRIPLES.items():
        for triple in triples:
            yield {"kind": kind, "mtriple": triple}
    for warp in (-5, 0, 1, 2, 32, True):
        yield {"kind": "webgpu", "thread_warp_size": warp}
        for subgroups in (False, True, 0, 1):
            yield {"kind": "webgpu", "thread_warp_size": warp, "supports_subgroups": subgroups}
    for mtriple, mcpu in ARM:
        for name, values in LLVM_VALUES.items():
            for value in values:
                yield llvm(mtriple, mcpu, **{name: value})
    for item in CL_OPT:
        yield llvm("aarch64-linux-gnu", None, **{"cl-opt": [item]})
        yield llvm("x86_64-linux-gnu", None, **{"cl-opt": [item]})
    rng = random.Random(27)
    for _ in range(400):
        item = "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 7)))
        yield llvm("aarch64-linux-gnu", None, **{"cl-opt": [item]})
    yield llvm("aarch64-linux-gnu", None, jit="x", **{"mfloat-abi": "x", "vector-width": 0, "cl-opt": ["x"]})
    # nested: a host, a composite's devices
    yield {"kind": "cuda", "arch": "sm_80", "host": llvm("aarch64-linux-gnu", None, jit="x")}
    yield {"kind": "cuda", "arch": "sm_80", "host": llvm("aarch64-linux-gnu", None, jit="mcjit")}
    yield {"kind": "cuda", "host": {"kind": "rocm", "mcpu": "gfx"}}
    yield {"kind": "composite", "devices": [{"kind": "cuda", "arch": "80"}, {"kind": "llvm"}]}
    yield {"kind": "composite", "devices": [{"kind": "cuda", "arch": "sm_80"}, {"kind": "llvm"}]}
    yield {"kind": "composite", "devices": [None]}
    yield {"kind": "cuda", "host": None}
    # the schema's types, which 0.27 converts before its canonicalisers run
    yield {"kind": "cuda", "arch": 80}
    yield {"kind": "llvm", "num-cores": "4"}
    yield {"kind": "llvm", "num-cores": True}
    yield {"kind": "llvm", "num-cores": 1.5}
    yield {"kind": "llvm", "fast-math": 2}
    yield {"kind": "llvm", "fast-math": "1"}
    yield {"kind": "llvm", "mattr": "+neon"}
    yield {"kind": "llvm", "keys": [1]}
    yield {"kind": "llvm", "keys": "cpu"}
    yield {"kind": "webgpu", "thread_warp_size": "4"}


if __name__ == "__main__":
    main(__file__, "checks-v0.27", inputs(), target_outcome, sys.argv)
