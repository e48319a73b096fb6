"""Attacks on the worker processes of ``targetlang fix -j 2`` and ``targetlang logs migrate -j 2``.

Each run is started in a session of its own, so that its workers are found by their session
(``/proc``, Linux only) whatever moment they were started, and a signal to the process group is
what Ctrl-C at a terminal sends. A worker that outlives its command holds the command's standard
error open: it is written to a file, never read through a pipe, so that the harness itself does
not wait for such a worker.

- ``fix-parent-killed``, ``logs-parent-killed``: SIGKILL to the command (its workers cannot see
  it coming) at a random moment; every worker must be gone 5 s later.
- ``fix-group-interrupt``: SIGINT or SIGTERM to the whole process group at a random moment of a
  ``fix --write`` over a tree of a few hundred files.
- ``fix-startup-interrupt``: SIGINT to the group in the first 0.05 - 0.5 s (Python's start-up,
  targetlang's and LibCST's imports, the start of the pool).

After an interrupt: no hang, no traceback nor internal error, exit 130 or 143 (or the exit of a
run that finished first, or death by the signal before targetlang's handler was set), every file
the original or the fixed text whole, no temporary file, no worker left.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from . import SAMPLE, Outcome, _calibrate, _cli, _env, _rng, _trial_dir, _workspace

__all__ = ["ATTACKS", "SUITE_TRIALS"]

FLOW = Path(__file__).resolve().parent.parent / "data" / "fix" / "flow"
# Copies of the 24 excerpts of flow/ in the tree fix is run on: 96 files, 1 - 3 s with -j 2.
TREE_COPIES = 4
# Copies of the sample log (314 records, 200 KB) in the log migrated with -j 2: 12.8 MB, of which
# the workers take three chunks of 4 MB.
LOG_COPIES = 64
TIMEOUT = 60.0  # a run takes seconds: past this it hangs
GRACE = 5.0  # seconds a worker may take to die with its command
# What no interrupted run may print: Python's reports of an exception that escaped.
UNCAUGHT = ("Traceback", "internal error", "Exception ignored", "Error calling", "Fatal Python error")


def _session(sid: int) -> list[int]:
    """The live processes (zombies aside) of session ``sid``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                fields = handle.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue  # gone meanwhile
        # after "pid (comm)": state, ppid, pgrp, session
        if fields[0] != b"Z" and int(fields[3]) == sid:
            found.append(int(entry))
    return found


def _survivors(sid: int, grace: float = GRACE) -> list[int]:
    """The processes of session ``sid`` still alive ``grace`` seconds from now (killed then, so
    that none outlives the trial)."""
    deadline = time.monotonic() + grace
    while True:
        alive = _session(sid)
        if not alive or time.monotonic() >= deadline:
            break
        time.sleep(0.05)
    for pid in alive:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    return alive


def _default_stops() -> None:
    """For the child, the stops' default actions whatever the harness inherited: run in the
    background by a shell, it has Ctrl-C ignored, and so would the child, which Python leaves so."""
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, signal.SIG_DFL)


def _start(argv: list[str], cwd: Path, err: Path) -> subprocess.Popen[bytes]:
    with open(err, "wb") as errors:
        return subprocess.Popen(
            argv,
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=errors,
            env=_env(),
            start_new_session=True,
            preexec_fn=_default_stops,
        )


def _wait(process: subprocess.Popen[bytes], timeout: float = TIMEOUT) -> int | None:
    """The exit status, or None if it hung (then its whole session is killed)."""
    try:
        return process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        return None


# ------------------------------------------------------------------------------- the tree


@dataclass
class _Tree:
    """The files of the tree as written (relative path: text), as a finished ``fix --write`` leaves
    them, that run's exit status and how long it took."""

    originals: dict[str, bytes]
    fixed: dict[str, bytes]
    status: int
    seconds: float


_TREES: dict[int, _Tree] = {}


