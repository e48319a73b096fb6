"""Record what TVM v0.21's ``Target()`` made of ``mkldnn`` in targets, as goldens for
tests/test_oracle_goldens.py.

Run with the real TVM v0.21.0 oracle, from the repository root:

    /work/shared/tools/tvm-oracle/run.sh --tvm 021 tests/oracle/record_mkldnn.py [OUT]

OUT defaults to tests/data/oracle/mkldnn.jsonl. From v0.9 to v0.23, TVM's Python ``Target()``
replaced every ``mkldnn`` of a *string* holding ``-libs=mkldnn`` by ``dnnl`` before reading it,
with a warning (python/tvm/target/target.py); dicts, and strings inside dicts, were passed on as
they were. The inputs put ``mkldnn`` in each place that rule tells apart: where the literal
``-libs=mkldnn`` is or is not in the text, other occurrences of ``mkldnn``, hosts, JSON text,
dicts and the two-argument ``Target(target, host)`` (written as a pair, ``python``).

This file is not a test (pytest does not collect it): it needs TVM, which the project's tests do
not.
"""

from __future__ import annotations

import sys
from typing import Any

from oracle_common import constructor_outcome as outcome
from oracle_common import main


def inputs() -> list[Any]:
    out: list[Any] = [f"{kind} -libs=mkldnn" for kind in ("llvm", "c", "cuda", "opencl", "rocm", "nvptx", "hexagon")]
    out += [
        "llvm --libs=mkldnn",
        "llvm ---libs=mkldnn",
        "llvm -libs=mkldnn,cblas",
        "llvm -libs=cblas,mkldnn",
        "llvm -libs=mkldnn,mkldnn",
        "llvm -libs mkldnn",
        "llvm -libs='mkldnn'",
        "llvm -libs=mkldnnx",
        "llvm -libs=MKLDNN",
        "llvm -libs=dnnl",
        "llvm -model=mkldnn",
        "llvm -libs=mkldnn -model=mkldnn_v1",
        "llvm -libs=mkldnn -mcpu=mkldnn",
        "llvm -libs=mkldnn -keys=mkldnn,cpu",
        "llvm -mattr=+mkldnn -libs=mkldnn",
        "llvm -libs=mkldnn -model='-libs=mkldnn'",
        "llvm -model=-libs=mkldnn",
        "llvm -mkldnn -libs=mkldnn",
        "llvm -libs=mkldnn -mcpu=skylake -mattr=+avx2",
        "llvm -device=arm_cpu -libs=mkldnn -mtriple=aarch64-linux-gnu",
        "llvm   -libs=mkldnn   -num-cores=4  ",
        "llvm -libs=mkldnn -num-cores=four",
        "llvm -libs=mkldnn -mcpu",
        "cuda -host='llvm -libs=mkldnn'",
        "cuda -host=llvm -libs=mkldnn",
        "cuda -libs=cudnn -host='llvm -libs=mkldnn,cblas'",
        '{"kind": "llvm", "libs": ["mkldnn"]}',
        '{"kind": "cuda", "host": "llvm -libs=mkldnn"}',
        '{"kind": "llvm", "model": "-libs=mkldnn", "libs": ["mkldnn"]}',
        {"kind": "llvm", "libs": ["mkldnn"]},
        {"kind": "cuda", "host": "llvm -libs=mkldnn"},
        {"kind": "llvm", "model": "-libs=mkldnn"},
        ("cuda", "llvm -libs=mkldnn"),
        ("cuda -libs=mkldnn", "llvm"),
        ("cuda", {"kind": "llvm", "libs": ["mkldnn"]}),
    ]
    return out


if __name__ == "__main__":
    main(__file__, "mkldnn", inputs(), outcome, sys.argv)
