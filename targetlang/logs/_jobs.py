"""Reading tuning logs block by block, and sharing a big one among processes (``logs -j N``).

A command reads each file in blocks of whole lines. A regular file big enough to be worth it
(:data:`POOL_FROM` bytes) is cut, at line breaks, into chunks of about :data:`CHUNK` bytes with
their first line numbers, and worker processes check, count or migrate the chunks, each with
the state the file is in by then (the loader ``logs check`` follows, known from the file's first
lines, which the command reads itself). The command takes their parts back in the order of the
file and counts them in as it would have counted the lines itself: the output is the same
whatever the number of processes. The workers only read and compute; whatever is written (a
migrated log, standard output) is written by the command.

A worker checks that the file it opens is the one the command opened (device and inode), and
reads up to where its chunk ends, the last one to the end of the file, as the command itself
would.
"""

from __future__ import annotations

import errno
import gzip
import io
import mmap
import multiprocessing
import os
import stat
import sys
import zlib
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from .._atomic_file import NO_WAIT
from .._pool import Pool as _Pool

__all__ = [
    "BLOCK",
    "CHUNK",
    "POOL_FROM",
    "SHARED_SIZE",
    "SUMMARY_CHUNKS",
    "UNBOUNDED",
    "Pool",
    "Source",
    "blocks",
    "drive",
    "each_block",
    "is_compressed",
    "log_files",
    "share",
]

BLOCK = 1 << 20  # bytes read at a time
CHUNK = 1 << 22  # bytes a worker takes at a time (and returns a part of)
# How many times CHUNK a chunk may be whose part is a summary (check, stats, match): taking in a
# part costs the command about 2 ms (its unpickling and merging) on the cores the workers use,
# and a worker as much again; a bigger chunk halves that. A migrated chunk's lines, which go
# through shared memory of 3 CHUNKs, stay at CHUNK.
SUMMARY_CHUNKS = 2
POOL_FROM = 1 << 23  # bytes of a file, or of what is left of it, that are worth a pool
SHARED_SIZE = 3 * CHUNK  # bytes of a chunk's migrated lines that go back through shared memory
_TAIL = 1 << 16  # bytes at the end of a chunk looked in first for its last line break (ranges)

UNBOUNDED = sys.maxsize  # a worker's digest keeps every report: the command's own digest bounds them


def blocks(read: Callable[[int], bytes], limit: int | None = None) -> Iterator[tuple[list[bytes], int, bool]]:
    """What ``read`` gives, up to ``limit`` bytes (a line start) or the end, as blocks of lines:
    ``(lines, bytes, open end)``, the lines without their ``"\\n"`` (a ``"\\r"`` before it
    stays), the bytes they took, and whether the last one has no line break (at the end only)."""
    pending: list[bytes] = []  # the start of a line that goes on in what comes next
    while True:
        want = BLOCK if limit is None else min(BLOCK, limit)
        data = read(want) if want > 0 else b""
        if limit is not None:
            limit -= len(data)
        if not data:
            if pending:
                last = b"".join(pending)
                yield [last], len(last), True
            return
        lines = data.split(b"\n")
        size = len(data)
        if pending:
            if len(lines) == 1:  # no line ends in it yet
                pending.append(data)
                continue
            size += sum(map(len, pending))
            pending.append(lines[0])
            lines[0] = b"".join(pending)
            pending = []
        rest = lines.pop()
        if rest:
            pending.append(rest)
            size -= len(rest)
        if lines:
            yield lines, size, False


# The first bytes of a gzip stream (RFC 1952), the form tuning logs are most often shared in.
GZIP_MAGIC = b"\x1f\x8b"


def is_compressed(handle: BinaryIO) -> bool:
    """Whether the regular file ``handle`` (at its start, where it is left) is gzip-compressed."""
    start = handle.read(2)
    handle.seek(0)
    return start == GZIP_MAGIC


