"""The Target API: fields, semantic equality, edits, resolution and printers (spec 2-7)."""

from __future__ import annotations

import concurrent.futures
import json
import multiprocessing
import pickle
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import targetlang
from targetlang import Environment, Target, TargetSpec, parse

X86 = Environment(host_triple="x86_64-pc-linux-gnu")


# --------------------------------------------------------------------------- fields


def test_fields_of_a_legacy_string() -> None:
    t = parse("llvm -keys=x86,cpu -mcpu=skylake -mattr=+avx2,+fma -num-cores=4 -fast-math")
    assert t.kind == "llvm"
    assert t.tag == ""
    assert t.keys == ("x86", "cpu")
    assert t.host is None
    assert dict(t.attrs) == {"mcpu": "skylake", "mattr": ("+avx2", "+fma"), "num-cores": 4, "fast-math": True}
    assert t["num-cores"] == 4
    assert "keys" not in t.attrs


def test_target_is_immutable_and_hashable() -> None:
    t = parse("llvm -mcpu=skylake")
    with pytest.raises(AttributeError):
        t.kind = "cuda"  # type: ignore[misc]
    with pytest.raises(TypeError):
        t.attrs["mcpu"] = "x"  # type: ignore[index]
    assert {t: 1}[parse("llvm --mcpu skylake")] == 1


def test_constructor_is_parse_and_repr_evaluates() -> None:
    t = Target("cuda -arch=sm_80", "llvm -mcpu=skylake")
    assert t.host == parse("llvm -mcpu=skylake")
    assert eval(repr(t), {"Target": Target}) == t


# --------------------------------------------------------------------------- value interpretation (spec 2.4)


@pytest.mark.parametrize(
    ("text", "attr", "value"),
    [
        ("llvm -mcpu=blah", "mcpu", "blah"),
        ("llvm -mcpu='blah'", "mcpu", "blah"),
        ("llvm -mcpu='bl'ah", "mcpu", "'bl'ah"),
        ("llvm -mcpu=\\'blah\\'", "mcpu", "'blah'"),
        ("llvm -mcpu='\\'blah\\''", "mcpu", "'blah'"),
        ("llvm -mcpu='it\\'s a'", "mcpu", "it's a"),
        ("vulkan -device_name=A\\ B", "device_name", "A B"),
        ("llvm -mcpu=x'a b'y", "mcpu", "x'a b'y"),
        ("llvm -mcpu=''", "mcpu", ""),
        ("llvm -mcpu=abc\\", "mcpu", "abc"),
        ("vulkan -device_name=' GPU '", "device_name", "GPU"),
        ("llvm -model=a=b", "model", "a=b"),
        ("llvm -num-cores=4abc", "num-cores", 4),
        ("llvm -vector-width=1.5", "vector-width", 1),
        ("llvm -vector-width=0x10", "vector-width", 0),
        ("llvm -num-cores=TRUE", "num-cores", 1),
        ("llvm -opt-level=-1", "opt-level", -1),
        ("llvm -fast-math=2", "fast-math", True),
        ("vulkan --supports_float16=false", "supports_float16", False),
        ("vulkan -supports_float16", "supports_float16", True),
        ("cuda -libs=cublas,,cudnn,", "libs", ("cublas", "cudnn")),
        ("llvm -mattr=''", "mattr", ()),
        ("llvm -mattr='+a,+b'", "mattr", ("+a", "+b")),
        ("llvm -mattr=x,'+a,+b'", "mattr", ("x", "+a,+b")),
        ("llvm -mattr=a\\,b,c", "mattr", ("a", "b", "c")),
        (
            "llvm -cl-opt='-unroll-threshold:uint=100,-unroll-count:uint=3'",
            "cl-opt",
            ("-unroll-threshold:uint=100", "-unroll-count:uint=3"),
        ),
        ("llvm -mcpu skylake", "mcpu", "skylake"),
        ("llvm ---mcpu=skylake", "mcpu", "skylake"),
    ],
)
def test_value_interpretation(text: str, attr: str, value: object) -> None:
    assert parse(text)[attr] == value
    assert str(parse(text)) == text


