"""Record what TVM v0.21 did with ``None`` (JSON ``null``) in config dicts, as goldens for
tests/test_oracle_goldens.py.

Run with the real TVM v0.21.0 oracle, from the repository root:

    /work/shared/tools/tvm-oracle/run.sh --tvm 021 tests/oracle/record_null_configs.py [OUT]

OUT defaults to tests/data/oracle/null-configs.jsonl. The inputs set each structural field
(``kind``, ``tag``, ``keys``, ``host``) and a few attributes of each kind to ``None``, then the
fields the kinds' target parsers read before the attributes are type-checked (``mtriple``,
``mcpu``, ``keys``) in each context that decides what the parser does (an Arm triple, an
M-profile CPU, neither), ``None`` items in arrays (``devices``, ``libs``, ``keys``), nested
hosts, and JSON texts with ``null``.

This file is not a test (pytest does not collect it): it needs TVM, which the project's tests do
not.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from oracle_common import main, target_outcome

KINDS = {
    "llvm": ("mtriple", "mcpu", "mattr", "num-cores"),
    "c": ("mcpu", "march"),
    "cuda": ("arch", "max_num_threads"),
    "nvptx": ("mtriple", "mcpu"),
    "rocm": ("mtriple", "mcpu"),
    "opencl": ("max_num_threads",),
    "vulkan": ("supports_float16",),
    "hexagon": ("mtriple", "mcpu"),
    "ext_dev": (),
    "composite": ("devices",),
}
COMMON = ("kind", "tag", "keys", "host", "device", "model", "libs", "from_device")


def inputs() -> list[Any]:
    out: list[Any] = []
    for kind, attrs in KINDS.items():
        for name in (*COMMON, *attrs):
            if name == "kind":
                out.append({"kind": None} if kind == "llvm" else None)
                continue
            out.append({"kind": kind, name: None})
    out = [spec for spec in out if spec is not None]
    out.append({"tag": None})
    # the CPU parser reads mtriple and mcpu before the attributes are checked: a null mtriple
    # without an mcpu is filled with the host triple
    for mcpu in (None, "x", "cortex-a72", "cortex-m4"):
        out.append({"kind": "llvm", "mtriple": None, "mcpu": mcpu})
    out.append({"kind": "llvm", "mtriple": None, "keys": ["a"]})
    out.append({"kind": "llvm", "mtriple": None, "mattr": ["+neon"], "num-cores": 4})
    out.append({"kind": "llvm", "mtriple": None, "host": None})
    # a null keys is what the Arm parsers merge arm_cpu,cpu into; elsewhere it is a type error
    for extra in (
        {"mtriple": "aarch64-linux-gnu"},
        {"mtriple": "arm-linux-gnueabihf"},
        {"mtriple": "arm-linux-gnueabihf", "mcpu": "cortex-m1"},
        {"mcpu": "cortex-m4"},
        {"mcpu": "cortex-a72"},
        {"mtriple": "x86_64-linux-gnu"},
        {"mtriple": None},
        {"device": "arm_cpu", "mtriple": "aarch64-linux-gnu"},
    ):
        out.append({"kind": "llvm", "keys": None, **extra})
    out.append({"kind": "c", "keys": None, "mcpu": "cortex-m55"})
    out.append({"kind": "c", "keys": None, "mcpu": "cortex-a72"})
    out.append({"kind": "llvm", "keys": [None]})
    out.append({"kind": "llvm", "libs": ["cblas", None]})
    out.append({"kind": "llvm", "mattr": [None]})
    # null targets
    out.append({"kind": "composite", "devices": [None]})
    out.append({"kind": "composite", "devices": [None, "llvm"]})
    out.append({"kind": "composite", "devices": ["cuda", None, {"kind": "llvm", "mtriple": None}]})
    out.append({"kind": "composite", "host": "llvm", "devices": [None]})
    out.append({"kind": "composite", "host": None, "devices": ["llvm"]})
    out.append({"kind": "cuda", "host": {"kind": "llvm", "mtriple": None}})
    out.append({"kind": "cuda", "host": {"kind": "c", "host": None}})
    out.append({"kind": "cuda", "host": {"kind": "llvm", "mcpu": None}})
    out.append({"kind": "cuda", "host": {"kind": "llvm", "keys": None, "mtriple": "aarch64-linux-gnu"}})
    # the same in JSON text, where null is the literal
    for config in (
        {"kind": "c", "host": None},
        {"kind": "llvm", "mtriple": None},
        {"kind": "llvm", "mtriple": None, "mcpu": "skylake"},
        {"kind": "composite", "devices": [None]},
        {"kind": "llvm", "keys": None, "mtriple": "aarch64-linux-gnu"},
        {"kind": "cuda", "arch": None},
    ):
        out.append(json.dumps(config))
    return out


if __name__ == "__main__":
    main(__file__, "null-configs", inputs(), target_outcome, sys.argv)
