"""TVM TIRx (apache-tvm-tirx 0.1.0a4) as a target distribution: the shipped data
(targetlang/data/{kinds,tags,checks}-tirx-0.1.json) against what the real tvm_tirx did, recorded by
tests/oracle/record_tirx.py in two goldens: tirx-0.1.jsonl (the plain wheel, whose LLVM has no Arm
backend) and tirx-0.1-all-targets.jsonl (with the extra all-targets, an LLVM with every backend).

The replay runs without tvm_tirx; the live tests run where it is installed and compare it with the
goldens (``/tmp/tirx/bin/python -m pytest -o addopts= -p no:randomly tests/test_tirx_goldens.py``;
with all-targets installed they also record the data again and compare it byte for byte).
"""

from __future__ import annotations

import importlib.util
import json
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from targetlang.migration._checks import Check, _text

from .conftest import oracle_script, read_jsonl

DATA = Path(__file__).resolve().parents[1] / "targetlang" / "data"


def _load(name: str) -> Any:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


KINDS: dict[str, Any] = _load("kinds-tirx-0.1.json")["kinds"]
TAGS: dict[str, Any] = _load("tags-tirx-0.1.json")
CHECKS_DATA: dict[str, Any] = _load("checks-tirx-0.1.json")
CHECKS = [
    Check(c["id"], c["kind"], c["attribute"], c["condition"], c["message"], c["source"], tuple(c.get("when", ())))
    for c in CHECKS_DATA["checks"]
]
PLAIN = read_jsonl("oracle", "tirx-0.1.jsonl")
ALL_TARGETS = read_jsonl("oracle", "tirx-0.1-all-targets.jsonl")
GOLDENS = {"plain": PLAIN, "all-targets": ALL_TARGETS}

# The Arm, Apple and Jetson tags TIRx registers only when its LLVM has an Arm backend
CONDITIONAL = {
    "apple/m1-gpu",
    "apple/m1-gpu-restricted",
    "apple/m2-gpu",
    "arm/beagleai",
    "arm/mate10",
    "arm/pixel2",
    "arm/pynq",
    "arm/rasp3b",
    "arm/rasp4b",
    "arm/rasp4b64",
    "arm/rk3399",
    "arm/stm32mp1",
    "arm/thunderx",
    "arm/ultra96",
    "nvidia/jetson-agx-orin-32gb",
    "nvidia/jetson-agx-orin-64gb",
    "nvidia/jetson-agx-thor",
    "nvidia/jetson-agx-xavier",
    "nvidia/jetson-orin-nano",
    "raspberry-pi/4b-aarch64",
}

# How a value of each of TVM's type names is exported
TYPES = {
    "str": lambda v: isinstance(v, str),
    "int": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "bool": lambda v: isinstance(v, bool),
    "Array<str>": lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v),
    "Map<str, Any>": lambda v: isinstance(v, dict),
    "target.Target": lambda v: isinstance(v, dict),
    "Array<target.Target>": lambda v: isinstance(v, list) and all(isinstance(x, dict) for x in v),
}


def _rows(flavour: str, group: str) -> list[dict[str, Any]]:
    return [row for row in GOLDENS[flavour] if row["group"] == group]