def test_space_form_only_when_the_next_word_has_no_dash() -> None:
    # "-opt-level -1": a flag, then "-1" is an option named "1".
    with pytest.raises(targetlang.UnknownAttributeError, match="no attribute '1'"):
        parse("llvm -opt-level -1")


def test_only_u0020_separates() -> None:
    with pytest.raises(targetlang.UnknownKindError):
        parse("llvm\t-mcpu=x")
    assert parse("llvm  -mcpu=x ")["mcpu"] == "x"


def test_tag_only_as_the_whole_string() -> None:
    assert parse("nvidia/jetson-nano").kind == "cuda"
    assert parse("nvidia/jetson-nano").tag == ""
    with pytest.raises(targetlang.UnknownKindError):
        parse("nvidia/jetson-nano -arch=sm_80")
    assert str(parse("nvidia/geforce-gt-730-ddr3,128bit")) == "nvidia/geforce-gt-730-ddr3,128bit"


def test_nested_host_in_every_spelling() -> None:
    expected = parse("llvm -mcpu=skylake")
    for text in (
        "cuda -host='llvm -mcpu=skylake'",
        "cuda --host=llvm\\ -mcpu=skylake",
        'cuda -host={"kind":"llvm","mcpu":"skylake"}',
    ):
        assert parse(text).host == expected, text
    assert parse("cuda --host nvidia/jetson-nano").host == parse("nvidia/jetson-nano")


# --------------------------------------------------------------------------- equality


def test_spellings_of_one_target_are_equal() -> None:
    a, b, c = parse("llvm -mcpu skylake"), parse("llvm --mcpu=skylake"), parse("llvm -mcpu='skylake'")
    assert a == b == c
    assert hash(a) == hash(b) == hash(c)
    assert str(a) != str(b)


def test_attribute_order_does_not_matter() -> None:
    assert parse("llvm -mcpu=a -num-cores=2") == parse("llvm -num-cores=2 -mcpu=a")


def test_keys_order_matters() -> None:
    assert parse("llvm -keys=arm_cpu,cpu") != parse("llvm -keys=cpu,arm_cpu")


def test_libs_unordered_mattr_ordered() -> None:
    assert parse("cuda -libs=cublas,cudnn") == parse("cuda -libs=cudnn,cublas")
    assert parse("llvm -mattr=+a,+b") != parse("llvm -mattr=+b,+a")
    assert parse("cuda -libs=a,a") != parse("cuda -libs=a")


def test_legacy_and_json_forms_are_equal() -> None:
    assert parse('{"kind": "llvm", "mattr": ["+neon"], "num-cores": 4}') == parse("llvm -mattr=+neon -num-cores=4")
    assert parse({"kind": "cuda", "host": {"kind": "llvm"}}) == parse("cuda --host llvm")


def test_empty_keys_differ_from_no_keys() -> None:
    assert parse("llvm -keys=''") != parse("llvm")
    assert parse("llvm -keys=''").resolve().keys == ()
    assert parse("llvm").resolve().keys == ("cpu",)


# --------------------------------------------------------------------------- printers


def test_str_is_the_source_text() -> None:
    for text in ("llvm  -mattr=+m,+a -vector-width=256", "llvm -keys=cpu ", "cuda --host llvm"):
        assert str(parse(text)) == text


def test_canonical() -> None:
    t = parse("cuda --libs cudnn,cublas -host='llvm -mcpu=x' -arch=sm_80 -tag=mine -keys=gpu")
    assert t.canonical() == "cuda -keys=gpu -tag=mine -host='llvm -mcpu=x' -arch=sm_80 -libs=cublas,cudnn"
    assert parse(t.canonical()) == t


