"""Attacks on the rewriting of files by ``targetlang logs migrate -o OUT`` and ``--in-place``,
and (in this package's modules) on the other tools.

Each attack runs ``trials`` trials with real processes (``python -m targetlang logs migrate ...``,
or the CLI's ``main`` in a child process that first sets a limit, a patch or a signal) against a
temporary directory, checks the invariants after every trial, and returns an :class:`Outcome`:
the trials, the outcomes by kind, what it measured, and the violations (each a sentence naming
the trial). ``python -m tests.attacks --trials N [--seed S]`` runs them all and prints each one's
outcomes (docs/reliability.md has a run's figures); ``tests/test_attacks.py`` runs each with a few
trials.

The trials' parameters (delays, limits, umasks, depths, the order of the runs) are drawn from the
seed, so a seed gives the same trials; where a signal lands in a process, or which of two
processes takes a lock first, is the machine's doing. Delays are fractions of a run's duration,
measured at the start of each attack (``measured["run_seconds"]``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import targetlang

__all__ = ["ATTACKS", "SUITE_TRIALS", "Outcome", "main", "run_attack"]

# The targetlang under attack is the one this process imports: children get it first on their path.
ROOT = Path(targetlang.__file__).resolve().parent.parent
LOGS = Path(__file__).resolve().parent.parent / "data" / "corpus" / "logs" / "autotvm"
SAMPLE = LOGS / "tophub_arm_cpu_v0.01.log"  # 314 records, each of which migration changes
SMALL = LOGS / "tophub_llvm_v0.04.log"  # 37 records
# The log the signals are sent to: 16 copies of SAMPLE (3.2 MB), so that the rewriting takes about as
# long as Python's start-up and targetlang's imports, and a signal at a random moment lands in it often.
SIGNAL_COPIES = 16
TIMEOUT = 120.0  # no run of these takes more than a few seconds: past this it hangs
RECURSION_WORDS = ("RecursionError", "recursion", "internal error", "Traceback")


@dataclass
class Outcome:
    """What one attack did: its trials, their outcomes by kind, and every invariant violated."""

    name: str
    what: str
    trials: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    violations: list[str] = field(default_factory=list)
    measured: dict[str, Any] = field(default_factory=dict)
    skipped: str | None = None
    seconds: float = 0.0

    def count(self, kind: str) -> None:
        self.kinds[kind] += 1

    def violate(self, trial: int, what: str) -> None:
        self.violations.append(f"trial {trial}: {what}")

    def skip(self, reason: str) -> Outcome:
        self.skipped = reason
        return self

    def to_json(self) -> dict[str, Any]:
        return {
            "attack": self.name,
            "what": self.what,
            "trials": self.trials,
            "outcomes": dict(self.kinds.most_common()),
            "violations": self.violations,
            "measured": self.measured,
            "skipped": self.skipped,
            "seconds": round(self.seconds, 1),
        }

    def human(self) -> str:
        if self.skipped is not None:
            return f"{self.name}: skipped: {self.skipped}"
        kinds = "; ".join(f"{count} {kind}" for kind, count in self.kinds.most_common())
        head = f"{self.name}: {self.trials} trials ({self.seconds:.0f} s): {kinds}; {len(self.violations)} violations"
        return "\n".join([head, *(f"  VIOLATION {v}" for v in self.violations)])


# ------------------------------------------------------------------------------- helpers


def _rng(seed: int, attack: str) -> random.Random:
    return random.Random(f"{seed}:{attack}")  # a str seed is hashed the same way on every run


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    env.pop("PYTHONWARNINGS", None)
    env["PYTHONFAULTHANDLER"] = "1"  # a child that crashes says where
    return env


def _cli(*argv: str) -> list[str]:
    return [sys.executable, "-m", "targetlang", *argv]


def _script(source: str, *argv: str) -> list[str]:
    """A child process that runs ``source`` (which ends by calling the CLI's main) with ``argv``."""
    return [sys.executable, "-c", source, *argv]


@dataclass
class Done:
    status: int
    err: str
    seconds: float
    hung: bool = False


def _finish(process: subprocess.Popen[bytes], started: float, timeout: float = TIMEOUT) -> Done:
    try:
        _, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        _, err = process.communicate()
        return Done(process.returncode, err.decode("utf-8", "replace"), time.monotonic() - started, hung=True)
    return Done(process.returncode, (err or b"").decode("utf-8", "replace"), time.monotonic() - started)


def _start(
    command: list[str],
    cwd: Path | None = None,
    stdin: int | None = subprocess.DEVNULL,
    stdout: int | None = subprocess.DEVNULL,
    **kw: Any,
) -> Any:
    return subprocess.Popen(command, stdin=stdin, stdout=stdout, stderr=subprocess.PIPE, cwd=cwd, env=_env(), **kw)


def _run(command: list[str], cwd: Path | None = None, timeout: float = TIMEOUT, **kw: Any) -> Done:
    started = time.monotonic()
    return _finish(_start(command, cwd, **kw), started, timeout)


@contextlib.contextmanager
def _workspace(name: str) -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix=f"targetlang-attack-{name}-") as directory:
        yield Path(directory)


def _trial_dir(root: Path, trial: int) -> Path:
    """A new directory for the trial; the last trial's goes (a big log per trial adds up)."""
    for old in root.glob("trial-*"):
        shutil.rmtree(old)
    directory = root / f"trial-{trial}"
    directory.mkdir()
    return directory


def _temporaries(*directories: Path) -> list[str]:
    """Temporary files (of ours or anyone's) left in ``directories``."""
    return sorted(p.name for d in directories if d.is_dir() for p in d.iterdir() if p.name.endswith(".tmp"))


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


_TEXTS: dict[tuple[Path, int], tuple[bytes, bytes]] = {}


def _texts(source: Path = SAMPLE, copies: int = 1) -> tuple[bytes, bytes]:
    """A log of ``copies`` copies of ``source`` and its migrated text, as ``-o`` writes it."""
    key = (source, copies)
    if key not in _TEXTS:
        original = source.read_bytes() * copies
        with _workspace("texts") as directory:
            (directory / "in.log").write_bytes(original)
            done = _run(_cli("logs", "migrate", "in.log", "-o", "out.log"), cwd=directory)
            migrated = _read(directory / "out.log")
        if done.status != 0 or migrated is None or migrated == original:
            raise RuntimeError(f"the sample log does not migrate: {done.err}")
        _TEXTS[key] = (original, migrated)
    return _TEXTS[key]


