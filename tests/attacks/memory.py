"""Attacks on the memory of ``targetlang logs stats`` and ``targetlang explain -``: real processes
under an address-space cap (``RLIMIT_AS``, set before Python imports targetlang, as ``ulimit -v``
would), whose sizes are drawn from the seed.

- ``stats-distinct-targets``: ``logs stats -j 1`` (text or ``--json``) over a log of 300 - 600
  records, each holding a distinct target of 150 - 250 KB: a ``-mattr`` list of 1 KB items, a long
  ``-model``, a long ``-keys`` list, or a JSON object with a long ``mattr`` array; under 128 MB
  (about 45 MB now). A row kept the target read (9 bytes per byte of a long ``-mattr`` list in the
  era of TVM v0.8), and 600 records of 200 KB took 620 MB; the counts now keep the texts in a file.
- ``explain-huge-array``: ``explain -`` of a JSON spec of 10 - 16 MB whose ``mattr`` array holds
  items of 9 - 40 characters, with 6 - 9 other attributes (each a row of the table, padded to the
  array's width); under 64 MB plus 20 bytes per input byte (the goal of docs/performance.md).
  The text and its table were built whole, then joined, then encoded, and the migration's check
  of a config for integers past 64 bits (``_json_decoding.check_int64``) made a path string for every
  item: 36 - 40 bytes per input byte, 11 - 18 now. A third of the trials print ``--json``, which
  took 25 - 40 % more than now.

A trial violates when the run exits other than 0, prints a traceback, "internal error" or
MemoryError, outlasts the timeout, or prints a report that does not say what the input holds.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

from . import Done, Outcome, _rng, _run, _script, _trial_dir, _workspace

__all__ = ["ATTACKS", "CAPPED", "SUITE_TRIALS", "explain_report", "explain_spec", "stats_log", "stats_report"]

MB = 1 << 20
STATS_CAP = 128 * MB
EXPLAIN_BASE = 64 * MB  # Python and targetlang's imports take about 40 MB of address space
EXPLAIN_PER_BYTE = 20
TIMEOUT = 180.0
UNCAUGHT = ("Traceback", "internal error", "MemoryError")

# A child that caps its address space, then runs the CLI (argv: the cap in bytes, the CLI's arguments).
CAPPED = """\
import resource, sys
cap = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
from targetlang._cli import main
raise SystemExit(main(sys.argv[2:]))
"""

# The attributes a JSON spec gets besides its array, each a row of explain's table.
_OTHERS: list[tuple[str, object]] = [
    ("mcpu", "skylake"),
    ("mtriple", "x86_64-linux-gnu"),
    ("device", "arm_cpu"),
    ("model", "m1"),
    ("libs", ["cblas"]),
    ("opt-level", 3),
    ("num-cores", 4),
    ("mabi", "lp64"),
    ("mfloat-abi", "hard"),
]

STATS_SHAPES = ("mattr", "model", "keys", "json")


def _spec(shape: str, n: int, size: int) -> str:
    """The ``n``-th distinct target of ``shape``, of about ``size`` characters."""
    if shape == "mattr":
        return "llvm -mattr=" + ",".join(f"+f{n}_{i}" + "y" * 1000 for i in range(max(1, size // 1008)))
    if shape == "model":
        return f"llvm -device=arm_cpu -model=m{n}_" + "x" * size
    if shape == "keys":
        return "llvm -keys=" + ",".join(f"k{n}_{i}" + "z" * 90 for i in range(max(1, size // 100)))
    return json.dumps({"kind": "llvm", "mattr": [f"+j{n}_{i}" + "w" * 90 for i in range(max(1, size // 104))]})


def stats_log(path: Path, records: int, size: int, shapes: Callable[[int], str]) -> list[bytes]:
    """Write a log of ``records`` AutoTVM records, each holding a distinct target of about
    ``size`` characters of ``shapes(n)``'s shape (written by TVM v0.19, read with v0.22's rules);
    return the digests of the targets, in order."""
    digests = []
    with open(path, "w", encoding="utf-8") as out:
        for n in range(records):
            spec = _spec(shapes(n), n, size)
            digests.append(hashlib.blake2b(spec.encode()).digest())
            record = {
                "input": [spec, "dense.x86", [], {}],
                "config": {"index": n, "code_hash": None, "entity": []},
                "result": [[0.1], 0, 1, 1],
                "version": 0.2,
                "tvm_version": "0.19.0",
            }
            out.write(json.dumps(record) + "\n")
    return digests


def stats_report(out: Path, records: int, digests: list[bytes], as_json: bool) -> str | None:
    """What is wrong with ``logs stats``'s report ``out`` of a log of ``records`` records holding
    the distinct targets of ``digests`` (each once, so their rows are in the order of the log);
    ``None`` when nothing is."""
    with open(out, encoding="utf-8") as lines:
        if as_json:
            count = 0
            for n, line in enumerate(lines):
                count += 1
                row = json.loads(line)
                if n < len(digests):
                    if row.get("records") != 1 or hashlib.blake2b(row["spec"].encode()).digest() != digests[n]:
                        return f"row {n} is not the target of record {n}"
                elif (row.get("records"), row.get("distinct_targets")) != (records, len(digests)):
                    return f"the summary says {row.get('records')} records, {row.get('distinct_targets')} targets"
            return None if count == len(digests) + 1 else f"{count} lines"
        head = next(lines, "")
        want = f"{records} records in 1 file ({records} autotvm-v0.2), 0 comment lines; {len(digests)} distinct targets"
        if head != want + "\n":
            return f"the first line is {head[:200]!r}"
        next(lines, None)  # the table's header
        for n, digest in enumerate(digests):
            shown = next(lines, "").removesuffix("\n").rsplit("  ", 1)[-1]
            if hashlib.blake2b(shown.encode()).digest() != digest:
                return f"row {n} is not the target of record {n}"
        return None


def explain_spec(path: Path, size: int, item: int, others: int) -> int:
    """Write a JSON spec of about ``size`` bytes: ``others`` attributes and a ``mattr`` array
    of ``item``-character items; return the array's length."""
    items = max(1, size // (item + 4))
    value = "+" + "f" * (item - 1)
    body = ", ".join(f"{json.dumps(name)}: {json.dumps(v)}" for name, v in _OTHERS[:others])
    with open(path, "w", encoding="utf-8") as out:
        out.write('{"kind": "llvm", ' + (body + ", " if body else "") + '"mattr": [')
        out.write(", ".join([json.dumps(value)] * items))
        out.write("]}")
    return items


def explain_report(out: Path, items: int, as_json: bool) -> str | None:
    """What is wrong with ``explain``'s report ``out`` of a spec whose array has ``items`` items."""
    found = {"mattr": False, "migrated": False}
    count = 0
    with open(out, encoding="utf-8") as lines:
        for line in lines:
            count += 1
            if as_json:
                found["mattr"] = found["mattr"] or line.startswith('      "name": "mattr"')
                found["migrated"] = found["migrated"] or line.startswith('  "migrated": {')
            else:
                found["mattr"] = found["mattr"] or line.startswith("mattr ")
                found["migrated"] = found["migrated"] or line.startswith('migrated: {"kind": "llvm"')
    if not all(found.values()):
        return f"no {[name for name, seen in found.items() if not seen]} in the report ({count} lines)"
    if as_json and count < 2 * items:  # each item on a line, in the row and in the migrated JSON
        return f"{count} lines for {items} items"
    return None


def _verdict(done: Done, cap: int) -> str | None:
    if done.hung:
        return f"hung (killed after {TIMEOUT:.0f} s)"
    said = [word for word in UNCAUGHT if word in done.err]
    if done.status != 0 or said:
        return f"exit {done.status} under {cap // MB} MB: {done.err.strip()[-300:]!r}"
    return None


def _capped(cap: int, *argv: str, stdin: Path | None = None, stdout: Path) -> Done:
    with open(stdout, "wb") as out, open(stdin or "/dev/null", "rb") as given:
        return _run(_script(CAPPED, str(cap), *argv), timeout=TIMEOUT, stdin=given, stdout=out)


def _trials(outcome: Outcome, trials: int, name: str) -> Iterator[tuple[int, Path]]:
    with _workspace(name) as root:
        for trial in range(trials):
            outcome.trials += 1
            yield trial, _trial_dir(root, trial)


def stats_distinct_targets(trials: int, seed: int = 0) -> Outcome:
    """``logs stats`` of hundreds of distinct 150 - 250 KB targets under 128 MB (see the module)."""
    outcome = Outcome("stats-distinct-targets", "`logs stats` of hundreds of distinct 150 - 250 KB targets")
    if not sys.platform.startswith("linux"):
        return outcome.skip("RLIMIT_AS caps the address space as measured here on Linux only")
    rng = _rng(seed, "stats-distinct-targets")
    outcome.measured.update(cap_mb=STATS_CAP // MB, records="300 - 600", size="150 - 250 KB")
    for trial, directory in _trials(outcome, trials, "stats"):
        records, size = rng.randint(300, 600), rng.randint(150_000, 250_000)
        mixed = rng.random() < 0.3
        shape = rng.choice(STATS_SHAPES)
        draw = random.Random(rng.random())
        shapes = [draw.choice(STATS_SHAPES) if mixed else shape for _ in range(records)]
        digests = stats_log(directory / "tune.log", records, size, shapes.__getitem__)
        as_json = rng.random() < 0.5
        argv = ["logs", "stats", "-j", "1", *(["--json"] if as_json else []), str(directory / "tune.log")]
        done = _capped(STATS_CAP, *argv, stdout=directory / "out")
        what = f"{records} x {size // 1000} KB {'mixed' if mixed else shape}{' --json' if as_json else ''}"
        wrong = _verdict(done, STATS_CAP) or stats_report(directory / "out", records, digests, as_json)
        if wrong is not None:
            outcome.violate(trial, f"{what}: {wrong}")
            continue
        outcome.count(f"{'mixed' if mixed else shape}{' --json' if as_json else ''}: counted under the cap")
    return outcome


def explain_huge_array(trials: int, seed: int = 0) -> Outcome:
    """``explain -`` of a JSON spec with a 10 - 16 MB array under 64 MB + 20 B/B (see the module)."""
    outcome = Outcome("explain-huge-array", "`explain -` of a JSON spec with a 10 - 16 MB array")
    if not sys.platform.startswith("linux"):
        return outcome.skip("RLIMIT_AS caps the address space as measured here on Linux only")
    rng = _rng(seed, "explain-huge-array")
    rule = f"{EXPLAIN_BASE // MB} MB + {EXPLAIN_PER_BYTE} B per input byte"
    outcome.measured.update(cap=rule, size="10 - 16 MB")
    for trial, directory in _trials(outcome, trials, "explain"):
        size, item, others = rng.randint(10 * MB, 16 * MB), rng.randint(9, 40), rng.randint(6, len(_OTHERS))
        items = explain_spec(directory / "spec.json", size, item, others)
        cap = EXPLAIN_BASE + EXPLAIN_PER_BYTE * (directory / "spec.json").stat().st_size
        as_json = rng.random() < 1 / 3
        argv = ["explain", *(["--json"] if as_json else []), "-"]
        done = _capped(cap, *argv, stdin=directory / "spec.json", stdout=directory / "out")
        what = f"{size // MB} MB, {items} items of {item}, {others} other attributes{' --json' if as_json else ''}"
        wrong = _verdict(done, cap) or explain_report(directory / "out", items, as_json)
        if wrong is not None:
            outcome.violate(trial, f"{what}: {wrong}")
            continue
        outcome.count(f"{'--json' if as_json else 'text'}: explained under the cap")
    return outcome


ATTACKS: dict[str, Callable[[int, int], Outcome]] = {
    "stats-distinct-targets": stats_distinct_targets,
    "explain-huge-array": explain_huge_array,
}
# a trial takes 3 - 10 s
SUITE_TRIALS: dict[str, int] = {"stats-distinct-targets": 2, "explain-huge-array": 2}
