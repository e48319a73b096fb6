"""Parse speed of targetlang per target kind, against TVM's own parsers measured in the same run.

Run from the repository root::

    python benchmarks/bench_parse.py                # print the tables (40 rounds)
    python benchmarks/bench_parse.py --rounds 5     # a quick, noisier run
    python benchmarks/bench_parse.py --write        # and rewrite its section of docs/performance.md

The goals of issues 12 and 29, each reported met or not met from the numbers of the run:

- cold ``targetlang.parse`` of the corpus legacy strings at most 0.5x the time of TVM v0.21's C++
  ``tvm.target.Target(s)``, on every kind, by three methods: the cost of ``clear_caches()``
  subtracted, that cost counted, and each string as a fresh process reads it first (TVM v0.19's
  figure is shown beside the first);
- cold parse at most 5x the time of a validating split parser without lark (``split_parse`` below);
- cold ``targetlang.parse(json_text)`` at most 1.0x apache-tvm 0.27's ``tvm.target.Target(json_text)``,
  on every kind;
- ``t.canonical()`` the first time a target is asked, at most 1.0x apache-tvm 0.27's ``str(t)``.

Each TVM runs in a child process, this script again with ``--child`` under a Python that has that
TVM and this checkout of targetlang: ``/work/shared/tools/tvm-oracle/run.sh --tvm 021`` (and
``019``) and the venv of apache-tvm 0.27 (``--tvm027-python``). The child times targetlang and TVM
alternately over the same strings and writes its figures to a file named by the parent; a TVM that
cannot be run is reported "not measured". Every time is CPU time (``time.process_time_ns``).
Import time is measured by ``benchmarks/bench_import.py``, not here.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import functools
import gc
import importlib
import json
import math
import os
import platform
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from doc_sections import DOC as _DOC
from doc_sections import cpu_model as _cpu_model
from doc_sections import package_version as _version
from doc_sections import silenced, write_section

import targetlang

_ROOT = Path(__file__).resolve().parents[1]
_SCRIPT = Path(__file__).resolve()
_CORPUS = _ROOT / "tests" / "data" / "corpus" / "strings.jsonl"
_ORACLE = Path("/work/shared/tools/tvm-oracle/run.sh")
_TVM027_PYTHON = Path("/tmp/tvm027/bin/python")

# The goals of issue 12, as ratios of targetlang's median time to the peer's.
_VS_TVM021_GOAL = 0.5
_VS_SPLIT_GOAL = 5.0
_VS_TVM027_JSON_GOAL = 1.0
_CANONICAL_GOAL = 1.0  # canonical() the first time, over apache-tvm 0.27's str(t)
# The project's earlier goal for a parse the cache answers, kept beside them.
_WARM_PARSE_GOAL_US = 2.0

_ALL = "all kinds"

Pass = Callable[[], None]


# --- the corpus -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Corpus:
    """The distinct corpus legacy strings: those targetlang accepts, with the kind it reads, and
    those it rejects (left out of every figure; the TVM children try them too, to count them)."""

    items: list[tuple[str, str]]  # (kind, text)
    rejected: list[str]


def load_corpus(path: Path) -> Corpus:
    items: list[tuple[str, str]] = []
    rejected: list[str] = []
    seen: set[str] = set()
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            row = json.loads(line)
            text = row["text"]
            if row["form"] != "legacy-string" or text in seen:
                continue
            seen.add(text)
            try:
                target = targetlang.parse(text)
            except targetlang.TargetError:
                rejected.append(text)
                continue
            items.append((target.kind, text))
    return Corpus(items, rejected)


def by_kind(items: Sequence[tuple[str, str]]) -> dict[str, list[str]]:
    """The texts of each kind, kinds with the most texts first."""
    groups: dict[str, list[str]] = {}
    for kind, text in items:
        groups.setdefault(kind, []).append(text)
    return dict(sorted(groups.items(), key=lambda group: (-len(group[1]), group[0])))


# --- the split parser -------------------------------------------------------------------------

Schema = dict[str, dict[str, str]]  # kind -> attribute -> type ("int", "bool", "array", ...)


def split_schema() -> Schema:
    """The kinds of targetlang's builtin registry, each with its attributes' type names."""
    return {
        name: {attr: spec.type.name for attr, spec in kind.attrs.items()}
        for name, kind in targetlang.builtin_registry().kinds.items()
    }


def split_parse(text: str, schema: Schema) -> dict[str, Any]:
    """A minimal validating reader of a legacy string, without lark, as a reference speed.

    Splits on whitespace; the first word must be a known kind and every ``-key=value``,
    ``-key value`` or bare ``-flag`` must name an attribute of that kind. Ints and bools are
    converted, arrays split on commas, anything else (a host target too) kept as text. Quotes are
    not read: a quoted value with a space is rejected, any other keeps its quotes. No lossless
    syntax, no error positions: a floor, not a rival."""
    words = text.split()
    if not words:
        raise ValueError("empty target")
    kind = words[0]
    attrs = schema.get(kind)
    if attrs is None:
        raise ValueError(f"unknown kind {kind!r}")
    config: dict[str, Any] = {"kind": kind}
    index, count = 1, len(words)
    while index < count:
        word = words[index]
        index += 1
        if not word.startswith("-"):
            raise ValueError(f"expected an option, found {word!r}")
        key, equals, value = word.lstrip("-").partition("=")
        if not equals:
            if index < count and not words[index].startswith("-"):
                value = words[index]
                index += 1
            else:
                value = "true"
        kind_of = attrs.get(key)
        if kind_of is None:
            raise ValueError(f"{kind} has no attribute {key!r}")
        if kind_of == "int":
            config[key] = int(value)
        elif kind_of == "bool":
            lowered = value.lower()
            if lowered not in ("true", "false", "1", "0"):
                raise ValueError(f"{key} is a bool, not {value!r}")
            config[key] = lowered in ("true", "1")
        elif kind_of == "array":
            config[key] = value.split(",")
        else:
            config[key] = value
    return config


# --- timing -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Op:
    """One timed operation: ``run`` makes ``calls`` calls; ``setup`` runs before it, untimed."""

    run: Pass
    calls: int
    setup: Pass | None = None


def repeats(count: int, min_calls: int) -> int:
    """Passes over ``count`` texts that make at least ``min_calls`` calls (small kinds repeat)."""
    return max(1, math.ceil(min_calls / count))


def cold_op(parse: Callable[[str], object], clear: Pass, texts: Sequence[str], number: int) -> Op:
    def run() -> None:
        for _ in range(number):
            for text in texts:
                clear()
                parse(text)

    return Op(run, number * len(texts))


def clear_op(clear: Pass, texts: Sequence[str], number: int) -> Op:
    """The baseline of ``cold_op``: the same loops and ``clear_caches`` calls without the parse."""

    def run() -> None:
        for _ in range(number):
            for _text in texts:
                clear()

    return Op(run, number * len(texts))


def each_op(call: Callable[[Any], object], items: Sequence[Any], number: int, setup: Pass | None = None) -> Op:
    def run() -> None:
        for _ in range(number):
            for item in items:
                call(item)

    return Op(run, number * len(items), setup)


def time_rounds(groups: Mapping[str, Mapping[str, Op]], rounds: int, warmup: int) -> dict[str, dict[str, list[float]]]:
    """Nanoseconds of CPU time per call of each operation of each group, one figure per round.

    Every round runs every operation of every group once, the operations of a group one after
    the other (in reverse order on odd rounds, so neither side always runs first); the first
    ``warmup`` rounds are not kept. The garbage collector stays on, as in use; it runs once
    before each round."""
    samples: dict[str, dict[str, list[float]]] = {group: {name: [] for name in ops} for group, ops in groups.items()}
    clock = time.process_time_ns
    for round_ in range(warmup + rounds):
        gc.collect()
        for group, ops in groups.items():
            order = list(ops.items())
            if round_ % 2:
                order.reverse()
            for name, op in order:
                if op.setup is not None:
                    op.setup()
                start = clock()
                op.run()
                elapsed = clock() - start
                if round_ >= warmup:
                    samples[group][name].append(elapsed / op.calls)
    return samples


@dataclass(frozen=True)
class Stat:
    """Microseconds per call: the least and the median over the rounds."""

    min: float
    median: float

    @classmethod
    def of(cls, ns: Sequence[float]) -> Stat:
        return cls(min(ns) / 1000, statistics.median(ns) / 1000)

    @classmethod
    def cold(cls, ops: Mapping[str, Sequence[float]]) -> Stat:
        """targetlang's cold parse: in each round, the parse pass less the clearing pass."""
        return cls.of([parse - clear for parse, clear in zip(ops["targetlang"], ops["clear"], strict=True)])


