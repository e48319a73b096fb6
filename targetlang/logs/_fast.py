"""What the shortcuts of ``logs check``, ``logs migrate`` and ``logs stats`` over blocks of lines
share (the shortcuts are :mod:`._fast_check`, :mod:`._fast_migrate`, :mod:`._fast_stats`): the
shapes of AutoTVM's common lines and of auto_scheduler's records, read at once, and why the
result is the same.

A tuning log repeats a few targets over millions of lines, and what checking or migrating a line
of one of AutoTVM's common shapes finds depends on its target and the TVM version that wrote it,
never on the rest of the line. So the first line of a shape with a target takes the general path
(:class:`~targetlang.logs.check.Checker`, :class:`~targetlang.logs.migration.LogMigrator`), and
what it gave is kept: its problems, its new target text, its changes, its counts. A later line
of that shape with that target is decoded (orjson), seen to be of the shape, and given the same,
at its own line number. Every other line takes the general path. The shapes, and why the result
is the same:

* AutoTVM's log format v0.1 (``"v": 0.1``, the target first in ``"i"``): TVM v0.7 - v0.19 skip
  the record whatever else it holds, so only its target counts.
* AutoTVM's log format v0.2 (the target first in ``"input"``), for ``logs check`` with a config
  and a result TVM's loader reads without raising, by conditions at least as strict as those of
  :mod:`._autotvm_loader`'s own shortcut (and no ``{`` in the line but the record's, the config's, the
  keyword arguments' and the target's: the arguments hold no object).

The general path finds the target's token with records.py's pattern, where it sees the line, or
by searching the decoded value: the token where the pattern finds it must be the target's, as
``json.dumps`` writes it (else the general path could find another text there, or spell the new
one otherwise). ``logs check`` also splices the migrated target in, to say whether migration
fixes the record: that is the same for every line only if the token spliced is the one the
record's JSON means, so where it matters the key that holds the target must be written once
(``"i"`` as often as the decoded record has such keys, ``"input"`` once) and no key may hide
behind a ``\\u`` escape. A line that is not all of this takes the general path: it is slower,
never different. tests/test_logs_jobs.py runs both paths over every line of the logs of
tests/data and over generated lines of every shape, odd ones included, and compares.

The results are kept per ``(file, format, TVM version, target)`` in bounded caches
(:mod:`targetlang._cache`).

An auto_scheduler record that TVM's reader reads as its problems are its target's and host's
alone (:mod:`._scheduler_schema`, one pass of msgspec's typed decoder): ``logs check`` keeps per
``(file, target, host)`` what the first such record found; ``logs migrate``
splices, where records.py's pattern finds the target and host tokens, what migrating the first
record of those tokens gave. ``logs stats`` counts a record like one counted before by that one's
plan (:class:`~._fast_stats.StatsLines`). tests/test_logs_fast.py compares these with the general path.

The byte shapes (:data:`V01`, :data:`V02`, :data:`AS_HEAD`) are made from the rows of
:data:`~.formats.FORMATS`; the tests of a decoded value (``"v"`` is 0.1, ``"input"`` a list
whose first item is a string...) are written out in each shortcut's loop, each as strict as that
command needs: one function shared by the three cost 100 ns a line more (a call and a tuple,
measured over 84,258 lines), a fiftieth of what ``logs check`` spends on a line.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from .formats import ROWS, Format

__all__ = [
    "AS_BUDGET",
    "AS_FORMAT",
    "AS_HEAD",
    "AS_SHAPE",
    "CACHE_SIZE",
    "ENTRY_COST",
    "HELD",
    "V01",
    "V01_FORMAT",
    "V01_V_FIRST",
    "V01_WRITER",
    "V02",
    "V02_AT",
    "V02_FORMAT",
    "Report",
    "digest_report",
    "json_template",
    "loads",
    "plain_v01",
    "plain_v02",
]

# Distinct (file, target, TVM version) kept at once, besides the bound on their text.
CACHE_SIZE = 4096


def _decoder() -> Callable[[bytes], Any]:
    """orjson's decoder of bytes when it is installed, else ``json.loads`` of the strict UTF-8
    text. (No 19-digit guard: what the shapes are told by is the same however a number
    decodes, and a line of a shape is read by the general path, with the guard, the first time.)"""
    try:
        import orjson
    except ImportError:
        return lambda raw: json.loads(raw.decode("utf-8"))
    return orjson.loads


loads = _decoder()


def _literal(head: str) -> bytes:
    """A row's ``head`` that holds no pattern, as the bytes it matches."""
    if re.search(r"[.^$*+?{}\[\]|()]", re.sub(r"\\.", "", head)):
        raise ValueError(f"{head!r} is a pattern, not a text")
    return re.sub(r"\\(.)", r"\1", head).encode()