def _plant(directory: Path, copies: int = TREE_COPIES) -> dict[str, bytes]:
    texts = {}
    for copy in range(copies):
        for excerpt in sorted(FLOW.glob("*.py.txt")):
            name = f"d{copy:02d}/{excerpt.name.removesuffix('.txt')}"
            texts[name] = excerpt.read_bytes()
    for name, text in texts.items():
        (directory / name).parent.mkdir(parents=True, exist_ok=True)
        (directory / name).write_bytes(text)
    return texts


def _fix_argv(tree: Path) -> list[str]:
    # --quiet: what is left to do by hand is not printed, so that standard error holds only what
    # the interrupt made the command say.
    return _cli("fix", "--write", "--quiet", "-j", "2", str(tree))


def _tree(root: Path) -> _Tree:
    """The tree and what a whole run of ``fix --write -j 2`` makes of it (the shortest of two runs)."""
    if TREE_COPIES not in _TREES:
        directory = root / "calibrate"
        runs = []

        def once() -> float:
            shutil.rmtree(directory, ignore_errors=True)
            (directory / "tree").mkdir(parents=True)
            originals = _plant(directory / "tree")
            started = time.monotonic()
            process = _start(_fix_argv(directory / "tree"), directory, directory / "err")
            status = _wait(process)
            seconds = time.monotonic() - started
            err = (directory / "err").read_text(errors="replace")
            if status not in (0, 1) or any(word in err for word in UNCAUGHT):
                raise RuntimeError(f"fix --write -j 2 on the tree ended {status}: {err[-500:]}")
            fixed = {name: (directory / "tree" / name).read_bytes() for name in originals}
            runs.append(_Tree(originals, fixed, status, seconds))
            return seconds

        seconds = _calibrate(once)
        if any(run.fixed != runs[0].fixed or run.status != runs[0].status for run in runs):
            raise RuntimeError("runs of fix --write on the same tree differ")
        if runs[0].fixed == runs[0].originals:
            raise RuntimeError("fix --write changes nothing in the tree")
        _TREES[TREE_COPIES] = _Tree(runs[0].originals, runs[0].fixed, runs[0].status, seconds)
        shutil.rmtree(directory)
    return _TREES[TREE_COPIES]


def _tree_state(tree: Path, made: _Tree) -> tuple[str, list[str]]:
    """``("original" | "fixed" | "partly fixed", problems)``: each file must be its original or its
    fixed text whole, and no other file (a temporary one) may be there."""
    problems = []
    fixed = untouched = 0
    for name, original in made.originals.items():
        now = (tree / name).read_bytes() if (tree / name).is_file() else None
        if now == made.fixed[name] and now != original:
            fixed += 1
        elif now == original:
            untouched += made.fixed[name] != original
        else:
            problems.append(f"{name} is {'missing' if now is None else f'{len(now)} bytes, neither text'}")
    files = (path.relative_to(tree).as_posix() for path in tree.rglob("*") if path.is_file())
    extra = sorted(name for name in files if name not in made.originals)
    if extra:
        problems.append(f"files left: {extra[:5]}")
    state = "partly fixed" if fixed and untouched else "fixed" if fixed else "original"
    return state, problems


# ------------------------------------------------------------------------------- parent killed


def _parent_killed(
    outcome: Outcome, rng: random.Random, root: Path, run_seconds: float, setup: Callable[[Path], list[str]]
) -> None:
    """One trial: the command ``setup(trial directory)`` gives, SIGKILLed at U(0, 1.1) x its run."""
    trial = outcome.trials
    outcome.trials += 1
    directory = _trial_dir(root, trial)
    delay = rng.uniform(0, 1.1) * run_seconds
    process = _start(setup(directory), directory, directory / "err")
    time.sleep(delay)
    others = [pid for pid in _session(process.pid) if pid != process.pid]
    finished = process.poll() is not None
    if not finished:
        process.kill()
    process.wait()
    left = _survivors(process.pid)
    if left:
        outcome.violate(trial, f"{len(left)} of its workers alive {GRACE:.0f} s after the command was killed")
    elif finished:
        outcome.count("finished before the kill")
    elif others:
        outcome.count("killed while its workers lived: they died with it")
    else:
        outcome.count("killed before it started a worker")


