"""What each ``logs`` command does with a chunk of a big file in a worker process: the job (the
command's options, and what a process builds once for it), whose ``chunk`` says what each block
of the chunk's lines is given to (the command's shortcut) and what part is sent back, which the
command takes in the order of the file (:func:`._jobs.drive`); :func:`run_chunk` runs any job's."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeAlias, TypeVar

from .._cache import LruCache
from .._versions import MODERN, Release
from ..migration import Policy
from ._fast_check import CheckLines
from ._fast_migrate import MigrateLines
from ._fast_stats import StatsLines
from ._jobs import UNBOUNDED, each_block, share
from ._loading import FileLoading
from .check import Checker, CheckSummary
from .match import Matcher, Query
from .migration import Form, LogMigrator, MigrateSummary
from .records import line_record
from .report import Digest
from .stats import PLANS, Stats, StatsPlan
from .targets import TargetReader

__all__ = [
    "CheckJob",
    "CheckPart",
    "MatchJob",
    "MatchPart",
    "MigrateJob",
    "MigratePart",
    "StatsJob",
    "StatsPart",
    "Work",
    "count_lines",
    "fresh",
    "match_lines",
    "run_chunk",
]

_P = TypeVar("_P")
Work: TypeAlias = tuple[
    Callable[[list[bytes], int, bool], None], Callable[[int, "int | None", int, int, "int | None"], _P]
]
"""What a job does with a chunk: what each block of its lines (numbered from the second item, the
third whether the last line is open) is given to, and what makes the part sent back of the chunk's
start, end, first line, size in bytes and place in shared memory."""


# What a process builds once for the jobs it is given: the command itself (which starts afresh,
# :func:`fresh`) and its workers (which, forked, start with what the command had built).
_MADE: dict[Any, Any] = {}


def fresh() -> None:
    """Forget what was built for earlier runs in this process: a run reads with new caches."""
    _MADE.clear()


def _registry(path: str | None) -> Any:
    if path is None:
        return None
    key = ("registry", path)
    if key not in _MADE:
        from .._registry_files import load_registry

        _MADE[key] = load_registry(path)
    return _MADE[key]


def _reader(registry: str | None, tvm_version: Release | None) -> TargetReader:
    key = ("reader", registry, tvm_version)
    if key not in _MADE:
        _MADE[key] = TargetReader(_registry(registry), tvm_version)
    return _MADE[key]  # type: ignore[no-any-return]


@dataclass(frozen=True)
class CheckJob:
    """``logs check``: the reader's options and how problems are reported (``"json"``, ``"text"``,
    ``"quiet"``)."""

    registry: str | None
    tvm_version: Release | None
    mode: str

    def lines(self) -> CheckLines:
        """The checker of this job in this process (its caches shared by every file)."""
        if self not in _MADE:
            reader = _reader(self.registry, self.tvm_version)
            _MADE[self] = CheckLines(Checker(reader, LogMigrator(reader=reader, remember=True)), self.mode)
        return _MADE[self]  # type: ignore[no-any-return]

    def chunk(self, name: str, loader: str | None) -> Work[CheckPart]:
        """Checking a chunk of file ``name``, its loader ``loader`` known."""
        lines = self.lines()
        summary = CheckSummary(name, loading=FileLoading(loader, task=True))
        digest = Digest(UNBOUNDED)
        out: list[str] = []

        def take(block: list[bytes], number: int, open_end: bool) -> None:
            out.extend(lines.check(block, number, open_end, summary, digest))

        def part(start: int, end: int | None, first: int, size: int, shared: int | None) -> CheckPart:
            return CheckPart(start, end, first, size, summary, digest, out)

        return take, part


@dataclass
class CheckPart:
    """What checking one chunk found (see :func:`check_chunk`)."""

    start: int
    end: int | None
    first: int
    size: int
    summary: CheckSummary
    digest: Digest
    out: list[str]


@dataclass(frozen=True)
class MigrateJob:
    """``logs migrate``: the migrator's options, how the report is given (``"json"``, ``"text"``,
    ``"quiet"``), whether the migrated lines are wanted (``out``) and the changed ones (``diff``)."""

    registry: str | None
    tvm_version: Release | None
    to: Form
    policy: Policy
    compress_tags: bool
    mode: str
    out: bool
    diff: bool
    target_version: str = str(MODERN)  # the modern release written for

    def lines(self) -> MigrateLines:
        """The migrator of this job in this process (its caches shared by every file)."""
        if self not in _MADE:
            migrator = LogMigrator(
                self.to,
                self.policy,
                compress_tags=self.compress_tags,
                reader=_reader(self.registry, self.tvm_version),
                remember=True,
                target_version=self.target_version,
            )
            _MADE[self] = MigrateLines(migrator, self.mode)
        return _MADE[self]  # type: ignore[no-any-return]

    def chunk(self, name: str, loader: str | None) -> Work[MigratePart]:
        """Migrating a chunk of file ``name``, its loader ``loader`` as far as it is known (it
        decides what a blank line is)."""
        lines = self.lines()
        lines.shown.clear()  # the changes said in an earlier chunk may not have been shown by the command
        summary = MigrateSummary(name, loader=loader)
        digest = Digest(UNBOUNDED)
        out: list[bytes] | None = [] if self.out else None
        diff: list[tuple[int, bytes, bytes, bool]] | None = [] if self.diff else None
        said: list[tuple[Any, str]] = []

        def take(block: list[bytes], number: int, open_end: bool) -> None:
            lines.migrate(block, number, open_end, summary, digest, out, diff, said)

        def part(start: int, end: int | None, first: int, size: int, shared: int | None) -> MigratePart:
            data, where, length = share(b"".join(out or ()), shared)
            return MigratePart(start, end, first, size, summary, digest, data, diff or [], said, where, length)

        return take, part


@dataclass
class MigratePart:
    """What migrating one chunk did (see :func:`migrate_chunk`)."""

    start: int
    end: int | None
    first: int
    size: int
    summary: MigrateSummary
    digest: Digest
    out: bytes | memoryview  # the migrated lines (see Pool.map for a view)
    diff: list[tuple[int, bytes, bytes, bool]]
    said: list[tuple[Any, str]]
    shared: int | None = None  # where in shared memory the migrated lines are, if there
    length: int = 0


@dataclass(frozen=True)
class StatsJob:
    """``logs stats``: the reader's options."""

    registry: str | None
    tvm_version: Release | None

    def stats(self) -> Stats:
        """Empty counts, with the reader (and its caches) of this job in this process."""
        reader = _reader(self.registry, self.tvm_version)
        key = ("migrator", self.registry, self.tvm_version)
        if key not in _MADE:
            _MADE[key] = LogMigrator(reader=reader, remember=True)
        return Stats(reader, _MADE[key])

    def earlier(self) -> LruCache[Any, StatsPlan]:
        """The plans this process's chunks made so far (of records before every later chunk's:
        a worker takes its chunks in the order of the file), for a later chunk to adopt."""
        key = ("plans", self.registry, self.tvm_version)
        if key not in _MADE:
            _MADE[key] = LruCache(PLANS)
        return _MADE[key]  # type: ignore[no-any-return]

    def chunk(self, name: str, loader: str | None) -> Work[StatsPart]:
        """Counting a chunk of file ``name``, its loader ``loader`` as far as it is known (the
        counts hold no line's number: the chunk's first need not be known)."""
        stats = self.stats()
        stats.loader = loader
        stats.earlier = self.earlier()

        def part(start: int, end: int | None, first: int, size: int, shared: int | None) -> StatsPart:
            return StatsPart(size, stats)  # (pickled without its reader: Stats.__getstate__)

        return partial(count_lines, stats, name=name), part


