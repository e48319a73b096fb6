"""Benchmark ``targetlang fix`` on long text files: a Markdown file of many Python code blocks
(``--docs``) and a shell script of many ``--target`` lines.

Run from the repository root::

    python benchmarks/bench_fix_text.py                        # HEAD, print the figures
    python benchmarks/bench_fix_text.py --at 2fdc418 --at HEAD # two commits side by side
    python benchmarks/bench_fix_text.py --at 2fdc418 --at HEAD --write

Each file is generated (so a size is the count of blocks or lines, nothing else changing), and
the installed ``targetlang`` console script runs over it as a subprocess, ``targetlang fix
--docs -j 1 FILE`` (the diff printed, the file left as it is; and for the document with
``--check`` too, the findings alone), on the ``targetlang`` package of each commit ``--at``
(extracted with ``git archive`` and put first on ``PYTHONPATH``, as ``benchmarks/bench_fix.py``
does; ``.`` is the working tree). Wall time is taken around the subprocess, with its CPU time,
and the run of least CPU time of ``--repeat`` kept. The growth between two sizes is
log(t2 / t1) / log(n2 / n1), t the CPU time past that of a file of one block or line (the
start-up): 1 where the time grows as the size does, 2 where it grows as its square. The output
(the diff and the findings) of every commit must be the same, byte for byte.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from bench_fix import Timing, console_script, machine, snapshot, timed
from doc_sections import write_section

# (the first size, one block or line, measures the start-up: Python, the imports)
MARKDOWN_BLOCKS = (1, 8_000, 16_000, 32_000)
SHELL_LINES = (1, 10_000, 40_000)


def markdown(blocks: int) -> str:
    """A document of ``blocks`` Python code blocks, a paragraph before each; one block in 50
    builds a target from a legacy string (a finding), the others hold no target."""
    parts = ["# Building for the CPU\n\n"]
    for i in range(blocks):
        if i % 50 == 49:
            code = f'import tvm\ntarget = tvm.target.Target("llvm -mcpu=core-avx2 -num-cores={i % 64 + 1}")\n'
        else:
            code = f"x = {i}\nprint(x + 1)\n"
        parts.append(f"Step {i}.\n\n```python\n{code}```\n\n")
    return "".join(parts)


def shell(lines: int) -> str:
    """A script of ``lines`` commands, each with a legacy target after ``--target`` (a finding)."""
    body = (
        f'python compile.py --target "llvm -mcpu=skylake -num-cores={i % 64 + 1}" m{i}.onnx\n' for i in range(lines)
    )
    return "#!/bin/sh\n" + "".join(body)


# (what the file holds, its name, how it is made, its sizes, the options of `targetlang fix`)
CASES: tuple[tuple[str, str, Callable[[int], str], tuple[int, ...], tuple[str, ...]], ...] = (
    ("Markdown, Python blocks", "doc.md", markdown, MARKDOWN_BLOCKS, ("--docs", "--check")),
    ("Markdown, Python blocks", "doc.md", markdown, MARKDOWN_BLOCKS, ("--docs",)),
    ("shell script, `--target` lines", "run.sh", shell, SHELL_LINES, ("--docs",)),
)


def growth(sizes: Sequence[int], seconds: Sequence[float]) -> list[str]:
    """The growth from each size to the next of the time past the start-up, the time of the
    first size (see the module's docstring)."""
    past = [t - seconds[0] for t in seconds]
    return [
        f"{math.log(past[i] / past[i - 1]) / math.log(sizes[i] / sizes[i - 1]):.2f}"
        if i > 1 and past[i] > 0 and past[i - 1] > 0
        else ""
        for i in range(len(sizes))
    ]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--at", action="append", help="a commit of this repository to measure (repeatable)")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each command (default: %(default)s)")
    parser.add_argument("--write", action="store_true", help="rewrite its section of docs/performance.md")
    args = parser.parse_args(argv)
    commits = args.at or ["HEAD"]
    rows: list[tuple[str, int, list[Timing]]] = []
    outputs: dict[tuple[str, int], set[str]] = {}
    names: list[str] = []
    with tempfile.TemporaryDirectory(prefix="bench-fix-text-") as directory:
        root = Path(directory)
        envs = []
        for n, at in enumerate(commits):
            into = root / f"at{n}"
            into.mkdir()
            env, measured = snapshot(at, into)
            envs.append(env)
            names.append(measured)
        for what, name, make, sizes, options in CASES:
            label = f"{what}: `targetlang fix {' '.join(options)} -j 1 FILE`"
            for size in sizes:
                path = root / name
                path.write_text(make(size), encoding="utf-8")
                bests = []
                command = [console_script(), "fix", *options, "-j", "1", str(path)]
                for env, measured in zip(envs, names, strict=True):
                    runs: list[Timing] = [timed(command, env) for _ in range(args.repeat)]
                    best = min(runs, key=lambda run: run.cpu)
                    bests.append(best)
                    digest = hashlib.sha256(best.stdout + best.stderr.replace(str(path).encode(), b"FILE")).hexdigest()
                    outputs.setdefault((label, size), set()).add(digest)
                    print(f"{label}, {size:,}: {measured}: {best.wall:.2f} s", file=sys.stderr)
                rows.append((label, size, bests))
    same = all(len(digests) == 1 for digests in outputs.values())
    text = report(commits, names, rows, args.repeat, same)
    print(text)
    if args.write:
        write_section("bench_fix_text", text)
    return 0 if same else 1


