"""Benchmark the ``targetlang logs`` commands (``check``, ``migrate``, ``stats``, ``match``) on
AutoTVM's and auto_scheduler's logs against orjson's decoder alone, on one core and on all of them,
with their peak memory, and a gzip-compressed log against ``zcat`` piped into the command.

Run from the repository root::

    python benchmarks/bench_logs.py                  # print the figures (1 GB logs, the goals' size: ~40 min)
    python benchmarks/bench_logs.py --size 200       # 200 MB logs (the start of a run weighs more)
    python benchmarks/bench_logs.py --at .           # the working tree as it is, not a commit
    python benchmarks/bench_logs.py --write          # and rewrite their section of docs/performance.md

The inputs are generated logs of ``--size`` MB, one per format, made of real records in turn:
AutoTVM's of ``tests/data/corpus/logs/autotvm`` (log formats v0.1 and v0.2, as TopHub's logs mix
them) and auto_scheduler's of ``tests/data/corpus/logs/auto_scheduler`` (TVM v0.8 and v0.19,
TLCBench), each
target replaced by one of 64 real target strings of the corpus (a tuning log repeats a few
targets). A log is one tuner's: another tuner's lines in it would all be lines its loader fails on.

The floor is what any reader that decodes the JSON pays: the file read line by line and each line
given to ``orjson.loads`` (``json.loads`` when orjson is not installed), in this process, on one
core. The commands run as subprocesses of this process, on the ``targetlang`` package of commit
``--at`` (``HEAD`` by default: extracted with ``git archive`` and put first on ``PYTHONPATH``, so
that edits in progress do not change the figures), with ``-j 1`` (one process) and ``-j N``
(``--jobs``, default one per core). Each round runs the floor and then every command once, in
turn, so that what else the shared machine runs weighs on all of them alike; ``--rounds`` rounds,
the least CPU time of each kept. CPU time is the user and system time of the command and of the
worker processes it waited for (``getrusage``): the ratio to the floor is that over the floor's
(with ``-j N`` too: the cost per core), and with ``-j N`` the speed-up in wall time over ``-j 1``
says whether every core is used. Peak resident memory is the command's own and its largest
worker's, measured again over a log of 100,000 records: the same peak at both sizes is flat
memory. The start of a run (Python, the imports, each distinct target read the first time) is the
command's CPU time over the log's first 2,000 lines, and the ratio without it is given beside
(it is what a bigger log tends to). The goals are judged on the median of each round's ratio.
Per core, the ratio is read side by side in one process: the command's own work (the objects its
process gives each block of lines) and the floor's decoding, block by block in turn over the log
after its start (reading the file timed on neither side; beside it, not deciding, the ratio with
the command's reading of the file in blocks added to both sides, about what the floor's own reading
line by line costs), so that each moment's speed of the machine weighs on both alike (runs a few
seconds apart, the floor run again right before each command, gave ratios from 1.1x to 2.1x in
one run). The speed-ups are read from the runs of ``-j 1`` and ``-j N`` one after the other.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import platform
import resource
import shutil
import statistics
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
_GOALS = {"check": 1.5, "migrate": 2.5, "stats": 2.0}  # within this factor of the floor, per core
_MATCH_TARGET = "llvm -keys=cpu -mcpu=core-avx2"
_SMALL = 100_000  # records of the log whose peak memory the big one's is compared with
_FLAT = 1.25  # peak memory at --size within this factor of the small log's: flat
_HEAD = 2000  # lines over which the start of a run is measured (every target and shape of the log is in them)
_FORMATS = {"autotvm": "AutoTVM", "auto_scheduler": "auto_scheduler"}

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


# Run in a subprocess of the commit measured: the command's own work on the log's lines, block
# after block as the command reads them (the first _HEAD lines, the start, given first and not
# timed), each block decoded by the floor right before the command is given it: the two side by
# side in one process, so that each moment's speed of the shared machine weighs on both alike.
# Reading the file and cutting it into lines is timed apart: the verdict leaves it out of both
# (the floor's definition counts its own reading, line by line: left out of both, the ratio is
# the higher), and the ratio with the command's reading of the blocks added to both is given
# beside. The migrated lines are written to a file, as the command writes them.
_STEADY_CHILD = """\
import json, sys, time
from targetlang.logs._chunk_jobs import CheckJob, MigrateJob, StatsJob, count_lines, fresh
from targetlang.logs._jobs import blocks
from targetlang.logs.check import CheckSummary
from targetlang.logs.migration import MigrateSummary
from targetlang.logs.report import Digest
log, name, out_path, head, loads = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), None
try:
    from orjson import loads
