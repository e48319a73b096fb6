"""The areas of the harness: what each compares, against which TVM."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

from . import compare, inputs
from .common import encode
from .harness import Area, Case, Worker, finish, oracle_worker, tvm027_worker


class TargetArea(Area):
    """TVM v0.21's ``tvm.target.Target(spec)`` against ``targetlang.parse(spec,
    registry=builtin_registry("0.21"))`` resolved in the oracle's environment: accepted or
    rejected (with the Python class of the error), ``export()`` and ``str()``."""

    name = "target"
    tvm = "v0.21.0 (oracle run.sh --tvm 021)"

    def __init__(self, oracle: str) -> None:
        self.worker: Worker = oracle_worker(oracle, "021", "target")

    def inputs(self, seed: int, count: int) -> Iterator[tuple[str, Any]]:
        return inputs.target_inputs(seed, count)

    def step(self, origin: str, spec: Any) -> Case:
        self.worker.send(spec)
        ours = compare.target_outcome(spec)
        return finish(origin, spec, self.worker.receive(), ours)

    def close(self) -> None:
        self.worker.close()

    def restarts(self) -> int:
        return self.worker.restarts


class ReleaseArea(TargetArea):
    """The ``target`` area against TVM v0.19 (``run.sh --tvm 019``) and targetlang's v0.19
    registry: a release before v0.21's FFI, read per release (config types, JSON integers,
    errors re-raised as TVMError)."""

    name = "release"
    tvm = "v0.19.0 (oracle run.sh --tvm 019)"

    def __init__(self, oracle: str) -> None:
        self.worker = oracle_worker(oracle, "019", "target")

    def step(self, origin: str, spec: Any) -> Case:
        self.worker.send(spec)
        ours = compare.target_outcome(spec, "0.19")
        return finish(origin, spec, self.worker.receive(), ours, area="release")


class MigrateArea(Area):
    """``targetlang.migrate(spec)``'s verdict on its conversion must be apache-tvm 0.27's: what
    migrate accepts, 0.27's ``tvm.target.Target`` accepts, and what 0.27 rejects of the plain
    conversion (``validate=False``), migrate reports as ``rejected-by-0.27`` (the summary's
    ``verdicts``). Where both accept, 0.27's export must equal TVM v0.21's export of the
    original, less ``feature.*`` entries and the recorded schema changes (attributes removed
    since v0.21, added by 0.27). Inputs migrate refuses, that both reject, or that v0.21
    rejects, are counted as ``skipped``, by class."""

    name = "migrate"
    tvm = "v0.21.0 (oracle run.sh --tvm 021) and apache-tvm 0.27"

    def __init__(self, oracle: str, tvm027: str) -> None:
        self.v021: Worker = oracle_worker(oracle, "021", "target")
        self.v027: Worker = tvm027_worker(tvm027)
        self.verdicts: Counter[str] = Counter()

    def inputs(self, seed: int, count: int) -> Iterator[tuple[str, Any]]:
        return inputs.target_inputs(seed, count)

    def step(self, origin: str, spec: Any) -> Case:
        self.v021.send(spec)
        migrated = compare.migrate_outcome(spec)
        if "json" in migrated:
            self.v027.send(migrated["json"])
        v021 = self.v021.receive()
        v027 = self.v027.receive() if "json" in migrated else None
        v021_outcome = v021 if v021 is not None else {"crashed": True, "accepted": None}
        v027_outcome = v027 if v027 is not None or "json" not in migrated else {"crashed": True, "accepted": None}
        status, cls = compare.classify_migration(v021_outcome, migrated, v027_outcome)
        seen = compare.verdict(migrated, v027_outcome)
        if seen is not None:
            self.verdicts[seen] += 1
        if status == "disagree" and v021 is None:
            decision = compare.decision_for(spec, v021_outcome, {"accepted": True})
            if decision:
                status, cls = "decision", decision
        golden = None
        if v021 is not None and "json" in migrated and v027 is not None:
            golden = {**encode(spec), "v021": v021, "migrated": migrated["json"], "tvm027": v027, "origin": origin}
            if status == "disagree":
                golden["recorded_class"] = cls
        return Case(origin, spec, cls, status, golden)

    def close(self) -> None:
        self.v021.close()
        self.v027.close()

    def restarts(self) -> int:
        return self.v021.restarts + self.v027.restarts

    def extra(self) -> dict[str, Any]:
        agree = self.verdicts["both accept"] + self.verdicts["both reject"]
        return {
            "verdicts": {
                "compared": sum(self.verdicts.values()),
                "agree": agree,
                "disagree": sum(self.verdicts.values()) - agree,
                **dict(sorted(self.verdicts.items())),
            }
        }


FLAG_VALUES = ("", " ", "skylake", "a b", "+a,+b", "x,", "'q'", "a=b", "-x", "cortex-a72", "sm_80")
FLAG_ATTRS = ("llvm-mcpu", "llvm-mattr", "llvm-libs", "llvm-model", "llvm-mtriple", "cuda-arch", "c-mcpu")


def tvmc_outcome(spec: dict[str, Any]) -> compare.Outcome:
    """targetlang's tvmc: ``parse_tvmc(target, options=options_from_flags(flags))``, resolved."""
    from targetlang._tvmc import options_from_flags, parse_tvmc

    try:
        options = options_from_flags(spec["flags"])
    except Exception as err:
        return {"accepted": False, "internal": f"options_from_flags: {type(err).__name__}: {err}"[:300]}
    out = compare.resolved_outcome(lambda: parse_tvmc(spec["target"], options=options).target)
    out["options"] = compare.plain(options)
    return out


class TvmcArea(Area):
    """TVM v0.19's tvmc (``generate_target_args``, ``reconstruct_target_args``,
    ``target_from_cli``, as tests/oracle/record_tvmc_flags.py runs them) against
    ``targetlang._tvmc``: the options reconstructed from the flags, then accepted or rejected,
    ``export()`` and ``str()`` of the target built."""

    name = "tvmc"
    tvm = "v0.19.0 (oracle run.sh --tvm 019)"

    def __init__(self, oracle: str) -> None:
        self.worker: Worker = oracle_worker(oracle, "019", "tvmc")

    def inputs(self, seed: int, count: int) -> Iterator[tuple[str, Any]]:
        targets = inputs.tvmc_corpus() + [s for _, s in inputs.corpus() if isinstance(s, str) and "{" not in s][:300]
        generator = inputs.Generator(seed, list(targets))
        rng = generator.rng
        for n in range(count):
            if n < len(targets):
                yield "corpus", {"target": targets[n], "flags": []}
                continue
            target = generator.mutate_text(rng.choice(targets)) if rng.random() < 0.5 else rng.choice(targets)
            flags = [f"--target-{rng.choice(FLAG_ATTRS)}={rng.choice(FLAG_VALUES)}" for _ in range(rng.randint(0, 2))]
            yield ("mutation" if flags == [] else "flags"), {"target": target, "flags": flags}

    def step(self, origin: str, spec: Any) -> Case:
        self.worker.send(spec)
        ours = tvmc_outcome(spec)
        tvm = self.worker.receive()
        if tvm is not None and "options" in tvm and tvm["options"] != ours.get("options"):
            return Case(origin, spec, "options differ", "disagree", {**encode(spec), **tvm, "origin": origin})
        return finish(origin, spec, tvm, ours)

    def close(self) -> None:
        self.worker.close()

    def restarts(self) -> int:
        return self.worker.restarts
