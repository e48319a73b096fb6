"""Benchmark ``targetlang fix --check`` over every Python file of a TVM release.

Run from the repository root::

    python benchmarks/bench_fix.py                 # print the figures
    python benchmarks/bench_fix.py --write         # and rewrite their section of docs/performance.md
    python benchmarks/bench_fix.py --mirror PATH --ref refs/tags/v0.23.0
    python benchmarks/bench_fix.py --at .          # the working tree as it is, not a commit

The ``.py`` files of ``--ref`` (TVM v0.23.0 by default) are extracted from a git repository of
TVM (``--mirror``, a bare mirror is enough) into a temporary directory, and the installed
``targetlang`` console script runs over that directory as a subprocess, on the ``targetlang``
package of commit ``--at`` of this repository (``HEAD`` by default: extracted with ``git
archive`` and put first on ``PYTHONPATH``, so that edits in progress do not change the figures):
``targetlang fix --check --quiet DIR`` with ``-j 1`` and with the default (one process per
core), ``--repeat`` times each, then once with ``--json`` to count the findings by rule and
safety. Wall time is measured around the subprocess; CPU time is the user and system time of
the subprocess and every process it waited for (its worker pool), from ``getrusage``.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from doc_sections import cpu_model as _cpu_model
from doc_sections import extract_commit, machine_busy, write_section
from doc_sections import package_version as _version

import targetlang

_MIRROR = "/work/.mirror/apache+tvm/repo"
_REF = "refs/tags/v0.23.0"
_GOAL = 60.0  # seconds of wall time for the whole tree, default jobs
_FLOOR_GOAL = 2.0  # fix --check -j 1 CPU time over Python's ast.parse of every file
_TINY_GOAL = 1.5  # fix --check of a tiny file over `targetlang fmt llvm`, wall
_DENSE_GOAL = 3.0  # fix --check of a dense file over LibCST's parse of it
_DENSE_LINES = 5_000
# Python's own parser over every file of the tree: the floor a linter of Python source stands on.
_FLOOR = """
import ast, pathlib, sys, warnings
warnings.simplefilter("ignore")
for path in sorted(pathlib.Path(sys.argv[1]).rglob("*.py")):
    try:
        ast.parse(path.read_text(encoding="utf-8"))
    except (SyntaxError, ValueError, UnicodeDecodeError):
        pass
"""
# LibCST's parse of one file, timed inside the process (its import is not the parse).
_LIBCST_PARSE = """
import sys, time, libcst
text = open(sys.argv[1], encoding="utf-8").read()
start = time.process_time()
libcst.parse_module(text)
print(time.process_time() - start)
"""


def dense_file(into: Path) -> Path:
    """A file of ``_DENSE_LINES`` lines, each a legacy target where TVM reads one (a finding a
    line, every one a safe fix)."""
    lines = ["import tvm"] + [
        f'lib{i} = tvm.build(mod, target="llvm -mcpu=core-avx2 -num-cores={i % 8 + 1}")'
        for i in range(_DENSE_LINES - 1)
    ]
    path = into / "dense.py"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


_ROOT = Path(__file__).resolve().parents[1]


def extract(mirror: str, ref: str, into: Path) -> int:
    """The ``.py`` files of ``ref`` under ``into``; returns how many."""
    archive = subprocess.run(
        ["git", "-C", mirror, "archive", "--format=tar", ref, "--", "*.py"],
        check=True,
        stdout=subprocess.PIPE,
    ).stdout
    with tempfile.TemporaryFile() as handle:
        handle.write(archive)
        handle.seek(0)
        with tarfile.open(fileobj=handle) as tar:
            members = [m for m in tar.getmembers() if m.isfile() or m.isdir()]
            tar.extractall(into, members=members, filter="data")
    return sum(1 for _ in into.rglob("*.py"))


def console_script() -> str:
    """The installed ``targetlang`` command of this interpreter's environment."""
    beside = Path(sys.executable).with_name("targetlang")
    if beside.exists():
        return str(beside)
    found = shutil.which("targetlang")
    if found is None:
        raise SystemExit("the targetlang console script is not installed (pip install -e '.[fix]')")
    return found


@dataclass
class Timing:
    wall: float  # seconds around the subprocess
    cpu: float  # user and system seconds of the subprocess and the processes it waited for
    others: float  # CPU seconds the rest of the machine used meanwhile
    stdout: bytes
    stderr: bytes


