"""Tuning logs: reading their records losslessly, and checking, counting, matching and migrating their targets.

>>> from targetlang.logs import parse_line, splice, encode_value
>>> record = parse_line('{"input": ["llvm -mcpu=skylake", "dense", [], {}], "version": 0.2}')
>>> record.format.value, record.target
('autotvm-v0.2', 'llvm -mcpu=skylake')
>>> field = record.field("target")
>>> record.text[field.start : field.end]
'"llvm -mcpu=skylake"'
>>> splice(record, "target", encode_value(record, "target", "llvm -mcpu=icelake-server"))
'{"input": ["llvm -mcpu=icelake-server", "dense", [], {}], "version": 0.2}'

See docs/logs.md for the formats and the ``targetlang logs`` commands.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .check import Checker, CheckSummary, Problem
    from .formats import Format
    from .match import Matcher, Query, RecordMatch
    from .migration import FieldMigration, LogMigrator, MigrateSummary, RecordMigration
    from .records import Field, Record, encode_value, parse_line, read_file, read_lines, splice, writer_version
    from .stats import Stats, TargetStats
    from .targets import Reading, TargetReader, autotvm_rewrite

# Each name is imported from its module when it is first asked for: a command that reads one of
# them would otherwise load every log module (40 ms) to start.
_HOMES = {
    **dict.fromkeys(("Checker", "CheckSummary", "Problem"), "check"),
    "Format": "formats",
    **dict.fromkeys(("Matcher", "Query", "RecordMatch"), "match"),
    **dict.fromkeys(("FieldMigration", "LogMigrator", "MigrateSummary", "RecordMigration"), "migration"),
    **dict.fromkeys(
        ("Field", "Record", "encode_value", "parse_line", "read_file", "read_lines", "splice", "writer_version"),
        "records",
    ),
    **dict.fromkeys(("Stats", "TargetStats"), "stats"),
    **dict.fromkeys(("Reading", "TargetReader", "autotvm_rewrite"), "targets"),
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


__all__ = [
    "CheckSummary",
    "Checker",
    "Field",
    "FieldMigration",
    "Format",
    "LogMigrator",
    "Matcher",
    "MigrateSummary",
    "Problem",
    "Query",
    "Reading",
    "Record",
    "RecordMatch",
    "RecordMigration",
    "Stats",
    "TargetReader",
    "TargetStats",
    "autotvm_rewrite",
    "encode_value",
    "parse_line",
    "read_file",
    "read_lines",
    "splice",
    "writer_version",
]
