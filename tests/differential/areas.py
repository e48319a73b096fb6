"""The areas of the harness: what each compares, against which TVM."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from . import compare, inputs
from .harness import Area, Case, Worker, finish, oracle_worker


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
