"""Benchmark ``targetlang logs check`` against ``json.loads`` alone, and its memory at two log sizes.

Run from the repository root::

    python benchmarks/bench_logs.py                      # print the figures
    python benchmarks/bench_logs.py --write              # and rewrite their section of docs/performance.md
    python benchmarks/bench_logs.py --records 100000     # a smaller generated log, for a quick look

Two inputs: every log of ``tests/data/corpus/logs``, and a generated log of ``--records`` lines
made of the real record lines of those logs in turn (meta-schedule's workload lines, which hold
no target, left out), each AutoTVM and auto_scheduler target
replaced by one of 64 real target strings of the corpus (a tuning log repeats a few targets).

Time: for each input, in this process, the wall time of ``json.loads`` over every line (the floor
of any reader that decodes JSON) and of the ``logs check`` pipeline (``read_lines`` and
``Checker.check``, as the command runs it, without printing), best of ``--repeat`` for the shared
logs and of two passes for the generated one. Memory: the peak resident size of a fresh
``targetlang logs check`` process over the generated log of 100,000 records and of ``--records``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from doc_sections import write_section

from targetlang.logs import Checker, Format, TargetReader, encode_value, read_file, read_lines, records, splice
from targetlang.logs.check import CheckSummary

_ROOT = Path(__file__).resolve().parents[1]
_LOGS = _ROOT / "tests" / "data" / "corpus" / "logs"
_STRINGS = _ROOT / "tests" / "data" / "corpus" / "strings.jsonl"
_GOAL = 1.5  # logs check within this factor of json.loads alone
_SMALL = 100_000


def shared_logs() -> list[Path]:
    return sorted(p for p in _LOGS.rglob("*") if p.is_file() and p.suffix in (".log", ".json"))


def json_only(path: Path) -> int:
    """``json.loads`` of every line that is not a comment; returns the lines decoded."""
    count = 0
    with open(path, "rb") as handle:
        for raw in handle:
            if raw.startswith(b"#") or not raw.strip():
                continue
            try:
                json.loads(raw)
            except ValueError:
                pass  # a pickle row: no JSON to decode
            count += 1
    return count


def check(path: Path) -> CheckSummary:
    """What ``targetlang logs check PATH`` does, without printing."""
    checker = Checker(TargetReader())
    summary = CheckSummary(str(path))
    with open(path, "rb") as handle:
        for record in read_lines(handle, str(path)):
            checker.check(record, summary)
    return summary


def best_seconds(run: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


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


def generated_lines(records: int) -> Iterator[bytes]:
    """``records`` log lines: the real record lines in turn, with targets from the pool."""
    real = [
        record
        for path in shared_logs()
        for record in read_file(path)
        # Workload lines (45 kB of base64 each) have no target and live in a file of their own.
        if record.format not in (Format.COMMENT, Format.UNKNOWN, Format.META_SCHEDULE_WORKLOAD)
    ]
    pool = target_pool()
    for i in range(records):
        record = real[i % len(real)]
        text = record.text
        target = record.field("target")
        if target is not None and target.encoding == "string":
            text = splice(record, target, encode_value(record, target, pool[i % len(pool)]))
        yield (text + "\n").encode("utf-8")


def write_log(path: Path, records: int) -> int:
    size = 0
    with open(path, "wb") as out:
        for line in generated_lines(records):
            out.write(line)
            size += len(line)
    return size


def peak_rss_mb(path: Path) -> float:
    """Peak resident memory of a fresh ``targetlang logs check PATH`` process."""
    code = (
        "import resource, sys\n"
        "from targetlang.cli import main\n"
        "status = main(['logs', 'check', sys.argv[1]])\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(path)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    return int(done.stderr.strip().splitlines()[-1]) / 1024  # ru_maxrss is in KiB on Linux


def measure(path: Path, repeat: int) -> tuple[int, int, float, float, float | None]:
    """Lines, bytes, and seconds of: json.loads alone, logs check with the standard library's
    decoder, and logs check with orjson's (``None`` when orjson is not installed)."""
    lines = json_only(path)
    loads = best_seconds(lambda: json_only(path), repeat)
    fast = records._loads
    records._loads = records._json_loads
    try:
        plain = best_seconds(lambda: check(path), repeat)
    finally:
        records._loads = fast
    with_orjson = best_seconds(lambda: check(path), repeat) if fast is not records._json_loads else None
    return lines, path.stat().st_size, loads, plain, with_orjson


