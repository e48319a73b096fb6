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
import stat
from collections.abc import Iterator
from types import TracebackType
from typing import Any, BinaryIO

try:  # (hashlib's own import loads OpenSSL: 20 ms of the start of every fix run)
    from _blake2 import blake2b
except ImportError:  # an interpreter without CPython's module
    from hashlib import blake2b

__all__ = ["NO_WAIT", "AtomicFile", "ChangedMeanwhileError", "clean_up_unfinished", "digest"]


class ChangedMeanwhileError(OSError):
    """The destination changed (or another run held it) while it was rewritten: it is left as it
    was, and what the run wrote is dropped."""


def _identity(info: os.stat_result) -> tuple[int, int, int, int, int]:
    # the change time too: a writer can set the modification time back, not the change time
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


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
_CREATE = (
    os.O_WRONLY
    | os.O_CREAT
    | os.O_EXCL
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_BINARY", 0)
    | getattr(os, "O_CLOEXEC", 0)
)
# The names of a descriptor the command was given, which -o may name: written where it stands.
_STANDARD = re.compile(r"/dev/(stdout|stderr)|/dev/fd/(\d+)|/proc/self/fd/(\d+)")
# Reading a file that is to be a regular one: a FIFO put at its name opens at once instead of
# waiting for a writer (and fstat then says what it is), a terminal is never taken as ours; a
# regular file's reads ignore O_NONBLOCK.
NO_WAIT = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_BINARY", 0)
    | getattr(os, "O_CLOEXEC", 0)
)
# The file to be replaced, opened once: never through a symbolic link put at its name, never
# blocking on a FIFO put there, never taking a terminal as ours.
_EXISTING = NO_WAIT | getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)
# Where the system takes a directory's descriptor in place of its name (not Windows): every step
# after the first open is then relative to the directory opened once.
_AT = {os.open, os.rename, os.stat, os.unlink, os.link} <= os.supports_dir_fd  # os.replace is rename(2) too


def digest(data: bytes | memoryview) -> bytes:
    """The digest :class:`AtomicFile` compares the bytes of a file by (``expected``)."""
    return blake2b(data, digest_size=16).digest()


