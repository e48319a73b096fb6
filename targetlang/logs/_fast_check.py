"""``logs check``'s shortcut: a line of a shape met before, with the same target, is given what
checking the first such line found (see :mod:`._fast`)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from .._cache import LruCache
from ._autotvm_loader import KNOB_KINDS
from ._fast import (
    AS_BUDGET,
    AS_FORMAT,
    CACHE_SIZE,
    ENTRY_COST,
    V01_FORMAT,
    V01_WRITER,
    V02,
    V02_FORMAT,
    digest_report,
    json_template,
    loads,
    plain_v01,
    plain_v02,
)
from ._loading import FileLoading
from ._scheduler_schema import Targets, scheduler_reader
from .check import Checker, CheckSummary, Problem, distinct_spec
from .formats import Format
from .records import Record, line_record
from .report import Digest

__all__ = ["CheckLines"]


_NUMBERS = frozenset((float, int))


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
        self.json = [json_template(p.to_json(), line) for p in problems] if mode == "json" else []
        self.reports = (
            [digest_report(p.key, p.file, line, p.spec, p.human()) for p in problems] if mode == "text" else []
        )


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
        self._cache: LruCache[tuple[str, str, str | None, str], _CheckEntry] = LruCache(CACHE_SIZE)
        self._scheduler: LruCache[tuple[str, str, str, str | None], _CheckEntry] = LruCache(CACHE_SIZE, AS_BUDGET)

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
        decode = loads
        found: Any
        try:
            for raw in lines:
                number += 1
                key: Any = None  # for a plain line of a shape met for the first time: its cache key
                entry = None
                if fast:  # (a line that is no JSON object is soon told)
                    try:
                        value = decode(raw)
                    except (ValueError, RecursionError):
                        value = None
                    if type(value) is not dict:
                        pass
                    elif value.get("v") == 0.1:
                        i = value.get("i")
                        if type(i) is list and i and type(spec := i[0]) is str:
                            found = seen01.get(spec, False)
                            if found is False:
                                hit = cached((file, V01_FORMAT, V01_WRITER, spec))
                                found = seen01[spec] = hit[0] if hit is not None else None
                            if found is None:
                                if plain_v01(raw, i):
                                    key = (file, V01_FORMAT, V01_WRITER, spec)
                            # records.py's pattern, when it sees the line, finds the token after
                            # the first '"i": [' of the line: it must be the target's
                            elif raw.startswith(found.head, raw.find(b'"i": [') + 6) and (
                                not found.fixes or plain_v01(raw, i)
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
                                hit = cached((file, V02_FORMAT, tvm, spec))
                                found = seen02[tvm, spec] = hit[0] if hit is not None else None
                            if found is None:
                                if _as_written(value, inp, raw, spec.count("{")) and plain_v02(raw):
                                    key = (file, V02_FORMAT, tvm, spec)
                            elif (
                                raw.startswith(found.head)
                                and _as_written(value, inp, raw, found.braces)
                                and (not found.fixes or plain_v02(raw))
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
                        key = (file, AS_FORMAT, *specs)
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
        if key[1] == AS_FORMAT:
            self._remember_scheduler(key, record, problems)
            return
        if record.format.value != key[1]:
            return
        spec = key[3]
        token = json.dumps(spec).encode("utf-8")
        head = V02 + token if record.format is Format.AUTOTVM_V02 else token
        self._cache.put(key, _CheckEntry((spec,), key[1], head, problems, record.line, self.mode))

    def _remember_scheduler(self, key: tuple[Any, ...], record: Record, problems: list[Problem]) -> None:
        """:meth:`_remember` of an auto_scheduler record (one :func:`scheduler_reader`'s function read)."""
        _, _, spec, host = key
        if record.format is not Format.AUTO_SCHEDULER or (record.target, record.host) != (spec, host):
            return
        specs = (spec,) if host is None else (spec, host)
        entry = _CheckEntry(specs, AS_FORMAT, b"", problems, record.line, self.mode)
        self._scheduler.put(key, entry, ENTRY_COST + len(spec) + len(host or ""))


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
