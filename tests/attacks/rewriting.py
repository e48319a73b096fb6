"""Attacks on the rewriting of files in place by ``fix --write`` and ``logs migrate --in-place``:
a symbolic link swapped in at the file's own path, a writer that rewrites a file meanwhile,
special files, source that crashed the parser, notebooks, and the file's metadata.

The "protected" file stands for a file of another user (root's, in a 0700 directory): the
command runs as this user here, which changes nothing of what the command decides (it never
asks who owns what before it writes); the invariant is that the protected file is never
written, whatever the command is told and whenever the link is swapped.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import stat
import struct
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from . import (
    SMALL,
    Done,
    Outcome,
    _calibrate,
    _cli,
    _finish,
    _rng,
    _run,
    _script,
    _start,
    _temporaries,
    _texts,
    _trial_dir,
    _workspace,
)

__all__ = ["ATTACKS", "SUITE_TRIALS"]

LEGACY = 'import tvm\n# marker 0000\nt = tvm.target.Target("llvm -mcpu=skylake")\n'
FIXED = 'import tvm\n# marker 0000\nt = tvm.target.Target({"kind": "llvm", "mcpu": "skylake"})\n'
PROTECTED = b"root's own file: never written by a command of another's files\n"
FAULTS = ("Traceback", "internal error", "RecursionError", "MemoryError", "BrokenProcessPool")


def _faults(done: Done) -> str | None:
    """What is wrong with how a run ended, whatever its work: a crash, a hang, a traceback."""
    if done.hung:
        return "hung (killed at the timeout)"
    if done.status < 0:
        return f"died by signal {-done.status}: {done.err.strip()[-300:]!r}"
    for fault in FAULTS:
        if fault in done.err:
            return f"{fault} on stderr: {done.err.strip()[-300:]!r}"
    return None


def _protected(root: Path) -> Path:
    secret = root / "secret"
    secret.mkdir(exist_ok=True)
    secret.chmod(0o700)
    target = secret / "root.txt"
    target.write_bytes(PROTECTED)
    return target


def _check_protected(outcome: Outcome, trial: int, target: Path, inode: int) -> bool:
    info = target.stat()
    if target.read_bytes() != PROTECTED or info.st_ino != inode:
        outcome.violate(trial, "the protected file was written through the link")
        return False
    return True


# ------------------------------------------------------------------ a link swapped in at the path

_FLIPPER = r"""
import os, sys, time
path, keep, link, pause = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
ours, theirs = path + ".ours", path + ".theirs"
sys.stdout.write("r\n"); sys.stdout.flush()
while True:
    # the user's own file (kept under a hard link: inode, size and times stay) and a link to the
    # protected file, each put at the path by a rename, as fast as it goes
    os.symlink(link, theirs)
    os.replace(theirs, path)
    if pause:
        time.sleep(pause)
    os.link(keep, ours)
    os.replace(ours, path)
    if pause:
        time.sleep(pause)
