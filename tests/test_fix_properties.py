"""The table of Target properties TVM removed, and their TVM 0.27 replacements.

tests/data/fix-properties-tvm-v0.27.jsonl was recorded by tests/oracle/record_fix_properties.py:
for each legacy target string, every removed property's value on real TVM v0.21.0 (whose
properties are v0.23's), and every replacement of the table evaluated on the apache-tvm
0.27.0.post1 target built from targetlang's ``to_json()`` of the string, with that target's kind
and attributes.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from targetlang.fix._properties import REMOVED_PROPERTIES, RemovedProperty

GOLDENS = Path(__file__).parent / "data" / "fix-properties-tvm-v0.27.jsonl"
ROWS: list[dict[str, Any]] = [json.loads(line) for line in GOLDENS.read_text(encoding="utf-8").splitlines() if line]

# Read from TVM v0.23.0's python/tvm/target/target.py and commit 283fd19683, which deleted them.
# `features` stayed (TVM 0.27 has it), and so did kind, host, keys, tag and attrs.
REMOVED_IN_283FD19683 = (
    "arch",
    "max_num_threads",
    "max_block_size_x",
    "max_block_size_y",
    "thread_warp_size",
    "max_shared_memory_per_block",
    "max_function_args",
    "vtcm_capacity",
    "device_name",
    "model",
    "mcpu",
    "mattr",
    "supports_integer_dot_product",
    "libs",
    "supports_cooperative_matrix",
    "l2_cache_size_bytes",
)


def _fake(kind: str, **attrs: Any) -> SimpleNamespace:
    """Enough of a TVM 0.27 Target for the templates: ``attrs`` (a mapping) and ``kind.name``."""
    return SimpleNamespace(kind=SimpleNamespace(name=kind), attrs=attrs)


def _evaluate(prop: RemovedProperty, target: Any) -> Any:
    return eval(prop.replacement.format(t="target"), {}, {"target": target})


def _outcome(prop: RemovedProperty, target: Any) -> dict[str, Any]:
    try:
        return {"value": _evaluate(prop, target)}
    except Exception as err:
        return {"error": type(err).__name__}


def test_lists_exactly_the_removed_properties() -> None:
    assert tuple(REMOVED_PROPERTIES) == REMOVED_IN_283FD19683
    assert all(prop.name == name for name, prop in REMOVED_PROPERTIES.items())


@pytest.mark.parametrize("prop", REMOVED_PROPERTIES.values(), ids=lambda prop: prop.name)
def test_template_is_one_expression_over_the_receiver(prop: RemovedProperty) -> None:
    assert "{t}" in prop.replacement
    assert prop.note
    # An atom: it stands in for `x.prop` inside any expression, e.g. after `not` or before `.split`.
    compile(f"not {prop.replacement.format(t='x')}.real", "<template>", "eval")


@pytest.mark.parametrize(
    ("name", "target", "expected"),
    [
        ("arch", _fake("cuda", arch="sm_80"), "sm_80"),
        ("arch", _fake("llvm"), ""),
        ("max_num_threads", _fake("cuda", max_num_threads=1024), 1024),
        ("vtcm_capacity", _fake("hexagon", **{"vtcm-capacity": 4194304}), 4194304),
        ("vtcm_capacity", _fake("hexagon"), 0),
        ("device_name", _fake("opencl", device="mali"), "mali"),
        ("model", _fake("llvm"), "unknown"),
        ("mattr", _fake("llvm", mattr=("+neon",)), ["+neon"]),
        ("libs", _fake("llvm"), []),
        ("supports_integer_dot_product", _fake("cuda", arch="sm_61"), True),
        ("supports_integer_dot_product", _fake("cuda", arch="sm_52"), False),
        ("supports_integer_dot_product", _fake("vulkan", supports_integer_dot_product=True), True),
        ("supports_integer_dot_product", _fake("vulkan"), False),
        ("supports_cooperative_matrix", _fake("vulkan", supports_cooperative_matrix=True), True),
        ("l2_cache_size_bytes", _fake("cuda", arch="sm_80"), 0),
    ],
)
def test_replacement_value(name: str, target: Any, expected: Any) -> None:
    assert _evaluate(REMOVED_PROPERTIES[name], target) == expected


def test_no_default_raises_like_v023() -> None:
    with pytest.raises(KeyError):
        _evaluate(REMOVED_PROPERTIES["max_num_threads"], _fake("llvm"))
    with pytest.raises(ValueError):
        _evaluate(REMOVED_PROPERTIES["supports_integer_dot_product"], _fake("cuda", arch="sm_90a"))


# The attribute each property read, where the names differ.
_ATTR = {"vtcm_capacity": "vtcm-capacity", "device_name": "device"}


def test_goldens_cover_every_property() -> None:
    assert len(ROWS) >= 15
    for row in ROWS:
        assert set(row["v0.21"]) == set(REMOVED_IN_283FD19683)
        assert set(row["v0.27"]) == set(REMOVED_IN_283FD19683)
    # each property gives a value somewhere, not only a default or an error
    for name in REMOVED_IN_283FD19683:
        assert any(row["attrs"].get(_ATTR.get(name, name)) is not None for row in ROWS), name


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row["target"])
def test_tvm_027_replacement_gives_v021_property(row: dict[str, Any]) -> None:
    for name in REMOVED_IN_283FD19683:
        old, new = row["v0.21"][name], row["v0.27"][name]
        if "error" in old:
            # v0.21's FFI map raised IndexError or KeyError for a missing key: both LookupErrors.
            lookup = {"KeyError", "IndexError"}
            assert new == old or {old["error"], new["error"]} <= lookup, name
        else:
            assert new == old, name


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row["target"])
def test_recorded_with_the_current_table(row: dict[str, Any]) -> None:
    # A changed template needs the goldens recorded again (see the recording script).
    assert row["replacements"] == {name: prop.replacement for name, prop in REMOVED_PROPERTIES.items()}
    target = _fake(row["kind"], **row["attrs"])
    assert {name: _outcome(prop, target) for name, prop in REMOVED_PROPERTIES.items()} == row["v0.27"]


# tests/data/fix-property-reads-tvm-v0.25-v0.27.jsonl was recorded by
# tests/oracle/record_property_reads.py on apache-tvm 0.25.0.post1, 0.26.0 and 0.27.0.post1: what
# `target.<name>` reads there (Target.__getattr__ again), beside what v0.23's property gave.
READS_FILE = Path(__file__).parent / "data" / "fix-property-reads-tvm-v0.25-v0.27.jsonl"
READS: list[dict[str, Any]] = [json.loads(line) for line in READS_FILE.read_text(encoding="utf-8").splitlines()]


def test_the_reads_cover_every_property_on_each_modern_release() -> None:
    assert {row["release"][:4] for row in READS} == {"0.25", "0.26", "0.27"}
    assert {row["name"] for row in READS} == set(REMOVED_PROPERTIES)


@pytest.mark.parametrize("name", list(REMOVED_PROPERTIES))
def test_what_differs_on_a_modern_release_is_what_the_table_says(name: str) -> None:
    prop = REMOVED_PROPERTIES[name]
    rows = [row for row in READS if row["name"] == name]
    differs = [row for row in rows if row["read"] != row["v0.23"]]
    if prop.modern is None:  # not fixed: a value where v0.23 gave one, an error where it raised
        for row in rows:
            assert row["read"]["ok"] == row["v0.23"]["ok"], row
        assert differs == [row for row in rows if not row["read"]["ok"]]
    elif prop.modern_always:  # fixed wherever it is read: it differs on a target that has the value too
        assert any(row["v0.23"]["ok"] and row["read"] != row["v0.23"] and row["config"].get(_key(name)) for row in rows)
    else:  # fixed where the attribute may be absent: only there does it differ
        assert differs
        for row in differs:
            assert (row["read"], row["v0.23"]["ok"]) == ({"ok": False, "error_type": "AttributeError"}, True), row
        for row in rows:
            if row["read"]["ok"]:
                assert row["read"] == row["v0.23"], row


def _key(name: str) -> str:
    """The key of a target's config that v0.23's property read."""
    return {"vtcm_capacity": "vtcm-capacity", "device_name": "device", "supports_integer_dot_product": "kind"}.get(
        name, name
    )