def test_canonical_quotes_what_needs_it() -> None:
    t = parse({"kind": "llvm", "mattr": ["a b", "c,d", "it's", ""], "mcpu": "x y"})
    assert t.canonical() == "llvm -mattr='\\'a b\\',\\'c,d\\',it\\\\\\'s,\\'\\'' -mcpu='x y'"
    assert parse(t.canonical()) == t


def test_canonical_falls_back_to_json_for_what_legacy_text_cannot_hold() -> None:
    t = parse({"kind": "llvm", "mcpu": " padded "})
    assert t.canonical() == '{"kind":"llvm","mcpu":" padded "}'
    assert parse(t.canonical()) == t


def test_to_json_uses_json_types() -> None:
    t = parse("cuda -libs=cudnn -host='llvm -mattr=+neon' -max_num_threads=7 -keys=cuda")
    assert t.to_json() == {
        "kind": "cuda",
        "keys": ["cuda"],
        "host": {"kind": "llvm", "mattr": ["+neon"]},
        "libs": ["cudnn"],
        "max_num_threads": 7,
    }


# TVM v0.22 str() of the resolved target: spec 6.1's table (host triple x86_64, no GPU).
@pytest.mark.parametrize(
    ("text", "printed"),
    [
        ("llvm -mcpu=cortex-m3", "llvm -keys=arm_cpu,cpu -mcpu=cortex-m3"),
        (
            "cuda -model=unknown -libs=cublas,cudnn",
            "cuda -keys=cuda,gpu -arch=sm_50 -libs=cublas,cudnn -max_num_threads=1024 -model=unknown "
            "-thread_warp_size=32",
        ),
        (
            "opencl -device=mali",
            "opencl -keys=mali,opencl,gpu -device=mali -image_base_address_alignment=64 -max_function_args=128 "
            "-max_num_threads=256 -max_shared_memory_per_block=16384 -max_threads_per_block=256 "
            "-texture_spatial_limit=16384 -thread_warp_size=1",
        ),
        (
            "vulkan -device_name='Name of GPU with spaces' -device_type=discrete",
            "vulkan -keys=vulkan,gpu -device_name='Name of GPU with spaces' -device_type=discrete -max_num_threads=256 "
            "-max_threads_per_block=256 -supports_float32=1 -supports_int32=1 -thread_warp_size=1",
        ),
        ("llvm -mcpu=it\\'s", "llvm -keys=cpu -mcpu=it\\'s"),
        ("c", "c -keys=cpu "),
        ("test", "test "),
        (
            "nvidia/geforce-rtx-3070",
            "cuda -keys=cuda,gpu -arch=sm_86 -max_num_threads=1024 -max_shared_memory_per_block=49152 "
            "-max_threads_per_block=1024 -registers_per_block=65536 -thread_warp_size=32",
        ),
        ("llvm", "llvm -keys=cpu -mtriple=x86_64-pc-linux-gnu"),
        ("llvm -mattr='a b',c", "llvm -keys=cpu -mattr=\\'a b\\',c -mtriple=x86_64-pc-linux-gnu"),
        ("llvm -mcpu=''", "llvm -keys=cpu "),
    ],
)
def test_legacy_str(text: str, printed: str) -> None:
    assert parse(text).to_legacy_str(X86) == printed


def test_legacy_str_without_an_llvm_host_triple() -> None:
    assert parse("llvm").to_legacy_str() == "llvm -keys=cpu "


# --------------------------------------------------------------------------- resolution (spec 3.1, 7.2, 7.3)


