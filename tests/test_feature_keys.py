"""``feature.*`` keys in a config, as each release's ``Target(config)`` read them.

From TVM v0.24 on (apache/tvm#18883) a key longer than ``feature.`` that starts with it is set
aside before the kind's schema reads the config, whatever the kind and the value, and put back
after the canonicaliser unless the canonicaliser set it itself; the releases before rejected it
as an unknown attribute. The goldens, tests/data/oracle/feature-keys-v*.jsonl, were recorded by
tests/oracle/record_feature_keys.py from apache-tvm 0.27 and from the oracle's v0.21 and v0.19;
the live test runs the same inputs through a TVM 0.27 that imports here.
"""

from __future__ import annotations

import importlib.util
import json
import re
from collections.abc import Mapping
from typing import Any

import pytest

from targetlang import Environment, TargetError, UnknownAttributeError, builtin_registry, migrate, parse
from targetlang._resolution import APROFILE_FEATURES, is_aprofile
from targetlang.fix import fix_source

from .conftest import read_jsonl

MODERN = builtin_registry("0.27")
# What the wheel's LLVM gives a bare llvm target on this machine.
ENV = Environment(host_triple="x86_64-conda-linux-gnu")
ROWS = read_jsonl("oracle", "feature-keys-v0.27.jsonl")
OLD_ROWS = [
    (version, row) for version in ("0.21", "0.19") for row in read_jsonl("oracle", f"feature-keys-v{version}.jsonl")
]


def _id(row: Mapping[str, Any]) -> str:
    return json.dumps(row["input"])[:90]


def _plain(value: Any) -> str:
    """A value as JSON text: ``true`` and ``1`` differ, as in TVM's export."""
    return json.dumps(value, sort_keys=True)


def _features(config: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in config.items() if k.startswith("feature.")}


def _levels(export: Mapping[str, Any], ours: Mapping[str, Any]) -> list[tuple[Mapping[str, Any], Mapping[str, Any]]]:
    """The export of each target level, TVM's beside targetlang's: the target, its host, its devices."""
    pairs = [(export, ours)]
    if isinstance(export.get("host"), Mapping):
        pairs += _levels(export["host"], ours["host"])
    for theirs, mine in zip(export.get("devices") or (), ours.get("devices") or (), strict=True):
        pairs += _levels(theirs, mine)
    return pairs


def _assert_like_tvm(spec: Any, accepted: bool, export: Mapping[str, Any] | None) -> None:
    if not accepted:
        with pytest.raises(TargetError) as caught:
            parse(spec, registry=MODERN)
        assert isinstance(caught.value, ValueError)
        return
    assert export is not None
    resolved = parse(spec, registry=MODERN).resolve(ENV)
    for theirs, mine in _levels(export, resolved.to_json()):
        expected = _features(theirs)
        if theirs["kind"] == "llvm" and is_aprofile(theirs):
            # set from LLVM's view of the CPU, which targetlang does not compute: left out
            expected = {k: v for k, v in expected.items() if k.removeprefix("feature.") not in APROFILE_FEATURES}
        assert _plain(_features(mine)) == _plain(expected)
        assert list(mine.get("keys", ())) == list(theirs["keys"])


@pytest.mark.parametrize("row", ROWS, ids=[_id(r) for r in ROWS])
def test_a_config_reads_as_tvm_027_read_it(row: dict[str, Any]) -> None:
    _assert_like_tvm(row["input"], row["accepted"], row.get("export"))


@pytest.mark.parametrize("row", [r for r in ROWS if r["accepted"]], ids=[_id(r) for r in ROWS if r["accepted"]])
def test_an_export_reads_back_with_its_features(row: dict[str, Any]) -> None:
    # what apache/tvm#18883 was for: Target(target.export()) again
    export = row["export"]
    again = parse(export, registry=MODERN)
    if not is_aprofile(export) or export["kind"] != "llvm":
        assert _plain(_features(again.to_json())) == _plain(_features(export))


@pytest.mark.parametrize(("version", "row"), OLD_ROWS, ids=[f"{v}-{_id(r)}" for v, r in OLD_ROWS])
def test_releases_before_024_reject_them(version: str, row: dict[str, Any]) -> None:
    assert not row["accepted"]
    with pytest.raises(TargetError) as caught:
        parse(row["input"], registry=builtin_registry(version))
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize(
    ("config", "features"),
    [
        ({"kind": "cuda", "feature.x": [1, {"a": None}]}, {"x": (1, {"a": None})}),
        ({"kind": "llvm", "mcpu": "cortex-m55", "feature.has_dsp": False}, {"has_dsp": False}),
        ({"kind": "c", "feature.": None, "feature.a.b": "s"}, None),
        ({"kind": "opencl", "feature.a.b": "s", "feature.. ": 2.5}, {"a.b": "s", ". ": 2.5}),
    ],
)
def test_given_features_are_the_targets_until_resolved(config: dict[str, Any], features: dict[str, Any] | None) -> None:
    if features is None:
        with pytest.raises(UnknownAttributeError, match=re.escape("kind 'c' has no attribute 'feature.'")):
            parse(config, registry=MODERN)
        return
    target = parse(config, registry=MODERN)
    assert dict(target.features) == features
    assert "feature.x" not in target.attrs and all(not name.startswith("feature.") for name in target.attrs)


