"""What AutoTVM's loader did with each line of a tuning log, as TVM v0.19 ran it.

* AutoTVM's ``load_from_file`` (python/tvm/autotvm/record.py, v0.7 - v0.19) skips lines starting
  with ``#`` and hands every other line to ``decode``: ``json.loads`` (a blank line, a byte order
  mark, a pickle row raise there), then the record's members, in this order: an object whose
  ``"v"`` equals ``0.1`` is AutoTVM's log format v0.1 and is skipped ("AutoTVM log version 0.1 is
  no longer supported."); else ``input`` is unpacked into four, its target parsed
  (``-target`` rewritten to ``-mtriple``), the task name and arguments made tuples (JSON lists to
  tuples, ``true`` to ``1``), ``config`` read as a ``ConfigEntity`` (``index``, ``code_hash``,
  ``entity`` of ``[name, "sp"|"re"|"an"|"ot", args]`` items), ``result`` spread into the four
  members of a ``MeasureResult`` and its costs averaged with ``np.mean``.
* ``ApplyHistoryBest.load`` (task/dispatcher.py) then skips records whose ``error_no != 0`` and
  indexes the others by ``(key, workload)`` and ``(model, workload)``, the workload being
  ``(task name, *serialize_args(args))``: arguments it cannot iterate or that hold an object
  make it raise there.

Python's semantics are kept where TVM relied on them: iterating a string gives its characters and
an object its keys, ``1 == 1.0 == True`` (one workload), ``np.mean`` of no costs is NaN and NaN is
never beaten. The goldens in tests/data/oracle/logs-*.jsonl hold what TVM v0.19 did.
"""

from __future__ import annotations

import json
import math
from collections.abc import Hashable
from typing import Any, NamedTuple

from .formats import Format
from .records import Record

__all__ = ["AUTOTVM_LOADER", "KNOB_KINDS", "AutotvmLine", "autotvm_line", "mean", "workload_of"]

AUTOTVM_LOADER = "AutoTVM's loader (TVM v0.7 - v0.19)"

KNOB_KINDS = frozenset(("sp", "re", "an", "ot"))


class _Raised(Exception):
    """What TVM raised: the Python exception's class and, in words, why."""

    def __init__(self, error: str, message: str) -> None:
        super().__init__(message)
        self.error = error
        self.message = message


class AutotvmLine(NamedTuple):
    """What AutoTVM's ``load_from_file`` and ``ApplyHistoryBest.load`` did with one line.

    ``outcome``: ``comment`` (a ``#`` line), ``old`` (log format v0.1: skipped), ``record``
    (decoded; indexed when ``indexed``) or ``raises`` (``error`` is the exception's class,
    ``message`` why; ``dispatch`` when ``ApplyHistoryBest.load`` raised, not ``load_from_file``;
    ``parsed`` when TVM had built the target ``spec`` before it raised). For a record: ``spec``
    is its target text as written (``str()`` of what is no string, as ``decode`` made it),
    ``index`` its config index, ``cost`` ``np.mean`` of its costs, ``error_no`` as written,
    ``workload`` the workload tuple ``ApplyHistoryBest`` indexed it under (``None`` when not
    indexed, or not built). (A named tuple: ``logs check`` makes one per record, and a tuple is
    made fastest.)
    """

    outcome: str
    error: str = ""
    message: str = ""
    dispatch: bool = False
    spec: str = ""
    index: Any = None
    cost: float = math.nan
    error_no: Any = None
    workload: Hashable = None
    parsed: bool = False  # TVM got as far as building the target (``spec``, an empty one too)

    @property
    def indexed(self) -> bool:
        """Whether ``ApplyHistoryBest`` indexed the record (it measured without error)."""
        return self.outcome == "record" and bool(self.error_no == 0)


_COMMENT = AutotvmLine("comment")