def _describe(data: bytes | None, **known: bytes) -> str:
    if data is None:
        return "missing"
    for name, text in known.items():
        if data == text:
            return name
    for name, text in known.items():
        if text.startswith(data):
            return f"the first {len(data)} of {len(text)} bytes of {name}"
    return f"{len(data)} bytes, none of {', '.join(known)}"


def _check_in_place(
    outcome: Outcome, trial: int, log: Path, original: bytes, migrated: bytes, backup: bool = True
) -> str | None:
    """The invariants of a log after ``--in-place`` runs: the log is the original or the migrated
    text, whole; FILE.bak, if there, is the original (there whenever the log is migrated); no
    temporary file. Returns "original" or "migrated", or None after reporting a violation."""
    now = _read(log)
    bak = Path(str(log) + ".bak")
    old = _read(bak)
    state = "original" if now == original else "migrated" if now == migrated else None
    ok = True
    if state is None:
        outcome.violate(trial, f"the log is {_describe(now, original=original, migrated=migrated)}")
        ok = False
    if bak.is_symlink() or (old is not None and old != original):
        outcome.violate(trial, f"FILE.bak is {_describe(old, original=original, migrated=migrated)}")
        ok = False
    if backup and state == "migrated" and old is None:
        outcome.violate(trial, "the log was migrated and the original is nowhere (no FILE.bak)")
        ok = False
    if not backup and old is not None:
        outcome.violate(trial, "--no-backup left a FILE.bak")
        ok = False
    left = _temporaries(log.parent)
    if left:
        outcome.violate(trial, f"temporary files left: {left}")
        ok = False
    return state if ok else None


def _calibrated_in_place(root: Path, original: bytes) -> float:
    """How long one `--in-place` run of ``original`` takes here (see :func:`_calibrate`)."""
    log = root / "calibrate" / "tune.log"
    log.parent.mkdir()

    def once() -> float:
        log.write_bytes(original)
        waiting = _waiting_cli("logs", "migrate", "--in-place", str(log))
        waiting.ready()
        waiting.go()
        return waiting.finish().seconds

    return _calibrate(once)


# Runs a calibration takes, the shortest counting (a loaded machine is slow now and then); the test
# suite's one trial an attack needs only a rough duration, and takes one.
CALIBRATIONS = 2


def _calibrate(run: Callable[[], float], times: int | None = None) -> float:
    """The shortest of ``times`` (:data:`CALIBRATIONS`) runs' durations."""
    return min(run() for _ in range(CALIBRATIONS if times is None else times))


def _changed(err: str) -> int | None:
    """The count of changed records in a run's summary line, or None without one."""
    found = re.search(r"\d+ records?, (\d+) changed", err)
    return int(found.group(1)) if found else None


# Two processes are to start "together": the CLI's start-up (Python and targetlang's imports) takes
# tenths of a second and varies by tens of milliseconds, so each child imports the CLI, then waits
# for one byte on its standard input (having said "ready" on its standard output), and the harness
# sends the byte to each at the moment it wants.
_AT_THE_SIGNAL = """\
import sys
from targetlang._cli import main
print("ready", flush=True)
sys.stdin.buffer.read(1)
raise SystemExit(main(sys.argv[1:]))
"""