def _decompressed(handle: BinaryIO, path: str) -> Callable[[int], bytes]:
    """The ``read`` of the gzip stream in ``handle``: a block at a time, never the whole file, so
    a compressed log is read in the memory a plain one is. A stream that is cut off or corrupt
    is an ``OSError`` naming ``path`` (the lines before the fault have been read by then)."""
    stream = gzip.GzipFile(fileobj=handle, mode="rb")

    def read(size: int) -> bytes:
        try:
            return stream.read(size)
        except (EOFError, zlib.error, gzip.BadGzipFile) as err:
            raise OSError(errno.EINVAL, f"not a whole gzip stream ({err})", path) from None

    return read


def log_files(paths: Iterable[str], report: Callable[[str, OSError], None]) -> list[str]:
    """``paths`` with each directory replaced by the logs in it: its regular files (or links to
    one) in name order, leaving out those whose name starts with ``.`` or ends with ``.bak`` (the
    temporary files and backups of ``logs migrate --in-place``) and subdirectories. A directory
    that cannot be listed is given to ``report`` and left out."""
    files: list[str] = []
    for path in paths:
        if path == "-" or not os.path.isdir(path):
            files.append(path)
            continue
        try:
            names = sorted(os.listdir(path))
        except OSError as err:
            report(path, err)
            continue
        for name in names:
            inner = os.path.join(path, name)
            if not name.startswith(".") and not name.endswith(".bak") and os.path.isfile(inner):
                files.append(inner)
    return files


@dataclass
class Source:
    """One input of a command: an open file (or standard input) and what is known of it."""

    name: str  # as the reports show it
    path: str | None  # None: standard input
    handle: io.BufferedReader | None = None
    read: Callable[[int], bytes] = field(default=lambda size: b"")
    size: int | None = None  # of a regular uncompressed file, when it was opened
    identity: tuple[int, int] | None = None  # (device, inode) of a regular file
    compressed: bool = False  # a gzip-compressed file, read decompressed (and never by a pool)

    @classmethod
    def open(cls, path: str, regular: bool = False) -> Source:
        """``path`` opened for reading (``"-"``: standard input); raises ``OSError``. With
        ``regular``, a file that is no regular file is refused, and opened without waiting (a FIFO
        put at the name would wait for a writer for ever)."""
        if path == "-":
            stdin = sys.stdin
            if stdin is None:
                raise OSError("there is no standard input to read")
            # Bytes when there are: text mode's universal newlines would change the lines.
            buffer = getattr(stdin, "buffer", None)
            if buffer is not None:
                if not hasattr(buffer, "peek"):  # (a stream in memory): one whose start can be looked at
                    buffer = io.BufferedReader(buffer)
                if buffer.peek(2)[:2] == GZIP_MAGIC:  # (zcat log.gz | ... was not needed)
                    return cls("<stdin>", None, None, _decompressed(buffer, "<stdin>"), compressed=True)
                # what a pipe has now, not a whole block: a log piped in is read as it comes
                return cls("<stdin>", None, None, getattr(buffer, "read1", buffer.read))
            return cls("<stdin>", None, None, lambda size: stdin.read(size).encode("utf-8", "surrogateescape"))
        handle = os.fdopen(os.open(path, NO_WAIT), "rb") if regular else open(path, "rb")
        try:
            info = os.fstat(handle.fileno())
            if regular and not stat.S_ISREG(info.st_mode):
                raise OSError(errno.EINVAL, "not a regular file", path)
            compressed = stat.S_ISREG(info.st_mode) and is_compressed(handle)
        except BaseException:
            handle.close()
            raise
        if not stat.S_ISREG(info.st_mode):  # a FIFO, a device: read as it comes
            return cls(path, path, handle, handle.read1, info.st_size)
        identity = (info.st_dev, info.st_ino)
        if compressed:
            # no size: its lines' offsets are not the file's, so no pool cuts it into chunks
            return cls(path, path, handle, _decompressed(handle, path), None, identity, compressed=True)
        return cls(path, path, handle, handle.read, info.st_size, identity)

    def close(self) -> None:
        if self.handle is not None:
            self.handle.close()

    def __enter__(self) -> Source:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def ranges(
        self, start: int, first: int, numbered: bool = True, chunk: int | None = None
    ) -> Iterator[tuple[int, int | None, int]]:
        """``(start, end, first line)`` of the chunks of about ``chunk`` bytes (default
        :data:`CHUNK`) of the file from byte ``start`` (a line start, of line ``first``): each
        ends after a line break, the last at the end of the file (``None``). Not ``numbered``,
        each chunk's first line is ``first`` (the caller needs no line numbers): only the end of
        each chunk is read, where its last line break is looked for, not the whole chunk, whose
        line breaks would be counted."""
        assert self.handle is not None and self.size is not None
        size = CHUNK if chunk is None else chunk
        buffer = bytearray(size)
        view = memoryview(buffer)
        while self.size - start >= size + size // 2:
            skip = 0 if numbered else max(0, size - _TAIL)
            self.handle.seek(start + skip)
            got = skip + self.handle.readinto(view[skip:])
            cut = buffer.rfind(b"\n", skip, got)
            if cut < 0 and skip:  # none there: the whole chunk
                self.handle.seek(start)
                got = self.handle.readinto(buffer)
                cut = buffer.rfind(b"\n", 0, got)
            if cut < 0:  # one line longer than a chunk: the rest goes as one chunk
                break
            end = start + cut + 1
            yield start, end, first
            if numbered:
                first += buffer.count(b"\n", 0, cut + 1)
            start = end
        yield start, None, first

    def blocks_of(self, start: int, end: int | None) -> Iterator[tuple[list[bytes], int, bool]]:
        """The :func:`blocks` of the bytes ``start:end`` of the file (``end`` ``None``: to its end)."""
        assert self.handle is not None
        self.handle.seek(start)
        return blocks(self.handle.read, None if end is None else end - start)


