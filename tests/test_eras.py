"""Reading target strings by era: the real old logs, golden cases per era, errors, and properties."""

from __future__ import annotations

import json
import pickle
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import targetlang
from targetlang import TargetError, builtin_registry
from targetlang._eras import ERAS, era_for_version, era_registry
from targetlang._parsing import parse_in_era

from .conftest import data_path, examples, read_jsonl
from .newest import NEWEST, UNKNOWN

# ----------------------------------------------------------------------------- eras and versions


def test_eras_are_named_labelled_and_ordered() -> None:
    assert list(ERAS) == ["0.6", "0.7", "0.8", "0.22"]
    assert [e.label for e in ERAS.values()] == ["E0", "E1", "E2", "E3"]
    assert [e.releases for e in ERAS.values()] == ["TVM <= v0.6", "TVM v0.7", "TVM v0.8 - v0.9", "TVM v0.10 - v0.23"]
    assert all(e.summary for e in ERAS.values())


@pytest.mark.parametrize(
    ("version", "era"),
    [
        ("0.4.0", "0.6"),
        ("0.6.1", "0.6"),
        ("0.7.dev0", "0.7"),
        ("0.7.0", "0.7"),
        ("0.8.dev0", "0.8"),
        ("0.8.0", "0.8"),
        ("v0.9.0", "0.8"),
        ("0.9.dev1092+g0123abc", "0.8"),
        ("0.10.0", "0.22"),
        ("0.19.dev123", "0.22"),
        ("0.22.0.post1", "0.22"),
        ("0.23.0rc0", "0.22"),
        ("0.27.0", "0.22"),  # JSON-only releases: their texts are read by the default era
    ],
)
def test_era_for_version(version: str, era: str) -> None:
    assert era_for_version(version) == era


@pytest.mark.parametrize(
    ("version", "message"),
    [
        ("garbage", "not a TVM version: 'garbage' (expected something like '0.8.0' or '0.7.dev0')"),
        ("", "not a TVM version: '' (expected something like '0.8.0' or '0.7.dev0')"),
        (" 0.8.0", "not a TVM version: ' 0.8.0' (expected something like '0.8.0' or '0.7.dev0')"),
        ("0.8.x", "not a TVM version: '0.8.x' (expected something like '0.8.0' or '0.7.dev0')"),
        (None, "not a TVM version: None (expected something like '0.8.0' or '0.7.dev0')"),
        (f"{UNKNOWN}.0", f"unknown TVM version '{UNKNOWN}.0': targetlang knows TVM v0.1 to v{NEWEST}"),
        ("1.0", f"unknown TVM version '1.0': targetlang knows TVM v0.1 to v{NEWEST}"),
        ("0.0.1", f"unknown TVM version '0.0.1': targetlang knows TVM v0.1 to v{NEWEST}"),
    ],
)
def test_era_for_version_rejects(version: Any, message: str) -> None:
    with pytest.raises(ValueError) as info:
        era_for_version(version)
    assert str(info.value) == message


def test_unknown_era_is_a_value_error() -> None:
    with pytest.raises(ValueError) as info:
        parse_in_era("llvm", "0.5")
    assert str(info.value) == (
        "unknown era '0.5': one of '0.6', '0.7', '0.8', '0.22' (era_for_version maps a TVM version to one)"
    )
    assert not isinstance(info.value, TargetError)
    with pytest.raises(TypeError):
        parse_in_era({"kind": "llvm"}, "0.8")  # type: ignore[arg-type]


def test_era_registries() -> None:
    e0 = era_registry("0.6")
    assert sorted(e0.kinds) == sorted(
        [
            *("llvm", "c", "cuda", "nvptx", "rocm", "opencl", "metal", "vulkan", "opengl", "sdaccel"),
            *("aocl", "aocl_sw_emu", "stackvm", "ext_dev", "hybrid", "hexagon"),
        ]
    )
    assert not e0.tags
    assert e0.kinds["opengl"].default_keys == ("opengl",)
    assert era_registry("0.7") is builtin_registry("0.7")
    e2 = era_registry("0.8")
    assert "shared_memory_per_block" in e2.kinds["cuda"].attrs  # v0.8 only
    assert "cublas" in e2.kinds and "link-params" in e2.kinds["llvm"].attrs  # v0.9 kinds, v0.8 - v0.9 attrs
    assert era_registry("0.22") is builtin_registry()


