"""The target finder of tests/fixproof and the proof data it was used on (tests/data/fix)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.fixproof import compare
from tests.fixproof.targets_in_source import (
    Site,
    legacy_api_uses,
    looks_like_target,
    sites_of_file,
    targets_in_source,
    targets_in_text,
)

DATA = Path(__file__).resolve().parents[1] / "data" / "fix"


def found(source: str) -> list[tuple[str, str, Any]]:
    return [(site.role, site.source, site.value) for site in targets_in_source(source)]


def test_target_arguments_and_host() -> None:
    source = 'import tvm\nt = tvm.target.Target("cuda -arch=sm_80", host="llvm -mcpu=skylake")\n'
    assert found(source) == [
        ("Target", '"cuda -arch=sm_80"', "cuda -arch=sm_80"),
        ("Target.host", '"llvm -mcpu=skylake"', "llvm -mcpu=skylake"),
    ]
    assert found('Target("opencl", "llvm -mtriple=aarch64-linux-gnu")')[1][0] == "Target.host"


def test_positions() -> None:
    source = """
import tvm
from tvm.script import ir as I, tir as T

@tvm.testing.parametrize_targets("llvm", {"kind": "vulkan", "from_device": 0})
def test(target):
    f = tvm.compile(mod, "llvm -num-cores=4")
    g = ms.tune_tir(mod=m, target="llvm -num-cores=1", target_host=host)
    d = VDevice("cuda -arch=sm_80", 0)
    e = I.vdevice({"kind": "cuda", "arch": "sm_80"}, 0)
    T.func_attr({"target": T.target("cuda", host="llvm -opt-level=0")})
"""
    assert [(role, value) for role, _, value in found(source)] == [
        ("parametrize_targets", "llvm"),
        ("parametrize_targets", {"kind": "vulkan", "from_device": 0}),
        ("build", "llvm -num-cores=4"),
        ("keyword", "llvm -num-cores=1"),
        ("keyword", None),  # target_host=host: an expression at a target position
        ("VDevice", "cuda -arch=sm_80"),
        ("VDevice", {"kind": "cuda", "arch": "sm_80"}),
        ("T.target", "cuda"),
        ("T.target", "llvm -opt-level=0"),
    ]


def test_constants_assignments_and_loose_literals() -> None:
    source = """
DEFAULT_TARGET = "llvm"
AVX512 = {"kind": "llvm", "mcpu": "skylake-avx512"}
NAME = "llvm"
TARGETS = ["llvm", "vulkan -from_device=0"]

class C:
    host_target = "llvm -mtriple=aarch64-linux-gnu"

def f(target="llvm -num-cores=4"):
    target = "llvm -mtriple=%s-linux-android" % arch
    x = check("llvm -mcpu=core-avx2", 8)
    y = tvm.device("cuda")
    z = rpc.connect_tracker(host="localhost")
    return "nvidia/geforce-rtx-3080"
"""
    assert [(role, source) for role, source, _ in found(source)] == [
        ("constant", '"llvm"'),
        ("constant", '{"kind": "llvm", "mcpu": "skylake-avx512"}'),
        ("constant", '"llvm"'),
        ("constant", '"vulkan -from_device=0"'),
        ("constant", '"llvm -mtriple=aarch64-linux-gnu"'),
        ("keyword", '"llvm -num-cores=4"'),
        ("assign", '"llvm -mtriple=%s-linux-android" % arch'),
        ("literal", '"llvm -mcpu=core-avx2"'),
        ("literal", '"nvidia/geforce-rtx-3080"'),
    ]
    # NAME = "llvm" is a bare kind under a name that does not say target: not reported
    sites = targets_in_source(source)
    assert sites[6].literal is False and sites[6].value is None


def test_helpers() -> None:
    source = """
import tvm
from tvm import target
from tvm.target import arm_cpu as arm
a = tvm.target.cuda()
b = arm("rasp3b")
c = target.hexagon("v68", vtcm_capacity=4 * 2**20)
d = Target.canon_target(t)
e = tvm.target.Target(tvm.target.hexagon("v69"), host="llvm")
"""
    helpers = [(s.source, s.call) for s in targets_in_source(source) if s.role == "helper"]
    assert helpers == [
        ("tvm.target.cuda()", "tvm.target.cuda"),
        ('arm("rasp3b")', "arm"),
        ('target.hexagon("v68", vtcm_capacity=4 * 2**20)', "target.hexagon"),
        ("Target.canon_target(t)", "Target.canon_target"),
        ('tvm.target.hexagon("v69")', "tvm.target.hexagon"),
    ]


def test_values_are_folded() -> None:
    source = """
