"""``python -m tests.differential run --area AREA --count N``: see the package docstring."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from . import harness
from .areas import MigrateArea, ReleaseArea, TargetArea, TvmcArea
from .logs import LogsArea

AREAS = ("target", "release", "migrate", "tvmc", "logs")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.differential", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="compare targetlang with real TVM on generated inputs")
    run.add_argument("--area", choices=AREAS, required=True)
    run.add_argument("--count", type=int, default=20000, help="inputs (the corpus first, then generated ones)")
    run.add_argument("--seed", type=int, default=10)
    run.add_argument("--oracle", default=harness.DEFAULT_ORACLE, help="the shared TVM oracle's run.sh")
    run.add_argument("--tvm027", default=harness.DEFAULT_TVM027, help="a Python with apache-tvm 0.27")
    run.add_argument("--summary", type=Path, help="default: tests/differential/results/AREA-COUNT.json")
    run.add_argument("--golden", type=Path, help="default: tests/data/oracle/differential-AREA.jsonl")
    run.add_argument("--no-golden", action="store_true", help="do not write the golden file")
    run.add_argument("--golden-generated", type=int, default=400, help="generated inputs kept in the goldens")
    run.add_argument("--golden-corpus", type=int, help="corpus inputs kept in the goldens (default: all)")
    args = parser.parse_args(argv)
    area: harness.Area
    if args.area == "target":
        area = TargetArea(args.oracle)
    elif args.area == "release":
        area = ReleaseArea(args.oracle)
    elif args.area == "migrate":
        area = MigrateArea(args.oracle, args.tvm027)
    elif args.area == "tvmc":
        area = TvmcArea(args.oracle)
    else:
        area = LogsArea(args.oracle)
    summary_path = args.summary or harness.RESULTS / f"{args.area}-{args.count}.json"
    golden_path = None if args.no_golden else (args.golden or harness.GOLDEN_DIR / f"differential-{args.area}.jsonl")
    summary = harness.run(
        area, args.seed, args.count, args.golden_generated, summary_path, golden_path, golden_corpus=args.golden_corpus
    )
    short = {k: summary[k] for k in ("area", "compared", "agree", "decision", "disagree", "skipped", "seconds")}
    print(json.dumps(short))
    for status in ("decisions", "disagreements", "skips"):
        for cls, info in summary[status].items():
            print(f"{status[:-1]:>12} {info['count']:>7}  {cls}  e.g. {info['examples'][0][:120]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
