"""``targetlang logs migrate``: each log migrated to its destination (standard output, a file, a
directory, in place with a backup), its diff, the changes said once per run, a pool of workers
for a big log."""

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
from .logs_common import logs_given, read_again, report_mode, unreadable_status, worker_pool

if TYPE_CHECKING:
    from ..logs._chunk_jobs import MigratePart
    from ..logs._jobs import Pool
    from ..logs.migration import MigrateSummary
    from ..logs.report import Digest

__all__ = ["migrate_logs"]


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


def migrate_logs(args: argparse.Namespace) -> int:
    args.paths = logs_given(args)
    try:
        destinations = _destinations(args)
    except _Usage as err:
        print(f"targetlang logs migrate: error: {err}", file=sys.stderr)
        return 2
    except OSError as err:
        print(f"error: cannot make the directory {args.output}: {err.strerror or err}", file=sys.stderr)
        return 1
    run = _Migration(args, wanted=any(destination is not None for destination in destinations))
    status = unreadable_status(args)
    pool = worker_pool(args)
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
            registry,
            args.tvm_version,
            args.to,
            args.policy,
            args.compress_tags,
            report_mode(args),
            wanted,
            args.diff,
            to,
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
                # with nothing said of a line (no report, no diff), a chunk's first line is not counted
                numbered = self.job.mode != "quiet" or self.job.diff
                drive(file.source, pool, file.local, file.remote, file.take, advance, numbered=numbered)
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
        from ..logs._chunk_jobs import run_chunk

        source = self.source
        return run_chunk, (
            self.run.job,
            self.name,
            source.path,
            source.identity,
            start,
            end,
            first,
            self.summary.loader,
        )

    def take(self, part: MigratePart) -> None:
        if self.digest.merge(part.digest):
            self.summary.add(part.summary)
            self.emit(part.out, part.diff, part.said)
        else:  # its reports would have filled the digest midway: migrate the chunk again here
            read_again(self.source, part.start, part.end, part.first, self.local)

    def close(self) -> None:
        """The migration done: the diff's end printed; a file migrated in place that nothing
        changed left as it was."""
        if self.diff is not None:
            self.diff.flush()
        if self.atomic is not None and self.run.args.in_place and not self.summary.changed:
            self.atomic.discard()  # nothing to change: the file, and any old backup, stay as they are
