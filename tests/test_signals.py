"""``signals_held``: Ctrl-C, SIGTERM and SIGHUP wait for the end of the block, then arrive."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from targetlang._signals import STOPS, signals_held

pytestmark = pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="signals cannot be held here")


def test_the_stops_are_the_three_that_stop_a_command() -> None:
    assert STOPS == {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}


# In a process of its own: the test runner's threads (pytest-xdist's) let the signals in.
_HELD_STOP = """
import os, signal
from targetlang._signals import signals_held
arrived = []
signal.signal(signal.SIGHUP, lambda signum, frame: arrived.append(signum))
with signals_held():
    os.kill(os.getpid(), signal.SIGHUP)
    for _ in range(1000):  # the handler would run here, between bytecodes, were it not held
        pass
    print(arrived, signal.SIGHUP in signal.sigpending())
print(arrived, signal.SIGHUP in signal.pthread_sigmask(signal.SIG_BLOCK, []))
"""


def test_a_stop_sent_in_the_block_arrives_when_it_ends() -> None:
    done = subprocess.run([sys.executable, "-c", _HELD_STOP], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["[] True", f"[{int(signal.SIGHUP)}] False"]


# A stop whose handler raises as the block is entered (Python runs it as pthread_sigmask returns,
# after the mask changed): the block did not begin, and the stops are let in again. Another
# thread sends SIGHUP all the while the main thread enters and leaves the block.
_STOP_AT_ENTRY = """
import os, signal, threading, time
from targetlang._signals import signals_held
class Stop(Exception):
    pass
armed = False
def stop(signum, frame):
    if armed:
        raise Stop
signal.signal(signal.SIGHUP, stop)
done = threading.Event()
def send():
    while not done.is_set():
        os.kill(os.getpid(), signal.SIGHUP)
sender = threading.Thread(target=send)
with signals_held():
    sender.start()  # (it takes no stop itself)
stopped, left_held, end = 0, 0, time.monotonic() + 2
while time.monotonic() < end:
    try:
        armed = True
        with signals_held():
            pass
    except Stop:
        stopped += 1
    finally:
        armed = False
    if signal.SIGHUP in signal.pthread_sigmask(signal.SIG_BLOCK, []):
        left_held += 1
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGHUP])
done.set()
signal.signal(signal.SIGHUP, signal.SIG_IGN)
sender.join()
print(stopped > 0, left_held)
"""


def test_a_stop_as_the_block_begins_leaves_the_stops_let_in() -> None:
    # Before, a stop whose handler ran inside the call that held them left them held for good:
    # 4 times in 3 s of this.
    done = subprocess.run([sys.executable, "-c", _STOP_AT_ENTRY], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (0, "True 0\n"), done.stderr


def test_outside_the_main_thread_the_block_runs_as_it_is() -> None:
    masks: list[set[int]] = []

    def inside() -> None:
        with signals_held():
            masks.append(set(signal.pthread_sigmask(signal.SIG_BLOCK, [])))

    thread = threading.Thread(target=inside)
    thread.start()
    thread.join()
    assert not masks[0] & STOPS


# ------------------------------------------------------------------ start-up

# A stop while the command starts: sent by the process itself as it imports a module that the
# command's own module (targetlang._cli) imports, or as it builds its options.
_STOP_IN_IMPORT = """
import os, runpy, signal, sys
signum = getattr(signal, sys.argv[1])
class Stop:
    def find_spec(self, name, path=None, target=None):
        if name == "targetlang._checking":
            os.kill(os.getpid(), signum)
        return None
sys.meta_path.insert(0, Stop())
sys.argv = ["targetlang", "fmt", "llvm"]
runpy.run_module("targetlang", run_name="__main__", alter_sys=True)
"""

_STOP_IN_OPTIONS = """
import os, signal, sys
from targetlang._cli import command_line as _cli
signum = getattr(signal, sys.argv[1])
build = _cli._build_parser
def stopping():
    os.kill(os.getpid(), signum)
    return build()