except ImportError:
    from json import loads
fresh()
digest = Digest()
if name == "check":
    lines, summary = CheckJob(None, None, "quiet").lines(), CheckSummary(log)
    def take(block, first, open_end, out):
        lines.check(block, first, open_end, summary, digest)
elif name == "migrate":
    lines = MigrateJob(None, None, "json", "error", False, "quiet", True, False).lines()
    summary = MigrateSummary(log)
    def take(block, first, open_end, out):
        new = []
        lines.migrate(block, first, open_end, summary, digest, new, None, [])
        out.write(b"".join(new))
else:
    stats = StatsJob(None, None).stats()
    stats.files += 1
    def take(block, first, open_end, out):
        count_lines(stats, block, first, open_end, log)
clock = time.process_time
floor = command = reading = 0.0
with open(log, "rb") as handle, open(out_path, "wb") as out:
    start = [handle.readline()[:-1] for _ in range(head)]
    take(start, 1, False, out)
    first = head + 1
    read = blocks(handle.read)
    while True:
        began = clock()
        got = next(read, None)
        reading += clock() - began
        if got is None:
            break
        block, _, open_end = got
        began = clock()
        for raw in block:
            try:
                loads(raw)
            except ValueError:
                pass
        middle = clock()
        take(block, first, open_end, out)
        command += clock() - middle
        floor += middle - began
        first += len(block)
print(json.dumps({"floor": floor, "command": command, "reading": reading}))
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


