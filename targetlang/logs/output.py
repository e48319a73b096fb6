"""Writing a file so that readers see the old one or the new one, never half of either.

:class:`AtomicFile` writes into a temporary file beside the destination and renames it over the
destination only when the work is done; an exception or an interrupt before that removes the
temporary file and leaves the destination as it was. A destination that is no regular file (a
pipe, ``/dev/null``, a terminal) is written directly: renaming over it would replace the device.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import shutil
import stat
from collections.abc import Iterator
from types import TracebackType
from typing import BinaryIO

__all__ = ["AtomicFile", "ChangedMeanwhileError", "clean_up_unfinished"]


class ChangedMeanwhileError(OSError):
    """The destination changed (or another run held it) while it was rewritten: it is left as it
    was, and what the run wrote is dropped."""


def _identity(info: os.stat_result) -> tuple[int, int, int, int]:
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)


def _fresh(path: str) -> str:
    """A name beside ``path`` that no one can guess, ``.NAME.<16 hex digits>.tmp``."""
    directory, name = os.path.split(os.path.abspath(path))
    return os.path.join(directory, f".{name}.{secrets.token_hex(8)}.tmp")


# The files of this process begun and not yet committed or removed. A signal handler that raises
# (Ctrl-C, the command's SIGTERM and SIGHUP) runs on entering any function: on entering
# AtomicFile.__exit__, or ExitStack's code that registers it, no handler of the file's own runs,
# and the command removes them when it stops (clean_up_unfinished).
_UNFINISHED: set[AtomicFile] = set()


def clean_up_unfinished() -> None:
    """Remove the temporary files of every :class:`AtomicFile` of this process that was neither
    committed nor cleaned up, and let go of their locks: for the command line, once a stop
    (Ctrl-C, SIGTERM, SIGHUP) has unwound it."""
    for unfinished in list(_UNFINISHED):
        unfinished._clean_up()


# A new file of our own: never an existing one, never through a symbolic link.
_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)


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
        self._before: os.stat_result | None = None  # the destination as it was when the work began
        self._lock: int | None = None

    def __enter__(self) -> AtomicFile:
        # Every step, the return of the naming context included, inside one handler: a signal
        # handler that raises (Ctrl-C, the command's SIGTERM and SIGHUP) may run on entering any
        # function, and before __enter__ returns no __exit__ will clean up.
        try:
            with self._naming():
                self._open()
        except BaseException:
            self._clean_up()
            raise
        return self

    def _open(self) -> None:
        try:
            before = os.stat(self.path)
        except FileNotFoundError:
            before = None
        if before is not None and not stat.S_ISREG(before.st_mode):
            self._handle = open(self.path, "wb")
            return
        if before is not None:
            self._take_lock()
            self._before = before
            self._remove_stale()
        # Named before it is made: an interrupt at any step after that removes it.
        self._temp = _fresh(self.path)
        _UNFINISHED.add(self)
        try:
            # A new file gets open()'s 0o666 less the umask from the kernel; one that replaces a
            # file is 0600 until it has that file's mode.
            fd = os.open(self._temp, _CREATE, 0o600 if before is not None else 0o666)
        except FileExistsError:
            self._temp = None  # someone else's file: not ours to remove
            raise
        self._handle = os.fdopen(fd, "wb")

    def write(self, data: bytes | memoryview) -> None:
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
            self._clean_up()

    def _clean_up(self) -> None:
        """Close and remove the temporary file (gone already once it is renamed) and let go of
        the lock, each step even if the one before it is interrupted."""
        try:
            if self._handle is not None and not self._handle.closed:
                with contextlib.suppress(OSError):  # a full disk fails the close too: still unlink
                    self._handle.close()
        finally:
            try:
                if self._temp is not None:
                    with contextlib.suppress(FileNotFoundError):
                        os.unlink(self._temp)
            finally:
                self._release_lock()
                _UNFINISHED.discard(self)

    def _commit(self, temp: str) -> None:
        try:
            now = os.stat(self.path)
        except FileNotFoundError:
            now = None
        if self._before is not None and (now is None or _identity(now) != _identity(self._before)):
            raise ChangedMeanwhileError(
                errno.EAGAIN, "it changed while it was rewritten (another writer?); left as it is", self.given
            )
        if now is not None:
            shutil.copymode(self.path, temp)
            with contextlib.suppress(OSError):  # keep the owner where we may, as sed -i does
                os.chown(temp, now.st_uid, now.st_gid)
            if self.backup is not None:
                self._keep(self.backup)
        os.replace(temp, self.path)
        self._release_lock()

    def _keep(self, backup: str) -> None:
        """The old file under the name ``backup``, made under a fresh name of our own and renamed
        over ``backup``: a rename replaces whatever sits there (a symbolic link too) without
        following it, so nothing outside the directory can be written through it."""
        fresh = _fresh(backup)
        try:
            try:
                os.link(self.path, fresh)  # fails if the name exists: it is never followed
            except FileExistsError:
                raise
            except OSError:  # no hard links here (another file system, FAT, ...): copy instead
                fd = os.open(fresh, _CREATE, 0o600)
                with os.fdopen(fd, "wb") as out, open(self.path, "rb") as old:
                    shutil.copyfileobj(old, out)
                shutil.copystat(self.path, fresh)
            os.replace(fresh, backup)
        except BaseException as err:
            # Whatever stops it (a full disk, an interrupt after any step), our file goes; a
            # name someone else took is theirs.
            if not isinstance(err, FileExistsError):
                with contextlib.suppress(OSError):
                    os.unlink(fresh)
            raise

    def _remove_stale(self) -> None:
        """Remove the temporary files an earlier run killed midway left beside the destination
        (SIGKILL gives no chance to clean up): only names of our own making, only files of this
        user, and only once the lock says no other run is writing them."""
        if self._lock is None:
            return
        directory = os.path.dirname(self.path) or "."
        names = [re.escape(os.path.basename(self.path))]
        if self.backup is not None:
            names.append(re.escape(os.path.basename(self.backup)))
        ours = re.compile(rf"\.(?:{'|'.join(names)})\.(?:[a-z0-9_]{{8}}|[0-9a-f]{{16}})\.tmp")
        with contextlib.suppress(OSError):
            for entry in os.scandir(directory):
                if ours.fullmatch(entry.name) and entry.is_file(follow_symlinks=False):
                    if entry.stat(follow_symlinks=False).st_uid == os.getuid():
                        with contextlib.suppress(OSError):
                            os.unlink(entry.path)

    def _take_lock(self) -> None:
        """An advisory lock on the destination: a second run rewriting it at once stops."""
        try:
            import fcntl
        except ImportError:  # no flock (Windows): the check of the file before the rename remains
            return
        # Kept before it is locked: an interrupt at any step after the open lets it go.
        self._lock = os.open(self.path, os.O_RDONLY | os.O_NOFOLLOW)
        try:
            fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self._release_lock()
            raise ChangedMeanwhileError(
                errno.EAGAIN, "another run is rewriting it; left as it is", self.given
            ) from None

    def _release_lock(self) -> None:
        fd, self._lock = self._lock, None  # forgotten first: an interrupt must not close it twice
        if fd is not None:
            os.close(fd)