# ----------------------------------------------------------------------------- the real old logs

LOGS = data_path("corpus", "logs")
SOURCES = (LOGS / "SOURCES.md").read_text(encoding="utf-8")


def _source_tag(name: str) -> str:
    """The release a file was taken from, as SOURCES.md's table says (``| file | v0.8.0 (...) |``)."""
    found = re.search(rf"^\| {re.escape(name)} \| (v\d+\.\d+\.\d+)", SOURCES, re.MULTILINE)
    assert found, f"{name} is not in SOURCES.md"
    return found.group(1)


def _log_targets() -> list[tuple[str, str, str]]:
    """(target string, era, file) for every distinct target string of the AutoTVM and
    auto_scheduler logs, with the era of the TVM that wrote it."""
    found: dict[tuple[str, str], str] = {}
    for path in sorted((LOGS / "autotvm").glob("*.log")) + sorted((LOGS / "auto_scheduler").glob("*.json")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip() or line.startswith("#"):
                continue
            record = json.loads(line)
            if "input" in record:  # AutoTVM log format 0.2 (v0.7 - v0.19)
                text = record["input"][0]
            elif isinstance(record["i"][0], str):  # AutoTVM log format 0.1 (<= v0.6)
                text = record["i"][0]
            else:  # auto_scheduler
                text = record["i"][0][1]
            if "tvm_version" in record:
                era = era_for_version(record["tvm_version"])
            elif path.parent.name == "auto_scheduler":
                era = era_for_version(_source_tag(path.name))
            else:
                # The compact format is AutoTVM's log format 0.1, written by TVM <= v0.6 (spec 12.1)
                # and no longer read from v0.7 on; SOURCES.md calls it the older format.
                assert record["v"] == 0.1
                era = "0.6"
            found.setdefault((text, era), path.name)
    return [(text, era, name) for (text, era), name in found.items()]


LOG_TARGETS = _log_targets()


def test_the_logs_hold_targets_of_several_eras() -> None:
    assert len(LOG_TARGETS) >= 14
    assert {era for _, era, _ in LOG_TARGETS} == {"0.6", "0.7", "0.8", "0.22"}


@pytest.mark.parametrize(("text", "era", "name"), LOG_TARGETS, ids=[f"{n}:{t}" for t, _, n in LOG_TARGETS])
def test_log_target_reads_in_its_era_and_prints_back(text: str, era: str, name: str) -> None:
    target = parse_in_era(text, era)
    assert str(target) == text
    assert target.kind in ("llvm", "ext_dev", "cuda")
    # Every one of them is also readable in the modern form it migrates to.
    assert targetlang.parse(target.canonical(), registry=target.registry) == target


def test_e0_log_targets_carry_the_triple_whichever_spelling() -> None:
    e0 = [text for text, era, _ in LOG_TARGETS if era == "0.6"]
    assert len(e0) == 7
    for text in e0:
        target = parse_in_era(text, "0.6")
        assert target["device"] == "arm_cpu"
        assert target["mtriple"] == re.search(r"-(?:target|mtriple)=(\S+)", text).group(1)  # type: ignore[union-attr]


def test_v08_log_target_is_rejected_by_the_default_era() -> None:
    # Why eras exist: v0.22 no longer knew link-params.
    with pytest.raises(targetlang.UnknownAttributeError):
        targetlang.parse("llvm -keys=cpu -link-params=0")
    assert parse_in_era("llvm -keys=cpu -link-params=0", "0.8")["link-params"] is False


# ----------------------------------------------------------------------------- golden cases

GOLDEN: list[tuple[str, str, dict[str, Any]]] = [
    # E0: options by spelling; -target is mtriple; any whitespace separates.
    (
        "0.6",
        "llvm -device=arm_cpu -model=pynq -target=armv7a-linux-eabi -mattr=+neon",
        {
            "kind": "llvm",
            "keys": None,
            "device": "arm_cpu",
            "model": "pynq",
            "mtriple": "armv7a-linux-eabi",
            "mattr": ("+neon",),
        },
    ),
    (
        "0.6",
        "llvm\t-target=aarch64-linux-gnu\n -mcpu=cortex-a53 ",
        {"mtriple": "aarch64-linux-gnu", "mcpu": "cortex-a53"},
    ),
    ("0.6", "llvm -mcpu skylake-avx512 -mattr +avx2,+fma", {"mcpu": "skylake-avx512", "mattr": ("+avx2", "+fma")}),
    ("0.6", "llvm -mtriple=aarch64-linux-gnu --system-lib", {"mtriple": "aarch64-linux-gnu", "system-lib": True}),
    ("0.6", "llvm -mfloat-abi=soft", {"mfloat-abi": "soft"}),
    ("0.6", "cuda -libs=cudnn,cublas -model=tx2", {"kind": "cuda", "libs": ("cudnn", "cublas"), "model": "tx2"}),
    ("0.6", "opencl -device=mali -keys=mali_gpu", {"device": "mali", "keys": ("mali_gpu",)}),
    ("0.6", "llvm -keys=a,,b,", {"keys": ("a", "", "b")}),  # getline: empty items kept, final comma ends
    ("0.6", "rocm -mcpu gfx900 -model=a=b", {"mcpu": "gfx900", "model": "a=b"}),
    ("0.6", "ext_dev -device=vta -keys=cpu -model=pynq", {"device": "vta", "keys": ("cpu",), "model": "pynq"}),
    ("0.6", "opengl", {"kind": "opengl", "keys": None}),
    ("0.6", "stackvm", {"kind": "stackvm"}),
    ("0.6", "llvm -mcpu=it's\\", {"mcpu": "it's\\"}),  # verbatim: no quoting at all
    # E1: whitespace split, no quoting, 32-bit integers without true/false.
    (
        "0.7",
        "llvm -device=arm_cpu -model=pynq -mtriple=armv7a-linux-eabi -mattr=+neon",
        {"device": "arm_cpu", "model": "pynq", "mtriple": "armv7a-linux-eabi", "mattr": ("+neon",)},
    ),
    (
        "0.7",
        "ext_dev -device=vta -keys=cpu -model=pynq_1x16",
        {"device": "vta", "keys": ("cpu",), "model": "pynq_1x16"},
    ),
    ("0.7", "llvm\t-mcpu=a'b\\c\n", {"mcpu": "a'b\\c"}),
    ("0.7", "cuda -max_num_threads=4abc --system-lib", {"max_num_threads": 4, "system-lib": True}),
    (
        "0.7",
        "cuda -max_num_threads=-2147483648 -thread_warp_size 3",
        {"max_num_threads": -(2**31), "thread_warp_size": 3},
    ),
    ("0.7", "llvm -mattr=+a,+b,", {"mattr": ("+a", "+b")}),
    ("0.7", "llvm -model=a=b -runtime=c", {"model": "a=b", "runtime": "c"}),
    ("0.7", "cuda -libs=cudnn -keys=cuda,gpu -max_num_threads=1024", {"libs": ("cudnn",), "keys": ("cuda", "gpu")}),
    # E2: quotes removed by the split, \' is a quote, other backslashes literal, no interpretation.
    (
        "0.8",
        "llvm -keys=cpu -link-params=0 -mcpu=cortex-m3",
        {"kind": "llvm", "keys": ("cpu",), "link-params": False, "mcpu": "cortex-m3"},
    ),
    ("0.8", "vulkan '-device_name=Name of GPU with spaces'", {"device_name": "Name of GPU with spaces"}),
    ("0.8", "vulkan -device_name='A B' -device_type=discrete", {"device_name": "A B", "device_type": "discrete"}),
    ("0.8", "llvm '-mattr=\\'a,b\\',c'", {"mattr": ("a,b", "c")}),
    ("0.8", "llvm -mcpu=it\\'s -model=a\\b", {"mcpu": "it's", "model": "a\\b"}),
    ("0.8", "llvm -mcpu=' x '", {"mcpu": "x"}),
    ("0.8", "llvm --link-params=True -system-lib=FALSE", {"link-params": True, "system-lib": False}),
    ("0.8", "llvm '-num-cores= 4abc' -fast-math=2", {"num-cores": 4, "fast-math": True}),
    ("0.8", "'llvm' -mcpu=x", {"kind": "llvm", "mcpu": "x"}),
    ("0.8", "llvm -mcpu ''", {"mcpu": "1"}),  # the empty word is dropped: -mcpu becomes a flag
    (
        "0.8",
        "cuda -shared_memory_per_block=49152 -libs=cublas,,cudnn",
        {"shared_memory_per_block": 49152, "libs": ("cublas", "cudnn")},
    ),
    ("0.8", "cudnn", {"kind": "cudnn"}),
    ("0.8", "c -executor=aot -interface-api=c --unpacked-api", {"executor": "aot", "unpacked-api": True}),
    # E3: the default reader.
    ("0.22", "llvm -mcpu=it\\'s -mattr='+a,+b'", {"mcpu": "it's", "mattr": ("+a", "+b")}),
]


@pytest.mark.parametrize(("era", "text", "expected"), GOLDEN, ids=[f"{e}:{t}" for e, t, _ in GOLDEN])
def test_golden(era: str, text: str, expected: dict[str, Any]) -> None:
    target = parse_in_era(text, era)
    assert str(target) == text
    for name, value in expected.items():
        if name == "kind":
            assert target.kind == value
        elif name == "keys":
            assert target.declared_keys == value
        else:
            got = target[name]
            assert got == value and type(got) is type(value), name


def test_e0_attributes_are_exactly_what_the_options_say() -> None:
    target = parse_in_era("llvm -device=arm_cpu -model=pynq -target=armv7a-linux-eabi -mattr=+neon", "0.6")
    assert dict(target.attrs) == {
        "device": "arm_cpu",
        "model": "pynq",
        "mtriple": "armv7a-linux-eabi",
        "mattr": ("+neon",),
    }
    assert target.source_span("mtriple") == (33, 58)
    assert target.registry is era_registry("0.6")


def test_nested_targets_follow_the_era() -> None:
    # E1 (c127): composite had target_host; array items are targets.
    composite = parse_in_era("composite --target_host=llvm --devices=cuda,opencl", "0.7")
    assert composite["target_host"].kind == "llvm"
    assert [d.kind for d in composite["devices"]] == ["cuda", "opencl"]
    # E2: the outer split removed the quotes; the host is read again with E2's rules.
    # Every level of nesting needs one more level of escaping: \\' gives \' gives '.
    target = parse_in_era("cuda -host='llvm -mcpu=it\\\\'s -link-params=1'", "0.8")
    assert target.host is not None
    assert str(target.host) == "llvm -mcpu=it\\'s -link-params=1"
    assert target.host["mcpu"] == "it's" and target.host["link-params"] is True
    devices = parse_in_era("composite --devices=cuda,'llvm -mcpu=x'", "0.8")["devices"]
    assert [str(d) for d in devices] == ["cuda", "llvm -mcpu=x"]


def test_tags_and_json_in_e1_and_e2_but_not_e0() -> None:
    for era in ("0.7", "0.8"):
        assert parse_in_era("nvidia/gtx1080ti", era).kind == "cuda"
        target = parse_in_era('{"kind": "llvm", "system-lib": true}', era)
        assert target["system-lib"] is True and str(target) == '{"kind": "llvm", "system-lib": true}'
    with pytest.raises(targetlang.UnknownKindError):
        parse_in_era('{"kind": "llvm"}', "0.6")
    # each era has the tags its releases had: v0.7 two, v0.8 - v0.9 the jetsons too
    assert parse_in_era("nvidia/jetson-nano", "0.8").kind == "cuda"
    with pytest.raises(targetlang.UnknownKindError):
        parse_in_era("nvidia/jetson-nano", "0.7")


def test_default_era_is_parse() -> None:
    text = "llvm -mcpu=it\\'s -mattr='+a,+b'"
    assert parse_in_era(text, "0.22") is targetlang.parse(text)
    with pytest.raises(targetlang.UnknownAttributeError):
        parse_in_era("llvm -link-params=0", "0.22")


def test_parse_takes_an_era() -> None:
    text = "vulkan '-device_name=Name of GPU with spaces'"
    assert targetlang.parse(text, era="0.8") == parse_in_era(text, "0.8")
    assert str(targetlang.parse(text, era="0.8")) == text


def test_a_registry_can_be_given() -> None:
    registry = builtin_registry("0.8").register_kind("npu", {"cores": "int"}, default_keys=["npu"])
    target = parse_in_era("npu '-cores=8'", "0.8", registry=registry)
    assert target["cores"] == 8 and target.registry is registry
    with pytest.raises(targetlang.UnknownKindError):
        parse_in_era("npu -cores=8", "0.8")


def test_era_targets_resolve_and_convert() -> None:
    # resolve() is v0.22's pipeline whatever the era (see the module documentation).
    target = parse_in_era("llvm -keys=cpu -link-params=0 -mcpu=cortex-m3", "0.8")
    # ...over the era's registry: no CPU target parser before v0.10, so no arm_cpu key merging.
    resolved = target.resolve()
    assert resolved.keys == ("cpu",)
    assert resolved["link-params"] is False
    assert target.to_json() == {"kind": "llvm", "keys": ["cpu"], "link-params": False, "mcpu": "cortex-m3"}
    assert target == targetlang.parse("llvm -keys=cpu -mcpu=cortex-m3 -link-params=0", registry=target.registry)


# ----------------------------------------------------------------------------- errors

ERRORS: list[tuple[str, str, type[TargetError], str]] = [
    (
        "0.6",
        "lvm -mcpu=x",
        targetlang.UnknownKindError,
        "unknown target kind 'lvm'; did you mean 'llvm'? (TVM <= v0.6 logged an error and used 'stackvm' instead)\n"
        "  lvm -mcpu=x\n  ^^^",
    ),
    (
        "0.6",
        "webgpu",
        targetlang.UnknownKindError,
        "unknown target kind 'webgpu' (TVM <= v0.6 logged an error and used 'stackvm' instead)\n  webgpu\n  ^^^^^^",
    ),
    (
        "0.6",
        "llvm -mcpi=x",
        targetlang.UnknownAttributeError,
        "TVM <= v0.6 did not read option '-mcpi' for kind 'llvm'; did you mean '-mcpu'?\n  llvm -mcpi=x\n       ^^^^^",
    ),
    (
        "0.6",
        "llvm --mcpu=x",
        targetlang.UnknownAttributeError,
        "TVM <= v0.6 did not read option '--mcpu' for kind 'llvm'; did you mean '-mcpu'?\n"
        "  llvm --mcpu=x\n       ^^^^^^",
    ),
    (
        "0.6",
        "cuda -arch=sm_62",
        targetlang.UnknownAttributeError,
        "TVM <= v0.6 did not read option '-arch' for kind 'cuda'\n  cuda -arch=sm_62\n       ^^^^^",
    ),
    (
        "0.6",
        "llvm -device arm_cpu",
        targetlang.TargetSyntaxError,
        "TVM <= v0.6 read '-device' only in the form '-device=VALUE'\n  llvm -device arm_cpu\n       ^^^^^^^",
    ),
    (
        "0.6",
        "llvm -mtriple=a -target=b",
        targetlang.DuplicateAttributeError,
        "attribute 'mtriple' is given more than once\n  llvm -mtriple=a -target=b\n                   ^^^^^^",
    ),
    (
        "0.6",
        "llvm -mcpu",
        targetlang.EmptyKeyOrValueError,
        "option '-mcpu' needs a value ('-mcpu=VALUE' or '-mcpu VALUE')\n  llvm -mcpu\n       ^^^^^",
    ),
    (
        "0.6",
        "llvm -mfloat-abi=softfp",
        targetlang.ValueConversionError,
        "attribute 'mfloat-abi' is 'hard' or 'soft' in TVM <= v0.6, not 'softfp'\n"
        "  llvm -mfloat-abi=softfp\n                   ^^^^^^",
    ),
    (
        "0.6",
        " \t\n",
        targetlang.TargetSyntaxError,
        "cannot parse an empty target string (line 1, column 1)\n   ␉\n  ^^",
    ),
    (
        "0.7",
        "llvm -target=aarch64-linux-gnu",
        targetlang.UnknownAttributeError,
        "kind 'llvm' has no attribute 'target' since TVM v0.7: it is TVM <= v0.6's 'mtriple'\n"
        "  llvm -target=aarch64-linux-gnu\n        ^^^^^^",
    ),
    (
        "0.7",
        "cuda -max_num_threads=true",
        targetlang.ValueConversionError,
        "attribute 'max_num_threads' is int: cannot parse a 32-bit integer from 'true'\n"
        "  cuda -max_num_threads=true\n                        ^^^^",
    ),
    (
        "0.7",
        "cuda -max_num_threads=2147483648",
        targetlang.ValueConversionError,
        "attribute 'max_num_threads' is int: cannot parse a 32-bit integer from '2147483648'\n"
        "  cuda -max_num_threads=2147483648\n                        ^^^^^^^^^^",
    ),
    (
        "0.7",
        "llvm -mattr=+a,,+b",
        targetlang.ValueConversionError,
        "attribute 'mattr' has an empty item: TVM v0.7 could not read it\n  llvm -mattr=+a,,+b\n                 ^",
    ),
    (
        "0.7",
        "llvm -mcpu='a b'",
        targetlang.MissingDashError,
        "expected an option starting with '-', found 'b''\n  llvm -mcpu='a b'\n                ^^",
    ),
    (
        "0.7",
        "composite --target_host=lvm",
        targetlang.UnknownKindError,
        "unknown target kind 'lvm'; did you mean 'llvm'?\n  composite --target_host=lvm\n                          ^^^",
    ),
    (
        "0.8",
        "llvm -mcpu='x",
        targetlang.MismatchedQuoteError,
        "mismatched quote: this quote is never closed\n  llvm -mcpu='x\n             ^",
    ),
    (
        "0.8",
        "llvm '-mcpu=   '",
        targetlang.ValueConversionError,
        "attribute 'mcpu' is only spaces, which TVM v0.8 - v0.9 could not read\n  llvm '-mcpu=   '\n              ^^^",
    ),
    (
        "0.8",
        "llvm -num-cores=yes",
        targetlang.ValueConversionError,
        "attribute 'num-cores' is int: cannot parse a 32-bit integer from 'yes'\n"
        "  llvm -num-cores=yes\n                  ^^^",
    ),
    (
        "0.8",
        "llvm -mattr='+a,\\'b'",
        targetlang.MismatchedQuoteError,
        "mismatched quote: this quote is never closed\n  llvm -mattr='+a,\\'b'\n                   ^",
    ),
    (
        "0.8",
        "cuda -host='llvm -num-cores=x'",
        targetlang.ValueConversionError,
        "attribute 'num-cores' is int: cannot parse a 32-bit integer from 'x'\n"
        "  cuda -host='llvm -num-cores=x'\n                              ^",
    ),
    (
        "0.8",
        "cuda -host='llvm -mcpu=it\\'s'",  # the outer split turned \' into a quote, which opens one inside
        targetlang.MismatchedQuoteError,
        "mismatched quote: this quote is never closed\n  cuda -host='llvm -mcpu=it\\'s'\n                            ^",
    ),
    (
        "0.8",
        "llvm -kind=c",
        targetlang.DuplicateAttributeError,
        "attribute 'kind' is given more than once\n  llvm -kind=c\n        ^^^^",
    ),
    (
        "0.8",
        "llvm -mcpu= -x",
        targetlang.EmptyKeyOrValueError,
        "empty attribute key or value in '-mcpu='\n  llvm -mcpu= -x\n       ^^^^^^",
    ),
    (
        "0.8",
        "llvm '--'",
        targetlang.MissingDashError,
        "''--'' is not an option: dashes need a key after them\n  llvm '--'\n       ^^^^",
    ),
    (
        "0.8",
        "llvm -shared_memory_per_block=1",
        targetlang.UnknownAttributeError,
        "kind 'llvm' has no attribute 'shared_memory_per_block'\n"
        "  llvm -shared_memory_per_block=1\n        ^^^^^^^^^^^^^^^^^^^^^^^",
    ),
    ("0.8", "''", targetlang.TargetSyntaxError, "cannot parse an empty target string\n  ''\n  ^^"),
]


@pytest.mark.parametrize(("era", "text", "kind", "message"), ERRORS, ids=[f"{e}:{t}" for e, t, _, _ in ERRORS])
def test_errors(era: str, text: str, kind: type[TargetError], message: str) -> None:
    with pytest.raises(kind) as info:
        parse_in_era(text, era)
    assert str(info.value) == message
    assert info.value.source == text


def test_unknown_option_suggestions() -> None:
    with pytest.raises(targetlang.UnknownAttributeError) as info:
        parse_in_era("llvm -mcpi=x", "0.6")
    assert info.value.suggestions == ("-mcpu",)
    with pytest.raises(targetlang.UnknownAttributeError) as info:
        parse_in_era("llvm -target=x", "0.8")
    assert info.value.suggestions == ("mtriple",)


# ----------------------------------------------------------------------------- conformance (@v0.7.0, @v0.8.0)

OLD_CASES = [
    c
    for c in read_jsonl("conformance", "tvm-cases.jsonl")
    if re.search(r"@v0\.[6-9]\.", c["source"]) and isinstance(c["input"], str) and "tvmc" not in c.get("api", "")
]


def test_old_cases_are_there() -> None:
    assert {c["id"] for c in OLD_CASES} >= {"c121", "c123", "c124", "c126", "c127", "c129", "c130"}


@pytest.mark.parametrize("case", OLD_CASES, ids=[c["id"] for c in OLD_CASES])
def test_old_conformance_case(case: dict[str, Any]) -> None:
    era = era_for_version(case["source"].rsplit("@", 1)[1])
    target = parse_in_era(case["input"], era)
    assert str(target) == case["input"]
    expect = case["expect"]
    if "kind" in expect:
        assert target.kind == expect["kind"]
    for name, value in expect.get("attrs", {}).items():
        assert target[name] == (tuple(value) if isinstance(value, list) else value)
    for name, items in expect.get("attrs_include", {}).items():
        assert all(item in target[name] for item in items)
    for name, value in expect.get("attrs_targets", {}).items():
        got = target[name]
        kinds = [t.kind for t in got] if isinstance(value, list) else got.kind
        assert kinds == ([v["kind"] for v in value] if isinstance(value, list) else value["kind"])


# ----------------------------------------------------------------------------- core integration


def test_edits_of_era_targets_keep_their_meaning() -> None:
    target = parse_in_era("llvm -model=a\\b", "0.7")  # a backslash is an ordinary character in E1
    edited = target.with_attr("mcpu", "x")
    assert edited["model"] == "a\\b"
    assert edited["mcpu"] == "x"


@pytest.mark.parametrize(
    ("text", "era"),
    [
        ("llvm -model=a\\b", "0.7"),
        ("llvm -device=arm_cpu -target=armv7l-linux-gnueabihf", "0.6"),
        ("cuda -model='a b' -shared_memory_per_block=4", "0.8"),
    ],
)
def test_era_targets_pickle(text: str, era: str) -> None:
    target = parse_in_era(text, era)
    back = pickle.loads(pickle.dumps(target))
    assert back == target
    assert str(back) == text
    edited = target.with_attr("tag", "t")
    assert pickle.loads(pickle.dumps(edited)) == edited


# ----------------------------------------------------------------------------- properties

_SETTINGS = settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])

