"""Registries: read-only tag configs, the checks on user kinds and registry files, and lossless
registry files (dump then load gives an equal registry)."""

from __future__ import annotations

import json
import re
import tempfile
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import targetlang
from targetlang import KindSchema, Registry, RegistryError, TypeSpec, builtin_registry, parse

from .conftest import Run, examples
from .newest import NEWEST
from .strategies import values_of

DOCS = Path(__file__).resolve().parents[1] / "docs"
EXAMPLE_REGISTRY = targetlang.load_registry(DOCS / "examples" / "composite-registry.toml")


# --------------------------------------------------------------------------- the documented example


def test_documented_python_example() -> None:
    doc = (DOCS / "composite.md").read_text(encoding="utf-8")
    (code,) = re.findall(r"```python\n(.*?)```", doc, re.DOTALL)
    names: dict[str, Any] = {"targetlang": targetlang}
    exec(code, names)
    r = names["r"]
    # The Python example declares the kind the documented registry file declares.
    assert r.kinds["my-accelerator"] == EXAMPLE_REGISTRY.kinds["my-accelerator"]
    assert parse("{kind: my-accelerator, extensions: [b, a]}", registry=r) == parse(
        "{kind: my-accelerator, extensions: [a, b]}", registry=r
    )
    npu = parse("example/npu-16", registry=r).resolve()
    assert (npu["cores"], npu.keys, npu.device_type) == (16, ("accel",), 12)
    assert parse("my-accelerator", registry=r).resolve()["cores"] == 4


# --------------------------------------------------------------------------- read-only registries


def test_builtin_tags_cannot_be_changed() -> None:
    a100 = builtin_registry().tags["nvidia/nvidia-a100"]
    with pytest.raises(TypeError):
        a100["arch"] = "sm_XX"  # type: ignore[index]
    with pytest.raises(AttributeError):
        a100["keys"].append("npu")
    with pytest.raises(TypeError):
        builtin_registry().kinds["cuda"] = builtin_registry().kinds["llvm"]  # type: ignore[index]
    assert parse("{tag: nvidia/nvidia-a100}")["arch"] == "sm_80"
    assert parse("nvidia/nvidia-a100").declared_keys == ("cuda", "gpu")


def test_register_tag_keeps_a_read_only_copy() -> None:
    config: dict[str, Any] = {"kind": "composite", "host": {"kind": "llvm", "mattr": ["+neon"]}, "devices": ["cuda"]}
    r = builtin_registry().register_tag("my/box", config)
    config["host"]["mattr"].append("+sve")
    config["devices"].append("vulkan")
    assert r.tags["my/box"] == {
        "kind": "composite",
        "host": {"kind": "llvm", "mattr": ("+neon",)},
        "devices": ("cuda",),
    }
    with pytest.raises(TypeError):
        r.tags["my/box"]["host"]["mattr"] = ()
    box = parse("my/box", registry=r)
    assert box.host == parse("llvm -mattr=+neon") and box["devices"] == (parse("cuda"),)


def test_a_target_in_a_tag_config_is_kept_as_its_json_form() -> None:
    host = parse("llvm -mtriple=aarch64-linux-gnu -mattr=+neon")
    r = builtin_registry().register_tag("my/gpu", {"kind": "cuda", "arch": "sm_80", "host": host})
    assert r.tags["my/gpu"]["host"] == {"kind": "llvm", "mattr": ("+neon",), "mtriple": "aarch64-linux-gnu"}
    assert parse("my/gpu", registry=r).host == host
    assert Registry.from_dict(json.loads(targetlang.dump_registry(r))) == r


def test_kind_defaults_are_read_only() -> None:
    r = builtin_registry().register_kind(
        "npu", {"passes": ("array<string>", ["a", "b"]), "m": ("map<string,int>", {"x": 1})}
    )
    assert r.kinds["npu"].attrs["passes"].default == ("a", "b")
    with pytest.raises(TypeError):
        r.kinds["npu"].attrs["m"].default["x"] = 2
    assert parse("npu", registry=r).resolve()["passes"] == ("a", "b")


