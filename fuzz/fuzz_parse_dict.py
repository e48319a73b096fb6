"""Fuzz ``targetlang.parse`` on config dicts (the TVM config form), decoded from JSON bytes."""

from __future__ import annotations

import json
import sys

import atheris

with atheris.instrument_imports():
    from common import check_target, text_of

    import targetlang


def test_one_input(data: bytes) -> None:
    try:
        config = json.loads(text_of(data))
    except (ValueError, RecursionError):
        return  # not JSON: the text harness covers that
    if not isinstance(config, dict):
        return
    try:
        target = targetlang.parse(config)
    except targetlang.TargetError:
        return
    check_target(target)


if __name__ == "__main__":
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()
