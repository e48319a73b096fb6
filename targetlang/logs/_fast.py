"""``logs check``, ``logs migrate`` and ``logs stats`` over blocks of lines, with the lines of
AutoTVM's common shapes and auto_scheduler's records read at once.

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
plan (:class:`StatsLines`). tests/test_logs_fast.py compares these with the general path.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from typing import Any

from .._cache import LruCache
from ._autotvm_loader import KNOB_KINDS
from ._loading import FileLoading
from ._scheduler_schema import Targets, scheduler_reader
from .check import Checker, CheckSummary, Problem, distinct_spec
from .formats import ROWS, Format
from .migration import LogMigrator, MigrateSummary, RecordMigration
from .records import Record, line_record
from .report import Digest
from .stats import Stats, StatsPlan

__all__ = ["CheckLines", "MigrateLines", "Report", "StatsLines", "change_json"]

# Distinct (file, target, TVM version) kept at once, besides the bound on their text.
_CACHE_SIZE = 4096


def _decoder() -> Callable[[bytes], Any]:
    """orjson's decoder of bytes when it is installed, else ``json.loads`` of the strict UTF-8
    text. (No 19-digit guard: what the shapes are told by is the same however a number
    decodes, and a line of a shape is read by the general path, with the guard, the first time.)"""
    try:
        import orjson
    except ImportError:
        return lambda raw: json.loads(raw.decode("utf-8"))
    return orjson.loads


_loads = _decoder()

_V01 = re.compile(rb'\{(?:"r": [^"]*, "v": [^",]*, )?"i": \[')  # records.py's pattern of log format v0.1
_V01_V_FIRST = re.compile(rb'\{"v": [^",]*, "r": [^"]*, "i": \[')  # its other order in TopHub's logs
_V02 = b'{"input": ['  # records.py's pattern of log format v0.2
_V02_AT = len(_V02)
_NUMBERS = frozenset((float, int))
_V01_FORMAT = Format.AUTOTVM_V01.value
_V02_FORMAT = Format.AUTOTVM_V02.value
_V01_WRITER = "0.6"  # writer_version of a record of log format v0.1 (it says no TVM version)


def _template(text: str, line: int, marker: str) -> tuple[str, str]:
    """``text`` around the first ``marker`` (which holds ``line``): what comes before the line
    number, and after it."""
    head, found, tail = text.partition(marker)
    assert found, marker
    number = str(line)
    cut = marker.index(number)
    return head + marker[:cut], marker[cut + len(number) :] + tail


def _json_template(obj: dict[str, Any], line: int) -> tuple[str, str]:
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


def _digest_report(key: Any, file: str, line: int, spec: str | None, text: str) -> Report:
    """A report for the digest, ``FILE:LINE: ...``, around its line number."""
    head = f"{file}:"
    number = str(line)
    assert text.startswith(head + number), text
    return Report(key, spec, head, text[len(head) + len(number) :])


# ---------------------------------------------------------------------------------- auto_scheduler

# A record of auto_scheduler as its writer wrote it starts so.
_AS_HEAD = b'{"i": [['
_AS_FORMAT = Format.AUTO_SCHEDULER.value
_ENTRY_COST = 256  # what an entry costs besides its texts, in the bytes of the budget below
_HELD = 512  # what a long text held in a file costs where it is named (its digest and first characters)
_AS_BUDGET = 8 << 20  # bytes of targets an auto_scheduler cache holds
# records.py's pattern of auto_scheduler's records, over bytes: the target's token, and the
# host's after the hardware parameters
_AS_SHAPE = re.compile(ROWS[Format.AUTO_SCHEDULER].line.pattern.encode())  # type: ignore[union-attr]


# ---------------------------------------------------------------------------------- check


class _CheckEntry:
    """What checking a plain line of one shape with one target finds; ``head`` is the start of
    such a line as ``json.dumps`` writes it, up to the end of the target's token (for log
    format v0.2; the token alone for v0.1)."""

    __slots__ = (
        "braces", "count", "distinct", "fixes", "format", "head", "json", "keys", "problems", "reports",
    )  # fmt: skip

    def __init__(
        self, specs: tuple[str, ...], fmt: str, head: bytes, problems: list[Problem], line: int, mode: str
    ) -> None:
        self.count = 0  # the lines given this entry in the call of CheckLines.check under way
        self.format = fmt
        self.head = head
        self.braces = specs[0].count("{")
        # what the summary counts among the distinct targets (auto_scheduler's "" host is none)
        self.distinct = tuple(distinct_spec(spec) for n, spec in enumerate(specs) if spec or not n)
        self.problems = len(problems)
        self.fixes = bool(problems) and problems[0].needs_migration  # all of them are, or none
        self.keys = [f"{p.rule}: {p.error}" for p in problems]
        self.json = [_json_template(p.to_json(), line) for p in problems] if mode == "json" else []
        self.reports = (
            [_digest_report(p.key, p.file, line, p.spec, p.human()) for p in problems] if mode == "text" else []
        )


def _plain_v01(raw: bytes, i: list[Any]) -> bool:
    """Whether the key ``"i"`` of a record of log format v0.1 is written once (besides its
    config's own ``"i"``), and no key is written with a ``\\u`` escape."""
    cfg = i[-1]
    nested = 1 if type(cfg) is dict and "i" in cfg else 0
    return raw.count(b'"i"') == 1 + nested and (raw.find(b"\\") < 0 or b"\\u" not in raw)


def _plain_v02(raw: bytes) -> bool:
    """Whether the key ``"input"`` of a record of log format v0.2 is written once, and no key
    is written with a ``\\u`` escape."""
    return raw.count(b'"input"') == 1 and (raw.find(b"\\") < 0 or b"\\u" not in raw)


def _as_written(value: dict[str, Any], inp: list[Any], raw: bytes, braces: int) -> bool:
    """Whether a record of log format v0.2 is one AutoTVM's loader reads without raising, by
    conditions at least as strict as those of ``_autotvm_loader._as_written``: its config and result of
    the shapes TVM wrote, and no ``{`` in the line but the record's, its config's, its keyword
    arguments' and the ``braces`` of its target (so its arguments hold no object)."""
    config, result = value.get("config"), value.get("result")
    if not (
        type(config) is dict
        and "index" in config
        and "code_hash" in config
        and type(entity := config.get("entity")) is list
        and type(result) is list
        and len(result) == 4
        and type(costs := result[0]) is list
    ):
        return False
    # Every item of the entity a [name, knob, value]: an item that is no array of three fails to
    # unpack, or gives a knob that is none (a string of three characters gives one character);
    # one that is an object of three keys adds a "{" the count below does not allow.
    try:
        for _, knob, _ in entity:
            if knob not in KNOB_KINDS:
                return False
    except (TypeError, ValueError):
        return False
    if not (len(costs) == 1 and type(costs[0]) is float) and not {*map(type, costs)} <= _NUMBERS:
        return False
    return raw.count(b"{") == 2 + (type(inp[3]) is dict) + braces


class CheckLines:
    """``logs check`` of the lines of one file, block after block.

    ``mode`` is ``"json"`` (every problem as a JSON line, returned), ``"text"`` (each distinct
    problem once, in the digest given) or ``"quiet"`` (none). The caches are shared by every
    file the checker checks.
    """

    shortcut = True  # False: every line takes the general path (the tests compare both)

    def __init__(self, checker: Checker, mode: str) -> None:
        self.checker = checker
        self.mode = mode
        self._cache: LruCache[tuple[str, str, str | None, str], _CheckEntry] = LruCache(_CACHE_SIZE)
        self._scheduler: LruCache[tuple[str, str, str, str | None], _CheckEntry] = LruCache(_CACHE_SIZE, _AS_BUDGET)

    def check(self, lines: list[bytes], first: int, open_end: bool, summary: CheckSummary, digest: Digest) -> list[str]:
        """Check ``lines`` (as :func:`~targetlang.logs._jobs.blocks` gives them; ``open_end``: the
        last has no line break), numbered from ``first``, counting into ``summary`` and
        ``digest``; the JSON lines of their problems."""
        out: list[str] = []
        file = summary.file
        loading = summary.loading
        final = first + len(lines) - 1 if open_end else -1  # the line without a line break
        read = self._scheduler_reader(loading)
        if read is not None:
            self._check_scheduler(read, lines, first, final, summary, digest, out)
            return out
        reporting = self.mode != "quiet"  # (each problem again, at each line of a shape met before)
        fast = self.shortcut and loading.settled and loading.loader == "autotvm"
        cached = self._cache.peek
        seen01: dict[str, _CheckEntry | None] = {}  # this call's entries, by target (v0.1)
        seen02: dict[tuple[str | None, str], _CheckEntry | None] = {}  # by TVM version and target (v0.2)
        dropped: list[_CheckEntry] = []  # entries met, then dropped from seen01 and seen02
        number = first - 1
        loads = _loads
        found: Any
        try:
            for raw in lines:
                number += 1
                key: Any = None  # for a plain line of a shape met for the first time: its cache key
                entry = None
                if fast:  # (a line that is no JSON object is soon told)
                    try:
                        value = loads(raw)
                    except (ValueError, RecursionError):
                        value = None
                    if type(value) is not dict:
                        pass
                    elif value.get("v") == 0.1:
                        i = value.get("i")
                        if type(i) is list and i and type(spec := i[0]) is str:
                            found = seen01.get(spec, False)
                            if found is False:
                                hit = cached((file, _V01_FORMAT, _V01_WRITER, spec))
                                found = seen01[spec] = hit[0] if hit is not None else None
                            if found is None:
                                if _plain_v01(raw, i):
                                    key = (file, _V01_FORMAT, _V01_WRITER, spec)
                            # records.py's pattern, when it sees the line, finds the token after
                            # the first '"i": [' of the line: it must be the target's
                            elif raw.startswith(found.head, raw.find(b'"i": [') + 6) and (
                                not found.fixes or _plain_v01(raw, i)
                            ):
                                entry = found
                    else:
                        inp = value.get("input")
                        if (
                            type(inp) is list
                            and len(inp) == 4
                            and type(spec := inp[0]) is str
                            and type(inp[1]) is str
                            and type(inp[2]) is list
                        ):
                            tvm = value.get("tvm_version")
                            if type(tvm) is not str:
                                tvm = None
                            found = seen02.get((tvm, spec), False)
                            if found is False:
                                hit = cached((file, _V02_FORMAT, tvm, spec))
                                found = seen02[tvm, spec] = hit[0] if hit is not None else None
                            if found is None:
                                if _as_written(value, inp, raw, spec.count("{")) and _plain_v02(raw):
                                    key = (file, _V02_FORMAT, tvm, spec)
                            elif (
                                raw.startswith(found.head)
                                and _as_written(value, inp, raw, found.braces)
                                and (not found.fixes or _plain_v02(raw))
                            ):
                                entry = found
                if entry is None:
                    if self._general(raw, number, final, key, summary, digest, out):
                        dropped += (e for e in (*seen01.values(), *seen02.values()) if e is not None)
                        seen01.clear()
                        seen02.clear()
                    elif not fast:  # the first lines of a file tell whose it is
                        read = self._scheduler_reader(loading)
                        if read is not None:
                            rest = lines[number - first + 1 :]
                            self._check_scheduler(read, rest, number + 1, final, summary, digest, out)
                            break
                        fast = self.shortcut and loading.settled and loading.loader == "autotvm"
                    continue
                entry.count += 1
                if entry.problems and reporting:
                    self._again(entry, number, out, digest)
        finally:
            _tally((*dropped, *seen01.values(), *seen02.values()), summary)
        return out

    def _scheduler_reader(self, loading: FileLoading) -> Targets | None:
        """:func:`scheduler_reader`'s function, where the lines to come are auto_scheduler's."""
        settled = self.shortcut and loading.settled and loading.loader == "auto_scheduler"
        return scheduler_reader() if settled else None

    def _check_scheduler(
        self,
        read: Targets,
        lines: list[bytes],
        first: int,
        final: int,
        summary: CheckSummary,
        digest: Digest,
        out: list[str],
    ) -> None:
        """:meth:`check` of the lines of a file of auto_scheduler's records (its loader settled):
        a record :func:`scheduler_reader`'s function reads is given what the first of its target and host
        found. (The loop over most lines of such a log: it does as little a line as it can.)"""
        file = summary.file
        cached = self._scheduler.peek
        seen: dict[tuple[str, str | None], _CheckEntry] = {}  # this call's entries, by target and host
        reporting = self.mode != "quiet"
        try:
            for number, raw in enumerate(lines, first):
                specs = read(raw)
                entry = seen.get(specs) if specs else None
                if entry is None:
                    key = None
                    if specs:
                        key = (file, _AS_FORMAT, *specs)
                        hit = cached(key)
                        if hit is not None:
                            entry = seen[specs] = hit[0]
                    if entry is None:
                        self._general(raw, number, final, key, summary, digest, out)
                        continue
                entry.count += 1
                if entry.problems and reporting:
                    self._again(entry, number, out, digest)
        finally:
            _tally(seen.values(), summary)

    def _general(
        self, raw: bytes, number: int, final: int, key: Any, summary: CheckSummary, digest: Digest, out: list[str]
    ) -> bool:
        """The general path for the line ``raw``; whether what it found was kept under ``key``
        (a line of a shape met for the first time) for the lines of that shape to come."""
        record = line_record(raw, number != final, summary.file, number)
        problems = self.checker.check(record, summary)
        if problems:
            self.report(problems, out, digest)
        if key is not None and not any(p.field is None for p in problems):
            self._remember(key, record, problems)
            return True
        return False

    def _again(self, entry: _CheckEntry, number: int, out: list[str], digest: Digest) -> None:
        """Report what ``entry`` found, again, for the line ``number``."""
        if self.mode == "json":
            for head, tail in entry.json:
                out.append(f"{head}{number}{tail}")
        elif self.mode == "text":
            for report in entry.reports:
                if not digest.again(report.key, number, report.spec):
                    digest.add(report.key, number, report.spec, f"{report.head}{number}{report.tail}")

    def report(self, problems: list[Problem], out: list[str], digest: Digest) -> None:
        """Report ``problems`` as the mode says: JSON lines to ``out``, or into ``digest``."""
        if self.mode == "json":
            out.extend(json.dumps(problem.to_json()) for problem in problems)
        elif self.mode == "text":
            for problem in problems:
                digest.add(problem.key, problem.line, problem.spec, problem.human())

    def _remember(self, key: tuple[Any, ...], record: Record, problems: list[Problem]) -> None:
        """Keep what checking ``record``, a plain line of a shape, found, for the lines of that
        shape with the same target to come (``key``: file, format, TVM version, target; or, of
        auto_scheduler, file, format, target, host)."""
        if key[1] == _AS_FORMAT:
            self._remember_scheduler(key, record, problems)
            return
        if record.format.value != key[1]:
            return
        spec = key[3]
        token = json.dumps(spec).encode("utf-8")
        head = _V02 + token if record.format is Format.AUTOTVM_V02 else token
        self._cache.put(key, _CheckEntry((spec,), key[1], head, problems, record.line, self.mode))

    def _remember_scheduler(self, key: tuple[Any, ...], record: Record, problems: list[Problem]) -> None:
        """:meth:`_remember` of an auto_scheduler record (one :func:`scheduler_reader`'s function read)."""
        _, _, spec, host = key
        if record.format is not Format.AUTO_SCHEDULER or (record.target, record.host) != (spec, host):
            return
        specs = (spec,) if host is None else (spec, host)
        entry = _CheckEntry(specs, _AS_FORMAT, b"", problems, record.line, self.mode)
        self._scheduler.put(key, entry, _ENTRY_COST + len(spec) + len(host or ""))


def _tally(entries: Iterable[_CheckEntry | None], summary: CheckSummary) -> None:
    """Count into ``summary`` the lines each of ``entries`` was given, and set them back to 0."""
    tally: dict[_CheckEntry, int] = {}
    for entry in entries:
        if entry is not None and entry.count:
            tally[entry] = tally.get(entry, 0) + entry.count
            entry.count = 0
    formats = summary.formats
    targets, problems_count = summary.targets, summary.problems
    for entry, count in tally.items():
        summary.lines += count
        formats[entry.format] += count
        targets.update(entry.distinct)
        if entry.problems:
            if entry.fixes:
                summary.needs_migration += count
            else:
                summary.failed += count
            for name in entry.keys:
                problems_count[name] += count


# ---------------------------------------------------------------------------------- migrate


def change_json(record: Record, field: str, spec: str, era: str, change: Any) -> dict[str, Any]:
    """A change ``logs migrate --json`` reports, as one JSON object (``"record": "change"``)."""
    return {
        "record": "change",
        "file": record.file,
        "line": record.line,
        "field": field,
        "rule": change.rule,
        "severity": change.severity,
        "message": change.message,
        "spec": spec,
        "span": list(change.span) if change.span is not None else None,
        "era": era,
    }


def migration_reports(result: RecordMigration, mode: str) -> list[tuple[Any, Any, str | None, str]]:
    """What ``logs migrate`` reports of one record: ``(seen, key, spec, text)`` in order, ``seen``
    (what makes a change as JSON the same change, shown once per run) ``None`` for a problem.
    With ``mode`` ``"json"``, ``text`` is a JSON line; with ``"text"``, a report for the digest
    under ``key``; with ``"quiet"``, there are none."""
    if mode == "quiet":
        return []
    record = result.record
    found: list[tuple[Any, Any, str | None, str]] = []
    for item in result.fields:
        # A field kept as written made no change: a problem that kept it is reported below,
        # but a warning about what it holds (from_device, a kept attribute) still stands.
        changes = item.changes if item.written else () if item.problem else item.warnings
        for change in changes:
            spec = item.field.spec
            if mode == "json":
                text = json.dumps(change_json(record, item.field.name, spec, item.era, change))
                found.append(((spec, change.rule, change.message), None, spec, text))
            else:
                detail = change.describe(spec if change.span is not None else "")
                key = (item.field.name, change.severity, change.rule, change.message)
                found.append((None, key, spec, f"{record.file}:{record.line}: {item.field.name}: {detail}"))
    for problem in result.problems:
        if mode == "json":
            found.append((None, None, problem.spec, json.dumps(problem.to_json())))
        else:
            found.append((None, problem.key, problem.spec, problem.human()))
    return found


class _MigrateEntry:
    """What migrating a line of one shape with one target (written as ``json.dumps`` writes it)
    does: the new target text (``None``: the line stays), what the summary counts, the reports."""

    __slots__ = (
        "changed",
        "failed",
        "format",
        "host",
        "new",
        "new_host",
        "problems",
        "reports",
        "rules",
        "spec",
        "token",
    )

    def __init__(self, token: bytes, result: RecordMigration, mode: str) -> None:
        self.token = token
        record = result.record
        item = result.fields[0]
        self.new = item.text.encode("utf-8") if item.text is not None and result.changed else None
        # auto_scheduler's: its target and host as decoded, and the host's new text
        self.spec, self.host = record.target, record.host
        host = result.fields[1] if len(result.fields) > 1 else None
        self.new_host = (
            host.text.encode("utf-8") if host is not None and host.text is not None and result.changed else None
        )
        self.changed = result.changed
        self.format = record.format.value
        self.rules = [change.rule for item in result.fields if item.written for change in item.changes]
        problems = result.problems
        self.failed = bool(problems)
        self.problems = [f"{p.rule}: {p.error}" for p in problems]
        self.reports = []
        for seen, key, spec, text in migration_reports(result, mode):
            if mode == "json":
                head, tail = _json_template(json.loads(text), record.line)
                self.reports.append(Report(key, spec, head, tail, seen))
            else:
                self.reports.append(_digest_report(key, record.file, record.line, spec, text))


class MigrateLines:
    """``logs migrate`` of the lines of one file, block after block: the migrated lines, counted
    into a :class:`MigrateSummary`, reported as ``mode`` says (see :func:`migration_reports`)."""

    shortcut = True  # False: every line takes the general path (the tests compare both)

    def __init__(self, migrator: LogMigrator, mode: str) -> None:
        self.migrator = migrator
        self.mode = mode
        self._cache: LruCache[tuple[str, str, str | None, str], _MigrateEntry] = LruCache(_CACHE_SIZE)
        self._scheduler: LruCache[tuple[str, bytes, bytes | None], _MigrateEntry] = LruCache(_CACHE_SIZE)
        # The changes given as JSON so far: each is said once per run (by the command, which
        # knows what was said; this only spares saying what it drops anyway).
        self.shown: set[Any] = set()

    def migrate(
        self,
        lines: list[bytes],
        first: int,
        open_end: bool,
        summary: MigrateSummary,
        digest: Digest,
        out: list[bytes] | None,
        diff: list[tuple[int, bytes, bytes, bool]] | None,
        said: list[tuple[Any, str]],
    ) -> None:
        """Migrate ``lines`` (as :func:`~targetlang.logs._jobs.blocks` gives them; ``open_end``: the
        last has no line break), numbered from ``first``: the new lines go to ``out`` (with their
        line breaks), the changed ones to ``diff`` as ``(line, old, new, has a line break)``, the
        reports to ``digest`` (text) or ``said`` (JSON: ``(seen, line)``, ``seen`` ``None`` for a
        problem)."""
        known = _Known(summary.file, self._cache.peek, self._scheduler.peek)
        find = known.find if self.shortcut else None
        tally: dict[_MigrateEntry, int] = {}
        tally_get = tally.get
        final = first + len(lines) - 1 if open_end else -1  # the line without a line break
        put = out.append if out is not None else None
        entry: _MigrateEntry | None
        for number, raw in enumerate(lines, first):
            newline = number != final
            entry, at, shape = find(raw) if find is not None and raw[:1] == b"{" else _UNKNOWN
            if entry is None:
                if self._general(raw, number, newline, at, shape, summary, digest, said, put, diff):
                    known.clear()
                continue
            tally[entry] = tally_get(entry, 0) + 1
            new = raw
            if entry.new is not None or (shape is not None and entry.new_host is not None):
                new = _spliced(raw, entry, at, shape)
                if diff is not None:
                    diff.append((number, raw, new, newline))
            if put is not None:
                put(new)
                if newline:
                    put(b"\n")
            if entry.reports:
                self._again(entry, number, digest, said)
        _tally_migrated(tally, summary)

    def _general(
        self,
        raw: bytes,
        number: int,
        newline: bool,
        at: int,
        shape: re.Match[bytes] | None,
        summary: MigrateSummary,
        digest: Digest,
        said: list[tuple[Any, str]],
        put: Callable[[bytes], object] | None,
        diff: list[tuple[int, bytes, bytes, bool]] | None,
    ) -> bool:
        """The general path for the line ``raw`` (its target token at ``at``, or of
        auto_scheduler's where ``shape`` found it); whether what it did was kept for the lines
        of its shape to come."""
        record = line_record(raw, newline, summary.file, number)
        result = self.migrator.migrate(record, summary.loader)
        summary.count(result)
        mode, shown = self.mode, self.shown
        for seen, key, spec, text in migration_reports(result, mode):
            if mode != "json":
                digest.add(key, number, spec, text)
            elif seen is None or seen not in shown:
                if seen is not None:
                    shown.add(seen)
                said.append((seen, text))
        new = raw
        if result.changed:
            new = result.text.encode("utf-8", "surrogateescape")
            if record.newline == "\r\n":
                new += b"\r"
            if diff is not None:
                diff.append((number, raw, new, newline))
        if put is not None:
            put(new)
            if newline:
                put(b"\n")
        return (at >= 0 and self._remember(record, result, raw, at)) or (
            shape is not None and self._remember_scheduler(record, result, shape)
        )

    def _again(self, entry: _MigrateEntry, number: int, digest: Digest, said: list[tuple[Any, str]]) -> None:
        """Report what ``entry`` found, again, for the line ``number``."""
        if self.mode == "json":
            shown = self.shown
            for report in entry.reports:
                seen = report.seen
                if seen is None or seen not in shown:
                    if seen is not None:
                        shown.add(seen)
                    said.append((seen, f"{report.head}{number}{report.tail}"))
        elif self.mode == "text":
            for report in entry.reports:
                if not digest.again(report.key, number, report.spec):
                    digest.add(report.key, number, report.spec, f"{report.head}{number}{report.tail}")

    def _remember(self, record: Record, result: RecordMigration, raw: bytes, at: int) -> bool:
        """Keep what migrating ``record`` did, for the lines of its shape with the same target
        written the same way to come: when its one target field is a string token at ``at``, as
        ``json.dumps`` writes it. Whether it was kept."""
        if record.format not in (Format.AUTOTVM_V01, Format.AUTOTVM_V02) or len(record.fields) != 1:
            return False
        field = record.fields[0]
        token = json.dumps(field.spec).encode("utf-8")
        if field.encoding != "string" or field.start != at or not raw.startswith(token, at):
            return False  # (field.start counts characters, ``at`` bytes: equal when all before is ASCII)
        if len(token) != field.end - field.start:
            return False
        version = record.tvm_version if record.format is Format.AUTOTVM_V02 else _V01_WRITER
        key = (record.file, record.format.value, version, field.spec)
        self._cache.put(key, _MigrateEntry(token, result, self.mode))
        return True

    def _remember_scheduler(self, record: Record, result: RecordMigration, shape: re.Match[bytes]) -> bool:
        """:meth:`_remember` of an auto_scheduler record whose target (and host) tokens ``shape``
        found: when they are its fields, each where the token stands."""
        if record.format is not Format.AUTO_SCHEDULER or not all(f.encoding == "string" for f in record.fields):
            return False
        if [f.name for f in record.fields] != (["target", "host"] if shape.group(2) is not None else ["target"]):
            return False
        for n, field in enumerate(record.fields, 1):
            if (field.start, field.end) != shape.span(n):  # (characters and bytes: all before is ASCII)
                return False
        target, host = shape.group(1), shape.group(2)
        cost = _ENTRY_COST + len(target) + len(host or b"")
        self._scheduler.put((record.file, target, host), _MigrateEntry(b"", result, self.mode), cost)
        return True


_UNKNOWN: tuple[None, int, None] = (None, -1, None)  # a line the shortcut does not know


class _Known:
    """The entries of :class:`MigrateLines` a call of its ``migrate`` has met, by what tells a
    line's target: the target of log format v0.1, the TVM version and target of v0.2, the target
    and host tokens of auto_scheduler's."""

    __slots__ = ("cached", "cached_scheduler", "file", "scheduler", "v01", "v02")

    def __init__(
        self,
        file: str,
        cached: Callable[[Any], tuple[_MigrateEntry, int] | None],
        cached_scheduler: Callable[[Any], tuple[_MigrateEntry, int] | None],
    ) -> None:
        self.file = file
        self.cached = cached
        self.cached_scheduler = cached_scheduler
        self.v01: dict[str, _MigrateEntry | None] = {}
        self.v02: dict[tuple[str | None, str], _MigrateEntry | None] = {}
        self.scheduler: dict[tuple[bytes, bytes | None], _MigrateEntry | None] = {}

    def clear(self) -> None:
        """Forget what was met (an entry kept since may be a line's)."""
        self.v01.clear()
        self.v02.clear()
        self.scheduler.clear()

    def find(self, raw: bytes) -> tuple[_MigrateEntry | None, int, re.Match[bytes] | None]:
        """The entry that migrates the line ``raw`` (``None``: the general path), where its target
        token stands (``-1``: not one of AutoTVM's), and where auto_scheduler's target and host
        tokens stand (``None``: not one of its)."""
        try:
            value = _loads(raw)
        except (ValueError, RecursionError):
            return _UNKNOWN
        if type(value) is not dict:
            return _UNKNOWN
        if value.get("v") == 0.1:
            return self._v01(raw, value.get("i"))
        if raw.startswith(_V02):
            return self._v02(raw, value)
        if raw.startswith(_AS_HEAD):
            return self._scheduler(raw, value)
        return _UNKNOWN

    def _v01(self, raw: bytes, i: Any) -> tuple[_MigrateEntry | None, int, None]:
        if not (type(i) is list and i and type(spec := i[0]) is str):
            return _UNKNOWN
        match = _V01.match(raw)
        # where records.py's pattern does not see the line, the general path searches it, and
        # finds the one target token of a plain line
        if match is None and _plain_v01(raw, i):
            match = _V01_V_FIRST.match(raw)
        if match is None:
            return _UNKNOWN
        at = match.end()
        entry: Any = self.v01.get(spec, False)
        if entry is False:
            hit = self.cached((self.file, _V01_FORMAT, _V01_WRITER, spec))
            entry = self.v01[spec] = hit[0] if hit is not None else None
        if entry is not None and not raw.startswith(entry.token, at):
            entry = None
        return entry, at, None

    def _v02(self, raw: bytes, value: dict[str, Any]) -> tuple[_MigrateEntry | None, int, None]:
        inp = value.get("input")
        if not (type(inp) is list and inp and type(spec := inp[0]) is str):
            return _UNKNOWN
        tvm = value.get("tvm_version")
        if type(tvm) is not str:
            tvm = None
        entry: Any = self.v02.get((tvm, spec), False)
        if entry is False:
            hit = self.cached((self.file, _V02_FORMAT, tvm, spec))
            entry = self.v02[tvm, spec] = hit[0] if hit is not None else None
        if entry is not None and not raw.startswith(entry.token, _V02_AT):
            entry = None
        return entry, _V02_AT, None

    def _scheduler(
        self, raw: bytes, value: dict[str, Any]
    ) -> tuple[_MigrateEntry | None, int, re.Match[bytes] | None]:
        i = value.get("i")
        if not (
            type(value.get("v")) is str
            and "input" not in value
            and type(i) is list
            and i
            and type(task := i[0]) is list
            and len(task) > 1
            and type(task[1]) is str
            and (shape := _AS_SHAPE.match(raw)) is not None
        ):
            return _UNKNOWN
        # the fields records.py finds where its pattern sees them
        host = task[3] if len(task) > 3 and type(task[3]) is str else None
        tokens: tuple[bytes, bytes | None] = (shape.group(1), shape.group(2))
        if (host is None) is not (tokens[1] is None):
            return _UNKNOWN
        entry: Any = self.scheduler.get(tokens, False)
        if entry is False:
            hit = self.cached_scheduler((self.file, tokens[0], tokens[1]))
            entry = self.scheduler[tokens] = hit[0] if hit is not None else None
        if entry is not None and (entry.spec != task[1] or entry.host != host):
            entry = None  # (a member written twice: the decoded one is another)
        return entry, -1, shape


def _spliced(raw: bytes, entry: _MigrateEntry, at: int, shape: re.Match[bytes] | None) -> bytes:
    """The line ``raw`` with ``entry``'s new target (and host) written for its own."""
    if shape is None:
        assert entry.new is not None
        return raw[:at] + entry.new + raw[at + len(entry.token) :]
    start, end = shape.span(1)
    parts = [raw[:start], entry.new or raw[start:end]]
    if entry.host is not None:
        host_start, host_end = shape.span(2)
        parts += (raw[end:host_start], entry.new_host or raw[host_start:host_end], raw[host_end:])
    else:
        parts.append(raw[end:])
    return b"".join(parts)


def _tally_migrated(tally: dict[_MigrateEntry, int], summary: MigrateSummary) -> None:
    """Count into ``summary`` the lines each entry migrated (``tally``)."""
    summary.lines += sum(tally.values())
    formats, rules, problems = summary.formats, summary.rules, summary.problems
    for entry, count in tally.items():
        formats[entry.format] += count
        if entry.changed:
            summary.changed += count
        for rule in entry.rules:
            rules[rule] += count
        if entry.failed:
            summary.failed += count
            for key in entry.problems:
                problems[key] += count


# ---------------------------------------------------------------------------------- stats


def _plan_cost(key: tuple[str, str | None, str, str | None], plan: StatsPlan) -> int:
    """What a plan costs in its cache: the text of its target and host, and of the names it
    counts (a long one is held by its first characters)."""
    cost = _ENTRY_COST + len(key[2]) + len(key[3] or "")
    if plan.target is not None:
        _, version, kind, model, keys = plan.target
        cost += sum(len(text) if type(text) is str else _HELD for text in (version, kind, model, *keys))
    return cost


class StatsLines:
    """``logs stats`` of the lines of one file, block after block.

    What counting a record adds depends on its format, its TVM version, its target and host, and
    on nothing else of it: the first record of each such shape is counted by
    :meth:`~targetlang.logs.stats.Stats.add`, and what that counted (its plan) is counted again
    for the records like it, at the end of the block. A line is told to be like it when it
    decodes to an object of AutoTVM's log format v0.1 or v0.2 or auto_scheduler's, whose keys
    are written as :func:`_plain_v01` and :func:`_plain_v02` say (and, of auto_scheduler, its
    ``"i"`` once, no ``\\u`` in the line): the target records.py finds in it is the one decoded.
    """

    shortcut = True  # False: every line takes the general path (the tests compare both)

    @classmethod
    def count(cls, stats: Stats, lines: list[bytes], first: int, open_end: bool, name: str) -> None:
        """Count ``lines`` (as :func:`~targetlang.logs._jobs.blocks` gives them; ``open_end``: the
        last has no line break), numbered from ``first``, into ``stats``."""
        plans = stats.plans
        held = plans.peek
        tally: dict[StatsPlan, int] = {}
        final = first + len(lines) - 1 if open_end else -1
        fast = cls.shortcut and stats.loader is not None  # (the file's first records say whose it is)
        key: Any
        for number, raw in enumerate(lines, first):
            key = _stats_key(raw) if fast and raw[:1] == b"{" else None
            if key is not None:
                hit = held(key)
                plan = hit[0] if hit is not None else _adopted(stats, key)
                if plan is not None:
                    tally[plan] = tally.get(plan, 0) + 1
                    continue
            record = line_record(raw, number != final, name, number)
            stats.add(record)
            if key is not None and record.format.value == key[0]:
                made = stats.plan(record)
                if made is not None:
                    cost = _plan_cost(key, made)
                    plans.put(key, made, cost)
                    if stats.earlier is not None:
                        stats.earlier.put(key, made, cost)
            elif not fast:
                fast = cls.shortcut and stats.loader is not None
        for plan, count in tally.items():
            stats.add_like(plan, count)


def _stats_key(raw: bytes) -> tuple[str, str | None, str, str | None] | None:
    """What counting the line ``raw`` depends on, when it is a record of a shape
    :class:`StatsLines` knows: its format, TVM version, target and host; else ``None``."""
    try:
        value = _loads(raw)
    except (ValueError, RecursionError):
        return None
    if type(value) is not dict:
        return None
    version = value.get("v")
    if version == 0.1:
        i = value.get("i")
        if type(i) is list and i and type(spec := i[0]) is str and _plain_v01(raw, i):
            return (_V01_FORMAT, None, spec, None)
    elif "input" in value:
        inp = value["input"]
        if type(inp) is list and inp and type(spec := inp[0]) is str and _plain_v02(raw):
            tvm = value.get("tvm_version")
            return (_V02_FORMAT, tvm if type(tvm) is str else None, spec, None)
    elif type(version) is str:
        i = value.get("i")
        if (
            type(i) is list
            and i
            and type(task := i[0]) is list
            and len(task) > 1
            and type(spec := task[1]) is str
            and raw.count(b'"i"') == 1
            and b"\\u" not in raw
        ):
            host = task[3] if len(task) > 3 and type(task[3]) is str else None
            return (_AS_FORMAT, None, spec, host)
    return None


def _adopted(stats: Stats, key: tuple[str, str | None, str, str | None]) -> StatsPlan | None:
    """The plan an earlier file's run made for ``key``, adopted by ``stats`` and kept for the
    lines to come (``None``: none, or one it does not adopt)."""
    if stats.earlier is None:
        return None
    template = stats.earlier.peek(key)
    adopted = None if template is None else stats.adopt(template[0])
    if adopted is not None:
        stats.plans.put(key, adopted, _plan_cost(key, adopted))
    return adopted
