"""The ``targetlang logs`` commands: ``check``, ``stats``, ``match`` and ``migrate`` over tuning logs.

Data goes to stdout, problems and progress to stderr. A file that cannot be read is reported and
the others are still read; it makes the exit status 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .._progress import Progress
from .._versions import MODERN
from .logs_common import each_source, logs_given, read_again, report_mode, unreadable_status
from .logs_migrate import migrate_logs
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
    from ..logs._jobs import Pool, Source

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


# What a logs command imports when it runs, imported before with the stops held (command_line.main):
# a stop's handler raising inside orjson's initialisation crashes the process, and one raising while
# a class of ours is made becomes a RuntimeError. (``targetlang.logs`` itself imports nothing: its
# names come from their modules when first asked for.) tests/test_signals.py holds each command to it.
_RUN_IMPORTS = (
    "targetlang.logs._chunk_jobs",
    "targetlang.logs._jobs",
    "targetlang.logs.check",
    "targetlang.logs.migration",
    "targetlang.logs.report",
    "targetlang._atomic_file",
    "targetlang._derived",
)


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
        sub.set_defaults(run=run, imports=_RUN_IMPORTS)
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
        migrate_logs,
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


# ---------------------------------------------------------------------------------- commands


# Exit status of `logs check` when every problem is one `logs migrate` fixes.
EXIT_NEEDS_MIGRATION = 3


def _check(args: argparse.Namespace) -> int:
    from ..logs._chunk_jobs import CheckJob, CheckPart, fresh, run_chunk
    from ..logs._jobs import drive
    from ..logs.check import CheckSummary
    from ..logs.report import Digest

    job = CheckJob(getattr(args, "registry", None), args.tvm_version, report_mode(args))
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
            return run_chunk, (job, source.name, source.path, source.identity, start, end, first, loader)

        def take(part: CheckPart) -> None:
            if digest.merge(part.digest):
                summary.add(part.summary)
                emit(part.out)
            else:  # its reports would have filled the digest midway: read the chunk again here
                read_again(source, part.start, part.end, part.first, local)

        with progress.track(source.size, source.name) as advance:
            # --quiet says nothing of a line by its number: a chunk's first line is not counted
            numbered = job.mode != "quiet"
            drive(source, pool, local, remote, take, advance, lambda: summary.loading.settled, numbered, summary=True)
        out: list[str] = []
        lines.report(lines.checker.finish(summary), out, digest)
        emit(out)
        for text in digest.drain():
            progress.say(text)
        total.add(summary)
        print(json.dumps(summary.to_json()) if args.json else summary.human())

    args.paths = logs_given(args)
    status = each_source(args, one) or unreadable_status(args)
    if len(args.paths) > 1:
        print(json.dumps(total.to_json()) if args.json else total.human())
    if status or total.failed:
        return 1
    return EXIT_NEEDS_MIGRATION if total.needs_migration else 0


def _stats(args: argparse.Namespace) -> int:
    from ..logs._chunk_jobs import StatsJob, StatsPart, count_lines, fresh, run_chunk
    from ..logs._jobs import drive

    job = StatsJob(getattr(args, "registry", None), args.tvm_version)
    fresh()
    stats = job.stats()
    progress = Progress()

    def one(source: Source, pool: Pool | None) -> None:
        def local(numbered: list[bytes], first: int, open_end: bool) -> None:
            count_lines(stats, numbered, first, open_end, source.name)

        def remote(start: int, end: int | None, first: int) -> tuple[Callable[..., Any], tuple[Any, ...]]:
            return run_chunk, (job, source.name, source.path, source.identity, start, end, first, stats.loader)

        def take(part: StatsPart) -> None:
            stats.merge(part.stats)

        stats.files += 1  # (a file that cannot be opened is reported, and is none of them)
        stats.loader = None  # each file's own, from its first record
        with progress.track(source.size, source.name) as advance:
            drive(source, pool, local, remote, take, advance, numbered=False, summary=True)

    args.paths = logs_given(args)
    status = each_source(args, one) or unreadable_status(args)
    # a text at a time: the report of a log of many long targets is as long as they are
    if args.json:
        stats.write_json(sys.stdout.write)
    else:
        stats.write(sys.stdout.write)
    return status


def _match(args: argparse.Namespace) -> int:
    from ..logs._chunk_jobs import MatchJob, MatchPart, fresh, match_lines, run_chunk
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
            return run_chunk, (job, source.name, source.path, source.identity, start, end, first)

        def take(part: MatchPart) -> None:
            matcher.merge(part.matcher)

        matcher.files += 1  # (a file that cannot be opened is reported, and is none of them)
        with progress.track(source.size, source.name) as advance:
            drive(source, pool, local, remote, take, advance, summary=True)

    args.paths = logs_given(args)
    status = each_source(args, one) or unreadable_status(args)
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
