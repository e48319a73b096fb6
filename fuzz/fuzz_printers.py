#!/usr/bin/env python3
"""atheris harness of ``targets.printers``.

Fuzz the printers: canonical and JSON-ish forms, TVM v0.22's str() of the resolved target, edits.
"""

from __future__ import annotations

import sys

import atheris

with atheris.instrument_imports():
    import targets

if __name__ == "__main__":
    atheris.Setup(sys.argv, targets.printers)
    atheris.Fuzz()
