"""The ``targetlang logs`` commands: ``check``, ``stats`` and ``match`` over tuning logs.

Data goes to stdout, problems and progress to stderr. A file that cannot be read is reported and
the others are still read; it makes the exit status 1.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..registry import Registry
    from .records import Record
    from .targets import TargetReader

# The commands import their modules when they run: building the parser for another command
# (every run of targetlang builds it) must not pay for reading logs.

__all__ = ["add_parser"]

_LOGS_EPILOG = """\
Tuning logs of AutoTVM (JSON v0.2 and v0.1, pickle rows), auto_scheduler and meta-schedule
(JSON databases) are read line by line; one file may mix formats. A FILE of '-' is standard
input. Records that do not say which TVM wrote them are read with TVM v0.22's rules unless
--tvm-version says otherwise. See docs/logs.md.

Run 'targetlang logs COMMAND --help' for each command's examples.
"""

_CHECK_EPILOG = """\
Every record's target (and auto_scheduler's host) must read in the era of the TVM that wrote it,
print back byte for byte, and resolve. Problems go to stderr as FILE:LINE: FIELD: RULE: ERROR:
message (the caret excerpt the first time a spec shows a problem), a summary per file to stdout.
Exit status 1 if any record failed or a file could not be read.

examples:
  $ cat tune.log
  # tuned on the board
  {"input": ["llvm -mcpu=cortex-a72 -link-params=0", "dense.x86", [], {}], "result": [[0.1], 0, 1, 1], \
"version": 0.2, "tvm_version": "0.8.0"}
  {"input": ["llvm -mcpux=cortex-a72", "dense.x86", [], {}], "result": [[0.1], 0, 1, 1], "version": 0.2, \
"tvm_version": "0.10.0"}
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
each distinct record target, how it matches or which field makes it miss. Exit status 1 when no
workload is found for the target.

examples:
  $ cat tune.log
  {"input": ["llvm -device=arm_cpu -model=rk3399", "dense", [], {}], "result": [[0.1], 0, 1, 1], \
"version": 0.2, "tvm_version": "0.9.0"}
  $ targetlang logs match tune.log --target "cuda -model=rk3399"
  target: cuda -model=rk3399
    model 'rk3399', keys cuda, gpu
  1 AutoTVM record in 1 file, 1 workload: 1 found (1 by model 'rk3399'), 0 not found
  records  picked  target                              matches
        1       1  llvm -device=arm_cpu -model=rk3399  by model 'rk3399'
"""


def add_parser(commands: Any) -> None:
    """Add ``logs`` and its commands to the ``targetlang`` command's subparsers ``commands``."""
    raw = argparse.RawDescriptionHelpFormatter
    summary = "check, count and match the targets of tuning logs"
    logs = commands.add_parser("logs", help=summary, description=summary, epilog=_LOGS_EPILOG, formatter_class=raw)
    subs = logs.add_subparsers(title="commands", metavar="COMMAND", required=True)

    def common(name: str, summary: str, epilog: str, run: Callable[[argparse.Namespace], int]) -> Any:
        sub = subs.add_parser(name, help=summary, description=summary, epilog=epilog, formatter_class=raw)
        sub.add_argument("files", metavar="FILE", nargs="+", help="a tuning log; '-' is standard input")
        sub.add_argument("--json", action="store_true", help="JSON lines on stdout instead of text")
        sub.add_argument(
            "--tvm-version",
            metavar="VERSION",
            type=_tvm_version,
            help="the TVM version that wrote records which do not record it (default: read them as v0.22)",
        )
        sub.set_defaults(run=run)
        return sub

    common("check", "check that every record's target reads, prints back and resolves", _CHECK_EPILOG, _check)
    common("stats", "count the distinct targets of tuning logs", _STATS_EPILOG, _stats)
    match = common("match", "which AutoTVM records the dispatcher picks for a target", _MATCH_EPILOG, _match)
    match.add_argument("--target", metavar="SPEC", required=True, help="the target to compile for")
    match.add_argument("-v", "--verbose", action="store_true", help="also one line per record: what became of it")


def _tvm_version(text: str) -> str:
    from .formats import version_tuple

    if version_tuple(text) is None:
        raise argparse.ArgumentTypeError(f"not a TVM version: {text!r} (e.g. 0.8 or 0.7.dev0)")
    return text


def _registry(args: argparse.Namespace) -> Registry | None:
    """The ``--registry`` file's registry (given before ``logs``), or ``None`` for TVM v0.22's."""
    from ..registry_files import load_registry

    return load_registry(args.registry) if getattr(args, "registry", None) else None


def _reader(args: argparse.Namespace, registry: Registry | None) -> TargetReader:
    from .targets import TargetReader

    return TargetReader(registry, args.tvm_version)


