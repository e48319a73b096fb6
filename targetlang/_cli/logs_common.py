"""What the ``targetlang logs`` commands share: the log files the paths name, the worker pool of
``--jobs``, each file opened in turn, how single records are reported, and a chunk read again in
this process."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..logs._jobs import Pool, Source

__all__ = ["each_source", "logs_given", "read_again", "report_mode", "unreadable_status", "worker_pool"]


def worker_pool(args: argparse.Namespace) -> Pool | None:
    """The worker processes ``--jobs`` asks for (by default one per core); ``None`` for one."""
    from ..logs._jobs import Pool

    jobs = args.jobs if args.jobs is not None else (os.cpu_count() or 1)
    return Pool(jobs) if jobs > 1 else None


def report_mode(args: argparse.Namespace) -> str:
    """How single records are reported: ``"json"``, ``"quiet"`` (not at all) or ``"text"``."""
    return "json" if args.json else "quiet" if getattr(args, "quiet", False) else "text"


def read_again(
    source: Source, start: int, end: int | None, first: int, local: Callable[[list[bytes], int, bool], None]
) -> None:
    """Read the chunk ``start:end`` of ``source`` again, in this process (its first line ``first``)."""
    for numbered, _, open_end in source.blocks_of(start, end):
        local(numbered, first, open_end)
        first += len(numbered)


def logs_given(args: argparse.Namespace) -> list[str]:
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


def unreadable_status(args: argparse.Namespace) -> int:
    """1 if a directory of ``args.files`` could not be listed, else 0."""
    return 1 if getattr(args, "unreadable", False) else 0


def each_source(args: argparse.Namespace, take: Callable[[Source, Pool | None], None]) -> int:
    """Give each file, opened, to ``take``, with the pool of ``--jobs``; 1 if a file could not be
    read, else 0."""
    from ..logs._jobs import Source

    status = 0
    pool = worker_pool(args)
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
