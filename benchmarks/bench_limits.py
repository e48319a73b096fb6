"""How parse time grows with input size, from 10 kB to 10 MB, for inputs built to be hard.

Run from the repository root::

    python benchmarks/bench_limits.py            # print the table
    python benchmarks/bench_limits.py --write    # and rewrite its section of docs/performance.md

Each shape is a target text of about the given size: long values, many options, and long runs of
every character a terminal of the grammar treats specially (quotes, backslashes, dashes, commas,
``=``, JSON punctuation). Each is parsed once with the parse cache cleared (best of three); the
slope is that of log(time) against log(size) between 10 kB and 10 MB: 1.0 is linear, 2.0 would be
quadratic. Whether the parse succeeds or raises a TargetError does not matter here.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable

from doc_sections import write_section

import targetlang
from targetlang import parsing

SIZES = (10_000, 100_000, 1_000_000, 10_000_000)
_GOAL_SLOPE = 1.2  # "linear", allowing for allocator and cache effects at 10 MB


def _fill(prefix: str, unit: str, suffix: str = "") -> Callable[[int], str]:
    def make(size: int) -> str:
        return prefix + unit * max(1, (size - len(prefix) - len(suffix)) // len(unit)) + suffix

    return make


SHAPES: dict[str, Callable[[int], str]] = {
    "one long value": _fill("llvm -mcpu=", "a"),
    "many options": _fill("llvm", " -mcpu=skylake"),
    "long array": _fill("llvm -mattr=", "+avx2,"),
    "quotes": _fill("llvm -model=", "'"),
    "escaped quotes": _fill("llvm -model='", "\\'", "'"),
    "backslashes": _fill("llvm -model=", "\\"),
    "dashes": _fill("llvm ", "-"),
    "commas": _fill("llvm -mattr=", ","),
    "equals": _fill("llvm -mcpu", "="),
    "spaces": _fill("llvm", " "),
    "JSON, long string": _fill('{"kind": "llvm", "mcpu": "', "a", '"}'),
    "JSON, long array": _fill('{"kind": "llvm", "mattr": [', '"+a", ', '"+b"]}'),
    "JSON-ish, comments": _fill("{kind: llvm, ", "# c\n", "}"),
    "JSON, unclosed string": _fill('{"kind": "llvm", "mcpu": "', "\\\\"),
}


def seconds(text: str, repeat: int = 3) -> float:
    best = math.inf
    for _ in range(repeat):
        parsing._parse_cached.cache_clear()
        start = time.perf_counter()
        try:
            targetlang.parse(text)
        except targetlang.TargetError:
            pass
        best = min(best, time.perf_counter() - start)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--write", action="store_true", help="rewrite the limits section of docs/performance.md")
    args = parser.parse_args(argv)
    rows = []
    for name, make in SHAPES.items():
        times = [seconds(make(size)) for size in SIZES]
        slope = math.log(times[-1] / times[0]) / math.log(SIZES[-1] / SIZES[0])
        rows.append((name, times, slope))
        print(f"{name}: slope {slope:.2f}", file=sys.stderr)
    worst = max(slope for _, _, slope in rows)
    head = " | ".join(f"{size // 1000:,} kB" if size < 1_000_000 else f"{size // 1_000_000} MB" for size in SIZES)
    out = [
        "## Input size",
        "",
        "Measured by `benchmarks/bench_limits.py --write` (this section is generated; rerun it rather than editing).",
        "",
        "Time to parse one text of each size (cache cleared, best of 3), and the slope of log(time) against "
        "log(size): 1.0 is linear. The shapes are long runs of what each terminal of the grammar treats "
        "specially; whether a text reads or raises a `TargetError` does not matter here.",
        "",
        f"| input | {head} | slope |",
        "|---|" + "---:|" * (len(SIZES) + 1),
        *[f"| {name} | " + " | ".join(_time(t) for t in times) + f" | {slope:.2f} |" for name, times, slope in rows],
        "",
        f"- Goal, parsing linear in the input: **{'met' if worst <= _GOAL_SLOPE else 'not met'}** "
        f"(the steepest slope is {worst:.2f})",
    ]
    text = "\n".join(out) + "\n"
    print(text)
    if args.write:
        write_section("bench_limits", text)
    return 0


def _time(value: float) -> str:
    return f"{value * 1e3:.2f} ms" if value < 1 else f"{value:.2f} s"


if __name__ == "__main__":
    sys.exit(main())