@pytest.mark.parametrize(
    ("config", "resolved"),
    [
        # the M-profile canonicaliser sets has_dsp and has_mve over the given ones; "own" stays
        (
            {"kind": "llvm", "mcpu": "cortex-m55", "feature.has_dsp": False, "feature.own": "x"},
            {"feature.own": "x", "feature.has_dsp": True, "feature.has_mve": True},
        ),
        (
            {"kind": "llvm", "mcpu": "cortex-m4", "mattr": ["+nodsp"]},
            {"feature.has_dsp": False, "feature.has_mve": False},
        ),
        # no canonicaliser sets a feature of an x86 llvm target or of cuda: kept as given
        ({"kind": "llvm", "mtriple": "x86_64-linux-gnu", "feature.has_sve": 1}, {"feature.has_sve": 1}),
        ({"kind": "cuda", "arch": "sm_80", "feature.has_dsp": None}, {"feature.has_dsp": None}),
        # the A-profile canonicaliser sets has_sve from LLVM: dropped, never kept as given
        (
            {"kind": "llvm", "mtriple": "aarch64-linux-gnu", "feature.has_sve": True, "feature.own": 0},
            {"feature.own": 0},
        ),
    ],
)
def test_resolve_puts_the_given_features_back_under_the_canonicalisers(
    config: dict[str, Any], resolved: dict[str, Any]
) -> None:
    assert _plain(_features(parse(config, registry=MODERN).resolve(ENV).to_json())) == _plain(resolved)


def test_features_are_part_of_a_targets_meaning() -> None:
    one = parse({"kind": "llvm", "feature.a": True}, registry=MODERN)
    assert one == parse('{"feature.a": true, "kind": "llvm"}', registry=MODERN)
    assert hash(one) == hash(parse('{"feature.a": true, "kind": "llvm"}', registry=MODERN))
    assert one != parse({"kind": "llvm", "feature.a": 1}, registry=MODERN)
    assert one != parse({"kind": "llvm"}, registry=MODERN)


def test_a_target_with_features_prints_as_json_that_reads_back() -> None:
    text = '{"kind": "llvm", "mcpu": "skylake", "feature.own": [1]}'
    target = parse(text, registry=MODERN)
    assert str(target) == text
    assert target.canonical() == '{"feature.own":[1],"kind":"llvm","mcpu":"skylake"}'
    assert parse(target.canonical(), registry=MODERN) == target
    assert target.to_json() == {"kind": "llvm", "mcpu": "skylake", "feature.own": [1]}


@pytest.mark.parametrize("version", ["0.22", "0.21", "0.19"])
def test_the_error_before_024_says_from_when_they_read(version: str) -> None:
    text = '{"kind": "llvm", "feature.has_sve": true}'
    with pytest.raises(UnknownAttributeError) as caught:
        parse(text, registry=builtin_registry(version))
    assert caught.value.message == (
        f"kind 'llvm' has no attribute 'feature.has_sve' as TVM v{version} read it: 'feature.*' keys are read "
        "from TVM v0.24 on, in the JSON form (apache/tvm#18883)"
    )
    assert (caught.value.start, caught.value.end) == (17, 34)  # the key, quotes included


def test_migrate_keeps_the_feature_keys_a_modern_release_reads() -> None:
    target = parse(
        {"kind": "cuda", "arch": "sm_80", "feature.own": 1, "host": {"kind": "llvm", "feature.x": "y"}}, registry=MODERN
    )
    result = migrate(target)
    assert result.changes == ()
    assert result.json == {
        "kind": "cuda",
        "arch": "sm_80",
        "host": {"kind": "llvm", "feature.x": "y"},
        "feature.own": 1,
    }


@pytest.mark.skipif(importlib.util.find_spec("tvm") is None, reason="needs apache-tvm 0.27")
@pytest.mark.parametrize("row", ROWS, ids=[_id(r) for r in ROWS])
def test_live_tvm_027_agrees(row: dict[str, Any]) -> None:
    import tvm

    if not tvm.__version__.startswith("0.27"):
        pytest.skip(f"the goldens are TVM 0.27's, this is {tvm.__version__}")
    spec = row["input"]
    try:
        built = tvm.target.Target(spec)
    except Exception:  # whatever TVM raised, the golden says it rejected
        assert not row["accepted"]
        _assert_like_tvm(spec, False, None)
        return
    export = json.loads(json.dumps(_json(built.export())))
    assert row["accepted"] and _plain(_features(export)) == _plain(_features(row["export"]))
    _assert_like_tvm(spec, True, export)


