"""What each ``logs`` command does with a chunk of a big file in a worker process: the job (the
command's options, and what a process builds once for it), the chunk's lines given to the
command's shortcut block after block, and the part sent back, which the command takes in the
order of the file (:func:`._jobs.drive`)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any

from .._cache import LruCache
from .._versions import MODERN
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
    "check_chunk",
    "count_lines",
    "fresh",
    "match_chunk",
    "match_lines",
    "migrate_chunk",
    "stats_chunk",
]


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


def _reader(registry: str | None, tvm_version: str | None) -> TargetReader:
    key = ("reader", registry, tvm_version)
    if key not in _MADE:
        _MADE[key] = TargetReader(_registry(registry), tvm_version)
    return _MADE[key]  # type: ignore[no-any-return]


@dataclass(frozen=True)
class CheckJob:
    """``logs check``: the reader's options and how problems are reported (``"json"``, ``"text"``,
    ``"quiet"``)."""

    registry: str | None
    tvm_version: str | None
    mode: str

    def lines(self) -> CheckLines:
        """The checker of this job in this process (its caches shared by every file)."""
        if self not in _MADE:
            reader = _reader(self.registry, self.tvm_version)
            _MADE[self] = CheckLines(Checker(reader, LogMigrator(reader=reader, remember=True)), self.mode)
        return _MADE[self]  # type: ignore[no-any-return]


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


def check_chunk(
    job: CheckJob,
    name: str,
    path: str,
    identity: tuple[int, int],
    start: int,
    end: int | None,
    first: int,
    loader: str,
    shared: int | None = None,
) -> CheckPart:
    """Check the chunk ``start:end`` of the file (its first line ``first``) in a worker, the
    file's loader ``loader`` known."""
    lines = job.lines()
    summary = CheckSummary(name, loading=FileLoading(loader, task=True))
    digest = Digest(UNBOUNDED)
    out: list[str] = []

    def check(block: list[bytes], number: int, open_end: bool) -> None:
        out.extend(lines.check(block, number, open_end, summary, digest))

    size = each_block(path, identity, start, end, first, check)
    return CheckPart(start, end, first, size, summary, digest, out)


@dataclass(frozen=True)
class MigrateJob:
    """``logs migrate``: the migrator's options, how the report is given (``"json"``, ``"text"``,
    ``"quiet"``), whether the migrated lines are wanted (``out``) and the changed ones (``diff``)."""

    registry: str | None
    tvm_version: str | None
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


def migrate_chunk(
    job: MigrateJob,
    name: str,
    path: str,
    identity: tuple[int, int],
    start: int,
    end: int | None,
    first: int,
    loader: str | None = None,
    shared: int | None = None,
) -> MigratePart:
    """Migrate the chunk ``start:end`` of the file (its first line ``first``) in a worker, the
    file's loader ``loader`` as far as it is known (it decides what a blank line is)."""
    lines = job.lines()
    lines.shown.clear()  # the changes said in an earlier chunk may not have been shown by the command
    summary = MigrateSummary(name, loader=loader)
    digest = Digest(UNBOUNDED)
    out: list[bytes] | None = [] if job.out else None
    diff: list[tuple[int, bytes, bytes, bool]] | None = [] if job.diff else None
    said: list[tuple[Any, str]] = []

    def migrate(block: list[bytes], number: int, open_end: bool) -> None:
        lines.migrate(block, number, open_end, summary, digest, out, diff, said)

    size = each_block(path, identity, start, end, first, migrate)
    data, where, length = share(b"".join(out or ()), shared)
    return MigratePart(start, end, first, size, summary, digest, data, diff or [], said, where, length)


@dataclass(frozen=True)
class StatsJob:
    """``logs stats``: the reader's options."""

    registry: str | None
    tvm_version: str | None

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


@dataclass
class StatsPart:
    """What counting one chunk found (see :func:`stats_chunk`)."""

    size: int
    stats: Stats


def count_lines(stats: Stats, lines: list[bytes], first: int, open_end: bool, name: str) -> None:
    """Count ``lines`` (see :func:`blocks`), numbered from ``first``."""
    StatsLines.count(stats, lines, first, open_end, name)


def stats_chunk(
    job: StatsJob,
    name: str,
    path: str,
    identity: tuple[int, int],
    start: int,
    end: int | None,
    first: int,
    loader: str | None = None,
    shared: int | None = None,
) -> StatsPart:
    """Count the chunk ``start:end`` of the file in a worker, the file's loader ``loader`` as
    far as it is known (it decides what a blank line is). ``first`` need not be the number of
    its first line: the counts hold no line's number (the command does not count them)."""
    stats = job.stats()
    stats.loader = loader
    stats.earlier = job.earlier()
    size = each_block(path, identity, start, end, first, partial(count_lines, stats, name=name))
    return StatsPart(size, stats)  # (pickled without its reader: Stats.__getstate__)


@dataclass(frozen=True)
class MatchJob:
    """``logs match``: the reader's options, the target asked about, and whether what became of
    each record is kept (``--verbose``, ``--json``)."""

    registry: str | None
    tvm_version: str | None
    target: str
    keep: bool

    def matcher(self) -> Matcher:
        """An empty matcher, with the query and the reader (and its caches) of this job in this process."""
        key = ("query", self.registry, self.target)
        if key not in _MADE:
            from .._parsing import parse

            _MADE[key] = Query.of(parse(self.target, registry=_registry(self.registry)))
        return Matcher(_MADE[key], _reader(self.registry, self.tvm_version), self.keep)


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


def match_chunk(
    job: MatchJob,
    name: str,
    path: str,
    identity: tuple[int, int],
    start: int,
    end: int | None,
    first: int,
    shared: int | None = None,
) -> MatchPart:
    """Load the chunk ``start:end`` of the file (its first line ``first``) in a worker."""
    matcher = job.matcher()
    size = each_block(path, identity, start, end, first, partial(match_lines, matcher, name=name))
    return MatchPart(size, matcher)  # (pickled without its reader: Matcher.__getstate__)
