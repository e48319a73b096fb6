"""Attacks on the caches shared by threads: ``targetlang.parse`` and ``targetlang.clear_caches``
called by many threads at once, which ``clear_caches`` says is safe from any thread at any time.

Each trial runs two fresh interpreters: a cold start (threads let go together right after
``import targetlang``, half of them clearing the caches over and over while the other half make
their first parses, which import the parser and the caches) and a steady run (threads parsing
and clearing for a bounded time). Nothing may raise, every reading must be right, and the
process must end by itself with status 0 (a crash or a hang is a violation too).
"""

from __future__ import annotations

import json
from collections.abc import Callable

from . import Outcome, _rng, _run, _script

__all__ = ["ATTACKS", "SUITE_TRIALS", "clear_caches_threads"]

# The child: argv is the mode ("cold" or "steady"), the count of threads, the seconds a steady
# run lasts, the switch interval and the seed its texts and choices are drawn from. It writes
# one JSON line to stderr: the calls made, the clears among them, what was raised and the
# readings that were wrong.
_CHILD = """\
import json, random, sys, threading, time
mode, count, seconds, seed = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[5]
sys.setswitchinterval(float(sys.argv[4]))
import targetlang

rng = random.Random(seed)
texts = []
for i in range(rng.randint(50, 400)):
    mcpu, items = f"c{i}x{rng.randrange(10**6)}", rng.randint(1, 60)
    # short ones go to the parse's store of short texts, long ones (a long -mtriple) to its LruCache
    tail = " -mtriple=" + "x" * rng.randint(150, 400) if rng.random() < 0.3 else ""
    texts.append((f"llvm -mcpu={mcpu} -mattr=" + ",".join(["+a"] * items) + tail, mcpu, items))
barrier = threading.Barrier(count)
parsers_left = [count - count // 2]
calls, clears, raised, wrong = [0], [0], [], []
stop = [0.0]

def read(text, way, twins):
    if way == 0:
        return targetlang.parse(text)
    if way == 1:
        return targetlang.parse(text, max_depth=10)
    if way == 2:
        return targetlang.parse(text, era="0.8")
    return targetlang.parse(text, registry=twins[way % 2])

def parse_some(mine, draw, twins):
    for text, mcpu, items in mine:
        way = draw.randrange(5)
        calls[0] += 1
        try:
            target = read(text, way, twins)
        except Exception as err:  # counted, and the thread goes on
            raised.append(repr(err))
            continue
        if str(target) != text or target["mcpu"] != mcpu or len(target["mattr"]) != items:
            wrong.append([text[:80], way, str(target)[:80]])

def work(index):
    clearing = index < count // 2
    try:
        barrier.wait()
        if clearing:
            while parsers_left[0] > 0 or time.monotonic() < stop[0]:
                calls[0] += 1
                clears[0] += 1
                try:
                    targetlang.clear_caches()
                except Exception as err:
                    raised.append(repr(err))
            return
        # (registries equal but not the same object: the caches' keys holding them compare
        # by Registry.__eq__, Python code, in the middle of the OrderedDict's operations)
        base = targetlang.builtin_registry()
        twins = [base.with_tag("twin", {"kind": "llvm", "mcpu": "twin"}) for _ in range(2)]
        mine = texts[index::count] or texts[:1]
        draw = random.Random(f"{seed}:{index}")
        parse_some(mine[:3], draw, twins)
        if mode == "steady":
            while time.monotonic() < stop[0]:
                parse_some(mine, draw, twins)
    except BaseException as err:
        raised.append(repr(err))
    finally:
        if not clearing:
            parsers_left[0] -= 1

if mode == "steady":
    stop[0] = time.monotonic() + seconds
threads = [threading.Thread(target=work, args=(index,)) for index in range(count)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
kinds = sorted({text[:120] for text in raised})
report = {"calls": calls[0], "clears": clears[0], "raised": len(raised), "kinds": kinds[:5], "wrong": wrong[:5]}
print(json.dumps(report), file=sys.stderr)
"""

_STEADY_SECONDS = 1.0
_INTERVALS = (1e-6, 1e-5, 1e-4, 0.005)  # 0.005 s is Python's default


def _child(mode: str, threads: int, interval: float, seed: str) -> tuple[dict[str, object] | None, str]:
    """What a child of ``mode`` reported, or None and why it reported nothing (a crash, a hang)."""
    done = _run(_script(_CHILD, mode, str(threads), str(_STEADY_SECONDS), str(interval), seed), timeout=60.0)
    lines = done.err.strip().splitlines()
    if done.hung:
        return None, f"{mode}: hung (killed after {done.seconds:.0f} s): {done.err[-300:]!r}"
    if done.status != 0 or not lines:
        return None, f"{mode}: exit {done.status}: {_crash(done.err)!r}"
    try:
        report: dict[str, object] = json.loads(lines[-1])
    except json.JSONDecodeError:
        return None, f"{mode}: no report: {done.err[-600:]!r}"
    return report, ""


def _crash(err: str) -> str:
    """Where a child crashed, from what faulthandler wrote (its error and the crashing thread's
    innermost frames), or the end of its stderr."""
    lines = err.splitlines()
    fatal = [line for line in lines if line.startswith("Fatal Python error")]
    current = next((i for i, line in enumerate(lines) if line.startswith("Current thread")), None)
    if not fatal or current is None:
        return err[-600:]
    return "; ".join([*fatal[:1], *(line.strip() for line in lines[current + 1 : current + 4])])


def clear_caches_threads(trials: int, seed: int = 0) -> Outcome:
    """2 - 8 threads (half of them clearing the caches, half parsing texts drawn from the seed:
    short and long, with the default registry, another depth, in an era, with registries equal
    but not the same) at a switch interval of 1 µs - 5 ms: in a fresh interpreter right after
    ``import targetlang``, and for a second of steady parsing. Before: AttributeError
    (``partially initialized module 'targetlang._cache'``) at the cold start, RuntimeError
    (``OrderedDict mutated during iteration``) from ``clear_caches``, and crashes (a
    segmentation fault in a hit's ``move_to_end``)."""
    outcome = Outcome("clear-caches-threads", "threads parse and clear the caches at once, cold and steady")
    rng = _rng(seed, "clear-caches-threads")
    outcome.measured.update(steady_seconds=_STEADY_SECONDS, calls=0, clears=0)
    for trial in range(trials):
        outcome.trials += 1
        threads, interval = rng.randint(2, 8), rng.choice(_INTERVALS)
        child_seed = f"{seed}:{trial}:{rng.random()}"
        where = f"{threads} threads, switch interval {interval:g} s"
        ok = True
        for mode in ("cold", "steady"):
            report, why = _child(mode, threads, interval, child_seed)
            if report is None:
                outcome.violate(trial, f"{where}: {why}")
                ok = False
                continue
            if report["raised"] or report["wrong"]:
                raised = f"raised {report['raised']} times ({report['kinds']})"
                outcome.violate(trial, f"{where}: {mode}: {raised}, wrong readings {report['wrong']}")
                ok = False
            outcome.measured["calls"] += report["calls"]
            outcome.measured["clears"] += report["clears"]
        if ok:
            outcome.count("cold start and steady run: nothing raised, every reading right")
    return outcome


ATTACKS: dict[str, Callable[[int, int], Outcome]] = {"clear-caches-threads": clear_caches_threads}
SUITE_TRIALS: dict[str, int] = {"clear-caches-threads": 3}