# --------------------------------------------------------------------------- kinds that could not be used


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        (
            ("my-accelerator", {"features": "array<string>"}),
            {},
            "kind 'my-accelerator', attribute 'features': 'features' cannot be an attribute: "
            "a target's features are derived by its kind's canonicaliser",
        ),
        (
            ("k", {"kind": "string"}),
            {},
            "kind 'k', attribute 'kind': 'kind' cannot be an attribute: it names the kind itself",
        ),
        (
            ("leafy", {"devices": "array<target>", "executor": "string"}),
            {"leaf": True},
            "kind 'leafy' is a leaf kind (a code generator) but declares 'devices', 'executor': only a non-leaf kind "
            "(leaf=False) holds devices, an executor or a runtime",
        ),
        (
            ("k", {"keys": "int", "host": "int"}),
            {},
            "kind 'k', attribute 'keys': every kind has 'keys', of type array<string>; it cannot be int",
        ),
        (
            ("k", {"host": "int"}),
            {},
            "kind 'k', attribute 'host': every kind has 'host', of type target; it cannot be int",
        ),
        (
            ("k", {"model": "target"}),
            {},
            "kind 'k', attribute 'model': every kind has 'model', of type string; it cannot be target",
        ),
        (
            ("k", {"device": "int"}),
            {},
            "kind 'k', attribute 'device': every kind has 'device', of type string; it cannot be int",
        ),
        (
            ("k", {"target_device_type": "string"}),
            {},
            "kind 'k', attribute 'target_device_type': every kind has 'target_device_type', of type int; "
            "it cannot be string",
        ),
        (
            ("k", {"tag": ("string", "x")}),
            {},
            "kind 'k', attribute 'tag': 'tag' takes no default (it is a target's own field)",
        ),
        (
            ("k", {"cores": ("int", "four")}),
            {},
            "kind 'k', attribute 'cores': the default \"four\" does not fit: "
            "attribute 'cores' must be an integer, not a string",
        ),
        (("k", {"h": ("target", "llvm")}), {}, "kind 'k', attribute 'h': a target-typed attribute has no default"),
        (("k", {"cores": "integer"}), {}, "kind 'k', attribute 'cores': unknown attribute type 'integer'"),
        (
            ("k", {"cores": 5}),
            {},
            "kind 'k', attribute 'cores': expected a type such as 'int' or a (type, default) pair, not 5",
        ),
        (("k",), {"default_keys": "abc"}, "kind 'k': 'default_keys' must be an array of strings, not a string"),
        (("k",), {"device_type": "2"}, "kind 'k': 'device_type' must be an integer, not a string"),
        (("k",), {"leaf": "false"}, "kind 'k': 'leaf' must be true or false, not a string"),
        (
            ("k", {"a": "int"}),
            {"unordered": ["b"]},
            "kind 'k': 'unordered' names 'b', which is not one of its attributes",
        ),
        (
            ("k",),
            {"canonicalizer": "gpu"},
            "kind 'k': 'canonicalizer' must be one of 'cpu', 'cpu-without-host-triple', 'cuda', 'nvptx', 'rocm', "
            "'test', 'webgpu' or a function, not \"gpu\"",
        ),
    ],
)
def test_error_register_kind(args: tuple[Any, ...], kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(RegistryError) as info:
        builtin_registry().register_kind(*args, **kwargs)
    assert str(info.value) == message


def test_a_byoc_configuration_may_hold_a_device_target() -> None:
    r = builtin_registry().register_kind("byoc", {"device": "target"}, leaf=False)
    assert parse("{kind: byoc, device: {kind: cuda, arch: sm_80}}", registry=r)["device"] == parse("cuda -arch=sm_80")


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"kind": "llvm", "mattr": {"+neon"}}, "tag 'my/t': a config holds JSON data and targets, not set"),
        ({"kind": "llvm", 1: "x"}, "tag 'my/t': an object's keys are strings, not 1"),
        (["llvm"], "tag 'my/t': a tag stands for a target config, a table (object), not an array"),
    ],
)
def test_error_register_tag(config: Any, message: str) -> None:
    with pytest.raises(RegistryError) as info:
        builtin_registry().register_tag("my/t", config)
    assert str(info.value) == message


