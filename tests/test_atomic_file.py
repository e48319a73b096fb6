"""AtomicFile replaces the file it opened once, or nothing: links put at the name, writers that
rewrite the file meanwhile, and the metadata the new file keeps (docs/reliability.md)."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from targetlang import _atomic_file as output
from targetlang._atomic_file import AtomicFile, ChangedMeanwhileError, digest


@pytest.fixture
def protected(tmp_path: Path) -> Path:
    """Another user's file, which no rewrite of this user's files may touch."""
    secret = tmp_path / "secret"
    secret.mkdir(mode=0o700)
    target = secret / "root.txt"
    target.write_bytes(b"root's\n")
    return target


def test_a_link_swapped_in_after_the_path_was_resolved_is_refused(tmp_path: Path, protected: Path) -> None:
    # Before, AtomicFile resolved the path and later opened and replaced what the name then
    # named: the link's target, root's file.
    log = tmp_path / "tune.log"
    log.write_bytes(b"old\n")
    atomic = AtomicFile(str(log))
    os.replace(log, tmp_path / "kept.log")
    log.symlink_to(protected)
    with pytest.raises(ChangedMeanwhileError, match="became a symbolic link"), atomic as out:
        out.write(b"new\n")
    assert protected.read_bytes() == b"root's\n"
    assert log.is_symlink() and sorted(p.name for p in tmp_path.iterdir()) == ["kept.log", "secret", "tune.log"]


def test_a_link_swapped_in_while_the_new_file_is_written_is_refused(tmp_path: Path, protected: Path) -> None:
    log = tmp_path / "tune.log"
    log.write_bytes(b"old\n")
    with pytest.raises(ChangedMeanwhileError, match="another file took its name"), AtomicFile(str(log)) as out:
        out.write(b"new\n")
        os.replace(log, tmp_path / "kept.log")  # kept under another name: inode and times stay
        log.symlink_to(protected)
    assert protected.read_bytes() == b"root's\n"
    assert (tmp_path / "kept.log").read_bytes() == b"old\n"


def test_a_link_the_caller_names_is_followed_once(tmp_path: Path) -> None:
    real = tmp_path / "real.log"
    real.write_bytes(b"old\n")
    link = tmp_path / "link.log"
    link.symlink_to(real)
    with AtomicFile(str(link), expected=digest(b"old\n")) as out:
        out.write(b"new\n")
    assert link.is_symlink() and real.read_bytes() == b"new\n"


def test_bytes_other_than_those_read_are_never_replaced(tmp_path: Path) -> None:
    # A writer that rewrote the file with text of the same length and set its time back: size
    # and mtime said nothing changed.
    path = tmp_path / "a.py"
    path.write_bytes(b"x = 1\n")
    with pytest.raises(ChangedMeanwhileError, match="bytes changed"), AtomicFile(
        str(path), expected=digest(b"x = 0\n")
    ) as out:
        out.write(b"fixed\n")
    assert path.read_bytes() == b"x = 1\n"


def test_a_same_length_rewrite_with_its_time_set_back_is_seen(tmp_path: Path) -> None:
    path = tmp_path / "tune.log"
    path.write_bytes(b"old\n")
    with pytest.raises(ChangedMeanwhileError), AtomicFile(str(path), check_bytes=True) as out:
        out.write(b"new\n")
        info = path.stat()
        with open(path, "r+b") as handle:
            handle.write(b"OLD\n")
        os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert path.read_bytes() == b"OLD\n"


@pytest.mark.parametrize("mode", [0o4755, 0o2755, 0o6750, 0o2640, 0o600])
def test_the_mode_is_kept_with_its_set_id_bits(tmp_path: Path, mode: int) -> None:
    # Before, copymode came before chown, which clears the set-user-ID and set-group-ID bits.
    path = tmp_path / "tool.py"
    path.write_bytes(b"old\n")
    path.chmod(mode)
    with AtomicFile(str(path)) as out:
        out.write(b"new\n")
    assert stat.S_IMODE(path.stat().st_mode) == mode


def test_the_owner_is_kept(tmp_path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("giving a file to another user takes root")
    path = tmp_path / "tune.log"
    path.write_bytes(b"old\n")
    os.chown(path, 1234, 5678)
    with AtomicFile(str(path), str(tmp_path / "tune.log.bak")) as out:
        out.write(b"new\n")
    assert (path.stat().st_uid, path.stat().st_gid) == (1234, 5678)


def _xattrs_or_skip(path: Path) -> None:
    try:
        os.setxattr(path, "user.origin", b"board 7")
    except OSError as err:
        pytest.skip(f"no extended attributes here: {err}")


def test_extended_attributes_are_kept(tmp_path: Path) -> None:
    # Before, dropped: ruff and black keep them (they write in place), sed -i keeps ACLs.
    path = tmp_path / "tune.log"
    path.write_bytes(b"old\n")
    _xattrs_or_skip(path)
    with AtomicFile(str(path)) as out:
        out.write(b"new\n")
    assert os.getxattr(path, "user.origin") == b"board 7"


def test_a_copied_backup_keeps_the_owner_mode_and_times(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Before, a FILE.bak copied across file systems was root's, not the log's owner's.
    path = tmp_path / "tune.log"
    path.write_bytes(b"old\n")
    owner = (1234, 5678) if os.geteuid() == 0 else (os.getuid(), os.getgid())
    os.chown(path, *owner)
    path.chmod(0o640)
    os.utime(path, ns=(1_000_000_000, 2_000_000_000))

    def no_links(*args: Any, **kwargs: Any) -> None:
        raise OSError(18, "Invalid cross-device link")

    monkeypatch.setattr(os, "link", no_links)
    backup = tmp_path / "tune.log.bak"
    with AtomicFile(str(path), str(backup)) as out:
        out.write(b"new\n")
    info = backup.stat()
    assert backup.read_bytes() == b"old\n" and path.read_bytes() == b"new\n"
    assert ((info.st_uid, info.st_gid), stat.S_IMODE(info.st_mode), info.st_mtime_ns) == (owner, 0o640, 2_000_000_000)


def test_a_second_hard_link_keeps_the_old_text(tmp_path: Path) -> None:
    # As sed -i: the rename that makes the replacement atomic gives the name a new file
    # (docs/reliability.md says so beside what ruff and black do).
    path = tmp_path / "a.py"
    path.write_bytes(b"old\n")
    os.link(path, tmp_path / "b.py")
    with AtomicFile(str(path)) as out:
        out.write(b"new\n")
    assert (path.read_bytes(), (tmp_path / "b.py").read_bytes()) == (b"new\n", b"old\n")


def test_every_step_is_relative_to_the_directory_opened_once() -> None:
    # The guard the rest rests on: where the system takes directory descriptors, they are used.
    assert output._AT is (os.name == "posix")


@pytest.mark.parametrize("special", ["fifo", "link to a device"])
def test_a_file_read_to_be_replaced_is_never_written_as_a_special_file(tmp_path: Path, special: str) -> None:
    # A FIFO, or a link to a device (a disk, as root), swapped in after the file was read: the
    # writing of a device or a pipe "directly" is for an output the user names, not for this.
    path = tmp_path / "a.py"
    if special == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/null")
    with pytest.raises(ChangedMeanwhileError, match="no longer the regular file read"), AtomicFile(
        str(path), expected=digest(b"x = 1\n")
    ) as out:
        out.write(b"fixed\n")
    assert path.is_fifo() if special == "fifo" else path.is_symlink()


def test_a_new_file_another_writer_made_meanwhile_is_not_replaced(tmp_path: Path) -> None:
    # Before, the rename replaced it: the other writer's text was gone without a word.
    path = tmp_path / "out.log"
    with pytest.raises(ChangedMeanwhileError, match="another writer made it"), AtomicFile(str(path)) as out:
        out.write(b"ours\n")
        path.write_bytes(b"theirs\n")
    assert path.read_bytes() == b"theirs\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.log"]


def test_an_append_while_the_backup_is_copied_is_not_lost(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Where hard links fail the backup is a copy, as long as the log; a line appended meanwhile
    # went to neither the new log nor the backup.
    path = tmp_path / "tune.log"
    path.write_bytes(b"line1\n")

    def no_links(*args: Any, **kwargs: Any) -> None:
        raise OSError(18, "Invalid cross-device link")

    real_copy = AtomicFile._copy

    def copy_then_append(held: int, fresh: str) -> None:
        real_copy(held, fresh)
        with open(path, "ab") as log:
            log.write(b"line2\n")

    monkeypatch.setattr(os, "link", no_links)
    monkeypatch.setattr(AtomicFile, "_copy", staticmethod(copy_then_append))
    with pytest.raises(ChangedMeanwhileError), AtomicFile(str(path), str(tmp_path / "tune.log.bak")) as out:
        out.write(b"LINE1\n")
    assert path.read_bytes() == b"line1\nline2\n"


def test_standard_output_named_is_written_where_it_stands(tmp_path: Path) -> None:
    # -o /dev/stdout with the output redirected to a file: before, the file it resolved to was
    # replaced, and what the shell wrote before and after was lost.
    log = tmp_path / "tune.log"
    log.write_bytes(b"old\n")
    out = tmp_path / "out.txt"
    code = (
        "import sys\nfrom targetlang._atomic_file import AtomicFile\n"
        "print('HEADER', flush=True)\n"
        "with AtomicFile('/dev/stdout') as f:\n    f.write(b'BODY\\n')\n"
        "print('FOOTER', flush=True)\n"
    )
    with open(out, "wb") as handle:
        subprocess.run([sys.executable, "-c", code], stdout=handle, check=True, cwd=tmp_path)
    assert out.read_bytes() == b"HEADER\nBODY\nFOOTER\n"