def with_total(
    samples: Mapping[str, Mapping[str, list[float]]], counts: Mapping[str, int]
) -> dict[str, dict[str, list[float]]]:
    """``samples`` (per call, per group) with a group ``_ALL``: per round, the time of one pass over
    every group's texts divided by the number of texts."""
    total = sum(counts.values())
    names = next(iter(samples.values()))
    rounds = {name: zip(*(samples[group][name] for group in counts), strict=True) for name in names}
    combined = {
        name: [sum(ns * count for ns, count in zip(row, counts.values(), strict=True)) / total for row in rows]
        for name, rows in rounds.items()
    }
    return {**{group: dict(ops) for group, ops in samples.items()}, _ALL: combined}


# --- the child: targetlang and one TVM in one process -----------------------------------------


def child(args: argparse.Namespace) -> int:
    """Time targetlang's cold parse and ``tvm.target.Target`` over the texts of ``args.texts``.

    Before timing, each text is tried once with both; what either rejects is left out. The
    progress file gets ``start I`` before TVM sees text I and ``done I`` after: a text that
    kills TVM's process (some do) is found there by the parent, which runs the child again
    with that text excluded."""
    if not Path(targetlang.__file__).resolve().is_relative_to(_ROOT):
        print(f"child imports targetlang from {targetlang.__file__}, not from {_ROOT}", file=sys.stderr)
        return 2
    items = [(str(kind), str(text)) for kind, text in json.loads(Path(args.texts).read_text(encoding="utf-8"))]
    excluded = {int(i) for i in args.exclude.split(",") if i}
    parse, clear = targetlang.parse, targetlang.clear_caches
    with silenced(), open(args.progress, "a", encoding="utf-8") as progress:
        # apache-tvm ships no type stubs, hence import_module
        tvm = importlib.import_module("tvm")
        make = tvm.target.Target
        rejected: dict[int, str] = {i: "crashed TVM's process" for i in excluded}
        accepted: list[tuple[str, str]] = []
        for index, (kind, text) in enumerate(items):
            if index in excluded:
                continue
            try:
                parse(text)
                ours = True
            except targetlang.TargetError:
                ours = False
            progress.write(f"start {index}\n")
            progress.flush()
            try:
                make(text)
                theirs = True
            except Exception:  # TVM raises several error classes; a rejection is only counted
                theirs = False
            progress.write(f"done {index}\n")
            progress.flush()
            if ours and theirs:
                accepted.append((kind, text))
            elif ours or theirs:
                rejected[index] = f"rejected by {'TVM' if ours else 'targetlang'} only"
            else:
                rejected[index] = "rejected by both"
        progress.write("probed\n")
        progress.flush()
        groups = by_kind(accepted)
        ops: dict[str, dict[str, Op]] = {}
        for kind, texts in groups.items():
            number = repeats(len(texts), args.min_calls)
            ops[kind] = {
                "targetlang": cold_op(parse, clear, texts, number),
                "clear": clear_op(clear, texts, number),
                "tvm": each_op(make, texts, number),
            }
        samples = time_rounds(ops, args.rounds, args.warmup)
        every = [text for _, text in accepted]
        printing = (
            time_rounds({"first print": first_print_ops(parse, clear, make, every)}, args.rounds, args.warmup)
            if args.print
            else {"first print": {}}
        )
    result = {
        "tvm": str(tvm.__version__),
        "python": platform.python_version(),
        "lark": _version("lark"),
        "rejected": {str(index): reason for index, reason in sorted(rejected.items())},
        "counts": {kind: len(texts) for kind, texts in groups.items()},
        "samples": samples,
        "accepted": accepted,
        "first print": printing["first print"],
    }
    Path(args.out).write_text(json.dumps(result), encoding="utf-8")
    return 0