Row = tuple[str, int, int, float, float, float | None]


def _ratio(seconds: float | None, loads: float) -> str:
    return "-" if seconds is None else f"{seconds / loads:.2f}x"


def report(rows: list[Row], memory: list[tuple[int, float]], repeat: int) -> str:
    out = [
        "## Tuning logs",
        "",
        "Measured by `benchmarks/bench_logs.py --write` (this section is generated; rerun it rather than editing).",
        "",
        "`logs check` reads each line, finds its targets' spans, and reads, prints back and resolves each "
        "distinct target once; `json.loads` alone is the floor of any reader that decodes the JSON with the "
        "standard library. Both run in one process over the same lines (best of "
        f"{repeat} for the shared logs, best of 2 for the generated log, which cycles through the real record "
        "lines of the shared logs with 64 real corpus targets). `logs check` is timed twice: decoding with the "
        "standard library's `json`, and with orjson, which targetlang uses when it is installed "
        "(`pip install 'targetlang[fast]'`). On the small shared logs, reading each distinct target the first time "
        "(the parser is built, the targets parsed and resolved) outweighs the lines; the generated log shows the "
        "steady rate.",
        "",
        "| log | lines | MB | `json.loads` s | `logs check`, json s | ratio | `logs check`, orjson s | ratio |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, lines, size, loads, plain, fast in rows:
        fast_s = "-" if fast is None else f"{fast:.3f}"
        out.append(
            f"| {name} | {lines:,} | {size / 1e6:.1f} | {loads:.3f} | {plain:.3f} | {_ratio(plain, loads)} "
            f"| {fast_s} | {_ratio(fast, loads)} |"
        )
    gen = rows[-1]
    best = gen[5] if gen[5] is not None else gen[4]
    out += [
        "",
        "Peak resident memory of a fresh `targetlang logs check` process over the generated log:",
        "",
        "| records | peak RSS MB |",
        "|---:|---:|",
        *[f"| {n:,} | {mb:.1f} |" for n, mb in memory],
        "",
        f"- Goal, `logs check` within {_GOAL}x of `json.loads` alone on the generated log: "
        + ("**met**" if best / gen[3] <= _GOAL else "**not met**")
        + f" with orjson ({_ratio(gen[5], gen[3])}); with the standard library's decoder alone, "
        + f"{_ratio(gen[4], gen[3])}",
    ]
    if len(memory) == 2:
        small, large = memory
        flat = large[1] <= small[1] * 1.25
        out.append(
            f"- Goal, the same peak memory at {small[0]:,} and {large[0]:,} records: "
            + ("**met**" if flat else "**not met**")
            + f" ({small[1]:.1f} MB and {large[1]:.1f} MB)"
        )
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--records", type=int, default=1_000_000, help="generated log size (default: %(default)s)")
    parser.add_argument("--repeat", type=int, default=5, help="repeats for the shared logs (default: %(default)s)")
    parser.add_argument("--write", action="store_true", help="rewrite the logs section of docs/performance.md")
    args = parser.parse_args(argv)

    rows: list[Row] = []
    for path in shared_logs():
        rows.append((str(path.relative_to(_LOGS)), *measure(path, args.repeat)))
        print(f"{rows[-1][0]}: {rows[-1][4] / rows[-1][3]:.2f}x", file=sys.stderr)
    with tempfile.TemporaryDirectory() as work:
        memory = []
        sizes = sorted({min(_SMALL, args.records), args.records})
        for records in sizes:
            path = Path(work) / f"generated-{records}.log"
            print(f"writing {records:,} records...", file=sys.stderr)
            size = write_log(path, records)
            if records == args.records:
                print("timing...", file=sys.stderr)
                lines, _, loads, plain, fast = measure(path, 2)
                rows.append((f"generated, {records:,} records", lines, size, loads, plain, fast))
            memory.append((records, peak_rss_mb(path)))
            os.unlink(path)
    text = report(rows, memory, args.repeat)
    print(text)
    if args.write:
        write_section("bench_logs", text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