@pytest.mark.parametrize(
    ("spec", "keys"),
    [
        ("opencl -device=mali", ("mali", "opencl", "gpu")),
        ("opencl -device=mali -keys=x", ("x", "mali")),
        ("llvm -keys=foo", ("foo",)),
        ("llvm -keys=foo -mtriple=aarch64-linux-gnu", ("foo", "arm_cpu", "cpu")),
        ("llvm -device=foo -mtriple=aarch64-linux-gnu", ("arm_cpu", "cpu", "foo")),
        ("llvm -device=foo", ("foo", "cpu")),
        ({"kind": "llvm", "keys": ["cpu", "arm_cpu"], "device": "arm_cpu"}, ("cpu", "arm_cpu")),
        ("llvm -mtriple=arm64-linux-android", ("arm_cpu", "cpu")),
        ("llvm -mtriple=armv7-none-linux-gnueabihf -mcpu=cortex-m7", ("arm_cpu", "cpu")),
        ("cuda", ("cuda", "gpu")),
        ("ext_dev", ()),
    ],
)
def test_resolved_keys(spec: TargetSpec, keys: tuple[str, ...]) -> None:
    assert parse(spec).resolve().keys == keys


def test_resolve_uses_the_environment() -> None:
    assert parse("llvm").resolve(Environment(host_triple="aarch64-linux-gnu")).keys == ("arm_cpu", "cpu")
    assert parse("cuda").resolve(Environment(cuda_arch="sm_86"))["arch"] == "sm_86"
    assert parse("cuda").resolve()["arch"] == "sm_50"
    assert parse("rocm").resolve()["mcpu"] == "gfx900"
    assert parse("rocm").resolve(Environment(rocm_api_version=304))["mattr"] == ("-code-object-v3",)
    assert parse("nvptx").resolve()["mtriple"] == "nvptx64-nvidia-cuda"


def test_resolve_removes_from_device_and_adds_defaults() -> None:
    r = parse('{"kind":"vulkan","from_device":0}').resolve()
    assert "from_device" not in r.attrs
    assert r["supports_float32"] is True
    assert r["max_num_threads"] == 256


def test_resolve_is_idempotent_and_resolves_nested_targets() -> None:
    r = parse("composite --host=llvm --devices=cuda,opencl").resolve()
    assert r.host is not None and r.host.keys == ("cpu",)
    assert [d.keys for d in r["devices"]] == [("cuda", "gpu"), ("opencl", "gpu")]
    assert r.resolve() == r


def test_mprofile_features() -> None:
    assert dict(parse("llvm -mcpu=cortex-m55 -mattr=+nomve").resolve().features) == {"has_mve": False, "has_dsp": True}


def test_resolve_rejects_canonicaliser_violations() -> None:
    for spec in ("nvptx -mtriple=x", "rocm -mcpu=gfx", "nvptx -mcpu=compute_80"):
        with pytest.raises(targetlang.CanonicalizationError):
            parse(spec).resolve()


# --------------------------------------------------------------------------- edits


def test_edit_keeps_every_untouched_spelling() -> None:
    t = parse("llvm  --mcpu skylake -mattr='+avx2,+fma'   -num-cores=4 ")
    assert str(t.with_attr("num-cores", 8)) == "llvm  --mcpu skylake -mattr='+avx2,+fma'   -num-cores=8 "
    assert str(t.with_attr("mcpu", "cascade lake")) == "llvm  --mcpu='cascade lake' -mattr='+avx2,+fma'   -num-cores=4 "
    assert str(t.with_attr("model", "i7")) == "llvm  --mcpu skylake -mattr='+avx2,+fma'   -num-cores=4 -model=i7 "
    assert str(t.without_attr("mattr")) == "llvm  --mcpu skylake -num-cores=4 "
    assert str(t.without_attr("num-cores")) == "llvm  --mcpu skylake -mattr='+avx2,+fma' "
    assert t.with_attr("num-cores", 8)["num-cores"] == 8


def test_edit_host() -> None:
    t = parse("cuda -arch=sm_80 --host llvm")
    assert str(t.with_host("llvm -mcpu=skylake")) == "cuda -arch=sm_80 --host='llvm -mcpu=skylake'"
    assert str(parse("cuda").with_host(parse("llvm"))) == "cuda -host=llvm"
    assert t.with_host(None) == parse("cuda -arch=sm_80")


