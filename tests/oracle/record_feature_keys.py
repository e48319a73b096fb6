"""Record what TVM's ``Target(config)`` did with ``feature.*`` keys, as goldens for
tests/test_feature_keys.py.

Run from the repository root with apache-tvm 0.27 (the wheel), and with the oracle's v0.21 and
v0.19, which rejected such keys:

    /tmp/tvm027/bin/python tests/oracle/record_feature_keys.py
    /work/shared/tools/tvm-oracle/run.sh --tvm 021 tests/oracle/record_feature_keys.py
    /work/shared/tools/tvm-oracle/run.sh --tvm 019 tests/oracle/record_feature_keys.py

Each writes tests/data/oracle/feature-keys-vX.Y.jsonl for the TVM it runs (or the path given).
From v0.24 on (apache/tvm#18883) ``FromConfig`` sets every key of more than eight characters
that starts with ``feature.`` aside before the kind's schema reads the config, and puts it back
after the canonicaliser unless the canonicaliser set the same key. The inputs cross the kinds
(and the llvm configs its canonicaliser treats apart: x86, Arm A-profile, Arm M-profile) with
feature keys the canonicalisers set and ones they never set, and with every JSON value type;
then names that are not feature keys (``feature.``, ``Feature.x``), hosts, composite devices,
tags and JSON texts.

This file is not a test (pytest does not collect it): it needs TVM, which the project's tests do
not.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from oracle_common import OUT_DIR, main, target_outcome

# The configs a feature key is added to: each kind, and the llvm configs that reach different
# canonicalisers (none, the A-profile one through LLVM, the M-profile one).
BASES: tuple[dict[str, Any], ...] = (
    {"kind": "llvm", "mtriple": "x86_64-linux-gnu"},
    {"kind": "llvm"},
    {"kind": "llvm", "mtriple": "aarch64-linux-gnu"},
    {"kind": "llvm", "mtriple": "aarch64-linux-gnu", "mattr": ["+sve"]},
    {"kind": "llvm", "mtriple": "armv7a-linux-gnueabihf"},
    {"kind": "llvm", "mcpu": "cortex-m55"},
    {"kind": "llvm", "mcpu": "cortex-m4", "mattr": ["+nodsp"]},
    {"kind": "llvm", "mcpu": "cortex-m0"},
    {"kind": "c", "mcpu": "cortex-m7"},
    {"kind": "c"},
    {"kind": "cuda", "arch": "sm_80"},
    {"kind": "rocm"},
    {"kind": "nvptx"},
    {"kind": "opencl"},
    {"kind": "vulkan"},
    {"kind": "metal"},
    {"kind": "webgpu"},
    {"kind": "hexagon"},
    {"kind": "ext_dev"},
)
# Set by a canonicaliser (A-profile: from LLVM; M-profile: from mcpu and mattr), and not.
KEYS = ("feature.has_sve", "feature.is_aarch64", "feature.has_dsp", "feature.has_mve", "feature.own")
VALUES: tuple[Any, ...] = (True, False, 1, 0, -7, 2.5, "x", "", [1, "a"], [], {"a": 1}, {}, None)


def inputs() -> list[Any]:
    out: list[Any] = []
    for base in BASES:
        for key in KEYS:
            out.append({**base, key: True})
    for base in ({"kind": "llvm", "mtriple": "x86_64-linux-gnu"}, {"kind": "cuda", "arch": "sm_80"}):
        for value in VALUES:
            out.append({**base, "feature.own": value})
    # computed keys given with other types: the canonicaliser's value replaces any of them
    for value in (1, "yes", [True], None):
        out.append({"kind": "llvm", "mcpu": "cortex-m55", "feature.has_dsp": value})
        out.append({"kind": "llvm", "mtriple": "aarch64-linux-gnu", "feature.has_sve": value})
    # names that are not feature keys: the prefix alone, other spellings
    for key in ("feature.", "feature", "Feature.x", "features.x", "FEATURE.x", " feature.x", "feature_x"):
        out.append({"kind": "llvm", "mtriple": "x86_64-linux-gnu", key: True})
    # names that are: whatever follows the prefix
    for key in ("feature..", "feature.x.y", "feature. ", "feature.kind", "feature.mcpu", "feature.é"):
        out.append({"kind": "cuda", "arch": "sm_80", key: 1})
    # several at once, nested targets, tags, JSON text
    out.append({"kind": "llvm", "mcpu": "cortex-m55", "feature.has_dsp": False, "feature.own": "x", "feature.b": 2})
    out.append({"kind": "cuda", "arch": "sm_80", "host": {"kind": "llvm", "mcpu": "cortex-m4", "feature.own": 1}})
    out.append({"kind": "cuda", "arch": "sm_80", "feature.own": 1, "host": {"kind": "llvm", "feature.has_dsp": 1}})
    out.append({"kind": "composite", "devices": [{"kind": "cuda", "arch": "sm_80", "feature.own": True}]})
    out.append({"kind": "composite", "feature.own": True, "devices": [{"kind": "llvm", "mtriple": "x86_64-linux-gnu"}]})
    out.append({"tag": "nvidia/nvidia-a100", "feature.own": True})
    out.append({"tag": "nvidia/nvidia-a100", "kind": "cuda", "feature.own": True})
    for config in (
        {"kind": "llvm", "feature.has_sve": True},
        {"kind": "llvm", "mtriple": "aarch64-linux-gnu", "feature.has_sve": True},
        {"kind": "cuda", "arch": "sm_80", "feature.own": [1, {"a": None}]},
        {"kind": "llvm", "mtriple": "x86_64-linux-gnu", "feature.": True},
    ):
        out.append(json.dumps(config))
    return out


def _name() -> str:
    import tvm

    major, minor = tvm.__version__.split(".")[:2]
    return f"feature-keys-v{major}.{minor}"


if __name__ == "__main__":
    if sys.argv[1:2] == ["--worker"]:
        main(__file__, "", (), target_outcome, sys.argv)
    else:
        name = _name()
        main(__file__, name, inputs(), target_outcome, sys.argv if len(sys.argv) > 1 else [sys.argv[0]])
        print(f"(recorded as {OUT_DIR / name}.jsonl unless a path was given)", file=sys.stderr)
