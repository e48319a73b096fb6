"""Tags that extend tags, tag overlays, cycles, and where errors inside a tag's config point."""

from __future__ import annotations

from typing import Any

import pytest

import targetlang
from targetlang import TargetSpec, builtin_registry, parse

A100 = builtin_registry().tags["nvidia/nvidia-a100"]


def test_a_tag_that_extends_a_tag_reads_in_both_forms() -> None:
    registry = builtin_registry().register_tag("my/gpu", {"tag": "nvidia/nvidia-a100", "max_num_threads": 512})
    overlay = parse("{tag: my/gpu}", registry=registry)
    assert (overlay.kind, overlay.tag, overlay["arch"], overlay["max_num_threads"]) == ("cuda", "my/gpu", "sm_80", 512)
    assert overlay["l2_cache_size_bytes"] == A100["l2_cache_size_bytes"]
    whole = parse("my/gpu", registry=registry)
    assert (whole.tag, whole["arch"], whole["max_num_threads"]) == ("nvidia/nvidia-a100", "sm_80", 512)
    # The outermost overlay wins over every tag beneath it.
    over = parse("{tag: my/gpu, max_num_threads: 256, arch: sm_86}", registry=registry)
    assert (over["max_num_threads"], over["arch"]) == (256, "sm_86")


def test_naming_one_tag_twice_is_not_a_cycle() -> None:
    both = parse("{tag: nvidia/nvidia-a100, host: {tag: nvidia/nvidia-a100}}")
    assert both.host is not None and both.host.tag == "nvidia/nvidia-a100" and both.host["arch"] == "sm_80"
    pi = parse("{tag: raspberry-pi/4b-aarch64, host: raspberry-pi/4b-aarch64}")
    assert pi.host is not None and pi.host["mcpu"] == "cortex-a72"


@pytest.mark.parametrize("spec", ["{tag: c/a}", "c/a", {"tag": "c/a"}])
def test_error_tags_that_extend_each_other_are_a_cycle(spec: TargetSpec) -> None:
    registry = builtin_registry().register_tag("c/a", {"tag": "c/b"}).register_tag("c/b", {"tag": "c/a"})
    with pytest.raises(targetlang.TagCycleError) as info:
        parse(spec, registry=registry)
    assert info.value.message == "tag 'c/a' refers to itself: c/a -> c/b -> c/a"


def test_error_a_tag_whose_host_is_itself_names_the_cycle_once() -> None:
    registry = builtin_registry().register_tag("d/a", {"kind": "llvm", "host": "d/a"})
    with pytest.raises(targetlang.TagCycleError) as info:
        parse("{tag: d/a}", registry=registry)
    assert str(info.value) == "tag 'd/a' refers to itself: d/a -> d/a\n  {tag: d/a}\n        ^^^"


@pytest.mark.parametrize(
    ("spec", "caret"),
    [
        ("{kind: composite, devices: [{tag: b/t}]}", "                                    ^^^"),
        ("{kind: composite, devices: [b/t]}", "                              ^^^"),
        ("cuda -host=b/t", "             ^^^"),
        ("b/t", "  ^^^"),
    ],
)
def test_error_inside_a_tag_config_points_at_the_tag_name(spec: str, caret: str) -> None:
    registry = builtin_registry().register_tag("b/t", {"kind": "llvm", "mcpux": "a"})
    with pytest.raises(targetlang.UnknownAttributeError) as info:
        parse(spec, registry=registry)
    assert str(info.value) == (
        f"in tag 'b/t': kind 'llvm' has no attribute 'mcpux'; did you mean 'mcpu'?\n  {spec}\n{caret}"
    )


@pytest.mark.parametrize(("spec", "caret"), [("{tag: 5}", "        ^"), ("{tag: [a]}", "        ^^^")])
def test_error_tag_that_is_not_a_string(spec: str, caret: str) -> None:
    with pytest.raises(targetlang.ValueConversionError) as info:
        parse(spec)
    assert str(info.value) == f"'tag' must be a string, the name of a tag\n  {spec}\n{caret}"


