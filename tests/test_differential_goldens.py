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
MIGRATE_ROWS = read_jsonl("oracle", "differential-migrate.jsonl")


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


def test_migrate_goldens_are_there() -> None:
    assert len(MIGRATE_ROWS) >= 300
    assert {row["v021"]["accepted"] for row in MIGRATE_ROWS} == {True, False}


@pytest.mark.parametrize("row", MIGRATE_ROWS, ids=[_id(row) for row in MIGRATE_ROWS])
def test_migrated_json_read_as_tvm_027_did(row: dict[str, Any]) -> None:
    # TVM 0.27 built the JSON migrate gave when recorded: targetlang, reading that JSON with its
    # 0.27 registry, must build what 0.27 built (less feature.* entries; the 0.27 wheel's LLVM
    # names the host x86_64-conda-linux-gnu, compare.HOST_TRIPLES).
    tvm = row["tvm027"]
    ours = compare.target_outcome(row["migrated"], "0.27")
    assert ours["accepted"] == tvm["accepted"], (tvm, ours)
    if tvm["accepted"]:
        none: frozenset[str] = frozenset()
        fields = compare.differing_fields(
            compare.comparable(tvm["export"], none), compare.comparable(ours["export"], none)
        )
        assert not fields, (fields, tvm["export"], ours["export"])


@pytest.mark.parametrize("row", MIGRATE_ROWS, ids=[_id(row) for row in MIGRATE_ROWS])
def test_migration_of_what_v021_read(row: dict[str, Any]) -> None:
    # What targetlang.migrate gives now: if it is still the JSON recorded, 0.27 accepted it (above)
    # and its export agreed with v0.21's export of the original, unless the harness saw otherwise.
    spec = decode(row)
    migrated = compare.migrate_outcome(spec)
    if migrated.get("json") != row["migrated"]:
        pytest.fail("migrate gives another JSON than the one recorded: re-record with the harness (tests/differential)")
    status, cls = compare.classify_migration(row["v021"], migrated, row["tvm027"])
    if status == "disagree":
        if "recorded_class" in row:
            pytest.xfail(f"disagreement recorded by the harness: {row['recorded_class']}; now: {cls}")
        pytest.fail(cls)


TVMC_ROWS = read_jsonl("oracle", "differential-tvmc.jsonl")


@pytest.mark.parametrize("row", TVMC_ROWS, ids=[_id(row) for row in TVMC_ROWS])
def test_tvmc_v019(row: dict[str, Any]) -> None:
    from tests.differential.areas import tvmc_outcome

    spec = decode(row)
    ours = tvmc_outcome(spec)
    if "options" in row and row["options"] != ours.get("options"):
        if "recorded_class" in row:
            pytest.xfail(f"disagreement recorded by the harness: {row['recorded_class']}")
        pytest.fail(f"options: TVM {row['options']}, targetlang {ours.get('options')}")
    check(spec, row, ours, row.get("recorded_class"))


def test_decisions_have_reasons() -> None:
    assert all(len(d.reason) > 40 for d in compare.DECISIONS)
    assert len({d.name for d in compare.DECISIONS}) == len(compare.DECISIONS)


LOGS_ROWS = read_jsonl("oracle", "differential-logs.jsonl")


def test_logs_goldens_are_there() -> None:
    assert len(LOGS_ROWS) >= 60  # the 500,000-input run kept 66: the corpus, the first generated, 3 per class
    assert {row["origin"] for row in LOGS_ROWS} >= {"real-file", "real-line", "mutation"}
    assert {row["loader"] for row in LOGS_ROWS} == {"autotvm", "auto_scheduler"}


@pytest.mark.parametrize("row", LOGS_ROWS, ids=[row["case"][:80] for row in LOGS_ROWS])
def test_logs_v019(row: dict[str, Any]) -> None:
    # TVM v0.19's load_from_file, ApplyHistoryBest (indexes, dispatch queries) or load_records
    # on the log when recorded (tests/differential/logs.py): targetlang's model must say the same.
    from tests.differential import logs

    ours = logs.targetlang_outcome(row)
    cls = logs.classify(row["loader"], row["tvm"], ours)
    if cls == "agree" or compare.decision_for(row, row["tvm"], ours, "logs") is not None:
        return
    if "recorded_class" in row:
        pytest.xfail(f"disagreement recorded by the harness: {row['recorded_class']}; now: {cls}")
    pytest.fail(f"{cls}\nTVM: {row['tvm']}\ntargetlang: {ours}")
