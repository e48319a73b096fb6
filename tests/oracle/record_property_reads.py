"""Record what ``target.<property>`` reads on TVM 0.25 and later, as goldens for
tests/test_fix_properties.py (``--target-version``).

TVM v0.25 restored attribute reads (``Target.__getattr__``, apache/tvm#19581). For each of the
16 properties v0.24 removed and each target below, this records what ``getattr(target, name)``
gives on the running TVM (its type and repr, or the exception's type), and what v0.23's
property gave: the replacement of ``targetlang.fix._properties.REMOVED_PROPERTIES`` evaluated
on the same target (checked against real TVM v0.21 by record_fix_properties.py). One run per
release, each appending to OUT, from the repository root with this checkout on the path::

    for v in 0.25 0.26 0.27; do
        python -m venv /tmp/tvm$v && /tmp/tvm$v/bin/pip install "apache-tvm==$v.*"
        PYTHONPATH=. /tmp/tvm$v/bin/python tests/oracle/record_property_reads.py OUT
    done

(apache-tvm 0.25.0.post1 imports only with ``apache-tvm-ffi==0.1.12``; the goldens were recorded
with 0.25.0.post1, 0.26.0 and 0.27.0.post1.) OUT defaults to
tests/data/fix-property-reads-tvm-v0.25-v0.27.jsonl. This file is not a test: it needs TVM.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import tvm
from tvm.target import Target

from targetlang.fix._properties import REMOVED_PROPERTIES

CONFIGS: tuple[dict[str, Any], ...] = (
    {"kind": "cuda"},
    {"kind": "cuda", "arch": "sm_80"},
    {"kind": "cuda", "arch": "sm_80", "model": "a100", "libs": ["cudnn"]},
    {"kind": "cuda", "arch": "sm_90a"},
    {"kind": "llvm"},
    {"kind": "llvm", "mcpu": "skylake", "mattr": ["+avx2"], "libs": ["mkl"]},
    {"kind": "llvm", "device": "arm_cpu", "model": "rasp4b"},
    {"kind": "vulkan"},
    {"kind": "vulkan", "supports_integer_dot_product": True, "max_block_size_x": 64, "max_block_size_y": 32},
    {"kind": "vulkan", "device": "dev", "device_name": "name"},
    {"kind": "hexagon", "vtcm-capacity": 1024},
    {"kind": "opencl", "device": "mali", "max_function_args": 128},
    {"kind": "rocm"},
    {"kind": "metal"},
    {"kind": "webgpu"},
)


def _type(value: object) -> str:
    return f"{type(value).__module__}.{type(value).__qualname__}"


def _read(read: Any) -> dict[str, Any]:
    try:
        value = read()
    except Exception as err:  # what it raises is what is recorded
        return {"ok": False, "error_type": type(err).__name__}
    return {"ok": True, "type": _type(value), "repr": repr(value)}


def main(out: Path) -> None:
    with out.open("a", encoding="utf-8") as handle:
        for config in CONFIGS:
            target = Target(config)
            for name, prop in REMOVED_PROPERTIES.items():
                row = {
                    "release": tvm.__version__,
                    "config": config,
                    "name": name,
                    "read": _read(lambda: getattr(target, name)),  # noqa: B023 (called at once)
                    "v0.23": _read(lambda: eval(prop.replacement.format(t="target"), {"target": target})),  # noqa: B023
                }
                handle.write(json.dumps(row, sort_keys=True) + "\n")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("tests/data/fix-property-reads-tvm-v0.25-v0.27.jsonl"))