def test_edit_json_text_keeps_its_layout() -> None:
    t = parse('{\n  "kind": "llvm",\n  "mcpu": "skylake"\n}')
    assert str(t.with_attr("mcpu", "znver3")) == '{\n  "kind": "llvm",\n  "mcpu": "znver3"\n}'
    assert str(t.with_attr("num-cores", 4)) == '{\n  "kind": "llvm",\n  "mcpu": "skylake", "num-cores": 4\n}'
    assert str(t.without_attr("mcpu")) == '{\n  "kind": "llvm"\n}'


def test_edit_checks_the_schema() -> None:
    t = parse("llvm")
    with pytest.raises(targetlang.UnknownAttributeError, match="did you mean 'mcpu'"):
        t.with_attr("mcpux", "a")
    with pytest.raises(targetlang.ValueConversionError):
        t.with_attr("num-cores", "four")


def test_edit_of_a_tag_or_dict_target() -> None:
    t = parse("nvidia/jetson-nano").with_attr("arch", "sm_62")
    assert t["arch"] == "sm_62"
    assert parse(str(t)) == t


@pytest.mark.parametrize(
    ("entry", "ok"),
    [
        ("-unroll-threshold:uint=100", True),
        ("--print-after-all", True),
        ("-not-an-option:uint=123", True),
        ("---unroll-factor:uint=0", False),  # TVM's LLVMCommandLineParseFatalDashDashDash
        ("-option:", False),
        ("-option=2", False),
        ("-option:int=haha", False),
    ],
)
def test_cl_opt_checked_as_llvm_did(entry: str, ok: bool) -> None:
    target = parse({"kind": "llvm", "cl-opt": [entry]})
    target.resolve()  # without LLVM nothing checks cl-opt
    if ok:
        target.resolve(Environment(check_cl_opt=True))
    else:
        with pytest.raises(targetlang.ValueConversionError, match="LLVM rejects cl-opt entry"):
            target.resolve(Environment(check_cl_opt=True))


def test_pickle_and_copy() -> None:
    import copy
    import pickle

    for spec in ("llvm -mcpu skylake", "nvidia/jetson-nano", '{"kind": "cuda"}', {"kind": "rocm", "mcpu": "gfx906"}):
        t = parse(spec)
        again = pickle.loads(pickle.dumps(t))
        assert again == t and str(again) == str(t)
        assert copy.deepcopy(t) == t
    old = parse("llvm --system-lib", registry=targetlang.builtin_registry("0.8"))
    assert pickle.loads(pickle.dumps(old)) == old
    custom = targetlang.builtin_registry().with_kind(targetlang.KindSchema.build("mine"))
    mine = pickle.loads(pickle.dumps(parse("mine", registry=custom)))
    assert mine == parse("mine", registry=custom) and mine.registry == custom


def test_whitespace_only_is_an_empty_target_string() -> None:
    # Undefined behaviour in TVM (spec 14.3); targetlang chooses the empty-string error.
    for text in (" ", "   "):
        with pytest.raises(targetlang.TargetSyntaxError, match="empty target string"):
            parse(text)


def test_dict_path_coerces_bool_and_int_but_never_strings() -> None:
    # Spec 14.2: as observed on TVM 0.27's object conversion.
    assert parse({"kind": "llvm", "num-cores": True})["num-cores"] == 1
    assert parse({"kind": "vulkan", "supports_float16": 1})["supports_float16"] is True
    with pytest.raises(targetlang.ValueConversionError):
        parse({"kind": "llvm", "fast-math": "true"})
    with pytest.raises(targetlang.ValueConversionError):
        parse({"kind": "llvm", "num-cores": 4.0})


# --------------------------------------------------------------------------- as TVM's Target() read them


