"""What TVM's own log loaders did with each line of a tuning log, as TVM v0.19 ran them.

A log is read by the loader of its tuner, and that loader fails on lines the formats of
:mod:`.formats` say nothing about; one such line ends the whole load:

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
* auto_scheduler's ``RecordReader`` (src/auto_scheduler/measure_record.cc) skips lines starting
  with ``#`` or with a space, and reads every other line as a record: a blank line (empty, or
  white space not starting with a space) fails, and so does a byte order mark. Its JSON reader
  skips C's white space before a record, a vertical tab or form feed too.
* meta-schedule's ``JSONDatabase`` reads every line as JSON: a blank line fails.

Python's semantics are kept where TVM relied on them: iterating a string gives its characters and
an object its keys, ``1 == 1.0 == True`` (one workload), ``np.mean`` of no costs is NaN and NaN is
never beaten. The goldens in tests/data/oracle/logs-*.jsonl hold what TVM v0.19 did.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Hashable, Iterator
from dataclasses import dataclass
from typing import Any, NamedTuple

from .formats import Format
from .records import Field, Record

__all__ = [
    "AUTOTVM_LOADER",
    "INT32_RANGE",
    "ODD_ESCAPE",
    "TRANSFORM_STEPS",
    "AutoSchedulerLine",
    "AutotvmLine",
    "FileLoading",
    "LineLoad",
    "auto_scheduler_line",
    "autotvm_line",
    "blank_load",
    "is_blank",
    "loader_of",
    "mean",
    "workload_of",
]

AUTOTVM_LOADER = "AutoTVM's loader (TVM v0.7 - v0.19)"

KNOB_KINDS = frozenset(("sp", "re", "an", "ot"))


def is_blank(record: Record) -> bool:
    """Whether the line is empty or white space only (a ``Format.COMMENT`` line that is not ``#``)."""
    text = record.text
    return not text or text.isspace()


def loader_of(fmt: Format) -> str | None:
    """The TVM loader that reads records of ``fmt``: ``"autotvm"``, ``"auto_scheduler"``,
    ``"meta_schedule"``, or ``None`` (comments and unknown lines say nothing)."""
    if fmt.is_autotvm:
        return "autotvm"
    if fmt is Format.AUTO_SCHEDULER:
        return "auto_scheduler"
    if fmt in (Format.META_SCHEDULE_RECORD, Format.META_SCHEDULE_WORKLOAD):
        return "meta_schedule"
    return None


class _Raised(Exception):
    """What TVM raised: the Python exception's class and, in words, why."""

    def __init__(self, error: str, message: str) -> None:
        super().__init__(message)
        self.error = error
        self.message = message


# ---------------------------------------------------------------------------------- AutoTVM


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


# --------------------------------------------------------------------------- auto_scheduler


class AutoSchedulerLine(NamedTuple):
    """What auto_scheduler's ``RecordReader`` (TVM v0.19, src/auto_scheduler/measure_record.cc)
    did with one line, read as its dmlc JSON reader reads it (not as ``json.loads`` does).

    ``fails`` says why the reader raised on the line (``""``: it read it); ``fields`` are the
    target (``i[0][1]``) and host (``i[0][3]``) strings it read, with their spans in the line,
    decoded as dmlc decodes them (each must then build as a ``Target``; an empty host is no
    host); ``all_cost`` is the record's ``r[2]``, or ``None`` when the line has no ``r``: the
    reader reuses one ``MeasureInput`` and one ``MeasureResult`` for the whole file, and a member
    a line lacks keeps what the previous line (or, first, the default: no task, ``all_cost`` 0)
    left there. ``input`` says whether the line has an ``i``.
    """

    fails: str = ""
    fields: tuple[Field, ...] = ()
    all_cost: float | None = None
    input: bool = False


_DMLC_SPACE = re.compile(r"[ \t\n\r\x0b\x0c]*")  # C's isspace in the "C" locale
_DMLC_STRING = re.compile(r'"((?:[^"\\\r\n]|\\["\\nrt])*)"')
_DMLC_ESCAPE = re.compile(r"\\(.)")
_DMLC_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", '"': '"', "\\": "\\"}
_DMLC_INT = re.compile(r"[+-]?[0-9]+")
_DMLC_MANTISSA = re.compile(r"[+-]?[0-9]*(?:\.[0-9]*)?")
_DMLC_EXPONENT = re.compile(r"[eE][+-]?[0-9]*")
INT32_RANGE = range(-(2**31), 2**31)
# The transform steps auto_scheduler reads (StepReadFromRecord, src/auto_scheduler/transform_step.cc)
# and what each reads after its name: i an int, s a string, a an array of ints, b a bool (0 or 1).
TRANSFORM_STEPS = {
    "AN": "iii", "FU": "ia", "PR": "iis", "RE": "ia", "SP": "iiiab", "FSP": "iiii", "FFSP": "iiaib",
    "SA": "iiii", "CA": "iii", "CI": "i", "CR": "i", "CHR": "isa", "CHW": "is", "RF": "iii",
}  # fmt: skip


class _DmlcFails(Exception):
    """dmlc's reader (a ``CHECK``, or ``LOG(FATAL)``) or auto_scheduler's ``ICHECK`` failed."""


class _Dmlc:
    """dmlc-core's ``JSONReader`` (include/dmlc/json.h, at TVM v0.19's submodule commit) over one
    line: white space is C's, a string takes only the escapes ``\\" \\\\ \\n \\r \\t``, a number
    is what ``std::istream >>`` reads (no NaN, no infinity; an ``int`` stops at a ``.`` or ``e``),
    an array or object may end at the end of the line, and nothing after the record is read."""

    __slots__ = ("pos", "scopes", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.scopes: list[int] = []

    def fail(self, message: str) -> _DmlcFails:
        return _DmlcFails(f"{message} (at column {self.pos + 1})")

    def _next(self) -> str:
        """``NextNonSpace``: the next character after white space (``""``: the line ended)."""
        pos = _DMLC_SPACE.match(self.text, self.pos).end()  # type: ignore[union-attr]
        self.pos = pos + 1
        return self.text[pos : pos + 1]

    def _peek(self) -> str:
        self.pos = _DMLC_SPACE.match(self.text, self.pos).end()  # type: ignore[union-attr]
        return self.text[self.pos : self.pos + 1]

    def begin(self, opening: str) -> None:
        """``BeginArray`` (``[``) or ``BeginObject`` (``{``)."""
        if self._next() != opening:
            self.pos -= 1
            raise self.fail(f"expected {opening!r}")
        self.scopes.append(0)

    def item(self, closing: str = "]") -> bool:
        """``NextArrayItem`` (``]``) or ``NextObjectItem``'s first half (``}``)."""
        if self.scopes[-1]:
            ch = self._next()
            if ch in ("", closing):
                self.scopes.pop()
                return False
            if ch != ",":
                self.pos -= 1
                raise self.fail(f"expected ',' or {closing!r}")
        elif self._peek() == closing:
            self.pos += 1
            self.scopes.pop()
            return False
        self.scopes[-1] += 1
        return True

    def key(self) -> str | None:
        """``NextObjectItem``: the next member's key, or ``None`` at the object's end."""
        if not self.item("}"):
            return None
        key = self.string()[0]
        if self._next() != ":":
            self.pos -= 1
            raise self.fail("expected ':'")
        return key

    def string(self) -> tuple[str, int, int]:
        """``ReadString``: the decoded string and the span of its token."""
        if self._next() != '"':
            self.pos -= 1
            raise self.fail("expected a string")
        start = self.pos - 1
        found = _DMLC_STRING.match(self.text, start)
        if found is None:
            raise self.fail('a string with an escape dmlc does not know (only \\" \\\\ \\n \\r \\t), or unterminated')
        self.pos = found.end()
        body = found.group(1)
        if "\\" in body:
            body = _DMLC_ESCAPE.sub(lambda m: _DMLC_ESCAPES[m.group(1)], body)
        return body, start, found.end()

    def int(self) -> int:
        """``is >> int``."""
        self._peek()
        found = _DMLC_INT.match(self.text, self.pos)
        if found is None or int(found.group()) not in INT32_RANGE:
            raise self.fail("expected a number (an int)")
        self.pos = found.end()
        return int(found.group())

    def double(self) -> float:
        """``is >> double``: libstdc++ gathers a sign, digits and one point, then (after a digit)
        an exponent, and fails unless ``strtod`` takes all of it and it is finite."""
        self._peek()
        end = _DMLC_MANTISSA.match(self.text, self.pos).end()  # type: ignore[union-attr]
        exponent = _DMLC_EXPONENT.match(self.text, end)
        if exponent is not None and any(c.isdigit() for c in self.text[self.pos : end]):
            end = exponent.end()
        token = self.text[self.pos : end]
        try:
            value = float(token)
        except ValueError:
            value = math.nan
        if not math.isfinite(value) or "_" in token:
            raise self.fail("expected a number (a double)")
        self.pos = end
        return value

    def need(self, present: bool, message: str) -> None:
        """auto_scheduler's ``ICHECK(s)`` (``present``) after ``NextArrayItem``."""
        if not present:
            raise self.fail(message)

    def step(self, name: str) -> None:
        """The members of a transform step after its name (``name`` one of ``TRANSFORM_STEPS``)."""
        for kind in TRANSFORM_STEPS[name]:
            self.need(self.item(), f"the transform step {name!r} has too few members")
            if kind == "i":
                self.int()
            elif kind == "s":
                self.string()
            elif kind == "b":
                if self.int() not in (0, 1):
                    raise self.fail("expected a bool (0 or 1)")
            else:
                self.begin("[")
                while self.item():
                    self.int()
        self.need(not self.item(), f"the transform step {name!r} has too many members")


ODD_ESCAPE = re.compile(r'\\[^"\\nrt]')  # an escape dmlc may not know (a "\\\\u" too: then the slow way)
_KEY = re.compile(r'"[irv]"\s*:')


def auto_scheduler_line(text: str, value: Any = None) -> AutoSchedulerLine:
    """What auto_scheduler's ``ReadMeasureRecord`` (TVM v0.19) did with the line ``text`` (not a
    comment: the reader skips lines starting with ``#`` or a space). ``value``, when given, is
    ``json.loads(text)``: a record as TVM wrote it is then seen at once (without its fields)."""
    plain = isinstance(value, dict) and not text.startswith("\ufeff") and not ODD_ESCAPE.search(text)
    if plain and len(_KEY.findall(text)) == len(value):
        # json.loads read the line and dmlc decodes its strings alike; no member is repeated.
        try:
            return _from_value(value)
        except _DmlcFails:
            pass  # the slow way says where
    reader = _Dmlc(text)
    fields: list[Field] = []
    all_cost: float | None = None
    has_input = False
    try:
        reader.begin("{")
        while (key := reader.key()) is not None:
            if key == "i":
                _input(reader, fields)
                has_input = True
            elif key == "r":
                all_cost = _result(reader)
            elif key == "v":
                reader.string()
            else:
                raise reader.fail(f"Invalid key in json log: {key!r}")
    except _DmlcFails as err:
        return AutoSchedulerLine(str(err), tuple(fields))
    return AutoSchedulerLine("", tuple(fields), all_cost, has_input)


def _from_value(value: dict[str, Any]) -> AutoSchedulerLine:
    """:func:`auto_scheduler_line` of a line ``json.loads`` read as ``value``: raises
    ``_DmlcFails`` where the line is no record dmlc reads (then read the text, which says why)."""
    all_cost = None
    for key, member in value.items():
        if key == "i":
            _check(type(member) is list and len(member) == 2)
            task, state = member
            _check(type(task) is list and len(task) in (2, 3, 5, 6) and _strings(task[:2]))
            if len(task) > 2:
                _check(type(task[2]) is list and len(task[2]) == 8 and all(_int32(n) for n in task[2]))
            if len(task) > 3:
                _check(type(task[3]) is str and _int32(task[4]))
            if len(task) > 5:
                _check(type(task[5]) is list and _strings(task[5]))
            _check(type(state) is list and len(state) == 2 and state[0] == [] and type(state[1]) is list)
            for step in state[1]:
                _check(type(step) is list and bool(step) and type(step[0]) is str)
                kinds = TRANSFORM_STEPS.get(step[0])
                _check(kinds is not None and len(step) == len(kinds) + 1)
                for kind, item in zip(kinds or "", step[1:], strict=True):
                    if kind == "s":
                        _check(type(item) is str)
                    elif kind == "a":
                        _check(type(item) is list and all(_int32(n) for n in item))
                    else:
                        _check(_int32(item) and (kind == "i" or item in (0, 1)))
        elif key == "r":
            _check(type(member) is list and len(member) == 4 and type(member[0]) is list)
            costs, error_no, cost, stamp = member
            _check(all(_double(c) for c in costs) and _int32(error_no) and _double(cost) and _double(stamp))
            all_cost = float(cost)
        else:
            _check(key == "v" and type(member) is str)
    return AutoSchedulerLine("", (), all_cost, "i" in value)


def _check(ok: bool) -> None:
    if not ok:
        raise _DmlcFails


def _strings(items: list[Any]) -> bool:
    return all(type(item) is str for item in items)


def _int32(value: Any) -> bool:
    return type(value) is int and value in INT32_RANGE


def _double(value: Any) -> bool:
    if type(value) is float:
        return math.isfinite(value)
    if type(value) is int:
        try:
            return math.isfinite(float(value))
        except OverflowError:
            return False
    return False


def _target(reader: _Dmlc, name: str, fields: list[Field]) -> str:
    spec, start, end = reader.string()
    fields.append(Field(name, start, end, spec, "string"))
    return spec


def _input(reader: _Dmlc, fields: list[Field]) -> None:
    """``Handler<MeasureInputNode>::Read``: ``[task, state]``."""
    reader.begin("[")
    reader.need(reader.item(), "'i' has no search task")
    # Handler<SearchTaskNode>::Read: [workload key, target, hardware params, host, layout
    # rewrite option, task input names], everything after the target optional in turn.
    reader.begin("[")
    reader.need(reader.item(), "the search task has no workload key")
    reader.string()
    reader.need(reader.item(), "the search task has no target")
    _target(reader, "target", fields)
    if reader.item():
        reader.begin("[")  # the hardware params: 8 ints
        for n in range(8):
            reader.need(reader.item(), f"the hardware params have {n} numbers, not 8")
            reader.int()
        reader.need(not reader.item(), "the hardware params have more than 8 numbers")
        if reader.item():
            _target(reader, "host", fields)
            reader.need(reader.item(), "the search task has a host but no layout rewrite option after it")
            reader.int()
            present = reader.item()
            if present:
                reader.begin("[")
                while reader.item():
                    reader.string()
                present = reader.item()
            reader.need(not present, "the search task has members after its task input names")
    reader.need(reader.item(), "'i' has no state")
    # Handler<StateNode>::Read: [stages (always written empty), transform steps].
    reader.begin("[")
    reader.need(reader.item(), "the state has no stages")
    reader.begin("[")
    reader.need(not reader.item(), "the state's stages are not empty")
    reader.need(reader.item(), "the state has no transform steps")
    reader.begin("[")
    while reader.item():
        reader.begin("[")
        reader.need(reader.item(), "an empty transform step")
        name = reader.string()[0]
        if name not in TRANSFORM_STEPS:
            raise reader.fail(f"Invalid step format: {name}")
        reader.step(name)
    reader.need(not reader.item(), "the state has more than 2 members")
    reader.need(not reader.item(), "'i' has more than 2 members")


def _result(reader: _Dmlc) -> float:
    """``Handler<MeasureResultNode>::Read``: ``[costs, error_no, all_cost, timestamp]``; the
    all_cost."""
    reader.begin("[")
    reader.need(reader.item(), "'r' has no costs")
    reader.begin("[")
    while reader.item():
        reader.double()
    reader.need(reader.item(), "'r' has no error_no")
    reader.int()
    reader.need(reader.item(), "'r' has no all_cost")
    all_cost = reader.double()
    reader.need(reader.item(), "'r' has no timestamp")
    reader.double()
    reader.need(not reader.item(), "'r' has more than 4 members")
    return all_cost


# ---------------------------------------------------------------------------------- per file


@dataclass(frozen=True, slots=True)
class LineLoad:
    """How the loader of a file took one of its lines: ``comment`` (skipped), ``fails`` (the
    loader raises on the line, and the whole load fails: ``error`` is ``BlankLine`` or
    ``LoadError``, ``message`` says why), or ``line`` (read as the line's format says: a record,
    or a line of no known format)."""

    what: str
    error: str = ""
    message: str = ""


_SKIPPED = LineLoad("comment")
_READ = LineLoad("line")
_BLANK = {
    "autotvm": LineLoad(
        "fails",
        "BlankLine",
        "a blank line: AutoTVM's load_from_file (TVM v0.7 - v0.19) raises on it (json.loads: JSONDecodeError), "
        "and the whole log fails to load",
    ),
    "auto_scheduler": LineLoad(
        "fails",
        "BlankLine",
        "a blank line: auto_scheduler's RecordReader (TVM v0.19) fails on it, and the whole log fails to load "
        "(a line starting with a space or '#' is a comment to it)",
    ),
    "meta_schedule": LineLoad(
        "fails",
        "BlankLine",
        "a blank line: meta-schedule's JSONDatabase fails on it (no JSON value), and the whole database fails to load",
    ),
}
_AUTO_SCHEDULER_BOM = LineLoad(
    "fails",
    "LoadError",
    "a byte order mark starts the line: auto_scheduler's RecordReader (TVM v0.19) fails on it, and the whole log "
    "fails to load",
)
_NO_TASK = LineLoad(
    "fails",
    "LoadError",
    "a record without 'i' before any record with one: auto_scheduler's RecordReader (TVM v0.19) keeps the input "
    "of the record before for it, here none, and load_records raises AttributeError (check_workload_key reads "
    "the task of every input); the whole log fails to load",
)


def blank_load(record: Record, loader: str | None) -> LineLoad | None:
    """What ``loader`` (AutoTVM's when ``None``) does with ``record`` if it is a blank line: it
    fails on it (``BlankLine``), or, auto_scheduler's on a line starting with a space, skips it
    (``None``, as for a line that is not blank)."""
    if not is_blank(record) or (loader == "auto_scheduler" and record.text.startswith(" ")):
        return None
    return _BLANK[loader or "autotvm"]


# At most this many lines wait for the file's loader (lines starting with a space, before the
# first record): beyond it they are taken as AutoTVM's, so memory stays flat.
_MAX_WAITING = 4096


class FileLoading:
    """Follows one file line by line: which TVM loader reads it (the one of its first record),
    and what that loader does with each line.

    A line starting with a space is a comment to auto_scheduler's reader, and a blank line or a
    line of no known format to AutoTVM's: such lines before the file's first record wait until
    that record says whose file it is (or the file ends: then AutoTVM's), unless the loader is
    given. :meth:`feed` gives back the lines it can decide, in order, and :meth:`finish` the
    last ones.
    """

    def __init__(self, loader: str | None = None, task: bool = False) -> None:
        self.loader = loader  # "autotvm", "auto_scheduler", "meta_schedule"; None until a record says
        self._waiting: list[Record] = []
        self._task = task  # auto_scheduler: whether a line read so far had an "i"

    @property
    def settled(self) -> bool:
        """Whether what the loader does with a line no longer depends on the lines before it:
        the loader is known and (auto_scheduler's) a line with an "i" has been read. From then
        on, any part of the file can be checked apart, with ``FileLoading(loader, task=True)``."""
        return self.loader is not None and (self._task or self.loader != "auto_scheduler")

    def decide(self, record: Record) -> tuple[Record, LineLoad]:
        """What the loader does with ``record`` (as :meth:`feed`, once ``self.loader`` is known:
        no line waits then, each is decided as it comes)."""
        if record.text.startswith("#"):
            return record, _SKIPPED
        return self._load(record)

    def feed(self, record: Record) -> Iterator[tuple[Record, LineLoad]]:
        """The lines decided now that ``record`` is read (``record`` itself among them, or not yet)."""
        text = record.text
        if text.startswith("#"):
            yield record, _SKIPPED
            return
        if self.loader is None:
            if record.format is Format.UNKNOWN and not text.startswith(" "):
                # auto_scheduler's reader reads lines json.loads does not (C's white space
                # before the record, no "v", text after it): one that holds a target is its.
                read = auto_scheduler_line(text)
                if not read.fails and any(field.name == "target" for field in read.fields):
                    record = _auto_scheduler_record(record, read)
            if text.startswith(" ") and (is_blank(record) or record.format is Format.UNKNOWN):
                self._waiting.append(record)
                if len(self._waiting) >= _MAX_WAITING:
                    yield from self.finish()
                return
            self.loader = loader_of(record.format)
            if self.loader is not None:
                yield from self._release()
        yield self._load(record)

    def finish(self) -> Iterator[tuple[Record, LineLoad]]:
        """The lines still waiting (at the end of the file), taken as AutoTVM's loader takes them."""
        if self.loader is None:
            self.loader = "autotvm"
        yield from self._release()

    def _release(self) -> Iterator[tuple[Record, LineLoad]]:
        waiting, self._waiting = self._waiting, []
        for record in waiting:
            yield self._load(record)

    def _load(self, record: Record) -> tuple[Record, LineLoad]:
        text = record.text
        loader = self.loader or "autotvm"
        if loader == "auto_scheduler":
            if text.startswith(" "):
                return record, _SKIPPED
            if text.startswith("\ufeff"):
                return record, _AUTO_SCHEDULER_BOM
        if not text or text.isspace():
            return record, _BLANK[loader]
        if loader == "auto_scheduler":
            read = auto_scheduler_line(text, record.value if record.format is Format.AUTO_SCHEDULER else None)
            if read.fails:
                message = (
                    f"auto_scheduler's RecordReader (TVM v0.19) fails on the line ({read.fails}), and the whole log "
                    "fails to load"
                )
                return record, LineLoad("fails", "LoadError", message)
            self._task = self._task or read.input
            if not self._task:
                return record, _NO_TASK
            if record.format is not Format.AUTO_SCHEDULER:
                record = _auto_scheduler_record(record, read)
        return record, _READ


def _auto_scheduler_record(record: Record, read: AutoSchedulerLine) -> Record:
    """``record`` as the auto_scheduler record its loader read (its targets where dmlc found
    them): a line ``json.loads`` reads otherwise, or not at all."""
    return record._replace(format=Format.AUTO_SCHEDULER, fields=read.fields, problem="")