_cli._build_parser = stopping
raise SystemExit(_cli.main(["fmt", "llvm"]))
"""


def _child(source: str, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", source, *argv], capture_output=True, text=True, timeout=120)


def test_ctrl_c_while_the_command_imports_its_modules_is_exit_130() -> None:
    # Before, the import of targetlang._cli by ``python -m targetlang`` was not held: a
    # KeyboardInterrupt traceback, and death by SIGINT.
    done = _child(_STOP_IN_IMPORT, "SIGINT")
    stopped = "targetlang: stopped by Ctrl-C (SIGINT); no file was left half-written\n"
    assert (done.returncode, done.stdout, done.stderr) == (130, "", stopped)


def test_sigterm_while_the_command_imports_its_modules_ends_it_quietly() -> None:
    # No handler of targetlang's is set yet: SIGTERM's own action, once the imports are done.
    done = _child(_STOP_IN_IMPORT, "SIGTERM")
    assert (done.returncode, done.stdout, done.stderr) == (-signal.SIGTERM, "", "")


@pytest.mark.parametrize(("name", "status"), [("SIGINT", 130), ("SIGTERM", 143), ("SIGHUP", 129)])
def test_a_stop_while_the_options_are_read_is_the_commands_exit(name: str, status: int) -> None:
    # Before, the options were read outside the command's handlers: a traceback (Ctrl-C), or
    # death by the signal.
    done = _child(_STOP_IN_OPTIONS, name)
    said = "Ctrl-C (SIGINT)" if name == "SIGINT" else name
    assert (done.returncode, done.stdout) == (status, "")
    assert done.stderr == f"targetlang: stopped by {said}; no file was left half-written\n"


# ------------------------------------------------------------------ what a command imports

# A command run as `python -m targetlang` runs it, that prints the modules imported with the stops
# let in once they were first held (by __main__, as it imports the command line). A module only
# looked for (importlib.util.find_spec) is not imported.
_IMPORTS_LET_IN = """
import json, runpy, signal, sys
stops = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}
held, let_in = [], []
class Watch:
    def find_spec(self, name, path=None, target=None):
        if sys._getframe(2).f_code.co_name == "_find_and_load_unlocked":
            if stops <= set(signal.pthread_sigmask(signal.SIG_BLOCK, [])):
                held.append(name)
            elif held:
                let_in.append(name)
        return None
sys.meta_path.insert(0, Watch())
sys.argv = ["targetlang", *sys.argv[1:]]
status = 0
try:
    runpy.run_module("targetlang", run_name="__main__", alter_sys=True)
except SystemExit as ended:
    status = ended.code