class AtomicFile:
    """``with AtomicFile(path) as out: out.write(b"...")``: ``path`` replaced on success only.

    ``backup`` (a path) keeps the file that is replaced under that name: the old file itself
    becomes the backup (a hard link, or a copy where links are not possible), so the data is
    never out of a named file. Call :meth:`discard` inside the block to leave ``path`` untouched
    (nothing to change).

    The file to replace is opened once, without following a symbolic link at its name (a link
    the caller names is followed once, when the object is made), and every later decision is
    taken from that descriptor and from its directory, opened once: a link put at the name
    afterwards is never written through. Just before the rename, under the lock, the name must
    still be that file, unchanged (size, modification and change times), and its bytes those the
    caller read: ``expected`` (their :func:`digest`), or with ``check_bytes`` those there when the
    block began. Otherwise :class:`ChangedMeanwhileError`, and the file stays as it is. Without
    either, a destination that is no regular file (``-o /dev/stdout``) is written directly; with
    either, it is refused.

    The new file gets the old one's owner and group (where the process may give them), then its
    mode, set-user-ID and set-group-ID bits included, and its extended attributes (ACLs among
    them) where the file system takes them. Hard links to the old file keep the old text, as with
    ``sed -i``: a rename is what makes the replacement atomic.
    """

    def __init__(
        self, path: str, backup: str | None = None, *, expected: bytes | None = None, check_bytes: bool = False
    ) -> None:
        self.given = path
        # Write through a symbolic link the caller names to the file it names, as an editor
        # saving the file would: resolved once, here.
        self.path = os.path.realpath(path)
        self.backup = backup
        self._directory, self._name = os.path.split(self.path)
        self._temp: str | None = None  # the temporary file's name, in the directory
        self._handle: BinaryIO | None = None
        self._discarded = False
        self._before: os.stat_result | None = None  # the destination as it was when the work began
        self._expected = expected
        self._check_bytes = check_bytes
        self._dir: int | None = None  # the directory's descriptor
        self._file: int | None = None  # the destination's descriptor: read-only, and the lock
        self._locked = False

    @property
    def identity(self) -> tuple[int, int] | None:
        """``(device, inode)`` of the file to be replaced, as opened (``None``: a new file)."""
        before = self._before
        return None if before is None else (before.st_dev, before.st_ino)

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

    def _at(self) -> dict[str, Any]:
        return {"dir_fd": self._dir} if self._dir is not None else {}

    def _where(self, name: str) -> str:
        """``name`` as a path: the name itself, relative to the directory's descriptor, or
        joined to the directory where descriptors are not taken."""
        return name if self._dir is not None else os.path.join(self._directory, name)

    def _open(self) -> None:
        replacing = self._expected is not None or self._check_bytes
        inherited = _STANDARD.fullmatch(self.given)
        if inherited is not None and not replacing:
            # a descriptor the command was given (-o /dev/stdout): written where it stands, never
            # the file it names replaced, which would drop what the shell writes around it
            named, numbered = inherited.group(1), inherited.group(2) or inherited.group(3)
            number = int(numbered) if numbered else {"stdout": 1, "stderr": 2}[named]
            self._handle = os.fdopen(os.dup(number), "wb")
            return
        try:
            first = os.stat(self.given)
        except FileNotFoundError:
            first = None
        if replacing and (first is None or not stat.S_ISREG(first.st_mode)):
            # A file read to be replaced: one that is gone, or that is a FIFO or a device now
            # (a link to one swapped in), is not the file read; never written directly.
            raise self._changed("it is no longer the regular file read")
        if first is not None and not stat.S_ISREG(first.st_mode):
            # a pipe, a device, a terminal (-o /dev/stdout): written directly, as given
            self._handle = open(self.given, "wb")
            return
        if _AT:
            self._dir = os.open(self._directory or ".", _DIRECTORY)
        before = None
        if first is not None:
            # Kept before it is locked: an interrupt at any step after the open lets it go.
            try:
                self._file = os.open(self._where(self._name), _EXISTING, **self._at())
            except OSError as err:
                if err.errno == errno.ELOOP:  # a link put at the name since it was resolved
                    raise self._changed("it became a symbolic link while it was opened") from None
                if err.errno != errno.ENOENT:
                    raise
                if replacing:  # removed since: the file read is gone, not to be made anew
                    raise self._changed("it was removed while it was opened") from None
            if self._file is not None:
                before = os.fstat(self._file)
                if not stat.S_ISREG(before.st_mode):  # swapped for a FIFO or a device since
                    raise self._changed("it is no regular file now")
                self._take_lock()
                self._before = before
                if self._check_bytes:
                    self._expected = self._digest_held()
                self._remove_stale()
        # Named before it is made: an interrupt at any step after that removes it.
        self._temp = _fresh_name(self._name)
        _UNFINISHED.add(self)
        try:
            # A new file gets open()'s 0o666 less the umask from the kernel; one that replaces a
            # file is 0600 until it has that file's mode.
            fd = os.open(self._where(self._temp), _CREATE, 0o600 if before is not None else 0o666, **self._at())
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
        if isinstance(err, ChangedMeanwhileError):
            return err
        if self.backup is not None and self.backup in (err.filename, err.filename2):
            return err  # the backup's own name says which file failed
        return OSError(err.errno, err.strerror, self.given)

    def _changed(self, why: str) -> ChangedMeanwhileError:
        return ChangedMeanwhileError(errno.EAGAIN, f"{why}; left as it is", self.given)

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
                    self._commit(self._temp, self._handle)
        finally:
            self._clean_up()

    def _clean_up(self) -> None:
        """Close and remove the temporary file (gone already once it is renamed) and let go of
        the lock and the descriptors, each step even if the one before it is interrupted."""
        try:
            if self._handle is not None and not self._handle.closed:
                with contextlib.suppress(OSError):  # a full disk fails the close too: still unlink
                    self._handle.close()
        finally:
            try:
                if self._temp is not None:
                    with contextlib.suppress(FileNotFoundError):
                        os.unlink(self._where(self._temp), **self._at())
            finally:
                try:
                    self._release_lock()
                finally:
                    directory, self._dir = self._dir, None  # forgotten first: never closed twice
                    if directory is not None:
                        os.close(directory)
                    _UNFINISHED.discard(self)

    def _commit(self, temp: str, handle: BinaryIO) -> None:
        held = self._file
        if held is not None:
            self._check_unchanged(held)
            now = os.fstat(held)
            _copy_metadata(held, now, handle.fileno())
        handle.close()
        if held is not None and self.backup is not None and self._keep(self.backup, held):
            # a copy took as long as the file is: what a writer did meanwhile is checked again
            # (not the change time, which the backup's link changes)
            self._check_unchanged(held, ctime=False)
        if held is None:
            self._publish(temp)
        elif self._dir is not None:
            os.replace(temp, self._name, src_dir_fd=self._dir, dst_dir_fd=self._dir)
        else:
            self._release_lock()  # Windows renames over no file held open
            os.replace(self._where(temp), self.path)
        self._temp = None  # renamed: nothing of ours left to remove
        self._release_lock()

    def _publish(self, temp: str) -> None:
        """The new file at its name, where no file was: a link, which fails if another writer
        made one there meanwhile (never replaced), else (no hard links here) a rename."""
        try:
            if self._dir is not None:
                os.link(temp, self._name, src_dir_fd=self._dir, dst_dir_fd=self._dir, follow_symlinks=False)
            else:
                os.link(self._where(temp), self.path, follow_symlinks=False)
        except FileExistsError:
            raise self._changed("another writer made it while it was written") from None
        except OSError:  # no hard links on this file system: the rename, as before
            os.replace(self._where(temp), self._where(self._name), **_both(self._dir))
            return
        os.unlink(self._where(temp), **self._at())

    def _check_unchanged(self, held: int, ctime: bool = True) -> None:
        """Raise :class:`ChangedMeanwhileError` unless the name still names the file opened, as it
        was: a writer that appended, or rewrote it in place (same length, its time set back),
        or a link or another file put at the name."""
        assert self._before is not None
        try:
            named = os.stat(self._where(self._name), follow_symlinks=False, **self._at())
        except FileNotFoundError:
            raise self._changed("it was removed while it was rewritten") from None
        now = os.fstat(held)
        if (named.st_dev, named.st_ino) != (now.st_dev, now.st_ino):
            raise self._changed("another file took its name while it was rewritten")
        if _identity(now)[: None if ctime else -1] != _identity(self._before)[: None if ctime else -1]:
            raise self._changed("it changed while it was rewritten (another writer?)")
        if self._expected is not None and self._digest_held() != self._expected:
            raise self._changed("its bytes changed since they were read (another writer?)")

    def _digest_held(self) -> bytes:
        """The digest of the bytes of the file opened, read through its descriptor."""
        assert self._file is not None
        hasher = blake2b(digest_size=16)
        offset = 0
        while chunk := _read_at(self._file, offset):
            hasher.update(chunk)
            offset += len(chunk)
        return hasher.digest()

    def _keep(self, backup: str, held: int) -> bool:
        """The old file under the name ``backup``, made under a fresh name of our own and renamed
        over ``backup``: a rename replaces whatever sits there (a symbolic link too) without
        following it, so nothing outside the directory can be written through it. Whether it
        was copied (no hard links there)."""
        directory, name = os.path.split(os.path.abspath(backup))
        fresh = os.path.join(directory, _fresh_name(name))
        copied = False
        try:
            try:
                # fails if the name exists: it is never followed; and a link at the name of the
                # file (put there since the check) is linked as itself, and then refused below
                if self._dir is not None:
                    os.link(self._name, fresh, src_dir_fd=self._dir, follow_symlinks=False)
                else:
                    os.link(self.path, fresh, follow_symlinks=False)
                linked = os.stat(fresh, follow_symlinks=False)
                now = os.fstat(held)
                if (linked.st_dev, linked.st_ino) != (now.st_dev, now.st_ino):
                    raise self._changed("another file took its name while it was rewritten")
            except (FileExistsError, ChangedMeanwhileError):
                raise
            except OSError:  # no hard links here (another file system, FAT, ...): copy instead
                self._copy(held, fresh)
                copied = True
            os.replace(fresh, backup)
            return copied
        except BaseException as err:
            # Whatever stops it (a full disk, an interrupt after any step), our file goes; a
            # name someone else took is theirs.
            if not isinstance(err, FileExistsError):
                with contextlib.suppress(OSError):
                    os.unlink(fresh)
            raise

    @staticmethod
    def _copy(held: int, fresh: str) -> None:
        """A copy of the file opened (its bytes, read through the descriptor), at ``fresh``, with
        its owner, mode, attributes and times."""
        fd = os.open(fresh, _CREATE, 0o600)
        with os.fdopen(fd, "wb") as out:
            offset = 0
            while chunk := _read_at(held, offset):
                out.write(chunk)
                offset += len(chunk)
            out.flush()
            info = os.fstat(held)
            _copy_metadata(held, info, out.fileno())
            os.utime(out.fileno(), ns=(info.st_atime_ns, info.st_mtime_ns))

    def _remove_stale(self) -> None:
        """Remove the temporary files an earlier run killed midway left beside the destination
        (SIGKILL gives no chance to clean up): only names of our own making, only files of this
        user, and only once the lock says no other run is writing them."""
        if not self._locked:
            return
        names = [re.escape(self._name)]
        if self.backup is not None:
            names.append(re.escape(os.path.basename(self.backup)))
        ours = re.compile(rf"\.(?:{'|'.join(names)})\.(?:[a-z0-9_]{{8}}|[0-9a-f]{{16}})\.tmp")
        with contextlib.suppress(OSError):
            listing = os.scandir(self._dir if self._dir is not None else (self._directory or "."))
            with listing as entries:
                for entry in entries:
                    if ours.fullmatch(entry.name) and entry.is_file(follow_symlinks=False):
                        if entry.stat(follow_symlinks=False).st_uid == os.getuid():
                            with contextlib.suppress(OSError):
                                os.unlink(self._where(entry.name), **self._at())

    def _take_lock(self) -> None:
        """An advisory lock on the destination: a second run rewriting it at once stops."""
        try:
            import fcntl
        except ImportError:  # no flock (Windows): the check of the file before the rename remains
            return
        assert self._file is not None
        try:
            fcntl.flock(self._file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise self._changed("another run is rewriting it") from None
        self._locked = True

    def _release_lock(self) -> None:
        fd, self._file = self._file, None  # forgotten first: an interrupt must not close it twice
        self._locked = False
        if fd is not None:
            os.close(fd)


def _read_at(fd: int, offset: int) -> bytes:
    """Up to a megabyte of the file open at ``fd`` from ``offset`` (``pread``, where there is one)."""
    if hasattr(os, "pread"):
        return os.pread(fd, 1 << 20, offset)
    os.lseek(fd, offset, os.SEEK_SET)
    return os.read(fd, 1 << 20)


def _both(directory: int | None) -> dict[str, Any]:
    return {"src_dir_fd": directory, "dst_dir_fd": directory} if directory is not None else {}


def _fresh_name(name: str) -> str:
    """A name beside ``name`` that no one can guess, ``.NAME.<16 hex digits>.tmp``."""
    return f".{name}.{os.urandom(8).hex()}.tmp"


def _copy_metadata(source: int, info: os.stat_result, target: int) -> None:
    """Owner and group, then mode (chown clears the set-user-ID and set-group-ID bits, so they
    are set after it), then extended attributes (POSIX ACLs are kept as ones), from the file
    open at ``source`` to the one open at ``target``: each where the process may and the file
    system takes it, as ``sed -i`` keeps what it can."""
    if hasattr(os, "fchown"):  # (not on Windows, where a new file takes its directory's)
        with contextlib.suppress(OSError):  # another user's file, and we are not root: ours, then
            os.fchown(target, info.st_uid, info.st_gid)
        os.fchmod(target, stat.S_IMODE(info.st_mode))
    listxattr = getattr(os, "listxattr", None)
    if listxattr is None:
        return
    try:
        names = listxattr(source)
    except OSError:  # no extended attributes on this file system
        return
    for name in names:
        with contextlib.suppress(OSError):  # one the process may not set (security.*, trusted.*)
            os.setxattr(target, name, os.getxattr(source, name))
