"""Benchmark ``targetlang logs check`` and ``logs migrate`` against orjson's decoder alone, on one
core and on all of them, with their peak memory.

Run from the repository root::

    python benchmarks/bench_logs.py                  # print the figures (a 200 MB generated log)
    python benchmarks/bench_logs.py --size 1000      # the 1 GB log of issue 12
    python benchmarks/bench_logs.py --at .           # the working tree as it is, not a commit
    python benchmarks/bench_logs.py --write          # and rewrite their section of docs/performance.md

The input is a generated log of ``--size`` MB made of the real AutoTVM record lines (log formats
v0.1 and v0.2, as TopHub's logs mix them) of ``tests/data/corpus/logs/autotvm`` in turn, each
target replaced by one of 64 real target strings of the corpus (a tuning log repeats a few
targets). A log is one tuner's: another tuner's lines in it would all be lines its loader fails on.

The floor is what any reader that decodes the JSON pays: the file read line by line and each line
given to ``orjson.loads`` (``json.loads`` when orjson is not installed), in this process, on one
core, best of two passes. Its rate is the floor *per core*.

The commands run as subprocesses, on the ``targetlang`` package of commit ``--at`` of this
repository (``HEAD`` by default: extracted with ``git archive`` and put first on ``PYTHONPATH``,
so that edits in progress do not change the figures): ``logs check --quiet FILE`` and ``logs
migrate --quiet FILE -o OUT``, each with ``-j 1`` (one process) and with ``-j N`` (``--jobs``,
default one per core), ``--repeat`` times, the fastest run of each kept. Wall time is taken
around the subprocess; CPU time is the user and system time of the command and of the worker
processes it waited for (``getrusage``); peak resident memory is the command's own and its
largest worker's. The ratio to the floor is the command's wall time over the floor's with ``-j
1`` (the goal per core), and CPU time over the floor's with ``-j N``. The start of a run (Python,
the imports, each distinct target read the first time) is measured apart, as the command's time
over the log's first 2,000 lines, and the ratio without it given beside (it is what a bigger log
tends to). Memory is measured again over a log of 100,000 records: the same peak at both sizes
is flat memory.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from doc_sections import compile_bytecode, cpu_model, extract_commit, machine_busy, package_version, write_section

_ROOT = Path(__file__).resolve().parents[1]
_LOGS = _ROOT / "tests" / "data" / "corpus" / "logs"
_STRINGS = _ROOT / "tests" / "data" / "corpus" / "strings.jsonl"
_GOALS = {"check": 1.5, "migrate": 2.5}  # within this factor of the floor, per core
_SMALL = 100_000  # records of the log whose peak memory the big one's is compared with
_FLAT = 1.25  # peak memory at --size within this factor of the small log's: flat
_HEAD = 2000  # lines over which the start of a run is measured (every target and shape of the log is in them)

# Run in the subprocess: the command, then its resource use (written to a file: the command's
# stderr is its own).
_CHILD = """\
import json, resource, sys
from targetlang._cli import main
status = main(sys.argv[2:])
me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
with open(sys.argv[1], "w") as out:
    json.dump({"status": status, "rss": me.ru_maxrss, "worker_rss": children.ru_maxrss}, out)
