#!/usr/bin/env python3
"""atheris harness of ``targets.parse_text``.

Fuzz ``targetlang.parse`` on text: legacy strings, tag names, JSON and JSON-ish objects.
"""

from __future__ import annotations

import sys

import atheris

with atheris.instrument_imports():
    import targets

if __name__ == "__main__":
    atheris.Setup(sys.argv, targets.parse_text)
    atheris.Fuzz()