"""


def _flipped_run(tool: str, directory: Path, target: Path, rng: random.Random) -> tuple[Done, str]:
    """Run ``tool`` on a file whose path flips between the file and a link to ``target``."""
    user = directory / "user"
    user.mkdir()
    if tool == "fix":
        name, data = "x.py", LEGACY.encode()
    else:
        name, data = "tune.log", _texts(SMALL)[0]
    path = user / name
    path.write_bytes(data)
    keep = user / ".keep"
    os.link(path, keep)
    pause = rng.choice([0.0, 0.0, 0.0001, 0.001])
    flipper = subprocess.Popen(
        [sys.executable, "-c", _FLIPPER, str(path), str(keep), str(target), str(pause)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert flipper.stdout is not None
        flipper.stdout.readline()
        if tool == "fix":
            argv = ["fix", "--write", str(path)] if rng.random() < 0.5 else ["fix", "--write", str(user)]
        else:
            argv = ["logs", "migrate", "--in-place", "--no-backup", str(path)]
        done = _run(_cli(*argv), cwd=directory, timeout=60)
    finally:
        flipper.kill()
        flipper.wait()
    return done, tool


_REFUSALS = {
    "it became a symbolic link": "refused: a link at the name when it was opened",
    "another file took its name": "refused: another file at the name before the rename",
    "no longer the regular file read": "refused: no regular file at the name",
    "not a regular file": "refused: no regular file at the name",
    "bytes changed": "refused: other bytes than those read",
    "changed while it was opened": "refused: the log read is not the file opened",
    "changed while it was being fixed": "refused: changed while it was being fixed",
    "changed while it was rewritten": "refused: changed while it was rewritten",
    "no such file": "the path named no file as it was read",
}


def _refusal(done: Done) -> str:
    """Why a run left the file, in a few words (the first reason its stderr gives), or "done"."""
    for phrase, said in _REFUSALS.items():
        if phrase in done.err.lower():
            return said
    return "done" if done.status == 0 else f"exit {done.status}: {done.err.strip()[-120:]!r}"


def link_swap(trials: int, seed: int = 0) -> Outcome:
    """The path of the file to rewrite flips, as fast as renames go, between the user's own file
    (kept under a hard link) and a symbolic link to the protected file, while ``fix --write`` or
    ``logs migrate --in-place`` runs on it: the protected file is never written."""
    outcome = Outcome("link-swap", "a link to another's file swapped in and out at the file's own path")
    rng = _rng(seed, "link-swap")
    with _workspace("link-swap") as root:
        for trial in range(trials):
            outcome.trials += 1
            directory = _trial_dir(root, trial)
            target = _protected(directory)
            inode = target.stat().st_ino
            tool = "fix" if trial % 2 == 0 else "logs"
            done, _ = _flipped_run(tool, directory, target, rng)
            fault = _faults(done)
            if fault is not None:
                outcome.violate(trial, f"{tool}: {fault}")
                continue
            if not _check_protected(outcome, trial, target, inode):
                continue
            left = _temporaries(directory / "user", target.parent)
            if left:
                outcome.violate(trial, f"{tool}: temporary files left: {left}")
                continue
            outcome.count(f"{tool}: exit {done.status}, {_refusal(done)}, the protected file untouched")
    return outcome


_SWAP_AT = r"""
import os, sys
import targetlang._cli.fix_files as command
from targetlang._cli import main
from targetlang.logs import _jobs as jobs
when, path, link = sys.argv[1], sys.argv[2], sys.argv[3]
argv = sys.argv[4:]
done = []
def swap():
    if not done:
        done.append(True)
        os.replace(path, path + ".kept")  # the user keeps the file under another name
        os.symlink(link, path)
def swap_back():
    os.replace(path + ".kept", path)
real_realpath = os.path.realpath
def realpath(p, *a, **k):
    # the writer's own resolving (AtomicFile's), not the reading's nor the search for pyproject.toml
    writer = sys._getframe(1).f_code.co_filename.endswith(os.path.join("targetlang", "_atomic_file.py"))
    if when == "resolve" and writer and not done and os.path.abspath(p) == os.path.abspath(path):
        swap()  # the link is there as the path is resolved, and gone right after
        try:
            return real_realpath(p, *a, **k)
        finally:
            swap_back()
    return real_realpath(p, *a, **k)
os.path.realpath = realpath
real_fix_file = command.fix_file
def fix_file(p, job):
    outcome = real_fix_file(p, job)
    if when in ("read", "read, a FIFO"):
        swap()
    return outcome
command.fix_file = fix_file
real_open = jobs.Source.open
def source_open(p, *args, **kwargs):
    if when in ("read", "read, a FIFO") and p == path:
        swap()
    return real_open(p, *args, **kwargs)
jobs.Source.open = staticmethod(source_open)
raise SystemExit(main(argv))
"""


_FIFO_READER = r"""
import os, select, signal, sys
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_NONBLOCK)
got = 0
def done(*_):
    print(got, flush=True)
    raise SystemExit(0)
signal.signal(signal.SIGTERM, done)
print("r", flush=True)
while True:
    select.select([fd], [], [], 0.05)
    try:
        got += len(os.read(fd, 1 << 16))
    except BlockingIOError:
        pass
