"""Typed access to tests/oracle/oracle_common.py, whose protocol and line format the harness
reuses (imported by name, so that type checkers do not follow it into ``import tvm``)."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any, cast

_COMMON = importlib.import_module("tests.oracle.oracle_common")

MARK = cast(str, _COMMON._MARK)


def encode(spec: Any) -> dict[str, Any]:
    """``{"input": spec}`` when JSON keeps ``spec`` exactly, else ``{"python": repr(spec)}``."""
    return cast(dict[str, Any], _COMMON.encode(spec))


def decode(row: Mapping[str, Any]) -> Any:
    """The input of a golden line."""
    return _COMMON.decode(row)
