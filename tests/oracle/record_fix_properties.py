"""Record the removed Target properties on real TVM, as goldens for tests/test_fix_properties.py.

Two runs, from the repository root:

    /work/shared/tools/tvm-oracle/run.sh --tvm 021 tests/oracle/record_fix_properties.py v0.21 /tmp/props.json
    /tmp/tvm027/bin/python tests/oracle/record_fix_properties.py v0.27 /tmp/props.json [OUT]

The first, with real TVM v0.21.0 (whose properties are v0.23's), reads each legacy string below
with ``tvm.target.Target`` and records every removed property's value (or the exception's type),
and targetlang's ``to_json()`` of the string. The second, in a virtualenv with apache-tvm 0.27
and this checkout installed (``pip install apache-tvm -e .``; the goldens were recorded with
0.27.0.post1), builds a 0.27 ``Target`` from each JSON form, records its
kind and attributes, and evaluates each replacement of
``targetlang.fix._properties.REMOVED_PROPERTIES`` on it. OUT defaults to
tests/data/fix-properties-tvm-v0.27.jsonl: one line per target.

This file is not a test (pytest does not collect it): it needs TVM, which the project's tests do
not.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

TARGETS = (
    "cuda -arch=sm_80",
    "cuda -arch=sm_61 -model=1080ti -libs=cudnn,cublas -max_shared_memory_per_block=49152",
    "cuda -arch=sm_52 -l2_cache_size_bytes=2097152",
    "cuda -arch=sm_90a",
    "cuda",
    "nvidia/nvidia-a100",
    "llvm",
    "llvm -mcpu=skylake -mattr=+avx2,+fma -libs=cblas",
    "llvm -device=arm_cpu -model=bcm2711 -mtriple=aarch64-linux-gnu -mcpu=cortex-a72 -mattr=+neon",
    "vulkan",
    "vulkan -supports_integer_dot_product=1 -supports_cooperative_matrix=1 -max_block_size_x=128 -max_block_size_y=64",
    "vulkan -supports_integer_dot_product=0 -supports_cooperative_matrix=0",
    "hexagon -mtriple=hexagon -mcpu=hexagonv68 -vtcm-capacity=4194304",
    "hexagon",
    "opencl -device=mali -model=rk3399",
    "metal",
    "rocm",
    "c -mcpu=cortex-m4",
)


def plain(value: Any) -> Any:
    """A TVM value as plain JSON data."""
    if isinstance(value, str | bool | int | float) or value is None:
        return value
    if isinstance(value, Mapping) or hasattr(value, "items"):
        return {str(k): plain(v) for k, v in value.items()}
    return [plain(v) for v in value]


def outcome(read: Any, *args: Any) -> dict[str, Any]:
    """``read(*args)`` as plain data, or the type of what it raised."""
    try:
        return {"value": plain(read(*args))}
    except Exception as err:
        return {"error": type(err).__name__}


def evaluate(template: str, target: Any) -> Any:
    return eval(template.format(t="target"), {}, {"target": target})


def record_v021(names: list[str]) -> list[dict[str, Any]]:
    import tvm

    import targetlang

    rows = []
    for text in TARGETS:
        target = tvm.target.Target(text)
        values = {name: outcome(getattr, target, name) for name in names}
        rows.append({"target": text, "config": targetlang.parse(text).to_json(), "v0.21": values})
    return rows


def record_v027(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    import tvm

    from targetlang.fix._properties import REMOVED_PROPERTIES

    for row in rows:
        target = tvm.target.Target(row["config"])
        row["kind"] = target.kind.name
        row["attrs"] = plain(target.attrs)
        row["replacements"] = {name: prop.replacement for name, prop in REMOVED_PROPERTIES.items()}
        row["v0.27"] = {name: outcome(evaluate, prop.replacement, target) for name, prop in REMOVED_PROPERTIES.items()}
    return rows


# The names as TVM v0.23.0's target.py defined them (not read from our table, which phase 2 checks).
REMOVED = [
    "arch",
    "max_num_threads",
    "max_block_size_x",
    "max_block_size_y",
    "thread_warp_size",
    "max_shared_memory_per_block",
    "max_function_args",
    "vtcm_capacity",
    "device_name",
    "model",
    "mcpu",
    "mattr",
    "supports_integer_dot_product",
    "libs",
    "supports_cooperative_matrix",
    "l2_cache_size_bytes",
]


def main() -> None:
    phase, scratch = sys.argv[1], Path(sys.argv[2])
    if phase == "v0.21":
        scratch.write_text(json.dumps(record_v021(REMOVED)), encoding="utf-8")
        return
    default = Path(__file__).resolve().parents[1] / "data" / "fix-properties-tvm-v0.27.jsonl"
    out = Path(sys.argv[3]) if len(sys.argv) > 3 else default
    rows = record_v027(json.loads(scratch.read_text(encoding="utf-8")))
    with out.open("w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row) + "\n")
    print(f"{len(rows)} rows -> {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