def autotvm_line(record: Record, workload: bool = True) -> AutotvmLine:
    """What AutoTVM's loader did with ``record``'s line. The target is not read here: the caller
    reads ``spec`` (TVM parsed it after unpacking ``input``, before anything else of the record).
    Without ``workload``, the workload of an indexed record is only checked, not built (faster:
    ``logs check`` wants to know whether TVM raised, not where it indexed the record)."""
    text = record.text
    if text.startswith("#"):
        return _COMMENT
    try:
        row = _row(record)
        return _decode(row, workload, text)
    except _Raised as raised:
        return AutotvmLine("raises", raised.error, raised.message)
    except RecursionError:
        return AutotvmLine("raises", "RecursionError", "the line nests too deep for Python's json")


_DECODED = (
    Format.AUTOTVM_V02,
    Format.AUTOTVM_V01,
    Format.AUTO_SCHEDULER,
    Format.META_SCHEDULE_RECORD,
    Format.META_SCHEDULE_WORKLOAD,
)


def _row(record: Record) -> Any:
    """``json.loads`` of the line, as ``decode`` did it."""
    text = record.text
    if record.format in _DECODED and not text.startswith("\ufeff"):
        return record.value
    if record.format is Format.UNKNOWN and record.problem.startswith("not UTF-8"):
        raise _Raised("UnicodeDecodeError", f"the line is {record.problem}: reading the file as text fails")
    if not text or text.isspace():
        raise _Raised("JSONDecodeError", "a blank line: json.loads finds no JSON value in it")
    if text.startswith("\ufeff"):
        raise _Raised("JSONDecodeError", "a byte order mark starts the line, and json.loads refuses it")
    if record.value is not None:
        return record.value
    try:
        return json.loads(text)
    except ValueError as err:
        what = (
            "a pickle row: the loader reads only JSON lines" if record.format is Format.AUTOTVM_PICKLE else "not JSON"
        )
        raise _Raised("JSONDecodeError", f"{what} (json.loads: {err})") from None


_OLD = AutotvmLine("old", message='AutoTVM log format v0.1 ("v": 0.1), which TVM v0.7 and later skip')


def _decode(row: Any, build: bool, text: str = "") -> AutotvmLine:
    if not isinstance(row, dict):
        raise _Raised("TypeError", f"the line is {_a(row)}, not a JSON object")
    if "v" in row and row["v"] == 0.1:
        return _OLD
    if not build:
        line = _as_written(row, text)
        if line is not None:
            return line
    inp = _member(row, "input", "the record")
    target, name, args, _ = _unpack(inp, 4, "'input'")
    spec = str(target)  # decode's str(tgt): a Python repr for what is no string
    if isinstance(target, dict):
        raise _Raised(
            "ValueError",
            f"the target is a JSON object, which decode's str() makes the Python text {_short(spec)}: TVM's Target "
            "reads text starting with '{' as JSON, and json.loads refuses its quotes",
        )
    try:
        return _decode_task(spec, name, args, row, build)._replace(parsed=True)
    except _Raised as raised:
        # TVM parsed the target before this: ``parsed`` says it got that far.
        return AutotvmLine("raises", raised.error, raised.message, spec=spec, parsed=True)


def _as_written(row: dict[str, Any], text: str) -> AutotvmLine | None:
    """The line of a record as TVM wrote it, seen at once: ``None`` when it is not one, and the
    walk of :func:`_decode_task` must say what TVM made of it. Its workload is not built: the
    line's ``{`` are the record's, its config's and its keyword arguments' own, so its arguments
    hold no object, which is all ``ApplyHistoryBest`` could have raised on."""
    inp, config, result = row.get("input"), row.get("config"), row.get("result")
    if not (type(inp) is list and len(inp) == 4 and type(inp[0]) is str and type(inp[1]) is str):
        return None
    if not (type(config) is dict and "index" in config and "code_hash" in config):
        return None
    entity = config.get("entity")
    if type(entity) is not list:
        return None
    for item in entity:
        if not (type(item) is list and len(item) == 3 and type(item[1]) is str and item[1] in KNOB_KINDS):
            return None
    if not (type(result) is list and len(result) == 4 and type(inp[2]) is list):
        return None
    if text.count("{") != 2 + (type(inp[3]) is dict):
        return None
    try:
        cost = mean(result[0])
    except _Raised:
        return None
    return AutotvmLine("record", spec=inp[0], index=config["index"], cost=cost, error_no=result[1], parsed=True)