_V01_ROW, _V02_ROW, _AS_ROW = ROWS[Format.AUTOTVM_V01], ROWS[Format.AUTOTVM_V02], ROWS[Format.AUTO_SCHEDULER]
V01 = re.compile(_V01_ROW.head.encode())  # what precedes the target of a record of log format v0.1
V01_V_FIRST = re.compile(rb'\{"v": [^",]*, "r": [^"]*, "i": \[')  # its other order in TopHub's logs
V02 = _literal(_V02_ROW.head)  # what precedes the target of a record of log format v0.2
V02_AT = len(V02)
V01_FORMAT = Format.AUTOTVM_V01.value
V02_FORMAT = Format.AUTOTVM_V02.value
V01_WRITER = _V01_ROW.writers["0.1"]  # writer_version of a record of log format v0.1 (it says no TVM version)


def _template(text: str, line: int, marker: str) -> tuple[str, str]:
    """``text`` around the first ``marker`` (which holds ``line``): what comes before the line
    number, and after it."""
    head, found, tail = text.partition(marker)
    assert found, marker
    number = str(line)
    cut = marker.index(number)
    return head + marker[:cut], marker[cut + len(number) :] + tail


def json_template(obj: dict[str, Any], line: int) -> tuple[str, str]:
    """``json.dumps(obj)`` around the number of its ``"line"`` member (which comes after
    ``"file"``: the first ``"line": N`` with unescaped quotes is that member)."""
    return _template(json.dumps(obj), line, f'"line": {line},')


class Report:
    """One report of one record, for the records of the same shape and target: its digest key,
    spec and text (around the line number), or its JSON line (around the line number)."""

    __slots__ = ("head", "key", "seen", "spec", "tail")

    def __init__(self, key: Any, spec: str | None, head: str, tail: str, seen: Any = None) -> None:
        self.key = key
        self.spec = spec
        self.head = head
        self.tail = tail
        self.seen = seen  # for a change as JSON: what makes it the same change (shown once)


def digest_report(key: Any, file: str, line: int, spec: str | None, text: str) -> Report:
    """A report for the digest, ``FILE:LINE: ...``, around its line number."""
    head = f"{file}:"
    number = str(line)
    assert text.startswith(head + number), text
    return Report(key, spec, head, text[len(head) + len(number) :])


# ---------------------------------------------------------------------------------- auto_scheduler

# A record of auto_scheduler as its writer wrote it starts so.
AS_HEAD = _literal(_AS_ROW.head)
AS_FORMAT = Format.AUTO_SCHEDULER.value
ENTRY_COST = 256  # what an entry costs besides its texts, in the bytes of the budget below
HELD = 512  # what a long text held in a file costs where it is named (its digest and first characters)
AS_BUDGET = 8 << 20  # bytes of targets an auto_scheduler cache holds
# records.py's pattern of auto_scheduler's records, over bytes: the target's token, and the
# host's after the hardware parameters
AS_SHAPE = re.compile(_AS_ROW.line.pattern.encode())  # type: ignore[union-attr]


# ---------------------------------------------------------------------------------- check


def plain_v01(raw: bytes, i: list[Any]) -> bool:
    """Whether the key ``"i"`` of a record of log format v0.1 is written once (besides its
    config's own ``"i"``), and no key is written with a ``\\u`` escape."""
    cfg = i[-1]
    nested = 1 if type(cfg) is dict and "i" in cfg else 0
    return raw.count(b'"i"') == 1 + nested and (raw.find(b"\\") < 0 or b"\\u" not in raw)


def plain_v02(raw: bytes) -> bool:
    """Whether the key ``"input"`` of a record of log format v0.2 is written once, and no key
    is written with a ``\\u`` escape."""
    return raw.count(b'"input"') == 1 and (raw.find(b"\\") < 0 or b"\\u" not in raw)


# ---------------------------------------------------------------------------------- migrate


# ---------------------------------------------------------------------------------- stats