def first_print_ops(
    parse: Callable[[str], targetlang.Target], clear: Pass, make: Callable[[str], object], texts: Sequence[str]
) -> dict[str, Op]:
    """``t.canonical()`` and TVM's ``str(t)``, each the first time its target is asked: the targets
    are made anew before each timed pass (untimed; targetlang's with the caches cleared, so that
    none is a target read before, which keeps what it printed); and each the second time (both
    keep the text made the first time)."""
    ours: list[targetlang.Target] = []
    theirs: list[object] = []

    def read() -> None:
        clear()
        ours[:] = [parse(text) for text in texts]

    def made() -> None:
        theirs[:] = [make(text) for text in texts]

    def printed_once() -> None:
        made()
        printed()

    def canonical_once() -> None:
        read()
        canonical()

    def canonical() -> None:
        for target in ours:
            target.canonical()

    def printed() -> None:
        for target in theirs:
            str(target)

    return {
        "targetlang": Op(canonical, len(texts), read),
        "tvm": Op(printed, len(texts), made),
        "tvm again": Op(printed, len(texts), printed_once),
        "targetlang again": Op(canonical, len(texts), canonical_once),
    }


def first_child(args: argparse.Namespace) -> int:
    """A fresh process: each text of ``args.texts`` read once by targetlang and once by TVM, in
    turn (which first alternates from text to text, starting with targetlang for an even
    ``args.first_offset``), the CPU time of each reading written to ``args.out``. Before it, the
    work TVM's import does for TVM is done for targetlang: its parser's modules imported and the
    built-in registry loaded (``import targetlang`` defers them to the first parse; their time is
    bench_import's)."""
    items = [(str(kind), str(text)) for kind, text in json.loads(Path(args.texts).read_text(encoding="utf-8"))]
    importlib.import_module("targetlang._parsing")
    targetlang.builtin_registry()
    parse = targetlang.parse
    clock = time.process_time_ns
    ours: list[int] = []
    theirs: list[int] = []
    with silenced():
        make = importlib.import_module("tvm").target.Target
        for index, (_, text) in enumerate(items):
            sides = [(parse, ours), (make, theirs)]
            if (index + args.first_offset) % 2:
                sides.reverse()
            for read, times in sides:
                start = clock()
                read(text)
                times.append(clock() - start)
    Path(args.out).write_text(json.dumps({"targetlang": ours, "tvm": theirs}), encoding="utf-8")
    return 0


FirstReads = dict[str, dict[str, list[float]]]  # kind -> side -> one mean per fresh process