def _decode_task(spec: str, name: Any, args: Any, row: dict[str, Any], build: bool) -> AutotvmLine:
    if type(name) is not str:
        name = _clean(name)
        try:
            hash(name)
        except TypeError:
            raise _Raised(
                "TypeError", "the task name (input[1]) holds a JSON object, which Python cannot hash"
            ) from None
    config = _member(row, "config", "the record")
    index = _member(config, "index", "'config'")
    _member(config, "code_hash", "'config'")
    entity = _member(config, "entity", "'config'")
    # The entity as TVM wrote it is seen at once; another is walked item by item, as TVM walked it.
    if not (type(entity) is list and all(_knob_item(item) for item in entity)):
        _entity(entity)
    members = _iterate(_member(row, "result", "the record"), "'result'")
    if len(members) != 4:
        raise _Raised("TypeError", f"'result' has {len(members)} members, not the 4 of a MeasureResult")
    cost = mean(members[0])
    error_no = members[1]
    line = AutotvmLine("record", spec=spec, index=index, cost=cost, error_no=error_no)
    if error_no != 0:
        return line
    try:
        if not build and _plain_args(args):
            return line
        workload = (name, *_serialize_args(_clean(args)))
    except _Raised as raised:
        return AutotvmLine("raises", raised.error, raised.message, True, spec, index, cost, error_no)
    return AutotvmLine("record", spec=spec, index=index, cost=cost, error_no=error_no, workload=workload)


def _knob_item(item: Any) -> bool:
    return type(item) is list and len(item) == 3 and type(item[1]) is str and item[1] in KNOB_KINDS


def _entity(entity: Any) -> None:
    """``ConfigEntity.from_json_dict``'s walk over config ``entity``: raises where TVM raised."""
    for item in _iterate(entity, "config 'entity'"):
        _, knob, _ = _unpack(item, 3, "an item of config 'entity'")
        if not isinstance(knob, str):
            raise _Raised("TypeError", f"config 'entity' has a knob type {json.dumps(knob)}, not a string")
        if knob not in KNOB_KINDS:
            raise _Raised("RuntimeError", f"config 'entity' has the knob type {knob!r}: Invalid config knob type")


def workload_of(name: Any, args: Any) -> Hashable:
    """The workload TVM's ``Task.workload`` made of a task name and arguments as decoded from
    JSON; ``None`` when TVM could not (it raised)."""
    try:
        name, args = _clean(name), _clean(args)
        hash(name)
        return (name, *_serialize_args(args))
    except (_Raised, TypeError):
        return None


def _short(text: str) -> str:
    return repr(text if len(text) <= 60 else text[:57] + "...")


def _a(value: Any) -> str:
    """``value``'s JSON sort, with its article."""
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if value is None:
        return "null"
    if isinstance(value, str):
        return "a string"
    return "an array" if isinstance(value, list) else "an object"


def _member(value: Any, key: str, what: str) -> Any:
    """``value[key]``, as Python subscripts a decoded JSON value."""
    if isinstance(value, dict):
        if key in value:
            return value[key]
        raise _Raised("KeyError", f"{what} has no {key!r}")
    raise _Raised("TypeError", f"{what} is {_a(value)}, not a JSON object")


def _iterate(value: Any, what: str) -> list[Any]:
    """The items Python iterates ``value`` into: an array's items, a string's characters, an
    object's keys; any other value raises."""
    if isinstance(value, list):
        return value
    if isinstance(value, str | dict):
        return list(value)
    raise _Raised("TypeError", f"{what} is {_a(value)}, which Python cannot iterate")


def _unpack(value: Any, n: int, what: str) -> list[Any]:
    items = _iterate(value, what)
    if len(items) != n:
        raise _Raised("ValueError", f"{what} has {len(items)} items, not {n}")
    return items