_NAMES = sorted(
    {name for era in ERAS for kind in era_registry(era).kinds.values() for name in kind.attrs}
    | {"target", "mtriple", "system-lib", "kind"}
)
_VALUE_CHARS = list("abcxyz0129,=+-_.'\\\" é")


def _kinds(era: str) -> st.SearchStrategy[str]:
    names = sorted(era_registry(era).kinds)
    return st.one_of(
        st.sampled_from(names), st.sampled_from(names), st.text(st.sampled_from(list("lvmx{'")), max_size=4)
    )


def _joined(words: list[str], seps: list[str], lead: str, trail: str) -> str:
    out = lead
    for i, word in enumerate(words):
        out += word + (seps[i % len(seps)] if i + 1 < len(words) else trail)
    return out


@st.composite
def _whitespace_texts(draw: st.DrawFn, era: str) -> str:
    """E0/E1: words at any whitespace, options in every form the eras knew."""
    value = st.text(st.sampled_from([c for c in _VALUE_CHARS if c != " "]), min_size=0, max_size=6)
    option = st.builds(
        lambda dashes, name, rest: "-" * dashes + name + rest,
        st.sampled_from([1, 1, 1, 2]),
        st.sampled_from(_NAMES),
        st.one_of(st.just(""), value.map(lambda v: "=" + v)),
    )
    words = [draw(_kinds(era)), *draw(st.lists(st.one_of(option, option, value.filter(bool)), max_size=5))]
    seps = draw(st.lists(st.sampled_from([" ", "  ", "\t", "\n", " \r\n"]), min_size=1, max_size=3))
    return _joined(words, seps, draw(st.sampled_from(["", " ", "\t"])), draw(st.sampled_from(["", " ", "\n"])))