class _Waiting:
    """A child started and imported, waiting for :meth:`go`."""

    def __init__(self, command: list[str], cwd: Path | None = None) -> None:
        self.process = _start(command, cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.started = time.monotonic()

    def ready(self) -> None:
        """Wait until the child has started (or ended: then :meth:`finish` says how)."""
        assert self.process.stdout is not None
        self.process.stdout.readline()

    def go(self) -> None:
        assert self.process.stdin is not None
        self.started = time.monotonic()
        with contextlib.suppress(BrokenPipeError):
            self.process.stdin.write(b"g")
            self.process.stdin.close()
        self.process.stdin = None  # closed: communicate() has nothing more to send

    def finish(self) -> Done:
        return _finish(self.process, self.started)


def _waiting_cli(*argv: str, cwd: Path | None = None) -> _Waiting:
    return _Waiting(_script(_AT_THE_SIGNAL, *argv), cwd)


# ------------------------------------------------------------------------------- race


def race(trials: int, seed: int = 0) -> Outcome:
    """Two ``--in-place`` runs on one log, started together (or one a random moment after the
    other, in half the trials). Allowed: one refuses ("another run is rewriting it") and the
    other migrates; or the second starts once the first is done and finds nothing to change; or
    both refuse, the log left as it was. Always: FILE the migrated text (or the original if both
    refused), FILE.bak the original and never the migrated text, no temporary file."""
    outcome = Outcome("race", "two `--in-place` runs on one log at once")
    try:
        import fcntl  # noqa: F401
    except ImportError:
        return outcome.skip("no flock on this system: AtomicFile has only its check before the rename")
    original, migrated = _texts()
    rng = _rng(seed, "race")
    with _workspace("race") as root:
        run_seconds = _calibrated_in_place(root, original)
        outcome.measured.update(run_seconds=round(run_seconds, 3), stagger="0 or U(0, 1.2) x run_seconds")
        for trial in range(trials):
            outcome.trials += 1
            log = _trial_dir(root, trial) / "tune.log"
            log.write_bytes(original)
            stagger = 0.0 if rng.random() < 0.5 else rng.uniform(0, 1.2) * run_seconds
            runs = [_waiting_cli("logs", "migrate", "--in-place", str(log)) for _ in range(2)]
            for run in runs:
                run.ready()
            runs[0].go()
            time.sleep(stagger)
            runs[1].go()
            done = [run.finish() for run in runs]
            kind = _race_kind(outcome, trial, done, str(log))
            state = _check_in_place(outcome, trial, log, original, migrated)
            if kind is None or state is None:
                continue
            if (state == "original") != (kind == "both refused"):
                outcome.violate(trial, f"{kind}, and the log is the {state} text")
                continue
            outcome.count(kind)
    return outcome


# How a run that finds its log changed by another writer refuses: its identity (size, times)
# changed while it was rewritten, or, the change landing between the read and the first look at
# it, its bytes differ from those read (targetlang/_atomic_file.py)
_CHANGED_MEANWHILE = ("it changed while it was rewritten", "its bytes changed since they were read")


def _race_kind(outcome: Outcome, trial: int, done: list[Done], name: str) -> str | None:
    refusals = {
        "another run is rewriting it": "refused: another run is rewriting it",
        **{words: "refused: it changed meanwhile" for words in _CHANGED_MEANWHILE},
    }
    kinds = []
    for one in done:
        if one.hung:
            outcome.violate(trial, "a run hung")
            return None
        if one.status == 0:
            changed = _changed(one.err)
            kinds.append("migrated" if changed else "nothing to change" if changed == 0 else "?")
            continue
        why = [kind for words, kind in refusals.items() if words in one.err and name in one.err]
        if one.status != 1 or not why:
            outcome.violate(trial, f"a run ended {one.status} without the refusal's message: {one.err.strip()!r}")
            return None
        kinds.append(why[0])
    kinds.sort()
    if kinds == ["migrated", "nothing to change"]:
        return "one after the other: the second found nothing to change"
    if len(kinds) == 2 and kinds[0] == "migrated" and kinds[1].startswith("refused"):
        return f"one migrated, the other {kinds[1]}"
    if all(kind.startswith("refused") for kind in kinds):
        return "both refused"
    outcome.violate(trial, f"the runs ended as {kinds}")
    return None


# ------------------------------------------------------------------------------- append

# A writer appending records as AutoTVM's log_to_file does: open, write one line, close.
_APPENDER = """\
import sys, time
path, schedule = sys.argv[1], sys.argv[2]
lines = open(schedule, "rb").read().splitlines(keepends=True)
delays = [float(d) for d in sys.argv[3:]]
print("ready", flush=True)
sys.stdin.buffer.read(1)
start = time.monotonic()
for delay, line in zip(delays, lines):
    time.sleep(max(0.0, start + delay - time.monotonic()))
    with open(path, "ab") as out:
        out.write(line)
"""


def append(trials: int, seed: int = 0) -> Outcome:
    """A writer appends 1 - 4 records (open, write a line, close) at random moments while an
    ``--in-place`` run rewrites the log. Every appended record must still be in FILE: either the
    run renamed first (FILE = migrated text + the records; records appended before it read the log
    are migrated with it, and unchanged by it) or it refused, saying the log changed meanwhile
    (FILE = original + the records, no FILE.bak)."""
    outcome = Outcome("append", "a writer appends records while `--in-place` rewrites the log")
    original, migrated = _texts()
    template = json.loads(next(line for line in migrated.splitlines() if line.startswith(b"{")))
    rng = _rng(seed, "append")
    with _workspace("append") as root:
        run_seconds = _calibrated_in_place(root, original)
        _check_records_stay(root, template)
        outcome.measured.update(run_seconds=round(run_seconds, 3), delays="U(0, 1.3) x run_seconds", records_appended=0)
        for trial in range(trials):
            outcome.trials += 1
            directory = _trial_dir(root, trial)
            (directory / "log").mkdir()
            log = directory / "log" / "tune.log"
            log.write_bytes(original)
            lines = [_appended(template, trial, i) for i in range(rng.randint(1, 4))]
            outcome.measured["records_appended"] += len(lines)
            (directory / "appends").write_bytes(b"".join(lines))
            delays = sorted(rng.uniform(0, 1.3) * run_seconds for _ in lines)
            writer = _Waiting(_script(_APPENDER, str(log), str(directory / "appends"), *map(str, delays)))
            run = _waiting_cli("logs", "migrate", "--in-place", str(log))
            writer.ready()
            run.ready()
            writer.go()
            run.go()
            done, wrote = run.finish(), writer.finish()
            if done.hung or wrote.hung or wrote.status != 0:
                outcome.violate(trial, f"a process hung or failed: {done.err.strip()!r} {wrote.err.strip()!r}")
                continue
            _append_trial(outcome, trial, log, original, migrated, lines, done)
    return outcome


def _appended(template: dict[str, Any], trial: int, i: int) -> bytes:
    """A record of the migrated log with its own time stamp (AutoTVM v0.1's "r": [costs, error,
    all cost, time stamp]): each appended line is one of a kind."""
    record = dict(template, r=[*template["r"][:3], 2_000_000_000 + 10 * trial + i])
    return (json.dumps(record) + "\n").encode()


def _check_records_stay(root: Path, template: dict[str, Any]) -> None:
    """The records the writer appends are ones migration leaves as they are (else the check of
    FILE could not look for them byte for byte)."""
    sample = root / "stay.log"
    sample.write_bytes(_appended(template, 0, 0))
    done = _run(_cli("logs", "migrate", "--check", str(sample)))
    if done.status != 0:
        raise RuntimeError(f"the appended records would change: {done.err}")


def _append_trial(
    outcome: Outcome, trial: int, log: Path, original: bytes, migrated: bytes, lines: list[bytes], done: Done
) -> None:
    now = _read(log) or b""
    old = _read(Path(str(log) + ".bak"))
    vanished = [i for i, line in enumerate(lines) if line not in now]
    if vanished:
        where = "in FILE.bak" if old is not None and all(lines[i] in old for i in vanished) else "nowhere"
        outcome.violate(trial, f"appended records {vanished} of {len(lines)} vanished from FILE (they are {where})")
        return
    left = _temporaries(log.parent)
    if left:
        outcome.violate(trial, f"temporary files left: {left}")
        return
    appended = b"".join(lines)
    if done.status == 0:
        before = [j for j in range(len(lines) + 1) if old == original + b"".join(lines[:j])]
        if now != migrated + appended or not before:
            outcome.violate(trial, f"the run succeeded; FILE is {len(now)} bytes, FILE.bak {_describe(old)}")
            return
        j = before[0]
        outcome.count(
            "renamed first, every record appended after it"
            if j == 0
            else "every record appended before it read the log (migrated with it)"
            if j == len(lines)
            else "some records appended before it read the log, the rest after the rename"
        )
    elif done.status == 1 and any(words in done.err for words in _CHANGED_MEANWHILE) and str(log) in done.err:
        if now != original + appended or old is not None:
            outcome.violate(trial, f"refused, but FILE is {len(now)} bytes, FILE.bak {_describe(old)}")
            return
        outcome.count("refused: the log changed meanwhile")
    else:
        outcome.violate(trial, f"the run ended {done.status}: {done.err.strip()[-300:]!r}")


# ------------------------------------------------------------------------------- signals


def sigkill(trials: int, seed: int = 0) -> Outcome:
    """``--in-place`` sent SIGKILL a random moment after it starts, then a second run to its end.
    After the kill the log is the original or the migrated text, whole; after the second run it
    is migrated, FILE.bak is the original, and no temporary file of ours is left."""
    outcome = Outcome("sigkill", "SIGKILL at a random moment, then a second `--in-place` run")
    original, migrated = _texts(copies=SIGNAL_COPIES)
    rng = _rng(seed, "sigkill")
    with _workspace("sigkill") as root:
        run_seconds = _calibrate(lambda: _calibration_run(root, original))
        outcome.measured.update(run_seconds=round(run_seconds, 3), delays="U(0, 1.1) x run_seconds")
        for trial in range(trials):
            outcome.trials += 1
            log = _trial_dir(root, trial) / "tune.log"
            log.write_bytes(original)
            delay = rng.uniform(0, 1.1) * run_seconds
            process = _start(_cli("logs", "migrate", "--in-place", str(log)))
            started = time.monotonic()
            time.sleep(delay)
            process.send_signal(signal.SIGKILL)
            first = _finish(process, started)
            left = _temporaries(log.parent)
            now, old = _read(log), _read(Path(str(log) + ".bak"))
            if now not in (original, migrated) or old not in (None, original):
                what = f"{_describe(now, original=original, migrated=migrated)}, FILE.bak {_describe(old)}"
                outcome.violate(trial, f"after the kill the log is {what}")
                continue
            if first.status == 0:
                kind = "finished before the kill"
            elif now == migrated:
                kind = "killed after the rename"
            elif any(re.fullmatch(r"\.tune\.log\.bak\.[0-9a-f]{16}\.tmp", name) for name in left):
                kind = "killed while making the backup (its temporary file left)"
            elif left:
                kind = "killed while writing (its temporary file left)"
            else:
                kind = "killed before it began writing"
            second = _run(_cli("logs", "migrate", "--in-place", str(log)))
            if second.status != 0:
                outcome.violate(trial, f"the second run ended {second.status}: {second.err.strip()[-300:]!r}")
                continue
            if _check_in_place(outcome, trial, log, original, migrated) != "migrated":
                outcome.violate(trial, "after the second run the log is not migrated")
                continue
            outcome.count(kind)
    return outcome


def _calibration_run(root: Path, original: bytes) -> float:
    log = root / "calibrate.log"
    log.write_bytes(original)
    seconds = _run(_cli("logs", "migrate", "--in-place", "--no-backup", str(log))).seconds
    log.unlink()
    return seconds


def _signalled(name: str, signum: int, trials: int, seed: int) -> Outcome:
    outcome = Outcome(name.lower(), f"{name} at a random moment of an `--in-place` run")
    original, migrated = _texts(copies=SIGNAL_COPIES)
    rng = _rng(seed, name)
    with _workspace(name.lower()) as root:
        run_seconds = _calibrate(lambda: _calibration_run(root, original))
        outcome.measured.update(run_seconds=round(run_seconds, 3), delays="U(0, 1.1) x run_seconds")
        for trial in range(trials):
            outcome.trials += 1
            log = _trial_dir(root, trial) / "tune.log"
            log.write_bytes(original)
            delay = rng.uniform(0, 1.1) * run_seconds
            process = _start(_cli("logs", "migrate", "--in-place", str(log)), preexec_fn=_default_signal(signum))
            started = time.monotonic()
            time.sleep(delay)
            with contextlib.suppress(ProcessLookupError):
                process.send_signal(signum)
            done = _finish(process, started)
            state = _check_in_place(outcome, trial, log, original, migrated)
            if state is None:
                continue
            if done.status == 0 and state == "migrated":
                outcome.count("finished first")
            elif done.status == 128 + signum:
                outcome.count(f"exit {128 + signum}, the log {state} (the signal came {_when(state)})")
            elif done.status == -signum and state == "original":
                # Python's default action: the signal came before main() set its handler.
                outcome.count("ended by the signal before targetlang's handler was set (at start-up)")
            elif done.status == -signum:
                outcome.count("ended by the signal after the run, its handler gone")
            else:
                outcome.violate(trial, f"exit {done.status} with the log {state}: {_diagnosis(done)}")
    return outcome


# Faults of start-up the signal attacks found, outside the rewriting (no file was touched yet),
# named when seen again. The command holds these signals while it imports its modules
# (_signals.signals_held); the first came back once the logs commands imported theirs after that
# (targetlang.logs made lazy), and tests/test_signals.py now holds every command to it. Each is a
# violation.
STARTUP_FAULTS: dict[str, Callable[[Done], bool]] = {
    # orjson 3.13 under CPython 3.11: an exception raised by a signal handler while its module
    # initialises crashes the process (Ctrl-C does it too, with Python's own handler).
    "orjson's import crashed (SIGSEGV)": lambda done: done.status == -signal.SIGSEGV and "orjson" in done.err,
    # CPython 3.11 wraps an exception raised in __set_name__ (a dataclass field being made as a
    # module is imported) in RuntimeError: the signal is reported as an internal error, exit 1.
    "the signal became RuntimeError in a class's creation (internal error, exit 1)": lambda done: (
        done.status == 1 and "Error calling __set_name__" in done.err
    ),
}


def _diagnosis(done: Done) -> str:
    for fault, found in STARTUP_FAULTS.items():
        if found(done):
            return fault
    return repr(done.err.strip()[-300:])


def _default_signal(signum: int) -> Callable[[], None]:
    """For the child, the signal's default action whatever the harness inherited: under nohup
    SIGHUP is ignored, and so it would be in the child until targetlang sets its handler."""

    def reset() -> None:
        signal.signal(signum, signal.SIG_DFL)

    return reset


def _when(state: str) -> str:
    return "before the rename" if state == "original" else "after the rename"


def sigterm(trials: int, seed: int = 0) -> Outcome:
    """SIGTERM at a random moment: exit 143 (or 0 if the run finished first), no temporary file,
    the log the original or the migrated text, FILE.bak the original."""
    return _signalled("SIGTERM", signal.SIGTERM, trials, seed)


def sighup(trials: int, seed: int = 0) -> Outcome:
    """SIGHUP at a random moment: as SIGTERM, exit 129."""
    if not hasattr(signal, "SIGHUP"):
        return Outcome("sighup", "SIGHUP at a random moment").skip("no SIGHUP on this system")
    return _signalled("SIGHUP", signal.SIGHUP, trials, seed)


# In a child: SIGTERM sent to itself right after the N-th call AtomicFile makes to the system (os,
# tempfile, shutil, fcntl), so that the signal lands between every two steps of the rewriting.
_STEPPED = """\
import os, shutil, signal, sys, tempfile
import targetlang._atomic_file as output
from targetlang._cli import main
stop_at, no_links, argv = int(sys.argv[1]), sys.argv[2] == "copy", sys.argv[3:]
here = output.__file__
calls = []
if no_links:
    def link(*args, **kwargs):
        raise OSError(18, "Invalid cross-device link")
    os.link = link
def wrap(module, name):
    real = getattr(module, name)
    def wrapper(*args, **kwargs):
        ours = sys._getframe(1).f_code.co_filename == here
        try:
            return real(*args, **kwargs)
        finally:
            if ours:
                calls.append(name)
                if len(calls) == stop_at:
                    os.kill(os.getpid(), signal.SIGTERM)
    setattr(module, name, wrapper)
for name in ("stat", "open", "close", "fsync", "link", "replace", "unlink", "fchmod", "fchown", "fstat", "pread",
             "utime", "listxattr", "getxattr", "setxattr", "fdopen", "scandir", "getuid"):
    wrap(os, name)
try:
    import fcntl
    wrap(fcntl, "flock")
except ImportError:
    pass
status = main(argv)
print(" ".join(calls))
sys.stdout.flush()
raise SystemExit(status)
"""

_STEP_MODES = {
    "--in-place": ("link", ["--in-place"]),
    "--in-place, backup copied (no hard links)": ("copy", ["--in-place"]),
    "--in-place --no-backup": ("link", ["--in-place", "--no-backup"]),
    "-o a new file": ("link", ["-o", "out.log"]),
    "-o an existing file": ("link", ["-o", "out.log"]),
}


def steps(trials: int, seed: int = 0) -> Outcome:
    """SIGTERM right after each call AtomicFile makes to the system (stat, open, the lock, the
    temporary file, fsync, chmod, the backup's link or copy, the renames, unlink), in each way of
    writing: the places a signal at a random moment seldom hits. Each trial is one (way, step),
    in a seeded order that goes through all of them before it repeats one. Exit 143, the file the
    old or the new text, FILE.bak the original, no temporary file."""
    outcome = Outcome("steps", "SIGTERM right after each system call of the rewriting")
    original, migrated = _texts(SMALL)
    other = b"# the file -o replaces\n"
    rng = _rng(seed, "steps")
    with _workspace("steps") as root:

        def setup(directory: Path, mode: str) -> None:
            (directory / "tune.log").write_bytes(original)
            if mode == "-o an existing file":
                (directory / "out.log").write_bytes(other)

        counts: dict[str, list[str]] = {}
        for mode, (links, argv) in _STEP_MODES.items():
            directory = root / f"count-{len(counts)}"
            directory.mkdir()
            setup(directory, mode)
            command = _script(_STEPPED, "0", links, "logs", "migrate", "tune.log", *argv)
            counted = subprocess.run(command, cwd=directory, env=_env(), capture_output=True, timeout=TIMEOUT)
            if counted.returncode != 0:
                raise RuntimeError(f"the counting run of {mode} failed: {counted.stderr.decode()}")
            counts[mode] = counted.stdout.decode().split()
        pairs = [(mode, step) for mode, calls in counts.items() for step in range(1, len(calls) + 1)]
        order: list[tuple[str, int]] = []
        outcome.measured.update(steps={mode: len(calls) for mode, calls in counts.items()})
        for trial in range(trials):
            outcome.trials += 1
            if not order:
                order = rng.sample(pairs, len(pairs))
            mode, step = order.pop()
            links, argv = _STEP_MODES[mode]
            directory = _trial_dir(root, trial)
            setup(directory, mode)
            command = _script(_STEPPED, str(step), links, "logs", "migrate", "tune.log", *argv)
            done = _run(command, cwd=directory)
            call = counts[mode][step - 1]
            where = f"{mode}, after step {step} ({call})"
            if done.status != 128 + signal.SIGTERM:
                outcome.violate(trial, f"{where}: exit {done.status}: {done.err.strip()[-300:]!r}")
                continue
            if mode.startswith("--in-place"):
                log = directory / "tune.log"
                state = _check_in_place(outcome, trial, log, original, migrated, backup="no-backup" not in mode)
                if state is None:
                    outcome.violations[-1] += f" ({where})"
                    continue
            else:
                out = _read(directory / "out.log")
                olds = (None, b"") if mode == "-o a new file" else (other,)
                left = _temporaries(directory)
                if (out not in olds and out != migrated) or left or _read(directory / "tune.log") != original:
                    outcome.violate(trial, f"{where}: out.log is {_describe(out)}, temporary files {left}")
                    continue
                state = "original" if out in olds else "migrated"
            outcome.count(f"exit 143, the file {state}")
    return outcome


# ------------------------------------------------------------------------------- full disk

# RLIMIT_FSIZE stands in for a full disk: a write past it fails with EFBIG (SIGXFSZ ignored, as a
# process that wants the error does).
_LIMITED = """\
import resource, signal, sys
sys.dont_write_bytecode = True
from targetlang._cli import main
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
limit = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
raise SystemExit(main(sys.argv[2:]))
"""


def _names(error: str, given: str) -> bool:
    """Whether a failed migration's error names the file given: the output after the input's name
    (``cannot migrate IN: REASON (OUT)``), or, migrated in place, the one file named once."""
    return f"({given})" in error or f"cannot migrate {given}: " in error


def full_disk(trials: int, seed: int = 0) -> Outcome:
    """A file size limit (RLIMIT_FSIZE) drawn at random from 0 to a little past the migrated log's
    size, for ``--in-place`` and ``-o`` (a new file or an existing one), the file named as a
    relative path, an absolute one or through a symbolic link. A run the limit stops exits 1 with
    "File too large" and the name given; the file written is as it was (absent if it was new);
    no temporary file, no FILE.bak."""
    outcome = Outcome("full disk", "RLIMIT_FSIZE at a random limit (a full disk)")
    try:
        import resource  # noqa: F401
    except ImportError:
        return outcome.skip("no resource module (RLIMIT_FSIZE) on this system")
    original, migrated = _texts()
    other = b"# the file -o replaces\n"
    rng = _rng(seed, "full disk")
    outcome.measured.update(migrated_bytes=len(migrated), limits="0, size - 1, size, or U(0, 1.1 x size)")
    with _workspace("disk") as root:
        for trial in range(trials):
            outcome.trials += 1
            directory = _trial_dir(root, trial)
            limit = rng.choice([0, len(migrated) - 1, len(migrated), *[int(rng.uniform(0, 1.1) * len(migrated))] * 5])
            mode = rng.choice(["--in-place", "-o new", "-o existing"])
            naming = rng.choice(["relative", "absolute", "link"])
            (directory / "tune.log").write_bytes(original)
            target = "tune.log" if mode == "--in-place" else "out.log"
            if mode == "-o existing":
                (directory / "out.log").write_bytes(other)
            given = {"relative": target, "absolute": str(directory / target), "link": "link.log"}[naming]
            if naming == "link":
                os.symlink(target, directory / "link.log")
            argv = (
                ["logs", "migrate", "--in-place", given]
                if mode == "--in-place"
                else ["logs", "migrate", "tune.log", "-o", given]
            )
            done = _run(_script(_LIMITED, str(limit), *argv), cwd=directory)
            written = _read(directory / target)
            before = {"--in-place": original, "-o new": None, "-o existing": other}[mode]
            left = _temporaries(directory)
            backup = [p.name for p in directory.iterdir() if p.name.endswith(".bak")]
            where = f"{mode}, {naming} name, limit {limit} of {len(migrated)} bytes"
            if done.status == 0:
                if written != migrated or limit < len(migrated) or left:
                    outcome.violate(trial, f"{where}: exit 0, the file {_describe(written, migrated=migrated)}")
                    continue
                outcome.count("fit under the limit: written whole")
            elif done.status == 1 and "File too large" in done.err and _names(done.err, given):
                if written != before or left or backup:
                    outcome.violate(trial, f"{where}: failed, the file {_describe(written)}, left {backup + left}")
                    continue
                outcome.count("stopped (EFBIG), naming the file given; the file as it was, nothing left")
            else:
                outcome.violate(trial, f"{where}: exit {done.status}: {done.err.strip()[-300:]!r}")
    return outcome


# ------------------------------------------------------------------------------- symbolic link at FILE.bak

# Hard links fail (another file system, FAT, protected_hardlinks) and the backup is copied: the
# attacker puts a symbolic link at FILE.bak, before the run or in the window, to another file.
_NO_LINKS = """\
import contextlib, os, sys
from targetlang._cli import main
when, victim, backup, links = sys.argv[1:5]
real = os.link
def link(*args, **kwargs):
    if when == "in the window" and not os.path.islink(backup):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(backup)
        os.symlink(victim, backup)
    if links == "fail":
        raise OSError(18, "Invalid cross-device link")
    return real(*args, **kwargs)
os.link = link
raise SystemExit(main(sys.argv[5:]))
"""


def symlink(trials: int, seed: int = 0) -> Outcome:
    """A symbolic link at FILE.bak to a file elsewhere (another user's, root's), placed before the
    run or just as hard linking fails, or dangling (a name to create), or to the log itself. The
    file it names never changes (nor is a dangling one's made); FILE.bak ends a regular file
    holding the original; the log is migrated; no temporary file."""
    outcome = Outcome("symlink", "a symbolic link at FILE.bak while hard links fail")
    if not hasattr(os, "symlink"):
        return outcome.skip("no symbolic links on this system")
    original, migrated = _texts(SMALL)
    rng = _rng(seed, "symlink")
    with _workspace("symlink") as root:
        for trial in range(trials):
            outcome.trials += 1
            directory = _trial_dir(root, trial)
            (directory / "logs").mkdir()
            (directory / "elsewhere").mkdir()
            log = directory / "logs" / "tune.log"
            log.write_bytes(original)
            backup = Path(str(log) + ".bak")
            victim = directory / "elsewhere" / "precious"
            content = rng.randbytes(rng.randint(0, 64)) if hasattr(rng, "randbytes") else b"precious\n"
            victim.write_bytes(content)
            os.chmod(victim, 0o600)
            victim_stat = victim.stat()
            when = rng.choice(["in the window", "before the run", "before the run, links working", "dangling"])
            points_to = victim
            if when == "dangling":
                points_to = directory / "elsewhere" / "made"
                backup.symlink_to(points_to)
            elif when.startswith("before"):
                backup.symlink_to(victim if rng.random() < 0.8 else log)
                points_to = Path(os.readlink(backup))
            links = "work" if when == "before the run, links working" else "fail"
            argv = ["logs", "migrate", "--in-place", str(log)]
            done = _run(_script(_NO_LINKS, when, str(victim), str(backup), links, *argv))
            if done.status != 0:
                outcome.violate(trial, f"{when}: exit {done.status}: {done.err.strip()[-300:]!r}")
                continue
            after = victim.stat()
            if victim.read_bytes() != content or (after.st_ino, after.st_mode) != (
                victim_stat.st_ino,
                victim_stat.st_mode,
            ):
                outcome.violate(trial, f"{when}: the file the link named changed")
                continue
            if when == "dangling" and (directory / "elsewhere" / "made").exists():
                outcome.violate(trial, "the dangling link's file was created")
                continue
            if _check_in_place(outcome, trial, log, original, migrated) != "migrated" or backup.is_symlink():
                outcome.violate(trial, f"{when}: the log or FILE.bak is not as it should be")
                continue
            pointed = "the log itself" if points_to == log else "a dangling name" if when == "dangling" else "a file"
            outcome.count(f"link {when} to {pointed}: replaced, never followed")
    return outcome


# ------------------------------------------------------------------------------- FIFO


def fifo(trials: int, seed: int = 0) -> Outcome:
    """``--in-place`` on a FIFO (given as itself or through a symbolic link, alone or beside a
    regular log): refused at once (a timeout guards against a hang), exit 1, "not a regular file";
    the FIFO stays a FIFO; a regular log beside it is migrated."""
    outcome = Outcome("fifo", "`--in-place` on a FIFO")
    if not hasattr(os, "mkfifo"):
        return outcome.skip("no FIFOs on this system")
    original, migrated = _texts(SMALL)
    rng = _rng(seed, "fifo")
    with _workspace("fifo") as root:
        for trial in range(trials):
            outcome.trials += 1
            directory = _trial_dir(root, trial)
            pipe = directory / "tune.log"
            os.mkfifo(pipe)
            how = rng.choice(["the FIFO", "a symbolic link to the FIFO", "the FIFO and a regular log"])
            files = [str(pipe)]
            if how == "a symbolic link to the FIFO":
                (directory / "link.log").symlink_to(pipe)
                files = [str(directory / "link.log")]
            elif how == "the FIFO and a regular log":
                (directory / "other.log").write_bytes(original)
                files = (
                    [str(directory / "other.log"), str(pipe)]
                    if rng.random() < 0.5
                    else [str(pipe), str(directory / "other.log")]
                )
            done = _run(_cli("logs", "migrate", "--in-place", *files), timeout=30)
            if done.hung:
                outcome.violate(trial, f"{how}: hung (killed after 30 s)")
                continue
            refused = "not a regular file, which --in-place cannot replace" in done.err
            regular = _read(directory / "other.log")
            left = sorted(
                p.name
                for p in directory.iterdir()
                if p.name not in ("tune.log", "link.log", "other.log", "other.log.bak")
            )
            if done.status != 1 or not refused or not stat.S_ISFIFO(os.stat(pipe).st_mode) or left:
                outcome.violate(trial, f"{how}: exit {done.status}, left {left}: {done.err.strip()[-300:]!r}")
                continue
            if how == "the FIFO and a regular log" and regular != migrated:
                outcome.violate(trial, "the regular log beside the FIFO was not migrated")
                continue
            outcome.count(f"{how}: refused at once, exit 1")
    return outcome


# ------------------------------------------------------------------------------- umask

_UMASKS = [0o000, 0o002, 0o007, 0o022, 0o027, 0o037, 0o066, 0o077, 0o277]
_MODES = [0o400, 0o444, 0o600, 0o604, 0o640, 0o644, 0o660, 0o664, 0o666, 0o700, 0o755]


def umask(trials: int, seed: int = 0) -> Outcome:
    """Under a umask drawn from several: a new ``-o`` file has mode 0o666 & ~umask (as open()
    makes it), an existing ``-o`` file keeps its mode, and ``--in-place`` keeps the log's mode
    (drawn from several too), FILE.bak the old mode."""
    outcome = Outcome("umask", "the modes of files written under various umasks")
    original, migrated = _texts(SMALL)
    rng = _rng(seed, "umask")
    outcome.measured.update(umasks=[f"{u:03o}" for u in _UMASKS], modes=[f"{m:03o}" for m in _MODES])
    with _workspace("umask") as root:
        for trial in range(trials):
            outcome.trials += 1
            directory = _trial_dir(root, trial)
            mask, mode, existing = rng.choice(_UMASKS), rng.choice(_MODES), rng.choice(_MODES)
            for name in ("a.log", "b.log", "tune.log"):
                (directory / name).write_bytes(original)
            (directory / "out").mkdir()
            (directory / "out" / "b.log").write_bytes(b"# replaced\n")
            os.chmod(directory / "out" / "b.log", existing)
            os.chmod(directory / "tune.log", mode)
            first = _run(_cli("logs", "migrate", "a.log", "b.log", "-o", "out"), cwd=directory, umask=mask)
            second = _run(_cli("logs", "migrate", "--in-place", "tune.log"), cwd=directory, umask=mask)
            modes = {
                "new -o file": (directory / "out" / "a.log", 0o666 & ~mask),
                "existing -o file": (directory / "out" / "b.log", existing),
                "--in-place": (directory / "tune.log", mode),
                "FILE.bak": (directory / "tune.log.bak", mode),
            }
            if first.status or second.status:
                outcome.violate(trial, f"exit {first.status}, {second.status}: {(first.err + second.err)[-300:]!r}")
                continue
            wrong = {
                what: f"{stat.S_IMODE(path.stat().st_mode):03o}, not {want:03o}"
                for what, (path, want) in modes.items()
                if stat.S_IMODE(path.stat().st_mode) != want
            }
            texts = [
                _read(directory / "out" / "a.log"),
                _read(directory / "out" / "b.log"),
                _read(directory / "tune.log"),
            ]
            if wrong or texts != [migrated] * 3 or _temporaries(directory, directory / "out"):
                outcome.violate(trial, f"umask {mask:03o}, mode {mode:03o}, existing {existing:03o}: {wrong}")
                continue
            outcome.count("new file 0o666 & ~umask, existing files their mode")
    return outcome


# ------------------------------------------------------------------------------- deep registry


def _deep(kind: str, depth: int, rng: random.Random) -> tuple[str, str]:
    """A registry file (name, text) nesting ``depth`` levels deep in the way ``kind`` says."""
    if kind == "json":
        shape = rng.choice(["tag array", "tag object", "kinds", "top level"])
        opening, closing = ("[", "]") if shape != "tag object" and shape != "kinds" else ('{"a": ', "}")
        inner = opening * depth + ("1" if opening != "[" else "") + closing * depth
        if shape == "top level":
            return "r.json", '{"x": ' + inner + "}"
        if shape == "kinds":
            return "r.json", '{"kinds": {"npu": ' + inner + "}}"
        return "r.json", '{"tags": {"t": ' + inner + "}}"
    if kind == "toml":
        if rng.random() < 0.5:
            return "r.toml", '[tags.t]\nkind = "llvm"\nx = ' + "[" * depth + "]" * depth + "\n"
        return "r.toml", '[tags.t]\nkind = "llvm"\nx = ' + "{a = " * depth + "1" + "}" * depth + "\n"
    if rng.random() < 0.5:  # a tag's value: hosts of hosts
        host = '{"kind": "llvm", "host": ' * depth + '{"kind": "llvm"}' + "}" * depth
        return "r.json", '{"tags": {"t": ' + host + "}}"
    return "r.json", '{"tags": {"t": {"kind": "llvm", "mattr": ' + "[" * depth + "]" * depth + "}}}"


def deep_registry(trials: int, seed: int = 0) -> Outcome:
    """Registry files nesting deeply: JSON (10,000 levels, then 101 - 20,000), TOML (400, then
    101 - 2,000), a tag's value (500, then 101 - 3,000), read by ``targetlang.load_registry`` in
    this process and by ``targetlang --registry FILE parse llvm``: a RegistryError (a
    TargetError) whose message starts with the file's name, never a RecursionError; the CLI prints
    one error line and exits 1."""
    outcome = Outcome("deep registry", "registry files nested 10,000 (JSON), 400 (TOML), 500 (a tag) deep")
    rng = _rng(seed, "deep registry")
    firsts = [("json", 10_000), ("toml", 400), ("tag", 500)]
    ranges = {"json": (101, 20_000), "toml": (101, 2_000), "tag": (101, 3_000)}
    with _workspace("registry") as root:
        for trial in range(trials):
            outcome.trials += 1
            if trial < len(firsts):
                kind, depth = firsts[trial]
            else:
                kind = rng.choice(list(ranges))
                depth = rng.randint(*ranges[kind])
            name, text = _deep(kind, depth, rng)
            path = _trial_dir(root, trial) / name
            path.write_text(text)
            where = f"{kind}, {depth} deep"
            try:
                targetlang.load_registry(path)
            except targetlang.RegistryError as err:
                if not isinstance(err, targetlang.TargetError) or not str(err).startswith(str(path)):
                    outcome.violate(trial, f"{where}: {err!r}")
                    continue
            except RecursionError:
                outcome.violate(trial, f"{where}: RecursionError")
                continue
            except Exception as err:
                outcome.violate(trial, f"{where}: {type(err).__name__}: {err}")
                continue
            else:
                outcome.violate(trial, f"{where}: read without an error")
                continue
            done = _run(_cli("--registry", str(path), "parse", "llvm"))
            lines = done.err.splitlines()
            if (
                done.status != 1
                or len(lines) != 1
                or not lines[0].startswith(f"error: {path}: ")
                or any(w in done.err for w in RECURSION_WORDS)
            ):
                outcome.violate(trial, f"{where}: the CLI ended {done.status}: {done.err[-300:]!r}")
                continue
            outcome.count(f"{kind}: RegistryError naming the file; the CLI one line, exit 1")
    return outcome


# ------------------------------------------------------------------------------- running them

ATTACKS: dict[str, Callable[[int, int], Outcome]] = {
    "race": race,
    "append": append,
    "sigkill": sigkill,
    "sigterm": sigterm,
    "sighup": sighup,
    "steps": steps,
    "full-disk": full_disk,
    "symlink": symlink,
    "fifo": fifo,
    "umask": umask,
    "deep-registry": deep_registry,
}
# The trials each attack gets in the test suite (tests/test_attacks.py): a few, so that the whole
# file takes well under a minute on two cores. The harness itself runs hundreds.
SUITE_TRIALS: dict[str, int] = {
    "race": 3,
    "append": 3,
    "sigkill": 3,
    "sigterm": 3,
    "sighup": 2,
    "steps": 5,
    "full-disk": 4,
    "symlink": 4,
    "fifo": 3,
    "umask": 3,
    "deep-registry": 4,
}


def _gather() -> None:
    """Add the attacks of each module of this package: a module holds the attacks on one thing
    (``fix``'s rewriting, the limits of what is read, ...) with its own ``ATTACKS`` and
    ``SUITE_TRIALS``, built on the helpers above."""
    import importlib
    import pkgutil

    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        ATTACKS.update(module.ATTACKS)
        SUITE_TRIALS.update(module.SUITE_TRIALS)


_gather()


def run_attack(name: str, trials: int, seed: int = 0) -> Outcome:
    started = time.monotonic()
    outcome = ATTACKS[name](trials, seed)
    outcome.seconds = time.monotonic() - started
    return outcome


def _trials_argument(text: str) -> tuple[str | None, int]:
    name, _, count = text.rpartition("=")
    if name and name not in ATTACKS:
        raise argparse.ArgumentTypeError(f"no attack {name!r}: one of {', '.join(ATTACKS)}")
    try:
        return (name or None, int(count))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a count of trials: {count!r}") from None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.attacks",
        description="Attack the rewriting of logs by `targetlang logs migrate` and count what happens.",
    )
    parser.add_argument(
        "--trials",
        type=_trials_argument,
        action="append",
        default=[],
        metavar="[ATTACK=]N",
        help="trials per attack (default 10); ATTACK=N for one attack; repeatable",
    )
    parser.add_argument(
        "--ci",
        action="store_true",
        help="each attack as many trials as SUITE_TRIALS says (what CI runs; the test suite tries each once)",
    )
    parser.add_argument("--seed", type=int, default=0, help="the seed the trials are drawn from (default 0)")
    parser.add_argument("--only", choices=list(ATTACKS), action="append", help="run only this attack; repeatable")
    parser.add_argument("--json", metavar="FILE", help="also write each attack's outcome to FILE as JSON lines")
    args = parser.parse_args(argv)
    counts = dict(SUITE_TRIALS) if args.ci else {name: 10 for name in ATTACKS}
    for name, count in args.trials:
        for each in [name] if name else list(ATTACKS):
            counts[each] = count
    outcomes = []
    for name in args.only or list(ATTACKS):
        outcome = run_attack(name, counts[name], args.seed)
        outcomes.append(outcome)
        print(outcome.human(), flush=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            for outcome in outcomes:
                out.write(json.dumps(outcome.to_json()) + "\n")
    violated = sum(len(outcome.violations) for outcome in outcomes)
    print(f"{sum(o.trials for o in outcomes)} trials, {violated} violations")
    return 1 if violated else 0