t = Target(" ".join(["vulkan", "-supports_int8=1"]))
u = Target({"tag": "qcom/hexagon-v69", "vtcm-capacity": 4 * 2**20})
v = Target("llvm " "-mcpu=skylake")
w = Target(f"{kind} -mcpu=cortex-m55")
"""
    sites = targets_in_source(source)
    assert [(s.value, s.folded, s.literal) for s in sites] == [
        ("vulkan -supports_int8=1", True, True),
        ({"tag": "qcom/hexagon-v69", "vtcm-capacity": 4194304}, True, True),
        ("llvm -mcpu=skylake", False, True),
        (None, False, False),
    ]


def test_pieces_of_built_strings_are_not_targets() -> None:
    source = 'tag = "qcom/hexagon-" + version\nmsg = f"llvm -mtriple={triple} failed"\n'
    # the tag built at run time is a target (not a literal); its piece is not one on its own, and
    # a message that only starts like a target is not one
    assert found(source) == [("constant", '"qcom/hexagon-" + version', None)]


def test_columns_are_characters_and_segments_exact() -> None:
    source = 'x = "é"; t = Target("llvm -mcpu=é")\n'
    (site,) = [s for s in targets_in_source(source) if s.role == "Target"]
    assert source[site.col : site.end_col] == site.source == '"llvm -mcpu=é"'
    assert (site.line, site.col) == (1, 20)


def test_comments_docstrings_and_text() -> None:
    source = '''"""Run with target="llvm -num-cores 16"."""
# The target should be 'llvm -mtriple=armv7l-linux-gnueabihf' for Raspberry Pi, 'llvm' here
#   {"kind": "llvm", "mtriple": "aarch64-linux-gnu", "mattr": "+neon"}
'''
    sites = sites_of_file("a.py", source)
    assert [(s.role, s.line, s.value) for s in sites] == [
        ("docstring", 1, "llvm -num-cores 16"),
        ("comment", 2, "llvm -mtriple=armv7l-linux-gnueabihf"),
        ("comment", 3, {"kind": "llvm", "mtriple": "aarch64-linux-gnu", "mattr": "+neon"}),
    ]
    lines = source.splitlines()
    for site in sites:
        assert lines[site.line - 1][site.col : site.end_col] == site.source


def test_shell_target_lists() -> None:
    text = """export TVM_TEST_TARGETS='cuda;nvptx;{"kind":"opencl","device":"mali"}'\n"""
    text += 'export TVM_TEST_TARGETS="vulkan -from_device=0"\n'
    sites = targets_in_text(text, "shell")
    assert [(s.line, s.value) for s in sites] == [
        (1, "cuda"),
        (1, "nvptx"),
        (1, '{"kind":"opencl","device":"mali"}'),
        (2, "vulkan -from_device=0"),
    ]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("llvm -mcpu=skylake", True),
        ("llvm", False),
        ("nvidia/geforce-rtx-3080", True),
        ("float32/int8", False),
        ('{"kind": "cuda"}', True),
        ({"tag": "qcom/hexagon-v68"}, True),
        ({"dtype": "float32"}, False),
        ("llvm_options", False),
        ("llvm -mtriple=x86_64 failed to build", False),
        ("vulkan -device_name='Name of GPU' -device_type=discrete", True),
        ("cuda --host llvm", True),
        ("llvm -num-cores 16", True),
    ],
)
def test_looks_like_target(value: Any, expected: bool) -> None:
    assert looks_like_target(value) is expected


def test_legacy_api_uses() -> None:
    source = "n = target.max_num_threads\nok = 'thrust' in target.libs\nt = tvm.target.rocm()\n"
    assert [(u.role, u.source) for u in legacy_api_uses(source)] == [
        ("property", "target.max_num_threads"),
        ("property", "target.libs"),
        ("helper", "tvm.target.rocm()"),
    ]


# --- the data ------------------------------------------------------------------------------------


def test_every_file_has_both_versions_and_is_in_the_manifest() -> None:
    manifest = json.loads((DATA / "manifest.json").read_text(encoding="utf-8"))
    listed = {f"{c['short']}/{f['name']}" for c in manifest["commits"] for f in c["files"]}
    on_disk = {p.relative_to(DATA).as_posix().removesuffix(".before") for p in DATA.glob("*/*.before")}
    assert listed == on_disk
    for name in listed:
        assert (DATA / f"{name}.after").is_file()


@pytest.mark.parametrize("name", ["tvm027-after.jsonl", "tvm027-before-migrated.jsonl"])
def test_recordings_match_the_finder(name: str) -> None:
    """Each recorded target is still found where it was recorded, with the same text: the
    recordings were made with this finder and stay keyed to it."""
    records = [json.loads(line) for line in (DATA / name).read_text(encoding="utf-8").splitlines()]
    by_file: dict[str, list[Site]] = {}
    for record in records:
        if record["file"] not in by_file:
            path = DATA / record["file"]
            by_file[record["file"]] = sites_of_file(path.name, path.read_text(encoding="utf-8"))
        sites = {(s.line, s.col): s for s in by_file[record["file"]]}
        site = sites.get((record["line"], record["column"]))
        assert site is not None and site.source == record["expr"], record["file"]


def test_findings_are_current() -> None:
    pairs, stats = compare.all_pairs()
    assert (DATA / "FINDINGS.md").read_text(encoding="utf-8") == compare.report(pairs, stats) + "\n"
