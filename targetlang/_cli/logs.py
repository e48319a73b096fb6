"""The ``targetlang logs`` commands: ``check``, ``stats``, ``match`` and ``migrate`` over tuning logs.

Data goes to stdout, problems and progress to stderr. A file that cannot be read is reported and
the others are still read; it makes the exit status 1.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import json
import os
import stat
import sys
import tempfile
import zlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .._progress import Progress
from .._versions import MODERN
from .options import (
    add_check,
    add_compress_tags,
    add_jobs,
    add_json,
    add_policy,
    add_quiet,
    add_target_version,
    add_tvm_version,
)

POOL_FROM = 1 << 23  # targetlang.logs._jobs.POOL_FROM, without importing it for every command line

if TYPE_CHECKING:
    from ..logs._chunk_jobs import MigratePart
    from ..logs._jobs import Pool, Source
    from ..logs.migration import MigrateSummary
    from ..logs.report import Digest

# The commands import their modules when they run: building the parser for another command
# (every run of targetlang builds it) must not pay for reading logs.

__all__ = ["add_parser"]

_LOGS_EPILOG = """\
Tuning logs of AutoTVM (JSON v0.2 and v0.1, pickle rows), auto_scheduler and meta-schedule
(JSON databases) are read line by line; one file may mix formats. A FILE of '-' is standard
input; a gzip-compressed FILE is read decompressed, as a stream; a directory stands for the
regular files directly in it, in name order, but names starting with '.' or ending in '.bak'.
Records that do not say which TVM wrote them are read with TVM v0.22's rules unless
--tvm-version says otherwise. See docs/logs.md.

