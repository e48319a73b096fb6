"""auto_scheduler's records as TVM's reader reads them, told by msgspec's typed decoder in one pass.

``logs check`` gives a record what it found for the first record with the same target and host
(:class:`~targetlang.logs._fast_check.CheckLines`) only if TVM's reader reads both alike: then what
checking finds depends on the target and the host alone. :func:`scheduler_reader`'s function says so of a
line at about the cost of decoding it (orjson's decoding, then checks in Python, took twice as
long): the schema below is at least as strict as
:func:`~targetlang.logs._scheduler_reader.auto_scheduler_line`'s shortcut for a decoded record
(``_from_value``), written as types and made from the same table of transform steps, and the
bytes of the line are held to what that shortcut asks of the text.

msgspec is optional (``pip install 'targetlang[fast]'``): without it every auto_scheduler record
takes the general path, which is slower, never different.
"""

from __future__ import annotations

import functools
import operator
import re
from collections.abc import Callable
from typing import Annotated, Any, Literal

from .._cache import make_room, on_clear
from .._signals import signals_held
from ._scheduler_reader import DMLC_STRING, INT32_RANGE, TRANSFORM_STEPS

__all__ = ["Targets", "scheduler_reader"]

Targets = Callable[[bytes], "tuple[str, str | None] | None"]


@functools.cache
def scheduler_reader() -> Targets | None:
    """``read(raw)``: the target and host (``None``: none written) of the auto_scheduler record
    ``raw`` (a line without its line break) when TVM's reader reads it as a record whose problems
    are its target's and host's alone; else ``None`` (the general path decides). ``None`` itself
    without msgspec (imported the first time a file of auto_scheduler's records is read)."""
    # the stops held while msgspec initialises and the structs are made (as the command line
    # imports its modules): a handler raising inside an extension module's work can crash it
    with signals_held():
        return _reader()


def _reader() -> Targets | None:
    try:
        import msgspec
        from msgspec import UNSET, Meta, UnsetType
    except ImportError:
        return None
    # dmlc reads an int as C's int, and a double as a finite double (an integer too large for one
    # is refused): so does msgspec a float (tests/test_logs_fast.py's 1e400)
    int32 = Annotated[int, Meta(ge=INT32_RANGE.start, le=INT32_RANGE.stop - 1)]
    double = float
    member = {"i": int32, "s": str, "a": list[int32], "b": Literal[0, 1]}
    # a step is an array whose first member names it (msgspec's tag of an array-like struct),
    # with exactly the members TRANSFORM_STEPS gives that name. (No struct is tracked by the
    # garbage collector, gc=False: a record is dropped as soon as it is read, and holds no cycle.)
    steps = tuple(
        msgspec.defstruct(
            f"Step{name}",
            [(f"m{n}", member[kind]) for n, kind in enumerate(kinds)],
            array_like=True,
            tag=name,
            forbid_unknown_fields=True,
            gc=False,
        )
        for name, kinds in TRANSFORM_STEPS.items()
    )
    # the search task: workload key, target, then in turn hardware params (8 ints), host, layout
    # rewrite option, task input names; of 2, 3, 5 or 6 members (4 is told after decoding)
    task = msgspec.defstruct(
        "Task",
        [
            ("workload", msgspec.Raw),  # (its token, undecoded: where it ends is what is asked of it)
            ("target", str),
            ("hardware", tuple[(int32,) * 8] | UnsetType, UNSET),  # type: ignore[misc]
            ("host", str | UnsetType, UNSET),
            ("layout", int32 | UnsetType, UNSET),
            ("inputs", list[str] | UnsetType, UNSET),
        ],
        array_like=True,
        forbid_unknown_fields=True,
        gc=False,
    )
    step = functools.reduce(operator.or_, steps)  # one of them, by its name
    state = tuple[tuple[()], list[step]]  # type: ignore[valid-type]
    record = msgspec.defstruct(
        "Record",
        [("i", tuple[task, state]), ("r", tuple[list[double], int32, double, double]), ("v", str)],  # type: ignore[valid-type]
        forbid_unknown_fields=True,
        gc=False,
    )
    decode = msgspec.json.Decoder(record).decode
    failed = (msgspec.DecodeError, msgspec.ValidationError)
    # lines' starts: _HEAD, then one string token dmlc reads (the workload key's), in UTF-8
    fine: dict[bytes, None] = {}  # (a dict: make_room drops the oldest)
    on_clear(fine.clear)

    def targets(raw: bytes) -> tuple[str, str | None] | None:
        try:
            read: Any = decode(raw)
        except failed:
            return None
        task = read.i[0]
        # where the token at 8 ends if it is msgspec's workload key: "i" written once, as the
        # start's check below (one string token at 8) and the colons after it make sure
        key_end = 8 + len(task.workload)
        # Two colons after the workload key: "r" and "v" written once, "i" too (msgspec takes the
        # last of a key given twice, TVM's reader each in turn), and none in a string to hide one
        if raw.count(b":", key_end) != 2:
            return None
        # No escape dmlc does not know: none in the workload key's token, and no backslash at all
        # after it, where a line as TVM wrote it has none (a regular expression over the whole line
        # takes a nanosecond a byte; a find, a tenth)
        if raw.find(b"\\", key_end) >= 0:
            return None
        # A log repeats its workload keys: the start of a line up to the end of its key's token,
        # found fine once, is looked up, not read again. Every start kept is _HEAD and a token, so
        # a line whose start is kept starts as TVM wrote it (a space first would make it a comment)
        start = raw[:key_end]
        if start not in fine:
            if not raw.startswith(_HEAD):
                return None
            # one string token, with no escape dmlc does not know: were "i" written twice, msgspec's
            # workload key (the last's) could reach past the first "i" and the colon of the second
            token = start[8:]
            if _TOKEN.fullmatch(token) is None:
                return None
            # the token is UTF-8 (msgspec decodes every other string, so checks theirs)
            if not token.isascii():
                try:
                    token.decode("utf-8")
                except UnicodeDecodeError:
                    return None
            if len(token) <= _FINE_LENGTH:  # (a longer one is read each time: the memory kept is bounded)
                make_room(fine, _FINE_KEYS)
                fine[start] = None
        host = task.host
        if host is UNSET:
            return task.target, None
        if task.layout is UNSET:
            return None  # a host without a layout rewrite option: 4 members
        return task.target, host

    return targets


_HEAD = b'{"i": [["'  # how TVM wrote a record: "i" first, its workload key's token at 8
_TOKEN = re.compile(DMLC_STRING.pattern.encode())  # (over bytes)
_FINE_KEYS = 4096  # starts kept at most, each of at most 8 + _FINE_LENGTH bytes (the corpus's keys: 40 to 131)
_FINE_LENGTH = 1024