# --------------------------------------------------------------------------- registry files


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"kinds": {"npu": {"device_type": "abc"}}}', "kind 'npu': 'device_type' must be an integer, not a string"),
        ('{"kinds": {"npu": {"device_type": true}}}', "kind 'npu': 'device_type' must be an integer, not a boolean"),
        ('{"base": "abc"}', f'\'base\' must be a TVM version from "0.7" to "{NEWEST}" or "none", not "abc"'),
        ('{"base": "9.99"}', f'\'base\' must be a TVM version from "0.7" to "{NEWEST}" or "none", not "9.99"'),
        (
            '{"base": 0.22}',
            f'\'base\' must be a TVM version from "0.7" to "{NEWEST}" or "none", not a number with a fraction',
        ),
        (
            '{"kinds": {"npu": {"attrs": {"x": {"type": 5}}}}}',
            "kind 'npu', attribute 'x': the type must be a string such as \"int\", not an integer",
        ),
        ('{"kinds": {"npu": {"leaf": "false"}}}', "kind 'npu': 'leaf' must be true or false, not a string"),
        (
            '{"kinds": {"npu": {"attrs": {"x": {"type": "array<string>", "ordered": "false"}}}}}',
            "kind 'npu', attribute 'x': 'ordered' must be true or false, not a string",
        ),
        (
            '{"kinds": {"npu": {"attrs": {"x": {"type": "int", "required": 1}}}}}',
            "kind 'npu', attribute 'x': 'required' must be true or false, not an integer",
        ),
        (
            '{"kinds": {"npu": {"default_keys": "abc"}}}',
            "kind 'npu': 'default_keys' must be an array of strings, not a string",
        ),
        (
            '{"kinds": {"npu": {"default_keys": ["a", 1]}}}',
            "kind 'npu': 'default_keys' must be an array of strings, not an array holding an integer",
        ),
        (
            '{"kinds": {"npu": {"attrs": {"cores": {"type": "int", "default": "four"}}}}}',
            "kind 'npu', attribute 'cores': the default \"four\" does not fit: "
            "attribute 'cores' must be an integer, not a string",
        ),
        (
            '{"kinds": {"npu": {"attrs": {"x": {"type": "map<string>"}}}}}',
            "kind 'npu', attribute 'x': unknown attribute type 'map<string>'",
        ),
        (
            '{"kinds": {"npu": {"attrs": {"x": ["int"]}}}}',
            "kind 'npu', attribute 'x': expected a type or a table with 'type', not an array",
        ),
        (
            '{"kinds": {"npu": {"attrs": {"x": {"type": "int", "orderd": false}}}}}',
            "kind 'npu', attribute 'x': no field 'orderd'; an attribute has 'default', 'modern_only', 'ordered', "
            "'required', 'type'",
        ),
        (
            '{"kinds": {"npu": {"canonicalizer": ["cpu"]}}}',
            "kind 'npu': 'canonicalizer' must be one of 'cpu', 'cpu-without-host-triple', 'cuda', 'nvptx', 'rocm', "
            "'test', 'webgpu', not an array",
        ),
        (
            '{"kinds": {"npu": {"attrs": {"features": "array<string>"}}}}',
            "kind 'npu', attribute 'features': 'features' cannot be an attribute: a target's features are derived by "
            "its kind's canonicaliser",
        ),
        (
            '{"kinds": {"npu": {"attrs": {"runtime": "string"}}}}',
            "kind 'npu' is a leaf kind (a code generator) but declares 'runtime': only a non-leaf kind (leaf=False) "
            "holds devices, an executor or a runtime",
        ),
        ('{"tags": {"x/y": "llvm"}}', "tag 'x/y': a tag stands for a target config, a table (object), not a string"),
        ('{"tags": []}', "'tags' in a registry file must be a table (object), not an array"),
        ('{"removed_tags": ["x/y"]}', "'removed_tags' names 'x/y', which the base registry does not have"),
        ('{"removed_kinds": "llvm"}', "'removed_kinds' must be an array of strings, not a string"),
        (
            '{"kind": {}}',
            "a registry file has no field 'kind': it has 'base', 'kinds', 'removed_kinds', 'removed_tags', 'tags'",
        ),
        ("[]", "a registry file holds a table (object), not an array"),
    ],
)
def test_error_registry_file(text: str, message: str, tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RegistryError) as info:
        targetlang.load_registry(path)
    assert str(info.value) == f"{path}: {message}"