"""


# ---------------------------------------------------------------------------------- input


def shared_logs() -> list[Path]:
    return sorted(p for p in _LOGS.rglob("*") if p.is_file() and p.suffix in (".log", ".json"))


def target_pool(size: int = 64) -> list[str]:
    """Real legacy target strings of the corpus that read, print back and resolve."""
    import targetlang

    pool: list[str] = []
    with open(_STRINGS, encoding="utf-8") as handle:
        for line in handle:
            entry = json.loads(line)
            if entry.get("form") != "legacy-string" or entry["text"] in pool:
                continue
            try:
                targetlang.parse(entry["text"]).resolve()
            except targetlang.TargetError:
                continue
            pool.append(entry["text"])
            if len(pool) == size:
                break
    return pool


def generated_lines() -> Iterator[bytes]:
    """Log lines without end: the real AutoTVM record lines in turn, with targets from the pool."""
    from targetlang.logs import Format, encode_value, read_file, splice

    # A log is one tuner's: the lines of another tuner's would all be lines its loader fails on.
    real = [
        record
        for path in shared_logs()
        if path.parent.name == "autotvm"
        for record in read_file(path)
        if record.format in (Format.AUTOTVM_V01, Format.AUTOTVM_V02)
    ]
    pool = target_pool()
    i = 0
    while True:
        record = real[i % len(real)]
        text = record.text
        target = record.field("target")
        if target is not None and target.encoding == "string":
            text = splice(record, target, encode_value(record, target, pool[i % len(pool)]))
        yield (text + "\n").encode("utf-8")
        i += 1


def write_log(path: Path, size: int | None = None, records: int | None = None) -> tuple[int, int]:
    """A generated log of at least ``size`` bytes, or of ``records`` lines; its (lines, bytes)."""
    lines = written = 0
    with open(path, "wb") as out:
        for line in generated_lines():
            if (size is not None and written >= size) or (records is not None and lines >= records):
                break
            out.write(line)
            written += len(line)
            lines += 1
    return lines, written


# ---------------------------------------------------------------------------------- the floor


def decoder() -> tuple[str, object]:
    try:
        import orjson
    except ImportError:
        return "json.loads", json.loads
    return "orjson.loads", orjson.loads


def floor_seconds(path: Path) -> float:
    """One pass of the floor: every line read and decoded (a line that is no JSON is skipped)."""
    _, loads = decoder()
    start = time.perf_counter()
    with open(path, "rb") as handle:
        for raw in handle:
            try:
                loads(raw)  # type: ignore[operator]
            except ValueError:
                pass
    return time.perf_counter() - start


# ---------------------------------------------------------------------------------- the commands


def snapshot(at: str, into: Path) -> tuple[dict[str, str], str]:
    """The environment that runs commit ``at`` of targetlang (``"."``: the working tree), and how
    the report names what was measured."""
    if at == ".":
        compile_bytecode(_ROOT / "targetlang")
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(_ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]))
        return env, "the working tree of the checkout"
    env, commit = extract_commit(_ROOT, at, into)
    return env, f"commit {commit}"


@dataclass
class Timing:
    wall: float  # seconds around the subprocess
    cpu: float  # user and system seconds of the command and of its workers
    others: float  # CPU seconds the rest of the machine used meanwhile
    rss: float  # MB, the command's own peak
    worker_rss: float  # MB, its largest worker's peak (0: no worker)
    status: int


def timed(argv: list[str], env: dict[str, str], work: Path) -> Timing:
    """Run ``targetlang ARGV`` in a fresh process (in ``env``) and measure it."""
    usage = work / "usage.json"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    busy = machine_busy()
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(usage), *argv],
        env=env,
        cwd=work,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    wall = time.perf_counter() - start
    busy = machine_busy() - busy
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode != 0 or not usage.exists():
        raise SystemExit(f"targetlang {' '.join(argv)} failed ({done.returncode}):\n{done.stderr.decode()[-2000:]}")
    used = json.loads(usage.read_text())
    usage.unlink()
    if used["status"] not in (0, 1, 3):
        raise SystemExit(f"targetlang {' '.join(argv)} exited {used['status']}:\n{done.stderr.decode()[-2000:]}")
    # ru_maxrss is in KiB on Linux
    return Timing(wall, cpu, max(0.0, busy - cpu), used["rss"] / 1024, used["worker_rss"] / 1024, used["status"])


def has_jobs(env: dict[str, str], work: Path) -> bool:
    """Whether the measured targetlang's ``logs`` commands take ``-j``."""
    done = subprocess.run(
        [sys.executable, "-m", "targetlang", "logs", "check", "--help"],
        env=env,
        cwd=work,
        capture_output=True,
        text=True,
    )
    return "--jobs" in done.stdout


def command(name: str, log: Path, out: Path, jobs: int | None) -> list[str]:
    argv = ["logs", name, "--quiet", str(log)]
    if name == "migrate":
        argv += ["-o", str(out)]
    return argv + (["-j", str(jobs)] if jobs is not None else [])


