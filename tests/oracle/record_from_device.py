"""Record what TVM v0.21's ``Target()`` made of ``from_device``, as goldens for
tests/test_oracle_goldens.py.

Run with the real TVM v0.21.0 oracle, from the repository root:

    /work/shared/tools/tvm-oracle/run.sh --tvm 021 tests/oracle/record_from_device.py [OUT]

OUT defaults to tests/data/oracle/from-device.jsonl. ``Target()`` removed ``from_device`` and
asked the device API of the target's device type for every attribute of the kind
(``TargetInternal::QueryDevice``, src/target/target.cc). Only the CPU's device API is in every
TVM build, and it answers no property: a CPU kind's attributes not given all came back null, so
no default applied afterwards; for a device type whose runtime was not built (CUDA, Vulkan,
OpenCL, ... on the oracle's build, as on most), the query returned nothing. The inputs cover CPU
kinds and others, device ids, ``target_device_type`` (which decides which device API is asked),
hosts, dicts and JSON.

This file is not a test (pytest does not collect it): it needs TVM, which the project's tests do
not.
"""

from __future__ import annotations

import sys
from typing import Any

from oracle_common import constructor_outcome as outcome
from oracle_common import main


def inputs() -> list[Any]:
    kinds = ("llvm", "c", "cuda", "nvptx", "rocm", "opencl", "vulkan", "metal", "webgpu", "hexagon", "ext_dev", "test")
    out: list[Any] = [f"{kind} -from_device=0" for kind in kinds]
    out += [
        "llvm -from_device=1",
        "llvm -from_device=-1",
        "llvm -from_device=99",
        "llvm -from_device=x",
        "llvm -from_device",
        "llvm -mcpu=skylake -from_device=0",
        "llvm -from_device=0 -mattr=+avx2 -num-cores=4",
        "llvm -from_device=0 -mtriple=aarch64-linux-gnu",
        "llvm -from_device=0 -mcpu=cortex-m55 -mtriple=thumbv8.1m.main-none-eabi",
        "llvm -device=arm_cpu -from_device=0",
        "llvm -keys=a,b -from_device=0",
        "llvm -model=m -libs=cblas -from_device=0",
        "llvm -from_device=0 -target_device_type=2",
        "cuda -from_device=0 -target_device_type=1",
        "cuda -from_device=0 -arch=sm_80",
        "c -from_device=0 -mcpu=x",
        "cuda -host='llvm -from_device=0'",
        "llvm -from_device=0 -host=c",
        '{"kind": "llvm", "from_device": 0}',
        '{"kind": "llvm", "from_device": 0, "mcpu": "a"}',
        {"kind": "llvm", "from_device": 0},
        {"kind": "c", "from_device": 3},
        {"kind": "cuda", "from_device": 0},
        {"kind": "cuda", "host": {"kind": "llvm", "from_device": 0}},
        ("cuda", "llvm -from_device=0"),
    ]
    return out


if __name__ == "__main__":
    main(__file__, "from-device", inputs(), outcome, sys.argv)