def test_error_registry_file_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_bytes(b'base = "0.22"\n# caf\xe9\n')
    with pytest.raises(RegistryError) as info:
        targetlang.load_registry(path)
    assert str(info.value) == f"{path}: not UTF-8 text (invalid continuation byte at byte 19)"


def test_error_registry_file_in_the_cli(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"kinds": {"npu": {"leaf": "false"}}}', encoding="utf-8")
    for command in ("parse", "fmt"):
        assert run("--registry", str(path), command, "llvm") == (
            1,
            "",
            f"error: {path}: kind 'npu': 'leaf' must be true or false, not a string\n",
        )


# --------------------------------------------------------------------------- dump, then load: an equal registry


def reload(registry: Registry, fmt: str) -> Registry:
    text = targetlang.dump_registry(registry, fmt)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"registry.{fmt}"
        path.write_text(text, encoding="utf-8")
        again = targetlang.load_registry(path)
    assert targetlang.dump_registry(again, fmt) == text
    return again


_TYPES = [
    "string",
    "int",
    "bool",
    "target",
    "array<string>",
    "array<int>",
    "array<array<string>>",
    "array<target>",
    "map<string,int>",
    "map<string,array<string>>",
]
_TEXT = st.text(alphabet=st.sampled_from(list("ab z-_.,'\"\\\né/")), max_size=5)
_ATTR_NAMES = ["cores", "b-c", "d_e", "x.y", "opt"]


def _values(typ: TypeSpec, targets: list[Any]) -> st.SearchStrategy[Any]:
    return values_of(typ, _TEXT, st.sampled_from(targets) if targets else st.nothing(), max_size=3, tuples=True)


@st.composite
def _kind(draw: st.DrawFn, registry: Registry, name: str, leaf: bool) -> Registry:
    attrs: dict[str, str | tuple[str, Any]] = {}
    unordered, required = [], []
    for attr in draw(st.lists(st.sampled_from(_ATTR_NAMES), unique=True, max_size=4)):
        type_text = draw(st.sampled_from(_TYPES))
        typ = TypeSpec.parse(type_text)
        attrs[attr] = type_text
        if not typ.holds_targets and draw(st.booleans()):
            attrs[attr] = (type_text, draw(_values(typ, [])))
        if typ.name == "array" and draw(st.booleans()):
            unordered.append(attr)
        if draw(st.booleans()):
            required.append(attr)
    if not leaf:
        attrs["devices"] = "array<target>"
        attrs["executor"] = "string"
    return registry.register_kind(
        name,
        attrs,
        default_keys=draw(st.lists(st.sampled_from(["accel", "npu", "cpu"]), unique=True, max_size=2)),
        device_type=draw(st.integers(1, 20)),
        leaf=leaf,
        unordered=unordered,
        required=required,
    )


@st.composite
def registries(draw: st.DrawFn) -> Registry:
    """Registries with user kinds of every attribute type and user tags that nest, are composite
    and name other tags, on a built-in base or on none."""
    base = draw(st.sampled_from(["0.22", "0.8", "none"]))
    if base == "none":
        registry = Registry(
            [KindSchema.build("llvm", {"mcpu": "string", "mattr": "array<string>"}, default_keys=["cpu"])]
        )
    else:
        registry = builtin_registry(base)
    registry = draw(_kind(registry, "npu", True))
    registry = draw(_kind(registry, "box", False))
    targets: list[Any] = ["llvm", "llvm -mcpu=skylake", {"kind": "llvm", "mattr": ("+neon",)}]
    for i in range(draw(st.integers(0, 4))):
        name = f"user/t{i}"
        kind = draw(st.sampled_from(["npu", "box", "llvm", "tag"] if i else ["npu", "box", "llvm"]))
        if kind == "tag":
            config: dict[str, Any] = {"tag": f"user/t{draw(st.integers(0, i - 1))}"}
        else:
            config = {"kind": kind}
            specs = registry.kinds[kind].attrs
            names = [n for n in specs if n in _ATTR_NAMES or n in ("devices", "executor", "mcpu")]
            chosen = draw(st.lists(st.sampled_from(names), unique=True)) if names else []
            for attr in [*chosen, *(n for n in names if specs[n].required and n not in chosen)]:
                config[attr] = draw(_values(specs[attr].type, targets))
            if draw(st.booleans()):
                config["host"] = draw(st.sampled_from(targets))
        registry = registry.register_tag(name, config)
        targets.append(name)
        targets.append({"kind": "llvm", "host": name})
    return registry


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(registries(), st.sampled_from(["json", "toml"]))
def test_dump_then_load_gives_an_equal_registry(registry: Registry, fmt: str) -> None:
    again = reload(registry, fmt)
    assert again == registry
    for name in registry.tags:
        if name.startswith("user/"):
            assert parse(name, registry=again) == parse(name, registry=registry)