# ---------------------------------------------------------------------------------- report


@dataclass
class Row:
    name: str  # "check", "migrate"
    jobs: int  # processes asked for
    timing: Timing


def _met(ok: bool) -> str:
    return "**met**" if ok else "**not met**"


def report(
    measured: str,
    lines: int,
    size: int,
    floor: float,
    rows: list[Row],
    memory: list[Row],
    small: int,
    cores: int,
    start: dict[str, tuple[float, int]],
) -> str:
    name, _ = decoder()
    mb = size / 1e6
    out = [
        "## Tuning logs",
        "",
        "Measured by `benchmarks/bench_logs.py --write` (this section is generated; rerun it rather than editing).",
        "",
        "### Machine",
        "",
        f"- platform: {platform.platform()}",
        f"- cpu: {cpu_model()}",
        f"- cpu count: {os.cpu_count()}",
        f"- python: {platform.python_implementation()} {platform.python_version()}",
        f"- orjson: {package_version('orjson')}",
        f"- targetlang: {measured}",
        "",
        "### Method",
        "",
        f"A generated log of {lines:,} lines ({mb:,.0f} MB) made of the real AutoTVM record lines of the shared "
        "logs (tests/data/corpus/logs/autotvm, log formats v0.1 and v0.2) in turn, with 64 real corpus targets. "
        f"The floor is the file read line by line and each line given to `{name}` in one process: "
        f"{mb / floor:.0f} MB/s, the floor per core. The commands "
        "run as subprocesses (`logs check --quiet FILE`, `logs migrate --quiet FILE -o OUT`) of targetlang with its "
        "bytecode compiled, as `pip install` leaves it, with `-j 1` and with "
        f"`-j {cores}`, the fastest of the runs of each kept. Wall time is taken around the subprocess, CPU time is "
        "the command's and its workers'; the ratio is wall time over the floor's with one process, CPU time over "
        "the floor's with several (the cost per core). The last column is the CPU time the rest of the machine used "
        "meanwhile, which slows a run that wants every core. The start of a run (Python, the imports, each "
        f"distinct target read the first time) is what the command takes over the log's first {_HEAD:,} lines; "
        "the goals are marked on the whole run, and the rate without the start is given beside.",
        "",
        "### Results",
        "",
        "| command | processes | wall s | MB/s | CPU s | cores busy | ratio to the floor | peak RSS MB (command / "
        "largest worker) | other processes' CPU s |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
        f"| `{name}` per line | 1 | {floor:.2f} | {mb / floor:.0f} | {floor:.2f} | 1.0 | 1.00x | - | - |",
    ]
    for row in rows:
        t = row.timing
        ratio = (t.wall if row.jobs == 1 else t.cpu) / floor
        worker = f" / {t.worker_rss:.0f}" if t.worker_rss else ""
        out.append(
            f"| `logs {row.name}` | {row.jobs} | {t.wall:.2f} | {mb / t.wall:.0f} | {t.cpu:.2f} | {t.cpu / t.wall:.1f} "
            f"| {ratio:.2f}x | {t.rss:.0f}{worker} | {t.others:.1f} |"
        )
    out += [
        "",
        f"Peak resident memory at {small:,} records (the same command, a log of {small:,} lines):",
        "",
        "| command | processes | peak RSS MB (command / largest worker) |",
        "|---|---:|---:|",
    ]
    for row in memory:
        t = row.timing
        worker = f" / {t.worker_rss:.0f}" if t.worker_rss else ""
        out.append(f"| `logs {row.name}` | {row.jobs} | {t.rss:.0f}{worker} |")
    out += ["", "### Goals", ""]
    by = {(row.name, row.jobs): row.timing for row in rows}
    for name_, goal in _GOALS.items():
        one = by.get((name_, 1))
        if one is not None:
            ratio = one.wall / floor
            begun, head = start[name_]
            steady = (one.wall - begun) / (floor * (size - head) / size)
            out.append(
                f"- `logs {name_}` within {goal}x of the floor per core (one process): {_met(ratio <= goal)} "
                f"({ratio:.2f}x, {mb / one.wall:.0f} MB/s against {mb / floor:.0f} MB/s; without the start of the "
                f"run, {begun:.2f} s, {steady:.2f}x)"
            )
    for name_ in _GOALS:
        one, many = by.get((name_, 1)), by.get((name_, cores))
        if cores == 1:
            break
        if one is None or many is None:
            out.append(f"- `logs {name_}` on all {cores} cores: **not met** (the command has no `-j`)")
            continue
        speedup = one.wall / many.wall
        out.append(
            f"- `logs {name_}` on all {cores} cores (`-j {cores}` at least {0.75 * cores:.1f} times as fast as "
            f"`-j 1`): {_met(speedup >= 0.75 * cores)} ({speedup:.2f} times, {many.cpu / many.wall:.1f} cores busy)"
        )
    big = {(row.name, row.jobs): row.timing for row in rows}
    for row in memory:
        large = big.get((row.name, row.jobs))
        if large is None:
            continue
        peak_small = row.timing.rss + row.timing.worker_rss
        peak_large = large.rss + large.worker_rss
        out.append(
            f"- `logs {row.name} -j {row.jobs}`, the same peak memory at {small:,} and {lines:,} records: "
            f"{_met(peak_large <= peak_small * _FLAT)} ({peak_small:.0f} MB and {peak_large:.0f} MB, command and "
            "largest worker)"
        )
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--size", type=float, default=200, help="generated log size in MB (default: %(default)s)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes of the pool runs")
    parser.add_argument("--repeat", type=int, default=1, help="timed runs of each command (default: %(default)s)")
    parser.add_argument("--at", default="HEAD", help="the commit of targetlang to run, '.': the working tree")
    parser.add_argument("--write", action="store_true", help="rewrite the logs section of docs/performance.md")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        env, measured = snapshot(args.at, work / "snapshot")
        sys.path.insert(0, env["PYTHONPATH"].split(os.pathsep)[0])  # the log is made by the measured code too
        jobs_option = has_jobs(env, work)
        log, out = work / "generated.log", work / "migrated.log"
        print(f"writing {args.size:,.0f} MB...", file=sys.stderr)
        lines, size = write_log(log, size=int(args.size * 1e6))
        floor = min(floor_seconds(log) for _ in range(2))
        print(f"floor: {floor:.2f} s, {size / 1e6 / floor:.0f} MB/s", file=sys.stderr)
        variants = [1, args.jobs] if jobs_option and args.jobs > 1 else [1]
        rows: list[Row] = []
        for name in _GOALS:
            for jobs in variants:
                timings = []
                for _ in range(args.repeat):
                    timings.append(timed(command(name, log, out, jobs if jobs_option else None), env, work))
                    t = timings[-1]
                    print(
                        f"logs {name} -j {jobs}: {t.wall:.2f} s wall, {t.cpu:.2f} s CPU, "
                        f"{size / 1e6 / t.wall:.0f} MB/s, {t.wall / floor:.2f}x, "
                        f"peak {t.rss:.0f} / {t.worker_rss:.0f} MB, others {t.others:.1f} s",
                        file=sys.stderr,
                    )
                rows.append(Row(name, jobs, min(timings, key=lambda t: t.wall)))
        out.unlink(missing_ok=True)
        start: dict[str, tuple[float, int]] = {}
        _, head = write_log(log, records=_HEAD)
        for name in _GOALS:
            start[name] = (
                min(timed(command(name, log, out, 1 if jobs_option else None), env, work).wall for _ in range(3)),
                head,
            )
            print(f"logs {name}, start of a run: {start[name][0]:.2f} s", file=sys.stderr)
        small = min(_SMALL, lines)
        memory: list[Row] = []
        if small < lines:
            write_log(log, records=small)
            for name in _GOALS:
                for jobs in variants:
                    memory.append(
                        Row(name, jobs, timed(command(name, log, out, jobs if jobs_option else None), env, work))
                    )
    text = report(measured, lines, size, floor, rows, memory, small, args.jobs, start)
    print(text)
    if args.write:
        write_section("bench_logs", text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
