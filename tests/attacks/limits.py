"""Attacks on the limits of what is read: registry files and target specs a few kilobytes (or
megabytes) long built to take time and memory far beyond their size.

* ``toml-dotted-keys``: TOML registry files of dotted keys (one key of up to 200,000 parts, in a
  table's header, an array of tables, a key or an inline table; dense lines of them up to past
  the file bound), read by ``targetlang --registry FILE parse llvm``.
* ``billion-laughs``: registries whose tags each name the tag before 2 - 5 times (as devices,
  as ``{"tag": ...}`` objects, as host and device), tags extending tags, and many tags naming
  one large tag; loaded by the CLI (every tag checked), or read unchecked in a child that parses
  the last tag's name, a host or a device naming it.
* ``deep-json-spec``: JSON specs nesting 60 - 3,000,000 levels (hosts, JSON-ish hosts, arrays,
  devices; unclosed, or with an error at the bottom), read from standard input by ``parse``,
  ``explain``, ``fmt``, ``parse --lines`` and ``parse --tvm-version 0.19``.

Every run has its address space capped at 1 GB and a minute to finish. A violation is an exit
other than the documented outcome (the error each bound documents, the first line of stderr
checked word for word where the trial knows it, or success within the bounds), a traceback, an
"internal error", a timeout, or a peak resident size over 400 MB. Before the bounds: 20,000
dotted parts took 1.6 GB, 40,000 a MemoryError at 4 GB; 40 levels of tags naming tags twice ran
past a minute at 1.3 GB; a spec 2,000,000 hosts deep took two minutes and 3.8 GB.
"""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

from . import Done, Outcome, _cli, _env, _rng, _script, _trial_dir, _workspace

__all__ = ["ATTACKS", "SUITE_TRIALS", "billion_laughs", "deep_json_spec", "toml_dotted_keys"]

CAP = 1 << 30  # the address space of every run
PEAK = 400 * 1024 * 1024  # the resident size no run may pass
TIMEOUT = 60.0
_BROKEN = ("Traceback", "internal error", "MemoryError", "RecursionError")

# The documented bounds (docs/reliability.md, "Limits"), written out: the attacks check the code
# against them rather than read them from it.
TOML_BYTES = 512 * 1024
KEY_PARTS = 64
TAG_TARGETS = 1_000
CHECKED_TAG_TARGETS = 50_000
TAG_DEPTH = 32
TARGET_DEPTH = 32
JSON_DEPTH = 100


# The run is forked by a small launcher, not by this process: a process forked from a large one
# starts with the large one's resident size as its peak, and Linux keeps the larger across exec,
# so a run forked from a test process that had read big files was "over 400 MB" before it began.
# argv: the cap, the timeout, the command; stdout: the exit status, whether it hung, the peak (KB).
_LAUNCHER = """\
import json, os, resource, subprocess, sys, time
cap, timeout = int(sys.argv[1]), float(sys.argv[2])

def capped():
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

started = time.monotonic()
process = subprocess.Popen(sys.argv[3:], stdout=subprocess.DEVNULL, preexec_fn=capped)
hung = False
while True:
    pid, status, usage = os.wait4(process.pid, os.WNOHANG)
    if pid:
        break
    if time.monotonic() - started > timeout:
        process.kill()
        pid, status, usage = os.wait4(process.pid, 0)
        hung = True
        break
    time.sleep(0.01)
print(json.dumps([os.waitstatus_to_exitcode(status), hung, usage.ru_maxrss]))
"""


def _measured(command: list[str], stdin: bytes | None = None) -> tuple[Done, int]:
    """Run ``command`` capped at CAP; what it did, and its peak resident size in bytes (from
    its own rusage, taken by the launcher that reaped it)."""
    started = time.monotonic()
    with tempfile.TemporaryFile() as given, tempfile.TemporaryFile() as err:
        if stdin is not None:
            given.write(stdin)
            given.seek(0)
        launcher = subprocess.run(
            [sys.executable, "-c", _LAUNCHER, str(CAP), str(TIMEOUT), *command],
            stdin=given if stdin is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=err,
            env=_env(),
            timeout=TIMEOUT + 60,
            check=True,
        )
        status, hung, peak_kb = json.loads(launcher.stdout)
        err.seek(0)
        text = err.read().decode("utf-8", "replace")
    return Done(status, text, time.monotonic() - started, hung), peak_kb * 1024