@pytest.mark.parametrize("fmt", ["json", "toml"])
def test_round_trip_of_a_registry_on_no_base(fmt: str) -> None:
    npu = Registry([KindSchema.build("npu", {"cores": "int"})])
    assert npu.to_dict() == {
        "base": "none",
        "kinds": {"npu": {"attrs": {"cores": "int"}, "default_keys": [], "device_type": 1, "leaf": True}},
        "tags": {},
    }
    assert reload(npu, fmt) == npu and list(reload(npu, fmt).kinds) == ["npu"]
    # Every built-in kind, modern-only kinds and attributes (trn, webgpu.supports_subgroups) included.
    copy = Registry(builtin_registry().kinds.values(), {}, "")
    again = reload(copy, fmt)
    assert again == copy
    assert again.kinds["trn"].modern_only and again.kinds["webgpu"].attrs["supports_subgroups"].modern_only


@pytest.mark.parametrize("fmt", ["json", "toml"])
def test_round_trip_keeps_what_the_registry_removed(fmt: str) -> None:
    builtin = builtin_registry()
    kinds = [kind for name, kind in builtin.kinds.items() if name != "vulkan"]
    tags = {name: config for name, config in builtin.tags.items() if name != "nvidia/nvidia-a100"}
    smaller = Registry(kinds, tags, "0.22")
    assert {key: value for key, value in smaller.to_dict().items() if key.startswith("removed")} == {
        "removed_kinds": ["vulkan"],
        "removed_tags": ["nvidia/nvidia-a100"],
    }
    again = reload(smaller, fmt)
    assert again == smaller and "vulkan" not in again.kinds and "nvidia/nvidia-a100" not in again.tags


def test_map_types_are_written_in_full() -> None:
    r = builtin_registry().register_kind("npu", {"m": "map<string, array<int>>"})
    assert str(r.kinds["npu"].attrs["m"].type) == "map<string,array<int>>"
    data = tomllib.loads(targetlang.dump_registry(r, "toml"))
    assert data["kinds"]["npu"]["attrs"] == {"m": "map<string,array<int>>"}
    assert Registry.from_dict(data) == r


@pytest.mark.parametrize(
    ("name", "text", "words"),
    [
        ("r.json", '{"tags": {"t": ' + "[" * 10_000 + "]" * 10_000 + "}}", "the JSON nests too deeply to read"),
        ("r.toml", "a = " + "[" * 10_000 + "]" * 10_000 + "\n", "the TOML nests too deeply to read"),
        ("r.json", '{"tags": {"t": {"kind": "llvm", "x": ' + "[" * 500 + "]" * 500 + "}}}", "more than 100 levels"),
    ],
)
def test_a_registry_file_nested_too_deeply_is_a_registry_error(
    tmp_path: Path, name: str, text: str, words: str
) -> None:
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(targetlang.RegistryError, match=words) as info:
        targetlang.load_registry(path)
    assert str(info.value).startswith(str(path))


def test_a_tag_nested_too_deeply_is_a_registry_error() -> None:
    config: dict[str, Any] = {"kind": "llvm"}
    inner = config
    for _ in range(600):
        inner["host"] = {"kind": "llvm"}
        inner = inner["host"]
    with pytest.raises(targetlang.RegistryError, match="more than 100 levels"):
        targetlang.builtin_registry().with_tag("deep", config)