def fix_parent_killed(trials: int, seed: int = 0) -> Outcome:
    """``fix --write -j 2`` over a tree, SIGKILLed at a random moment: no worker lives on."""
    outcome = Outcome("fix-parent-killed", "SIGKILL to `fix -j 2`: its workers must die with it")
    if not os.path.isdir("/proc"):
        return outcome.skip("the workers are found through /proc")
    rng = _rng(seed, "fix-parent-killed")
    with _workspace("fix-killed") as root:
        made = _tree(root)
        outcome.measured.update(run_seconds=round(made.seconds, 3), files=len(made.originals))

        def setup(directory: Path) -> list[str]:
            (directory / "tree").mkdir()
            _plant(directory / "tree")
            return _fix_argv(directory / "tree")

        for _ in range(trials):
            _parent_killed(outcome, rng, root, made.seconds, setup)
    return outcome


def _log_argv(directory: Path) -> list[str]:
    return _cli("logs", "migrate", "--quiet", "-j", "2", "-o", str(directory / "out.log"), str(directory / "in.log"))


def logs_parent_killed(trials: int, seed: int = 0) -> Outcome:
    """``logs migrate -j 2`` of a 12.8 MB log, SIGKILLed at a random moment: no worker lives on."""
    outcome = Outcome("logs-parent-killed", "SIGKILL to `logs migrate -j 2`: its workers must die with it")
    if not os.path.isdir("/proc"):
        return outcome.skip("the workers are found through /proc")
    rng = _rng(seed, "logs-parent-killed")
    log = SAMPLE.read_bytes() * LOG_COPIES
    with _workspace("logs-killed") as root:

        def setup(directory: Path) -> list[str]:
            (directory / "in.log").write_bytes(log)
            return _log_argv(directory)

        def once() -> float:
            directory = root / "calibrate"
            shutil.rmtree(directory, ignore_errors=True)
            directory.mkdir()
            started = time.monotonic()
            status = _wait(_start(setup(directory), directory, directory / "err"))
            if status != 0:
                raise RuntimeError(f"logs migrate -j 2 ended {status}: {(directory / 'err').read_text()[-500:]}")
            return time.monotonic() - started

        run_seconds = _calibrate(once)
        outcome.measured.update(run_seconds=round(run_seconds, 3), log_bytes=len(log))
        for _ in range(trials):
            _parent_killed(outcome, rng, root, run_seconds, setup)
    return outcome


# ------------------------------------------------------------------------------- interrupted


# When a signal is sent: a delay from the start, or from the moment the first worker runs, or from
# the moment the last file the run changes is written (its workers then wait for work, or end).
_FROM = ("the start", "the first worker", "the last write")


def _wait_for(process: subprocess.Popen[bytes], moment: str, tree: Path, made: _Tree) -> None:
    if moment == "the first worker":
        while process.poll() is None and len(_session(process.pid)) < 2:
            time.sleep(0.002)
    elif moment == "the last write":
        last = max(name for name in made.originals if made.fixed[name] != made.originals[name])
        while process.poll() is None and (tree / last).read_bytes() != made.fixed[last]:
            time.sleep(0.002)