@pytest.mark.parametrize(
    ("spec", "json", "resolved_keys"),
    [
        # a null host is no host; a null mtriple of llvm without mcpu is absent (the host's)
        ({"kind": "c", "host": None}, {"kind": "c"}, ("cpu",)),
        ({"kind": "llvm", "mtriple": None}, {"kind": "llvm"}, ("cpu",)),
        ('{"kind": "llvm", "mtriple": null, "keys": ["a"]}', {"kind": "llvm", "keys": ["a"]}, ("a",)),
        # a null keys is absent where an Arm parser sets arm_cpu,cpu
        (
            {"kind": "llvm", "keys": None, "mtriple": "aarch64-linux-gnu"},
            {"kind": "llvm", "mtriple": "aarch64-linux-gnu"},
            ("arm_cpu", "cpu"),
        ),
        ({"kind": "c", "keys": None, "mcpu": "cortex-m55"}, {"kind": "c", "mcpu": "cortex-m55"}, ("arm_cpu", "cpu")),
        # a null device is a null target
        (
            {"kind": "composite", "devices": [None, "llvm"]},
            {"kind": "composite", "devices": [None, {"kind": "llvm"}]},
            (),
        ),
    ],
)
def test_nulls_a_config_may_hold(spec: TargetSpec, json: dict[str, object], resolved_keys: tuple[str, ...]) -> None:
    target = parse(spec)
    assert target.to_json() == json
    assert target.resolve(X86).keys == resolved_keys
    assert parse(target.canonical()) == target


@pytest.mark.parametrize(
    "spec",
    [
        {"kind": "llvm", "mtriple": None, "mcpu": "skylake"},
        {"kind": "llvm", "mcpu": None},
        {"kind": "llvm", "keys": None},  # the host's triple would decide: read as on an x86 host
        {"kind": "llvm", "keys": None, "mtriple": "arm-linux-gnueabihf", "mcpu": "cortex-m1"},
        {"kind": "nvptx", "mtriple": None},
        {"kind": "cuda", "tag": None},
        {"kind": "llvm", "libs": ["cblas", None]},
    ],
)
def test_nulls_tvm_rejected(spec: TargetSpec) -> None:
    with pytest.raises(targetlang.TargetError):
        parse(spec)


@pytest.mark.parametrize(
    ("spec", "json"),
    [
        ("llvm -libs=mkldnn", {"kind": "llvm", "libs": ["dnnl"]}),
        ("llvm --libs=mkldnn,cblas -model=mkldnn_v1", {"kind": "llvm", "libs": ["dnnl", "cblas"], "model": "dnnl_v1"}),
        ("cuda -host='llvm -libs=mkldnn'", {"kind": "cuda", "host": {"kind": "llvm", "libs": ["dnnl"]}}),
        ('{"kind": "cuda", "host": "llvm -libs=mkldnn"}', {"kind": "cuda", "host": {"kind": "llvm", "libs": ["dnnl"]}}),
        # without the literal -libs=mkldnn in a string, nothing is renamed
        ("llvm -libs=cblas,mkldnn", {"kind": "llvm", "libs": ["cblas", "mkldnn"]}),
        ("llvm -libs mkldnn", {"kind": "llvm", "libs": ["mkldnn"]}),
        ({"kind": "llvm", "libs": ["mkldnn"]}, {"kind": "llvm", "libs": ["mkldnn"]}),
        ({"kind": "cuda", "host": "llvm -libs=mkldnn"}, {"kind": "cuda", "host": {"kind": "llvm", "libs": ["mkldnn"]}}),
    ],
)
def test_mkldnn_renamed_as_tvms_target_did(spec: TargetSpec, json: dict[str, object]) -> None:
    target = parse(spec)
    assert target.to_json() == json
    if isinstance(spec, str):
        assert str(target) == spec  # the text stays as written
    assert parse(target.canonical()) == target
    assert parse(target.canonical_jsonish()) == target


def test_canonical_of_mkldnn_not_renamed_is_json() -> None:
    # "llvm -libs=mkldnn" would read back as dnnl, so the canonical form is JSON text
    target = parse({"kind": "llvm", "libs": ["mkldnn"], "model": "x-libs=mkldnn"})
    assert target.canonical() == '{"kind":"llvm","libs":["mkldnn"],"model":"x\\u002dlibs=mkldnn"}'
    assert parse(target.canonical()) == target