# ---------------------------------------------------------------------------------- reading


class _Progress:
    """A progress bar on stderr, only when stderr is a terminal and tqdm is installed."""

    def __init__(self) -> None:
        self.bar: Any = None

    def lines(self, handle: Iterable[bytes], total: int | None, name: str) -> Iterator[bytes]:
        tqdm = _tqdm()
        if tqdm is None:
            yield from handle
            return
        self.bar = tqdm(total=total, desc=name, unit="B", unit_scale=True, leave=False, file=sys.stderr)
        try:
            for raw in handle:
                self.bar.update(len(raw))
                yield raw
        finally:
            self.bar.close()
            self.bar = None

    def say(self, text: str) -> None:
        """Print ``text`` on stderr without tearing the bar (tqdm moves the bar below it)."""
        if self.bar is not None:
            self.bar.write(text, file=sys.stderr)
        else:
            print(text, file=sys.stderr)


def _tqdm() -> Any:
    stderr = sys.stderr
    if stderr is None or not stderr.isatty():
        return None
    try:
        return importlib.import_module("tqdm").tqdm  # an optional dependency: pip install 'targetlang[progress]'
    except ImportError:
        return None


def _records(path: str, progress: _Progress) -> Iterator[Record]:
    from .records import read_lines

    if path == "-":
        stdin = sys.stdin
        if stdin is None:
            raise OSError("there is no standard input to read")
        # Bytes when there are: text mode's universal newlines would change the lines.
        source: Iterable[Any] = getattr(stdin, "buffer", None) or stdin
        yield from read_lines(progress.lines(source, None, "<stdin>"), "<stdin>")
        return
    with open(path, "rb") as handle:
        size = os.fstat(handle.fileno()).st_size
        yield from read_lines(progress.lines(handle, size, path), path)


def _each_file(args: argparse.Namespace, progress: _Progress, take: Callable[[str, Iterator[Record]], None]) -> int:
    """Feed each file's records to ``take``; 1 if a file could not be read, else 0."""
    status = 0
    for path in args.files:
        try:
            take("<stdin>" if path == "-" else path, _records(path, progress))
        except BrokenPipeError:
            raise
        except OSError as err:
            print(f"error: cannot read {path}: {err.strerror or err}", file=sys.stderr)
            status = 1
    return status


# ---------------------------------------------------------------------------------- commands


def _check(args: argparse.Namespace) -> int:
    from .check import Checker, CheckSummary

    checker = Checker(_reader(args, _registry(args)))
    progress = _Progress()
    total = CheckSummary("total")
    shown: set[tuple[str | None, str, str, str]] = set()  # (spec, rule, error, message) shown with a caret

    def take(name: str, records: Iterator[Record]) -> None:
        summary = CheckSummary(name)
        for record in records:
            for problem in checker.check(record, summary):
                if args.json:
                    print(json.dumps(problem.to_json()))
                    continue
                # A log repeats its targets: show the caret excerpt once per spec and problem.
                seen = (problem.spec, problem.rule, problem.error, problem.message)
                progress.say(problem.human(excerpt=seen not in shown))
                shown.add(seen)
        total.add(summary)
        print(json.dumps(summary.to_json()) if args.json else summary.human())

    status = _each_file(args, progress, take)
    if len(args.files) > 1:
        print(json.dumps(total.to_json()) if args.json else total.human())
    return 1 if status or total.failed else 0


def _stats(args: argparse.Namespace) -> int:
    from .stats import Stats

    stats = Stats(_reader(args, _registry(args)))
    progress = _Progress()

    def take(name: str, records: Iterator[Record]) -> None:
        stats.files += 1
        for record in records:
            stats.add(record)

    status = _each_file(args, progress, take)
    if args.json:
        for entry in stats.rows():
            print(json.dumps(entry.to_json()))
        print(json.dumps(stats.to_json()))
    else:
        print(stats.table())
    return status


def _match(args: argparse.Namespace) -> int:
    from ..parsing import parse
    from .match import Matcher, Query

    registry = _registry(args)
    query = Query.of(parse(args.target, registry=registry))
    matcher = Matcher(query, _reader(args, registry))
    progress = _Progress()

    def take(name: str, records: Iterator[Record]) -> None:
        matcher.files += 1
        for record in records:
            matcher.add(record)

    status = _each_file(args, progress, take)
    matcher.finish()
    if args.json:
        for entry in matcher.records:
            print(json.dumps(entry.to_json(matcher.workloads)))
        print(json.dumps(matcher.summary()))
    else:
        if args.verbose:
            for entry in matcher.records:
                print(entry.human())
        print(matcher.report())
    return status or (0 if matcher.picks else 1)
