"""targetlang/data/tvm-schemas.json (extracted from TVM's source by tests/oracle/extract_schemas.py)
against what real TVM registers, recorded by tests/oracle/record_schemas.py under TVM v0.19.0, v0.21.0
and apache-tvm 0.27.0.post1 into tests/data/oracle/schemas-v0.XX.json.

Exceptions are listed next to their reason; each names the exact kinds/attributes it excuses.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from .newest import NEWEST_MINOR

GOLDENS = Path(__file__).resolve().parent / "data" / "oracle"
ORACLE_RELEASES = ["0.19", "0.21", "0.27"]

# The oracles' names of the attribute types (0.19 and 0.21 print "Array" without its element type).
TYPE_NAMES: dict[str, dict[str, str]] = {
    "0.19": {
        "string": "runtime.String",
        "int": "runtime.BoxInt",
        "bool": "runtime.BoxBool",
        "array<string>": "Array",
        "array<target>": "Array",
        "target": "Target",
    },
    "0.21": {
        "string": "ffi.String",
        "int": "int",
        "bool": "bool",
        "array<string>": "ffi.Array",
        "array<target>": "ffi.Array",
        "target": "target.Target",
    },
    "0.27": {
        "string": "str",
        "int": "int",
        "bool": "bool",
        "array<string>": "Array<str>",
        "array<target>": "Array<target.Target>",
        "target": "target.Target",
    },
}

# Kinds registered in src/relay/backend/contrib/<dir>/ that v0.19's CMake compiles only with a build
# option (cmake/modules/contrib/CLML.cmake USE_CLML, CUDA.cmake USE_CUDNN/USE_CUBLAS, CUTLASS.cmake
# USE_CUTLASS, Mrvl.cmake USE_MRVL, TensorRT.cmake USE_TENSORRT_CODEGEN); the oracle's build has none.
BUILD_OPTION_KINDS: dict[str, set[str]] = {
    "0.19": {"clml", "cublas", "cudnn", "cutlass", "mrvl", "tensorrt"},
    "0.21": set(),
    "0.27": set(),
}

# Attributes without a registered default that Target({"kind": k}) nevertheless exports: the kind's
# target parser / canonicaliser fills them in (host triple, the GPU arch detected or assumed on this
# GPU-less machine: sm_50, gfx900). The source extraction cannot know these values.
CANONICALISER_FILLS: dict[str, set[tuple[str, str]]] = {
    release: {
        ("llvm", "mtriple"),
        ("cuda", "arch"),
        ("nvptx", "mcpu"),
        ("nvptx", "mtriple"),
        ("rocm", "mcpu"),
        ("rocm", "mtriple"),
    }
    for release in ORACLE_RELEASES
}


@cache
def schemas() -> dict[str, Any]:
    text = resources.files("targetlang").joinpath("data", "tvm-schemas.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


@cache
def oracle(release: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((GOLDENS / f"schemas-v{release}.json").read_text(encoding="utf-8"))
    return data


def kinds_at(release: str) -> dict[str, dict[str, Any]]:
    return {n: v for n, vs in schemas()["kinds"].items() for v in vs if release in v["releases"]}


def tags_at(release: str) -> dict[str, dict[str, Any]]:
    return {n: v["config"] for n, vs in schemas()["tags"].items() for v in vs if release in v["releases"]}


def attr_names(kind: dict[str, Any]) -> list[str]:
    return [a[0] for a in kind["attrs"]]


# ----------------------------------------------------------------------------- the file itself


def test_releases_and_variants_are_well_formed() -> None:
    data = schemas()
    assert data["releases"] == [f"0.{n}" for n in range(7, NEWEST_MINOR + 1)]
    assert "extract_schemas.py" in data["source"]
    for section in ("kinds", "tags"):
        for name, variants in data[section].items():
            seen = [r for v in variants for r in v["releases"]]
            assert len(seen) == len(set(seen)), (section, name)  # each release in one variant at most
            assert all(r in data["releases"] for r in seen)
            bodies = [json.dumps({k: x for k, x in v.items() if k != "releases"}, sort_keys=True) for v in variants]
            assert len(bodies) == len(set(bodies)), (section, name)  # deduplicated


def test_every_release_has_kinds_and_tags() -> None:
    for release in schemas()["releases"]:
        assert {"llvm", "c", "cuda"} <= set(kinds_at(release)), release
        assert tags_at(release), release


# ----------------------------------------------------------------------------- against real TVM


@pytest.mark.parametrize("release", ORACLE_RELEASES)
def test_kind_names_match_real_tvm(release: str) -> None:
    extracted, real = set(kinds_at(release)), set(oracle(release)["kinds"])
    assert real - extracted == set()
    assert extracted - real == BUILD_OPTION_KINDS[release]
    for name in BUILD_OPTION_KINDS[release]:
        assert kinds_at(release)[name]["file"].startswith(f"src/relay/backend/contrib/{name}/")


@pytest.mark.parametrize("release", ORACLE_RELEASES)
def test_attribute_names_and_types_match_real_tvm(release: str) -> None:
    kinds = kinds_at(release)
    for name, real in oracle(release)["kinds"].items():
        extracted = sorted([a[0], TYPE_NAMES[release][a[1]]] for a in kinds[name]["attrs"])
        assert extracted == real["options"], name


@pytest.mark.parametrize("release", ORACLE_RELEASES)
def test_default_keys_and_device_types_match_real_tvm(release: str) -> None:
    kinds = kinds_at(release)
    for name, real in oracle(release)["kinds"].items():
        assert kinds[name]["default_keys"] == real["default_keys"], name
        assert kinds[name]["device_type"] == real["device_type"], name


@pytest.mark.parametrize("release", ORACLE_RELEASES)
def test_defaults_match_real_tvm(release: str) -> None:
    kinds = kinds_at(release)
    checked = 0
    for name, real in oracle(release)["kinds"].items():
        exported = real["export"]
        for attr, _type, default in kinds[name]["attrs"]:
            if attr in ("kind", "tag", "keys"):
                continue  # structural: always exported
            if default is not None:
                assert exported.get(attr) == default, (name, attr)
                checked += 1
            elif (name, attr) not in CANONICALISER_FILLS[release]:
                assert attr not in exported, (name, attr, exported.get(attr))
        assert exported["keys"][: len(kinds[name]["default_keys"])] == kinds[name]["default_keys"], name
    assert checked > 10
    # every excused attribute is really filled in by that release's TVM
    for name, attr in CANONICALISER_FILLS[release]:
        assert attr in oracle(release)["kinds"][name]["export"], (name, attr)


def expect_tag(config: dict[str, Any], exported: dict[str, Any], kinds: dict[str, dict[str, Any]], path: str) -> None:
    """A tag's config, once Target construction added its kind's defaults and keys, is what TVM exports."""
    kind = kinds[config["kind"]]
    defaults = {a: d for a, _t, d in kind["attrs"] if d is not None}
    for key, value in config.items():
        if key == "host":
            expect_tag(value, exported["host"], kinds, f"{path}.host")
        elif key == "keys":
            assert exported["keys"][: len(value)] == value, path  # the device and default keys follow
        else:
            assert exported.get(key) == value, (path, key)
    if "keys" not in config:
        assert exported["keys"][-len(kind["default_keys"]) :] == kind["default_keys"] or not kind["default_keys"]
    for key, value in exported.items():
        if key in config or key in ("tag", "keys"):
            continue
        if config["kind"] == "llvm" and key.startswith("feature."):
            # 0.27's llvm canonicaliser adds the target's feature.* flags (computed by LLVM) to
            # every llvm target; the source gives no such attributes.
            continue
        assert key in defaults and defaults[key] == value, (path, key, value)


@pytest.mark.parametrize("release", ORACLE_RELEASES)
def test_tags_match_real_tvm(release: str) -> None:
    tags, real = tags_at(release), oracle(release)["tags"]
    assert sorted(tags) == sorted(real)
    kinds = kinds_at(release)
    for name, config in tags.items():
        expect_tag(config, real[name], kinds, name)


def test_feature_flags_are_the_only_canonicaliser_additions_to_tags() -> None:
    features = {k for t in oracle("0.27")["tags"].values() for k in t if k.startswith("feature.")}
    assert features and all(k.startswith("feature.") for k in features)
    assert not any(k.startswith("feature.") for r in ("0.19", "0.21") for t in oracle(r)["tags"].values() for k in t)


# ----------------------------------------------------------------------------- facts from the issue

COMMON_V07 = ["keys", "tag", "device", "model", "libs"]


def test_v07_llvm_has_exactly_its_six_attributes() -> None:
    llvm = kinds_at("0.7")["llvm"]
    assert attr_names(llvm) == [*COMMON_V07, "mattr", "mcpu", "mtriple", "mfloat-abi", "system-lib", "runtime"]


def test_v019_opencl_has_no_image_base_address_alignment() -> None:
    assert "image_base_address_alignment" not in attr_names(kinds_at("0.19")["opencl"])
    assert ["image_base_address_alignment", "int", 64] in kinds_at("0.20")["opencl"]["attrs"]


def test_v019_has_its_old_kinds() -> None:
    kinds = kinds_at("0.19")
    assert {"hybrid", "sdaccel", "aocl", "stackvm", "example_target_hook"} <= set(kinds)
    assert ["example_attribute", "int", 0] in kinds["example_target_hook"]["attrs"]
    assert not {"sdaccel", "aocl", "stackvm", "example_target_hook"} & set(kinds_at("0.21"))


def test_v019_lacks_newer_nvidia_tags() -> None:
    assert "nvidia/geforce-rtx-5060-ti" not in tags_at("0.19")
    assert "nvidia/nvidia-b100" not in tags_at("0.19")
    assert "nvidia/nvidia-b100" in tags_at("0.21")
    assert "nvidia/geforce-rtx-5060-ti" in tags_at("0.22")


def test_llvm_vector_width_from_v020_on() -> None:
    releases = schemas()["releases"]
    having = [r for r in releases if "vector-width" in attr_names(kinds_at(r)["llvm"])]
    assert having == releases[releases.index("0.20") :]


def test_common_attributes_come_first() -> None:
    assert attr_names(kinds_at("0.19")["cuda"])[:8] == [*COMMON_V07, "host", "from_device", "target_device_type"]
    assert attr_names(kinds_at("0.27")["cuda"])[0] == "kind"


def test_target_parsers_and_preprocessors_are_named() -> None:
    at_019 = {n: (k["target_parser"], k["preprocessor"]) for n, k in kinds_at("0.19").items()}
    assert at_019["llvm"] == ("tvm::target::parsers::cpu::ParseTarget", None)
    assert at_019["cuda"] == ("UpdateCUDAAttrs", None)
    assert at_019["nvptx"] == ("UpdateNVPTXAttrs", None)
    assert at_019["rocm"] == ("UpdateROCmAttrs", None)
    assert (kinds_at("0.9")["cuda"]["target_parser"], kinds_at("0.9")["cuda"]["preprocessor"]) == (
        None,
        "UpdateCUDAAttrs",
    )
    # 0.24 renamed set_target_parser to set_target_canonicalizer: recorded in the same field
    assert kinds_at("0.27")["llvm"]["target_parser"] == "tvm::target::canonicalizer::llvm::Canonicalize"
