"""Benchmark targetlang over the corpus legacy strings, and TVM 0.27's constructor beside it.

Run from the repository root, with apache-tvm installed for the comparison::

    python benchmarks/bench_parse.py            # print the table
    python benchmarks/bench_parse.py --write    # and rewrite its section of docs/performance.md

Every number is microseconds per target, averaged over the corpus: each measurement times whole
passes over the corpus (as timeit does, so timer overhead is spread over many calls) and keeps the
median of several repeats, which is robust to the odd slow pass a busy machine produces.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from doc_sections import DOC as _DOC
from doc_sections import cpu_model as _cpu_model
from doc_sections import write_section

import targetlang

_ROOT = Path(__file__).resolve().parents[1]
_CORPUS = _ROOT / "tests" / "data" / "corpus" / "strings.jsonl"

# The goals the project set itself; the doc marks each met or not met from the measured numbers.
_COLD_VS_TVM_GOAL = 3.0
_WARM_PARSE_GOAL_US = 2.0
_IMPORT_GOAL_MS = 150.0


@dataclass(frozen=True)
class Row:
    """One line of the table."""

    name: str
    us_per_target: float
    targets: int
    note: str = ""


def load_texts(corpus: Path) -> tuple[list[str], int]:
    """The corpus legacy strings targetlang accepts (each once), and how many it rejects."""
    texts: list[str] = []
    rejected = 0
    seen: set[str] = set()
    with corpus.open(encoding="utf-8") as lines:
        for line in lines:
            row = json.loads(line)
            text = row["text"]
            if row["form"] != "legacy-string" or text in seen:
                continue
            seen.add(text)
            try:
                targetlang.parse(text)
            except targetlang.TargetError:
                rejected += 1
                continue
            texts.append(text)
    return texts, rejected


def _pass_ns(run: Callable[[], None], number: int) -> int:
    start = time.perf_counter_ns()
    for _ in range(number):
        run()
    return time.perf_counter_ns() - start


def per_target_us(run: Callable[[], None], count: int, repeat: int, number: int) -> float:
    """Median over ``repeat`` of the time of ``number`` calls of ``run`` (one corpus pass each),
    as microseconds per target. ``count`` is how many targets one pass handles."""
    run()  # warm-up: first-use costs (lazy grammar build, attribute caches) are not per-target costs
    samples = [_pass_ns(run, number) / (number * count) / 1000 for _ in range(repeat)]
    return statistics.median(samples)


def measure_targetlang(texts: Sequence[str], repeat: int, number: int) -> list[Row]:
    parse = targetlang.parse
    clear = targetlang.clear_caches
    count = len(texts)

    def cold() -> None:
        for text in texts:
            clear()
            parse(text)

    def clear_only() -> None:
        # The baseline of the cold pass: the same loop and clear_caches calls without the parse.
        for _ in texts:
            clear()

    def warm() -> None:
        for text in texts:
            parse(text)

    cold_us = per_target_us(cold, count, repeat, number) - per_target_us(clear_only, count, repeat, number)
    for text in texts:  # the warm pass must find every text in the cache
        parse(text)
    warm_us = per_target_us(warm, count, repeat, number)

    targets = [parse(text) for text in texts]

    def each(method: Callable[[targetlang.Target], Any]) -> Callable[[], None]:
        def run() -> None:
            for target in targets:
                method(target)

        return run

    rows = [
        Row("(a) cold parse (cache cleared before each text)", cold_us, count, "clear_caches cost subtracted"),
        Row("(b) repeated parse (cache warm)", warm_us, count),
        Row("(c) `str(t)`", per_target_us(each(str), count, repeat, number), count),
        Row("(d) `t.canonical()`", per_target_us(each(targetlang.Target.canonical), count, repeat, number), count),
        Row("(e) `t.to_json()`", per_target_us(each(targetlang.Target.to_json), count, repeat, number), count),
        Row("(f) `t.resolve()`", per_target_us(each(targetlang.Target.resolve), count, repeat, number), count),
    ]
    return rows


@contextlib.contextmanager
def silenced() -> Iterator[None]:
    """Send fds 1 and 2 to /dev/null: TVM's C++ warnings go straight to fd 2, and its Python
    ROCm probe prints to stdout, both of which would garble the table."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = [os.dup(1), os.dup(2)]
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 1)
        os.dup2(null, 2)
        yield
    finally:
        sys.stdout.flush()  # what Python buffered meanwhile goes to /dev/null too, not to the table
        sys.stderr.flush()
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for fd in (*saved, null):
            os.close(fd)


def measure_tvm(texts: Sequence[str], repeat: int, number: int) -> tuple[Row | None, str]:
    """TVM 0.27's ``Target(d)`` on the same targets' ``to_json()`` dicts; None without apache-tvm."""
    try:
        with silenced():
            # Imported only here, so the targetlang numbers are taken without TVM loaded; through
            # import_module because apache-tvm is optional and ships no type stubs.
            tvm = importlib.import_module("tvm")
    except ImportError:
        return None, ""
    make = tvm.target.Target
    configs = []
    rejected = 0
    with silenced():
        for text in texts:
            config = targetlang.parse(text).to_json()
            try:
                make(config)
            except Exception:  # TVM raises several error classes; a rejected dict is only counted
                rejected += 1
                continue
            configs.append(config)

        def run() -> None:
            for config in configs:
                make(config)

        us = per_target_us(run, len(configs), repeat, number)
    note = f"{rejected} dicts rejected by TVM and skipped"
    version = str(tvm.__version__)
    return Row(f"(g) TVM {version} `tvm.target.Target(t.to_json())`", us, len(configs), note), version


