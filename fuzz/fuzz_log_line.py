#!/usr/bin/env python3
"""atheris harness of ``targets.log_line``: fuzz the tuning-log line reader, splicing, and log migration."""

from __future__ import annotations

import sys

import atheris

with atheris.instrument_imports():
    import targets

if __name__ == "__main__":
    atheris.Setup(sys.argv, targets.log_line)
    atheris.Fuzz()
