#!/usr/bin/env python3
"""atheris harness of ``targets.parse_dict``.

Fuzz ``targetlang.parse`` on config dicts (the TVM config form), decoded from JSON bytes.
"""

from __future__ import annotations

import sys

import atheris

with atheris.instrument_imports():
    import targets

if __name__ == "__main__":
    atheris.Setup(sys.argv, targets.parse_dict)
    atheris.Fuzz()