def _json(value: Any) -> Any:
    """TVM's export as JSON data (its arrays and maps are FFI objects)."""
    if isinstance(value, str | bool | int | float) or value is None:
        return value
    if hasattr(value, "export"):
        return _json(value.export())
    if hasattr(value, "items"):
        return {str(k): _json(v) for k, v in value.items()}
    return [_json(v) for v in value]


@pytest.mark.parametrize("target_version", ["0.24", "0.27"])
def test_fix_reports_no_feature_key_as_an_unknown_attribute(target_version: str) -> None:
    code = 'import tvm\n\ntvm.target.Target({"kind": "llvm", "feature.has_sve": True, "featur.x": 1})\n'
    result = fix_source(code, target_version=target_version)
    assert result.text == code
    assert [(f.line, f.column, f.rule, f.before) for f in result.findings] == [
        (3, 61, "target-unknown-attr", '"featur.x"')
    ]


def test_an_edit_keeps_the_features_as_an_edited_export_would() -> None:
    target = parse('{"kind": "llvm", "mcpu": "skylake", "feature.own": [1]}', registry=MODERN)
    edited = target.with_attr("mcpu", "znver3")
    assert str(edited) == '{"kind": "llvm", "mcpu": "znver3", "feature.own": [1]}'
    assert dict(edited.features) == {"own": (1,)}
    assert target.with_host("llvm").to_json() == {
        "kind": "llvm",
        "host": {"kind": "llvm"},
        "mcpu": "skylake",
        "feature.own": [1],
    }
    # a v0.22 target's features are its canonicaliser's, which an edit leaves behind
    resolved = parse("llvm -mcpu=cortex-m55").resolve()
    assert dict(resolved.features) == {"has_dsp": True, "has_mve": True}
    assert dict(resolved.with_attr("mcpu", "skylake").features) == {}


def test_migrate_of_a_target_with_feature_keys_gives_its_target_too() -> None:
    # the JSON was right, but Migration.target was read back with the default (v0.22) registry,
    # which rejects feature keys as TVM v0.22 did: now it is read as the release written for
    given = parse({"kind": "llvm", "mtriple": "x86_64-linux-gnu", "feature.has_avx": True}, registry=MODERN)
    migration = migrate(given)
    assert migration.json == {"kind": "llvm", "mtriple": "x86_64-linux-gnu", "feature.has_avx": True}
    assert migration.target is not None
    assert migration.target.features == {"has_avx": True}


def test_a_legacy_target_s_computed_features_do_not_count_in_equality() -> None:
    # before v0.24 features are a canonicaliser's results, which no text carries: a resolved
    # target equals what its canonical text reads back as (the printers' promise), as before
    resolved = parse("c -keys=arm_cpu,cpu -mcpu=cortex-m3").resolve()
    assert dict(resolved.features) == {"has_dsp": False, "has_mve": False}
    assert parse(resolved.canonical()) == resolved
    # from v0.24 on they are data the JSON form carries, and count
    given = parse({"kind": "c", "mcpu": "cortex-m3", "feature.has_dsp": True}, registry=MODERN)
    assert given != parse({"kind": "c", "mcpu": "cortex-m3"}, registry=MODERN)
    assert parse(given.canonical(), registry=MODERN) == given


def test_explain_says_when_features_were_given() -> None:
    from targetlang.inspection import explain

    given = explain('{"kind": "llvm", "mtriple": "aarch64-linux-gnu", "feature.x": null}', registry=MODERN)
    assert dict(given.given_features) == {"x": None}
    assert given.to_json()["given_features"] == {"x": None}
    derived = explain("c -mcpu=cortex-m55")
    assert dict(derived.given_features) == {}
    assert dict(derived.features) == {"has_mve": True, "has_dsp": True}


def test_a_tag_whose_host_has_feature_keys_reads() -> None:
    # TVM 0.27's export of nvidia/jetson-agx-thor (tags-v0.27.json) gives its host the features
    # its canonicaliser derived; they are no part of the tag's config, at any level
    target = parse('{"tag": "nvidia/jetson-agx-thor"}')
    assert (target.kind, target.attrs["arch"]) == ("cuda", "sm_110a")
    assert target.host is not None and target.host.attrs["mtriple"] == "aarch64-linux-gnu"
    assert not any(key.startswith("feature.") for key in target.host.to_json())
    migration = migrate('{"tag": "nvidia/jetson-agx-thor"}')
    assert migration.ok and migration.json is not None
    assert migration.json["host"]["mcpu"] == "neoverse-v3ae"