Run 'targetlang logs COMMAND --help' for each command's examples.
"""

_CHECK_EPILOG = """\
Every record's target (and auto_scheduler's host) must read in the era of the TVM that wrote it,
print back byte for byte, read back from its canonical form, and resolve (the checks of
'targetlang check'); and every line must be one TVM's own loader reads: a blank
line or an AutoTVM record without config or result made TVM fail to load the whole log. Each
distinct problem goes to stderr once per file, as FILE:LINE: FIELD: RULE: ERROR: message for its
first record with the target and a caret, and [N records, M distinct targets: lines ...] when it
concerns several; a summary per file goes to stdout. A problem 'targetlang logs migrate' fixes
(the -target= of TopHub's logs, which TVM v0.7 - v0.19 rewrote) is marked [needs migration] and
counted apart from the failures.

exit status: 0 all good; 1 a line failed (migration does not fix it) or a file could not be read;
3 only problems that 'logs migrate' fixes.

examples:
  $ cat tune.log
  # tuned on the board
  {"input": ["llvm -mcpu=cortex-a72 -link-params=0", "dense.x86", [], {}], "config": {"index": 1, \
"code_hash": null, "entity": []}, "result": [[0.1], 0, 1, 1], "version": 0.2, "tvm_version": "0.8.0"}
  {"input": ["llvm -mcpux=cortex-a72", "dense.x86", [], {}], "config": {"index": 2, "code_hash": null, \
"entity": []}, "result": [[0.1], 0, 1, 1], "version": 0.2, "tvm_version": "0.10.0"}
  $ targetlang logs check tune.log
  tune.log:3: target: parse: UnknownAttributeError: kind 'llvm' has no attribute 'mcpux'; did you mean 'mcpu'?
    llvm -mcpux=cortex-a72
          ^^^^^
  tune.log: 2 records (2 autotvm-v0.2), 1 comment line, 2 distinct targets; 1 failed \
(1 parse: UnknownAttributeError)
"""

_STATS_EPILOG = """\
Distinct targets with their record counts, kind, model and resolved keys (as AutoTVM's dispatcher
saw them), the TVM versions that wrote them and the era they are read in, and whether they pass
'logs check'; then counts per record.

examples:
  $ cat tune.log
  {"input": ["llvm -device=arm_cpu -model=rk3399", "dense", [], {}], "result": [[0.1], 0, 1, 1], \
"version": 0.2, "tvm_version": "0.9.0"}
  $ targetlang logs stats tune.log
  1 record in 1 file (1 autotvm-v0.2), 0 comment lines; 1 distinct target
  records  kind  model   keys         tvm    era  check  target
        1  llvm  rk3399  arm_cpu,cpu  0.9.0  0.8  ok     llvm -device=arm_cpu -model=rk3399
  kinds: llvm 1
  keys: arm_cpu 1, cpu 1
  models: rk3399 1
  eras: 0.8 1
  tvm versions: 0.9.0 1
"""

_MATCH_EPILOG = """\
ApplyHistoryBest's choice for the target: per workload (task and arguments) the fastest record
whose model is the target's, else the fastest with the target's first key that has one. For
each distinct record target, how it matches or which field makes it miss. Lines are loaded as TVM
v0.7 - v0.19 loaded them: records of AutoTVM's log format v0.1 are skipped, and a line the loader
raises on (a blank line, a record without config) makes the whole load fail. Exit status 1 when
no workload is found for the target, or TVM fails to load the logs.

examples:
  $ cat tune.log
  {"input": ["llvm -device=arm_cpu -model=rk3399", "dense", [], {}], "config": {"index": 1, "code_hash": null, \
"entity": []}, "result": [[0.1], 0, 1, 1], "version": 0.2, "tvm_version": "0.9.0"}
  $ targetlang logs match tune.log --target "cuda -model=rk3399"
  target: cuda -model=rk3399
    model 'rk3399', keys cuda, gpu
  1 AutoTVM record in 1 file, 1 workload: 1 found (1 by model 'rk3399'), 0 not found
  records  picked  target                              matches
        1       1  llvm -device=arm_cpu -model=rk3399  by model 'rk3399'
"""


_MIGRATE_EPILOG = """\
Each record's target (and auto_scheduler's host) is migrated as 'targetlang migrate' does, in the
era of the TVM that wrote it, and spliced into the line in place of the old value: every other
byte stays. Target strings become JSON text (still a string: TVM >= 0.24's Target() reads it) or,
with --to canonical, canonical strings; meta-schedule's target objects become migrated objects.
A record that cannot migrate is kept as written and reported; a second run changes nothing.
Each distinct change and problem goes to stderr once per file, with its count of records (none
with --quiet), then a summary per file. Exit
status 1 if a record was kept because it cannot migrate, a file could not be read, or (--check)
a record would change.

examples:
  $ cat tune.log
  # tuned on the board
  {"input": ["llvm -device=arm_cpu -target=aarch64-linux-gnu", "dense", [], {}], "result": [[0.1], 0, 1, 1], \
"version": 0.2, "tvm_version": "0.9.0"}
  $ targetlang logs migrate tune.log -o -
  tune.log:2: target: info: target-to-mtriple: -target renamed to -mtriple
    llvm -device=arm_cpu -target=aarch64-linux-gnu
                          ^^^^^^
  tune.log: 1 record, 1 changed, 0 unchanged, 0 kept as written; changes: 1 target-to-mtriple
  # tuned on the board
  {"input": ["{\\"kind\\": \\"llvm\\", \\"device\\": \\"arm_cpu\\", \\"mtriple\\": \\"aarch64-linux-gnu\\"}", \
"dense", [], {}], "result": [[0.1], 0, 1, 1], "version": 0.2, "tvm_version": "0.9.0"}
  $ targetlang logs migrate --in-place tune.log
  tune.log:2: target: info: target-to-mtriple: -target renamed to -mtriple
    llvm -device=arm_cpu -target=aarch64-linux-gnu
                          ^^^^^^
  tune.log: 1 record, 1 changed, 0 unchanged, 0 kept as written; changes: 1 target-to-mtriple
  $ targetlang logs migrate --check tune.log
  tune.log: 1 record, 0 would change, 1 unchanged, 0 kept as written
"""


def add_parser(commands: Any) -> None:
    """Add ``logs`` and its commands to the ``targetlang`` command's subparsers ``commands``."""
    raw = argparse.RawDescriptionHelpFormatter
    summary = "check, count, match and migrate the targets of tuning logs"
    logs = commands.add_parser("logs", help=summary, description=summary, epilog=_LOGS_EPILOG, formatter_class=raw)
    subs = logs.add_subparsers(title="commands", metavar="COMMAND", required=True)

    def common(
        name: str,
        summary: str,
        epilog: str,
        run: Callable[[argparse.Namespace], int],
        json_help: str = "JSON lines on stdout instead of text",
        quiet: bool = False,
        jobs: bool = True,
    ) -> Any:
        sub = subs.add_parser(name, help=summary, description=summary, epilog=epilog, formatter_class=raw)
        sub.add_argument(
            "files",
            metavar="FILE",
            nargs="+",
            help="a tuning log, plain or gzip-compressed; '-' is standard input; a directory: the regular files "
            "directly in it, in name order, but names starting with '.' or ending in '.bak'",
        )
        add_json(sub, json_help)
        if quiet:
            add_quiet(sub, "no reports of single records on stderr: only the summaries")
        if jobs:
            add_jobs(
                sub,
                "processes to use for a big log (default: one per core; 1: no pool); the output is the same "
                f"whatever N. Files under {POOL_FROM >> 20} MB are read by one process",
            )
        add_tvm_version(sub, "the TVM version that wrote records which do not record it (default: read them as v0.22)")
        # what the command imports when it runs, imported first with signals held (cli._signals_held)
        sub.set_defaults(run=run, imports=("targetlang.logs",))
        return sub

    common(
        "check", "check that every record's target reads, prints back and resolves", _CHECK_EPILOG, _check, quiet=True
    )
    common("stats", "count the distinct targets of tuning logs", _STATS_EPILOG, _stats)
    match = common("match", "which AutoTVM records the dispatcher picks for a target", _MATCH_EPILOG, _match)
    match.add_argument("--target", metavar="SPEC", required=True, help="the target to compile for")
    match.add_argument("-v", "--verbose", action="store_true", help="also one line per record: what became of it")

    migrate = common(
        "migrate",
        f"rewrite the targets of tuning logs in the form of TVM {MODERN} (or --target-version)",
        _MIGRATE_EPILOG,
        _migrate,
        # Standard output may carry the migrated log or the diff: the report stays on stderr.
        json_help="the report (changes, problems, summaries) as JSON lines on stderr instead of text",
        quiet=True,
    )
    where = migrate.add_mutually_exclusive_group()
    where.add_argument(
        "-o",
        "--output",
        metavar="OUT",
        help="write the migrated log to OUT ('-': standard output), gzip-compressed if its name ends in .gz; "
        "with several FILEs or a directory, OUT is a directory (made if missing)",
    )
    where.add_argument(
        "--in-place", action="store_true", help="replace each FILE, atomically, keeping the old one as FILE.bak"
    )
    add_check(where, "write nothing; exit 1 if a record would change or cannot migrate")
    migrate.add_argument(
        "--diff", action="store_true", help="print the changed lines as a unified diff (zero context) on stdout"
    )
    migrate.add_argument(
        "--to",
        choices=("json", "canonical"),
        default="json",
        help="target strings become JSON text (the default, what TVM >= 0.24 reads) or canonical legacy strings",
    )
    add_policy(
        migrate,
        "attributes TVM removed: keep the record as written and report it (error, the default), drop them, "
        "or keep them (both with a warning)",
    )
    add_compress_tags(migrate, f"write a registered TVM {MODERN} tag where the target equals one")
    migrate.add_argument("--no-backup", action="store_true", help="with --in-place, keep no FILE.bak")
    add_target_version(migrate)


def _pool(args: argparse.Namespace) -> Pool | None:
    """The worker processes ``--jobs`` asks for (by default one per core); ``None`` for one."""
    from ..logs._jobs import Pool

    jobs = args.jobs if args.jobs is not None else (os.cpu_count() or 1)
    return Pool(jobs) if jobs > 1 else None


# ---------------------------------------------------------------------------------- commands


# Exit status of `logs check` when every problem is one `logs migrate` fixes.
EXIT_NEEDS_MIGRATION = 3


def _check(args: argparse.Namespace) -> int:
    from ..logs._chunk_jobs import CheckJob, CheckPart, check_chunk, fresh
    from ..logs._jobs import drive
    from ..logs.check import CheckSummary
    from ..logs.report import Digest

    job = CheckJob(getattr(args, "registry", None), args.tvm_version, _mode(args))
    fresh()
    lines = job.lines()  # a registry file that cannot be read fails here, before any log is read
    progress = Progress()
    total = CheckSummary("total")
    write = sys.stdout.write

    def emit(out: list[str]) -> None:
        if out:
            write("\n".join(out) + "\n")

    def one(source: Source, pool: Pool | None) -> None:
        summary = CheckSummary(source.name)
        digest = Digest()

        def local(numbered: list[bytes], first: int, open_end: bool) -> None:
            emit(lines.check(numbered, first, open_end, summary, digest))

        def remote(start: int, end: int | None, first: int) -> tuple[Callable[..., Any], tuple[Any, ...]]:
            loader = summary.loading.loader
            return check_chunk, (job, source.name, source.path, source.identity, start, end, first, loader)

        def take(part: CheckPart) -> None:
            if digest.merge(part.digest):
                summary.add(part.summary)
                emit(part.out)
            else:  # its reports would have filled the digest midway: read the chunk again here
                _again(source, part.start, part.end, part.first, local)

        with progress.track(source.size, source.name) as advance:
            drive(source, pool, local, remote, take, advance, ready=lambda: summary.loading.settled, summary=True)
        out: list[str] = []
        lines.report(lines.checker.finish(summary), out, digest)
        emit(out)
        for text in digest.drain():
            progress.say(text)
        total.add(summary)
        print(json.dumps(summary.to_json()) if args.json else summary.human())

    args.paths = _log_files(args)
    status = _each_source(args, one) or _unreadable(args)
    if len(args.paths) > 1:
        print(json.dumps(total.to_json()) if args.json else total.human())
    if status or total.failed:
        return 1
    return EXIT_NEEDS_MIGRATION if total.needs_migration else 0


def _mode(args: argparse.Namespace) -> str:
    """How single records are reported: ``"json"``, ``"quiet"`` (not at all) or ``"text"``."""
    return "json" if args.json else "quiet" if getattr(args, "quiet", False) else "text"


def _again(
    source: Source, start: int, end: int | None, first: int, local: Callable[[list[bytes], int, bool], None]
) -> None:
    """Read the chunk ``start:end`` of ``source`` again, in this process (its first line ``first``)."""
    for numbered, _, open_end in source.blocks_of(start, end):
        local(numbered, first, open_end)
        first += len(numbered)


def _log_files(args: argparse.Namespace) -> list[str]:
    """The files ``args.files`` names, each directory's logs in it (see
    :func:`targetlang.logs._jobs.log_files`); a directory that cannot be listed is reported, and
    ``args.unreadable`` (the exit status 1) set."""
    from ..logs._jobs import log_files

    def report(path: str, err: OSError) -> None:
        print(f"error: cannot read {path}: {err.strerror or err}", file=sys.stderr)
        args.unreadable = True

    files: list[str] = []
    for path in args.files:
        found = log_files([path], report)
        if not found and path != "-" and os.access(path, os.R_OK) and os.path.isdir(path):
            # (said, as a linter says of a folder without sources: a CI job pointed at the wrong one)
            print(f"warning: {path} holds no logs (regular files not named .* or *.bak)", file=sys.stderr)
        files += found
    return files


def _unreadable(args: argparse.Namespace) -> int:
    """1 if a directory of ``args.files`` could not be listed, else 0."""
    return 1 if getattr(args, "unreadable", False) else 0


def _each_source(args: argparse.Namespace, take: Callable[[Source, Pool | None], None]) -> int:
    """Give each file, opened, to ``take``, with the pool of ``--jobs``; 1 if a file could not be
    read, else 0."""
    from ..logs._jobs import Source

    status = 0
    pool = _pool(args)
    try:
        for path in args.paths:
            try:
                with Source.open(path) as source:
                    take(source, pool)
            except BrokenPipeError:
                raise
            except OSError as err:
                print(f"error: cannot read {path}: {err.strerror or err}", file=sys.stderr)
                status = 1
    finally:
        if pool is not None:
            pool.close()
    return status


def _stats(args: argparse.Namespace) -> int:
    from ..logs._chunk_jobs import StatsJob, StatsPart, count_lines, fresh, stats_chunk
    from ..logs._jobs import drive

    job = StatsJob(getattr(args, "registry", None), args.tvm_version)
    fresh()
    stats = job.stats()
    progress = Progress()

    def one(source: Source, pool: Pool | None) -> None:
        def local(numbered: list[bytes], first: int, open_end: bool) -> None:
            count_lines(stats, numbered, first, open_end, source.name)

        def remote(start: int, end: int | None, first: int) -> tuple[Callable[..., Any], tuple[Any, ...]]:
            return stats_chunk, (job, source.name, source.path, source.identity, start, end, first, stats.loader)

        def take(part: StatsPart) -> None:
            stats.merge(part.stats)

        stats.files += 1  # (a file that cannot be opened is reported, and is none of them)
        stats.loader = None  # each file's own, from its first record
        with progress.track(source.size, source.name) as advance:
            drive(source, pool, local, remote, take, advance, numbered=False, summary=True)

    args.paths = _log_files(args)
    status = _each_source(args, one) or _unreadable(args)
    # a text at a time: the report of a log of many long targets is as long as they are
    if args.json:
        stats.write_json(sys.stdout.write)
    else:
        stats.write(sys.stdout.write)
    return status


def _match(args: argparse.Namespace) -> int:
    from ..logs._chunk_jobs import MatchJob, MatchPart, fresh, match_chunk, match_lines
    from ..logs._jobs import drive

    # What became of each record is kept (in a temporary file) only when it is shown.
    job = MatchJob(getattr(args, "registry", None), args.tvm_version, args.target, args.json or args.verbose)
    fresh()
    matcher = job.matcher()  # a target or registry that cannot be read fails here, before any log is read
    progress = Progress()

    def one(source: Source, pool: Pool | None) -> None:
        def local(numbered: list[bytes], first: int, open_end: bool) -> None:
            match_lines(matcher, numbered, first, open_end, source.name)

        def remote(start: int, end: int | None, first: int) -> tuple[Callable[..., Any], tuple[Any, ...]]:
            return match_chunk, (job, source.name, source.path, source.identity, start, end, first)

        def take(part: MatchPart) -> None:
            matcher.merge(part.matcher)

        matcher.files += 1  # (a file that cannot be opened is reported, and is none of them)
        with progress.track(source.size, source.name) as advance:
            drive(source, pool, local, remote, take, advance, summary=True)

    args.paths = _log_files(args)
    status = _each_source(args, one) or _unreadable(args)
    matcher.finish()
    if args.json:
        for entry in matcher.each():
            print(json.dumps(entry.to_json(matcher.workloads)))
        print(json.dumps(matcher.summary()))
    else:
        if args.verbose:
            for entry in matcher.each():
                print(entry.human())
        print(matcher.report())
    return status or (0 if matcher.picks and matcher.loads else 1)


class _Usage(Exception):
    """A combination of options that makes no sense: reported as a usage error (exit 2)."""


def _destinations(args: argparse.Namespace) -> list[str | None]:
    """Where each of ``args.paths`` (the FILEs, directories' logs in their place) goes migrated:
    a path, ``"-"`` (stdout), or ``None`` (nowhere). ``-o`` names a directory when there are
    several FILEs or one is a directory; it is made if it does not exist (``OSError`` if it
    cannot be)."""
    paths: list[str] = args.paths
    if args.no_backup and not args.in_place:
        raise _Usage("--no-backup goes with --in-place only: no other way of writing keeps a FILE.bak")
    if args.in_place:
        if "-" in paths:
            raise _Usage("--in-place cannot replace standard input: give -o OUT")
        return list(paths)
    out: str | None = args.output
    if out is None:
        if not (args.check or args.diff):
            raise _Usage("say where the migrated log goes: -o OUT, --in-place, or --check/--diff to write nothing")
        return [None] * len(paths)
    if out == "-":
        if args.diff:
            raise _Usage("-o - and --diff both write to standard output: choose one")
        return ["-"] * len(paths)
    directory = len(args.files) > 1 or any(path != "-" and os.path.isdir(path) for path in args.files)
    if not directory and not os.path.isdir(out):
        return [out]
    if os.path.exists(out) and not os.path.isdir(out):
        raise _Usage(f"with several FILEs or a directory, -o names a directory, and {out} is not one")
    names = [os.path.basename(path) for path in paths]
    if "-" in paths:
        raise _Usage("standard input has no file name to write under the directory: migrate it on its own")
    if len(set(names)) < len(names):
        twice = next(name for name in names if names.count(name) > 1)
        both = [path for path, name in zip(paths, names, strict=True) if name == twice]
        raise _Usage(
            f"{both[0]} and {both[1]} have the same name, and -o DIRECTORY would write both to "
            f"{os.path.join(out, twice)}: migrate them apart"
        )
    if paths:
        os.makedirs(out, exist_ok=True)
    return [os.path.join(out, name) for name in names]


# A hunk's header counts its lines and its old lines come before its new ones, so a hunk is held
# until it ends; past this many bytes it goes to a temporary file (a log whose every line
# changes is one hunk as long as the log).
_SPOOL_SIZE = 1 << 20


class _Diff:
    """The changed lines of one file as a unified diff with no context lines."""

    def __init__(self, name: str, write: Callable[[bytes], Any]) -> None:
        self.name = name
        self.write = write
        self.started = False
        self.first = 0  # the hunk's first line
        self.count = 0  # its lines; 0: no hunk
        self.newline = True  # whether its last line ends with a line break
        self.old: tempfile.SpooledTemporaryFile[bytes] = tempfile.SpooledTemporaryFile(_SPOOL_SIZE)
        self.new: tempfile.SpooledTemporaryFile[bytes] = tempfile.SpooledTemporaryFile(_SPOOL_SIZE)

    def __enter__(self) -> _Diff:
        return self

    def __exit__(self, *exc: object) -> None:
        self.old.close()
        self.new.close()

    def add(self, line: int, old: bytes, new: bytes, newline: bool) -> None:
        """Line ``line`` changed from ``old`` to ``new`` (without its ``"\\n"``; ``newline``: it
        had one). A CRLF line keeps its ``"\\r"`` on both sides, or patch finds no line to replace."""
        if self.count and self.first + self.count != line:
            self.flush()
        if not self.count:
            self.first = line
        self.count += 1
        self.newline = newline
        self.old.write(b"-" + old + b"\n")
        self.new.write(b"+" + new + b"\n")

    def flush(self) -> None:
        if not self.count:
            return
        if not self.started:
            self.write(f"--- {self.name}\n+++ {self.name}\n".encode())
            self.started = True
        self.write(f"@@ -{self.first},{self.count} +{self.first},{self.count} @@\n".encode())
        for spool in (self.old, self.new):
            spool.seek(0)
            while chunk := spool.read(1 << 16):
                self.write(chunk)
            spool.seek(0)
            spool.truncate()
            if not self.newline:
                self.write(b"\\ No newline at end of file\n")
        self.count = 0


class _Compressing:
    """A sink that gzip-compresses what it is given into ``write``; the stream is ended when the
    block ends without an error (a failed run's file is removed anyway)."""

    def __init__(self, write: Callable[[bytes], Any]) -> None:
        self.write = write
        self._stream = zlib.compressobj(6, zlib.DEFLATED, 31)  # wbits 31: a gzip header and trailer

    def __call__(self, data: bytes | memoryview) -> None:
        if compressed := self._stream.compress(data):
            self.write(compressed)

    def __enter__(self) -> _Compressing:
        return self

    def __exit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        if kind is None:
            self.write(self._stream.flush())


def _migrate(args: argparse.Namespace) -> int:
    args.paths = _log_files(args)
    try:
        destinations = _destinations(args)
    except _Usage as err:
        print(f"targetlang logs migrate: error: {err}", file=sys.stderr)
        return 2
    except OSError as err:
        print(f"error: cannot make the directory {args.output}: {err.strerror or err}", file=sys.stderr)
        return 1
    run = _Migration(args, wanted=any(destination is not None for destination in destinations))
    status = _unreadable(args)
    pool = _pool(args)
    try:
        for path, destination in zip(args.paths, destinations, strict=True):
            try:
                run.one(path, destination, pool)
            except BrokenPipeError:
                raise
            except OSError as err:
                # the file that failed, when it is not the log itself (the output, its backup)
                also = f" ({err.filename})" if err.filename and err.filename != path else ""
                print(f"error: cannot migrate {path}: {err.strerror or err}{also}", file=sys.stderr)
                status = 1
    finally:
        if pool is not None:
            pool.close()
    total = run.total
    if len(args.paths) > 1:
        run.progress.say(json.dumps(total.to_json()) if args.json else total.human(run.verb))
    if status or total.failed or (args.check and total.changed):
        return 1
    return 0


class _Migration:
    """One run of ``logs migrate``: what every file shares (the job, the progress shown, the
    changes said so far, the total)."""

    def __init__(self, args: argparse.Namespace, wanted: bool) -> None:
        from ..logs._chunk_jobs import MigrateJob, fresh
        from ..logs.migration import MigrateSummary

        self.args = args
        registry = getattr(args, "registry", None)
        to = args.target_version or str(MODERN)
        self.job = MigrateJob(
            registry, args.tvm_version, args.to, args.policy, args.compress_tags, _mode(args), wanted, args.diff, to
        )
        fresh()
        self.lines = self.job.lines()  # a registry file that cannot be read fails here, before any log is read
        self.progress = Progress()
        stdout = getattr(sys.stdout, "buffer", None)
        self.write_stdout: Callable[[bytes | memoryview], Any] = (
            stdout.write
            if stdout is not None
            else lambda data: sys.stdout.write(bytes(data).decode("utf-8", "surrogateescape"))
        )
        self.total = MigrateSummary("total")
        self.shown: set[Any] = set()  # the changes given as JSON: a log repeats its targets, each change is said once
        self.verb = "would change" if args.check else "changed"

    def one(self, path: str, destination: str | None, pool: Pool | None) -> None:
        """Migrate the log ``path`` to ``destination`` (``-``: standard output; ``None``: nowhere)."""
        from ..logs._jobs import drive
        from ..logs.migration import MigrateSummary
        from ..logs.report import Digest

        args = self.args
        name = "<stdin>" if path == "-" else path
        if args.in_place and not stat.S_ISREG(os.stat(path).st_mode):
            # a pipe or a device has no place to put a new file: reading it to the end and
            # replacing it would hang (a FIFO) or replace the device
            raise OSError(errno.EINVAL, "not a regular file, which --in-place cannot replace", path)
        summary = MigrateSummary(name)
        digest = Digest()
        with contextlib.ExitStack() as stack:
            file = _MigratedFile(self, path, name, summary, digest, stack, destination)
            with self.progress.track(file.source.size, name) as advance:
                drive(file.source, pool, file.local, file.remote, file.take, advance)
            file.close()
        for text in digest.drain():
            self.progress.say(text)
        self.total.add(summary)
        self.progress.say(json.dumps(summary.to_json()) if args.json else summary.human(self.verb))


class _MigratedFile:
    """Where the lines of one log migrated go: the new log (atomically written, or standard
    output), the diff, the changes said; and how its chunks are migrated here or by a worker."""

    def __init__(
        self,
        run: _Migration,
        path: str,
        name: str,
        summary: MigrateSummary,
        digest: Digest,
        stack: contextlib.ExitStack,
        destination: str | None,
    ) -> None:
        from .._atomic_file import AtomicFile, ChangedMeanwhileError
        from ..logs._jobs import Source

        args = run.args
        self.run, self.name, self.summary, self.digest = run, name, summary, digest
        self.diff = stack.enter_context(_Diff(name, run.write_stdout)) if args.diff else None
        self.sink: Callable[[bytes | memoryview], Any] | None = None
        self.atomic: AtomicFile | None = None
        if destination == "-":
            self.sink = run.write_stdout
        elif destination is not None:
            backup = destination + ".bak" if args.in_place and not args.no_backup else None
            # in place: the bytes read must be the bytes replaced (see AtomicFile)
            self.atomic = stack.enter_context(AtomicFile(destination, backup, check_bytes=args.in_place))
            self.sink = self.atomic.write
            if destination.endswith(".gz"):
                # a log named .gz stays one: compressed as it is written (no name or time
                # in the header, so the same log compresses to the same bytes)
                self.sink = stack.enter_context(_Compressing(self.atomic.write))
        self.source = stack.enter_context(Source.open(path, regular=args.in_place))
        if args.in_place and self.atomic is not None and self.source.identity != self.atomic.identity:
            # the name was given another file (a link swapped in) between the two opens
            raise ChangedMeanwhileError(errno.EAGAIN, "it changed while it was opened; left as it is", path)

    def emit(
        self,
        out: bytes | memoryview,
        changed: list[tuple[int, bytes, bytes, bool]] | None,
        said: list[tuple[Any, str]],
    ) -> None:
        shown = self.run.shown
        for seen, text in said:
            if seen is None or seen not in shown:
                if seen is not None:
                    shown.add(seen)
                self.run.progress.say(text)
        if self.sink is not None and out:
            self.sink(out)
        if self.diff is not None and changed:
            for line, old, new, newline in changed:
                self.diff.add(line, old, new, newline)

    def local(self, numbered: list[bytes], first: int, open_end: bool) -> None:
        out: list[bytes] | None = [] if self.sink is not None else None
        changed: list[tuple[int, bytes, bytes, bool]] | None = [] if self.diff is not None else None
        said: list[tuple[Any, str]] = []
        self.run.lines.migrate(numbered, first, open_end, self.summary, self.digest, out, changed, said)
        self.emit(b"".join(out or ()), changed, said)

    def remote(self, start: int, end: int | None, first: int) -> tuple[Callable[..., Any], tuple[Any, ...]]:
        from ..logs._chunk_jobs import migrate_chunk

        source = self.source
        return migrate_chunk, (
            self.run.job, self.name, source.path, source.identity, start, end, first, self.summary.loader
        )

    def take(self, part: MigratePart) -> None:
        if self.digest.merge(part.digest):
            self.summary.add(part.summary)
            self.emit(part.out, part.diff, part.said)
        else:  # its reports would have filled the digest midway: migrate the chunk again here
            _again(self.source, part.start, part.end, part.first, self.local)

    def close(self) -> None:
        """The migration done: the diff's end printed; a file migrated in place that nothing
        changed left as it was."""
        if self.diff is not None:
            self.diff.flush()
        if self.atomic is not None and self.run.args.in_place and not self.summary.changed:
            self.atomic.discard()  # nothing to change: the file, and any old backup, stay as they are
