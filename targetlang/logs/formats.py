"""The tuning-record formats of TVM's tuners, and where each keeps its target (spec section 12).

A line is recognised from its decoded JSON value alone (or, for AutoTVM's pickle protocol, from its
tab-separated columns): the formats do not share a shape, so one file may mix them and each line
is classified on its own.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from .._cache import LruCache

__all__ = ["FORMATS", "ROWS", "Format", "Layout", "LogFormat", "classify", "classify_columns"]


class Format(str, Enum):
    """What a line of a tuning log is; ``Format.COMMENT`` for ``#`` lines and blank lines."""

    COMMENT = "comment"
    AUTOTVM_V02 = "autotvm-v0.2"  # {"input": [target, task, args, kwargs], "config", "result", "version", ...}
    AUTOTVM_V01 = "autotvm-v0.1"  # {"i": [target, task, args, kwargs, workload, config], "r", "v": 0.1}: any "v": 0.1
    AUTOTVM_PICKLE = "autotvm-pickle"  # target <TAB> base64 pickles ... (4 columns in v0.1, 6 in v0.2)
    AUTO_SCHEDULER = "auto_scheduler"  # {"i": [[workload_key, target, hw_params, host, ...], state], "v": "v0.6"}
    META_SCHEDULE_RECORD = "meta-schedule-record"  # [workload_index, [trace, run_secs, target_object, args_info]]
    META_SCHEDULE_WORKLOAD = "meta-schedule-workload"  # [structural_hash, base64_module]: no target
    UNKNOWN = "unknown"  # not a record of any format above (or not JSON, or not UTF-8)

    @property
    def is_autotvm(self) -> bool:
        """Whether AutoTVM's ``ApplyHistoryBest`` reads records of this format."""
        row = ROWS.get(self)
        return row is not None and row.family == "autotvm"


Path = tuple[str | int, ...]
"""Where a value sits inside a decoded JSON line: object keys and array indices, outermost first."""


@dataclass(frozen=True, slots=True)
class Layout:
    """What :func:`classify` learnt about one JSON line."""

    format: Format
    targets: tuple[tuple[str, Path], ...] = ()  # (field name, path of its value) for each target field
    log_version: str | None = None  # the record format's own version ("0.2", "v0.5", ...)
    tvm_version: str | None = None  # the TVM version that wrote the record, when it says
    near_end: bool = False  # the target sits near the end of the line (found faster from there)
    compact: bool = False  # written by a C++ dumper: no spaces after ',' and ':'
    reason: str = ""  # for UNKNOWN: why the line is not a record


def _is_str(value: Any) -> bool:
    return isinstance(value, str)