sys.stdout.flush()
print("\\n" + json.dumps({"status": status, "held": held, "let in": let_in}), file=sys.stderr)
"""

_LOGS = Path(__file__).parent / "data" / "corpus" / "logs"
_AUTOTVM = _LOGS / "autotvm" / "tophub_llvm_v0.04.log"
_AUTO_SCHEDULER = _LOGS / "auto_scheduler" / "tvm-v0.19.0_matmul.json"
_META_SCHEDULE = _LOGS / "meta_schedule" / "mlc-llm-d93944ff_log_db_database_tuning_record.json"
_HELPER = {"a.py": "import tvm\nt = tvm.target.cuda()\n"}
_NOTEBOOK = {
    "n.ipynb": json.dumps(
        {
            "cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "source": ['t = Target("llvm -mcpu=a")\n']}],
            "metadata": {},
            "nbformat": 4,
            "nbformat_minor": 5,
        }
    )
}

# Each command: what it reads (copied, or made: the pool's rows a file big enough for workers),
# its exit status, what it says (stdout and stderr) that only its path says, and where one is, a
# module only its path imports (imported with the stops held).
IMPORTING_COMMANDS = [
    ("fmt llvm", {}, 0, "llvm", None),
    ('fmt "llvm -mcpu=\'sky"', {}, 1, "mismatched quote", "lark"),  # (the fast reader refuses it)
    ("legacy llvm", {}, 0, "-keys=cpu", None),
    ("migrate llvm", {}, 0, '"kind": "llvm"', None),
    ("check", {}, 0, "484 resolve", None),
    ("kinds llvm", {}, 0, "canonicaliser:", None),
    ("kinds llvm --cpus", {}, 0, "Available CPUs", None),
    ("tags jetson", {}, 0, "nvidia/jetson-agx-orin", None),
    ("explain llvm -mcpu=skylake", {}, 0, "in TVM 0.27: kept", None),
    ("diff llvm cuda", {}, 1, "AutoTVM dispatch", "targetlang.logs.match"),
    ("rule --all", {}, 0, "## target-string", None),
    ("fix --check a.py", _HELPER, 1, "target-helper [safe]", "libcst.native"),
    ("fix --unsafe-fixes a.py", _HELPER, 1, "+t = tvm.target.Target(", "libcst.native"),
    ("fix --output-format sarif a.py", _HELPER, 1, '"$schema"', "libcst.native"),
    (
        "fix imp.py",
        {"imp.py": "from tvm.target import cuda\n\nt = cuda()\n"},
        1,
        "+from tvm.target import Target",
        "libcst.codemod",
    ),
    (  # a fix that makes a line too long in a file black leaves as it is: black splits it
        "fix --line-length 88 long.py",
        {"long.py": 'import tvm\n\ntarget = tvm.target.Target("cuda -arch=sm_80 -max_threads_per_block=1024")\n'},
        1,
        '+    {"kind": "cuda"',
        "black",
    ),
    (
        "fix --target-version auto p/a.py",
        {
            "p/pyproject.toml": '[project]\nname = "p"\nversion = "0"\ndependencies = ["apache-tvm>=0.25"]\n',
            **{"p/a.py": _HELPER["a.py"]},
        },
        1,
        "+t = tvm.target.Target(",
        "packaging",
    ),
    ("fix n.ipynb", _NOTEBOOK, 1, "--- a/n.ipynb", "targetlang.fix._notebook"),
    (
        "fix --docs a.sh a.md",
        {"a.sh": "tvmc compile --target 'llvm -mcpu=skylake' m.onnx\n", "a.md": "```python\ntvm.target.cuda()\n```\n"},
        1,
        "a.sh:1:14: text-target",
        None,
    ),
    (  # nested too deeply for the stack Python gives: fixed on a thread of a large stack
        "fix --check deep.py",
        {"deep.py": "import tvm\nx = " + "[" * 60 + "tvm.target.cuda()" + "]" * 60 + "\n"},
        1,
        "target-helper [safe]",
        None,
    ),
    ("logs check autotvm.log", {"autotvm.log": _AUTOTVM}, 0, "35 autotvm-v0.2", None),
    ("logs check scheduler.json", {"scheduler.json": _AUTO_SCHEDULER}, 0, "1 auto_scheduler", "msgspec"),
    ("logs check meta.json", {"meta.json": _META_SCHEDULE}, 0, "22 meta-schedule-record", None),
    ("logs stats --json scheduler.json", {"scheduler.json": _AUTO_SCHEDULER}, 0, '"record": "target"', None),
    ("logs match --target llvm autotvm.log", {"autotvm.log": _AUTOTVM}, 0, "35 found", None),
    ("logs migrate --in-place autotvm.log", {"autotvm.log": _AUTOTVM}, 0, "35 changed", None),
    ("logs migrate -o out.json scheduler.json", {"scheduler.json": _AUTO_SCHEDULER}, 0, "1 changed", None),
    ("logs check -j 2 big.log", {"big.log": (_AUTOTVM, 9 << 20)}, 0, "0 failed", "multiprocessing.synchronize"),
]


@pytest.mark.parametrize(
    ("command", "files", "status", "says", "imports"), IMPORTING_COMMANDS, ids=[row[0] for row in IMPORTING_COMMANDS]
)
def test_a_command_imports_its_own_and_other_packages_modules_with_the_stops_held(
    tmp_path: Path,
    command: str,
    files: dict[str, str | Path | tuple[Path, int]],
    status: int,
    says: str,
    imports: str | None,
) -> None:
    # A stop whose handler raised inside orjson's initialisation crashed the command (SIGSEGV):
    # `targetlang.logs` had come to import its modules when first asked for, so the logs
    # commands imported them, orjson and msgspec with them, after the command line let the stops
    # in. The standard library's modules may come later (CPython's own handle the exception).
    for name, content in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str):
            (tmp_path / name).write_text(content)
        elif isinstance(content, Path):
            (tmp_path / name).write_bytes(content.read_bytes())
        else:
            source, size = content
            text = source.read_bytes()
            (tmp_path / name).write_bytes(text * (size // len(text) + 1))
    done = subprocess.run(
        [sys.executable, "-c", _IMPORTS_LET_IN, *shlex.split(command)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    told, _, last = done.stderr.rstrip("\n").rpartition("\n")
    said = json.loads(last)
    assert (said["status"], says in done.stdout + told) == (status, True), done.stdout[-2000:] + told[-2000:]
    assert imports is None or imports in said["held"], said["held"]
    outside = [name for name in said["let in"] if name.partition(".")[0] not in sys.stdlib_module_names]
    assert outside == [], done.stderr[-3000:]


# ------------------------------------------------------------------ workers

# A pool whose workers are at work (sleeping), their process ids printed; then the command waits
# to be killed. "watch": without the kernel's death signal, as on a system that has none.
_POOL_AT_WORK = """
import multiprocessing, sys, time
from targetlang import _pool
if sys.argv[1] == "watch":
    _pool._death_signal = lambda: False
    _pool._WATCH_SECONDS = 0.05
pool = _pool.Pool(2)
list(pool.map([(time.sleep, (0,))] * 2))
calls = pool.map([(time.sleep, (600,))] * 2)
print(" ".join(str(child.pid) for child in multiprocessing.active_children()), flush=True)
next(calls)
"""


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie whose parent has not reaped it yet does not)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            return handle.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="the workers are looked for in /proc")
@pytest.mark.parametrize("how", ["death signal", "watch"])
def test_the_workers_die_with_a_killed_command(how: str) -> None:
    # Before, a command killed with SIGKILL left its workers running, each waiting for a next
    # task that would never come, with the command's standard output and error open.
    process = subprocess.Popen(
        [sys.executable, "-c", _POOL_AT_WORK, "watch" if how == "watch" else "kernel"],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    workers = [int(pid) for pid in process.stdout.readline().split()]
    process.stdout.close()
    assert len(workers) == 2 and all(_alive(pid) for pid in workers)
    process.kill()
    process.wait()
    for _ in range(1200):  # up to a minute: a loaded machine is slow
        if not any(_alive(pid) for pid in workers):
            break
        time.sleep(0.05)
    left = [pid for pid in workers if _alive(pid)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert left == []


_LATE_WORKER = """
import sys
from targetlang import _pool
if sys.argv[1] == "watch":
    _pool._death_signal = lambda: False
    _pool._WATCH_SECONDS = 0.05