def snapshot(at: str, into: Path) -> tuple[dict[str, str] | None, str]:
    """The environment that runs commit ``at`` of targetlang (``None``: the installed one, for
    ``at == "."``), and how the report names what was measured."""
    if at == ".":
        return None, "the working tree of the checkout"
    env, commit = extract_commit(_ROOT, at, into)
    where = subprocess.run(
        [sys.executable, "-c", "import targetlang; print(targetlang.__file__)"],
        env=env,
        cwd=into,  # not this checkout, which ``python -c`` would put first on sys.path
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    if not Path(where).is_relative_to(into):
        raise SystemExit(f"the snapshot of {commit} is not what Python imports ({where})")
    return env, f"commit {commit}"


def timed(argv: list[str], env: dict[str, str] | None = None) -> Timing:
    """Run ``argv`` (in ``env``) and time it."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    busy = machine_busy()
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, env=env)
    wall = time.perf_counter() - start
    busy = machine_busy() - busy
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}):\n{done.stderr.decode(errors='replace')}")
    return Timing(wall, cpu, max(0.0, busy - cpu), done.stdout, done.stderr)


def _best(timings: list[Timing]) -> Timing:
    """The run of least wall time: on a shared machine, the one the rest of it disturbed least."""
    return min(timings, key=lambda t: t.wall)


def machine(measured: str) -> list[str]:
    return [
        f"- platform: {platform.platform()}",
        f"- cpu: {_cpu_model()}",
        f"- cpu count: {os.cpu_count()}",
        f"- python: {platform.python_implementation()} {platform.python_version()}",
        f"- targetlang: {targetlang.__version__}, {measured}",
        f"- libcst: {_version('libcst')}",
    ]


Run = tuple[str, list[Timing]]  # the jobs option, its timings


@dataclass
class Peers:
    """The floors and peers each goal is a ratio to, best of the runs."""

    floor: list[Timing]  # ast.parse of every file
    tiny: list[Timing]  # fix --check of a two-line file
    fmt: list[Timing]  # targetlang fmt llvm
    dense: list[Timing]  # fix --check of the dense file
    dense_parse: list[float]  # LibCST's parse of it, CPU s


def report(
    ref: str,
    measured: str,
    files: int,
    runs: list[Run],
    findings: list[dict[str, object]],
    errors: list[str],
    peers: Peers,
) -> str:
    by_rule = collections.Counter((str(f["rule"]), str(f["safety"])) for f in findings)
    applied = sum(bool(f["applied"]) for f in findings)
    with_findings = len({f["file"] for f in findings})
    tag = ref.rsplit("/", 1)[-1]
    out = [
        f"## `targetlang fix` over TVM {tag}",
        "",
        "Measured by `benchmarks/bench_fix.py --write` (this section is generated; rerun it rather than editing).",
        "",
        "### Machine",
        "",
        *machine(measured),
        "",
        "### Method",
        "",
        f"The {files:,} `.py` files of TVM {tag} (`git archive {ref} -- '*.py'`, nothing else) are extracted to a "
        "temporary directory, and the installed console script runs over it as a subprocess: "
        "`targetlang fix --check --quiet DIR`, with `-j 1` (one process, no pool) and with the default "
        f"(one process per core), in {len(runs[0][1])} round{'s' if len(runs[0][1]) != 1 else ''}, each of which "
        "runs first the floor, "
        "Python's own parser (`ast.parse`) over every file in one process, as a subprocess too, then the command "
        "with `-j 1`, then with the default (the pace of a shared machine drifts over minutes: a round's runs "
        "meet the same); the tables give the fastest run of each (the one the rest of the machine disturbed "
        "least), and the goal's line each round's ratio too. Wall time is taken around the subprocess; CPU "
        "time is the user and system time of the command and of its worker processes. The machine may be "
        "shared: the last column is the CPU time the rest "
        "of the machine used during the run (from /proc/stat), which slows the run when the command and the rest "
        "together want more than the cores. The findings are counted from one more run with `--json`.",
        "",
        "### Results",
        "",
        "| command | wall s | CPU s | other processes' CPU s |",
        "|---|---:|---:|---:|",
    ]
    for label, timings in runs:
        best = _best(timings)
        out.append(
            f"| `targetlang fix --check --quiet {label}DIR` | {best.wall:.1f} | {best.cpu:.1f} | {best.others:.1f} |"
        )
    out += [
        "",
        f"{len(findings)} finding{'s' if len(findings) != 1 else ''} in {with_findings} of the {files:,} files, "
        f"{applied} of them applied by "
        "`--write` (safe fixes):",
        "",
        "| rule | safety | findings |",
        "|---|---|---:|",
        *[f"| {rule} | {safety} | {count} |" for (rule, safety), count in sorted(by_rule.items())],
        "",
        f"Files the command could not read (an error line each): {len(errors)}",
        *[f"- `{line}`" for line in errors[:10]],
        "",
        "### Goals",
        "",
    ]
    floor = min(t.cpu for t in peers.floor)
    serial = min(t.cpu for t in runs[0][1])
    tiny, fmt = min(t.wall for t in peers.tiny), min(t.wall for t in peers.fmt)
    dense, dense_parse = min(t.cpu for t in peers.dense), min(peers.dense_parse)
    out[out.index("### Goals") : out.index("### Goals")] = [
        "The floors and peers (fastest of the runs; CPU time unless marked):",
        "",
        "| what | s | ratio |",
        "|---|---:|---:|",
        f"| `ast.parse` of every file, one process (the floor) | {floor:.2f} | 1.00x |",
        f"| `targetlang fix --check --quiet -j 1 DIR` | {serial:.2f} | {serial / floor:.2f}x |",
        f"| `targetlang fmt llvm` (wall) | {fmt:.3f} | 1.00x |",
        f"| `targetlang fix --check --quiet tiny.py`, a file of two lines (wall) | {tiny:.3f} | {tiny / fmt:.2f}x |",
        f"| LibCST's `parse_module` of a file of {_DENSE_LINES:,} lines, a legacy target on each | "
        f"{dense_parse:.2f} | 1.00x |",
        f"| `targetlang fix --check --quiet dense.py` (the process: start, imports, reading) | {dense:.2f} | "
        f"{dense / dense_parse:.2f}x |",
        "",
    ]
    rounds = ", ".join(f"{run.cpu / base.cpu:.2f}x" for run, base in zip(runs[0][1], peers.floor, strict=True))
    for goal, ratio, what in (
        (
            _FLOOR_GOAL,
            serial / floor,
            f"`fix --check -j 1` over TVM {tag} within {_FLOOR_GOAL:g}x of `ast.parse` (each round: {rounds})",
        ),
        (_TINY_GOAL, tiny / fmt, f"`fix --check` of a tiny file within {_TINY_GOAL:g}x of `targetlang fmt llvm`"),
        (_DENSE_GOAL, dense / dense_parse, f"`fix --check` of the dense file within {_DENSE_GOAL:g}x of parsing it"),
    ):
        out.append(f"- {what}: " + ("**met**" if ratio <= goal else "**not met**") + f" ({ratio:.2f}x)")
    default_wall = _best(runs[-1][1]).wall
    out.append(
        f"- `targetlang fix --check` over every `.py` file of TVM {tag} in under {_GOAL:.0f} s (default jobs): "
        + ("**met**" if default_wall < _GOAL else "**not met**")
        + f" ({default_wall:.1f} s)"
    )
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--mirror", default=_MIRROR, help="a git repository of TVM (default: %(default)s)")
    parser.add_argument("--ref", default=_REF, help="the revision to extract (default: %(default)s)")
    parser.add_argument("--at", default="HEAD", help="the commit of targetlang to run, '.': the working tree")
    parser.add_argument("--repeat", type=int, default=1, help="timed runs of each command (default: %(default)s)")
    parser.add_argument("--write", action="store_true", help="rewrite the bench_fix section of docs/performance.md")
    args = parser.parse_args(argv)

    command = console_script()
    with tempfile.TemporaryDirectory() as work:
        tree = Path(work) / "tvm"
        tree.mkdir()
        env, measured = snapshot(args.at, Path(work) / "targetlang")
        files = extract(args.mirror, args.ref, tree)
        print(f"{files} .py files of {args.ref} in {tree}", file=sys.stderr)
        variants: tuple[tuple[str, list[str]], ...] = (("-j 1 ", ["-j", "1"]), ("", []))
        timings: dict[str, list[Timing]] = {label: [] for label, _ in variants}
        peers = Peers([], [], [], [], [])
        for _ in range(args.repeat):
            # the floor in the same round as the command: a shared machine's pace drifts over minutes
            peers.floor.append(timed([sys.executable, "-c", _FLOOR, str(tree)]))
            for label, jobs in variants:
                timing = timed([command, "fix", "--check", "--quiet", *jobs, str(tree)], env)
                timings[label].append(timing)
                print(
                    f"fix --check {label or '(default jobs) '}: {timing.wall:.1f} s wall, {timing.cpu:.1f} s CPU, "
                    f"{timing.others:.1f} s CPU of other processes",
                    file=sys.stderr,
                )
        tiny = Path(work) / "tiny.py"
        tiny.write_text("import os\nprint(os.getcwd())\n", encoding="utf-8")
        dense = dense_file(Path(work))
        for _ in range(args.repeat):
            peers.dense.append(timed([command, "fix", "--check", "--quiet", str(dense)], env))
            done = subprocess.run([sys.executable, "-c", _LIBCST_PARSE, str(dense)], capture_output=True, check=True)
            peers.dense_parse.append(float(done.stdout))
            for _ in range(5):
                peers.tiny.append(timed([command, "fix", "--check", "--quiet", str(tiny)], env))
                peers.fmt.append(timed([command, "fmt", "llvm"], env))
        print(
            f"floor {min(t.cpu for t in peers.floor):.2f} s CPU; dense {min(t.cpu for t in peers.dense):.2f} s "
            f"against a parse of {min(peers.dense_parse):.2f} s; tiny {min(t.wall for t in peers.tiny):.3f} s "
            f"against fmt {min(t.wall for t in peers.fmt):.3f} s",
            file=sys.stderr,
        )
        runs: list[Run] = [(label, timings[label]) for label, _ in variants]
        listed = timed([command, "fix", "--check", "--json", str(tree)], env)
        findings = json.loads(listed.stdout)
        errors = [
            line.replace(str(tree) + os.sep, "")
            for line in listed.stderr.decode("utf-8", errors="replace").splitlines()
            if line.startswith("error:")
        ]
        # Paths relative to the tree, for anyone reading the counts by file.
        for finding in findings:
            finding["file"] = os.path.relpath(str(finding["file"]), tree)
    text = report(args.ref, measured, files, runs, findings, errors, peers)
    print(text)
    if args.write:
        write_section("bench_fix", text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
