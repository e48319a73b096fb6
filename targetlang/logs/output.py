"""Writing a file so that readers see the old one or the new one, never half of either.

:class:`AtomicFile` writes into a temporary file beside the destination and renames it over the
destination only when the work is done; an exception or an interrupt before that removes the
temporary file and leaves the destination as it was. A destination that is no regular file (a
pipe, ``/dev/null``, a terminal) is written directly: renaming over it would replace the device.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
from collections.abc import Iterator
from types import TracebackType
from typing import BinaryIO

__all__ = ["AtomicFile"]


class AtomicFile:
    """``with AtomicFile(path) as out: out.write(b"...")``: ``path`` replaced on success only.

    ``backup`` (a path) keeps the file that is replaced under that name: the old file itself
    becomes the backup (a hard link, or a copy where links are not possible), so the data is
    never out of a named file. Call :meth:`discard` inside the block to leave ``path`` untouched
    (nothing to change). The new file gets the old one's permission bits.
    """

    def __init__(self, path: str, backup: str | None = None) -> None:
        self.given = path
        # Write through a symbolic link to the file it names, as an editor saving the file would.
        self.path = os.path.realpath(path)
        self.backup = backup
        self._temp: str | None = None
        self._handle: BinaryIO | None = None
        self._discarded = False

    def __enter__(self) -> AtomicFile:
        try:
            special = not stat.S_ISREG(os.stat(self.path).st_mode)
        except FileNotFoundError:
            special = False
        with self._naming():
            if special:
                self._handle = open(self.path, "wb")
                return self
            directory = os.path.dirname(self.path) or "."
            prefix = f".{os.path.basename(self.path)}."
            fd, self._temp = tempfile.mkstemp(prefix=prefix, suffix=".tmp", dir=directory)
            self._handle = os.fdopen(fd, "wb")
            return self

    def write(self, data: bytes) -> None:
        """Append ``data`` to the new file."""
        assert self._handle is not None, "AtomicFile.write outside its with block"
        try:
            self._handle.write(data)
        except OSError as err:
            raise self._named(err) from None

    @contextlib.contextmanager
    def _naming(self) -> Iterator[None]:
        try:
            yield
        except OSError as err:
            raise self._named(err) from None

    def _named(self, err: OSError) -> OSError:
        """``err`` naming the path the user gave: the temporary file's name, or none at all (a
        failed write), would not tell them which file could not be written."""
        if self.backup is not None and self.backup in (err.filename, err.filename2):
            return err  # the backup's own name says which file failed
        return OSError(err.errno, err.strerror, self.given)

    def discard(self) -> None:
        """Leave the destination as it is when the block ends."""
        self._discarded = True

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        assert self._handle is not None
        if self._temp is None:  # a device or a pipe, written directly
            with self._naming():
                self._handle.close()
            return
        try:
            if kind is None and not self._discarded:
                with self._naming():
                    self._handle.flush()
                    os.fsync(self._handle.fileno())
                    self._handle.close()
                    self._commit(self._temp)
        finally:
            if not self._handle.closed:
                self._handle.close()
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self._temp)

    def _commit(self, temp: str) -> None:
        if os.path.exists(self.path):
            shutil.copymode(self.path, temp)
            if self.backup is not None:
                self._keep(self.backup)
        os.replace(temp, self.path)

    def _keep(self, backup: str) -> None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(backup)
        try:
            os.link(self.path, backup)
        except OSError:  # no hard links here (another file system, FAT, ...): copy instead
            shutil.copy2(self.path, backup)
