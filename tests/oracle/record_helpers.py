"""Record what TVM v0.21's target helper constructors built, as goldens for tests/test_helpers.py.

Run with the real TVM v0.21.0 oracle, from the repository root:

    /work/shared/tools/tvm-oracle/run.sh --tvm 021 tests/oracle/record_helpers.py [OUT]

OUT defaults to tests/data/helpers-tvm-v0.21.jsonl. Each line is one call: ``helper``, ``args``,
``kwargs``, ``built`` (the argument the helper passed to ``Target(...)``, caught by replacing
``tvm.target.target.Target`` for the duration of the call), ``str`` and ``export`` of the target
TVM made from it, the ``warnings`` the call emitted, and ``source``. A call TVM rejected has
``error`` (exception type and message) instead of ``str``/``export``.

``source`` is ``"tvm-v0.21"`` for rows recorded from the call itself. TVM v0.22 added the
``licheepi3a`` model to ``riscv_cpu``; v0.21's helper does not know it, so those rows carry the
string written out from v0.22's ``riscv_cpu`` table (``source`` ``"v0.22-source"``), and only
``str``/``export`` come from v0.21's ``Target`` given that string.

This file is not a test (pytest does not collect it): it needs TVM, which the project's tests do
not.
"""

from __future__ import annotations

import json
import sys
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

ARM_MODELS = (
    "pixel2",
    "mate10",
    "mate10pro",
    "p20",
    "p20pro",
    "rasp3b",
    "rasp4b",
    "rasp4b64",
    "rk3399",
    "pynq",
    "ultra96",
    "beagleai",
    "stm32mp1",
    "thunderx",
)
RISCV_MODELS = ("sifive-e31", "sifive-e76", "sifive-u54", "sifive-u74")
HEXAGON_VERSIONS = ("v65", "v66", "v67", "v67t", "v68", "v69", "v71", "v73", "v75")
STM32_SERIES = (
    "stm32H7xx",
    "stm32F7xx",
    "stm32F4xx",
    "stm32F2xx",
    "stm32G0xx",
    "stm32F0xx",
    "stm32F1xx",
    "stm32G4xx",
    "stm32F3xx",
    "stm32U5xx",
    "stm32L5xx",
    "stm32L4xx",
    "stm32L1xx",
    "stm32L0xx",
)

Call = tuple[str, tuple[Any, ...], dict[str, Any]]


def calls() -> list[Call]:
    """Every call recorded: each table entry, defaults, and the option-merging corners."""
    out: list[Call] = []

    def add(helper: str, *args: Any, **kwargs: Any) -> None:
        out.append((helper, args, kwargs))

    for model in (*ARM_MODELS, "unknown", "my-board"):
        add("arm_cpu", model)
    add("arm_cpu")
    add("arm_cpu", "rasp3b", "-mcpu=cortex-a53")
    add("arm_cpu", "rasp3b", ["-mattr=+neon", "-mcpu=cortex-a53"])
    add("arm_cpu", "rk3399", "  -num-cores=4   -libs=cblas ")
    add("arm_cpu", "pixel2", ["-device=arm_cpu", "-model=snapdragon835"])
    add("arm_cpu", "p20", [])
    add("arm_cpu", "p20", "")
    add("arm_cpu", "thunderx", ("-system-lib",))
    add("arm_cpu", model="ultra96", options=["-libs=cblas"])
    add("arm_cpu", "rasp4b64", ["-num-cores=4", "-num-cores=4"])

    add("cuda")
    add("cuda", "1080ti")
    add("cuda", "1080ti", None)
    add("cuda", arch="sm_61")
    add("cuda", "a100", "sm_80")
    add("cuda", "t4", "sm_75", "-libs=cudnn,cublas")
    add("cuda", "t4", "sm_75", ["-max_num_threads=512", "-thread_warp_size=32"])
    add("cuda", options="-arch=sm_70")
    add("cuda", "v100", "sm_70", "-arch=sm_70")
    add("cuda", "unknown", "", "-libs=cudnn")
    add("cuda", model="jetson", arch="sm_53", options=["-host=llvm"])

    for helper in ("rocm", "mali", "intel_graphics", "bifrost"):
        add(helper)
        add(helper, "some-model")
        add(helper, "some-model", "-max_num_threads=128")
        add(helper, options=["-libs=foo", "-model=unknown"])
    add("intel_graphics", "unknown", "-thread_warp_size=16")
    add("mali", "rk3399", ["-device=mali"])

    add("rasp")
    add("rasp", "-mcpu=cortex-a53")
    add("rasp", options=["-model=bcm2837", "-num-cores=4"])

    for model in (*RISCV_MODELS, "rocket"):
        add("riscv_cpu", model)
    add("riscv_cpu")
    add("riscv_cpu", "sifive-u74", "-mattr=+m,+a,+f,+d,+c")
    add("riscv_cpu", options=["-mabi=lp64d", "-num-cores=2"])

    for ver in HEXAGON_VERSIONS:
        add("hexagon", ver)
    add("hexagon")
    add("hexagon", "hexagonv68")
    add("hexagon", "qdsp-v73")
    add("hexagon", "v67T")
    add("hexagon", "v68", hvx=0)
    add("hexagon", "v66", hvx=0)
    add("hexagon", "v68", hvx=64)
    add("hexagon", "v69", hvx=-1)
    add("hexagon", "v68", use_qfloat=False)
    add("hexagon", "v69", use_qfloat=False, use_ieee_fp=True)
    add("hexagon", "v66", use_qfloat=True, use_ieee_fp=True)
    add("hexagon", "v73", use_qfloat=0, use_ieee_fp=1)
    add("hexagon", "v69", use_qfloat=-1)
    add("hexagon", "v68", hvx=64.0)
    add("hexagon", "v68", llvm_options="-hexagon-small-data-threshold=0 -foo")
    add("hexagon", "v69", llvm_options="-hexagon-small-data-threshold=0 -foo")
    add("hexagon", "v66", llvm_options="")
    add("hexagon", "v68", llvm_options="")
    add("hexagon", "v68", llvm_options="   ")
    add("hexagon", "v69", llvm_options="   ")
    add("hexagon", "v68", llvm_options=[])
    add("hexagon", "v69", llvm_args="-a=1 -b")
    add("hexagon", "v69", llvm_options="-x", llvm_args="-y")
    add("hexagon", "v69", sim_options="--foo")
    add("hexagon", "v69", sim_args="--bar")
    add("hexagon", "v68", num_cores=8)
    add("hexagon", "v68", num_cores=2.9)
    add("hexagon", "v68", vtcm_capacity=1024)
    add("hexagon", "v71", vtcm_capacity=65536, num_cores=1, hvx=64, llvm_options="-z=1")
    add("hexagon", "v75", unknown_option=1)
    add("hexagon", cpu_ver="v73", use_ieee_fp=True)
    # what TVM rejected
    add("hexagon", "v60")
    add("hexagon", "V68")
    add("hexagon", "v68x")
    add("hexagon", 68)
    add("hexagon", "v68", hvx=96)
    add("hexagon", "v68", hvx="128")
    add("hexagon", "v69", llvm_options=["-a", "-b"])
    add("hexagon", "v66", llvm_options=["-a"])
    add("hexagon", "v68", use_qfloat=2)
    add("hexagon", "v68", num_cores="4")
    add("hexagon", "v68", vtcm_capacity=None)
    add("hexagon", "v68", use_ieee_fp="yes")

    for series in STM32_SERIES:
        add("stm32", series)
    add("stm32", "stm32F4xx", "-model=stm32f4-disco")
    add("stm32", "stm32F4xx", "-mattr=+dsp")
    add("stm32", "stm32H7xx", ["-keys=arm_cpu,cpu", "-march=armv7e-m", "-system-lib"])
    add("stm32")
    add("stm32", "stm32h7xx")

    add("adreno")
    add("adreno", "adreno640")
    add("adreno", "adreno640", clml=True)
    add("adreno", "adreno740", "-texture_spatial_limit=16384", True)
    add("adreno", options=["-max_num_threads=512"], clml=False)
    add("adreno", "adreno640", ["--keys=adreno,opencl,gpu,clml"], 1)

    add("create", "llvm -mcpu=skylake -mattr=+avx2")
    add("create", "cuda")
    add("create", "nvidia/jetson-nano")
    add("create", {"kind": "llvm", "mcpu": "cortex-a72", "mtriple": "aarch64-linux-gnu"})
    return out


