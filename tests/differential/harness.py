"""The run loop: workers holding a real TVM, areas, counts, the summary and the goldens."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import compare
from .common import MARK, encode

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
GOLDEN_DIR = REPO / "tests" / "data" / "oracle"
RESULTS = HERE / "results"
WORKER = HERE / "worker.py"
_SHARED_ORACLE = REPO.parent / "shared" / "tools" / "tvm-oracle" / "run.sh"
DEFAULT_ORACLE = os.environ.get(
    "TARGETLANG_TVM_ORACLE",
    str(_SHARED_ORACLE if _SHARED_ORACLE.exists() else Path("/work/shared/tools/tvm-oracle/run.sh")),
)
DEFAULT_TVM027 = os.environ.get("TARGETLANG_TVM027_PYTHON", "/tmp/tvm027/bin/python")
TIMEOUT = 60.0  # seconds for one input; a worker that takes longer is killed, as one that crashed


class Worker:
    """A process holding a TVM, asked one input at a time (tests/oracle/oracle_common.py's
    protocol); it is restarted when an input kills it. ``send`` then ``receive`` lets targetlang
    work on the same input meanwhile."""

    def __init__(self, command: list[str], env: dict[str, str] | None = None) -> None:
        self.command = command
        self.env = env
        self.process: subprocess.Popen[bytes] | None = None
        self.buffer = b""
        self.restarts = 0

    def _start(self) -> subprocess.Popen[bytes]:
        if self.process is None:
            env = dict(self.env if self.env is not None else os.environ)
            env["PYTHONIOENCODING"] = "utf-8"
            self.process = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env
            )
            self.buffer = b""
        return self.process

    def send(self, spec: Any) -> None:
        process = self._start()
        assert process.stdin is not None
        try:
            process.stdin.write((repr(spec) + "\n").encode("utf-8"))
            process.stdin.flush()
        except BrokenPipeError:
            pass

    def receive(self) -> dict[str, Any] | None:
        """The outcome of the input sent, or ``None`` when it killed (or hung) the worker."""
        process = self._start()
        assert process.stdout is not None
        fd = process.stdout.fileno()
        deadline = time.monotonic() + TIMEOUT
        while True:
            while b"\n" in self.buffer:
                line, self.buffer = self.buffer.split(b"\n", 1)
                text = line.decode("utf-8", "replace")
                if text.startswith(MARK):
                    result: dict[str, Any] = json.loads(text[len(MARK) :])
                    return result
            ready, _, _ = select.select([fd], [], [], max(deadline - time.monotonic(), 0))
            chunk = os.read(fd, 1 << 16) if ready else b""
            if not chunk:
                self._kill()
                return None
            self.buffer += chunk

    def ask(self, spec: Any) -> dict[str, Any] | None:
        self.send(spec)
        return self.receive()

    def _kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None
            self.restarts += 1

    def close(self) -> None:
        if self.process is not None and self.process.stdin is not None:
            self.process.stdin.close()
            self.process.wait()
            self.process = None


def oracle_worker(oracle: str, tvm: str, area: str) -> Worker:
    return Worker([oracle, "--tvm", tvm, str(WORKER), area])


def tvm027_worker(python: str) -> Worker:
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    return Worker([python, str(WORKER), "tvm027"], env=env)


@dataclass
class Case:
    """One compared input: its class (``agree``, a decision's or a disagreement's) and the
    golden line that records TVM's outcome (``None``: not recordable, e.g. TVM crashed)."""

    origin: str
    spec: Any
    cls: str
    status: str  # agree | decision | disagree | skipped
    golden: dict[str, Any] | None
    categories: tuple[str, str] | None = None  # (TVM's, targetlang's) error category when both reject


@dataclass
class Tally:
    area: str
    compared: int = 0
    statuses: Counter[str] = field(default_factory=Counter)
    classes: dict[str, Counter[str]] = field(default_factory=dict)
    examples: dict[str, list[str]] = field(default_factory=dict)
    status_of: dict[str, str] = field(default_factory=dict)
    origins: dict[str, Counter[str]] = field(default_factory=dict)
    both_reject: Counter[str] = field(default_factory=Counter)  # TVM's category, where both agree on it
    category_pairs: dict[str, Counter[str]] = field(default_factory=dict)  # "TVM -> ours": status counts

    def add(self, case: Case) -> None:
        if case.categories is not None:
            theirs, ours = case.categories
            if theirs == ours:
                self.both_reject[theirs] += 1
            else:
                self.category_pairs.setdefault(f"{theirs} -> {ours}", Counter())[case.status] += 1
        self.compared += case.status != "skipped"
        self.statuses[case.status] += 1
        self.origins.setdefault(case.origin, Counter())[case.status] += 1
        if case.status == "agree":
            return
        self.classes.setdefault(case.cls, Counter())[case.origin] += 1
        self.status_of[case.cls] = case.status
        shown = self.examples.setdefault(case.cls, [])
        if len(shown) < 3:
            shown.append(repr(case.spec)[:300])

    def summary(self) -> dict[str, Any]:
        def table(status: str) -> dict[str, Any]:
            rows = [(cls, by) for cls, by in self.classes.items() if self.status_of[cls] == status]
            rows.sort(key=lambda row: (-sum(row[1].values()), row[0]))
            return {
                cls: {"count": sum(by.values()), "by_origin": dict(sorted(by.items())), "examples": self.examples[cls]}
                for cls, by in rows
            }

        differ = sum(sum(c.values()) for c in self.category_pairs.values())
        same = sum(self.both_reject.values())
        return {
            "error_categories": {
                "both_reject": same + differ,
                "same_category": same,
                "share": round(same / (same + differ), 6) if same + differ else None,
                "by_category": dict(self.both_reject.most_common()),
                "differ": {pair: dict(by) for pair, by in sorted(self.category_pairs.items())},
            },
            "compared": self.compared,
            "agree": self.statuses["agree"],
            "decision": self.statuses["decision"],
            "disagree": self.statuses["disagree"],
            "skipped": self.statuses["skipped"],
            "by_origin": {origin: dict(sorted(counts.items())) for origin, counts in self.origins.items()},
            "decisions": table("decision"),
            "disagreements": table("disagree"),
            "skips": table("skipped"),
        }