def generated_lines(tuner: str = "autotvm") -> Iterator[bytes]:
    """Log lines without end: the real record lines of ``tuner``'s logs in turn, with targets from
    the pool."""
    from targetlang.logs import Format, encode_value, read_file, splice

    formats = (Format.AUTOTVM_V01, Format.AUTOTVM_V02) if tuner == "autotvm" else (Format.AUTO_SCHEDULER,)
    real = [
        record
        for path in shared_logs()
        if path.parent.name == tuner
        for record in read_file(path)
        if record.format in formats
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


def write_log(
    path: Path, size: int | None = None, records: int | None = None, tuner: str = "autotvm"
) -> tuple[int, int]:
    """A generated log of ``tuner`` of at least ``size`` bytes, or of ``records`` lines; its (lines, bytes)."""
    lines = written = 0
    with open(path, "wb") as out:
        for line in generated_lines(tuner):
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


def floor_seconds(path: Path, start: int = 0, end: int | None = None) -> float:
    """One pass of the floor, in CPU seconds: every line read and decoded (a line that is no JSON
    is skipped); of the lines from byte ``start`` (a line's) to ``end``, if given."""
    _, loads = decoder()
    began = time.process_time()
    left = float("inf") if end is None else end - start
    with open(path, "rb") as handle:
        handle.seek(start)
        for raw in handle:
            try:
                loads(raw)  # type: ignore[operator]
            except ValueError:
                pass
            left -= len(raw)
            if left <= 0:
                break
    return time.process_time() - began


def _floor_part(part: tuple[Path, int, int]) -> float:
    return floor_seconds(*part)


def floor_walls(path: Path, processes: int) -> tuple[float, float]:
    """The floor's wall time in one process, and when ``processes`` processes each take an equal
    part of the file at once, as the commands' workers do: the ratio of the two is what the
    machine itself gives the ``-j N`` runs (its cores, and what they share)."""
    size = path.stat().st_size
    with open(path, "rb") as handle:
        cuts = [0]
        for n in range(1, processes):
            handle.seek(size * n // processes)
            handle.readline()
            cuts.append(handle.tell())
    parts = [(path, start, end) for start, end in zip(cuts, [*cuts[1:], size], strict=True)]
    began = time.perf_counter()
    floor_seconds(path)
    alone = time.perf_counter() - began
    with multiprocessing.get_context("fork").Pool(processes) as pool:
        pool.map(abs, range(processes))  # (the workers started before the clock)
        began = time.perf_counter()
        pool.map(_floor_part, parts, chunksize=1)
        together = time.perf_counter() - began
    return alone, together


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


def timed(argv: list[str], env: dict[str, str], work: Path, stdin: Path | None = None) -> Timing:
    """Run ``targetlang ARGV`` in a fresh process (in ``env``) and measure it; with ``stdin``, the
    gzip-compressed file ``zcat`` pipes into it (its CPU time counted too)."""
    usage = work / "usage.json"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    busy = machine_busy()
    start = time.perf_counter()
    child = [sys.executable, "-c", _CHILD, str(usage), *argv]
    if stdin is None:
        done = subprocess.run(child, env=env, cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        code, err = done.returncode, done.stderr
    else:
        zcat = subprocess.Popen([shutil.which("zcat") or "zcat", str(stdin)], stdout=subprocess.PIPE)
        done = subprocess.run(
            child, env=env, cwd=work, stdin=zcat.stdout, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        assert zcat.stdout is not None
        zcat.stdout.close()
        zcat.wait()
        code, err = done.returncode or zcat.returncode, done.stderr
    wall = time.perf_counter() - start
    busy = machine_busy() - busy
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if code != 0 or not usage.exists():
        raise SystemExit(f"targetlang {' '.join(argv)} failed ({code}):\n{err.decode()[-2000:]}")
    used = json.loads(usage.read_text())
    usage.unlink()
    if used["status"] not in (0, 1, 3):
        raise SystemExit(f"targetlang {' '.join(argv)} exited {used['status']}:\n{err.decode()[-2000:]}")
    # ru_maxrss is in KiB on Linux
    return Timing(wall, cpu, max(0.0, busy - cpu), used["rss"] / 1024, used["worker_rss"] / 1024)


def steady(name: str, log: Path, out: Path, env: dict[str, str], work: Path) -> tuple[float, float]:
    """The CPU time of ``logs NAME``'s own work on the log's lines after its start over the
    floor's on the same blocks, the two in turn block by block in one process (see _STEADY_CHILD),
    with reading the file and cutting it into lines counted on neither side, and on both."""
    argv = [sys.executable, "-c", _STEADY_CHILD, str(log), name, str(out), str(_HEAD)]
    done = subprocess.run(argv, env=env, cwd=work, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"the steady run of logs {name} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    times = {key: float(value) for key, value in json.loads(done.stdout).items()}
    both = (times["command"] + times["reading"]) / (times["floor"] + times["reading"])
    return times["command"] / times["floor"], both


def command(name: str, log: Path | str, out: Path, jobs: int | None) -> list[str]:
    argv = ["logs", name]
    if name in ("check", "migrate"):
        argv.append("--quiet")
    argv.append(str(log))
    if name == "migrate":
        argv += ["-o", str(out)]
    if name == "match":
        argv += ["--target", _MATCH_TARGET]
    return argv + (["-j", str(jobs)] if jobs is not None else [])


# ---------------------------------------------------------------------------------- report


@dataclass
class Row:
    tuner: str  # "autotvm", "auto_scheduler"
    name: str  # "check", "migrate", "stats", "match"
    jobs: int  # processes asked for
    timing: Timing  # the run of the least CPU time
    wall: float = 0.0  # the least wall time of the runs (the quietest moment of the machine)


@dataclass
class Measured:
    """One format's figures."""

    tuner: str
    lines: int
    size: int
    floor: float  # CPU seconds, the least of the rounds
    rows: list[Row]
    memory: list[Row]  # over the small log
    start: dict[str, float]  # CPU seconds of each command over the log's first lines
    start_bytes: int  # the bytes of those lines
    floor_speedup: float  # the floor's own on the -j N runs' processes: the least wall times' ratio
    # Each round's (floor, the command's one-process CPU time) with the floor run right before
    # it; each round's -j 1 wall time over -j N's, run one after the other; each round's floor
    # speed-up. Their medians are the verdicts: on a shared machine whose speed changes by half
    # within a run, the least of each taken apart pairs moments minutes away.
    paired: dict[str, list[tuple[float, float]]]
    speedups: dict[str, list[float]]
    floor_speedups: list[float]
    # Each round's ratio of the command's own work to the floor's, the two in turn block by block
    # in one process (see steady): the verdict per core, the same moments weighing on both
    steadies: dict[str, list[float]]
    # The same with the command's reading of the file in blocks added to both sides (not the verdict)
    read_steadies: dict[str, list[float]]


def _each(values: list[float]) -> str:
    return ", ".join(f"{value:.2f}" for value in values)


def _met(ok: bool) -> str:
    return "**met**" if ok else "**not met**"


def _best(timings: list[Timing]) -> Timing:
    return min(timings, key=lambda t: t.cpu)


def report(
    measured_at: str,
    results: list[Measured],
    small: int,
    cores: int,
    rounds: int,
    gz: tuple[Timing, Timing, int, int] | None,
) -> str:
    name, _ = decoder()
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
        f"- msgspec: {package_version('msgspec')}",
        f"- targetlang: {measured_at}",
        "",
        "### Method",
        "",
        "Generated logs, one per format, made of the real records of the shared logs in turn (AutoTVM's of "
        "tests/data/corpus/logs/autotvm, log formats v0.1 and v0.2; auto_scheduler's of "
        "tests/data/corpus/logs/auto_scheduler, TVM v0.8 and v0.19 and TLCBench's), with 64 real corpus targets: "
        + "; ".join(f"{_FORMATS[m.tuner]} {m.lines:,} lines ({m.size / 1e6:,.0f} MB)" for m in results)
        + f". The floor is the file read line by line and each line given to `{name}` in the benchmark's process, "
        "on one core. The commands run as subprocesses of that process (`logs check --quiet FILE`, `logs migrate "
        f"--quiet FILE -o OUT`, `logs stats FILE`, `logs match FILE --target '{_MATCH_TARGET}'`) of targetlang with "
        f"its bytecode compiled, as `pip install` leaves it, with `-j 1` and with `-j {cores}`. Each of {rounds} "
        "rounds runs the floor, then every command once, in turn (the machine is shared: what else runs weighs "
        "on all of them alike); the least CPU time of each is kept (and the least wall time). CPU time is the "
        "process's user and system time, the command's with its workers' (getrusage); the ratio is that over the "
        "floor's, with several processes too (the cost per core), and the speed-up is `-j 1`'s least wall time "
        "over `-j N`'s (wall time depends on what else the machine runs: the last column is the CPU time the rest "
        "of the machine used during the run of the least CPU time). The start of a run (Python, the imports, each "
        "distinct target read the first time: about 0.2 s whatever the log) is the command's CPU time over the "
        f"log's first {_HEAD:,} lines; the goals per core are marked on the rest of the run, which is what the "
        "ratio of a bigger log tends to, and the ratio of the whole run is given beside. The goals per core are "
        "judged side by side in one process: in a subprocess of the same commit, the log is read in the blocks "
        f"the command reads, its first {_HEAD:,} lines (the start) given to the command's own objects first, "
        "untimed, then each block decoded by the floor and right after given to the command's objects (the "
        "migrated lines written to a file), the CPU time of each summed (reading the file and cutting it into "
        "lines timed on neither side, which makes the ratio higher than with both: beside it, not deciding, the "
        "ratio with the command's reading of the file in blocks added to both sides, about what the floor's own "
        "reading line by line costs); the ratio of the two sums is the "
        "command's cost per core, each moment's speed of the machine weighing on both alike (runs of the command "
        "a few seconds apart from the floor's gave ratios from 1.1x to 2.1x within one run: they are given "
        "beside). What the machine itself "
        f"gives {cores} processes is the floor's own speed-up: the file cut in {cores} equal parts of whole lines, "
        f"each decoded by a process of its own at once, against one process decoding it all: beside each goal of "
        "all the cores. The tables give the least of the rounds; the goals are judged on the median of the rounds' "
        "ratios, each read from runs next to each other in time (side by side per core, as above; `-j 1`'s wall "
        "time over `-j N`'s, run one after the other; the floor in one process and in several), since the "
        "machine's speed changes by half within a run, and the least of each run taken apart pairs moments "
        "minutes away.",
        "",
    ]
    for m in results:
        mb = m.size / 1e6
        out += [
            f"### {_FORMATS[m.tuner]}",
            "",
            "| command | processes | CPU s | MB/s per core | wall s | speed-up | ratio to the floor (CPU) | "
            "peak RSS MB (command / largest worker) | other processes' CPU s |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
            f"| `{name}` per line | 1 | {m.floor:.2f} | {mb / m.floor:.0f} | - | - | 1.00x | - | - |",
        ]
        walls = {(row.name, row.jobs): row.wall for row in m.rows}
        for row in m.rows:
            t = row.timing
            worker = f" / {t.worker_rss:.0f}" if t.worker_rss else ""
            faster = f"{walls[row.name, 1] / t.wall:.2f}" if row.jobs > 1 and (row.name, 1) in walls else "-"
            out.append(
                f"| `logs {row.name}` | {row.jobs} | {t.cpu:.2f} | {mb / t.cpu:.0f} | {row.wall:.2f} | {faster} "
                f"| {t.cpu / m.floor:.2f}x | {t.rss:.0f}{worker} | {t.others:.1f} |"
            )
        out += [
            "",
            f"Peak resident memory at {small:,} records (the same commands, a log of {small:,} lines):",
            "",
            "| command | processes | peak RSS MB (command / largest worker) |",
            "|---|---:|---:|",
        ]
        for row in m.memory:
            t = row.timing
            worker = f" / {t.worker_rss:.0f}" if t.worker_rss else ""
            out.append(f"| `logs {row.name}` | {row.jobs} | {t.rss:.0f}{worker} |")
        out.append("")
    if gz is not None:
        packed, piped, size, lines = gz
        out += [
            "### A gzip-compressed log",
            "",
            f"The AutoTVM log of {lines:,} lines, gzip-compressed ({size / 1e6:,.0f} MB), read by `logs check --quiet "
            "x.log.gz` (decompressed as it is read, in the command's process) and by `zcat x.log.gz | logs check "
            "--quiet -` (the floor: zcat's CPU time counted in), the least of the rounds:",
            "",
            "| command | CPU s | wall s |",
            "|---|---:|---:|",
            f"| `logs check --quiet x.log.gz` | {packed.cpu:.2f} | {packed.wall:.2f} |",
            f"| `zcat x.log.gz \\| logs check --quiet -` | {piped.cpu:.2f} | {piped.wall:.2f} |",
            "",
        ]
    out += ["### Goals", ""]
    for m in results:
        fmt = _FORMATS[m.tuner]
        by = {(row.name, row.jobs): row.timing for row in m.rows}
        least_wall = {(row.name, row.jobs): row.wall for row in m.rows}
        for name_, goal in _GOALS.items():
            one = by.get((name_, 1))
            if one is None:
                continue
            begun = m.start[name_]
            rest = (m.size - m.start_bytes) / m.size
            wholes = [cpu / floor for floor, cpu in m.paired[name_]]
            runs = [(cpu - begun) / (floor * rest) for floor, cpu in m.paired[name_]]
            ratio = statistics.median(m.steadies[name_])
            out.append(
                f"- {fmt}: `logs {name_}` within {goal}x of the floor per core (one process, the start of the run "
                f"left out; the median of the rounds, each the command's work and the floor's block by block side "
                f"by side): {_met(ratio <= goal)} ({ratio:.2f}x: {_each(m.steadies[name_])}; not deciding, with "
                f"reading the file counted on both sides {statistics.median(m.read_steadies[name_]):.2f}x "
                f"({_each(m.read_steadies[name_])}); the runs of the "
                f"command, each against the floor run just before, the start left out: {statistics.median(runs):.2f}x"
                f" ({_each(runs)}), the whole run {statistics.median(wholes):.2f}x, its start {begun:.2f} s)"
            )
        for name_ in ("check", "migrate", "stats", "match"):
            one, many = by.get((name_, 1)), by.get((name_, cores))
            if cores == 1 or one is None or many is None:
                continue
            speedup = statistics.median(m.speedups[name_])
            out.append(
                f"- {fmt}: `logs {name_}` on all {cores} cores (`-j {cores}` at least {0.75 * cores:.1f} times as "
                f"fast as `-j 1`, the median of the rounds, each of the two runs one after the other): "
                f"{_met(speedup >= 0.75 * cores)} ({speedup:.2f} times: {_each(m.speedups[name_])}; the least wall "
                f"times {least_wall[name_, 1] / least_wall[name_, cores]:.2f}; {many.cpu / m.floor:.2f}x the floor "
                f"per core; the floor itself {statistics.median(m.floor_speedups):.2f} times on {cores} processes: "
                f"{_each(m.floor_speedups)})"
            )
        for row in m.memory:
            large = by.get((row.name, row.jobs))
            if large is None:
                continue
            peak_small = row.timing.rss + row.timing.worker_rss
            peak_large = large.rss + large.worker_rss
            out.append(
                f"- {fmt}: `logs {row.name} -j {row.jobs}`, the same peak memory at {small:,} and {m.lines:,} "
                f"records: {_met(peak_large <= peak_small * _FLAT)} ({peak_small:.0f} MB and {peak_large:.0f} MB, "
                "command and largest worker)"
            )
    if gz is not None:
        packed, piped, _, _ = gz
        out.append(
            f"- a gzip-compressed log at the speed of `zcat` and the command: {_met(packed.cpu <= piped.cpu)} "
            f"({packed.cpu:.2f} s of CPU against {piped.cpu:.2f} s; {packed.wall:.2f} s wall against "
            f"{piped.wall:.2f} s)"
        )
    return "\n".join(out) + "\n"


def measure(
    tuner: str, args: argparse.Namespace, env: dict[str, str], work: Path, variants: list[int]
) -> tuple[Measured, Path]:
    """The figures of ``tuner``'s log; the log is left at the path returned (the small one is
    made beside it)."""
    log, out = work / f"{tuner}.log", work / "migrated.log"
    print(f"writing {args.size:,.0f} MB of {tuner}...", file=sys.stderr)
    lines, size = write_log(log, size=int(args.size * 1e6), tuner=tuner)
    names = [*_GOALS, "match"]
    floors: list[float] = []
    walls: list[tuple[float, float]] = []
    paired_floors: dict[str, list[float]] = {name: [] for name in names}
    steadies: dict[str, list[float]] = {name: [] for name in _GOALS}
    read_steadies: dict[str, list[float]] = {name: [] for name in _GOALS}
    runs: dict[tuple[str, int], list[Timing]] = {(name, jobs): [] for name in names for jobs in variants}
    for n in range(args.rounds):
        floors.append(floor_seconds(log))
        if len(variants) > 1:
            walls.append(floor_walls(log, variants[-1]))
        print(
            f"{tuner} round {n + 1}: floor {floors[-1]:.2f} s CPU"
            + (f", {walls[-1][0] / walls[-1][1]:.2f} times as fast on {variants[-1]} processes" if walls else ""),
            file=sys.stderr,
        )
        for name in names:
            if name in _GOALS:
                neither, both = steady(name, log, out, env, work)
                steadies[name].append(neither)
                read_steadies[name].append(both)
                print(
                    f"  logs {name}, block by block beside the floor: {neither:.2f}x ({both:.2f}x with reading)",
                    file=sys.stderr,
                )
            # the floor again right before the command: the machine's speed changes within a
            # round, and a ratio is read from the two runs nearest in time (see Measured.paired)
            paired_floors[name].append(floor_seconds(log))
            for jobs in variants:
                t = timed(command(name, log, out, jobs), env, work)
                runs[name, jobs].append(t)
                print(
                    f"  logs {name} -j {jobs}: {t.cpu:.2f} s CPU, {t.wall:.2f} s wall, {t.cpu / floors[-1]:.2f}x, "
                    f"peak {t.rss:.0f} / {t.worker_rss:.0f} MB, others {t.others:.1f} s",
                    file=sys.stderr,
                )
    out.unlink(missing_ok=True)
    rows = [
        Row(tuner, name, jobs, _best(runs[name, jobs]), min(t.wall for t in runs[name, jobs]))
        for name in names
        for jobs in variants
    ]
    head_log = work / f"{tuner}-head.log"
    _, head = write_log(head_log, records=_HEAD, tuner=tuner)
    start = {name: min(timed(command(name, head_log, out, 1), env, work).cpu for _ in range(3)) for name in _GOALS}
    small = min(_SMALL, lines)
    memory: list[Row] = []
    if small < lines:
        small_log = work / f"{tuner}-small.log"
        write_log(small_log, records=small, tuner=tuner)
        for name in names:
            for jobs in variants:
                memory.append(Row(tuner, name, jobs, timed(command(name, small_log, out, jobs), env, work)))
        small_log.unlink()
    return Measured(
        tuner,
        lines,
        size,
        min(floors),
        rows,
        memory,
        start,
        head,
        min(w[0] for w in walls) / min(w[1] for w in walls) if walls else 1.0,
        {name: list(zip(paired_floors[name], (t.cpu for t in runs[name, 1]), strict=True)) for name in _GOALS},
        {
            name: [one.wall / many.wall for one, many in zip(runs[name, 1], runs[name, variants[-1]], strict=True)]
            for name in names
        },
        [alone / together for alone, together in walls],
        steadies,
        read_steadies,
    ), log


def measure_gz(log: Path, args: argparse.Namespace, env: dict[str, str], work: Path) -> tuple[Timing, Timing, int]:
    packed = log.with_name(log.name + ".gz")
    subprocess.run(["gzip", "-k", "-f", str(log)], check=True)
    out = work / "unused"
    runs: tuple[list[Timing], list[Timing]] = ([], [])
    for _ in range(args.rounds):
        runs[0].append(timed(command("check", packed, out, 1), env, work))
        runs[1].append(timed(command("check", "-", out, 1), env, work, stdin=packed))
        print(f"gz: {runs[0][-1].cpu:.2f} s CPU, zcat | check: {runs[1][-1].cpu:.2f} s CPU", file=sys.stderr)
    size = packed.stat().st_size
    packed.unlink()
    return _best(runs[0]), _best(runs[1]), size


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--size", type=float, default=1000, help="generated log size in MB (default: %(default)s)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes of the pool runs")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of every run (default: %(default)s)")
    parser.add_argument("--at", default="HEAD", help="the commit of targetlang to run, '.': the working tree")
    parser.add_argument("--write", action="store_true", help="rewrite the logs section of docs/performance.md")
    args = parser.parse_args(argv)

    results: list[Measured] = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        env, measured_at = snapshot(args.at, work / "snapshot")
        sys.path.insert(0, env["PYTHONPATH"].split(os.pathsep)[0])  # the log is made by the measured code too
        variants = [1, args.jobs] if args.jobs > 1 else [1]
        gz: tuple[Timing, Timing, int, int] | None = None
        for tuner in _FORMATS:
            measured, log = measure(tuner, args, env, work, variants)
            results.append(measured)
            if tuner == "autotvm":
                packed, piped, size = measure_gz(log, args, env, work)
                gz = (packed, piped, size, measured.lines)
            log.unlink()
    text = report(measured_at, results, _SMALL, args.jobs, args.rounds, gz)
    print(text)
    if args.write:
        write_section("bench_logs", text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
