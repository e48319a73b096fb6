"""``migrate --target-version V`` against the real apache-tvm V, for the releases before 0.27 that
PyPI has a wheel of (0.25 and 0.26): every distinct corpus text targetlang migrates, what migrate
writes for V and what V's ``Target()`` did with it, recorded by tests/oracle/record_modern_releases.py
into tests/data/oracle/migrate-v0.25.jsonl and migrate-v0.26.jsonl; and each tag V added since
v0.22, named (``--tags``: tags-named-v0.25.jsonl and -v0.26.jsonl).

The replay runs without TVM; the live tests run where apache-tvm V is installed
(``/tmp/tvm025/bin/python -m pytest -o addopts= -p no:randomly tests/test_modern_release_goldens.py``).
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
from collections.abc import Mapping
from typing import Any

import pytest

from targetlang import migrate

from .conftest import oracle_script, read_jsonl

RELEASES = ("0.25", "0.26")
GOLDENS = {release: read_jsonl("oracle", f"migrate-v{release}.jsonl") for release in RELEASES}

# 0.27's export of what migrate wrote for 0.27 (recorded with the 0.27 wheel), by legacy input
DIFFERENTIAL = {
    json.dumps(row["input"], sort_keys=True): row for row in read_jsonl("oracle", "differential-migrate.jsonl")
}


def _recorder() -> Any:
    return oracle_script("record_modern_releases")


def _row(release: str, source: str) -> dict[str, Any]:
    (row,) = [r for r in GOLDENS[release] if r["source"] == source]
    return row


# ----------------------------------------------------------------------------------------------
# (a) the goldens are what migrate writes, and V accepted all of it


@pytest.mark.parametrize("release", RELEASES)
def test_goldens_are_there(release: str) -> None:
    rows = GOLDENS[release]
    assert len(rows) == 642
    assert len({json.dumps(row["source"], sort_keys=True) for row in rows}) == len(rows)
    # policy "drop" only where the input sets what no modern release has (system-lib, runtime, executor...)
    assert sum(1 for row in rows if row["policy"] == "drop") == 23


@pytest.mark.parametrize("release", RELEASES)
def test_the_recorded_migrations_are_what_migrate_writes_now(release: str) -> None:
    now = [(source, policy, spec) for source, policy, spec in _recorder().migrations(release)]
    recorded = [(row["source"], row["policy"], row["migrated"]) for row in GOLDENS[release]]
    assert recorded == now, f"migrate writes otherwise for {release}: run tests/oracle/record_modern_releases.py"


@pytest.mark.parametrize("release", RELEASES)
def test_the_release_accepted_every_migration(release: str) -> None:
    rows = GOLDENS[release]
    assert [row["source"] for row in rows if row.get("crashed") or not row["accepted"]] == []
    assert [row["source"] for row in rows if row["warnings"]] == []


@pytest.mark.parametrize("release", RELEASES)
@pytest.mark.parametrize(
    ("source", "policy", "written", "export"),
    [
        (
            "cuda -model=1080ti",
            "error",
            {"kind": "cuda", "model": "1080ti"},
            {
                "kind": "cuda",
                "tag": "",
                "keys": ["cuda", "gpu"],
                "max_num_threads": 1024,
                "thread_warp_size": 32,
                "arch": "sm_50",
                "model": "1080ti",
            },
        ),
        (
            # jit is still an llvm option in 0.25 and 0.26 (TIRx dropped it)
            "llvm -jit=orcjit",
            "error",
            {"kind": "llvm", "jit": "orcjit"},
            {"kind": "llvm", "tag": "", "keys": ["cpu"], "mtriple": "x86_64-conda-linux-gnu", "jit": "orcjit"},
        ),
        (
            "c -runtime=c --link-params -mcpu=cortex-m55 --executor=aot --unpacked-api=1",
            "drop",
            {"kind": "c", "mcpu": "cortex-m55"},
            {
                "kind": "c",
                "tag": "",
                "keys": ["arm_cpu", "cpu"],
                "feature.has_mve": True,
                "feature.has_dsp": True,
                "mcpu": "cortex-m55",
            },
        ),
        (
            "webgpu",
            "error",
            {"kind": "webgpu"},
            {
                "kind": "webgpu",
                "tag": "",
                "keys": ["webgpu", "gpu"],
                "thread_warp_size": 1,
                "supports_subgroups": False,
                "max_num_threads": 256,
            },
        ),
    ],
)
def test_migrated_rows(release: str, source: str, policy: str, written: dict[str, Any], export: dict[str, Any]) -> None:
    row = _row(release, source)
    assert (row["policy"], row["migrated"], row["accepted"], row["export"]) == (policy, written, True, export)


# ----------------------------------------------------------------------------------------------
# (b) V's export against 0.27's

# What 0.25 and 0.26 export otherwise than the 0.27 wheel, measured over the 518 inputs both
# accepted: the wheel of 0.27 gives webgpu a max_shared_memory_per_block of 32768, which neither
# 0.25's nor 0.26's has (docs/migration.md, Modern releases)
ONLY_IN_027 = {"webgpu": {"max_shared_memory_per_block": 32768}}


def _less_027s_own(export: Mapping[str, Any]) -> dict[str, Any]:
    own = ONLY_IN_027.get(export["kind"], {})
    return {name: value for name, value in export.items() if own.get(name, object()) != value}


@pytest.mark.parametrize("release", RELEASES)
def test_the_export_is_027s_but_webgpus_shared_memory(release: str) -> None:
    compared = equal = 0
    for row in GOLDENS[release]:
        legacy = DIFFERENTIAL.get(json.dumps(row["source"], sort_keys=True))
        if legacy is None or not legacy["tvm027"]["accepted"]:
            continue
        compared += 1
        # the same legacy input migrates to the same JSON for V as for 0.27
        assert row["migrated"] == legacy["migrated"], row["source"]
        theirs = legacy["tvm027"]["export"]
        equal += row["export"] == theirs
        assert row["export"] == _less_027s_own(theirs), row["source"]
    assert (compared, equal) == (518, 513)


def test_025_and_026_export_alike() -> None:
    # the RISC-V tags' keys (riscv_cpu in 0.26, arm_cpu before) are the change between them a
    # target shows, and no corpus text is a riscv/ tag
    assert [r["export"] for r in GOLDENS["0.25"]] == [r["export"] for r in GOLDENS["0.26"]]


# ----------------------------------------------------------------------------------------------
# (b') a tag V added since v0.22, named: what migrate writes for V is V's tag (record_modern_releases.py --tags)

TAGS_NAMED = {release: read_jsonl("oracle", f"tags-named-v{release}.jsonl") for release in RELEASES}


@pytest.mark.parametrize("release", RELEASES)
def test_tag_goldens_are_every_tag_added_since_022(release: str) -> None:
    names = [row["name"] for row in TAGS_NAMED[release]]
    assert names == _recorder().added_tags(release)
    # the RISC-V tags, whose keys changed in 0.26 (apache/tvm#19915), are among them
    assert {"riscv/sifive-u74", "riscv/sifive-u54"} <= set(names)
    assert len(names) == {"0.25": 29, "0.26": 30}[release]


@pytest.mark.parametrize("release", RELEASES)
def test_a_tag_named_migrates_to_what_the_release_reads_it_as(release: str) -> None:
    for row in TAGS_NAMED[release]:
        assert migrate({"tag": row["name"]}, to=release).json == row["migrated"], row["name"]
        assert row["tag"]["accepted"] and row["outcome"]["accepted"], row["name"]
        assert row["outcome"]["export"] == row["tag"]["export"], row["name"]


def test_025_and_026_read_the_risc_v_tags_apart() -> None:
    keys = {r: {row["name"]: row["tag"]["export"]["keys"] for row in TAGS_NAMED[r]} for r in RELEASES}
    assert keys["0.25"]["riscv/sifive-u74"] == ["arm_cpu", "cpu"]
    assert keys["0.26"]["riscv/sifive-u74"] == ["riscv_cpu", "cpu"]


# ----------------------------------------------------------------------------------------------
# (c) live: against the installed apache-tvm, when it is one of RELEASES


def _installed() -> str | None:
    if importlib.util.find_spec("tvm") is None:
        return None
    try:
        version = importlib.metadata.version("apache-tvm")
    except importlib.metadata.PackageNotFoundError:
        return None
    return ".".join(version.split(".")[:2])


INSTALLED = _installed()
needs_tvm = pytest.mark.skipif(INSTALLED not in RELEASES, reason="apache-tvm 0.25 or 0.26 is not installed")


@needs_tvm
def test_live_tvm_does_what_the_goldens_say() -> None:
    assert INSTALLED is not None
    recorder = _recorder()
    for row in GOLDENS[INSTALLED]:
        outcome = recorder.target_outcome(row["migrated"])
        assert outcome["accepted"], row["source"]
        assert outcome["export"] == row["export"], row["source"]


@needs_tvm
def test_live_tvm_accepts_what_migrate_writes_now() -> None:
    # migrate now, TVM now: a change of migrate is checked before re-recording
    assert INSTALLED is not None
    recorder = _recorder()
    checked = 0
    for source, policy, _ in recorder.migrations(INSTALLED):
        spec = migrate(source, to=INSTALLED, policy=policy).json
        outcome = recorder.target_outcome(spec)
        assert outcome["accepted"], (source, policy, spec, outcome)
        checked += 1
    assert checked == 642