@st.composite
def _quoted_texts(draw: st.DrawFn) -> str:
    """E2: words with quoted regions (spaces inside), \\' and other backslashes."""
    piece = st.one_of(
        st.text(st.sampled_from([c for c in _VALUE_CHARS if c not in " '"]), min_size=1, max_size=4),
        st.just("\\'"),
        st.text(st.sampled_from([*_VALUE_CHARS, ",", " "]), max_size=6).map(
            lambda s: "'" + s.replace("'", "\\'") + "'"
        ),
    )
    value = st.lists(piece, max_size=3).map("".join)
    option = st.builds(
        lambda q, dashes, name, rest: (q + "-" * dashes + name + rest + q) if q else "-" * dashes + name + rest,
        st.sampled_from(["", "", "'"]),
        st.sampled_from([1, 1, 2]),
        st.sampled_from(_NAMES),
        st.one_of(st.just(""), value.map(lambda v: "=" + v.replace("'", "\\'"))),
    )
    plain_option = st.builds(lambda d, n, v: "-" * d + n + v, st.sampled_from([1, 2]), st.sampled_from(_NAMES), value)
    words = [draw(_kinds("0.8")), *draw(st.lists(st.one_of(option, plain_option, value.filter(bool)), max_size=5))]
    seps = draw(st.lists(st.sampled_from([" ", "  "]), min_size=1, max_size=2))
    return _joined(words, seps, draw(st.sampled_from(["", " "])), draw(st.sampled_from(["", " "])))