def _interrupted(outcome: Outcome, root: Path, made: _Tree, signum: int, moment: str, delay: float) -> None:
    """One trial: ``fix --write -j 2`` over a fresh tree, ``signum`` to its process group
    ``delay`` seconds after ``moment`` (one of :data:`_FROM`)."""
    trial = outcome.trials
    outcome.trials += 1
    directory = _trial_dir(root, trial)
    (directory / "tree").mkdir()
    _plant(directory / "tree")
    process = _start(_fix_argv(directory / "tree"), directory, directory / "err")
    _wait_for(process, moment, directory / "tree", made)
    time.sleep(delay)
    try:
        os.killpg(process.pid, signum)
    except ProcessLookupError:
        pass  # the command and its workers were all gone
    status = _wait(process)
    left = _survivors(process.pid)
    err = (directory / "err").read_text(errors="replace")
    state, problems = _tree_state(directory / "tree", made)
    name = signal.Signals(signum).name
    when = f"{name} {delay:.2f} s after {moment}"
    said = err.strip()[-300:]
    if status is None:
        outcome.violate(trial, f"{when}: hung ({TIMEOUT:.0f} s); stderr {said!r}")
        return
    if left:
        problems.append(f"{len(left)} workers alive {GRACE:.0f} s after the command ended")
    if any(word in err for word in UNCAUGHT) or len(err.splitlines()) > 1:
        problems.append(f"stderr {said!r}")
    # A signal's default action ends a process that has no handler of it yet: Python sets its
    # own of Ctrl-C as it starts, targetlang its own of SIGTERM in main(). Once the run is over,
    # SIGTERM's handler is gone again, while Python's of Ctrl-C stays: death by SIGINT then is
    # a KeyboardInterrupt that escaped.
    if status == made.status and state == "fixed":
        kind = "finished first"
    elif status == 128 + signum:
        kind = f"exit {status}, the tree {state}"
    elif status == -signum and state == "original" and not err:
        kind = f"ended by {name} before a handler of it was set (at start-up)"
    elif status == -signum != -signal.SIGINT and state == "fixed" and not err:
        kind = f"ended by {name} after the run, its handler gone"
    else:
        problems.append(f"exit {status} with the tree {state}")
        kind = ""
    if problems:
        outcome.violate(trial, f"{when}: {'; '.join(problems)}")
        return
    outcome.count(f"{name} after {moment}: {kind}")


def fix_group_interrupt(trials: int, seed: int = 0) -> Outcome:
    """SIGINT or SIGTERM (drawn from the seed) to the process group of ``fix --write -j 2`` over
    a tree of 96 files: in half the trials at U(0, 1.1) x its run, in a quarter U(0, 0.1) s after
    its first worker runs, in a quarter U(0, 0.2) s after it writes the last file it changes."""
    outcome = Outcome("fix-group-interrupt", "SIGINT or SIGTERM to the process group of `fix --write -j 2`")
    if not os.path.isdir("/proc"):
        return outcome.skip("the workers are found through /proc")
    rng = _rng(seed, "fix-group-interrupt")
    with _workspace("fix-interrupt") as root:
        made = _tree(root)
        outcome.measured.update(run_seconds=round(made.seconds, 3), files=len(made.originals))
        for _ in range(trials):
            signum = rng.choice([signal.SIGINT, signal.SIGTERM])
            moment = rng.choice(_FROM[:1] * 2 + _FROM[1:])
            longest = {"the start": 1.1 * made.seconds, "the first worker": 0.1, "the last write": 0.2}[moment]
            delay = rng.uniform(0, longest)
            _interrupted(outcome, root, made, signum, moment, delay)
    return outcome


def fix_startup_interrupt(trials: int, seed: int = 0) -> Outcome:
    """SIGINT to the process group of ``fix --write -j 2`` in its first 0.05 - 0.5 s."""
    outcome = Outcome("fix-startup-interrupt", "SIGINT to `fix --write -j 2` in its first 0.05 - 0.5 s")
    if not os.path.isdir("/proc"):
        return outcome.skip("the workers are found through /proc")
    rng = _rng(seed, "fix-startup-interrupt")
    with _workspace("fix-startup") as root:
        made = _tree(root)
        outcome.measured.update(run_seconds=round(made.seconds, 3), delays="U(0.05, 0.5) s")
        for _ in range(trials):
            _interrupted(outcome, root, made, signal.SIGINT, "the start", rng.uniform(0.05, 0.5))
    return outcome


ATTACKS: dict[str, Callable[[int, int], Outcome]] = {
    "fix-parent-killed": fix_parent_killed,
    "logs-parent-killed": logs_parent_killed,
    "fix-group-interrupt": fix_group_interrupt,
    "fix-startup-interrupt": fix_startup_interrupt,
}
SUITE_TRIALS: dict[str, int] = {
    "fix-parent-killed": 2,
    "logs-parent-killed": 2,
    "fix-group-interrupt": 4,
    "fix-startup-interrupt": 3,
}