def _broken(outcome: Outcome, trial: int, where: str, done: Done, peak: int) -> bool:
    """Report what no run may do, whatever it reads; True when it did one of them."""
    if done.hung:
        outcome.violate(trial, f"{where}: still running after {TIMEOUT:.0f} s (peak {peak >> 20} MB)")
        return True
    if peak > PEAK:
        outcome.violate(trial, f"{where}: peak resident size {peak >> 20} MB, over {PEAK >> 20} MB")
        return True
    if any(word in done.err for word in _BROKEN) or done.status not in (0, 1):
        outcome.violate(trial, f"{where}: exit {done.status}: {done.err[-300:]!r}")
        return True
    return False


def _first_line(done: Done) -> str:
    lines = done.err.splitlines()
    return lines[0] if lines else ""


def _log_uniform(rng: random.Random, low: int, high: int) -> int:
    return int(math.exp(rng.uniform(math.log(low), math.log(high + 1))))


# ------------------------------------------------------------------------------- TOML dotted keys


def _dotted(parts: int, quoted: bool = False) -> str:
    return " . ".join(['"a"'] * parts) if quoted else ".".join(["a"] * parts)


def _toml(rng: random.Random, trial: int) -> tuple[str, str, int]:
    """A TOML text, how it is made, and the parts of its longest key path (a table's header and
    the key under it, or an inline table's key alone; of dense keys, the first path too long)."""
    if trial < 2:  # the reported attacks: one key of 20,000 and 40,000 parts
        parts = 20_000 * (trial + 1)
        return 'base = "0.22"\n' + _dotted(parts) + " = 1\n", f"one key of {parts:,} parts", parts
    shape = rng.choice(["key", "header", "array of tables", "inline table", "header and key", "quoted", "dense"])
    if shape == "dense":
        # line after line of keys under headers, the path of each drawn near the bound (now and
        # then past it), up to a size drawn up to a little past the file's bound; the path
        # told is the first one past the bound, else the longest
        size = rng.randint(10_000, TOML_BYTES + TOML_BYTES // 8)
        lines: list[str] = []
        told, total, i = 0, 0, 0
        while total < size:
            header = rng.randint(1, KEY_PARTS // 2)
            key = rng.randint(1, KEY_PARTS + 2 - header) if rng.random() < 0.02 else rng.randint(1, KEY_PARTS - header)
            block = [f"[h{i}" + "".join(".a" for _ in range(header - 1)) + "]"]
            block += [f"k{j}" + "".join(".a" for _ in range(key - 1)) + " = 1" for j in range(20)]
            if told <= KEY_PARTS:
                told = max(told, header + key)
            lines += block
            total += sum(len(line) + 1 for line in block)
            i += 1
        return "\n".join(lines) + "\n", f"dense keys, {total:,} bytes", told
    parts = _log_uniform(rng, 2, 200_000)
    if shape == "key":
        return 'base = "0.22"\n' + _dotted(parts) + " = 1\n", f"a key of {parts:,} parts", parts
    if shape == "header":
        return f"[{_dotted(parts)}]\nx = 1\n", f"a header of {parts:,} parts", parts
    if shape == "array of tables":
        return f"[[{_dotted(parts)}]]\nx = 1\n", f"an array of tables of {parts:,} parts", parts
    if shape == "inline table":
        return f"[tags.t]\nx = {{{_dotted(parts)} = 1}}\n", f"an inline key of {parts:,} parts", parts
    if shape == "quoted":
        return f"{_dotted(parts, quoted=True)} = 1\n", f"a quoted key of {parts:,} parts", parts
    header = rng.randint(1, min(parts - 1, KEY_PARTS))
    text = f"[{_dotted(header)}]\n{_dotted(parts - header)} = 1\n"
    return text, f"a header of {header} parts and a key of {parts - header:,}", parts


def toml_dotted_keys(trials: int, seed: int = 0) -> Outcome:
    """TOML registry files of dotted keys (the first two trials: the reported 20,000 and 40,000
    parts), read by ``targetlang --registry FILE parse llvm``: a file over 512 KiB is "too
    large", a key path over 64 parts "too deep", each a RegistryError naming the file and, for a
    key, its line and parts; anything else is read by tomllib (the registry then says what is
    wrong with its fields, or nothing)."""
    outcome = Outcome("toml-dotted-keys", "TOML registry files of dotted keys up to 200,000 parts")
    rng = _rng(seed, "toml-dotted-keys")
    outcome.measured.update(peak_mb=0, seconds=0.0)
    with _workspace("toml") as root:
        for trial in range(trials):
            outcome.trials += 1
            text, made, deepest = _toml(rng, trial)
            path = _trial_dir(root, trial) / "r.toml"
            path.write_text(text)
            size = len(text.encode())
            where = f"{made} ({size:,} bytes)"
            done, peak = _measured(_cli("--registry", str(path), "parse", "llvm"))
            outcome.measured["peak_mb"] = max(outcome.measured["peak_mb"], peak >> 20)
            outcome.measured["seconds"] = max(outcome.measured["seconds"], round(done.seconds, 1))
            if _broken(outcome, trial, where, done, peak):
                continue
            first = _first_line(done)
            if size > TOML_BYTES:
                want = f"error: {path}: the TOML is more than {TOML_BYTES:,} bytes, too large"
                kind = "too large"
            elif deepest > KEY_PARTS:
                want, kind = f"error: {path}: line ", "too deep"
            else:
                want, kind = "", "read by tomllib"
            if kind == "read by tomllib":
                ok = done.status == 0 or (first.startswith(f"error: {path}: ") and "too deep" not in first)
            else:
                ok = done.status == 1 and first.startswith(want)
            if kind == "too deep":
                ok = ok and f" of {deepest:,} parts" in first and "is too deep" in first
            if not ok:
                outcome.violate(trial, f"{where}: want {kind}, got exit {done.status}: {first[:300]!r}")
                continue
            outcome.count(kind)
    return outcome


# ------------------------------------------------------------------------------- billion laughs


def _laughs(rng: random.Random, trial: int) -> tuple[dict[str, object], str, list[int], list[int], str]:
    """A registry's tags, how they are made, the targets each tag stands for and how deep it
    names tags (two lists in the tags' order), and the last tag's name."""
    if trial == 0:  # the reported attack: 40 levels, each naming the one before twice
        form, levels, fan = "devices", 40, 2
    else:
        form = rng.choice(["devices", "tag objects", "host and device", "JSON texts", "extending", "wide"])
        levels, fan = rng.randint(1, 60), rng.randint(2, 5)
    tags: dict[str, object] = {"t0": {"kind": "llvm"}}
    counts, depths = [1], [0]
    if form == "wide":
        # 'big' stands for 1 + width targets; then many tags each naming it once
        width = rng.randint(100, TAG_TARGETS - 2)
        many = rng.randint(10, 120)
        tags["big"] = {"kind": "composite", "devices": ["t0"] * width}
        counts.append(1 + width)
        depths.append(1)
        for i in range(many):
            tags[f"w{i}"] = {"kind": "composite", "devices": ["big"]}
            counts.append(2 + width)
            depths.append(2)
        return tags, f"{many} tags naming one of {1 + width} targets", counts, depths, f"w{many - 1}"
    for level in range(1, levels + 1):
        prev = f"t{level - 1}"
        if form == "devices":
            tags[f"t{level}"] = {"kind": "composite", "devices": [prev] * fan}
        elif form == "tag objects":
            tags[f"t{level}"] = {"kind": "composite", "devices": [{"tag": prev}] * fan}
        elif form == "JSON texts":
            tags[f"t{level}"] = {"kind": "composite", "devices": [json.dumps({"tag": prev})] * fan}
        elif form == "host and device":
            tags[f"t{level}"] = {"kind": "composite", "host": prev, "devices": [prev] * (fan - 1)}
        else:  # extending: each the one before with a CPU of its own, one target each
            tags[f"t{level}"] = {"tag": prev, "mcpu": f"c{level}"}
        counts.append(1 if form == "extending" else 1 + fan * counts[-1])
        depths.append(level)
    return tags, f"{levels} levels, {form}, each naming the one before {fan} times", counts, depths, f"t{levels}"


def _load_fails(counts: list[int], depths: list[int], extending: bool) -> int | None:
    """The index of the first tag that checking the registry refuses, or None."""
    total = 0
    for index, (count, depth) in enumerate(zip(counts, depths, strict=True)):
        if depth > (TAG_DEPTH if extending else TARGET_DEPTH):
            return index  # (a tag naming tags nests its targets as deep, but for an extension)
        if count > TAG_TARGETS:
            return index
        total += count
        if total > CHECKED_TAG_TARGETS:
            return index
    return None


# The child reading a registry without checking it, then one spec with it: "ok N" on stdout
# with the count of targets, or one error line on stderr and exit 1.
_UNCHECKED = """\
import json, sys, targetlang
registry = targetlang.Registry.from_dict(json.load(open(sys.argv[1])))
try:
    target = targetlang.parse(sys.argv[2], registry=registry)
    target.resolve()
except targetlang.TargetError as err:
    print(f"error: {type(err).__name__}: {err.message}", file=sys.stderr)
    raise SystemExit(1)
"""


def billion_laughs(trials: int, seed: int = 0) -> Outcome:
    """Registries of tags naming tags (the first trial: the reported 40 levels each naming the one
    before twice, 2.2 KB): loaded by ``targetlang --registry FILE parse llvm``, which checks every
    tag and must refuse the first one past a bound (1,000 targets a reading, 32 tags deep,
    50,000 targets checked in all) with a RegistryError naming it, or read in a child without
    the check, which parses the last tag's name, ``cuda -host=NAME``, ``{"kind": "cuda", "host":
    "NAME"}``, ``{"tag": "NAME"}`` or a composite naming it three times: a RegistryError or
    NestingTooDeepError past the bounds, the target within them."""
    outcome = Outcome("billion-laughs", "tags naming tags 2 - 5 times at each of up to 60 levels")
    rng = _rng(seed, "billion-laughs")
    outcome.measured.update(peak_mb=0, seconds=0.0)
    with _workspace("laughs") as root:
        for trial in range(trials):
            outcome.trials += 1
            tags, made, counts, depths, last = _laughs(rng, trial)
            extending = "extending" in made
            path = _trial_dir(root, trial) / "r.json"
            path.write_text(json.dumps({"tags": tags}))
            if trial == 0 or rng.random() < 0.5:
                where = f"{made}: loaded"
                done, peak = _measured(_cli("--registry", str(path), "parse", "llvm"))
                failing = _load_fails(counts, depths, extending)
                names = list(tags)
            else:
                spec, times = rng.choice(
                    [
                        ("NAME", 1),
                        ("cuda -host=NAME", 1),
                        ('{"kind": "cuda", "host": "NAME"}', 1),
                        ('{"tag": "NAME"}', 1),
                        ("composite -devices=NAME,NAME,NAME", 3),
                    ]
                )
                spec = spec.replace("NAME", last)
                where = f"{made}: {spec[:60]!r} read unchecked"
                done, peak = _measured(_script(_UNCHECKED, str(path), spec))
                nested = 0 if spec == last or spec.startswith('{"tag"') else 1
                depth = depths[-1]
                too_deep = (extending and depth > TAG_DEPTH) or (not extending and depth + nested > TARGET_DEPTH)
                failing = 0 if too_deep or times * counts[-1] > TAG_TARGETS else None
                names = []
            outcome.measured["peak_mb"] = max(outcome.measured["peak_mb"], peak >> 20)
            outcome.measured["seconds"] = max(outcome.measured["seconds"], round(done.seconds, 1))
            if _broken(outcome, trial, where, done, peak):
                continue
            first = _first_line(done)
            if failing is None:
                if done.status != 0:
                    outcome.violate(trial, f"{where}: within the bounds, yet exit {done.status}: {first[:300]!r}")
                    continue
                outcome.count("within the bounds: read")
                continue
            if names:  # the CLI: the file, then the tag refused
                want = f"error: {path}: in tag '{names[failing]}': "
                ok = first.startswith(want)
            else:
                want = "error: RegistryError: in tag '" + "' or NestingTooDeepError"
                ok = first.startswith(("error: RegistryError: in tag '", "error: NestingTooDeepError: "))
            if done.status != 1 or not ok:
                outcome.violate(trial, f"{where}: want {want!r}..., got exit {done.status}: {first[:300]!r}")
                continue
            if "tags name tags more than" in first:
                outcome.count("refused: tags name tags too deep")
            elif "in all" in first:
                outcome.count("refused: the registry's tags expand too far in all")
            elif "expands to more than" in first:
                outcome.count("refused: a reading expands too far")
            else:
                outcome.count("refused: targets nest too deep")
    return outcome


# ------------------------------------------------------------------------------- deep JSON specs


def _deep_json(rng: random.Random, trial: int) -> tuple[str, str, int]:
    """A spec, how it is made, and how deeply its arrays and objects nest."""
    if trial == 0:
        depth, shape = 2_000_000, "hosts"  # the reported attack: 52 MB
    else:
        depth = _log_uniform(rng, 60, 3_000_000)
        shape = rng.choice(["hosts", "bare hosts", "arrays", "devices", "unclosed", "error at the bottom"])
    if shape == "hosts":
        return '{"kind": "llvm", "host": ' * depth + '{"kind": "llvm"}' + "}" * depth, f"{depth:,} hosts", depth + 1
    if shape == "bare hosts":
        return "{kind: llvm, host: " * depth + "{kind: llvm}" + "}" * depth, f"{depth:,} bare hosts", depth + 1
    if shape == "arrays":
        return '{"kind": "llvm", "mattr": ' + "[" * depth + "]" * depth + "}", f"{depth:,} arrays", depth + 1
    if shape == "devices":
        text = '{"kind": "composite", "devices": [' * depth + '{"kind": "llvm"}' + "]}" * depth
        return text, f"{depth:,} devices in devices", 2 * depth + 1
    if shape == "unclosed":
        return '{"kind": "llvm", "host": ' * depth, f"{depth:,} hosts, never closed", depth
    text = '{"kind": "llvm", "host": ' * depth + "!" + "}" * depth
    return text, f"{depth:,} hosts, then an error", depth


_COMMANDS = [
    ("parse", "-"),
    ("explain", "-"),
    ("fmt", "-"),
    ("parse", "--lines", "-"),
    ("parse", "--tvm-version", "0.19", "-"),
]


def deep_json_spec(trials: int, seed: int = 0) -> Outcome:
    """JSON specs nesting 60 - 3,000,000 levels (the first trial: the reported 2,000,000 hosts,
    52 MB), read from standard input: past 100 levels of arrays and objects the first line of
    stderr is "error: JSON nests more than 100 levels deep" (``parse --lines``: "<stdin>:1: "
    before "error"), exit 1; within them any target error, or the target."""
    outcome = Outcome("deep-json-spec", "JSON specs nesting up to 3,000,000 levels, from stdin")
    rng = _rng(seed, "deep-json-spec")
    outcome.measured.update(peak_mb=0, seconds=0.0)
    for trial in range(trials):
        outcome.trials += 1
        text, made, levels = _deep_json(rng, trial)
        command = _COMMANDS[0] if trial == 0 else rng.choice(_COMMANDS)
        where = f"{made} ({len(text):,} bytes) to {' '.join(command)}"
        done, peak = _measured(_cli(*command), text.encode())
        outcome.measured["peak_mb"] = max(outcome.measured["peak_mb"], peak >> 20)
        outcome.measured["seconds"] = max(outcome.measured["seconds"], round(done.seconds, 1))
        if _broken(outcome, trial, where, done, peak):
            continue
        first = _first_line(done)
        prefix = "<stdin>:1: " if "--lines" in command else ""
        if levels > JSON_DEPTH:
            want = f"{prefix}error: JSON nests more than {JSON_DEPTH} levels deep"
            if done.status != 1 or first != want:
                outcome.violate(trial, f"{where}: want {want!r}, got exit {done.status}: {first[:300]!r}")
                continue
            outcome.count("past 100 levels: the JSON nesting error")
        elif done.status == 0 or first.startswith(f"{prefix}error: "):
            outcome.count("within 100 levels: a target or its error")
        else:
            outcome.violate(trial, f"{where}: exit {done.status}: {first[:300]!r}")
    return outcome


ATTACKS: dict[str, Callable[[int, int], Outcome]] = {
    "toml-dotted-keys": toml_dotted_keys,
    "billion-laughs": billion_laughs,
    "deep-json-spec": deep_json_spec,
}
# The reported attacks come first: three trials each run them (a second or two each).
SUITE_TRIALS: dict[str, int] = {"toml-dotted-keys": 3, "billion-laughs": 3, "deep-json-spec": 3}