def _targets(config: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    """A config and every target nested in it (its host, a composite's devices)."""
    yield config
    host = config.get("host")
    if isinstance(host, Mapping):
        yield from _targets(host)
    for device in config.get("devices") or ():
        if isinstance(device, Mapping):
            yield from _targets(device)


def test_goldens_are_there() -> None:
    # fewer rows means a file was cut short, not that the data agrees
    for rows in GOLDENS.values():
        counts = {group: sum(1 for r in rows if r["group"] == group) for group in ("kind", "tag", "string", "checks")}
        assert counts == {"kind": 15, "tag": 287, "string": 14, "checks": 923}
        assert sum(1 for r in rows if r["group"] == "corpus") >= 300
        assert sum(1 for r in rows if r["group"] == "generated") >= 450
        assert sum(1 for r in rows if r["group"] == "migrated") >= 650


def test_kinds_are_027s_but_cuda_backend_config_and_llvm_jit() -> None:
    modern = _load("kinds-v0.27.json")["kinds"]
    assert sorted(KINDS) == sorted(modern) == [
        "c", "composite", "cuda", "cuda_host", "ext_dev", "hexagon", "llvm", "metal",
        "nvptx", "opencl", "rocm", "test", "trn", "vulkan", "webgpu",
    ]  # fmt: skip
    added = {k: sorted(set(KINDS[k]["options"]) - set(modern[k]["options"])) for k in KINDS}
    removed = {k: sorted(set(modern[k]["options"]) - set(KINDS[k]["options"])) for k in KINDS}
    assert {k: v for k, v in added.items() if v} == {"cuda": ["backend_config"]}
    assert {k: v for k, v in removed.items() if v} == {"llvm": ["jit"]}
    assert KINDS["cuda"]["options"]["backend_config"] == "Map<str, Any>"
    # 0.27 gives a bare cuda target arch sm_50 on a machine without GPUs; TIRx leaves it unset
    assert KINDS["cuda"]["bare_export"] == {
        "kind": "cuda", "tag": "", "keys": ["cuda", "gpu"], "max_num_threads": 1024, "thread_warp_size": 32,
    }  # fmt: skip


def test_tags_are_027s() -> None:
    modern = _load("tags-v0.27.json")["tags"]
    assert TAGS["count"] == len(TAGS["tags"]) == 287
    assert set(TAGS["tags"]) == set(modern)
    assert set(TAGS["conditional"]) == CONDITIONAL
    assert {entry["triple"] for entry in TAGS["conditional"].values()} == {
        "aarch64-linux-gnu", "arm64-apple-macos", "arm64-linux-android", "armv7a-linux-eabi",
        "armv7a-linux-gnueabihf", "armv7l-linux-gnueabihf", "armv8l-linux-gnueabihf",
    }  # fmt: skip


@pytest.mark.parametrize("flavour", list(GOLDENS))
def test_bare_kinds_export_as_shipped(flavour: str) -> None:
    rows = _rows(flavour, "kind")
    assert [r["input"]["kind"] for r in rows] == list(KINDS)
    for row in rows:
        assert row["accepted"] and row["export"] == KINDS[row["input"]["kind"]]["bare_export"]


@pytest.mark.parametrize("flavour", list(GOLDENS))
def test_tags_export_as_shipped(flavour: str) -> None:
    for row in _rows(flavour, "tag"):
        name = row["input"]
        if flavour == "plain" and name in CONDITIONAL:
            assert not row["accepted"]
            assert row["error"]["message"].startswith(f'Target kind "{name}" is not defined')
        else:
            assert row["accepted"] and row["export"] == TAGS["tags"][name], name


@pytest.mark.parametrize("flavour", list(GOLDENS))
def test_accepted_configs_use_known_attributes_of_their_type(flavour: str) -> None:
    for row in GOLDENS[flavour]:
        if not row["accepted"] or not isinstance(row["input"], dict):
            continue
        for given, config in [
            *((True, t) for t in _targets(row["input"])),
            *((False, t) for t in _targets(row["export"])),
        ]:
            options = KINDS[config["kind"]]["options"]
            for name, value in config.items():
                if name.startswith("feature."):
                    continue  # computed by the canonicaliser, kept when given (a bool)
                assert name in options, (row["input"], name)
                # TIRx converts a given int to a bool and a given bool to an int; it exports the type
                converted = given and (options[name], type(value)) in (("bool", int), ("int", bool))
                assert converted or TYPES[options[name]](value), (row["input"], name, value)


def _why(row: Mapping[str, Any]) -> str:
    """Which reason of the shipped data explains a rejection (an assertion names one that none does)."""
    spec, message = row["input"], row["error"]["message"]
    if m := re.match(r"Unknown config option '([^']*)'\.", message):
        assert isinstance(spec, dict) and any(
            m[1] in t and m[1] not in KINDS[t["kind"]]["options"] for t in _targets(spec)
        ), message
        return "unknown attribute"
    if m := re.match(r"Option '([^']*)': expected type '([^']*)' but got", message):
        assert any(KINDS[t["kind"]]["options"].get(m[1]) == m[2] for t in _targets(spec)), message
        return "type"
    if m := re.match(r'Target kind "([^"]*)" is not defined', message):
        assert isinstance(spec, str) and m[1] == spec and spec not in KINDS
        return "no such kind or tag"
    if message.startswith(f'Cannot parse target string "{spec}". CLI target string form'):
        assert isinstance(spec, str) and spec.strip().split(" ")[0] in [*KINDS, *TAGS["tags"]]
        return "string form"
    if re.match(r"Cannot create target with type: (int|None)|Expected Target, string, or dict in 'devices'", message):
        return "not a target"
    if message.startswith("Cannot convert from type `int` to `Array<Any>`"):
        return "type"
    for config in _targets(spec):
        for check in CHECKS:
            value = config.get(check.attribute)
            if check.applies(config) and not check.holds(value):
                if check.message.format(value=_text(check.failing(value))) in message:
                    return check.id
    raise AssertionError(f"no reason in the shipped data for {spec!r}: {message}")


@pytest.mark.parametrize("flavour", list(GOLDENS))
def test_every_rejection_has_a_reason_in_the_shipped_data(flavour: str) -> None:
    reasons: dict[str, int] = {}
    for row in GOLDENS[flavour]:
        if not row["accepted"] and not row.get("crashed"):
            reasons[_why(row)] = reasons.get(_why(row), 0) + 1
    assert reasons["unknown attribute"] == 118 and reasons["string form"] == 8


def test_every_check_of_the_shipped_data_rejects_where_it_fails() -> None:
    fired: dict[str, int] = {}
    for row in _rows("all-targets", "checks"):
        for config in _targets(row["input"]):
            if set(config) - set(KINDS[config["kind"]]["options"]):
                break  # an unknown attribute (jit) rejects first
            for check in CHECKS:
                value = config.get(check.attribute)
                if check.applies(config) and TYPES[KINDS[check.kind]["options"][check.attribute]](value):
                    if not check.holds(value):
                        assert not row["accepted"], row["input"]
                        fired[check.id] = fired.get(check.id, 0) + 1
    assert set(fired) == {c.id for c in CHECKS}


def test_the_plain_wheel_runs_no_a_profile_check() -> None:
    # its LLVM has no Arm backend, so the canonicaliser of Arm targets stops before its checks
    skipped = 0
    for plain, full in zip(_rows("plain", "checks"), _rows("all-targets", "checks"), strict=True):
        assert plain["input"] == full["input"]
        if not full["accepted"] and _why(full).startswith("llvm-aprofile-"):
            assert plain["accepted"], plain["input"]
            skipped += 1
        elif "feature.is_aarch64" not in json.dumps(full):
            assert plain == full
    assert skipped == 456


@pytest.mark.parametrize("flavour", list(GOLDENS))
def test_migrated_corpus_is_accepted_but_for_jit(flavour: str) -> None:
    rejected = [row for row in _rows(flavour, "corpus") if not row["accepted"]]
    assert [row["source"] for row in rejected] == [
        "llvm -jit=orcjit",
        "llvm -jit=orcjit -mtriple=riscv64-linux-gnu -mcpu=generic-rv64 -mattr=+a,+c,+d,+f,+m",
        "llvm -jit=orcjit -mtriple=riscv64-linux-gnu -mcpu=generic-rv64 -mattr=+a,+c,+d,+f,+m,+v",
    ]
    for row in rejected:
        assert row["error"]["message"].startswith("Unknown config option 'jit'.")


@pytest.mark.parametrize(
    ("text", "accepted"),
    [
        ("llvm -mcpu=skylake", False),
        ("cuda -arch=sm_80", False),
        ("nvidia/nvidia-a100 -libs=cublas", False),
        ("llvm ", False),
        ("  llvm", False),
        ("llvm", True),
        ("cuda", True),
        ('{"kind": "llvm", "mcpu": "skylake"}', True),
    ],
)
def test_string_form(text: str, accepted: bool) -> None:
    for rows in GOLDENS.values():
        (row,) = [r for r in rows if r["group"] == "string" and r["input"] == text]
        assert row["accepted"] is accepted
        if not accepted:
            assert "CLI target string form" in row["error"]["message"]
            assert "is no longer supported" in row["error"]["message"]


# ----------------------------------------------------------------------------------------------
# what migrate --target-version tirx-0.1 writes (the group "migrated": every text of the corpus and
# every input of the 0.27 migration's differential goldens that migrates for TIRx)

DIFFERENTIAL = {
    json.dumps(row["input"], sort_keys=True): row for row in read_jsonl("oracle", "differential-migrate.jsonl")
}

# What TIRx did not answer: with an Arm backend, an aarch64 llvm target whose mattr item has no
# sign (0.27 accepted it) kills the process, a segfault in its A-profile parser
CRASHED = {"plain": [], "all-targets": ["llvm --device arm_cpu --mtriple aarch64-linux-gnu -mattr=orcjit"]}


def _without_filled(export: Any, given: Any) -> Any:
    """``export`` less its ``feature.*`` keys and the ``arch`` and ``mtriple`` that ``given`` (the
    config built at that level) did not set, all the way down: TIRx leaves a cuda target's arch
    unset where 0.27 set sm_50 on a machine without GPUs, and an llvm target without a triple gets
    that of the LLVM it runs on (x86_64-unknown-linux-gnu in TIRx, x86_64-conda-linux-gnu in the
    0.27 wheel, x86_64-pc-linux-gnu in v0.21): docs/migration.md, TVM TIRx."""
    if not isinstance(export, Mapping):
        return export
    given = given if isinstance(given, Mapping) else {}
    out = {}
    for name, value in export.items():
        if name.startswith("feature.") or (name in ("arch", "mtriple") and name not in given):
            continue
        if name == "host":
            value = _without_filled(value, given.get("host"))
        elif name == "devices" and isinstance(value, list):
            devices = list(given.get("devices") or [])
            value = [_without_filled(v, devices[i] if i < len(devices) else None) for i, v in enumerate(value)]
        out[name] = value
    return out


def test_the_migration_goldens_are_what_migrate_writes_now() -> None:
    now = [(source, policy, spec) for source, policy, spec in _record_tirx().migrated_inputs()]
    for flavour in GOLDENS:
        recorded = [(row["source"], row["policy"], row["input"]) for row in _rows(flavour, "migrated")]
        assert recorded == now, "migrate writes otherwise for tirx-0.1: re-record (tests/oracle/record_tirx.py goldens)"


@pytest.mark.parametrize("flavour", list(GOLDENS))
def test_tirx_accepts_every_target_migrate_writes_for_it(flavour: str) -> None:
    rows = _rows(flavour, "migrated")
    assert [row["source"] for row in rows if row.get("crashed")] == CRASHED[flavour]
    assert all(row["accepted"] for row in rows if not row.get("crashed"))
    # policy "drop" is needed where the input sets what TIRx lacks or TVM removed (jit, system-lib...)
    assert 50 <= sum(1 for row in rows if row["policy"] == "drop") < 100


@pytest.mark.parametrize(
    ("source", "policy", "written"),
    [
        ("llvm -jit=orcjit", "drop", {"kind": "llvm"}),
        ("cuda -model=1080ti", "error", {"kind": "cuda", "model": "1080ti"}),
        (
            "composite --host=llvm --devices=cuda,opencl",
            "error",
            {"kind": "composite", "host": {"kind": "llvm"}, "devices": [{"kind": "cuda"}, {"kind": "opencl"}]},
        ),
        ("opencl -model=rk3399 -device=mali", "error", {"kind": "opencl", "model": "rk3399", "device": "mali"}),
    ],
)
def test_migrated_rows(source: str, policy: str, written: dict[str, Any]) -> None:
    for flavour in GOLDENS:
        (row,) = [r for r in _rows(flavour, "migrated") if r["source"] == source]
        assert (row["policy"], row["input"], row["accepted"]) == (policy, written, True)


@pytest.mark.parametrize("flavour", list(GOLDENS))
def test_tirx_exports_what_027_and_the_legacy_target_export(flavour: str) -> None:
    # TIRx's export of what migrate writes for it equals 0.27's export of what migrate wrote for
    # 0.27 (recorded with the 0.27 wheel) and, where 0.27's agreed with v0.21's export of the
    # legacy target, v0.21's too: apart from _without_filled and the attributes policy "drop" dropped
    compared = agreed = 0
    for row in _rows(flavour, "migrated"):
        legacy = DIFFERENTIAL.get(json.dumps(row["source"], sort_keys=True))
        if legacy is None or not row["accepted"]:
            continue
        ours = _without_filled(row["export"], row["input"])
        dropped = set(legacy["migrated"] or {}) - set(row["input"]) if row["policy"] == "drop" else set()
        assert dropped <= {"jit"}, row["source"]
        if legacy["tvm027"].get("accepted"):
            theirs = _without_filled(legacy["tvm027"]["export"], legacy["migrated"])
            assert {k: v for k, v in theirs.items() if k not in dropped} == ours, row["source"]
            compared += 1
        v021 = legacy["v021"]
        if v021.get("accepted") and legacy["tvm027"].get("accepted"):
            old = _without_filled(v021["export"], legacy["migrated"])
            if _without_filled(legacy["tvm027"]["export"], legacy["migrated"]) == old:
                assert {k: v for k, v in old.items() if k not in dropped} == ours, row["source"]
                agreed += 1
    assert compared >= 510 and agreed >= 440, (compared, agreed)


# ----------------------------------------------------------------------------------------------
# live: against the installed tvm_tirx

HAS_TIRX = importlib.util.find_spec("tvm_tirx") is not None
HAS_ALL_TARGETS = importlib.util.find_spec("tvm_tirx_llvm_targets") is not None
needs_tirx = pytest.mark.skipif(not HAS_TIRX, reason="tvm_tirx (apache-tvm-tirx) is not installed")


def _record_tirx() -> Any:
    return oracle_script("record_tirx")


@needs_tirx
def test_live_tirx_does_what_the_goldens_say() -> None:
    record = _record_tirx()
    rows = ALL_TARGETS if HAS_ALL_TARGETS else PLAIN
    for row in rows:
        if row.get("crashed"):
            continue  # it would kill this process
        outcome = record.outcome(row["input"])
        assert outcome["accepted"] == row["accepted"], row["input"]
        if row["accepted"]:
            assert outcome["export"] == row["export"], row["input"]
        else:
            assert outcome["error"]["message"] == row["error"]["message"], row["input"]


@needs_tirx
def test_live_tirx_accepts_what_migrate_writes_for_it() -> None:
    # migrate now, TIRx now: not the goldens' JSON, so a change of migrate is checked before re-recording
    record = _record_tirx()
    flavour = "all-targets" if HAS_ALL_TARGETS else "plain"
    checked = 0
    for source, policy, spec in record.migrated_inputs():
        if source in CRASHED[flavour]:
            continue
        outcome = record.outcome(spec)
        assert outcome["accepted"], (source, policy, spec, outcome)
        checked += 1
    assert checked >= 650


@needs_tirx
@pytest.mark.skipif(not HAS_ALL_TARGETS, reason="the data is recorded with apache-tvm-tirx[all-targets]")
def test_live_data_regenerates_byte_for_byte(tmp_path: Path) -> None:
    record = _record_tirx()
    record.record_schemas(tmp_path)
    for stem in ("kinds", "tags", "checks"):
        name = f"{stem}-tirx-0.1.json"
        assert (tmp_path / name).read_bytes() == (DATA / name).read_bytes(), name
