"""What TVM's own log loaders did with a tuning log, line after line, as TVM v0.19 ran them.

A log is read by the loader of its tuner, and that loader fails on lines the formats of
:mod:`.formats` say nothing about; one such line ends the whole load. What each loader does with
one line is its module's: AutoTVM's ``load_from_file`` and ``ApplyHistoryBest``
(:mod:`._autotvm_loader`), auto_scheduler's ``RecordReader`` (:mod:`._scheduler_reader`);
meta-schedule's ``JSONDatabase`` reads every line as JSON, so a blank line fails. This module
holds what is the file's: which loader reads it (told by its first records), and what that
loader does with a blank line or a line before any record.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ._scheduler_reader import AutoSchedulerLine, auto_scheduler_line
from .formats import ROWS, Format
from .records import Record

__all__ = ["FileLoading", "LineLoad", "blank_load", "is_blank", "loader_of"]


def is_blank(record: Record) -> bool:
    """Whether the line is empty or white space only (a ``Format.COMMENT`` line that is not ``#``)."""
    text = record.text
    return not text or text.isspace()


def loader_of(fmt: Format) -> str | None:
    """The TVM loader that reads records of ``fmt``: its row's tuner (``"autotvm"``,
    ``"auto_scheduler"``, ``"meta_schedule"``; each tuner's loader read its own records), or
    ``None`` (comments and unknown lines say nothing)."""
    row = ROWS.get(fmt)
    return row.family if row is not None else None


# ---------------------------------------------------------------------------------- per file


@dataclass(frozen=True, slots=True)
class LineLoad:
    """How the loader of a file took one of its lines: ``comment`` (skipped), ``fails`` (the
    loader raises on the line, and the whole load fails: ``error`` is ``BlankLine`` or
    ``LoadError``, ``message`` says why), or ``line`` (read as the line's format says: a record,
    or a line of no known format)."""

    what: str
    error: str = ""
    message: str = ""


_SKIPPED = LineLoad("comment")
_READ = LineLoad("line")
_BLANK = {
    "autotvm": LineLoad(
        "fails",
        "BlankLine",
        "a blank line: AutoTVM's load_from_file (TVM v0.7 - v0.19) raises on it (json.loads: JSONDecodeError), "
        "and the whole log fails to load",
    ),
    "auto_scheduler": LineLoad(
        "fails",
        "BlankLine",
        "a blank line: auto_scheduler's RecordReader (TVM v0.19) fails on it, and the whole log fails to load "
        "(a line starting with a space or '#' is a comment to it)",
    ),
    "meta_schedule": LineLoad(
        "fails",
        "BlankLine",
        "a blank line: meta-schedule's JSONDatabase fails on it (no JSON value), and the whole database fails to load",
    ),
}
_AUTO_SCHEDULER_BOM = LineLoad(
    "fails",
    "LoadError",
    "a byte order mark starts the line: auto_scheduler's RecordReader (TVM v0.19) fails on it, and the whole log "
    "fails to load",
)
_NO_TASK = LineLoad(
    "fails",
    "LoadError",
    "a record without 'i' before any record with one: auto_scheduler's RecordReader (TVM v0.19) keeps the input "
    "of the record before for it, here none, and load_records raises AttributeError (check_workload_key reads "
    "the task of every input); the whole log fails to load",
)


def blank_load(record: Record, loader: str | None) -> LineLoad | None:
    """What ``loader`` (AutoTVM's when ``None``) does with ``record`` if it is a blank line: it
    fails on it (``BlankLine``), or, auto_scheduler's on a line starting with a space, skips it
    (``None``, as for a line that is not blank)."""
    if not is_blank(record) or (loader == "auto_scheduler" and record.text.startswith(" ")):
        return None
    return _BLANK[loader or "autotvm"]


# At most this many lines wait for the file's loader (lines starting with a space, before the
# first record): beyond it they are taken as AutoTVM's, so memory stays flat.
_MAX_WAITING = 4096


class FileLoading:
    """Follows one file line by line: which TVM loader reads it (the one of its first record),
    and what that loader does with each line.

    A line starting with a space is a comment to auto_scheduler's reader, and a blank line or a
    line of no known format to AutoTVM's: such lines before the file's first record wait until
    that record says whose file it is (or the file ends: then AutoTVM's), unless the loader is
    given. :meth:`feed` gives back the lines it can decide, in order, and :meth:`finish` the
    last ones.
    """

    def __init__(self, loader: str | None = None, task: bool = False) -> None:
        self.loader = loader  # "autotvm", "auto_scheduler", "meta_schedule"; None until a record says
        self._waiting: list[Record] = []
        self._task = task  # auto_scheduler: whether a line read so far had an "i"

    @property
    def settled(self) -> bool:
        """Whether what the loader does with a line no longer depends on the lines before it:
        the loader is known and (auto_scheduler's) a line with an "i" has been read. From then
        on, any part of the file can be checked apart, with ``FileLoading(loader, task=True)``."""
        return self.loader is not None and (self._task or self.loader != "auto_scheduler")

    def decide(self, record: Record) -> tuple[Record, LineLoad]:
        """What the loader does with ``record`` (as :meth:`feed`, once ``self.loader`` is known:
        no line waits then, each is decided as it comes)."""
        if record.text.startswith("#"):
            return record, _SKIPPED
        return self._load(record)

    def feed(self, record: Record) -> Iterator[tuple[Record, LineLoad]]:
        """The lines decided now that ``record`` is read (``record`` itself among them, or not yet)."""
        text = record.text
        if text.startswith("#"):
            yield record, _SKIPPED
            return
        if self.loader is None:
            if record.format is Format.UNKNOWN and not text.startswith(" "):
                # auto_scheduler's reader reads lines json.loads does not (C's white space
                # before the record, no "v", text after it): one that holds a target is its.
                read = auto_scheduler_line(text)
                if not read.fails and any(field.name == "target" for field in read.fields):
                    record = _auto_scheduler_record(record, read)
            if text.startswith(" ") and (is_blank(record) or record.format is Format.UNKNOWN):
                self._waiting.append(record)
                if len(self._waiting) >= _MAX_WAITING:
                    yield from self.finish()
                return
            self.loader = loader_of(record.format)
            if self.loader is not None:
                yield from self._release()
        yield self._load(record)

    def finish(self) -> Iterator[tuple[Record, LineLoad]]:
        """The lines still waiting (at the end of the file), taken as AutoTVM's loader takes them."""
        if self.loader is None:
            self.loader = "autotvm"
        yield from self._release()

    def _release(self) -> Iterator[tuple[Record, LineLoad]]:
        waiting, self._waiting = self._waiting, []
        for record in waiting:
            yield self._load(record)

    def _load(self, record: Record) -> tuple[Record, LineLoad]:
        text = record.text
        loader = self.loader or "autotvm"
        if loader == "auto_scheduler":
            if text.startswith(" "):
                return record, _SKIPPED
            if text.startswith("\ufeff"):
                return record, _AUTO_SCHEDULER_BOM
        if not text or text.isspace():
            return record, _BLANK[loader]
        if loader == "auto_scheduler":
            read = auto_scheduler_line(text, record.value if record.format is Format.AUTO_SCHEDULER else None)
            if read.fails:
                message = (
                    f"auto_scheduler's RecordReader (TVM v0.19) fails on the line ({read.fails}), and the whole log "
                    "fails to load"
                )
                return record, LineLoad("fails", "LoadError", message)
            self._task = self._task or read.input
            if not self._task:
                return record, _NO_TASK
            if record.format is not Format.AUTO_SCHEDULER:
                record = _auto_scheduler_record(record, read)
        return record, _READ


def _auto_scheduler_record(record: Record, read: AutoSchedulerLine) -> Record:
    """``record`` as the auto_scheduler record its loader read (its targets where dmlc found
    them): a line ``json.loads`` reads otherwise, or not at all."""
    return record._replace(format=Format.AUTO_SCHEDULER, fields=read.fields, problem="")
