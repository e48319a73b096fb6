"""Record what TVM v0.21 did with target specs of the wrong type and config dicts whose keys
are not strings, as goldens for tests/test_oracle_goldens.py.

Run with the real TVM v0.21.0 oracle, from the repository root:

    /work/shared/tools/tvm-oracle/run.sh --tvm 021 tests/oracle/record_key_types.py [OUT]

OUT defaults to tests/data/oracle/key-types.jsonl. TVM's Python ``Target()`` raised
``ValueError`` for a spec that is not a str, dict or Target; a dict whose keys are not all
strings reached the FFI, which raised ``TypeError`` for the top-level dict and ``ValueError``
(its message wrapped) for a nested one. Inputs are written as ``python`` (their ``repr``).

This file is not a test (pytest does not collect it): it needs TVM, which the project's tests do
not.
"""

from __future__ import annotations

import sys
from typing import Any

from oracle_common import main, target_outcome


def inputs() -> list[Any]:
    specs: list[Any] = [None, 1, 0, 1.5, True, False, b"llvm", 1j, ["llvm"], ("llvm",), {"llvm"}, [], ()]
    for key in (1, 0, 2.5, None, True, (1, 2), b"kind", b"mcpu"):
        specs.append({"kind": "llvm", key: "a"})
        specs.append({key: "llvm"})
    specs += [
        {1: "a"},
        {"kind": "cuda", 7: 8, "arch": "sm_80"},
        {"kind": "cuda", "host": {"kind": "llvm", 1: "a"}},
        {"kind": "cuda", "host": {1: "llvm"}},
        {"kind": "composite", "devices": [{"kind": "llvm", 2: 3}]},
        {"kind": "composite", "devices": ["llvm", {"kind": "cuda", None: 1}]},
        {"kind": "llvm", "mcpu": "x", "unknown": 1},
        {"kind": "llvm", "mcpu": "x", "mcpux": 1},
    ]
    return specs


if __name__ == "__main__":
    main(__file__, "key-types", inputs(), target_outcome, sys.argv)
