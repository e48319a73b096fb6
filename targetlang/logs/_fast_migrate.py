"""``logs migrate``'s shortcut: a line of a shape met before, with the same target written the
same way, is migrated as the first such line was, its target token spliced (see :mod:`._fast`)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from .._cache import LruCache
from ._fast import (
    AS_HEAD,
    AS_SHAPE,
    CACHE_SIZE,
    ENTRY_COST,
    V01,
    V01_FORMAT,
    V01_V_FIRST,
    V01_WRITER,
    V02,
    V02_AT,
    V02_FORMAT,
    Report,
    digest_report,
    json_template,
    loads,
    plain_v01,
)
from .formats import Format
from .migration import LogMigrator, MigrateSummary, RecordMigration
from .records import Record, line_record
from .report import Digest

__all__ = ["MigrateLines", "change_json", "migration_reports"]


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
                head, tail = json_template(json.loads(text), record.line)
                self.reports.append(Report(key, spec, head, tail, seen))
            else:
                self.reports.append(digest_report(key, record.file, record.line, spec, text))


class MigrateLines:
    """``logs migrate`` of the lines of one file, block after block: the migrated lines, counted
    into a :class:`MigrateSummary`, reported as ``mode`` says (see :func:`migration_reports`)."""

    shortcut = True  # False: every line takes the general path (the tests compare both)

    def __init__(self, migrator: LogMigrator, mode: str) -> None:
        self.migrator = migrator
        self.mode = mode
        self._cache: LruCache[tuple[str, str, str | None, str], _MigrateEntry] = LruCache(CACHE_SIZE)
        self._scheduler: LruCache[tuple[str, bytes, bytes | None], _MigrateEntry] = LruCache(CACHE_SIZE)
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
                new, kept = self._general(raw, number, newline, at, shape, summary, digest, said)
                if kept:
                    known.clear()
            else:
                tally[entry] = tally_get(entry, 0) + 1
                new = raw
                if entry.new is not None or (shape is not None and entry.new_host is not None):
                    new = _spliced(raw, entry, at, shape)
                if entry.reports:
                    self._again(entry, number, digest, said)
            if new is not raw and diff is not None:
                diff.append((number, raw, new, newline))
            if put is not None:
                put(new)
                if newline:
                    put(b"\n")
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
    ) -> tuple[bytes, bool]:
        """The general path for the line ``raw`` (its target token at ``at``, or of
        auto_scheduler's where ``shape`` found it): the line migrated (``raw`` itself when it
        stays), and whether what it did was kept for the lines of its shape to come."""
        record = line_record(raw, newline, summary.file, number)
        result = self.migrator.migrate(record, summary.loader)
        summary.count(result)
        mode = self.mode
        for seen, key, spec, text in migration_reports(result, mode):
            if mode != "json":
                digest.add(key, number, spec, text)
            else:
                self._say(seen, text, said)
        new = raw
        if result.changed:
            new = result.text.encode("utf-8", "surrogateescape")
            if record.newline == "\r\n":
                new += b"\r"
        kept = (at >= 0 and self._remember(record, result, raw, at)) or (
            shape is not None and self._remember_scheduler(record, result, shape)
        )
        return new, kept

    def _again(self, entry: _MigrateEntry, number: int, digest: Digest, said: list[tuple[Any, str]]) -> None:
        """Report what ``entry`` found, again, for the line ``number``."""
        if self.mode == "json":
            for report in entry.reports:
                self._say(report.seen, f"{report.head}{number}{report.tail}", said)
        elif self.mode == "text":
            for report in entry.reports:
                if not digest.again(report.key, number, report.spec):
                    digest.add(report.key, number, report.spec, f"{report.head}{number}{report.tail}")

    def _say(self, seen: Any, text: str, said: list[tuple[Any, str]]) -> None:
        """Give the JSON report ``text`` to ``said``: a problem (``seen`` ``None``) every time, a
        change once a run."""
        if seen is None or seen not in self.shown:
            if seen is not None:
                self.shown.add(seen)
            said.append((seen, text))

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
        version = record.tvm_version if record.format is Format.AUTOTVM_V02 else V01_WRITER
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
        cost = ENTRY_COST + len(target) + len(host or b"")
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
            value = loads(raw)
        except (ValueError, RecursionError):
            return _UNKNOWN
        if type(value) is not dict:
            return _UNKNOWN
        if value.get("v") == 0.1:
            return self._v01(raw, value.get("i"))
        if raw.startswith(V02):
            return self._v02(raw, value)
        if raw.startswith(AS_HEAD):
            return self._scheduler(raw, value)
        return _UNKNOWN

    def _v01(self, raw: bytes, i: Any) -> tuple[_MigrateEntry | None, int, None]:
        if not (type(i) is list and i and type(spec := i[0]) is str):
            return _UNKNOWN
        match = V01.match(raw)
        # where records.py's pattern does not see the line, the general path searches it, and
        # finds the one target token of a plain line
        if match is None and plain_v01(raw, i):
            match = V01_V_FIRST.match(raw)
        if match is None:
            return _UNKNOWN
        at = match.end()
        entry: Any = self.v01.get(spec, False)
        if entry is False:
            hit = self.cached((self.file, V01_FORMAT, V01_WRITER, spec))
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
            hit = self.cached((self.file, V02_FORMAT, tvm, spec))
            entry = self.v02[tvm, spec] = hit[0] if hit is not None else None
        if entry is not None and not raw.startswith(entry.token, V02_AT):
            entry = None
        return entry, V02_AT, None

    def _scheduler(self, raw: bytes, value: dict[str, Any]) -> tuple[_MigrateEntry | None, int, re.Match[bytes] | None]:
        i = value.get("i")
        if not (
            type(value.get("v")) is str
            and "input" not in value
            and type(i) is list
            and i
            and type(task := i[0]) is list
            and len(task) > 1
            and type(task[1]) is str
            and (shape := AS_SHAPE.match(raw)) is not None
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