def _fresh_reads(
    command: Sequence[str], items: Sequence[tuple[str, str]], offset: int, args: argparse.Namespace
) -> dict[str, list[int]] | str:
    """One fresh process's readings of ``items`` (first_child), or why there are none."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(_ROOT), os.environ.get("PYTHONPATH")]))}
    with tempfile.TemporaryDirectory(prefix="bench_parse.") as tmp:
        texts, out = Path(tmp, "texts.json"), Path(tmp, "out.json")
        texts.write_text(json.dumps(list(items)), encoding="utf-8")
        argv = [
            *command, str(_SCRIPT), "--first-child", "--texts", str(texts), "--out", str(out),
            "--first-offset", str(offset),
        ]  # fmt: skip
        done = subprocess.run(argv, cwd=_ROOT, env=env, capture_output=True, text=True, timeout=args.timeout)
        if done.returncode != 0 or not out.exists():
            tail = " / ".join((done.stderr or done.stdout).strip().splitlines()[-3:])
            return f"the child exited with status {done.returncode}: {tail or 'no output'}"
        result: dict[str, list[int]] = json.loads(out.read_text(encoding="utf-8"))
    return result


def run_first_strings(
    command: Sequence[str], items: Sequence[tuple[str, str]], args: argparse.Namespace
) -> FirstReads | str:
    """Per kind, ``args.first_rounds`` fresh processes that read one string of the kind and
    nothing before it (round r: the kind's string r, round robin), targetlang and TVM in turn,
    which first alternating by round; or why not."""
    reads: FirstReads = {}
    for kind, texts in by_kind(items).items():
        for round_ in range(args.first_rounds):
            result = _fresh_reads(command, [(kind, texts[round_ % len(texts)])], round_, args)
            if isinstance(result, str):
                return result
            for side, ns in result.items():
                reads.setdefault(kind, {}).setdefault(side, []).extend(map(float, ns))
    return reads


def run_every_string(
    command: Sequence[str], items: Sequence[tuple[str, str]], args: argparse.Namespace
) -> FirstReads | str:
    """Per kind (and _ALL), the mean of the first readings of its strings in each of
    ``args.first_rounds`` fresh processes that read every string once, in turn; or why not."""
    kinds = [kind for kind, _ in items]
    means: FirstReads = {}
    for round_ in range(args.first_rounds):
        result = _fresh_reads(command, items, round_, args)
        if isinstance(result, str):
            return result
        for side, ns in result.items():
            per_kind: dict[str, list[int]] = {}
            for kind, value in zip(kinds, ns, strict=True):
                per_kind.setdefault(kind, []).append(value)
            per_kind[_ALL] = list(ns)
            for kind, values in per_kind.items():
                means.setdefault(kind, {}).setdefault(side, []).append(statistics.fmean(values))
    return means


# --- the parent: run a child per peer ---------------------------------------------------------


@dataclass(frozen=True)
class Peer:
    """What one child measured: targetlang's cold parse, its clearing alone and TVM, per kind."""

    version: str
    python: str
    lark: str
    offered: int
    rejected: dict[int, str]
    counts: dict[str, int]
    samples: dict[str, dict[str, list[float]]]  # with the group _ALL
    accepted: list[tuple[str, str]]  # (kind, text): what both read
    first_print: dict[str, list[float]]  # "targetlang" (canonical()) and "tvm" (str(t))

    def count(self, kind: str) -> int:
        return sum(self.counts.values()) if kind == _ALL else self.counts.get(kind, 0)

    def kinds(self) -> list[str]:
        """The kinds measured, then _ALL."""
        return [*self.counts, _ALL]

    def cold(self, kind: str) -> Stat:
        return Stat.cold(self.samples[kind])

    def counted(self, kind: str) -> Stat:
        """The cold parse with its clearing counted: the parse pass as it was timed."""
        return Stat.of(self.samples[kind]["targetlang"])

    def tvm(self, kind: str) -> Stat:
        return Stat.of(self.samples[kind]["tvm"])


def run_peer(
    label: str,
    command: Sequence[str],
    items: Sequence[tuple[str, str]],
    args: argparse.Namespace,
    printing: bool = False,
) -> Peer | str:
    """Run this script as a child under ``command`` (a Python with TVM); the Peer, or why not."""
    if not Path(command[0]).exists():
        return f"{command[0]} does not exist"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(_ROOT), os.environ.get("PYTHONPATH")]))}
    excluded: list[int] = []
    with tempfile.TemporaryDirectory(prefix="bench_parse.") as tmp:
        texts, out, progress = Path(tmp, "texts.json"), Path(tmp, "out.json"), Path(tmp, "progress")
        texts.write_text(json.dumps(items), encoding="utf-8")
        while True:
            progress.write_text("", encoding="utf-8")
            argv = [
                *command, str(_SCRIPT), "--child", "--texts", str(texts), "--out", str(out),
                "--progress", str(progress), "--exclude", ",".join(map(str, excluded)),
                "--rounds", str(args.rounds), "--warmup", str(args.warmup), "--min-calls", str(args.min_calls),
                *(["--print"] if printing else []),
            ]  # fmt: skip
            print(f"{label}: {shlex.join(argv)}", file=sys.stderr)
            try:
                done = subprocess.run(argv, cwd=_ROOT, env=env, capture_output=True, text=True, timeout=args.timeout)
            except subprocess.TimeoutExpired:
                return f"the child took more than {args.timeout:g} s"
            if done.returncode == 0 and out.exists():
                break
            lines = progress.read_text(encoding="utf-8").split()
            if len(lines) >= 2 and lines[-2] == "start" and len(excluded) < 20:
                excluded.append(int(lines[-1]))  # this text killed TVM's process: without it, again
                print(
                    f"{label}: text {excluded[-1]} ended the child ({done.returncode}); again without it",
                    file=sys.stderr,
                )
                continue
            tail = " / ".join((done.stderr or done.stdout).strip().splitlines()[-3:])
            return f"the child exited with status {done.returncode}: {tail or 'no output'}"
        result = json.loads(out.read_text(encoding="utf-8"))
    counts = {str(kind): int(count) for kind, count in result["counts"].items()}
    if not counts:
        return "TVM accepted none of the texts"
    return Peer(
        str(result["tvm"]),
        str(result["python"]),
        str(result["lark"]),
        len(items),
        {int(index): str(reason) for index, reason in result["rejected"].items()},
        counts,
        with_total(result["samples"], counts),
        [(str(kind), str(text)) for kind, text in result["accepted"]],
        {side: list(ns) for side, ns in result["first print"].items()},
    )


