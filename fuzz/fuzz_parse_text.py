"""Fuzz ``targetlang.parse`` on text: legacy strings, tag names, JSON and JSON-ish objects."""

from __future__ import annotations

import sys

import atheris

with atheris.instrument_imports():
    from common import check_target, text_of

    import targetlang


def test_one_input(data: bytes) -> None:
    text = text_of(data)
    try:
        target = targetlang.parse(text)
    except targetlang.TargetError:
        return
    check_target(target, text)


if __name__ == "__main__":
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()
