"""The tuning-record formats of TVM's tuners, and where each keeps its target (spec section 12).

A line is recognised from its decoded JSON value alone (or, for AutoTVM's pickle protocol, from its
tab-separated columns): the formats do not share a shape, so one file may mix them and each line
is classified on its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

__all__ = ["Format", "Layout", "classify", "classify_columns"]


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
        return self in (Format.AUTOTVM_V02, Format.AUTOTVM_V01, Format.AUTOTVM_PICKLE)


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
_V02_LAYOUTS: dict[tuple[Any, ...], Layout] = {}
_V01_I = Layout(Format.AUTOTVM_V01, (("target", ("i", 0)),), "0.1")
_V01_INPUT = Layout(Format.AUTOTVM_V01, (("target", ("input", 0)),), "0.1")
_V01_NO_TARGET = Layout(Format.AUTOTVM_V01, (), "0.1")


def _autotvm_v02(version: Any, tvm: Any) -> Layout:
    key = (type(version), version, tvm) if isinstance(version, int | float | str | None) else None
    layout = _V02_LAYOUTS.get(key) if key is not None and isinstance(tvm, str | None) else None
    if layout is None:
        layout = Layout(Format.AUTOTVM_V02, _AUTOTVM_V02_TARGETS, _number_text(version), tvm if _is_str(tvm) else None)
        if key is not None and isinstance(tvm, str | None) and len(_V02_LAYOUTS) < 1024:
            _V02_LAYOUTS[key] = layout
    return layout


def _starts_with_string(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and _is_str(value[0])


def _autotvm_v01(value: dict[str, Any]) -> Layout:
    # Its target is i[0] (as TVM <= v0.6 wrote it) or, in a record of v0.2's shape, input[0].
    if _starts_with_string(value.get("i")):
        return _V01_I
    return _V01_INPUT if _starts_with_string(value.get("input")) else _V01_NO_TARGET


def classify(value: Any) -> Layout:
    """The format of a decoded JSON line, with the paths of its target fields.

    AutoTVM's records are told apart as its reader (TVM v0.7 - v0.19) told them: an object whose
    ``"v"`` equals ``0.1`` is of log format v0.1, which it skipped, whatever else it holds; any
    other object is read for its ``input``.
    """
    if isinstance(value, dict):
        if "v" in value and value["v"] == 0.1:
            return _autotvm_v01(value)
        if "input" in value:
            if _starts_with_string(value["input"]):
                return _autotvm_v02(value.get("version"), value.get("tvm_version"))
            return Layout(Format.UNKNOWN, reason="an AutoTVM record whose 'input' does not start with a target string")
        if "i" in value and "v" in value:
            inp, version = value["i"], value["v"]
            if _is_str(version):  # auto_scheduler writes "v0.6"; AutoTVM a number
                first = inp[0] if isinstance(inp, list) and inp else None
                if isinstance(first, list) and len(first) > 1 and _is_str(first[1]):
                    fields: list[tuple[str, Path]] = [("target", ("i", 0, 1))]
                    if len(first) > 3 and _is_str(first[3]):
                        fields.append(("host", ("i", 0, 3)))
                    return Layout(Format.AUTO_SCHEDULER, tuple(fields), version)
                return Layout(Format.UNKNOWN, reason="an auto_scheduler record without a target string at i[0][1]")
            return Layout(
                Format.UNKNOWN,
                reason="an 'i' record whose 'v' is not 0.1: AutoTVM (TVM v0.7 - v0.19) takes it for log format v0.2 "
                "and raises KeyError, as it has no 'input'",
            )
        return Layout(Format.UNKNOWN, reason="a JSON object with neither 'input' nor 'i' and 'v'")
    if isinstance(value, list) and len(value) == 2:
        first, second = value
        if isinstance(first, int) and not isinstance(first, bool) and isinstance(second, list) and len(second) >= 3:
            target = second[2]
            if isinstance(target, dict):
                return Layout(Format.META_SCHEDULE_RECORD, (("target", (1, 2)),), near_end=True, compact=True)
            if target is None:  # a record tuned without a target: nothing to read, nothing wrong
                return Layout(Format.META_SCHEDULE_RECORD, near_end=True, compact=True)
            return Layout(Format.UNKNOWN, reason="a meta-schedule record whose target is not a JSON object")
        if _is_str(first) and _is_str(second):
            return Layout(Format.META_SCHEDULE_WORKLOAD, compact=True)
    return Layout(Format.UNKNOWN, reason="not a tuning record of a known format")


def classify_columns(columns: list[str]) -> Layout:
    """The layout of a tab-separated line: AutoTVM's pickle protocol has 4 (v0.1) or 6 (v0.2) columns.

    Only plain-text columns are read: the target (first) and, in v0.2, the log version and TVM
    version (fifth and sixth). The others are base64 pickles and are never decoded.
    """
    if len(columns) == 6:
        return Layout(Format.AUTOTVM_PICKLE, log_version=columns[4], tvm_version=columns[5] or None)
    if len(columns) == 4:
        return Layout(Format.AUTOTVM_PICKLE, log_version="0.1")
    return Layout(
        Format.UNKNOWN, reason=f"neither JSON nor AutoTVM's pickle rows ({len(columns)} tab-separated columns)"
    )
