"""What became of each record of ``logs match``, row by row, kept in file order in bounded memory:
up to :data:`_BUFFER` rows held, the rest spooled to an unnamed temporary file."""

from __future__ import annotations

import pickle
import tempfile
from collections.abc import Iterator
from typing import IO, Any

__all__ = ["STATUSES", "Row", "Rows"]


# What became of a record, as it is kept until the answer is known: file, line, spec, workload,
# cost, status ("" while it matches), via, reason, error.
Row = tuple[str, int, str, int, float, str, str, str, str]


STATUSES = ("picked", "beaten", "missed", "skipped", "fails")


_BUFFER = 4096  # rows held before they go to the file


class Rows:
    """The rows of the records, in order: held in memory up to :data:`_BUFFER`, then in an
    unnamed temporary file made when first needed."""

    def __init__(self) -> None:
        self.held: list[Row] = []
        self._file: IO[bytes] | None = None

    def add(self, row: Row) -> None:
        self.held.append(row)
        if len(self.held) >= _BUFFER:
            self.flush()

    def flush(self) -> None:
        if self.held:
            if self._file is None:
                self._file = tempfile.TemporaryFile()
            self._file.seek(0, 2)
            pickle.dump(self.held, self._file, pickle.HIGHEST_PROTOCOL)
            self.held = []

    def __iter__(self) -> Iterator[Row]:
        if self._file is not None:
            self._file.seek(0)
            while True:
                try:
                    rows: list[Row] = pickle.load(self._file)
                except EOFError:
                    break
                yield from rows
        yield from list(self.held)

    def __getstate__(self) -> dict[str, Any]:
        # (a worker's rows, of one chunk: they go to the command with it)
        return {"held": list(self)}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.held = state["held"]
        self._file = None