def json_items(items: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """``json.dumps(t.to_json())`` of each corpus target, each distinct text once."""
    seen: set[str] = set()
    out = []
    for kind, text in items:
        config = json.dumps(targetlang.parse(text).to_json())
        if config not in seen:
            seen.add(config)
            out.append((kind, config))
    return out


# --- targetlang alone: the split parser and the other operations ------------------------------


@dataclass(frozen=True)
class Local:
    texts: int
    split_texts: int  # of ``texts``, those the split parser accepts: the comparison's strings
    split: dict[str, Stat]  # "targetlang" (cold, clearing subtracted) and "split"
    others: dict[str, Stat]


_OTHERS = {
    "repeated parse (cache warm)": "warm",
    "`str(t)`": "str",
    "`t.canonical()`": "canonical",
    "`t.to_json()`": "to_json",
    "`t.resolve()`": "resolve",
}


def measure_local(texts: Sequence[str], args: argparse.Namespace) -> Local:
    parse, clear = targetlang.parse, targetlang.clear_caches
    schema = split_schema()
    splittable = []
    for text in texts:
        with contextlib.suppress(ValueError):
            split_parse(text, schema)
            splittable.append(text)
    number = repeats(len(texts), args.min_calls)
    split_number = repeats(len(splittable), args.min_calls)
    targets = [parse(text) for text in texts]

    def warm_up() -> None:  # every text in the cache before the repeated parse is timed
        for text in texts:
            parse(text)

    ops = {
        "split": {
            "targetlang": cold_op(parse, clear, splittable, split_number),
            "clear": clear_op(clear, splittable, split_number),
            "split": each_op(functools.partial(split_parse, schema=schema), splittable, split_number),
        },
        "others": {
            "warm": each_op(parse, texts, number, warm_up),
            "str": each_op(str, targets, number),
            "canonical": each_op(targetlang.Target.canonical, targets, number),
            "to_json": each_op(targetlang.Target.to_json, targets, number),
            "resolve": each_op(targetlang.Target.resolve, targets, number),
        },
    }
    samples = time_rounds(ops, args.rounds, args.warmup)
    split = samples["split"]
    return Local(
        len(texts),
        len(splittable),
        {"targetlang": Stat.cold(split), "split": Stat.of(split["split"])},
        {name: Stat.of(ns) for name, ns in samples["others"].items()},
    )


# --- the report -------------------------------------------------------------------------------


def _mark(ok: bool) -> str:
    return "**met**" if ok else "**not met**"


def _us(stat: Stat) -> str:
    return f"{stat.min:.2f} / {stat.median:.2f}"


def _left_out(peer: Peer) -> str:
    reasons = collections.Counter(peer.rejected.values())
    listed = ", ".join(f"{count} {reason}" for reason, count in sorted(reasons.items()))
    return f"{len(peer.rejected)} of {peer.offered} left out" + (f": {listed}" if listed else "")


def kinds_table(tvm021: Peer | str, tvm019: Peer | str) -> list[str]:
    """The table per kind. targetlang's figures are those of the v0.21 child (v0.19's when v0.21
    could not be run), so that they were taken in the same process as the figures they meet."""
    base = tvm021 if isinstance(tvm021, Peer) else tvm019
    if isinstance(base, str):
        return [f"Not measured: TVM v0.21 ({tvm021}); TVM v0.19 ({tvm019})."]
    lines = [
        "| kind | strings | targetlang min / median µs | TVM v0.21 min / median µs | ratio (medians) "
        f"| TVM v0.19 median µs | goal ≤ {_VS_TVM021_GOAL:g}x |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    for kind in base.kinds():
        count, ours = base.count(kind), base.cold(kind)
        if isinstance(tvm021, Peer):
            ratio = ours.median / tvm021.tvm(kind).median
            new = f"{_us(tvm021.tvm(kind))} | {ratio:.2f}x"
            goal = "(every kind)" if kind == _ALL else _mark(ratio <= _VS_TVM021_GOAL)
        else:
            new, goal = "not measured | —", "not measured"
        if isinstance(tvm019, str):
            old = "not measured"
        elif kind in tvm019.samples:
            old = f"{tvm019.tvm(kind).median:.2f}"
            if tvm019.count(kind) != count:
                old += f" ({tvm019.count(kind)} strings)"
        else:
            old = "rejects all"
        name = f"**{kind}**" if kind == _ALL else f"`{kind}`"
        lines.append(f"| {name} | {count} | {_us(ours)} | {new} | {old} | {goal} |")
    if base is tvm019:
        lines += ["", f"TVM v0.21 not measured: {tvm021}; targetlang's figures are from the v0.19 child."]
    return lines


def first_ratio(first: FirstReads, kind: str) -> float:
    """targetlang's median over the fresh processes over TVM's."""
    return statistics.median(first[kind]["targetlang"]) / statistics.median(first[kind]["tvm"])


def _fresh_cells(reads: FirstReads | str, kind: str) -> tuple[str, float | None]:
    if isinstance(reads, str) or kind not in reads:
        return ("— | — | —" if kind == _ALL else "not measured | — | —"), None
    ratio = first_ratio(reads, kind)
    ours_us = statistics.median(reads[kind]["targetlang"]) / 1000
    theirs_us = statistics.median(reads[kind]["tvm"]) / 1000
    return f"{ours_us:.2f} | {theirs_us:.2f} | {ratio:.2f}x", ratio


def counted_table(tvm021: Peer | str, first: FirstReads | str, every: FirstReads | str) -> list[str]:
    """Per kind, the methods that subtract nothing: the cold parse with its clearing counted, the
    first string a fresh process reads, and every string's first reading in a fresh process."""
    if isinstance(tvm021, str):
        return [f"Not measured: TVM v0.21 ({tvm021})."]
    lines = [
        "| kind | strings | targetlang, clearing counted, min / median µs | TVM v0.21 median µs | ratio "
        "| first string: targetlang µs | TVM v0.21 µs | ratio | goal ≤ 0.5x, both "
        "| every string's first reading: targetlang µs | TVM v0.21 µs | ratio |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|",
    ]
    for kind in tvm021.kinds():
        counted, theirs = tvm021.counted(kind), tvm021.tvm(kind)
        ratio = counted.median / theirs.median
        fresh, fresh_ratio = _fresh_cells(first, kind)
        each, _ = _fresh_cells(every, kind)
        if kind == _ALL:
            goal = "(every kind)"
        else:
            goal = _mark(ratio <= _VS_TVM021_GOAL and fresh_ratio is not None and fresh_ratio <= _VS_TVM021_GOAL)
        name = f"**{kind}**" if kind == _ALL else f"`{kind}`"
        count = tvm021.count(kind)
        lines.append(
            f"| {name} | {count} | {_us(counted)} | {theirs.median:.2f} | {ratio:.2f}x | {fresh} | {goal} | {each} |"
        )
    return lines


def json_table(tvm027: Peer | str) -> list[str]:
    if isinstance(tvm027, str):
        return [f"apache-tvm 0.27 not measured: {tvm027}"]
    lines = [
        "| kind | JSON texts | `targetlang.parse(text)` cold, min / median µs | apache-tvm 0.27 `Target(text)` "
        f"min / median µs | ratio (medians) | goal ≤ {_VS_TVM027_JSON_GOAL:g}x |",
        "|---|---:|---:|---:|---:|---|",
    ]
    for kind in tvm027.kinds():
        ours, theirs = tvm027.cold(kind), tvm027.tvm(kind)
        ratio = ours.median / theirs.median
        name = f"**{kind}**" if kind == _ALL else f"`{kind}`"
        goal = "(every kind)" if kind == _ALL else _mark(ratio <= _VS_TVM027_JSON_GOAL)
        lines.append(f"| {name} | {tvm027.count(kind)} | {_us(ours)} | {_us(theirs)} | {ratio:.2f}x | {goal} |")
    return lines


def print_stats(tvm027: Peer) -> dict[str, Stat]:
    """canonical() and TVM's str(t), the first time and again."""
    return {name: Stat.of(ns) for name, ns in tvm027.first_print.items()}


def print_table(tvm027: Peer | str) -> list[str]:
    if isinstance(tvm027, str):
        return [f"apache-tvm 0.27 not measured: {tvm027}"]
    stats, count = print_stats(tvm027), tvm027.count(_ALL)
    first = stats["targetlang"].median / stats["tvm"].median
    again = stats["targetlang again"].median / stats["tvm again"].median
    cross = stats["targetlang"].median / stats["tvm again"].median
    return [
        "| operation | targets | min / median µs |",
        "|---|---:|---:|",
        f"| targetlang `t.canonical()`, the first time | {count} | {_us(stats['targetlang'])} |",
        f"| apache-tvm 0.27 `str(t)`, the first time | {count} | {_us(stats['tvm'])} |",
        f"| targetlang `t.canonical()`, the second time | {count} | {_us(stats['targetlang again'])} |",
        f"| apache-tvm 0.27 `str(t)`, the second time | {count} | {_us(stats['tvm again'])} |",
        "",
        f"Ratios (medians): the first time {first:.2f}x, the second time {again:.2f}x. Both keep the text a "
        "target printed: TVM's `TargetNode::str()` makes it once into `str_repr_` (src/target/target.cc) "
        "and its next `str(t)` returns it, as a targetlang target returns its first `canonical()`. "
        f"targetlang's first `canonical()` against TVM's second `str(t)`, one made and one kept: {cross:.2f}x.",
    ]


def _every_kind(what: str, ratios: Mapping[str, float], goal: float) -> str:
    worst = max(ratios, key=ratios.__getitem__)
    missed = sorted(kind for kind, ratio in ratios.items() if ratio > goal)
    return f"- {what}: {_mark(not missed)} (highest {ratios[worst]:.2f}x, `{worst}`" + (
        f"; above the goal: {', '.join(f'`{kind}`' for kind in missed)})" if missed else ")"
    )


def goals(local: Local, tvm021: Peer | str, tvm027: Peer | str, first: FirstReads | str) -> list[str]:
    out = []
    against = f"at most {_VS_TVM021_GOAL:g}x TVM v0.21's `Target(s)` on every kind"
    if isinstance(tvm021, str):
        out.append(f"- Cold parse {against}: not measured")
    else:
        for method, stat in (("the clearing subtracted", tvm021.cold), ("the clearing counted", tvm021.counted)):
            ratios = {kind: stat(kind).median / tvm021.tvm(kind).median for kind in tvm021.counts}
            out.append(_every_kind(f"Cold parse {against}, {method}", ratios, _VS_TVM021_GOAL))
    if isinstance(first, str):
        out.append(f"- The first string a fresh process reads {against}: not measured ({first})")
    else:
        ratios = {kind: first_ratio(first, kind) for kind in first if kind != _ALL}
        out.append(_every_kind(f"The first string a fresh process reads {against}", ratios, _VS_TVM021_GOAL))
    split = local.split["targetlang"].median / local.split["split"].median
    out.append(
        f"- Cold parse at most {_VS_SPLIT_GOAL:g}x the split parser: {_mark(split <= _VS_SPLIT_GOAL)} ({split:.2f}x)"
    )
    if isinstance(tvm027, str):
        out.append(f"- JSON parse at most {_VS_TVM027_JSON_GOAL:g}x apache-tvm 0.27's `Target(text)`: not measured")
    else:
        ratios = {kind: tvm027.cold(kind).median / tvm027.tvm(kind).median for kind in tvm027.counts}
        out.append(
            _every_kind(
                f"JSON parse at most {_VS_TVM027_JSON_GOAL:g}x apache-tvm 0.27's `Target(text)` on every kind",
                ratios,
                _VS_TVM027_JSON_GOAL,
            )
        )
        stats = print_stats(tvm027)
        ours, theirs = stats["targetlang"].median, stats["tvm"].median
        kept = stats["tvm again"].median
        out.append(
            f"- `t.canonical()` the first time at most {_CANONICAL_GOAL:g}x apache-tvm 0.27's `str(t)` the first "
            f"time: {_mark(ours / theirs <= _CANONICAL_GOAL)} ({ours:.2f} µs against {theirs:.2f}, "
            f"{ours / theirs:.2f}x; against TVM's second `str(t)`, which returns the text it kept, "
            f"{kept:.2f} µs: {ours / kept:.2f}x)"
        )
    warm = local.others["warm"].median
    out.append(
        f"- Repeated parse (the cache answers) under {_WARM_PARSE_GOAL_US:g} µs, the project's earlier goal: "
        f"{_mark(warm < _WARM_PARSE_GOAL_US)} ({warm:.2f} µs)"
    )
    return out


def _peer_line(name: str, how: str, peer: Peer | str) -> str:
    if isinstance(peer, str):
        return f"- {name}: not measured ({peer})"
    return f"- {name}: TVM {peer.version}, Python {peer.python}, lark {peer.lark}: {how}"


def _commit() -> str:
    with contextlib.suppress(OSError, subprocess.CalledProcessError):
        out = subprocess.run(
            ["git", "describe", "--always", "--dirty"], cwd=_ROOT, capture_output=True, text=True, check=True
        )
        return out.stdout.strip()
    return "unknown"


def report(
    corpus: Corpus,
    local: Local,
    tvm021: Peer | str,
    tvm019: Peer | str,
    tvm027: Peer | str,
    first: FirstReads | str,
    every: FirstReads | str,
    command: str,
    args: argparse.Namespace,
) -> str:
    left_out = [
        f"- {name}: {_left_out(peer)}"
        for name, peer in (("TVM v0.21", tvm021), ("TVM v0.19", tvm019))
        if isinstance(peer, Peer)
    ]
    out = [
        "## Parsing targets",
        "",
        "Measured by `benchmarks/bench_parse.py` (this section is generated; rerun it rather than editing). "
        "Import time has its own section, [Import time](#import-time) (`benchmarks/bench_import.py`).",
        "",
        "### Machine",
        "",
        f"- platform: {platform.platform()}",
        f"- cpu: {_cpu_model()}",
        f"- cpu count: {os.cpu_count()}",
        f"- python: {platform.python_implementation()} {platform.python_version()}",
        f"- targetlang: {_version('targetlang')} at `{_commit()}`, lark: {_version('lark')}",
        _peer_line("TVM v0.21", f"`{args.oracle} --tvm 021` (xtc-tvm-python-bindings)", tvm021),
        _peer_line("TVM v0.19", f"`{args.oracle} --tvm 019` (xtc-tvm-python-bindings)", tvm019),
        _peer_line("apache-tvm 0.27", f"`{args.tvm027_python}`", tvm027),
        "",
        "### Command",
        "",
        f"    {command}",
        "",
        "### Method",
        "",
        f"The strings are the {len(corpus.items) + len(corpus.rejected)} distinct `legacy-string` texts of "
        f"`tests/data/corpus/strings.jsonl`; the {len(corpus.rejected)} that `targetlang.parse` rejects are left "
        "out of every figure, and the rest are grouped by the kind targetlang reads. Every figure is CPU "
        "time (`time.process_time_ns`) per target, in microseconds.",
        "",
        "Each TVM runs in a child process: this script again, under a Python that has that TVM and this "
        "checkout of targetlang. The child tries every string once with both parsers and keeps those both "
        "accept, then runs rounds. In each round, for each kind, it times one pass of `targetlang.parse` "
        "over the kind's strings with `targetlang.clear_caches()` before each, one pass of the "
        "`clear_caches()` calls alone, and one pass of `tvm.target.Target(s)`, one after the other, in "
        "reverse order every other round. A round's cold figure is its parse pass less its clearing pass. "
        "`clear_caches()` empties every cache that grows with the input; what a registry derives from its "
        "own kinds and tags stays, as the registry does (each kind's codes of plain values, and the target "
        "of each tag that nests none, once read: 1 of the 283 strings names a tag). "
        f"A kind with fewer than {args.min_calls} strings repeats its pass to make at least "
        f"{args.min_calls} calls. {args.warmup} warm-up rounds come first and are not kept; min and median "
        f"are over the {args.rounds} kept rounds. The row of all kinds is one pass over every string per "
        "round. The ratio is targetlang's median over TVM's. TVM v0.19's column comes from a second "
        "child run the same way (with the count where v0.19 accepts fewer strings of a kind). The "
        "garbage collector is on, and collected "
        "before each round. TVM's warnings go to /dev/null.",
        "",
        "So that no verdict depends on what is subtracted, the goal against TVM v0.21 is judged by two "
        "more methods, which subtract nothing. *Clearing counted*: the same parse passes, each figure "
        "the pass itself, `clear_caches()` calls included. *First reading*: "
        f"for each kind, {args.first_rounds} fresh processes (this script with `--first-child` under the same "
        "Python as the v0.21 child), each of which first does for targetlang what `import tvm` does for "
        "TVM (imports the parser's modules, loads the built-in registry), then reads one string of the "
        "kind (the kind's strings in turn, from one process to the next) with targetlang and with TVM, "
        "which first alternating from process to process, timing each reading alone: the first string "
        "the process reads, with every cost of a first reading in it (code run for the first time, what "
        "a kind or a tag costs the first time it is read); the table gives the median over the "
        f"processes. The last three columns, not judged, go further: {args.first_rounds} fresh processes "
        "that read every string the v0.21 child kept, once each, targetlang and TVM in turn (which first "
        "alternating from string to string), kinds in the order of the table, nothing cleared; a "
        "process's figure for a kind is the mean over its strings, the table gives the median over the "
        "processes. There each side reads right after the other, whose work has just taken the "
        "processor's caches.",
        "",
        "`t.canonical()` is timed the first time each target is asked (a target keeps what it printed): "
        "in the apache-tvm 0.27 child, each round makes the targets of every JSON text anew (untimed, "
        "the caches cleared first), then times one pass of `t.canonical()` over them; TVM's `str(t)` "
        "likewise over targets made anew from the same texts; then both again over targets already "
        "printed once (each keeps the text it made). The goal is judged the first time against the "
        "first time; the line of the goal gives targetlang's first time against TVM's second too.",
        "",
        "The split parser (`split_parse` in the script) is a minimal validating reader without lark: it "
        "splits on whitespace, checks the kind and every option's key against targetlang's builtin "
        "registry, converts ints and bools, splits arrays on commas and builds a dict. It is timed in "
        "this process, alternating with the same cold parse, over the strings it accepts. It reads no "
        "quotes and no nested targets (a host stays text).",
        "",
        "apache-tvm 0.27 reads JSON text, not legacy strings: its texts are "
        "`json.dumps(targetlang.parse(s).to_json())` of the same strings, each distinct text once, timed "
        "as the legacy strings are against TVM v0.21, `targetlang.parse(text)` cold against "
        "`tvm.target.Target(text)`. The other operations are timed in this process on targets parsed once.",
        "",
        "### Cold parse of legacy strings, per kind",
        "",
        *kinds_table(tvm021, tvm019),
        "",
        *left_out,
        *([""] if left_out else []),
        "### Cold parse with nothing subtracted: the clearing counted, and the first reading in a fresh process",
        "",
        *counted_table(tvm021, first, every),
        "",
        "### Cold parse against the split parser",
        "",
        "| strings | targetlang cold, min / median µs | split parser, min / median µs | ratio (medians) |",
        "|---:|---:|---:|---:|",
        f"| {local.split_texts} of {local.texts} | {_us(local.split['targetlang'])} | {_us(local.split['split'])} "
        f"| {local.split['targetlang'].median / local.split['split'].median:.2f}x |",
        "",
        "### JSON text against apache-tvm 0.27",
        "",
        *json_table(tvm027),
        "",
        *([f"- apache-tvm 0.27: {_left_out(tvm027)}", ""] if isinstance(tvm027, Peer) else []),
        "### `canonical()` the first time, against apache-tvm 0.27's `str(t)`",
        "",
        *print_table(tvm027),
        "",
        "### Other operations (targetlang alone)",
        "",
        "| operation | targets | min / median µs |",
        "|---|---:|---:|",
        *[f"| {label} | {local.texts} | {_us(local.others[name])} |" for label, name in _OTHERS.items()],
        "",
        "A target keeps what `canonical()` and `resolve()` (with the default environment) gave the first "
        "time, so these rows time the calls after the first; `to_json()` builds a new dict each time.",
        "",
        "### Goals (issues 12 and 29)",
        "",
        *goals(local, tvm021, tvm027, first),
        "",
    ]
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--write", action="store_true", help=f"rewrite its section of {_DOC.relative_to(_ROOT)}")
    parser.add_argument("--corpus", type=Path, default=_CORPUS, help="strings.jsonl to read (default: %(default)s)")
    parser.add_argument("--rounds", type=int, default=40, help="rounds kept (default: %(default)s)")
    parser.add_argument("--warmup", type=int, default=3, help="rounds run first and not kept (default: %(default)s)")
    parser.add_argument(
        "--min-calls",
        type=int,
        default=100,
        help="calls per timed pass at least; small kinds repeat (default: %(default)s)",
    )
    parser.add_argument("--oracle", type=Path, default=_ORACLE, help="tvm-oracle run.sh (default: %(default)s)")
    parser.add_argument(
        "--tvm027-python",
        type=Path,
        default=_TVM027_PYTHON,
        help="a Python with apache-tvm 0.27 (default: %(default)s)",
    )
    parser.add_argument("--timeout", type=float, default=3600.0, help="seconds a child may take (default: %(default)s)")
    parser.add_argument(
        "--first-rounds",
        type=int,
        default=5,
        help="fresh processes per kind that read its first string, and that read every string (default: %(default)s)",
    )
    # The child's arguments, for the parent only.
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--first-child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--print", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--first-offset", type=int, default=0, help=argparse.SUPPRESS)
    for name in ("--texts", "--out", "--progress", "--exclude"):
        parser.add_argument(name, default="", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return child(args)
    if args.first_child:
        return first_child(args)

    corpus = load_corpus(args.corpus)
    if not corpus.items:
        print(f"no accepted legacy strings in {args.corpus}", file=sys.stderr)
        return 1
    print(f"{len(corpus.items)} corpus legacy strings accepted, {len(corpus.rejected)} rejected", file=sys.stderr)
    local = measure_local([text for _, text in corpus.items], args)
    oracle = str(args.oracle)
    legacy = [*corpus.items, *(("", text) for text in corpus.rejected)]
    tvm021 = run_peer("TVM v0.21", [oracle, "--tvm", "021"], legacy, args)
    print("TVM v0.21: first readings in fresh processes", file=sys.stderr)
    v021 = [oracle, "--tvm", "021"]
    first = run_first_strings(v021, tvm021.accepted, args) if isinstance(tvm021, Peer) else tvm021
    every = run_every_string(v021, tvm021.accepted, args) if isinstance(tvm021, Peer) else tvm021
    tvm019 = run_peer("TVM v0.19", [oracle, "--tvm", "019"], legacy, args)
    tvm027 = run_peer("apache-tvm 0.27", [str(args.tvm027_python)], json_items(corpus.items), args, printing=True)
    command = shlex.join(["python", "benchmarks/bench_parse.py", *(sys.argv[1:] if argv is None else argv)])
    text = report(corpus, local, tvm021, tvm019, tvm027, first, every, command, args)
    print(text)
    if args.write:
        write_section("bench_parse", text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