_pool._die_with(int(sys.argv[2]))
import time
time.sleep(60)
print("lived on")
"""


@pytest.mark.parametrize("how", ["death signal", "watch"])
def test_a_worker_whose_command_died_before_it_was_set_up_exits(how: str) -> None:
    # The command that started it is gone, and its parent is another process (here the test).
    gone = subprocess.Popen([sys.executable, "-c", ""])
    gone.wait()
    done = _child(_LATE_WORKER, "watch" if how == "watch" else "kernel", str(gone.pid))
    assert (done.returncode, done.stdout) == (1, "")


_FLOW = Path(__file__).resolve().parent / "data" / "fix" / "flow"


def _tree(directory: Path) -> dict[Path, bytes]:
    """Two copies of the excerpts of tests/data/fix/flow as Python files (48)."""
    texts = {}
    for copy in range(2):
        for excerpt in sorted(_FLOW.glob("*.py.txt")):
            path = directory / f"d{copy}" / excerpt.name.removesuffix(".txt")
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(excerpt.read_bytes())
            texts[path.relative_to(directory)] = path.read_bytes()
    return texts


def _fix(tree: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "targetlang", "fix", "--write", "--quiet", "-j", "2", str(tree)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])},
    )


def _session(sid: int) -> list[int]:
    """The processes of session ``sid`` that run."""
    alive = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as handle:
                    fields = handle.read().rsplit(b")", 1)[1].split()
            except OSError:
                continue
            if fields[0] != b"Z" and int(fields[3]) == sid:
                alive.append(int(entry))
    return alive


_FIXED: dict[Path, bytes] = {}


def _fixed(tmp_path: Path) -> dict[Path, bytes]:
    """The tree as a whole run of ``fix --write -j 2`` leaves it."""
    if not _FIXED:
        whole = tmp_path / "whole"
        originals = _tree(whole)
        done = _fix(whole)
        assert done.wait(timeout=300) == 1  # findings are left to do by hand
        _FIXED.update({name: (whole / name).read_bytes() for name in originals})
        assert _FIXED != originals
    return _FIXED


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="the workers are looked for in /proc")
@pytest.mark.parametrize(("name", "to"), [("SIGINT", "group"), ("SIGTERM", "group"), ("SIGINT", "workers")])
def test_a_stop_to_fix_j2_ends_it_cleanly(tmp_path: Path, name: str, to: str) -> None:
    # Ctrl-C (or SIGTERM) to the whole process group while fix's workers are at work; or Ctrl-C
    # to the workers alone, which leave it to the command, and the run goes on to its end.
    # Before, a worker that Ctrl-C reached ended the run (exit 130, or an internal error when it
    # was waiting for a task), printing tracebacks, and now and then the command waited forever
    # for a worker stuck on the lock of the pool's queue.
    signum = getattr(signal, name)
    fixed = _fixed(tmp_path)
    stopped = tmp_path / "stopped"
    originals = _tree(stopped)
    process = _fix(stopped)
    while process.poll() is None and (
        len(_session(process.pid)) < 3 or all((stopped / name).read_bytes() == originals[name] for name in originals)
    ):
        time.sleep(0.005)  # until both workers run and a file is written
    if to == "group":
        os.killpg(process.pid, signum)
    else:
        for pid in _session(process.pid):
            if pid != process.pid:
                os.kill(pid, signum)
    status = process.wait(timeout=300)
    for _ in range(1200):
        if not _session(process.pid):
            break
        time.sleep(0.05)
    assert _session(process.pid) == []
    assert process.stderr is not None
    said = process.stderr.read().decode(errors="replace")
    now = {name: (stopped / name).read_bytes() for name in originals}
    if to == "workers" or status == 1:  # (1: the run was over before the signal came)
        assert (status, now, said) == (1, fixed, "")
    else:
        assert status == 128 + signum
        name = "Ctrl-C (SIGINT)" if signum == signal.SIGINT else signal.Signals(signum).name
        assert said == f"targetlang: stopped by {name}; no file was left half-written\n", said
        assert all(now[name] in (originals[name], fixed[name]) for name in originals)
    assert sorted(p.relative_to(stopped) for p in stopped.rglob("*") if p.is_file()) == sorted(originals)