def _check_identity(text: str, era: str) -> None:
    try:
        target = parse_in_era(text, era)
    except TargetError as err:
        # A rejection is a TargetError about the text, with a span inside it; never another error.
        assert err.source == text
        assert 0 <= err.start <= err.end <= len(text)
        return
    assert str(target) == text
    # The target migrates: its canonical (v0.22) text and its JSON read back to an equal target.
    assert targetlang.parse(target.canonical(), registry=target.registry) == target
    assert targetlang.parse(target.to_json(), registry=target.registry) == target


@_SETTINGS
@given(st.sampled_from(["0.6", "0.7"]).flatmap(lambda era: st.tuples(st.just(era), _whitespace_texts(era))))
def test_whitespace_era_texts_print_back(case: tuple[str, str]) -> None:
    era, text = case
    _check_identity(text, era)


@_SETTINGS
@given(_quoted_texts())
def test_e2_texts_print_back(text: str) -> None:
    _check_identity(text, "0.8")


@_SETTINGS
@given(st.text(st.sampled_from(list(" \t-='\\,abl{}\"vm")), max_size=20), st.sampled_from(list(ERAS)))
def test_any_text_is_read_or_cleanly_rejected(text: str, era: str) -> None:
    _check_identity(text, era)


def test_the_generators_reach_accepted_targets() -> None:
    # Guard against generators that only ever produce rejected texts.
    accepted = {"0.6": 0, "0.7": 0, "0.8": 0}

    @settings(max_examples=200, deadline=None, database=None)  # (a count, not a property: all of them)
    @given(st.data())
    def run(data: st.DataObject) -> None:
        for era in accepted:
            text = data.draw(_quoted_texts() if era == "0.8" else _whitespace_texts(era))
            try:
                parse_in_era(text, era)
                accepted[era] += 1
            except TargetError:
                pass

    run()
    assert all(count > 5 for count in accepted.values()), accepted


def test_documentation_has_the_era_section() -> None:
    doc = (Path(__file__).resolve().parents[1] / "docs" / "language.md").read_text(encoding="utf-8")
    section = doc.split("## Older TVM versions (eras)\n", 1)[1].split("\n## ", 1)[0]
    for era in ERAS.values():
        assert f"`{era.name}`" in section and era.label in section
    assert doc.index("## Older TVM versions (eras)") < doc.index("## Grammar")
