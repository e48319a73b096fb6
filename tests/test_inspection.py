"""The inspection commands (kinds, tags, explain, diff) and targetlang.inspection beneath them.

Every expected value is written from TVM's own source, cited beside it (src/target/target_kind.cc,
src/target/tag.cc, src/target/parsers/, python/tvm/autotvm/), not computed by the code under test.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import pytest

from targetlang import TargetError, UnknownKindError, parse
from targetlang._cli import command_line as cli
from targetlang._cli.inspect import add_parser
from targetlang.inspection import (
    diff,
    explain,
    kind_info,
    kind_table,
    release_ranges,
    tag_matches,
    tag_table,
    tophub_package,
)

from .conftest import Run
from .newest import NEWEST, NEWEST_MINOR, to_newest
from .test_cli import console_lines, help_examples, replay, transcript

DOCS = Path(__file__).resolve().parents[1] / "docs" / "inspection.md"
COMMANDS = ("kinds", "tags", "explain", "diff")


@pytest.fixture
def tl(run: Run, monkeypatch: pytest.MonkeyPatch) -> Run:
    """The ``targetlang`` command with the inspection commands, whether the command line adds them yet or not."""
    original = cli._build_parser

    def build() -> argparse.ArgumentParser:
        parser = original()
        commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        if "kinds" not in commands.choices:
            add_parser(commands)
        return parser

    monkeypatch.setattr(cli, "_build_parser", build)
    return run


# ------------------------------------------------------------------ releases


@pytest.mark.parametrize(
    ("releases", "shown"),
    [
        ((), "none"),
        (("0.8",), "v0.8"),
        (("0.7", "0.8", "0.9"), "v0.7 - v0.9"),
        (("0.9", "0.10", "0.24", "0.25"), "v0.9 - v0.10, v0.24 - v0.25"),  # 0.10 follows 0.9, not 0.1
        (("0.27", "0.7"), "v0.7, v0.27"),
    ],
)
def test_release_ranges(releases: tuple[str, ...], shown: str) -> None:
    assert release_ranges(releases) == shown


# ------------------------------------------------------------------ kinds

V07_KINDS = {  # TVM_REGISTER_TARGET_KIND in v0.7's src/target/target_kind.cc
    "llvm", "c", "cuda", "nvptx", "rocm", "opencl", "metal", "vulkan", "webgpu", "sdaccel", "aocl",
    "aocl_sw_emu", "hexagon", "stackvm", "ext_dev", "hybrid", "composite",
}  # fmt: skip


def test_kinds_of_v07() -> None:
    assert {kind.name for kind in kind_table("0.7")} == V07_KINDS
    assert {kind.name for kind in kind_table("0.7.0")} == V07_KINDS  # any spelling of the release


def test_kinds_of_every_release() -> None:
    names = [kind.name for kind in kind_table()]
    assert names == sorted(names)
    # hybrid: v0.7 - v0.21; cuda_host only in 0.27; trn from v0.25 (each release's source)
    assert {"hybrid", "cuda_host", "trn", "stackvm", "sdaccel"} <= set(names)


@pytest.mark.parametrize(
    ("kind", "version", "attr", "type_", "default", "first", "last"),
    [
        # v0.22's cuda: add_attr_option<ffi::String>("arch"), <int64_t>("max_num_threads", 1024),
        # <int64_t>("thread_warp_size", 32); arch and max_num_threads since v0.7
        ("cuda", "0.22", "arch", "string", None, "0.7", NEWEST),
        ("cuda", "0.22", "max_num_threads", "int", 1024, "0.7", NEWEST),
        ("cuda", "0.22", "thread_warp_size", "int", 32, "0.7", NEWEST),
        ("cuda", "0.22", "keys", "array<string>", None, "0.7", NEWEST),
        # v0.8 registered shared_memory_per_block; v0.9 renamed it max_shared_memory_per_block
        ("cuda", "0.8", "shared_memory_per_block", "int", None, "0.8", "0.8"),
        ("cuda", "0.22", "max_shared_memory_per_block", "int", None, "0.9", NEWEST),
        # hexagon (v0.7): add_attr_option<Array<String>>("llvm-options")
        ("hexagon", "0.7", "llvm-options", "array<string>", None, "0.7", NEWEST),
        # every kind's system-lib until TVM v0.10 removed it
        ("hybrid", None, "system-lib", "bool", None, "0.7", "0.9"),
    ],
)
def test_kind_attribute(
    kind: str, version: str | None, attr: str, type_: str, default: Any, first: str, last: str
) -> None:
    found = {a.name: a for a in kind_info(kind, version).attrs}[attr]
    assert (found.type, found.default, found.releases[0], found.releases[-1]) == (type_, default, first, last)


@pytest.mark.parametrize(
    ("kind", "version", "releases", "keys", "canonicaliser"),
    [
        ("cuda", "0.22", ("0.7", NEWEST), ("cuda", "gpu"), "UpdateCUDAAttrs"),  # set_target_parser(UpdateCUDAAttrs)
        ("hybrid", None, ("0.7", "0.21"), (), None),  # in v0.21's target_kind.cc, not in v0.22's
        ("hexagon", "0.7", ("0.7", NEWEST), ("hexagon",), None),  # v0.7: set_default_keys({"hexagon"})
        ("llvm", "0.19", ("0.7", NEWEST), ("cpu",), "tvm::target::parsers::cpu::ParseTarget"),
    ],
)
def test_kind(
    kind: str, version: str | None, releases: tuple[str, str], keys: tuple[str, ...], canonicaliser: str | None
) -> None:
    info = kind_info(kind, version)
    assert (info.releases[0], info.releases[-1]) == releases
    assert (info.version, info.default_keys, info.canonicaliser) == (version, keys, canonicaliser)


def test_kind_of_every_release_keeps_attributes_a_release_dropped() -> None:
    names = [attr.name for attr in kind_info("cuda").attrs]
    assert "shared_memory_per_block" in names and "system-lib" in names  # v0.8's, v0.7 - v0.9's
    assert "shared_memory_per_block" not in [attr.name for attr in kind_info("cuda", "0.22").attrs]
    assert "kind" not in names  # v0.24 on lists "kind" among the options: it is no attribute


@pytest.mark.parametrize(
    ("kind", "version", "message"),
    [
        ("cudda", None, "unknown target kind 'cudda'; did you mean 'cuda' or 'cudnn'?"),
        ("hybrid", "0.22", "TVM v0.22 has no kind 'hybrid': TVM v0.7 - v0.21 had it"),
        ("cuda_host", "0.26", f"TVM v0.26 has no kind 'cuda_host': {to_newest('0.27')} had it"),
        ("nvidia/jetson-nano", None, "'nvidia/jetson-nano' is a tag (of kind 'cuda'), not a kind"),
        ("llvmm", "0.8", "unknown target kind 'llvmm' in TVM v0.8; did you mean 'llvm'?"),
    ],
)
def test_unknown_kind(kind: str, version: str | None, message: str) -> None:
    with pytest.raises(UnknownKindError) as caught:
        kind_info(kind, version)
    assert str(caught.value) == message


def test_kinds_of_a_release_without_a_registry() -> None:
    with pytest.raises(ValueError) as caught:
        kind_table("0.6")
    assert str(caught.value) == f"targetlang has the schemas of TVM v0.7 to v{NEWEST}, not '0.6'"


# ------------------------------------------------------------------ tags

# src/target/tag.cc: TVM_REGISTER_CUDA_TAG("nvidia/jetson-nano", "sm_53", 49152, 32768), through
# a macro that in v0.8 wrote shared_memory_per_block and from v0.11 also the keys
JETSON_NANO_022 = {
    "kind": "cuda",
    "keys": ["cuda", "gpu"],
    "arch": "sm_53",
    "max_shared_memory_per_block": 49152,
    "max_threads_per_block": 1024,
    "thread_warp_size": 32,
    "registers_per_block": 32768,
}
JETSON_NANO_08 = {
    "kind": "cuda",
    "arch": "sm_53",
    "shared_memory_per_block": 49152,
    "registers_per_block": 32768,
    "max_threads_per_block": 1024,
    "thread_warp_size": 32,
}


@pytest.mark.parametrize(("version", "config"), [("0.22", JETSON_NANO_022), ("0.8", JETSON_NANO_08)])
def test_tag_config(version: str, config: dict[str, Any]) -> None:
    (tag,) = tag_table("nvidia/jetson-nano", version)
    assert (tag.name, tag.kind, json.loads(json.dumps(tag.config)), tag.version) == (
        "nvidia/jetson-nano",
        "cuda",
        config,
        version,
    )
    assert (tag.releases[0], tag.releases[-1]) == ("0.8", NEWEST)


def test_tags_of_v07() -> None:
    # v0.7's src/target/tag.cc registered one tag, nvidia/rtx2080ti: {kind: cuda, arch: sm_75}
    rtx = {tag.name: tag for tag in tag_table(None, "0.7")}["nvidia/rtx2080ti"]
    assert (dict(rtx.config), rtx.releases) == ({"kind": "cuda", "arch": "sm_75"}, ("0.7",))


@pytest.mark.parametrize(
    ("name", "pattern", "matches"),
    [
        ("nvidia/jetson-nano", "jetson", True),  # a part of the name
        ("nvidia/jetson-nano", "JETSON-Nano", True),  # any case
        ("nvidia/jetson-nano", "nvidia/*", True),  # a glob matches the whole name
        ("nvidia/jetson-nano", "jetson*", False),  # ... so it must start where the name does
        ("nvidia/jetson-nano", "*nano", True),
        ("nvidia/jetson-tx1", "nvidia/jetson-tx[12]", True),
        ("nvidia/jetson-tx1", "nvidia/jetson-tx?", True),
        ("nvidia/jetson-nano", "nvidia/jetson-tx?", False),
        ("apple/m1-gpu", "m2", False),
    ],
)
def test_tag_matches(name: str, pattern: str, matches: bool) -> None:
    assert tag_matches(name, pattern) is matches


def test_tag_table_pattern() -> None:
    # v0.22's tag.cc: jetson-nano, -tx2, -tx1 (TVM_REGISTER_CUDA_TAG) and the Orin tags of
    # TVM_REGISTER_JETSON_ORIN... or none: the names are checked by the glob alone
    names = [tag.name for tag in tag_table("nvidia/jetson-t*", "0.22")]
    assert names == ["nvidia/jetson-tx1", "nvidia/jetson-tx2"]
    assert tag_table("no-such-tag") == ()


# ------------------------------------------------------------------ explain


def rows(spec: str, **options: Any) -> dict[str, tuple[Any, str]]:
    return {row.name: (row.value, row.origin) for row in explain(spec, **options).rows}


@pytest.mark.parametrize(
    ("spec", "version", "expected"),
    [
        # cuda: default keys cuda,gpu; thread_warp_size 32 and max_num_threads 1024 are defaults
        (
            "cuda -arch=sm_80",
            None,
            {
                "keys": (["cuda", "gpu"], "default"),
                "arch": ("sm_80", "written"),
                "thread_warp_size": (32, "default"),
                "max_num_threads": (1024, "default"),
            },
        ),
        # UpdateCUDAAttrs: without a GPU to ask, -arch=sm_50
        (
            "cuda",
            None,
            {
                "keys": (["cuda", "gpu"], "default"),
                "arch": ("sm_50", "canonicaliser"),
                "thread_warp_size": (32, "default"),
                "max_num_threads": (1024, "default"),
            },
        ),
        # parsers/mprofile.cc: cortex-m4 is an M-profile CPU, whose keys are arm_cpu,cpu
        (
            "llvm -mcpu=cortex-m4",
            None,
            {"keys": (["arm_cpu", "cpu"], "canonicaliser"), "mcpu": ("cortex-m4", "written")},
        ),
        # parsers/aprofile.cc: an aarch64 triple gets arm_cpu,cpu too
        (
            "llvm -mtriple=aarch64-linux-gnu",
            None,
            {"keys": (["arm_cpu", "cpu"], "canonicaliser"), "mtriple": ("aarch64-linux-gnu", "written")},
        ),
        # the CPU parser fills mtriple with the host's triple: none on a machine without LLVM
        ("llvm", None, {"keys": (["cpu"], "default"), "mtriple": ("", "canonicaliser")}),
        # the device's key comes before the kind's default keys (target.cc)
        (
            "opencl -device=mali",
            None,
            {
                "keys": (["mali", "opencl", "gpu"], "default"),
                "device": ("mali", "written"),
                "max_threads_per_block": (256, "default"),
                "max_shared_memory_per_block": (16384, "default"),
                "max_num_threads": (256, "default"),
                "thread_warp_size": (1, "default"),
                "texture_spatial_limit": (16384, "default"),
                "max_function_args": (128, "default"),
                "image_base_address_alignment": (64, "default"),
            },
        ),
        # given keys replace the defaults, the device's key is added
        (
            "llvm -keys=foo -device=arm_cpu -mcpu=skylake",
            None,
            {"keys": (["foo", "arm_cpu"], "written"), "device": ("arm_cpu", "written"), "mcpu": ("skylake", "written")},
        ),
        # a tag's values (tag.cc's jetson-nano), over which the JSON's own are written
        (
            "nvidia/jetson-nano",
            None,
            {
                "keys": (["cuda", "gpu"], "tag"),
                "arch": ("sm_53", "tag"),
                "max_shared_memory_per_block": (49152, "tag"),
                "max_threads_per_block": (1024, "tag"),
                "thread_warp_size": (32, "tag"),
                "registers_per_block": (32768, "tag"),
                "max_num_threads": (1024, "default"),
            },
        ),
        (
            '{"tag": "nvidia/jetson-nano", "arch": "sm_62"}',
            None,
            {
                "keys": (["cuda", "gpu"], "tag"),
                "tag": ("nvidia/jetson-nano", "written"),
                "arch": ("sm_62", "written"),
                "max_shared_memory_per_block": (49152, "tag"),
                "max_threads_per_block": (1024, "tag"),
                "thread_warp_size": (32, "tag"),
                "registers_per_block": (32768, "tag"),
                "max_num_threads": (1024, "default"),
            },
        ),
        # v0.8's cuda: max_num_threads 1024 and thread_warp_size 32, no canonicaliser yet
        (
            "cuda -shared_memory_per_block=49152",
            "0.8",
            {
                "keys": (["cuda", "gpu"], "default"),
                "max_num_threads": (1024, "default"),
                "thread_warp_size": (32, "default"),
                "shared_memory_per_block": (49152, "written"),
            },
        ),
        # v0.9's llvm: add_attr_option<Bool>("link-params", Bool(false))
        (
            "llvm -system-lib -mcpu=skylake",
            "0.9",
            {
                "keys": (["cpu"], "default"),
                "mcpu": ("skylake", "written"),
                "system-lib": (True, "written"),
                "link-params": (False, "default"),
            },
        ),
    ],
)
def test_explain_origins(spec: str, version: str | None, expected: dict[str, tuple[Any, str]]) -> None:
    assert rows(spec, tvm_version=version) == expected


def test_explain_features_of_cortex_m4() -> None:
    # parsers/mprofile.cc: cortex-m4 is among dspCPUs, not mveCPUs
    assert explain("llvm -mcpu=cortex-m4").features == {"has_dsp": True, "has_mve": False}


def test_explain_nested_targets_are_written_values() -> None:
    found = explain("cuda -host=llvm")
    host = found.row("host")
    assert (host.origin, host.type, host.value) == (
        "written",
        "target",
        {"kind": "llvm", "keys": ["cpu"], "mtriple": ""},
    )
    devices = explain("composite -devices=cuda,llvm").row("devices")
    assert (devices.origin, devices.type) == ("written", "array<target>")


@pytest.mark.parametrize(
    ("spec", "version", "name", "modern", "fate", "migration", "rules"),
    [
        ("cuda -arch=sm_80", None, "arch", "arch", "kept", "written", ()),
        ("cuda -arch=sm_80", None, "max_num_threads", "max_num_threads", "the same default", "not written", ()),
        ("cuda -arch=sm_80", None, "keys", "keys", "the same keys", "not written", ()),
        # TVM 0.27's canonicalizer/llvm/arm_mprofile.cc adds arm_cpu,cpu as v0.22's parser did
        ("llvm -mcpu=cortex-m4", None, "keys", "keys", "the same keys, from its canonicaliser", "not written", ()),
        (
            "cuda -shared_memory_per_block=49152",
            "0.8",
            "shared_memory_per_block",
            "max_shared_memory_per_block",
            "renamed 'max_shared_memory_per_block'",
            "written as 'max_shared_memory_per_block'",
            ("shared-memory-renamed",),
        ),
        (
            "llvm -system-lib -mcpu=skylake",
            "0.9",
            "system-lib",
            None,
            "removed; moved to the runtime: relay.backend.Runtime('cpp', {'system-lib': True}), or system_lib=True"
            " in tvm.relax.build",
            "stops the migration (removed-attribute)",
            ("removed-attribute",),
        ),
        (
            "llvm -system-lib -mcpu=skylake",
            "0.9",
            "mcpu",
            "mcpu",
            "kept",
            "would be written, but the target does not migrate",
            (),
        ),
        ("llvm -system-lib=0 -mcpu=skylake", "0.9", "system-lib", None, None, "dropped", ("removed-attribute",)),
        # v0.9 - v0.23 read -libs=mkldnn as dnnl; TVM 0.27 does not
        ("llvm -libs=mkldnn", None, "libs", "libs", "kept", "written", ("mkldnn-to-dnnl",)),
        # TVM v0.6 - v0.9 appended the default keys to given ones: migration writes them out
        ("opencl -keys=mali", "0.8", "keys", "keys", "kept", 'written as ["mali", "opencl", "gpu"]', ("era-keys",)),
        ("hybrid", "0.20", "keys", None, f"its kind is not in TVM {NEWEST}", "not written", ()),
    ],
)
def test_explain_fate_and_migration(
    spec: str,
    version: str | None,
    name: str,
    modern: str | None,
    fate: str | None,
    migration: str,
    rules: tuple[str, ...],
) -> None:
    row = explain(spec, tvm_version=version).row(name)
    assert (row.modern_name, row.migration, row.rules) == (modern, migration, rules)
    if fate is not None:
        assert row.fate == fate


@pytest.mark.parametrize(
    ("spec", "version", "kind_fate", "migrated"),
    [
        ("cuda -arch=sm_80", None, "kept", {"kind": "cuda", "arch": "sm_80"}),
        ("hybrid", "0.20", "removed in TVM v0.22; no replacement", None),
        ("llvm -system-lib -mcpu=skylake", "0.9", "kept", None),
        ("cuda -shared_memory_per_block=49152", "0.8", "kept", {"kind": "cuda", "max_shared_memory_per_block": 49152}),
    ],
)
def test_explain_kind_and_migration(spec: str, version: str | None, kind_fate: str, migrated: Any) -> None:
    found = explain(spec, tvm_version=version)
    assert (found.kind_fate, found.migrated) == (kind_fate, migrated)


def test_explain_takes_a_mapping_and_a_target() -> None:
    from_text = explain('{"kind": "cuda", "arch": "sm_80"}').rows
    assert explain({"kind": "cuda", "arch": "sm_80"}).rows == from_text
    assert explain(parse('{"kind": "cuda", "arch": "sm_80"}')).rows == from_text


def test_explain_errors_are_target_errors() -> None:
    with pytest.raises(TargetError) as caught:
        explain("llvm -system-lib")
    assert caught.value.message == "kind 'llvm' has no attribute 'system-lib' since TVM v0.10 (TVM v0.7 - v0.9 had it)"
    with pytest.raises(TargetError, match="invalid CUDA arch"):
        explain("cuda -arch=80")


# ------------------------------------------------------------------ diff


@pytest.mark.parametrize(
    ("spec", "package"),
    [
        # python/tvm/autotvm/tophub.py (v0.19): the device, then the keys, then the kind, aliased
        ("llvm", "llvm"),
        ("llvm -device=arm_cpu", "arm_cpu"),
        ("llvm -mtriple=aarch64-linux-gnu", "arm_cpu"),  # the first key
        ("c", None),  # keys cpu, kind c: no package
        ("cuda", "cuda"),
        ("nvptx", "cuda"),  # its first key, cuda
        ("vulkan", "opencl"),  # _alias: vulkan is opencl
        ("webgpu", "opencl"),
        ("metal", None),  # v0.7 aliased metal to opencl; v0.8 on did not
        ("opencl -device=mali", "mali"),
        ("llvm -device=vtacpu", "vta"),
        ("rocm", "rocm"),
        ("hexagon", None),
    ],
)
def test_tophub_package(spec: str, package: str | None) -> None:
    assert tophub_package(parse(spec).resolve()) == package


@pytest.mark.parametrize(
    ("a", "b", "changes", "autotvm"),
    [
        # ApplyHistoryBest: model, then the keys (cpu for both): mcpu is not looked at
        ("llvm -mcpu=a", "llvm -mcpu=b", [("mcpu", "a", "b")], True),
        ("llvm -device=arm_cpu", "llvm", [("keys", ["arm_cpu", "cpu"], ["cpu"]), ("device", "arm_cpu", None)], False),
        ("llvm -model=rk3399", "llvm -model=rk3588", [("model", "rk3399", "rk3588")], False),
        ("llvm", "llvm -model=x", [("model", None, "x")], False),  # 'unknown' against 'x'
        ("c", "llvm", [("kind", "c", "llvm"), ("mtriple", None, "")], False),  # TopHub: none against llvm
        # keys cuda,gpu for both, TopHub cuda for both: the kind is not what AutoTVM looks up
        (
            "nvptx",
            "cuda",
            [
                ("kind", "nvptx", "cuda"),
                ("mtriple", "nvptx64-nvidia-cuda", None),  # UpdateNVPTXAttrs
                ("mcpu", "sm_50", None),  # UpdateNVPTXAttrs without a GPU
                ("arch", None, "sm_50"),  # UpdateCUDAAttrs without a GPU
            ],
            True,
        ),
        ("vulkan", None, None, False),  # keys vulkan,gpu against opencl,gpu (see below)
        # the same keys, but TopHub takes the device first: mali against cuda
        ("opencl -keys=cuda,mali -device=mali", "opencl -keys=cuda,mali", [("device", "mali", None)], False),
        ("cuda", "cuda -arch=sm_50", [], True),  # UpdateCUDAAttrs's default
        ("llvm -libs=a,b", "llvm -libs=b,a", [], True),  # libs is unordered
        ("llvm -mattr=+a,+b", "llvm -mattr=+b,+a", [("mattr", ["+a", "+b"], ["+b", "+a"])], True),  # mattr is not
    ],
)
def test_diff(a: str, b: str | None, changes: list[tuple[str, Any, Any]] | None, autotvm: bool) -> None:
    found = diff(a, b or "opencl")
    if changes is not None:  # the order of the attributes is checked in test_diff_sides
        assert sorted((c.name, c.a, c.b) for c in found.changes) == sorted(changes)
        assert found.equal is (not changes)
    assert found.same_autotvm_dispatch is autotvm
    # meta-schedule's QueryTuningRecord never reads the target (src/meta_schedule/database/database.cc)
    assert found.same_meta_schedule_dispatch is True


def test_diff_sides() -> None:
    found = diff("llvm -device=arm_cpu -mcpu=a", "llvm -mcpu=b -model=x")
    assert [c.name for c in found.removed] == ["device"]
    assert [c.name for c in found.added] == ["model"]
    assert [c.name for c in found.changed] == ["keys", "mcpu"]


def test_diff_reasons() -> None:
    same = diff("llvm -mcpu=a", "llvm -mcpu=b")
    assert same.autotvm.reasons == (
        "model 'unknown', keys cpu and TopHub package 'llvm' for both; it does not look at mcpu",
    )
    assert (
        same.meta_schedule.reasons[1] == "records tuned for either are applied to the other, though they differ in mcpu"
    )
    model = diff("llvm -model=a", "llvm")
    assert model.autotvm.reasons == ("model 'a' against 'unknown': ApplyHistoryBest looks records up by model first",)
    assert diff("cuda", "cuda").reasons == (
        "model 'unknown', keys cuda,gpu and TopHub package 'cuda' for both",
        "its database looks records up by workload alone: the target is stored with each record and never compared",
    )


def test_diff_reads_as_a_release() -> None:
    # v0.8 read shared_memory_per_block; v0.22 does not
    found = diff("cuda -shared_memory_per_block=1", "cuda", tvm_version="0.8")
    assert ([(c.name, c.a, c.b) for c in found.changes], found.version) == (
        [("shared_memory_per_block", 1, None)],
        "0.8",
    )
    with pytest.raises(TargetError):
        diff("cuda -shared_memory_per_block=1", "cuda")


# ------------------------------------------------------------------ the commands


def test_json_outputs(tl: Run) -> None:
    status, out, err = tl("kinds", "--json", "--tvm-version", "0.7", "hybrid")
    data = json.loads(out)
    assert (status, err, data["kind"], data["version"], data["releases"][-1]) == (0, "", "hybrid", "0.7", "0.21")
    assert {"name": "system-lib", "type": "bool", "default": None, "releases": ["0.7", "0.8", "0.9"]} in data[
        "attributes"
    ]
    status, out, err = tl("kinds", "--json", "--tvm-version", "0.7")
    assert (status, err) == (0, "")
    assert {kind["kind"] for kind in json.loads(out)["kinds"]} == V07_KINDS
    status, out, err = tl("tags", "--json", "--tvm-version", "0.22", "jetson-nano")
    assert (status, err, json.loads(out)) == (
        0,
        "",
        {
            "version": "0.22",
            "pattern": "jetson-nano",
            "tags": [
                {"tag": "nvidia/jetson-nano", "releases": TAG_RELEASES, "version": "0.22", "config": JETSON_NANO_022}
            ],
        },
    )
    status, out, err = tl("explain", "--json", "cuda", "-arch=sm_80")
    data = json.loads(out)
    assert (status, err, data["migrated"]) == (0, "", {"kind": "cuda", "arch": "sm_80"})
    assert data["rows"][-1] == {
        "name": "max_num_threads",
        "value": 1024,
        "type": "int",
        "origin": "default",
        "note": None,
        "modern_name": "max_num_threads",
        "fate": "the same default",
        "migration": "not written",
        "rules": [],
    }
    status, out, err = tl("diff", "--json", "llvm -mcpu=a", "llvm -mcpu=b")
    data = json.loads(out)
    # they differ: exit status 1, as diff(1)'s
    assert (status, err, data["equal"], data["changes"]) == (1, "", False, [{"name": "mcpu", "a": "a", "b": "b"}])
    assert (data["autotvm"]["same"], data["meta_schedule"]["same"]) == (True, True)


TAG_RELEASES = [f"0.{minor}" for minor in range(8, NEWEST_MINOR + 1)]  # jetson-nano: tag.cc from v0.8 on


@pytest.mark.parametrize(
    ("argv", "error"),
    [
        (["kinds", "cudda"], "error: unknown target kind 'cudda'; did you mean 'cuda' or 'cudnn'?\n"),
        (["kinds", "--tvm-version", "0.6"], f"error: targetlang has the schemas of TVM v0.7 to v{NEWEST}, not '0.6'\n"),
        (
            ["tags", "jetsn"],
            "error: no tag matches 'jetsn'; did you mean 'nvidia/jetson-tx2' or 'nvidia/jetson-tx1' or "
            "'nvidia/jetson-nano'?\n",
        ),
        (["tags", "--tvm-version", "0.7", "jetson"], "error: no tag of TVM v0.7 matches 'jetson'\n"),
        (
            ["--registry", "reg.toml", "kinds"],
            "error: --registry adds kinds and tags for reading targets; 'targetlang kinds' lists TVM's own\n",
        ),
        (
            ["explain", "llvm", "-mcpux=a"],
            "error: kind 'llvm' has no attribute 'mcpux'; did you mean 'mcpu'?\n  llvm -mcpux=a\n        ^^^^^\n",
        ),
    ],
)
def test_bad_input_exits_1(
    tl: Run, argv: list[str], error: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert tl(*argv) == (1, "", error)


@pytest.mark.parametrize(
    ("argv", "error"),
    [
        (["diff", "-", "-"], "error: only one of A and B can be read from standard input ('-')\n"),
        (
            ["diff", "cuda -arch=80", "cuda"],
            "error: CUDA target gets an invalid CUDA arch: -arch=80\n  cuda -arch=80\n             ^^\n",
        ),
    ],
)
def test_diff_that_cannot_compare_exits_2(tl: Run, argv: list[str], error: str) -> None:
    # as diff(1): 1 says the targets differ, so trouble is 2
    assert tl(*argv) == (2, "", error)


@pytest.mark.parametrize(
    "argv",
    [["explain"], ["explain", "--tvm-version", "0.8"], ["diff", "llvm"], ["kinds", "--jso"], ["tags", "a", "b"]],
)
def test_usage_errors_exit_2(tl: Run, argv: list[str]) -> None:
    status, out, err = tl(*argv)
    assert (status, out) == (2, "")
    assert err.startswith("usage: targetlang") and "Traceback" not in err


def test_spec_from_standard_input(tl: Run) -> None:
    status, out, err = tl("explain", "-", stdin=b"cuda -arch=sm_80\n")
    assert (status, err, out.split("\n")[0]) == (
        0,
        "",
        f"cuda -arch=sm_80: kind 'cuda', read as TVM v0.22 read it; in TVM {NEWEST}: kept",
    )
    status, out, err = tl("diff", "-", "llvm -mcpu=b", stdin=b"llvm -mcpu=a\n")
    assert (status, err, out.split("\n")[:3]) == (1, "", ["a: llvm -mcpu=a", "b: llvm -mcpu=b", '~ mcpu: "a" -> "b"'])


@pytest.mark.parametrize("command", COMMANDS)
def test_help_examples_are_real(tl: Run, command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, err = tl(command, "--help")
    assert (status, err) == (0, "")
    steps = transcript(help_examples(out))
    assert len(steps) == 2
    monkeypatch.chdir(tmp_path)
    replay(steps, tl, f"help of {command}")


def test_docs_examples_are_real(tl: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    steps = transcript(console_lines(DOCS))
    assert {command.split()[1] for command, _ in steps} == set(COMMANDS)
    monkeypatch.chdir(tmp_path)
    replay(steps, tl, "docs/inspection.md", [DOCS])
