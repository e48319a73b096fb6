"""Targets made of targets: the JSON-ish form, user kinds and tags, validation at every level."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

import targetlang
from targetlang import parse

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"
REGISTRY = targetlang.load_registry(EXAMPLES / "composite-registry.toml")
STRUCTURES = sorted(EXAMPLES.glob("*.target"))


# --------------------------------------------------------------------------- JSON-ish syntax


@pytest.mark.parametrize(
    "text",
    [
        "{kind: cuda, arch: sm_80}",
        "{'kind': 'cuda', \"arch\": 'sm_80',}",
        "{kind: cuda, # the GPU\n  host: 'llvm -mcpu=skylake', // its host\n}",
        '{\n\t"kind"  :  "llvm" ,\n\t"mattr": [ +neon , "+v8.2a", ],\n}\n',
        "{kind: vulkan, supports_float16: true, supports_int8: False}",
        '{kind: llvm, mcpu: \'it\\\'s\', model: "say \\"hi\\""}',
    ],
)
def test_jsonish_prints_back_byte_for_byte(text: str) -> None:
    assert str(parse(text)) == text


def test_jsonish_means_what_json_means() -> None:
    strict = parse('{"kind": "llvm", "mattr": ["+neon"], "host": {"kind": "llvm", "num-cores": 4}}')
    assert parse("{kind: llvm, mattr: [+neon,], host: {kind: llvm, num-cores: 4}} # same") == strict
    assert parse("{kind: vulkan, supports_float16: True}")["supports_float16"] is True
    assert parse("{kind: llvm, mcpu: 'true'}")["mcpu"] == "true"


def test_jsonish_rejects_what_it_cannot_read() -> None:
    for text in ("{kind: 1080ti}", "{kind: llvm mcpu: x}", "{kind: -avx}", "{kind: llvm,,}"):
        with pytest.raises(targetlang.InvalidJSONError):
            parse(text)


def test_canonical_jsonish() -> None:
    t = parse("cuda -libs=cudnn,cublas -host='llvm -mcpu=skylake' -model='a b' -arch=sm_80")
    assert t.canonical_jsonish() == (
        "{\n"
        "  kind: cuda,\n"
        "  host: {\n"
        "    kind: llvm,\n"
        "    mcpu: skylake\n"
        "  },\n"
        "  arch: sm_80,\n"
        "  libs: [cublas, cudnn],\n"
        '  model: "a b"\n'
        "}"
    )
    assert parse(t.canonical_jsonish()) == t
    assert parse(t.canonical_jsonish()).canonical_jsonish() == t.canonical_jsonish()


# --------------------------------------------------------------------------- the design structures


@pytest.mark.parametrize("path", STRUCTURES, ids=lambda p: p.stem)
def test_structure_round_trips(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    target = parse(text, registry=REGISTRY)
    assert str(target) == text
    for form in (target.canonical(), target.canonical_jsonish(), target.to_json(), json.dumps(target.to_json())):
        again = parse(form, registry=REGISTRY)
        assert again == target
        assert hash(again) == hash(target)
    assert target.resolve() == parse(target.canonical(), registry=REGISTRY).resolve()


def test_there_are_five_structures() -> None:
    assert [p.stem.split("-")[0] for p in STRUCTURES] == ["1", "2", "3", "4", "5"]


def test_structure_1_fields() -> None:
    t = parse((EXAMPLES / "1-host-two-devices.target").read_text(), registry=REGISTRY)
    assert t.kind == "system"
    assert t.host == parse("llvm -mtriple=x86_64-linux-gnu -mcpu=skylake")
    assert [d.kind for d in t["devices"]] == ["cuda", "vulkan"]
    assert (t["executor"], t["runtime"]) == ("vm", "cpp")


def test_structure_3_byoc_device_is_a_configuration() -> None:
    t = parse((EXAMPLES / "3-byoc-device.target").read_text(), registry=REGISTRY)
    byoc = t["devices"][0]
    assert byoc.kind == "byoc-myawesome-cuda"
    assert byoc["device"] == parse("cuda -arch=sm_80")
    assert (byoc["runtime"], byoc["library"]) == ("cuda-graph", "tensor-rt")
    assert byoc.host == parse("llvm -mtriple=x86_64-linux-gnu")


def test_structure_4_nests_four_levels() -> None:
    t = parse((EXAMPLES / "4-accelerator-coprocessor.target").read_text(), registry=REGISTRY)
    coprocessor = t["devices"][0]["coprocessor"]
    assert coprocessor["runtime"] == "graph"
    assert coprocessor["devices"][0]["cores"] == 16
    assert coprocessor.host == parse("llvm -mtriple=riscv64-linux-gnu -mcpu=generic-rv64")


def test_structure_5_is_structure_1_with_one_field_overridden() -> None:
    one = parse((EXAMPLES / "1-host-two-devices.target").read_text(), registry=REGISTRY)
    five = parse((EXAMPLES / "5-tag-with-override.target").read_text(), registry=REGISTRY)
    assert five.tag == "example/x86-cuda-vulkan"
    assert five.host == parse("llvm -mtriple=x86_64-linux-gnu -mcpu=icelake-server")
    assert five.with_attr("tag", "").with_host(one.host) == one


def test_documentation_shows_the_structures_verbatim() -> None:
    doc = (EXAMPLES.parent / "composite.md").read_text(encoding="utf-8")
    for path in [*STRUCTURES, EXAMPLES / "composite-registry.toml"]:
        assert path.read_text(encoding="utf-8") in doc, path.name


# --------------------------------------------------------------------------- tags


def test_tag_overrides_as_tvm_027() -> None:
    t = parse('{"tag": "nvidia/nvidia-a100", "l2_cache_size_bytes": 12345}')
    assert t.tag == "nvidia/nvidia-a100"
    assert t["l2_cache_size_bytes"] == 12345
    assert t["arch"] == "sm_80"


def test_kind_with_tag_is_only_a_label() -> None:
    t = parse({"kind": "cuda", "tag": "nvidia/nvidia-a100"})
    assert "arch" not in t.attrs and t.tag == "nvidia/nvidia-a100"


def test_tag_at_a_nested_level() -> None:
    t = parse("{kind: composite, host: {tag: raspberry-pi/4b-aarch64, num-cores: 2}, devices: [nvidia/jetson-nano]}")
    assert t.host is not None and t.host["num-cores"] == 2 and t.host["mcpu"] == "cortex-a72"
    assert t["devices"][0] == parse("nvidia/jetson-nano")


def test_user_tags_refer_to_other_tags() -> None:
    r = targetlang.builtin_registry().register_tag("my/gpu", {"tag": "nvidia/nvidia-a100", "max_num_threads": 512})
    r = r.register_tag("my/box", {"kind": "composite", "host": "llvm", "devices": ["my/gpu"]})
    box = parse("my/box", registry=r)
    assert box["devices"][0]["max_num_threads"] == 512
    assert box["devices"][0]["arch"] == "sm_80"


def test_error_tag_cycle() -> None:
    r = targetlang.builtin_registry().register_tag("a/x", {"kind": "cuda", "host": "a/y"})
    r = r.register_tag("a/y", {"tag": "a/x"})
    with pytest.raises(targetlang.TagCycleError, match="'a/x' refers to itself: a/x -> a/y -> a/x"):
        parse("a/x", registry=r)
    with pytest.raises(targetlang.TagCycleError, match="in tag 'a/x'"):
        targetlang.check_registry(r)


def test_error_unknown_tag() -> None:
    with pytest.raises(targetlang.UnknownTagError) as info:
        parse('{"tag": "nvidia/nvidia-a10O"}')
    assert str(info.value) == (
        "unknown target tag 'nvidia/nvidia-a10O'; did you mean 'nvidia/nvidia-a10' or 'nvidia/nvidia-a10g' or "
        "'nvidia/nvidia-a100'?\n"
        '  {"tag": "nvidia/nvidia-a10O"}\n'
        "          ^^^^^^^^^^^^^^^^^^^^"
    )


# --------------------------------------------------------------------------- validation at every level


def test_error_leaf_kind_given_executor() -> None:
    with pytest.raises(targetlang.LeafKindError) as info:
        parse("{kind: system, devices: [{kind: cuda, executor: vm}]}", registry=REGISTRY)
    assert str(info.value) == (
        "kind 'cuda' is a leaf target: 'executor' belongs on a composite target that contains it\n"
        "  {kind: system, devices: [{kind: cuda, executor: vm}]}\n"
        "                                        ^^^^^^^^"
    )
    with pytest.raises(targetlang.LeafKindError):
        parse("llvm -runtime=cpp")


def test_error_unknown_field_deep_inside() -> None:
    text = (EXAMPLES / "4-accelerator-coprocessor.target").read_text().replace("cores: 16", "corez: 16")
    with pytest.raises(targetlang.UnknownAttributeError) as info:
        parse(text, registry=REGISTRY)
    assert info.value.message == "kind 'my-accelerator' has no attribute 'corez'; did you mean 'cores'?"
    assert text[info.value.start : info.value.end] == "corez"


def test_error_wrong_type_deep_inside() -> None:
    text = "{kind: cluster, machines: [{kind: system, devices: [{kind: my-accelerator, cores: many}]}]}"
    with pytest.raises(targetlang.ValueConversionError) as info:
        parse(text, registry=REGISTRY)
    assert text[info.value.start : info.value.end] == "many"


def test_error_required_attribute() -> None:
    with pytest.raises(targetlang.MissingAttributeError, match="kind 'accelerator' needs 'coprocessor'"):
        parse("{kind: accelerator}", registry=REGISTRY)


def test_error_inside_a_nested_legacy_string_in_jsonish() -> None:
    text = "{kind: system, host: 'llvm -mcpux=a'}"
    with pytest.raises(targetlang.UnknownAttributeError) as info:
        parse(text, registry=REGISTRY)
    assert text[info.value.start : info.value.end] == "mcpux"


def test_modern_attributes_only_in_the_modern_form() -> None:
    assert parse('{"kind": "webgpu", "supports_subgroups": true}')["supports_subgroups"] is True
    assert parse({"kind": "trn", "num-cores": 2}).device_type == 18
    with pytest.raises(targetlang.UnknownAttributeError, match=r"came after TVM v0\.23"):
        parse("webgpu -supports_subgroups=1")
    with pytest.raises(targetlang.UnknownKindError, match=r"came after TVM v0\.23"):
        parse("trn")
    t = parse({"kind": "webgpu", "thread_warp_size": 32})
    assert parse(t.canonical()) == t


# --------------------------------------------------------------------------- registries


def test_registry_is_a_value() -> None:
    base = targetlang.builtin_registry()
    one = base.register_kind("npu", {"cores": "int"})
    two = base.register_kind("npu", {"cores": "int"})
    assert one == two and hash(one) == hash(two) and one is not two
    assert "npu" not in base.kinds
    with pytest.raises(AttributeError):
        one.version = "x"


@pytest.mark.parametrize("fmt", ["json", "toml"])
def test_registry_file_round_trip(fmt: str, tmp_path: Path) -> None:
    text = targetlang.dump_registry(REGISTRY, fmt)
    path = tmp_path / f"registry.{fmt}"
    path.write_text(text, encoding="utf-8")
    again = targetlang.load_registry(path)
    assert again == REGISTRY
    assert targetlang.dump_registry(again, fmt) == text
    for structure in STRUCTURES:
        source = structure.read_text()
        assert parse(source, registry=again) == parse(source, registry=REGISTRY)


def test_registry_file_shows_what_it_adds() -> None:
    data = tomllib.loads(targetlang.dump_registry(REGISTRY, "toml"))
    assert data["base"] == "0.22"
    assert set(data["kinds"]) == {"system", "cluster", "byoc-myawesome-cuda", "accelerator", "my-accelerator"}
    assert data["kinds"]["my-accelerator"]["attrs"]["extensions"] == {"type": "array<string>", "ordered": False}
    assert list(data["tags"]) == ["example/x86-cuda-vulkan"]


def test_error_registry_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"kinds": {"npu": {"attrs": {"cores": "integer"}}}}')
    with pytest.raises(targetlang.RegistryError, match="kind 'npu', attribute 'cores': unknown attribute type"):
        targetlang.load_registry(bad)
    bad.write_text('{"kinds": [1]}')
    with pytest.raises(targetlang.RegistryError, match="'kinds' in a registry file must be a table"):
        targetlang.load_registry(bad)
    bad.write_text('{"tags": {"x/y": {"kind": "llvm", "mcpux": "a"}}}')
    with pytest.raises(targetlang.UnknownAttributeError, match="in tag 'x/y': kind 'llvm' has no attribute 'mcpux'"):
        targetlang.load_registry(bad)
    bad.write_text("{")
    with pytest.raises(targetlang.RegistryError, match="not valid JSON"):
        targetlang.load_registry(bad)


def test_unordered_user_arrays() -> None:
    a = parse("{kind: my-accelerator, extensions: [x, y]}", registry=REGISTRY)
    b = parse("{kind: my-accelerator, extensions: [y, x]}", registry=REGISTRY)
    assert a == b and hash(a) == hash(b) and a.canonical() == b.canonical()
    ordered = parse("{kind: system, devices: [cuda, vulkan]}", registry=REGISTRY)
    assert ordered != parse("{kind: system, devices: [vulkan, cuda]}", registry=REGISTRY)
