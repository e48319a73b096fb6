#!/usr/bin/env python3
"""atheris harness of ``targets.fix``: fuzz ``targetlang.fix.fix_source`` on Python, shell scripts,
documents and YAML, with and without the unsafe fixes (the first byte picks the options)."""

from __future__ import annotations

import sys

import atheris

# targetlang gives libFuzzer its coverage; LibCST and black, large and not ours, run uninstrumented.
with atheris.instrument_imports(include=["targetlang", "targets", "common"]):
    import targets

    # fix_source loads the Python side, its rules and the helpers' tables on its first input:
    # loaded here they are instrumented too, and not charged to the first input (LibCST and black
    # are loaded too)
    for warm_up in (
        b"\x00import tvm\nt = tvm.target.Target('cuda -arch=sm_80')\nprint(t.arch, tvm.target.cuda().model)\n",
        b"\x40y = Target('llvm -mcpu=skylake -mattr=+avx2,+fma -num-cores=8 -libs=cblas', host=f'c -n={n}')\n",
        b"\x04```python\nTarget.canon_target('llvm -mcpu=a')\n```\n--target 'llvm -mcpu=a'\n",
    ):
        targets.fix(warm_up)

if __name__ == "__main__":
    atheris.Setup(sys.argv, targets.fix)
    atheris.Fuzz()