@dataclass
class StatsPart:
    """What counting one chunk found (see :func:`stats_chunk`)."""

    size: int
    stats: Stats


def count_lines(stats: Stats, lines: list[bytes], first: int, open_end: bool, name: str) -> None:
    """Count ``lines`` (see :func:`blocks`), numbered from ``first``."""
    StatsLines.count(stats, lines, first, open_end, name)


@dataclass(frozen=True)
class MatchJob:
    """``logs match``: the reader's options, the target asked about, and whether what became of
    each record is kept (``--verbose``, ``--json``)."""

    registry: str | None
    tvm_version: Release | None
    target: str
    keep: bool

    def matcher(self) -> Matcher:
        """An empty matcher, with the query and the reader (and its caches) of this job in this process."""
        key = ("query", self.registry, self.target)
        if key not in _MADE:
            from .._parsing import parse

            _MADE[key] = Query.of(parse(self.target, registry=_registry(self.registry)))
        return Matcher(_MADE[key], _reader(self.registry, self.tvm_version), self.keep)

    def chunk(self, name: str, loader: str | None) -> Work[MatchPart]:
        """Loading a chunk of file ``name`` into an empty matcher (the records say their loader)."""
        matcher = self.matcher()

        def part(start: int, end: int | None, first: int, size: int, shared: int | None) -> MatchPart:
            return MatchPart(size, matcher)  # (pickled without its reader: Matcher.__getstate__)

        return partial(match_lines, matcher, name=name), part


@dataclass
class MatchPart:
    """What matching one chunk found (see :func:`match_chunk`)."""

    size: int
    matcher: Matcher


def match_lines(matcher: Matcher, lines: list[bytes], first: int, open_end: bool, name: str) -> None:
    """Load ``lines`` (see :func:`blocks`), numbered from ``first``, into ``matcher``."""
    final = first + len(lines) - 1 if open_end else -1
    add = matcher.add
    for number, raw in enumerate(lines, first):
        add(line_record(raw, number != final, name, number))


def run_chunk(
    job: CheckJob | MigrateJob | StatsJob | MatchJob,
    name: str,
    path: str,
    identity: tuple[int, int],
    start: int,
    end: int | None,
    first: int,
    loader: str | None = None,
    shared: int | None = None,
) -> Any:
    """Do ``job`` on the chunk ``start:end`` of file ``path`` (shown as ``name``; its first line
    ``first``) in a worker, block after block, and give back its part (``shared``: where in
    shared memory a part may put what it gives back). One function for every command: the job
    says what a block is given to and what the part holds."""
    take, part = job.chunk(name, loader)
    size = each_block(path, identity, start, end, first, take)
    return part(start, end, first, size, shared)