def test_a_text_read_with_mkldnn_renamed_edits_in_place() -> None:
    target = parse("llvm  -libs=mkldnn -model=mkldnn_v1")
    assert target.source_span("libs") == (6, 18)
    edited = target.with_attr("mcpu", "x")
    assert str(edited) == "llvm  -libs=mkldnn -model=mkldnn_v1 -mcpu=x"
    assert edited["model"] == "dnnl_v1"
    assert target.with_host("llvm -libs=mkldnn").host == parse("llvm -libs=dnnl")


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("llvm -mtriple=aarch64-linux-gnu -jit=mcjit -mfloat-abi=soft -vector-width=65536", True),
        ("llvm -mtriple=aarch64-linux-gnu -jit=x", False),
        ("llvm -mtriple=armv7a-linux-gnueabihf -mfloat-abi=softfp", False),
        ("llvm -mtriple=arm64-apple-darwin -vector-width=0", False),
        ("llvm -mtriple=aarch64 -cl-opt=-option:", False),
        # not the A-profile parser: x86, M-profile, another cortex-m on arm, no triple
        ("llvm -mtriple=x86_64-linux-gnu -jit=x -vector-width=0", True),
        ("llvm -mtriple=arm-linux-gnueabihf -mcpu=cortex-m4 -jit=x", True),
        ("llvm -mtriple=arm-linux-gnueabihf -mcpu=cortex-m1 -jit=x", True),
        ("llvm -mtriple=aarch64-linux-gnu -mcpu=cortex-m1 -jit=x", False),
        ("llvm -mcpu=cortex-a53 -jit=x", True),
    ],
)
def test_arm_a_profile_options_checked_as_tvm_did_on_construction(text: str, ok: bool) -> None:
    target = parse(text)  # reading accepts it; TVM's constructor checked it, as resolve does
    if ok:
        target.resolve(X86)
    else:
        with pytest.raises(targetlang.TargetError):
            target.resolve(X86)


def test_a_profile_check_follows_the_host_triple() -> None:
    target = parse("llvm -jit=x")
    target.resolve(X86)
    with pytest.raises(targetlang.CanonicalizationError):
        target.resolve(Environment(host_triple="aarch64-linux-gnu"))


# ------------------------------------------------------------------ the attributes as a mapping


def test_an_attribute_is_looked_up_by_name() -> None:
    t = parse("llvm -mcpu=skylake -num-cores=4 -keys=cpu -mattr=+avx2,+fma")
    assert (t["mcpu"], t["num-cores"], t["mattr"]) == ("skylake", 4, ("+avx2", "+fma"))
    assert t.get("mcpu") == "skylake" and t.get("mtriple") is None and t.get("mtriple", "x") == "x"
    assert "mcpu" in t and "keys" not in t and "host" not in t and t.keys == ("cpu",)  # keys: TVM's dispatch keys
    with pytest.raises(KeyError):
        t["mtriple"]
    with pytest.raises(TypeError):
        t["mcpu"] = "x"  # type: ignore[index]


def test_the_attributes_mapping_is_attrs() -> None:
    t = parse("llvm -mcpu=skylake -num-cores=4 -keys=cpu -mattr=+avx2,+fma")
    assert dict(t.attrs) == {"mcpu": "skylake", "num-cores": 4, "mattr": ("+avx2", "+fma")}
    assert len(t.attrs) == 3 and list(t.attrs) == ["mcpu", "num-cores", "mattr"]
    assert list(t.attrs.items()) == [("mcpu", "skylake"), ("num-cores", 4), ("mattr", ("+avx2", "+fma"))]