# ---------------------------------------------------------------------------------- the pool

# Where a worker puts the bytes a part carries (a chunk's migrated lines), when the workers are
# forked: memory shared with the command, made before the first worker is, and so inherited by
# every worker; the command writes from there, with no copy through a pipe. Each task of the
# pool has one (the task's index modulo their number): the command takes a part before the
# task that next uses its memory is given out.
_SHARED: list[mmap.mmap] = []


class Pool(_Pool):
    """The command's worker processes (:class:`targetlang._pool.Pool`: started when first needed,
    the results in order), which put a migrated chunk's bytes in memory shared with the command
    when they are forked."""

    def __init__(self, jobs: int) -> None:
        super().__init__(jobs)
        self._shared = False  # whether its workers put bytes in _SHARED (one pool at a time may)
        self._calls = 0  # calls given out so far: call n uses _SHARED[n % len(_SHARED)]

    def _start(self) -> ProcessPoolExecutor:
        if multiprocessing.get_context().get_start_method() == "fork" and not _SHARED:
            _SHARED.extend(mmap.mmap(-1, SHARED_SIZE) for _ in range(2 * self.jobs + 1))
            self._shared = True
        return super()._start()

    def _task(self, function: Callable[..., Any], arguments: tuple[Any, ...]) -> tuple[Callable[..., Any], Any]:
        """The call made in a worker: ``function(*arguments, shared=n)``, ``n`` the piece of shared
        memory of this call (at most ``2 * jobs`` of the ``2 * jobs + 1`` pieces are written at
        once: see :meth:`targetlang._pool.Pool.map`)."""
        shared = self._calls % len(_SHARED) if self._shared else None
        self._calls += 1
        return _call, (function, arguments, shared)

    def _result(self, result: Any) -> Any:
        """A part whose bytes a worker put in shared memory (its ``shared`` is not ``None``) has
        them as its ``out`` (a view, good until the next part is taken)."""
        return _received(result)

    def close(self) -> None:
        """Stop the workers (those at work finish their chunk first: they only compute)."""
        super().close()
        if self._shared:
            _SHARED.clear()  # (unmapped when the last view of each is gone)
            self._shared = False


def _call(function: Callable[..., Any], arguments: tuple[Any, ...], shared: int | None) -> Any:
    return function(*arguments, shared=shared)


