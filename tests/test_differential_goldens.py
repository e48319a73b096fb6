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
* where both reject, the category of the error (compare.CATEGORIES: TVM's message read by the
  table, targetlang's class) must be the same, as the Python class must;
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


def check(spec: Any, tvm: compare.Outcome, ours: compare.Outcome, recorded: str | None, area: str = "target") -> None:
    cls = compare.classify(tvm, ours)
    if cls == "agree":
        return
    decision = compare.decision_for(spec, tvm, ours, area)
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


RELEASE_ROWS = read_jsonl("oracle", "differential-release.jsonl")


def test_release_goldens_are_there() -> None:
    assert len(RELEASE_ROWS) >= 1000
    assert {row["accepted"] for row in RELEASE_ROWS} == {True, False}
    assert {row["origin"] for row in RELEASE_ROWS} >= {"corpus", "mutation", "grammar", "structure"}


@pytest.mark.parametrize("row", RELEASE_ROWS, ids=[_id(row) for row in RELEASE_ROWS])
def test_release_v019(row: dict[str, Any]) -> None:
    # TVM v0.19's Target(spec) against targetlang's v0.19 registry
    spec = decode(row)
    check(spec, row, compare.target_outcome(spec, "0.19"), row.get("recorded_class"), "release")


CATEGORISED = [row for rows in (TARGET_ROWS, TVMC_ROWS, RELEASE_ROWS) for row in rows if "category" in row]


def test_every_rejection_recorded_has_a_category() -> None:
    assert len(CATEGORISED) >= 1000
    assert not [row["error"]["message"] for row in CATEGORISED if row["category"] in ("other", "opaque")]


@pytest.mark.parametrize(
    ("message", "category"),
    [
        ('Target kind "-llvm" is not defined. Target creation from string failed: -llvm', "kind"),
        ('ValueError: Error when parsing target["host"]: Target kind "-x" is not defined.', "kind"),
        ('Field "kind" is not found. Target creation from config dict failed: {}', "kind"),
        ("Cannot load config dict with python JSON loader. Target creation from string failed: {", "json"),
        ("Check failed: (!pos_quoted) is false: Mismatched quotes '' in string.", "syntax"),
        ("Attribute keys should start with '-', not an attribute key: b, during parsing target `c b`", "syntax"),
        ('ValueError: Error when parsing target: Empty attribute key or value in "=True".', "syntax"),
        (": Cannot recognize 'bogus'. Candidates are: max_num_threads, tag", "attribute"),
        ('The key "mtriple" appears more than once, during parsing target["mtriple"]', "duplicate"),
        ('Check failed: (support::StartsWith(archStr, "sm_")) is false: invalid CUDA arch: -arch=x', "kind-check"),
        ("invalid jit option x (can be `orcjit` or `mcjit`).", "kind-check"),
        (
            'ValueError: Error when parsing target["from_device"]: Expects type "runtime.BoxInt", but gets '
            '"runtime.BoxBool" for object: runtime.BoxBool(true).',
            "value",
        ),
        ('Parsing type "runtime.BoxBool" is not supported for the given object of type "runtime.BoxInt".', "value"),
        ('Cannot parse integer from string: four, during parsing target["num-cores"]', "value"),
        ("The last target needs to be a TVM target. Choices: c, llvm", "tvmc-list"),
        ("Passed --target-c-mcpu but did not specify c target", "tvmc-list"),
        ("something no row names", "other"),
    ],
)
def test_category_of_tvm_messages(message: str, category: str) -> None:
    assert compare.tvm_category({"type": "ValueError", "message": message}) == category


def test_category_of_a_v019_error_is_in_its_detail() -> None:
    error = {
        "type": "TVMError",
        "message": '. Target creation from config dict failed: {"bogus": runtime.BoxInt(1)}',
        "detail": "TVMError: ValueError[01:15:07] /project/tvm/src/target/target.cc:582: ValueError: "
        'Target kind "bad" is not defined. Target creation from string failed: bad',
    }
    assert compare.tvm_category(error) == "kind"
    assert compare.tvm_category({k: v for k, v in error.items() if k != "detail"}) == "opaque"
    assert compare.tvm_category({"type": "OverflowError", "message": "Python int too large"}) == "overflow"


@pytest.mark.parametrize(
    ("spec", "version", "category", "error"),
    [
        ("-llvm", "0.21", "kind", "UnknownKindError"),
        ("llvm -host=-x", "0.21", "kind", "UnknownKindError"),
        (" -keys=a'", "0.21", "syntax", "MismatchedQuoteError"),
        ('{"kind": "llvmx", "num-cores": 99999999999999999999}', "0.21", "json", "InvalidJSONError"),
        ({"kind": "cuda", "arch": "x", "bogus": 1}, "0.21", "kind-check", "CanonicalizationError"),
        ({"kind": "llvm", "bogus": 1, "tag": 1}, "0.21", "value", "ValueConversionError"),
        ({"kind": "llvm", "bogus": 1, "host": "bad"}, "0.21", "kind", "UnknownKindError"),
        ({"kind": "llvm", "fast-math": 0}, "0.19", "value", "ValueConversionError"),
        ({"kind": "llvm", "llvm-bogus": 2**64}, "0.21", "overflow", "IntegerOverflowError"),
        ({"kind": "llvm", "bogus": 1}, "0.21", "attribute", "UnknownAttributeError"),
        ({"kind": "llvm", "fast-math": 0}, "0.21", None, None),
    ],
)
def test_category_of_targetlang_errors(spec: Any, version: str, category: str | None, error: str | None) -> None:
    ours = compare.target_outcome(spec, version)
    if error is None:  # accepted: v0.21's FFI converts an int to a bool
        assert ours["accepted"] is True
        return
    assert ours["accepted"] is False
    assert (ours["error"]["type"], ours["error"]["category"]) == (error, category)


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