"""


def link_swap_at(trials: int, seed: int = 0) -> Outcome:
    """The link swapped in at the worst moments, made so: while the command resolves the path it
    was given (``os.path.realpath``; the user's file back right after), and after it read the
    file (fix) or as it opens the log to read it (logs), the link to the protected file or to a
    FIFO a reader watches: the protected file is never written, nothing goes into the FIFO, and
    no run waits on it."""
    outcome = Outcome("link-swap-at", "a link swapped in as the path is resolved, or after the file is read")
    with _workspace("link-swap-at") as root:
        for trial in range(trials):
            outcome.trials += 1
            directory = _trial_dir(root, trial)
            target = _protected(directory)
            inode = target.stat().st_ino
            tool = ("fix", "logs")[trial % 2]
            when = ("resolve", "read", "read, a FIFO")[(trial // 2) % 3]
            link = target
            reader = None
            if when == "read, a FIFO":
                # a FIFO (a device, say) that a reader watches: nothing may be written into it
                link = target.parent / "pipe"
                os.mkfifo(link)
                reader = subprocess.Popen(
                    [sys.executable, "-c", _FIFO_READER, str(link)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
                )
                assert reader.stdout is not None
                reader.stdout.readline()
            user = directory / "user"
            user.mkdir()
            if tool == "fix":
                path = user / "x.py"
                path.write_text(LEGACY)
                argv = ["fix", "--write", str(path)]
            else:
                path = user / "tune.log"
                path.write_bytes(_texts(SMALL)[0])
                argv = ["logs", "migrate", "--in-place", str(path)]
            done = _run(_script(_SWAP_AT, when, str(path), str(link), *argv), cwd=directory, timeout=60)
            if reader is not None:
                reader.terminate()
                got = reader.communicate()[0].decode().split()
                if got and got[-1] != "0":
                    outcome.violate(trial, f"{tool}, at {when}: {got[-1]} bytes written into the FIFO")
                    continue
            fault = _faults(done)
            if fault is not None:
                outcome.violate(trial, f"{tool}, at {when}: {fault}")
                continue
            if not _check_protected(outcome, trial, target, inode):
                continue
            if (when != "resolve") != path.is_symlink():
                outcome.violate(trial, f"{tool}, at {when}: the link was not swapped as the attack says")
                continue
            outcome.count(f"{tool}, swapped at {when}: exit {done.status}, {_refusal(done)}")
    return outcome


# ------------------------------------------------------------------ a writer rewrites a file meanwhile

_WRITER = r"""
import json, os, random, sys, time
files, seed, start, spread = sys.argv[1:-3], int(sys.argv[-3]), float(sys.argv[-2]), float(sys.argv[-1])
rng = random.Random(seed)
records = []
sys.stdout.write("r\n"); sys.stdout.flush()
time.sleep(start)  # fix is at work by then (it starts up in a second or two)
for path in rng.sample(files, k=max(1, len(files) // 3)):
    time.sleep(rng.uniform(0, spread))
    with open(path, "r+b") as handle:
        info = os.fstat(handle.fileno())
        text = handle.read()
        marker = b"# marker %04d" % rng.randrange(1, 10000)
        text = text.replace(b"# marker 0000", marker, 1)
        handle.seek(0)
        handle.write(text)
        handle.flush()
        os.utime(handle.fileno(), ns=(info.st_atime_ns, info.st_mtime_ns))  # the time set back
        after = os.fstat(handle.fileno())
    records.append({"path": path, "inode": after.st_ino, "ctime": after.st_ctime_ns, "marker": marker.decode()})
print(json.dumps(records))
"""
# Change times are kept in jiffies (4 ms at 250 Hz): closer than this, which came first is unknown.
_CTIME_GRAIN = 10_000_000


def concurrent_writer(trials: int, seed: int = 0) -> Outcome:
    """While ``fix --write -j 2`` fixes a tree, a writer rewrites a third of its files in place
    with text of the same length and sets their modification time back: a change the writer
    finished before fix replaced the file is never lost."""
    outcome = Outcome("fix-concurrent-writer", "a writer rewrites files in place (same length, mtime back)")
    rng = _rng(seed, "fix-concurrent-writer")

    def tree(directory: Path) -> list[str]:
        files = []
        for i in range(120):
            path = directory / f"m{i:03d}.py"
            path.write_text(LEGACY)
            files.append(str(path))
        return files

    def one_run() -> float:
        with _workspace("calibration") as directory:
            tree(directory)
            return _run(_cli("fix", "--write", "-j", "2", str(directory)), cwd=directory).seconds

    with _workspace("fix-concurrent-writer") as root:
        run_seconds = _calibrate(one_run, times=1)
        outcome.measured.update(run_seconds=round(run_seconds, 3), writes="40, from U(0.3, 0.6) x run_seconds on")
        for trial in range(trials):
            outcome.trials += 1
            directory = _trial_dir(root, trial)
            files = tree(directory)
            writer = subprocess.Popen(
                [
                    sys.executable,
                    "-c",
                    _WRITER,
                    *files,
                    str(rng.randrange(1 << 30)),
                    str(rng.uniform(0.3, 0.6) * run_seconds),
                    str(run_seconds / 40),
                ],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
            assert writer.stdout is not None
            writer.stdout.readline()
            done = _run(_cli("fix", "--write", "-j", "2", str(directory)), cwd=directory, timeout=120)
            out, _ = writer.communicate(timeout=60)
            fault = _faults(done)
            if fault is not None:
                outcome.violate(trial, fault)
                continue
            lost = close = 0
            for record in json.loads(out):
                path = Path(record["path"])
                now = path.stat()
                text = path.read_text()
                if record["marker"] in text:
                    continue
                if now.st_ino == record["inode"]:
                    outcome.violate(trial, f"{path.name}: the writer's change is not in the file it wrote")
                elif record["ctime"] < now.st_ctime_ns - _CTIME_GRAIN:
                    lost += 1  # the writer was done before fix put its file in place
                else:
                    close += 1
            if lost:
                outcome.violate(trial, f"{lost} changes lost: written over by fix after the writer was done")
            refused = done.err.count("changed while it was being fixed")
            said = f"{refused} files refused as changed"
            outcome.count(said + (f", {close} writes too close to the rename to order" if close else ""))
    return outcome


# ------------------------------------------------------------------ special files, deep source, notebooks


def special_files(trials: int, seed: int = 0) -> Outcome:
    """A FIFO, a character device (``/dev/zero``'s numbers, as root) or a link to one, under a
    ``.py`` name, in a tree or named: never read (no hang, no memory), skipped with a note in a
    walk, refused at once when named; the other files fixed."""
    outcome = Outcome("fix-special-files", "FIFOs and devices under .py names, in a tree or named")
    rng = _rng(seed, "fix-special-files")
    with _workspace("fix-special-files") as root:
        for trial in range(trials):
            outcome.trials += 1
            directory = _trial_dir(root, trial)
            for i in range(5):
                (directory / f"a{i}.py").write_text(LEGACY)
            kind = rng.choice(["fifo", "device", "device link"] if os.geteuid() == 0 else ["fifo"])
            special = directory / "special.py"
            if kind == "fifo":
                os.mkfifo(special)
            elif kind == "device":
                os.mknod(special, stat.S_IFCHR | 0o666, os.makedev(1, 5))
            else:
                special.symlink_to("/dev/zero")
            named = rng.random() < 0.5
            argv = ["fix", "--write", "-j", str(rng.choice([1, 2]))]
            argv += [str(special), *(str(directory / f"a{i}.py") for i in range(5))] if named else [str(directory)]
            done = _run(_cli(*argv), cwd=directory, timeout=60)
            fault = _faults(done)
            if fault is not None:
                outcome.violate(trial, f"{kind}: {fault}")
                continue
            if named:
                if done.status != 2 or "not a file fix reads" not in done.err:
                    outcome.violate(trial, f"{kind} named: exit {done.status}, {done.err.strip()[-200:]!r}")
                else:
                    outcome.count(f"{kind} named: refused at once (exit 2)")
                continue
            unfixed = [i for i in range(5) if (directory / f"a{i}.py").read_text() != FIXED]
            if unfixed:
                outcome.violate(trial, f"{kind} in a tree: files a{unfixed} left unfixed")
            elif kind == "device link":
                outcome.count("a link to a device in a tree: not followed, the other files fixed")
            elif "note: skipped" not in done.err:
                outcome.violate(trial, f"{kind} in a tree: no note said it was skipped")
            else:
                outcome.count(f"{kind} in a tree: skipped with a note, the other files fixed")
    return outcome


_CHAINS: dict[str, Callable[[int], str]] = {
    "and": lambda n: "x = a" + " and a" * n + "\n",
    "or": lambda n: "x = (a" + " or a" * n + ")\n",
    "elif": lambda n: "if a: pass\n" + "elif a: pass\n" * n,
    "if-else": lambda n: "x = a" + " if a else a" * n + "\n",
    "lambda": lambda n: "x = " + "lambda: " * n + "0\n",
    "not": lambda n: "x = " + "not " * n + "a\n",
}
# CPython's own limits (it compiles none of these deeper): chains of one operator have none.
_CHAIN_SIZES = {"and": (500, 30_000), "or": (500, 30_000), "elif": (300, 900), "if-else": (300, 900)}


def deep_python(trials: int, seed: int = 0) -> Outcome:
    """Valid Python with long ``and``/``or``/``elif``/conditional/``lambda``/``not`` chains among
    other files, ``-j 1`` or ``-j 2``: no crash, no internal error, the pool unbroken; the other
    files fixed, the deep one fixed or reported as nested too deeply."""
    outcome = Outcome("fix-deep-python", "long chains that CPython compiles, among other files")
    rng = _rng(seed, "fix-deep-python")
    with _workspace("fix-deep-python") as root:
        for trial in range(trials):
            outcome.trials += 1
            directory = _trial_dir(root, trial)
            kind = rng.choice(list(_CHAINS))
            low, high = _CHAIN_SIZES.get(kind, (300, 900))
            n = rng.randint(low, high)
            deep = LEGACY + _CHAINS[kind](n)
            try:
                compile(deep, "deep.py", "exec")
            except (SyntaxError, RecursionError, MemoryError):
                outcome.count(f"{kind} x {n}: CPython compiles it not either (not tried)")
                continue
            count = 20
            where = rng.randrange(count)
            for i in range(count):
                (directory / f"f{i:02d}.py").write_text(deep if i == where else LEGACY)
            jobs = rng.choice([1, 2])
            done = _run(_cli("fix", "--write", "-j", str(jobs), str(directory)), cwd=directory, timeout=120)
            fault = _faults(done)
            if fault is not None:
                outcome.violate(trial, f"{kind} x {n}, -j {jobs}: {fault}")
                continue
            unfixed = [i for i in range(count) if i != where and (directory / f"f{i:02d}.py").read_text() != FIXED]
            if unfixed:
                outcome.violate(trial, f"{kind} x {n}, -j {jobs}: {len(unfixed)} other files left unfixed")
                continue
            text = (directory / f"f{where:02d}.py").read_text()
            if text == FIXED + _CHAINS[kind](n):
                outcome.count(f"{kind}: fixed (-j {jobs})")
            elif text == deep and "nested too deeply" in done.err:
                outcome.count(f"{kind}: reported as nested too deeply, left (-j {jobs})")
            else:
                outcome.violate(trial, f"{kind} x {n}: the deep file neither fixed nor reported")
    return outcome


_NOTEBOOK = {
    "cells": [{"cell_type": "code", "source": ["t = tvm.target.Target('llvm -mcpu=skylake')\n"], "metadata": {}}],
    "metadata": {"target": "vulkan -supports_float16=1"},
    "nbformat": 4,
    "nbformat_minor": 5,
}
_FIXED_CELL = "t = tvm.target.Target({'kind': 'llvm', 'mcpu': 'skylake'})\n"  # the quotes kept


def notebook(trials: int, seed: int = 0) -> Outcome:
    """A notebook named on the command line (alone, beside a Python file, through ``-`` with
    ``--stdin-filename``; with ``--unsafe-fixes`` or not): its code cell fixed and nothing else,
    the JSON written as it was (the metadata's target string a string still, never a Python
    dict), byte for byte but the cell's source; the Python file beside it fixed."""
    outcome = Outcome("fix-notebook", "a Jupyter notebook named on the command line")
    rng = _rng(seed, "fix-notebook")
    with _workspace("fix-notebook") as root:
        for trial in range(trials):
            outcome.trials += 1
            directory = _trial_dir(root, trial)
            book = directory / "tune.ipynb"
            indent = rng.choice([1, 2])
            data = json.dumps(_NOTEBOOK, indent=indent).encode()
            fixed = json.loads(data)
            fixed["cells"][0]["source"] = [_FIXED_CELL]
            expected = json.dumps(fixed, indent=indent).encode()
            book.write_bytes(data)
            (directory / "a.py").write_text(LEGACY)
            way = rng.choice(["alone", "beside a file", "stdin"])
            unsafe = ["--unsafe-fixes"] if rng.random() < 0.5 else []  # read as Python, the metadata's string a dict's
            if way == "stdin":
                printed = directory / "printed.ipynb"
                fd = os.open(printed, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
                try:
                    process = _start(
                        _cli("fix", *unsafe, "--stdin-filename", "tune.ipynb", "-"),
                        directory,
                        stdin=subprocess.PIPE,
                        stdout=fd,
                    )
                finally:
                    os.close(fd)
                started = time.monotonic()
                assert process.stdin is not None
                process.stdin.write(data)
                process.stdin.close()
                process.stdin = None
                done = _finish(process, started, 60)
                result = printed.read_bytes()
            else:
                names = ["tune.ipynb"] + (["a.py"] if way == "beside a file" else [])
                done = _run(_cli("fix", "--write", *unsafe, *names), cwd=directory, timeout=60)
                result = book.read_bytes()
            fault = _faults(done)
            if fault is not None:
                outcome.violate(trial, f"{way}: {fault}")
            elif result != expected:
                outcome.violate(trial, f"{way}: the notebook is not the one with its cell fixed: {result[:200]!r}")
            elif way == "stdin" and book.read_bytes() != data:
                outcome.violate(trial, "stdin: the notebook on disk was written")
            elif done.status != 0:
                outcome.violate(trial, f"{way}: exit {done.status}, {done.err.strip()[-200:]!r}")
            elif way == "beside a file" and (directory / "a.py").read_text() != FIXED:
                outcome.violate(trial, "the Python file beside the notebook was not fixed")
            else:
                outcome.count(f"{way}: the cell fixed, every other byte kept")
    return outcome


# ------------------------------------------------------------------ metadata

_NO_LINKS = r"""
import os, sys
from targetlang._cli import main
def link(*args, **kwargs):
    raise OSError(18, "Invalid cross-device link")
os.link = link
raise SystemExit(main(sys.argv[1:]))
"""


def _acl(uid: int) -> bytes:
    """A POSIX access ACL (the kernel's xattr form): the owner rw, user ``uid`` rw, the group r,
    mask rw, others r."""
    undefined = 0xFFFFFFFF
    entries = [(0x01, 6, undefined), (0x02, 6, uid), (0x04, 4, undefined), (0x10, 6, undefined), (0x20, 4, undefined)]
    return struct.pack("<I", 2) + b"".join(struct.pack("<HHI", tag, perm, id_) for tag, perm, id_ in entries)


def _xattrs(path: Path) -> dict[str, bytes]:
    try:
        return {name: os.getxattr(path, name) for name in sorted(os.listxattr(path))}
    except OSError:
        return {}


def metadata(trials: int, seed: int = 0) -> Outcome:
    """After ``fix --write`` and ``logs migrate --in-place`` (backup linked, or copied as on
    another file system): the mode with its set-user-ID and set-group-ID bits, the owner and
    group (as root, another user's file), the extended attributes and the ACL are the old
    file's; a copied backup is the log's owner's; a second hard link keeps the old text (a
    rename replaces the name, as ``sed -i`` does)."""
    outcome = Outcome("metadata", "what the new file keeps of the old one")
    rng = _rng(seed, "metadata")
    root_user = os.geteuid() == 0
    with _workspace("metadata") as root:
        for trial in range(trials):
            outcome.trials += 1
            directory = _trial_dir(root, trial)
            tool = rng.choice(["fix", "logs linked", "logs copied"])
            if tool == "fix":
                path = directory / "x.py"
                path.write_text(LEGACY)
                argv = _cli("fix", "--write", str(path))
            else:
                path = directory / "tune.log"
                path.write_bytes(_texts(SMALL)[0])
                args = ["logs", "migrate", "--in-place", str(path)]
                argv = _script(_NO_LINKS, *args) if tool == "logs copied" else _cli(*args)
            mode = rng.choice([0o4755, 0o2755, 0o6750, 0o644, 0o600, 0o2640])
            owner = (rng.choice([1000, 12345]), rng.choice([1000, 54321])) if root_user else (os.getuid(), os.getgid())
            os.chown(path, *owner)
            os.chmod(path, mode)  # after chown, which clears the set-ID bits
            with contextlib.suppress(OSError):
                os.setxattr(path, "user.origin", b"tuned on board 7")
            with contextlib.suppress(OSError):
                os.setxattr(path, "system.posix_acl_access", _acl(4242))
            before_attrs = _xattrs(path)
            mode = stat.S_IMODE(path.stat().st_mode)  # an ACL's mask is the group's bits
            os.link(path, directory / "second-name")
            done = _run(argv, cwd=directory, timeout=60)
            fault = _faults(done)
            if fault is not None or done.status != 0:
                outcome.violate(trial, f"{tool}: exit {done.status}: {fault or done.err.strip()[-200:]!r}")
                continue
            info = path.stat()
            problems = []
            if stat.S_IMODE(info.st_mode) != mode:
                problems.append(f"mode {oct(stat.S_IMODE(info.st_mode))}, was {oct(mode)}")
            if (info.st_uid, info.st_gid) != owner:
                problems.append(f"owner {(info.st_uid, info.st_gid)}, was {owner}")
            if _xattrs(path) != before_attrs:
                problems.append(f"xattrs {sorted(_xattrs(path))}, were {sorted(before_attrs)}")
            second = (directory / "second-name").read_bytes()
            if second == path.read_bytes():
                problems.append("the second hard link sees the new text (documented: it keeps the old)")
            if tool != "fix":
                backup = directory / "tune.log.bak"
                binfo = backup.stat()
                if (binfo.st_uid, binfo.st_gid) != owner:
                    problems.append(f"the backup's owner {(binfo.st_uid, binfo.st_gid)}, the log's {owner}")
                if stat.S_IMODE(binfo.st_mode) != mode:
                    problems.append(f"the backup's mode {oct(stat.S_IMODE(binfo.st_mode))}, was {oct(mode)}")
            if problems:
                outcome.violate(trial, f"{tool}, mode {oct(mode)}: " + "; ".join(problems))
            else:
                kept = ", ".join(name.split(".")[-1] for name in before_attrs) or "no xattrs here"
                outcome.count(f"{tool}: mode, owner and xattrs ({kept}) kept")
    return outcome


ATTACKS: dict[str, Callable[[int, int], Outcome]] = {
    "link-swap": link_swap,
    "link-swap-at": link_swap_at,
    "fix-concurrent-writer": concurrent_writer,
    "fix-special-files": special_files,
    "fix-deep-python": deep_python,
    "fix-notebook": notebook,
    "metadata": metadata,
}
SUITE_TRIALS: dict[str, int] = {
    "link-swap": 2,
    "link-swap-at": 4,
    "fix-concurrent-writer": 1,
    "fix-special-files": 3,
    "fix-deep-python": 3,
    "fix-notebook": 3,
    "metadata": 3,
}
