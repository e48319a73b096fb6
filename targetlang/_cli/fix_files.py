"""What ``targetlang fix`` does with each file: the job a file is fixed with, the file read (within
its size limit, never a FIFO or a device), fixed by the library (in a process pool for many
files), its outcome, its diff, and its new text written atomically; the files found under the
paths given."""

from __future__ import annotations

import errno
import functools
import gc
import os
import stat
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from .._registry import Registry, builtin_registry
from .._signals import signals_held
from .._versions import Release
from ..errors import TargetError
from ..fix import NOTEBOOK_SUFFIXES, PYTHON_SUFFIXES, TARGET_VERSIONS, TEXT_SUFFIXES, Finding, FixResult, fix_source
from ..fix._apis import TargetApi
from ..fix._diff import lines as split_lines
from ..fix._diff import unified_diff
from ..fix._settings import DEFAULT_EXCLUDE, ignored_for

__all__ = [
    "MAX_FILE_BYTES",
    "Job",
    "Outcome",
    "collected_seldom",
    "fix_file",
    "fix_registry",
    "fix_text",
    "outcome_diff",
    "read_file",
    "run_all",
    "shown_progress",
    "skipped_by_default",
    "special_file",
    "walk_paths",
    "write_outcome",
]


# Directories nobody wants rewritten (version control, environments, caches, build output): the
# default of the settings' exclude, what a walk skips without a configuration.
_SKIPPED_DIRS = frozenset(DEFAULT_EXCLUDE)


_PARALLEL_FROM = 16  # files; below this a process pool costs more than it saves


@dataclass(frozen=True)
class Job:
    registry_file: str | None
    tvm_version: Release | None
    unsafe: bool
    select: tuple[str, ...] | None
    ignore: tuple[str, ...]
    prefer_tags: bool
    docs: bool
    target_apis: tuple[TargetApi, ...] = ()
    target_version: str = TARGET_VERSIONS[-1]
    line_length: int | None = None
    # the configuration's per-file-ignores, its globs relative to root
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    root: str = "."
    add_ignore: bool = False
    check: bool = False  # no text is shown or written: the findings only (fix_source's check)


@dataclass
class Outcome:
    path: str
    source: str = ""
    text: str = ""
    findings: list[Finding] = field(default_factory=list)
    error: str | None = None
    digest: bytes | None = None  # of the bytes read: the file is written only if they are still there
    cell_errors: list[str] = field(default_factory=list)  # a notebook's cells left alone, the rest fixed
    changed: bool = False  # the fixes change the text (which, checking, is not made)


_REGISTRIES: dict[tuple[str | None, Release | None], Registry | None] = {}


def fix_registry(path: str | None, tvm_version: Release | None = None) -> Registry | None:
    """``--tvm-version``'s own registry, with what the ``--registry`` file adds to its base laid on
    it; else the file's registry; else ``None`` (every kind any release had)."""
    key = (path, tvm_version)
    if key not in _REGISTRIES:
        from .._layering import layered
        from .._registry_files import load_registry

        own = builtin_registry(tvm_version) if tvm_version else None
        if path is not None:
            loaded = load_registry(path)
            _REGISTRIES[key] = layered(loaded, own) if own is not None else loaded
        else:
            _REGISTRIES[key] = own
    return _REGISTRIES[key]


# The most fix reads of one file: Python's own bound (MAX_PYTHON_CHARS) is lower; a document or a
# script past this is no source a person keeps (and /dev/zero under a .py name is no file at all).
MAX_FILE_BYTES = 32 << 20