def report(
    commits: Sequence[str], names: Sequence[str], rows: list[tuple[str, int, list[Timing]]], repeat: int, same: bool
) -> str:
    head = "| file and command | size | " + " | ".join(f"{n}: wall s | CPU s | growth | others' CPU s" for n in names)
    head += " |"
    out = [
        "## fix on long text files",
        "",
        "Measured by `benchmarks/bench_fix_text.py "
        + " ".join(f"--at {c}" for c in commits)
        + " --write` (this section is generated; rerun it rather than editing).",
        "",
        "### Machine",
        "",
        *machine(", ".join(names)),
        "",
        "### Method",
        "",
        "The installed `targetlang` console script, as a subprocess, on generated files: a Markdown "
        "document of N Python code blocks (N = the size), one in 50 building a target from a legacy string, "
        "with `--check` (the findings only) and without (the diff printed too; the file is left as it is), "
        "and a shell script of N lines, each with a legacy `--target` (a finding each). "
        f"Wall time around the subprocess and its CPU time (user and system), the run of least CPU time "
        f"of {repeat} kept. The growth from one size to the next is log(t2 / t1) / log(n2 / n1), t the CPU "
        "time (which the rest of a shared machine disturbs less than the wall time) past that of a file of "
        "one block or line, the start-up of the command (Python, the imports): 1 where the time grows as "
        "the file does, 2 where it grows as its square. A run's last column is the CPU time the rest of the "
        "machine used meanwhile (from /proc/stat). Without `--check`, the diff was difflib's over "
        "the whole file until cab0436, whose longest-match search costs about the hunks "
        "times the lines (27 of the 37 s of a run under cProfile at 16,000 blocks); from cab0436 on, "
        "`targetlang/fix/_diff.py` diffs a file of more than 4,000 lines of both side by side, and its "
        "diff of these documents is each changed line out and in, where difflib's, which takes the "
        "popular fence lines for junk, moves a fence now and then. "
        + (
            "Every commit printed the same output for every file."
            if same
            else "The outputs differ (the diffs, as said; the findings are the same)."
        ),
        "",
        "### Results",
        "",
        head,
        "|---|---:|" + "---:|---:|---:|---:|" * len(names),
    ]
    for label in dict.fromkeys(row[0] for row in rows):
        mine = [row for row in rows if row[0] == label]
        sizes = [row[1] for row in mine]
        columns = [growth(sizes, [row[2][i].cpu for row in mine]) for i in range(len(names))]
        for j, (_, size, timings) in enumerate(mine):
            cells = " | ".join(
                f"{timings[i].wall:.1f} | {timings[i].cpu:.1f} | {columns[i][j]} | {timings[i].others:.1f}"
                for i in range(len(names))
            )
            out.append(f"| {label} | {size:,} | {cells} |")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    sys.exit(main())