def _wall_ms(code: str) -> float:
    start = time.perf_counter_ns()
    subprocess.run([sys.executable, "-c", code], check=True, stdout=subprocess.DEVNULL)
    return (time.perf_counter_ns() - start) / 1e6


def import_ms(code: str, runs: int = 5) -> float:
    """Median wall time of a fresh interpreter running ``code``, less one running ``pass``."""
    _wall_ms(code)  # warm-up: writes bytecode caches and warms the OS file cache
    _wall_ms("pass")
    samples = [_wall_ms(code) - _wall_ms("pass") for _ in range(runs)]
    return statistics.median(samples)


def machine_info(tvm_version: str) -> list[tuple[str, str]]:
    return [
        ("platform", platform.platform()),
        ("cpu", _cpu_model()),
        ("cpu count", str(os.cpu_count())),
        ("python", f"{platform.python_implementation()} {platform.python_version()}"),
        ("targetlang", targetlang.__version__),
        ("apache-tvm", tvm_version or "not installed"),
    ]


def table(rows: Sequence[Row]) -> str:
    lines = ["| operation | µs per target | targets | note |", "|---|---:|---:|---|"]
    lines += [f"| {r.name} | {r.us_per_target:.2f} | {r.targets} | {r.note} |" for r in rows]
    return "\n".join(lines)


def goals(cold_us: float, warm_us: float, tvm_us: float | None, imp_ms: float) -> list[str]:
    def mark(ok: bool) -> str:
        return "**met**" if ok else "**not met**"

    if tvm_us is None:
        first = f"- Cold parse within {_COLD_VS_TVM_GOAL:g}x of TVM's C++ constructor per target: not measured (no TVM)"
    else:
        ratio = cold_us / tvm_us
        first = (
            f"- Cold parse within {_COLD_VS_TVM_GOAL:g}x of TVM's C++ constructor per target: "
            f"{mark(ratio <= _COLD_VS_TVM_GOAL)} ({ratio:.2f}x)"
        )
    return [
        first,
        f"- Repeated parse under {_WARM_PARSE_GOAL_US:g} µs: {mark(warm_us < _WARM_PARSE_GOAL_US)} ({warm_us:.2f} µs)",
        f"- `import targetlang` under {_IMPORT_GOAL_MS:g} ms: {mark(imp_ms < _IMPORT_GOAL_MS)} ({imp_ms:.1f} ms)",
    ]


def report(
    rows: Sequence[Row],
    tvm_row: Row | None,
    tvm_version: str,
    imp_ms: float,
    first_ms: float,
    corpus_rejected: int,
    repeat: int,
    number: int,
) -> str:
    cold, warm = rows[0].us_per_target, rows[1].us_per_target
    resolve = next(r.us_per_target for r in rows if "resolve" in r.name)
    all_rows = [*rows, *([tvm_row] if tvm_row else [])]
    out = [
        "## Parsing targets",
        "",
        "Measured by `benchmarks/bench_parse.py --write` (this section is generated; rerun it rather than editing).",
        "",
        "### Machine",
        "",
        *[f"- {name}: {value}" for name, value in machine_info(tvm_version)],
        "",
        "### Method",
        "",
        f"The corpus is the `legacy-string` texts of `tests/data/corpus/strings.jsonl` that `targetlang.parse` accepts "
        f"({rows[0].targets} texts; {corpus_rejected} rejected texts are left out). Each figure is the median of "
        f"{repeat} repeats of {number} whole corpus passes each, divided by "
        "the number of targets. The cold parse calls `targetlang.clear_caches()` before each text (the "
        "time of the clearing alone is measured and subtracted); TVM is timed in the same process on the "
        "`to_json()` dicts of the same targets, its C++ warnings sent to /dev/null. Import times are wall times of "
        "a fresh interpreter less one running `pass`, median of 5.",
        "",
        "### Results",
        "",
        table(all_rows),
        "",
        f"- `import targetlang` in a fresh interpreter: {imp_ms:.1f} ms",
        f"- `import targetlang` and a first `parse('llvm')` (builds the LALR parser): {first_ms:.1f} ms",
    ]
    if tvm_row is not None:
        out += [
            f"- cold parse / TVM constructor: {cold / tvm_row.us_per_target:.2f}x",
            f"- (cold parse + resolve) / TVM constructor: {(cold + resolve) / tvm_row.us_per_target:.2f}x "
            "(TVM's constructor also runs the canonicalisers and fills defaults, which is targetlang's resolve())",
        ]
    out += ["", "### Goals", "", *goals(cold, warm, tvm_row.us_per_target if tvm_row else None, imp_ms), ""]
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--write", action="store_true", help=f"rewrite its section of {_DOC.relative_to(_ROOT)}")
    parser.add_argument("--corpus", type=Path, default=_CORPUS, help="strings.jsonl to read (default: %(default)s)")
    parser.add_argument("--repeat", type=int, default=7, help="repeats; the median is kept (default: %(default)s)")
    parser.add_argument("--number", type=int, default=20, help="corpus passes per repeat (default: %(default)s)")
    args = parser.parse_args(argv)

    texts, corpus_rejected = load_texts(args.corpus)
    if not texts:
        print(f"no accepted legacy strings in {args.corpus}", file=sys.stderr)
        return 1
    print(f"{len(texts)} corpus legacy strings accepted, {corpus_rejected} rejected; timing...", file=sys.stderr)
    rows = measure_targetlang(texts, args.repeat, args.number)
    tvm_row, tvm_version = measure_tvm(texts, args.repeat, args.number)
    imp_ms = import_ms("import targetlang")
    first_ms = import_ms("import targetlang; targetlang.parse('llvm')")

    text = report(rows, tvm_row, tvm_version, imp_ms, first_ms, corpus_rejected, args.repeat, args.number)
    print(text)
    if args.write:
        write_section("bench_parse", text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