def test_tags_tvm_027_added_read_in_the_modern_form_only() -> None:
    rasp = parse("{tag: arm/rasp4b}")
    assert (rasp.kind, rasp.tag, rasp["mcpu"], rasp["mtriple"]) == (
        "llvm",
        "arm/rasp4b",
        "cortex-a72",
        "armv8l-linux-gnueabihf",
    )
    assert "feature.has_asimd" not in rasp.attrs  # derived by the canonicaliser, not configured
    trn = parse({"tag": "aws/trn1/trn1.2xlarge", "num-cores": 4})
    assert (trn.kind, trn["num-cores"], trn["partition_size"]) == ("trn", 4, 128)
    # TVM v0.22 read no such name, and neither does the legacy string form.
    with pytest.raises(targetlang.UnknownKindError) as info:
        parse("arm/rasp4b")
    assert info.value.message == '\'arm/rasp4b\' is a tag TVM 0.24 added, after TVM v0.22: write {"tag": "arm/rasp4b"}'
    # A registry built on an older TVM, or on none, does not have them.
    with pytest.raises(targetlang.UnknownTagError):
        parse("{tag: arm/rasp4b}", registry=builtin_registry("0.8"))


def test_compressed_tags_read_back_and_migrate_again() -> None:
    legacy = (
        "llvm -keys=arm_cpu,cpu -device=arm_cpu -model=bcm2711 -mtriple=armv8l-linux-gnueabihf -mattr=+neon "
        "-mcpu=cortex-a72"
    )
    m = targetlang.migrate(legacy, compress_tags=True)
    assert m.json == {"tag": "arm/rasp4b"}
    assert m.target is not None and m.target.resolve() == parse(legacy).resolve().with_attr("tag", "arm/rasp4b")
    again = targetlang.migrate(m.json, compress_tags=True)
    assert again.json == {"tag": "arm/rasp4b"} and again.ok


# ------------------------------------------------------------------ a registry's tag targets

_TAGS: dict[str, dict[str, Any]] = {
    "m/base": {"kind": "llvm", "mcpu": "x", "mattr": ["+a"]},
    "m/over": {"tag": "m/base", "mattr": ["+b"]},
    "m/host": {"kind": "cuda", "host": "m/base"},
    "m/c1": {"tag": "m/c2"},
    "m/c2": {"tag": "m/c1"},
    # m/t extends m/u and drops its host: alone it reads, but m/u's host m/t closes a cycle
    "m/u": {"kind": "cuda", "host": "m/t"},
    "m/t": {"tag": "m/u", "host": None},
}
# Each read in an order that reads a tag alone first, and in another that reads it inside others first.
_READS = [
    "m/base",
    "m/over",
    "m/host",
    "cuda -host=m/over",
    "composite -devices=m/base,m/over",
    "m/c1",
    "m/c2",
    "m/t",
    "m/u",
    "llvm -host=m/u",
]


def _registry() -> targetlang.Registry:
    registry = builtin_registry()
    for name, config in _TAGS.items():
        registry = registry.register_tag(name, config)
    return registry


def _outcome(text: str, registry: targetlang.Registry, max_depth: int | None) -> tuple[object, ...]:
    targetlang.clear_caches()  # (the parse caches would answer for an equal registry)
    try:
        target = parse(text, registry=registry, max_depth=max_depth)
    except targetlang.TargetError as err:
        return (type(err).__name__, str(err))
    return (str(target), target.canonical(), target.to_json(), repr(target.host))


@pytest.mark.parametrize("max_depth", [None, 0, 1])
@pytest.mark.parametrize("order", [_READS, _READS[::-1]])
def test_a_tag_read_once_reads_the_same_again(order: list[str], max_depth: int | None) -> None:
    """A registry keeps the target of a tag that nests none once read; every read after, alone, nested
    at the depth limit or inside a cycle, gives what a registry that kept none gives."""
    registry = _registry()
    first = {text: _outcome(text, registry, max_depth) for text in order}
    again = {text: _outcome(text, registry, max_depth) for text in order}
    fresh = {text: _outcome(text, _registry(), max_depth) for text in order}
    assert first == again == fresh
    # not m/over or m/t, which extend a tag, nor m/host or m/u, which nest one
    assert set(registry._tag_targets) == {"m/base"}
    targetlang.clear_caches()
    assert parse("m/base", registry=registry) is registry._tag_targets["m/base"]