def finish(
    origin: str,
    spec: Any,
    tvm: dict[str, Any] | None,
    ours: compare.Outcome,
    golden: bool = True,
    area: str = "target",
) -> Case:
    """A Target-area case: classify, look the disagreement up among the decisions (``area``'s)."""
    outcome = tvm if tvm is not None else {"crashed": True, "accepted": None}
    cls = compare.classify(outcome, ours)
    status = "agree"
    if cls != "agree":
        decision = compare.decision_for(spec, outcome, ours, area)
        status, cls = ("decision", decision) if decision else ("disagree", cls)
    row = {**encode(spec), **tvm, "origin": origin} if tvm is not None and golden else None
    if row is not None and row["accepted"] is False:
        row["category"] = compare.tvm_category(row["error"])  # the table's reading, checked on replay
    if row is not None and status == "disagree":
        row["recorded_class"] = cls
    return Case(origin, spec, cls, status, row, compare.categories(outcome, ours))


class Area:
    """One area of the harness: where its inputs come from, how TVM and targetlang are asked."""

    name = ""
    tvm = ""
    corpus_origins: tuple[str, ...] = ("corpus",)  # the real inputs, all kept in the goldens

    def inputs(self, seed: int, count: int) -> Iterator[tuple[str, Any]]:
        raise NotImplementedError

    def step(self, origin: str, spec: Any) -> Case:
        raise NotImplementedError

    def close(self) -> None:
        pass

    def restarts(self) -> int:
        return 0

    def extra(self) -> dict[str, Any]:
        """Figures of the area's own, added to the summary."""
        return {}


def write_golden(path: Path, rows: list[dict[str, Any]]) -> None:
    with path.open("w", encoding="utf-8") as handle:
        for row in rows:
            text = json.dumps(row, ensure_ascii=False)
            try:
                text.encode("utf-8")
            except UnicodeEncodeError:  # a lone surrogate: JSON's \\u escape keeps it
                text = json.dumps(row)
            handle.write(text + "\n")


def run(
    area: Area,
    seed: int,
    count: int,
    golden_generated: int,
    summary_path: Path | None,
    golden_path: Path | None,
    progress: int = 10000,
    golden_corpus: int | None = None,
) -> dict[str, Any]:
    tally = Tally(area.name)
    rows: list[dict[str, Any]] = []
    generated = corpus_kept = 0
    per_class: Counter[str] = Counter()
    started = time.monotonic()
    try:
        for n, (origin, spec) in enumerate(area.inputs(seed, count), 1):
            case = area.step(origin, spec)
            tally.add(case)
            if case.golden is not None:
                real = origin in area.corpus_origins
                keep = real and (golden_corpus is None or corpus_kept < golden_corpus)
                corpus_kept += keep
                if not keep and not real and generated < golden_generated:
                    generated += 1
                    keep = True
                if not keep and case.status != "agree" and per_class[case.cls] < 3:
                    keep = True
                if keep:
                    per_class[case.cls] += 1
                    rows.append(case.golden)
            if progress and n % progress == 0:
                rate = n / (time.monotonic() - started)
                print(f"{n} inputs, {rate:.0f}/s, {dict(tally.statuses)}", file=sys.stderr, flush=True)
    finally:
        area.close()
    summary = {
        "area": area.name,
        "tvm": area.tvm,
        "seed": seed,
        "count": count,
        "seconds": round(time.monotonic() - started),
        "worker_restarts": area.restarts(),
        **tally.summary(),
        **area.extra(),
        "decision_reasons": {
            name: compare.DECISION_REASONS.get(name, "")
            for name in tally.classes
            if tally.status_of[name] == "decision"
        },
    }
    if summary_path is not None:
        summary_path.parent.mkdir(parents=True, exist_ok=True)
        summary_path.write_text(json.dumps(summary, indent=1, ensure_ascii=True) + "\n", encoding="utf-8")
    if golden_path is not None:
        write_golden(golden_path, rows)
    return summary
