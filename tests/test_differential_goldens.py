"""targetlang against real TVM on the goldens of the differential harness (tests/differential).

``python -m tests.differential run --area AREA`` compares targetlang with a real TVM on the corpus,
mutations of it, grammar-generated and structure-aware inputs, and writes a deterministic sample
of what TVM did as tests/data/oracle/differential-AREA.jsonl, in the format of the other oracle
goldens (tests/oracle/oracle_common.py): the input, then TVM's outcome. This module replays those
lines without TVM: targetlang must agree with each (same acceptance, the Python class of TVM's
error, the same ``export()`` and ``str()`` once resolved in the oracle's environment), except

* where a documented decision explains the difference: the table ``DECISIONS`` of
  tests/differential/compare.py, each with its reason (v0.21's FFI cutting strings at NUL, the
  JSON-ish superset targetlang reads, ...);
* on the lines the harness marked ``recorded_class``: targetlang disagreed with TVM there when
  the goldens were recorded (the class names how), so they are expected failures (``xfail``, not
  strict) until targetlang or its registries change; they are listed in the harness's summary
  under tests/differential/results/.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.differential import compare
from tests.differential.common import decode

from .conftest import read_jsonl

TARGET_ROWS = read_jsonl("oracle", "differential-target.jsonl")


def _id(row: dict[str, Any]) -> str:
    return (row.get("python") or repr(row.get("input")))[:80]


def test_goldens_are_there() -> None:
    # Fewer rows means a file was cut short, not that targetlang agrees.
    assert len(TARGET_ROWS) >= 1500
    assert {row["accepted"] for row in TARGET_ROWS} == {True, False}
    assert {row["origin"] for row in TARGET_ROWS} >= {"corpus", "mutation", "grammar", "structure"}


def check(spec: Any, tvm: compare.Outcome, ours: compare.Outcome, recorded: str | None) -> None:
    cls = compare.classify(tvm, ours)
    if cls == "agree":
        return
    decision = compare.decision_for(spec, tvm, ours)
    if decision is not None:
        return  # documented: compare.DECISION_REASONS[decision]
    if recorded is not None:
        pytest.xfail(f"disagreement recorded by the harness: {recorded}; now: {cls}")
    pytest.fail(f"{cls}\nTVM: {tvm}\ntargetlang: {ours}")


@pytest.mark.parametrize("row", TARGET_ROWS, ids=[_id(row) for row in TARGET_ROWS])
def test_target_v021(row: dict[str, Any]) -> None:
    spec = decode(row)
    check(spec, row, compare.target_outcome(spec), row.get("recorded_class"))


def test_decisions_have_reasons() -> None:
    assert all(len(d.reason) > 40 for d in compare.DECISIONS)
    assert len({d.name for d in compare.DECISIONS}) == len(compare.DECISIONS)