def _received(part: Any) -> Any:
    """``part`` with the bytes a worker put in shared memory as its ``out``."""
    shared = getattr(part, "shared", None)
    if shared is not None:
        part.out = memoryview(_SHARED[shared])[: part.length]
    return part


def share(out: bytes, shared: int | None) -> tuple[bytes, int | None, int]:
    """In a worker: ``out`` put in shared memory ``shared`` when there is some and it fits:
    ``(what the part carries itself, where the rest is, its length)``."""
    if shared is None or not _SHARED or len(out) > SHARED_SIZE:
        return out, None, 0
    _SHARED[shared][: len(out)] = out
    return b"", shared, len(out)


def drive(
    source: Source,
    pool: Pool | None,
    local: Callable[[list[bytes], int, bool], None],
    remote: Callable[[int, int | None, int], tuple[Callable[..., Any], tuple[Any, ...]]] | None,
    take: Callable[[Any], None],
    advance: Callable[[int], None],
    ready: Callable[[], bool] = lambda: True,
    numbered: bool = True,
    summary: bool = False,
) -> None:
    """Read ``source`` through: its blocks go to ``local(lines, first line number, the last line
    has no line break)``; once ``ready()`` (the file's state no longer depends on the lines
    before) and what is left of a regular file is worth it, the rest goes to ``pool`` in chunks,
    ``remote(start, end, first line)`` giving the function and arguments that make a chunk's
    part, and ``take`` gets the parts in order. ``advance`` is told the bytes done. Not
    ``numbered`` (the parts say nothing of a line by its number), a chunk's first line number
    is not counted: every chunk is given the pool's first (see :meth:`Source.ranges`). A
    ``summary`` part (counts, not lines) may be of a bigger chunk (:data:`SUMMARY_CHUNKS`), as
    long as each worker still has four or more chunks to take."""
    first, offset = 1, 0
    for lines, size, open_end in blocks(source.read):
        local(lines, first, open_end)
        first += len(lines)
        offset += size
        advance(size)
        if (
            pool is not None
            and remote is not None
            and source.identity is not None
            and source.size is not None
            and source.size - offset >= POOL_FROM
            and ready()
        ):
            break
    else:
        return
    assert pool is not None and remote is not None
    chunk = CHUNK
    if summary:
        chunk *= max(1, min(SUMMARY_CHUNKS, (source.size - offset) // (4 * pool.jobs * CHUNK)))
    calls = (remote(start, end, line) for start, end, line in source.ranges(offset, first, numbered, chunk))
    for part in pool.map(calls):
        take(part)
        advance(part.size)


class _Range:
    """A worker's view of one chunk of a file: its blocks, after checking it is the file."""

    def __init__(self, path: str, identity: tuple[int, int], start: int, end: int | None) -> None:
        self.path, self.identity, self.start, self.end = path, identity, start, end

    def __enter__(self) -> Iterator[tuple[list[bytes], int, bool]]:
        # without waiting: a FIFO put at the name since is refused below, never waited on
        self.handle = os.fdopen(os.open(self.path, NO_WAIT), "rb")
        try:
            info = os.fstat(self.handle.fileno())
            if (info.st_dev, info.st_ino) != self.identity:
                raise OSError(errno.ESTALE, "the file was replaced while it was read", self.path)
            self.handle.seek(self.start)
        except BaseException:
            self.handle.close()
            raise
        return blocks(self.handle.read, None if self.end is None else self.end - self.start)

    def __exit__(self, *exc: object) -> None:
        self.handle.close()


def each_block(
    path: str,
    identity: tuple[int, int],
    start: int,
    end: int | None,
    first: int,
    each: Callable[[list[bytes], int, bool], object],
) -> int:
    """Give each block of the chunk ``start:end`` of the file (its first line ``first``) to
    ``each(lines, number of the first, whether the last is open)``; the bytes read."""
    size = 0
    with _Range(path, identity, start, end) as chunk:
        for lines, taken, open_end in chunk:
            each(lines, first, open_end)
            first += len(lines)
            size += taken
    return size
