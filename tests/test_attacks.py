"""The attacks of tests/attacks.py, a few trials each, break no invariant; and AtomicFile stopped
right after any of its system calls leaves no temporary file and no lock behind."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from targetlang import _atomic_file as output
from targetlang._atomic_file import AtomicFile

from . import attacks

# Each attack is tried once here; CI runs each as many times as SUITE_TRIALS says
# (`python -m tests.attacks --ci --seed 1`, .ci/run), and docs/reliability.md thousands of times.
TRIALS = attacks.SUITE_TRIALS


def test_every_attack_is_tried() -> None:
    assert set(TRIALS) == set(attacks.ATTACKS)


@pytest.mark.parametrize("name", list(attacks.ATTACKS))
def test_no_attack_breaks_an_invariant(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(attacks, "CALIBRATIONS", 1)
    outcome = attacks.run_attack(name, 1, seed=1)
    if outcome.skipped is not None:
        pytest.skip(outcome.skipped)
    assert outcome.trials == 1
    assert outcome.violations == []
    assert sum(outcome.kinds.values()) == outcome.trials  # every trial ended in a kind allowed


def test_the_harness_runs_from_the_command_line(tmp_path: Path) -> None:
    report = tmp_path / "outcomes.jsonl"
    done = subprocess.run(
        [sys.executable, "-m", "tests.attacks", "--trials", "1", "--only", "fifo", "--json", str(report)],
        cwd=Path(__file__).resolve().parent.parent,
        env=attacks._env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "1 trials, 0 violations"
    assert '"violations": []' in report.read_text()


# ------------------------------------------------------------------ interrupted after each step

# What AtomicFile calls of the system, wrapped so that the N-th call made from _atomic_file.py is
# followed by KeyboardInterrupt: as a signal that arrives during a system call is handled as
# soon as the call returns.
_CALLS = {
    os: [
        "stat",
        "open",
        "close",
        "fsync",
        "link",
        "replace",
        "unlink",
        "fchmod",
        "fchown",
        "fstat",
        "pread",
        "utime",
        "listxattr",
        "getxattr",
        "setxattr",
        "fdopen",
        "scandir",
    ],
}


def _interrupting(monkeypatch: pytest.MonkeyPatch, stop_at: int) -> list[str]:
    calls: list[str] = []
    here = output.__file__
    modules: dict[Any, list[str]] = dict(_CALLS)
    try:
        import fcntl

        modules[fcntl] = ["flock"]
    except ImportError:
        pass

    def wrap(module: Any, name: str) -> None:
        real: Callable[..., Any] = getattr(module, name)

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            ours = sys._getframe(1).f_code.co_filename == here
            try:
                return real(*args, **kwargs)
            finally:
                if ours:
                    calls.append(name)
                    if len(calls) == stop_at:
                        raise KeyboardInterrupt

        monkeypatch.setattr(module, name, wrapper)

    for module, names in modules.items():
        for name in names:
            wrap(module, name)
    return calls


_WAYS = ["backup linked", "backup copied", "no backup", "a new file"]


def _write(tmp_path: Path, way: str, monkeypatch: pytest.MonkeyPatch, stop_at: int) -> list[str]:
    log = tmp_path / "tune.log"
    if way != "a new file":
        log.write_bytes(b"old\n")
    if way == "backup copied":

        def no_links(*args: Any, **kwargs: Any) -> None:
            raise OSError(18, "Invalid cross-device link")

        monkeypatch.setattr(os, "link", no_links)
    calls = _interrupting(monkeypatch, stop_at)
    backup = str(log) + ".bak" if way.startswith("backup") else None
    try:
        with AtomicFile(str(log), backup) as out:
            out.write(b"new\n")
    except KeyboardInterrupt:
        assert stop_at <= len(calls)
    finally:
        monkeypatch.undo()
    return calls


def _steps(way: str) -> list[str]:
    """The calls AtomicFile makes to write the file the way ``way`` says."""
    with pytest.MonkeyPatch.context() as monkeypatch, tempfile.TemporaryDirectory() as directory:
        return _write(Path(directory), way, monkeypatch, 0)


@pytest.mark.parametrize(("way", "step"), [(way, step) for way in _WAYS for step in range(1, len(_steps(way)) + 1)])
def test_an_interrupt_after_any_step_leaves_no_temporary_file_nor_the_lock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, way: str, step: int
) -> None:
    # Before, an interrupt right after mkstemp or fdopen, or after the backup's link (or its
    # copy's open), left the temporary file; one after the lock's close closed it twice (EBADF
    # in place of the interrupt); one after the lock was taken kept the file locked.
    _write(tmp_path, way, monkeypatch, step)
    log = tmp_path / "tune.log"
    names = sorted(p.name for p in tmp_path.iterdir())
    assert not [name for name in names if name.endswith(".tmp")], names
    if way == "a new file":
        assert not log.exists() or log.read_bytes() == b"new\n"
    else:
        assert log.read_bytes() in (b"old\n", b"new\n")
    if log.exists() and way.startswith("backup") and log.read_bytes() == b"new\n":
        assert (tmp_path / "tune.log.bak").read_bytes() == b"old\n"
    if log.exists():  # the lock is let go: another rewrite of the file may begin
        with AtomicFile(str(log)) as again:
            again.write(log.read_bytes())