def special_file(mode: int) -> str | None:
    """What a file of ``mode`` is, if it is no regular file (or directory)."""
    for test, what in (
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return what
    return None if stat.S_ISREG(mode) or stat.S_ISDIR(mode) else "no regular file"


def read_file(path: str) -> bytes:
    """The bytes of the regular file at ``path``; ``OSError`` for anything else, or past
    :data:`MAX_FILE_BYTES`, before a byte is read."""
    from .._atomic_file import NO_WAIT

    fd = os.open(path, NO_WAIT)
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(fd)
        what = special_file(info.st_mode)
        if what is not None:
            raise OSError(errno.EINVAL, f"{what}, not a file fix reads")
        if info.st_size > MAX_FILE_BYTES:
            raise OSError(errno.EFBIG, f"{info.st_size} bytes, more than fix reads ({MAX_FILE_BYTES})")
        data = handle.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:  # it grew while it was read
        raise OSError(errno.EFBIG, f"more than {MAX_FILE_BYTES} bytes, more than fix reads")
    return data


def fix_file(path: str, job: Job) -> Outcome:
    """One file, in whichever process: read, fix, return (the writing is the parent's)."""
    from .._atomic_file import digest

    pool = sys.modules.get("multiprocessing")  # (loaded in a worker: not imported for this question)
    if pool is not None and pool.parent_process() is not None:
        _collect_seldom()  # a worker of the pool, for its life (the command's: collected_seldom)
    outcome = Outcome(path)
    try:
        data = read_file(path)
    except OSError as err:
        outcome.error = f"cannot read {path}: {err.strerror or err}"
        return outcome
    outcome.digest = digest(data)
    try:
        outcome.source = data.decode("utf-8")
    except UnicodeDecodeError as err:
        outcome.error = f"{path} is not UTF-8 text ({err.reason} at byte {err.start}); left alone"
        return outcome
    return fix_text(outcome, job)


@functools.cache
def _collect_seldom() -> None:
    """Python's cycle collector, run as it is by default, takes a third of a run: LibCST's trees
    and Python's own are millions of objects, made and dropped file by file, and every
    thousandth allocation starts a scan. What the imports made is moved out of its reach, and
    it runs a hundred times less often (mypy does alike); the garbage of one file is a few
    megabytes."""
    gc.freeze()
    gc.set_threshold(*_SELDOM)


# The cycle collector's thresholds while fix runs: a hundred times the default first one.
_SELDOM = (100_000, 20, 20)


def collected_seldom(outcomes: Iterable[Outcome]) -> Iterator[Outcome]:
    """``outcomes``, made with the collector as :func:`_collect_seldom` sets it, and set back as
    it was after (the process may be a caller's: a test, a tool that runs the command)."""
    threshold = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(*_SELDOM)
    try:
        yield from outcomes
    finally:
        gc.set_threshold(*threshold)
        gc.unfreeze()


def fix_text(outcome: Outcome, job: Job) -> Outcome:
    # A byte order mark is no part of the text: fixed without it (columns count from the first
    # character) and written back as it was.
    bom = "\ufeff" if outcome.source.startswith("\ufeff") else ""
    ignore = job.ignore
    if job.per_file_ignores:
        ignore += ignored_for(outcome.path, Path(job.root), job.per_file_ignores)

    def fixed(text: str) -> FixResult:
        return fix_source(
            text,
            path=outcome.path,
            registry=fix_registry(job.registry_file, job.tvm_version),
            unsafe=job.unsafe,
            select=job.select,
            ignore=ignore,
            prefer_tags=job.prefer_tags,
            docs=job.docs,
            target_apis=job.target_apis,
            target_version=job.target_version,
            line_length=job.line_length,
            check=job.check,
        )

    try:
        result = fixed(outcome.source[len(bom) :])
        if job.add_ignore:
            from ..fix._suppress import ignore_remaining

            text, findings = ignore_remaining(result, os.path.splitext(outcome.path)[1].lower(), fixed)
            result = replace(result, text=text, findings=tuple(findings))
    except TargetError as err:
        outcome.error = str(err).split("\n", 1)[0]
        if err.source:
            line = err.source.count("\n", 0, err.start) + 1
            outcome.error = f"{outcome.path}:{line}: {outcome.error.removeprefix(outcome.path + ': ')}"
        return outcome
    except Exception as err:  # a bug met in one file: said plainly, and the other files are still fixed
        detail = str(err).split("\n", 1)[0]
        outcome.error = f"{outcome.path}: internal error (a bug in targetlang): {type(err).__name__}: {detail}"
        return outcome
    outcome.text = bom + result.text
    outcome.changed = result.changed
    outcome.findings = list(result.findings)
    outcome.cell_errors = list(result.errors)
    return outcome


def walk_paths(paths: Sequence[str], notes: list[str], excluded: Callable[[str], bool] | None = None) -> Iterator[str]:
    """The files to look at: each file given, and below each directory given the regular files
    with a suffix fix reads, in sorted order; symbolic links met on the way are not followed,
    and a FIFO, a device or a socket is skipped with a note in ``notes``. Below a directory,
    what ``excluded`` says of its path is left out (by default the folders of _SKIPPED_DIRS)."""
    if excluded is None:
        excluded = skipped_by_default
    suffixes = PYTHON_SUFFIXES | TEXT_SUFFIXES | NOTEBOOK_SUFFIXES
    for given in paths:
        if not os.path.isdir(given):
            yield given
            continue
        here = os.path.normpath(given) == "."  # files below '.' are shown as 'src/a.py', not './src/a.py'
        for root, dirs, files in os.walk(given):
            dirs[:] = sorted(
                d for d in dirs if not excluded(os.path.join(root, d)) and not os.path.islink(os.path.join(root, d))
            )
            for name in sorted(files):
                full = os.path.relpath(os.path.join(root, name)) if here else os.path.join(root, name)
                if os.path.splitext(name)[1].lower() not in suffixes or excluded(full):
                    continue
                try:
                    mode = os.lstat(full).st_mode
                except OSError:
                    continue  # gone since the directory was listed
                what = None if stat.S_ISLNK(mode) else special_file(mode)
                if what is not None:
                    notes.append(f"note: skipped {full}: {what}, not a file fix reads")
                elif stat.S_ISREG(mode):
                    yield full


def skipped_by_default(path: str) -> bool:
    return os.path.basename(path) in _SKIPPED_DIRS


def run_all(files: list[str], job: Job | Mapping[str, Job], jobs: int) -> Iterator[Outcome]:
    """Every file's outcome, in the order of ``files``, whatever the number of processes;
    ``job`` is every file's, or each file's own (the settings of the path it was found under)."""
    each = job if isinstance(job, Mapping) else dict.fromkeys(files, job)
    if jobs <= 1 or len(files) < _PARALLEL_FROM:
        for path in files:
            yield fix_file(path, each[path])
        return
    # imported here, as the command's own modules are, with the stops held (a stop inside an
    # import can break it): every command builds fix's options, and the pool's modules cost 11 ms
    with signals_held():
        from .._pool import Pool

    # The logs commands' pool: a stop is the command's (its workers ignore Ctrl-C, and the command
    # waits for the files they are at), and the workers die with the command, even a killed one.
    with Pool(jobs) as pool:
        yield from pool.map((fix_file, (path, each[path])) for path in files)


def shown_progress(outcomes: Iterable[Outcome], total: int, quiet: bool) -> Iterator[Outcome]:
    """Progress on standard error for long runs at a terminal (tqdm's bar when installed, as
    for the ``logs`` commands; else a count)."""
    if quiet or total < 50 or sys.stderr is None or not sys.stderr.isatty():
        yield from outcomes
        return
    from .._progress import tqdm_or_none

    tqdm = tqdm_or_none()
    if tqdm is not None:
        yield from tqdm(outcomes, total=total, unit="file", desc="fix", file=sys.stderr, leave=False)
        return
    for done, outcome in enumerate(outcomes, 1):
        if done % 25 == 0 or done == total:
            print(f"\rfix: {done}/{total} files", end="" if done < total else "\n", file=sys.stderr)
        yield outcome


def outcome_diff(outcome: Outcome) -> str:
    lines = unified_diff(
        split_lines(outcome.source),
        split_lines(outcome.text),
        f"a/{outcome.path}",
        f"b/{outcome.path}",
    )
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)


def write_outcome(outcome: Outcome) -> str | None:
    """Replace the file atomically, if it still holds the bytes that were fixed; an error message
    if it cannot be, or changed meanwhile (see :class:`~targetlang._atomic_file.AtomicFile`)."""
    from .._atomic_file import AtomicFile, ChangedMeanwhileError

    try:
        with AtomicFile(outcome.path, expected=outcome.digest) as out:
            out.write(outcome.text.encode("utf-8"))
    except ChangedMeanwhileError:
        return f"{outcome.path} changed while it was being fixed; not written (run again)"
    except OSError as err:
        return f"cannot write {outcome.path}: {err.strerror or err}"
    return None