# TVM v0.22 added this riscv_cpu model. The options are v0.22's table entry for it, in order.
LICHEEPI3A = [
    "-num-cores=8",
    "-mtriple=riscv64-unknown-linux-gnu",
    "-mcpu=spacemit-x60",
    "-mfloat-abi=hard",
    "-mabi=lp64d",
]
V022_ONLY: list[tuple[Call, str]] = [
    (
        ("riscv_cpu", ("licheepi3a",), {}),
        " ".join(["llvm", "-keys=arm_cpu,cpu", "-device=arm_cpu", *LICHEEPI3A]),
    ),
    (
        ("riscv_cpu", ("licheepi3a", "-mattr=+v"), {}),
        " ".join(["llvm", "-keys=arm_cpu,cpu", "-device=arm_cpu", *LICHEEPI3A, "-mattr=+v"]),
    ),
]


def plain(value: Any) -> Any:
    """A TVM value as plain JSON data: targets as their export, arrays as lists, maps as dicts."""
    import tvm

    if isinstance(value, tvm.target.Target):
        return plain(value.export())
    if isinstance(value, str | bool | int | float) or value is None:
        return value
    if isinstance(value, Mapping) or hasattr(value, "items"):
        return {str(k): plain(v) for k, v in value.items()}
    return [plain(v) for v in value]


def record(call: Call, hand_built: str | None = None) -> dict[str, Any]:
    import tvm
    import tvm.target.target as module

    helper, args, kwargs = call
    real = module.Target
    built: list[Any] = []

    def capture(*a: Any, **k: Any) -> Any:
        built.append(a[0])
        return real(*a, **k)

    row: dict[str, Any] = {"helper": helper, "args": list(args), "kwargs": kwargs}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            if hand_built is None:
                module.Target = capture
                try:
                    target = getattr(tvm.target, helper)(*args, **kwargs)
                finally:
                    module.Target = real
            else:
                built.append(hand_built)
                target = real(hand_built)
        except Exception as err:
            row["built"] = built[0] if built else None
            row["error"] = {"type": type(err).__name__, "message": str(err)}
        else:
            row["built"] = built[0]
            row["str"] = str(target)
            row["export"] = plain(target)
    row["warnings"] = [str(w.message) for w in caught if issubclass(w.category, UserWarning)]
    row["source"] = "tvm-v0.21" if hand_built is None else "v0.22-source"
    return row


def main() -> None:
    default = Path(__file__).resolve().parents[1] / "data" / "helpers-tvm-v0.21.jsonl"
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else default
    rows = [record(call) for call in calls()]
    rows += [record(call, built) for call, built in V022_ONLY]
    with out.open("w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, sort_keys=False) + "\n")
    print(f"{len(rows)} rows -> {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
