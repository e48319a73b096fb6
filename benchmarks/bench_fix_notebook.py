"""Benchmark ``targetlang fix --write`` on one long notebook cell against the same code as ``.py``.

Run from the repository root::

    python benchmarks/bench_fix_notebook.py            # 2,000 and 5,000 padding lines
    python benchmarks/bench_fix_notebook.py 500 2000   # other sizes

Each notebook has one code cell (nbformat's list of lines, indent 1): ``import tvm``, a legacy
``llvm`` target, N padding lines (a blank one in five), a legacy ``cuda`` target; 2,000 lines
make a 63 KB cell, 5,000 a 162 KB one. The installed ``targetlang`` console script fixes a fresh
copy of each file as a subprocess; wall and CPU time (user and system) of the fastest of
``--repeat`` runs are printed. The fixed cell must equal the fixed ``.py`` file.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import subprocess
import tempfile
import time
from pathlib import Path


def cell(padding: int) -> list[str]:
    middle = [f"value_{i} = compute({i}, name='v{i}')\n" if i % 5 else "\n" for i in range(padding)]
    first, last = 't = tvm.target.Target("llvm -mcpu=skylake")\n', 'u = tvm.target.Target("cuda -arch=sm_80")\n'
    return ["import tvm\n", first, *middle, last]


def timed(path: Path) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(["targetlang", "fix", "--write", str(path)], check=False, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sizes", nargs="*", type=int, default=[2000, 5000])
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        print("| padding lines | cell KB | .py wall s | CPU s | .ipynb wall s | CPU s |")
        print("|---:|---:|---:|---:|---:|---:|")
        for size in args.sizes:
            source = cell(size)
            code: dict[str, object] = {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": []}
            code["source"] = source
            book = {
                "cells": [code],
                "metadata": {"kernelspec": {"language": "python", "name": "python3"}},
                "nbformat": 4,
                "nbformat_minor": 5,
            }
            (root / "cell.py").write_text("".join(source), encoding="utf-8")
            (root / "cell.ipynb").write_text(json.dumps(book, indent=1) + "\n", encoding="utf-8")
            row = [f"{size:,}", f"{len(''.join(source)) / 1000:.0f}"]
            for suffix in (".py", ".ipynb"):
                runs = []
                for _ in range(args.repeat):
                    copy = root / f"copy{suffix}"
                    shutil.copyfile(root / f"cell{suffix}", copy)
                    runs.append(timed(copy))
                wall, cpu = min(runs, key=lambda run: run[1])
                row += [f"{wall:.2f}", f"{cpu:.2f}"]
            fixed = json.loads((root / "copy.ipynb").read_text(encoding="utf-8"))["cells"][0]["source"]
            assert "".join(fixed) == (root / "copy.py").read_text(encoding="utf-8"), "the cell and the .py differ"
            print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
