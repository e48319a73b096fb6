#!/usr/bin/env python3
"""atheris harness of ``targets.migrate``: fuzz ``targetlang.migrate`` in every era and under every policy."""

from __future__ import annotations

import sys

import atheris

with atheris.instrument_imports():
    import targets

if __name__ == "__main__":
    atheris.Setup(sys.argv, targets.migrate)
    atheris.Fuzz()
