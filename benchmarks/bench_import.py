"""Import time of targetlang in a fresh interpreter, with lark and json beside it.

Run from the repository root::

    python benchmarks/bench_import.py            # print the section
    python benchmarks/bench_import.py --write    # and rewrite its section of docs/performance.md

Each run is a new ``python -c`` process that times its own import statement with
``time.perf_counter`` and prints the milliseconds: interpreter start-up is left out, and what the
interpreter itself imports before the statement (``site``) is not counted against the module.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from doc_sections import DOC as _DOC
from doc_sections import cpu_model as _cpu_model
from doc_sections import package_version as _version
from doc_sections import write_section

_ROOT = Path(__file__).resolve().parents[1]

# The goal of issue 12: median of at least 20 fresh processes.
_IMPORT_GOAL_MS = 60.0

_TIMED = "import time; t = time.perf_counter(); {statement}; print((time.perf_counter() - t) * 1e3)"

STATEMENTS = (
    ("`import targetlang`", "import targetlang"),
    ("`import targetlang` and a first `targetlang.parse('llvm')`", "import targetlang; targetlang.parse('llvm')"),
    ("`import lark` (the parser library targetlang uses)", "import lark"),
    ("`import json` (the standard library)", "import json"),
)


def timed_ms(statement: str) -> float:
    """Milliseconds ``statement`` takes in a fresh interpreter, as that interpreter measures it."""
    code = _TIMED.format(statement=statement)
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, cwd=_ROOT)
    return float(out.stdout.strip().splitlines()[-1])


def measure(statement: str, runs: int) -> tuple[float, float]:
    """(min, median) over ``runs`` fresh processes, after one that writes the bytecode caches."""
    timed_ms(statement)
    samples = [timed_ms(statement) for _ in range(runs)]
    return min(samples), statistics.median(samples)


def report(results: list[tuple[str, str, float, float]], runs: int) -> str:
    ours = results[0][3]
    met = "**met**" if ours <= _IMPORT_GOAL_MS else "**not met**"
    out = [
        "## Import time",
        "",
        "Measured by `benchmarks/bench_import.py --write` (this section is generated; rerun it rather than editing).",
        "",
        "### Machine",
        "",
        f"- platform: {platform.platform()}",
        f"- cpu: {_cpu_model()}",
        f"- cpu count: {os.cpu_count()}",
        f"- python: {platform.python_implementation()} {platform.python_version()}",
        f"- targetlang: {_version('targetlang')}, lark: {_version('lark')}",
        "",
        "### Method",
        "",
        f"Each statement runs in {runs} fresh interpreters (after one more that writes the bytecode caches), "
        '`python -c "import time; t = time.perf_counter(); STATEMENT; print(time.perf_counter() - t)"`: '
        "the wall time of the statement inside the process, without the interpreter's start-up. "
        "`import targetlang` loads the errors only; the parser, the registries, the migration rules and "
        "lark are imported by the first call that needs them, so the first parse pays for them.",
        "",
        "### Results",
        "",
        "| statement | min ms | median ms |",
        "|---|---:|---:|",
        *[f"| {label} | {low:.1f} | {median:.1f} |" for label, _, low, median in results],
        "",
        "### Goals",
        "",
        f"- `import targetlang` in at most {_IMPORT_GOAL_MS:g} ms (median): {met} ({ours:.1f} ms)",
        "",
    ]
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--write", action="store_true", help=f"rewrite its section of {_DOC.relative_to(_ROOT)}")
    parser.add_argument("--runs", type=int, default=25, help="fresh processes per statement (default: %(default)s)")
    args = parser.parse_args(argv)
    results = []
    for label, statement in STATEMENTS:
        low, median = measure(statement, args.runs)
        results.append((label, statement, low, median))
        print(f"{statement}: min {low:.1f} ms, median {median:.1f} ms", file=sys.stderr)
    text = report(results, args.runs)
    print(text)
    if args.write:
        write_section("bench_import", text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
