"""What auto_scheduler's reader did with each line of a tuning log, as TVM v0.19 ran it.

auto_scheduler's ``RecordReader`` (src/auto_scheduler/measure_record.cc) skips lines starting with
``#`` or with a space, and reads every other line as a record: a blank line (empty, or white space
not starting with a space) fails, and so does a byte order mark. Its JSON reader (dmlc-core's)
skips C's white space before a record, a vertical tab or form feed too. The goldens in
tests/data/oracle/logs-*.jsonl hold what TVM v0.19 did.
"""

from __future__ import annotations

import math
import re
from typing import Any, NamedTuple

from .records import Field

__all__ = ["DMLC_STRING", "INT32_RANGE", "TRANSFORM_STEPS", "AutoSchedulerLine", "auto_scheduler_line"]


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
DMLC_STRING = re.compile(r'"((?:[^"\\\r\n]|\\["\\nrt])*)"')  # a string token dmlc reads
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
        found = DMLC_STRING.match(self.text, start)
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