@pytest.mark.parametrize(
    ("use", "message"),
    [
        # t.keys is TVM's dispatch keys, a tuple: a Target is no mapping (docs/design.md)
        (lambda t: dict(t), "'tuple' object is not callable"),
        (lambda t: t.keys(), "'tuple' object is not callable"),
        (lambda t: list(t), "'Target' object is not iterable"),
        (lambda t: iter(t), "'Target' object is not iterable"),
        (lambda t: len(t), "object of type 'Target' has no len()"),
        (lambda t: t.items(), "'Target' object has no attribute 'items'"),
    ],
)
def test_a_target_is_no_mapping_and_no_collection(use: Callable[[Any], object], message: str) -> None:
    with pytest.raises((TypeError, AttributeError), match=re.escape(message)):
        use(parse("llvm -mcpu=skylake"))


def test_a_target_without_attributes_is_still_true() -> None:
    bare = parse("llvm")
    assert len(bare.attrs) == 0 and bool(bare) and bool(parse("cuda -host=llvm").host)


# ------------------------------------------------------------------ pickling

_USER_REGISTRY = {
    "kinds": {
        "npu": {
            "attrs": {"cores": "int", "mem": {"type": "array<string>", "default": ["a", "b"]}},
            "default_keys": ["npu"],
        }
    },
    "tags": {"my/board": {"kind": "llvm", "mcpu": "cortex-a53", "mattr": ["+neon"]}},
}


def _user_registry(tmp_path: Path) -> targetlang.Registry:
    path = tmp_path / "registry.json"
    path.write_text(json.dumps(_USER_REGISTRY))
    return targetlang.load_registry(str(path))


@pytest.mark.parametrize("text", ["npu -cores=4", "my/board", "llvm -mcpu=x -host=npu", '{"kind": "npu", "cores": 2}'])
def test_targets_of_a_user_registry_pickle(tmp_path: Path, text: str) -> None:
    registry = _user_registry(tmp_path)
    target = parse(text, registry=registry)
    back = pickle.loads(pickle.dumps(target))
    assert (back, str(back), back.registry) == (target, text, registry)
    assert back.resolve() == target.resolve() and back.resolve().keys == target.resolve().keys


def test_builtin_registries_unpickle_as_the_same_object() -> None:
    for version in ("0.22", "0.19", "0.8"):
        registry = targetlang.builtin_registry(version)
        assert pickle.loads(pickle.dumps(registry)) is registry
    assert targetlang.builtin_registry() is targetlang.builtin_registry("v0.22.0")


def _read_in_a_worker(target: Target) -> tuple[str, str, list[str]]:
    return (str(target), target.to_legacy_str(), sorted(target.registry.kinds))


def test_targets_of_a_user_registry_cross_process_boundaries(tmp_path: Path) -> None:
    # What broke multiprocessing: a worker receives the target pickled.
    target = parse("npu -cores=4", registry=_user_registry(tmp_path))
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        text, legacy, kinds = pool.submit(_read_in_a_worker, target).result(timeout=120)
    assert (text, legacy) == ("npu -cores=4", "npu -keys=npu -cores=4 -mem=a,b")
    assert "npu" in kinds and "llvm" in kinds


def test_the_package_shows_its_public_names() -> None:
    public = [name for name in dir(targetlang) if not name.startswith("__")]
    assert public == sorted(targetlang.__all__)
    assert "parse_tvmc" in public and "Any" not in public and "TYPE_CHECKING" not in public
    for name in targetlang.__all__:
        assert getattr(targetlang, name) is not None


def test_the_typed_attribute_names_are_the_registries() -> None:
    # Target.__getitem__'s overloads: each name of a built-in kind's attribute, by its type.
    import typing

    from targetlang import _attribute_names as names

    python_type = {
        "StringAttribute": "string",
        "IntAttribute": "int",
        "BoolAttribute": "bool",
        "StringArrayAttribute": "array<string>",
        "TargetArrayAttribute": "array<target>",
    }
    typed = {name: kind for alias, kind in python_type.items() for name in typing.get_args(getattr(names, alias))}
    found = {
        name: str(spec.type)
        for version in ("0.22", "0.27")
        for schema in targetlang.builtin_registry(version).kinds.values()
        for name, spec in schema.attrs.items()
        if name not in ("keys", "tag", "host")
    }
    assert typed == found