def _number_text(value: Any) -> str | None:
    """AutoTVM's numeric ``version`` as the text it was written with (``0.2``, ``0.1``)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return repr(value)


_AUTOTVM_V02_TARGETS: tuple[tuple[str, Path], ...] = (("target", ("input", 0)),)
# A log's records share their few (version, tvm_version) pairs: their layouts are made once.
_V02_LAYOUTS: LruCache[tuple[Any, ...], Layout] = LruCache(1024)
_V01_I = Layout(Format.AUTOTVM_V01, (("target", ("i", 0)),), "0.1")
_V01_INPUT = Layout(Format.AUTOTVM_V01, (("target", ("input", 0)),), "0.1")
_V01_NO_TARGET = Layout(Format.AUTOTVM_V01, (), "0.1")


def _autotvm_v02(version: Any, tvm: Any) -> Layout:
    key = (type(version), version, tvm) if isinstance(version, int | float | str | None) else None
    layout = _V02_LAYOUTS.get(key) if key is not None and isinstance(tvm, str | None) else None
    if layout is None:
        layout = Layout(Format.AUTOTVM_V02, _AUTOTVM_V02_TARGETS, _number_text(version), tvm if _is_str(tvm) else None)
        if key is not None and isinstance(tvm, str | None):
            _V02_LAYOUTS.put(key, layout)
    return layout


def _starts_with_string(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and _is_str(value[0])


def _autotvm_v01(value: dict[str, Any]) -> Layout:
    # Its target is i[0] (as TVM <= v0.6 wrote it) or, in a record of v0.2's shape, input[0].
    if _starts_with_string(value.get("i")):
        return _V01_I
    return _V01_INPUT if _starts_with_string(value.get("input")) else _V01_NO_TARGET


def _v02(value: Any) -> Layout | None:
    if not isinstance(value, dict):
        return None
    if "input" in value:
        if _starts_with_string(value["input"]):
            return _autotvm_v02(value.get("version"), value.get("tvm_version"))
        return Layout(Format.UNKNOWN, reason="an AutoTVM record whose 'input' does not start with a target string")
    if "i" in value and "v" in value and not _is_str(value["v"]):  # auto_scheduler writes "v0.6"
        return Layout(
            Format.UNKNOWN,
            reason="an 'i' record whose 'v' is not 0.1: AutoTVM (TVM v0.7 - v0.19) takes it for log format v0.2 "
            "and raises KeyError, as it has no 'input'",
        )
    return None


def _v01(value: Any) -> Layout | None:
    # AutoTVM's reader (TVM v0.7 - v0.19) skipped an object whose "v" equals 0.1, whatever else it held.
    if isinstance(value, dict) and "v" in value and value["v"] == 0.1:
        return _autotvm_v01(value)
    return None


def _auto_scheduler(value: Any) -> Layout | None:
    if not (isinstance(value, dict) and "i" in value and _is_str(value.get("v"))):
        return None
    inp = value["i"]
    first = inp[0] if isinstance(inp, list) and inp else None
    if isinstance(first, list) and len(first) > 1 and _is_str(first[1]):
        fields: list[tuple[str, Path]] = [("target", ("i", 0, 1))]
        if len(first) > 3 and _is_str(first[3]):
            fields.append(("host", ("i", 0, 3)))
        return Layout(Format.AUTO_SCHEDULER, tuple(fields), value["v"])
    return Layout(Format.UNKNOWN, reason="an auto_scheduler record without a target string at i[0][1]")


def _meta_schedule_record(value: Any) -> Layout | None:
    if not (isinstance(value, list) and len(value) == 2):
        return None
    first, second = value
    if not (isinstance(first, int) and not isinstance(first, bool) and isinstance(second, list) and len(second) >= 3):
        return None
    target = second[2]
    if isinstance(target, dict):
        return Layout(Format.META_SCHEDULE_RECORD, (("target", (1, 2)),), near_end=True, compact=True)
    if target is None:  # a record tuned without a target: nothing to read, nothing wrong
        return Layout(Format.META_SCHEDULE_RECORD, near_end=True, compact=True)
    return Layout(Format.UNKNOWN, reason="a meta-schedule record whose target is not a JSON object")


def _meta_schedule_workload(value: Any) -> Layout | None:
    if isinstance(value, list) and len(value) == 2 and _is_str(value[0]) and _is_str(value[1]):
        return Layout(Format.META_SCHEDULE_WORKLOAD, compact=True)
    return None


def _pickle(columns: Any) -> Layout | None:
    # Only the plain-text columns are read: the target (first) and, in v0.2, the log version and
    # TVM version (fifth and sixth). The others are base64 pickles and are never decoded.
    if len(columns) == 6:
        return Layout(Format.AUTOTVM_PICKLE, log_version=columns[4], tvm_version=columns[5] or None)
    if len(columns) == 4:
        return Layout(Format.AUTOTVM_PICKLE, log_version="0.1")
    return None


_STRING = r'"[^"\\]*(?:\\.[^"\\]*)*"'  # a JSON string token, written so that re runs it fast


@dataclass(frozen=True)
class LogFormat:
    """One tuning-record format: a row of :data:`FORMATS`.

    ``recognise`` takes a decoded JSON line (or, for ``columns`` formats, a line's tab-separated
    columns) and gives its :class:`Layout`, a ``Format.UNKNOWN`` layout when the line is this
    format's but broken, or ``None`` when it is not this format's. ``line`` is how the tuner's
    ``json.dumps`` wrote a record, as a pattern whose groups are the target fields' string tokens:
    a match proves where they stand, so the line's text is not searched (``None``: always
    searched). ``writers`` maps a record's log version to the TVM version that wrote it when the
    record does not say (AutoTVM's v0.1: TVM v0.6 or older, since v0.7 on skipped such records).
    ``encoding`` is how the target is stored: a JSON ``string``, a JSON ``object`` or a raw
    tab-separated ``column``. ``head`` is the part of ``line`` before the first target's token,
    which the log commands' shortcuts (``logs/_fast*.py``) look for in a line's bytes.
    """

    format: Format
    family: str  # the tuner: "autotvm", "auto_scheduler" or "meta_schedule"
    shape: str  # what a record looks like, for people
    recognise: Callable[[Any], Layout | None]
    encoding: str
    line: re.Pattern[str] | None = None
    writers: Mapping[str, str] = field(default_factory=dict)
    columns: bool = False
    head: str = ""


_V01_WRITER = {"0.1": "0.6"}
# How each tuner's json.dumps wrote a record up to its first target's token (the "r" and "v" of
# AutoTVM's v0.1 may come first)
_V01_HEAD = r'\{(?:"r": [^"]*, "v": [^",]*, )?"i": \['
_V02_HEAD = r'\{"input": \['
_AS_HEAD = r'\{"i": \[\['

# In the order lines are tried: a line is the first row's that recognises it.
FORMATS: tuple[LogFormat, ...] = (
    LogFormat(
        Format.AUTOTVM_V01,
        "autotvm",
        '{"i": [target, task, args, kwargs, workload, config], "r": ..., "v": 0.1}: any object whose "v" is 0.1',
        _v01,
        "string",
        re.compile(rf"{_V01_HEAD}({_STRING})"),
        _V01_WRITER,
        head=_V01_HEAD,
    ),
    LogFormat(
        Format.AUTOTVM_V02,
        "autotvm",
        '{"input": [target, task, args, kwargs], "config": ..., "result": ..., "version": 0.2, "tvm_version": ...}',
        _v02,
        "string",
        re.compile(rf"{_V02_HEAD}({_STRING})"),
        head=_V02_HEAD,
    ),
    LogFormat(
        Format.AUTO_SCHEDULER,
        "auto_scheduler",
        '{"i": [[workload_key, target, hw_params, host, ...], state], "r": ..., "v": "v0.6"}',
        _auto_scheduler,
        "string",
        re.compile(rf'{_AS_HEAD}{_STRING}, ({_STRING})(?:, \[[^"\[\]]*\], ({_STRING}))?'),
        head=_AS_HEAD,
    ),
    LogFormat(
        Format.META_SCHEDULE_RECORD,
        "meta_schedule",
        "[workload_index, [trace, run_secs, target_object, args_info]]",
        _meta_schedule_record,
        "object",
    ),
    LogFormat(
        Format.META_SCHEDULE_WORKLOAD,
        "meta_schedule",
        "[structural_hash, base64_module]: no target",
        _meta_schedule_workload,
        "object",
    ),
    LogFormat(
        Format.AUTOTVM_PICKLE,
        "autotvm",
        "target <TAB> base64 pickles ... (4 columns in v0.1, 6 in v0.2)",
        _pickle,
        "column",
        writers=_V01_WRITER,
        columns=True,
    ),
)
ROWS: Mapping[Format, LogFormat] = {row.format: row for row in FORMATS}
_JSON_ROWS = tuple(row for row in FORMATS if not row.columns)
_COLUMN_ROWS = tuple(row for row in FORMATS if row.columns)


def classify(value: Any) -> Layout:
    """The format of a decoded JSON line, with the paths of its target fields: the layout the
    first row of :data:`FORMATS` that recognises it gives.

    AutoTVM's records are told apart as its reader (TVM v0.7 - v0.19) told them: an object whose
    ``"v"`` equals ``0.1`` is of log format v0.1, which it skipped, whatever else it holds; any
    other object is read for its ``input``.
    """
    for row in _JSON_ROWS:
        layout = row.recognise(value)
        if layout is not None:
            return layout
    if isinstance(value, dict):
        return Layout(Format.UNKNOWN, reason="a JSON object with neither 'input' nor 'i' and 'v'")
    return Layout(Format.UNKNOWN, reason="not a tuning record of a known format")


def classify_columns(columns: list[str]) -> Layout:
    """The layout of a tab-separated line: AutoTVM's pickle protocol has 4 (v0.1) or 6 (v0.2) columns."""
    for row in _COLUMN_ROWS:
        layout = row.recognise(columns)
        if layout is not None:
            return layout
    return Layout(
        Format.UNKNOWN, reason=f"neither JSON nor AutoTVM's pickle rows ({len(columns)} tab-separated columns)"
    )