def _clean(value: Any) -> Any:
    """``clean_json_to_python`` of record.py: lists become tuples, ``true``/``false`` ints."""
    if isinstance(value, list):
        return tuple(_clean(item) for item in value)
    if isinstance(value, int):
        return int(value)
    return value


def _plain_args(args: Any) -> bool:
    """Whether ``serialize_args`` surely takes ``args``: an array without an object anywhere (its
    ``repr``, made in C, has no ``{``; one inside a string only sends it the slow way)."""
    return type(args) is list and "{" not in repr(args)


def _serialize_args(args: Any) -> tuple[Any, ...]:
    """``serialize_args`` of task.py, on arguments decoded from JSON (and cleaned)."""
    if isinstance(args, tuple):
        items: list[Any] = list(args)
    elif isinstance(args, str | dict):
        items = list(args)
    else:
        raise _Raised("TypeError", f"the task arguments (input[2]) are {_a(args)}, which Python cannot iterate")
    return tuple(_encode(item) for item in items)


def _encode(value: Any) -> Any:
    if isinstance(value, tuple):
        return tuple(_encode(item) for item in value)
    if value is None or isinstance(value, str | int | float):
        return value
    raise _Raised("RuntimeError", "the task arguments (input[2]) hold a JSON object: Do not support type dict")


def mean(costs: Any) -> float:
    """``np.mean(costs)`` for costs decoded from JSON: NaN for none, the float64 mean summed
    pairwise as numpy sums; numpy's exceptions for what it cannot average."""
    if type(costs) is list and costs and all(type(cost) is float for cost in costs):
        return _pairwise(costs) / len(costs)  # the costs as TVM wrote them
    leaves = _leaves(costs)
    if not leaves:
        return math.nan
    for leaf in leaves:
        if isinstance(leaf, str):
            raise _Raised("TypeError", "the costs hold a string: np.mean cannot add strings")
        if leaf is None or isinstance(leaf, dict):
            raise _Raised("TypeError", f"the costs hold {_a(leaf)}: np.mean cannot add it")
    if any(type(leaf) is int and not -(2**63) <= leaf < 2**64 for leaf in leaves):
        # Beyond 64 bits numpy keeps Python ints (an object array): added in turn, then divided.
        total: Any = leaves[0]
        for leaf in leaves[1:]:
            total = total + leaf
        try:
            return float(total / len(leaves))
        except OverflowError:
            raise _Raised("OverflowError", "the costs' sum is too large for a float") from None
    return _pairwise([float(leaf) for leaf in leaves]) / len(leaves)


def _leaves(costs: Any) -> list[Any]:
    """The numbers of ``costs`` as numpy lays them out (C order); an array of arrays must be
    rectangular (numpy raises ValueError on an inhomogeneous shape)."""
    if not isinstance(costs, list | tuple):
        return [costs]
    level: list[Any] = [costs]
    while True:
        if len({len(item) for item in level}) > 1:
            raise _Raised("ValueError", "the costs are arrays of different lengths: np.mean needs a rectangular array")
        items = [leaf for item in level for leaf in item]
        nested = [isinstance(item, list | tuple) for item in items]
        if not items or not any(nested):
            return items
        if not all(nested):
            raise _Raised("ValueError", "the costs mix numbers and arrays: np.mean needs a rectangular array")
        level = items


def _pairwise(values: list[float]) -> float:
    """numpy's pairwise sum of float64 values (``pairwise_sum`` in loops_utils.h.src)."""
    n = len(values)
    if n < 8:
        total = 0.0
        for value in values:
            total += value
        return total
    if n <= 128:
        r = values[:8]
        i = 8
        while i < n - n % 8:
            for j in range(8):
                r[j] += values[i + j]
            i += 8
        total = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
        for value in values[i:]:
            total += value
        return total
    half = n // 2
    half -= half % 8
    return _pairwise(values[:half]) + _pairwise(values[half:])
