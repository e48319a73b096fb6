"""Migration to the modern JSON form: golden before/after pairs, one per rule, and the corpus."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import targetlang
from targetlang.migration import RULES, Change, Migration, Rule, docs_table, migrate
from targetlang.migration._checks import CHECKS_FILE, checks
from tests.differential.common import decode

from .conftest import read_jsonl
from .newest import MODERN_LIST, NEWEST

MODERN_REGISTRY = targetlang.builtin_registry("0.27")


def assert_migrates(
    legacy: str | dict[str, Any], expected: dict[str, Any] | None, rules: Sequence[tuple[str, str]] = (), **options: Any
) -> Migration:
    """``legacy`` migrates to ``expected`` (None: it cannot), applying exactly ``rules``:
    (rule id, severity) pairs in order. The target is what TVM 0.27's registry reads from the
    JSON: a ``{"tag": ...}`` config expanded, any other config written back as it is."""
    m = migrate(legacy, **options)
    assert m.json == expected
    assert [(c.rule, c.severity) for c in m.changes] == list(rules)
    assert m.ok == (expected is not None)
    if expected is None:
        assert m.target is None
        return m
    try:
        read = targetlang.parse(expected, registry=MODERN_REGISTRY)
    except targetlang.TargetError:
        # only policy "keep" keeps what TVM 0.27 cannot read; there is then no target
        assert options.get("policy") == "keep"
        assert m.target is None
        return m
    assert m.target is not None
    assert m.target == read
    if "tag" not in expected:
        assert m.target.to_json() == expected
    return m


_REMOVED_ATTRS = ["system-lib", "link-params", "runtime", "executor", "unpacked-api", "interface-api"]


def _removed_attr_text(attr: str) -> str:
    value = {"system-lib": "1", "link-params": "1", "unpacked-api": "1"}.get(attr, "c")
    return f"c -mcpu=cortex-m7 -{attr}={value}"


_REMOVED_KINDS = ["sdaccel", "aocl", "aocl_sw_emu", "stackvm", "hybrid"]
_A100 = (
    "cuda -keys=cuda,gpu -arch=sm_80 -l2_cache_size_bytes=41943040 -max_num_threads=1024 "
    "-max_shared_memory_per_block=49152 -max_threads_per_block=1024 -registers_per_block=65536 -thread_warp_size=32"
    " -model=a100"
)

# Golden before/after pairs: (input, migrate's options, changes as (rule, severity) in order, the
# JSON or None). Every rule has one at least (test_every_rule_has_a_golden_case, with CHECK_ROWS
# and VALUE_ROWS below); what a change says and where is tested after the table.
Golden = tuple[Any, dict[str, Any], list[tuple[str, str]], dict[str, Any] | None]
GOLDENS: list[Golden] = [
    # plain strings migrate unchanged
    (
        "llvm -mcpu=skylake-avx512 -mattr=+avx2,+fma",
        {},
        [],
        {"kind": "llvm", "mcpu": "skylake-avx512", "mattr": ["+avx2", "+fma"]},
    ),
    ("cuda --host llvm -libs=cudnn", {}, [], {"kind": "cuda", "host": {"kind": "llvm"}, "libs": ["cudnn"]}),
    # target-to-mtriple renames the option, not the substring
    (
        "llvm -device=arm_cpu -target=aarch64-linux-gnu -target_device_type=1",
        {},
        [("target-to-mtriple", "info")],
        {"kind": "llvm", "device": "arm_cpu", "mtriple": "aarch64-linux-gnu", "target_device_type": 1},
    ),
    # TVM <= v0.6 read -target itself (era "0.6"); the rename is still reported where it stands
    (
        "llvm -device=arm_cpu -target=armv7l-linux-gnueabihf",
        {"era": "0.6"},
        [("target-to-mtriple", "info")],
        {"kind": "llvm", "device": "arm_cpu", "mtriple": "armv7l-linux-gnueabihf"},
    ),
    ("llvm -mtriple=aarch64-linux-gnu", {"era": "0.6"}, [], {"kind": "llvm", "mtriple": "aarch64-linux-gnu"}),
    ("llvm -target=armv7-linux -mtriple=aarch64-linux-gnu", {}, [("target-to-mtriple", "error")], None),
    # AutoTVM's log reader rewrote -target anywhere in the text; as an attribute, it is renamed
    # at every depth
    (
        "cuda --host='llvm -target=aarch64-linux-gnu'",
        {},
        [("target-to-mtriple", "info")],
        {"kind": "cuda", "host": {"kind": "llvm", "mtriple": "aarch64-linux-gnu"}},
    ),
    (
        "cuda",
        {"host": "llvm -target=x86_64-linux-gnu"},
        [("target-to-mtriple", "info"), ("separate-host", "info")],
        {"kind": "cuda", "host": {"kind": "llvm", "mtriple": "x86_64-linux-gnu"}},
    ),
    # strings of TVM v0.8 migrate in their era: E2 removes the quotes in the split, so the model
    # is the quoted word without its quotes
    (
        "cuda -model='tx 2' -libs=cudnn,mkldnn",
        {"era": "0.8"},
        [("mkldnn-to-dnnl", "info")],
        {"kind": "cuda", "model": "tx 2", "libs": ["cudnn", "dnnl"]},
    ),
    # TVM v0.6 - v0.9 appended the device and the default keys to -keys; TVM 0.27 would not
    *(
        (
            "opencl -keys=mali -device=foo",
            {"era": era},
            [("era-keys", "info")],
            {"kind": "opencl", "keys": ["mali", "foo", "opencl", "gpu"], "device": "foo"},
        )
        for era in ["0.6", "0.7", "0.8"]
    ),
    # keys that are already complete, and the default era's keys, stay as written
    *(
        ("opencl -keys=mali,opencl,gpu", {"era": era}, [], {"kind": "opencl", "keys": ["mali", "opencl", "gpu"]})
        for era in ["0.6", "0.7", "0.8"]
    ),
    ("opencl -keys=mali", {}, [], {"kind": "opencl", "keys": ["mali"]}),
    ("llvm -libs=cblas,mkldnn", {}, [("mkldnn-to-dnnl", "info")], {"kind": "llvm", "libs": ["cblas", "dnnl"]}),
    # TVM v0.9 - v0.23's Target() replaced every mkldnn of a string holding -libs=mkldnn, which
    # parse does too; TVM 0.27 does not, so the migration says what changed
    (
        "llvm -libs=mkldnn -model=mkldnn_v1",
        {},
        [("mkldnn-to-dnnl", "info")],
        {"kind": "llvm", "libs": ["dnnl"], "model": "dnnl_v1"},
    ),
    (
        "cuda -host='llvm -libs=mkldnn'",
        {},
        [("mkldnn-to-dnnl", "info")],
        {"kind": "cuda", "host": {"kind": "llvm", "libs": ["dnnl"]}},
    ),
    # a removed attribute: an error, or dropped with a warning under policy "drop"
    *((_removed_attr_text(attr), {}, [("removed-attribute", "error")], None) for attr in _REMOVED_ATTRS),
    *(
        (
            _removed_attr_text(attr),
            {"policy": "drop"},
            [("removed-attribute", "warning")],
            {"kind": "c", "mcpu": "cortex-m7"},
        )
        for attr in _REMOVED_ATTRS
    ),
    (
        "cuda -arch=sm_37 -shared_memory_per_block=49152",
        {},
        [("shared-memory-renamed", "info")],
        {"kind": "cuda", "arch": "sm_37", "max_shared_memory_per_block": 49152},
    ),
    *((kind, {}, [("removed-kind", "error")], None) for kind in _REMOVED_KINDS),
    ("cmsis-nn -mcpu=cortex-m55", {}, [("byoc-kind", "error")], None),
    ("vulkan -from_device=0", {}, [("from-device", "warning")], {"kind": "vulkan", "from_device": 0}),
    (
        "composite --target_host=llvm --devices=cuda,opencl",
        {},
        [("target-host-to-host", "info")],
        {"kind": "composite", "devices": [{"kind": "cuda"}, {"kind": "opencl"}], "host": {"kind": "llvm"}},
    ),
    (
        "cuda -arch=sm_80",
        {"host": "llvm -mcpu=skylake"},
        [("separate-host", "info")],
        {"kind": "cuda", "arch": "sm_80", "host": {"kind": "llvm", "mcpu": "skylake"}},
    ),
    ("cuda --host llvm", {"host": "c"}, [("separate-host", "warning")], {"kind": "cuda", "host": {"kind": "c"}}),
    # a tag, checked by expanding it: with its overrides; no tag, no compression
    (
        _A100,
        {"compress_tags": True},
        [("tag-compressed", "info")],
        {"tag": "nvidia/nvidia-a100", "model": "a100"},
    ),
    (
        _A100.replace("1024 -max_shared", "512 -max_shared"),
        {"compress_tags": True},
        [("tag-compressed", "info")],
        {"tag": "nvidia/nvidia-a100", "max_num_threads": 512, "model": "a100"},
    ),
    ("llvm -mcpu=skylake", {"compress_tags": True}, [], {"kind": "llvm", "mcpu": "skylake"}),
    # a Relay-era codegen kept under policy "keep": its own attribute is unknown to TVM 0.27 too,
    # and TVM 0.27 reads no target from the JSON
    (
        "ccompiler -header=x.h",
        {"policy": "keep"},
        [("byoc-kind", "warning"), ("unknown-attribute", "warning")],
        {"kind": "ccompiler", "header": "x.h"},
    ),
]


@pytest.mark.parametrize(("spec", "options", "changes", "expected"), GOLDENS, ids=[repr(g[:2])[:80] for g in GOLDENS])
def test_golden_migrations(
    spec: Any, options: dict[str, Any], changes: list[tuple[str, str]], expected: dict[str, Any] | None
) -> None:
    assert_migrates(spec, expected, changes, **options)


def test_rule_target_to_mtriple_points_at_the_option_name() -> None:
    m = migrate("llvm -device=arm_cpu -target=aarch64-linux-gnu -target_device_type=1")
    assert m.changes[0].span == (22, 28)
    assert m.source[22:28] == "target"
    m = migrate("llvm -device=arm_cpu -target=armv7l-linux-gnueabihf", era="0.6")
    assert m.changes[0].span == (22, 28)


def test_rule_target_to_mtriple_conflicts_with_an_explicit_mtriple() -> None:
    text = "llvm -target=armv7-linux -mtriple=aarch64-linux-gnu"
    change = migrate(text).changes[0]
    assert change.message == "both -target and -mtriple are given: -target is the old spelling of -mtriple"
    assert change.span is not None and text[slice(*change.span)] == "target"


@pytest.mark.parametrize("era", ["0.6", "0.7", "0.8"])
def test_rule_era_keys_says_what_the_era_made(era: str) -> None:
    m = migrate("opencl -keys=mali -device=foo", era=era)
    assert m.changes[0].message == f"keys written out in full as TVM v{era} made them: mali,foo,opencl,gpu"


def test_rule_mkldnn_to_dnnl_points_at_the_libs() -> None:
    m = migrate("llvm -libs=cblas,mkldnn")
    assert m.changes[0].span is not None and m.source[slice(*m.changes[0].span)] == "-libs=cblas,mkldnn"


def test_rule_mkldnn_to_dnnl_where_tvm_renamed_every_mkldnn() -> None:
    m = migrate("llvm -libs=mkldnn -model=mkldnn_v1")
    assert m.changes[0].message == (
        "libs: mkldnn renamed to dnnl, and 1 more 'mkldnn' in the text, as TVM's Target() replaced every one"
        " of a text holding -libs=mkldnn"
    )
    assert m.changes[0].span is not None and m.source[slice(*m.changes[0].span)] == "-libs=mkldnn"


@pytest.mark.parametrize("attr", _REMOVED_ATTRS)
def test_rule_removed_attribute_under_each_policy(attr: str) -> None:
    text = _removed_attr_text(attr)
    failed = migrate(text)
    assert failed.changes[0].span == (18, len(text))
    assert "moved to" in failed.changes[0].message
    kept = migrate(text, policy="keep")
    assert attr in (kept.json or {}) and kept.changes[0].severity == "warning" and kept.target is None


# A removed boolean set to false, what its replacement does by default: dropped with a note.
_EXEC = (
    "attribute 'executor' cannot migrate: moved to relay.backend.Executor(...), passed to the build instead of the"
    " target"
)
FALSE_BY_DEFAULT: list[tuple[str, dict[str, Any] | None, list[tuple[str, str]]]] = [
    (
        "llvm -keys=cpu -link-params=0",
        {"kind": "llvm", "keys": ["cpu"]},
        [("info", "attribute 'link-params' dropped: false is the graph executor's default, so it sets nothing")],
    ),
    (
        "c -mcpu=cortex-m7 -system-lib=0",
        {"kind": "c", "mcpu": "cortex-m7"},
        [("info", "attribute 'system-lib' dropped: false is the runtime's default, so it sets nothing")],
    ),
    (
        "c -unpacked-api=false",
        {"kind": "c"},
        [("info", "attribute 'unpacked-api' dropped: false is the AOT executor's default, so it sets nothing")],
    ),
    (
        "c -executor=graph -link-params=0",
        None,
        [
            ("error", _EXEC),
            ("info", "attribute 'link-params' dropped: false is the graph executor's default, so it sets nothing"),
        ],
    ),
    (  # the AOT executor links parameters unless told not to: false says something there
        "c -executor=aot -link-params=0",
        None,
        [
            ("error", _EXEC),
            (
                "error",
                "attribute 'link-params' cannot migrate: moved to the executor: "
                "relay.backend.Executor('graph' or 'aot', {'link-params': True})",
            ),
        ],
    ),
]


@pytest.mark.parametrize(("text", "expected", "changes"), FALSE_BY_DEFAULT)
def test_rule_removed_attribute_false_by_default(
    text: str, expected: dict[str, Any] | None, changes: list[tuple[str, str]]
) -> None:
    m = migrate(text, era="0.8")
    assert m.json == expected
    assert [(c.rule, c.severity, c.message) for c in m.changes] == [("removed-attribute", *c) for c in changes]
    # policy keep keeps what was written, false or not
    assert all(
        name in (migrate(text, era="0.8", policy="keep").json or {})
        for name in ("link-params", "system-lib", "unpacked-api")
        if name in text
    )


@pytest.mark.parametrize("kind", _REMOVED_KINDS)
def test_rule_removed_kind(kind: str) -> None:
    assert migrate(kind).changes[0].span == (0, len(kind))
    assert migrate(kind, policy="keep").json == {"kind": kind}


def test_rule_byoc_kind() -> None:
    assert "relax BYOC" in migrate("cmsis-nn -mcpu=cortex-m55").changes[0].message


def test_rule_tag_compressed_means_what_the_input_meant() -> None:
    m = migrate(_A100, compress_tags=True)
    assert m.target is not None and m.target.resolve() == targetlang.parse(_A100).resolve().with_attr(
        "tag", "nvidia/nvidia-a100"
    )


# (input, what it compresses to, or None): only a tag of the input's own product
PRODUCT_TAGS = [
    ("nvidia/jetson-nano", "nvidia/jetson-nano"),  # was nvidia/tegra-x1, the same config
    ("nvidia/geforce-rtx-3070", "nvidia/geforce-rtx-3070"),  # was nvidia/geforce-rtx-3080
    ("nvidia/jetson-agx-xavier", None),  # was nvidia/geforce-gtx-765m with its host and arch overridden
    (
        "cuda -keys=cuda,gpu -arch=sm_80 -l2_cache_size_bytes=41943040 -max_num_threads=1024 "
        "-max_shared_memory_per_block=49152 -max_threads_per_block=1024 -registers_per_block=65536 "
        "-thread_warp_size=32",
        None,  # nothing names the product (the A100's own config, printed without its model)
    ),
]


@pytest.mark.parametrize(("spec", "tag"), PRODUCT_TAGS)
def test_compress_tags_keeps_to_the_inputs_product(spec: str, tag: str | None) -> None:
    result = migrate(spec, compress_tags=True)
    assert result.json is not None
    assert result.json.get("tag") == tag


def test_change_is_a_plain_record() -> None:
    change = Change("mkldnn-to-dnnl", "x", (1, 2))
    assert change.severity == "info" and change == Change("mkldnn-to-dnnl", "x", (1, 2))


def test_dicts_and_targets_migrate_too() -> None:
    assert migrate({"kind": "llvm", "libs": ["mkldnn"]}).json == {"kind": "llvm", "libs": ["dnnl"]}
    assert migrate(targetlang.parse("llvm -mcpu=x")).json == {"kind": "llvm", "mcpu": "x"}


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match=rf"writes for TVM {re.escape(MODERN_LIST)}, not '0\.23'"):
        migrate("llvm", to="0.23")
    with pytest.raises(ValueError, match="policy"):
        migrate("llvm", policy="ignore")  # type: ignore[arg-type]
    with pytest.raises(targetlang.UnknownKindError):
        migrate("not-a-kind -x=1")


CORPUS = list(
    dict.fromkeys(r["text"] for r in read_jsonl("corpus", "strings.jsonl") if r["form"] in ("legacy-string", "tag"))
)


@pytest.mark.parametrize("text", CORPUS)
def test_corpus_text_migrates_or_explains_why_not(text: str) -> None:
    try:
        m = migrate(text, policy="drop")
    except (targetlang.UnknownKindError, targetlang.UnknownAttributeError):
        # A name no release read in a target string (other projects' kinds, typos, tags TVM
        # 0.27 added, which it reads in the {"tag": ...} form) or an attribute no release had.
        return
    if m.ok:
        assert m.json is not None and m.target is not None
        assert targetlang.parse(m.json) == m.target
    else:
        assert m.json is None
        errors = {c.rule for c in m.changes if c.severity == "error"}
        assert errors <= {"removed-kind", "byoc-kind", "unknown-attribute"}


# ------------------------------------------------------------------ rules as objects


def test_rules_are_rule_objects_in_the_order_they_apply() -> None:
    assert all(isinstance(rule, Rule) and rule.id == key for key, rule in RULES.items())
    assert all(rule.summary and rule.details and callable(rule.apply) for rule in RULES.values())
    order = list(RULES)
    # the kinds that stop a migration first, renames before the check of unknown attributes,
    # validation of the final config before a tag replaces it
    assert order.index("target-to-mtriple") < order.index("unknown-attribute")
    assert order.index("unknown-attribute") < order.index("rejected-by-target") < order.index("tag-compressed")


DOC = Path(__file__).resolve().parents[1] / "docs" / "migration.md"


def test_the_rule_table_of_the_guide_is_the_rules() -> None:
    # regenerate with: python benchmarks/doc_sections.py
    text = DOC.read_text(encoding="utf-8")
    table = text.split("<!-- begin rules -->\n", 1)[1].split("<!-- end rules -->", 1)[0]
    assert table == docs_table()
    assert docs_table().count("\n| `") == len(RULES)


# ------------------------------------------------------------------ validation against TVM 0.27

# (input, changes as (rule, severity), JSON or None). What TVM 0.27 did with each JSON was seen
# with apache-tvm 0.27.0.post1 (the same configs are among tests/data/oracle/checks-v0.27.jsonl).
REJECTED = [("rejected-by-target", "error")]
CHECK_ROWS: list[tuple[Any, list[tuple[str, str]], dict[str, Any] | None]] = [
    ("cuda -arch=80", REJECTED, None),
    ("cuda -arch=SM_80", REJECTED, None),
    ("cuda -arch=sm_", [], {"kind": "cuda", "arch": "sm_"}),
    ("nvptx -mcpu=80", REJECTED, None),
    ("nvptx -mcpu=sm_80", [], {"kind": "nvptx", "mcpu": "sm_80"}),
    ("nvptx -mtriple=nvptx-nvidia-cuda", REJECTED, None),
    ("nvptx -mtriple=nvptx64-nvidia-cuda", [], {"kind": "nvptx", "mtriple": "nvptx64-nvidia-cuda"}),
    ("rocm -mcpu=gfx", REJECTED, None),
    ("rocm -mcpu=gfx_9", REJECTED, None),
    ("rocm -mcpu=GFX908", REJECTED, None),
    ("rocm -mcpu=gfx9", [], {"kind": "rocm", "mcpu": "gfx9"}),
    ("rocm -mtriple=amdgcn-amd-amdhsa", REJECTED, None),
    ("rocm -mtriple=amdgcn-amd-amdhsa-hcc", [], {"kind": "rocm", "mtriple": "amdgcn-amd-amdhsa-hcc"}),
    ({"kind": "webgpu", "thread_warp_size": 4}, REJECTED, None),
    (
        {"kind": "webgpu", "thread_warp_size": 4, "supports_subgroups": True},
        [],
        {"kind": "webgpu", "thread_warp_size": 4, "supports_subgroups": True},
    ),
    ({"kind": "webgpu", "thread_warp_size": -5}, [], {"kind": "webgpu", "thread_warp_size": -5}),
    ("llvm -mtriple=aarch64-linux-gnu -jit=x", REJECTED, None),
    ("llvm -mtriple=aarch64-linux-gnu -mcpu=cortex-m1 -jit=x", REJECTED, None),
    (
        "llvm -mtriple=aarch64-linux-gnu -mcpu=cortex-m7 -jit=x",  # M-profile: LLVM is not asked
        [],
        {"kind": "llvm", "mtriple": "aarch64-linux-gnu", "mcpu": "cortex-m7", "jit": "x"},
    ),
    (
        "llvm -mtriple=armv7a-linux-gnueabihf -mcpu=cortex-m1 -jit=x",
        [],
        {"kind": "llvm", "mtriple": "armv7a-linux-gnueabihf", "mcpu": "cortex-m1", "jit": "x"},
    ),
    ("llvm -mtriple=x86_64-linux-gnu -jit=x", [], {"kind": "llvm", "mtriple": "x86_64-linux-gnu", "jit": "x"}),
    ("llvm -mtriple=aarch64-linux-gnu -mfloat-abi=softfp", REJECTED, None),
    ("llvm -mtriple=armv7a-linux-gnueabihf -vector-width=0", REJECTED, None),
    ("llvm -mtriple=aarch64-linux-gnu -vector-width=65537", REJECTED, None),
    (
        "llvm -mtriple=aarch64-linux-gnu -vector-width=65536",
        [],
        {"kind": "llvm", "mtriple": "aarch64-linux-gnu", "vector-width": 65536},
    ),
    ("llvm -mtriple=aarch64-linux-gnu -cl-opt=-x:int=1e3", REJECTED, None),
    ("llvm -mtriple=aarch64-linux-gnu -cl-opt=-x:bool", REJECTED, None),
    (
        "llvm -mtriple=aarch64-linux-gnu -cl-opt=-unroll-threshold:uint=100,-x=TRUE",
        [],
        {"kind": "llvm", "mtriple": "aarch64-linux-gnu", "cl-opt": ["-unroll-threshold:uint=100", "-x=TRUE"]},
    ),
    ("llvm -mtriple=x86_64-linux-gnu -cl-opt=x", [], {"kind": "llvm", "mtriple": "x86_64-linux-gnu", "cl-opt": ["x"]}),
    # every failing check is reported; nested targets are checked too
    ("llvm -mtriple=aarch64-linux-gnu -jit=x -mfloat-abi=x -vector-width=0", REJECTED * 3, None),
    ("cuda -arch=sm_80 -host='llvm -mtriple=aarch64-linux-gnu -jit=x'", REJECTED, None),
    ({"kind": "composite", "devices": [{"kind": "cuda", "arch": "80"}, {"kind": "llvm"}]}, REJECTED, None),
]


@pytest.mark.parametrize(("spec", "changes", "expected"), CHECK_ROWS, ids=[repr(r[0])[:70] for r in CHECK_ROWS])
def test_what_tvm_027_rejects_is_an_error(
    spec: Any, changes: list[tuple[str, str]], expected: dict[str, Any] | None
) -> None:
    assert_migrates(spec, expected, changes)
    raw = migrate(spec, validate=False)  # the plain conversion, which 0.27 rejects
    assert raw.ok and raw.json is not None and all(c.rule != "rejected-by-target" for c in raw.changes)


def test_a_rejection_names_the_attribute_the_value_and_the_reason() -> None:
    m = migrate("cuda -arch=80")
    assert m.changes[0].message == (
        f"attribute 'arch' is '80', which TVM {NEWEST} rejects: CUDA target gets an invalid CUDA arch: -arch=80"
    )
    assert m.source[slice(*m.changes[0].span)] == "-arch=80"  # type: ignore[misc]
    m = migrate("llvm -mtriple=aarch64-linux-gnu -cl-opt=-x,-y:int=1e3")
    assert m.changes[0].message == (
        f"attribute 'cl-opt' holds '-y:int=1e3', which TVM {NEWEST} rejects: there were errors parsing command-line "
        "options"
    )
    m = migrate("cuda -host='llvm -mtriple=aarch64-linux-gnu -vector-width=0'")
    assert m.changes[0].span is None
    assert m.changes[0].message == (
        f"in host: attribute 'vector-width' is 0, which TVM {NEWEST} rejects: Invalid -vector-width value: 0"
    )


def test_validation_under_the_policies() -> None:
    # a removed attribute dropped still leaves a value 0.27 rejects
    m = migrate("llvm -mtriple=aarch64-linux-gnu -jit=x --system-lib", policy="drop")
    assert [(c.rule, c.severity) for c in m.changes] == [("removed-attribute", "warning"), *REJECTED]
    # what a kept unknown attribute or kind holds is not checked: the warning says 0.27 rejects it
    m = migrate("ccompiler -header=x.h", policy="keep")
    assert m.ok and all(c.rule != "rejected-by-target" for c in m.changes)


CHECK_GOLDENS = read_jsonl("oracle", "checks-v0.27.jsonl")


def test_check_goldens_are_there() -> None:
    # tests/oracle/record_checks.py, with apache-tvm 0.27.0.post1
    assert len(CHECK_GOLDENS) >= 900
    assert {row["accepted"] for row in CHECK_GOLDENS} == {True, False}


def _reasons(m: Migration) -> list[str]:
    return [c.message.split(" rejects: ", 1)[1] for c in m.changes if c.rule == "rejected-by-target"]


@pytest.mark.parametrize("row", CHECK_GOLDENS, ids=[repr(decode(row))[:80] for row in CHECK_GOLDENS])
def test_the_checks_say_what_tvm_027_did(row: dict[str, Any]) -> None:
    # migrate's verdict on each config is 0.27's: accepted, or rejected for the reason 0.27 gave
    # (a value of the wrong type is the reader's error, before any check)
    spec = decode(row)
    try:
        m = migrate(spec)
    except targetlang.TargetError:
        assert not row["accepted"] and "expected type" in row["error"]["message"]
        return
    if row["accepted"]:
        assert m.ok and m.json is not None, m.changes
        return
    assert not m.ok
    assert any(reason in row["error"]["message"] for reason in _reasons(m)), (_reasons(m), row["error"])


def test_every_check_is_seen_rejecting_and_accepting() -> None:
    # each check of the data file fails on some recorded config 0.27 rejected, and holds on
    # some config it applies to that 0.27 accepted
    rejected: set[str] = set()
    accepted: set[str] = set()
    for row in CHECK_GOLDENS:
        spec = decode(row)
        if not isinstance(spec, dict):
            continue
        for check in checks():
            if check.applies(spec):
                if not check.holds(spec[check.attribute]) and not row["accepted"]:
                    rejected.add(check.id)
                elif check.holds(spec[check.attribute]) and row["accepted"]:
                    accepted.add(check.id)
    ids = {check.id for check in checks()}
    assert rejected == ids and accepted == ids


def test_the_check_data_names_its_sources() -> None:
    assert len(checks()) == 10
    assert len({check.id for check in checks()}) == len(checks())
    for check in checks():
        assert re.match(r"src/[\w/]+\.cc:\d+ \(", check.source), check.source
        assert "{value}" in check.message or check.id == "llvm-aprofile-cl-opt"
    text = DOC.read_text(encoding="utf-8")
    assert all(f"`{check.id}`" in text for check in checks())
    assert CHECKS_FILE.name == f"checks-v{NEWEST}.json"


# ------------------------------------------------------------------ values TVM read otherwise

CHANGED = [("value-changed", "warning")]
# (input, changes, JSON): what TVM v0.21's legacy parser read from each text (the oracle's
# run.sh --tvm 021), which the JSON holds; a value read as other than written is a warning.
VALUE_ROWS: list[tuple[Any, list[tuple[str, str]], dict[str, Any]]] = [
    ("llvm -num-cores=4abc", CHANGED, {"kind": "llvm", "num-cores": 4}),
    ("llvm -num-cores=0x10", CHANGED, {"kind": "llvm", "num-cores": 0}),
    ("llvm -num-cores=1.5", CHANGED, {"kind": "llvm", "num-cores": 1}),
    ("llvm -num-cores=1e3", CHANGED, {"kind": "llvm", "num-cores": 1}),
    ("llvm -num-cores=4,5", CHANGED, {"kind": "llvm", "num-cores": 4}),
    ("llvm -num-cores='4 5'", CHANGED, {"kind": "llvm", "num-cores": 4}),
    ("llvm -num-cores=-4x", CHANGED, {"kind": "llvm", "num-cores": -4}),
    ("llvm -num-cores", CHANGED, {"kind": "llvm", "num-cores": 1}),
    ("llvm -opt-level=3x", CHANGED, {"kind": "llvm", "opt-level": 3}),
    ("cuda -max_num_threads=1024abc", CHANGED, {"kind": "cuda", "max_num_threads": 1024}),
    ("cuda -arch=sm_80 -thread_warp_size=32.0", CHANGED, {"kind": "cuda", "arch": "sm_80", "thread_warp_size": 32}),
    ("vulkan -max_num_threads=256.7", CHANGED, {"kind": "vulkan", "max_num_threads": 256}),
    ("llvm -fast-math=2", CHANGED, {"kind": "llvm", "fast-math": True}),
    ("llvm -fast-math=-1", CHANGED, {"kind": "llvm", "fast-math": True}),
    ("llvm -fast-math=10abc", CHANGED, {"kind": "llvm", "fast-math": True}),
    ("llvm -fast-math=1.5", CHANGED, {"kind": "llvm", "fast-math": True}),
    ("llvm -fast-math=0x1", CHANGED, {"kind": "llvm", "fast-math": False}),
    ("llvm -fast-math=0.5", CHANGED, {"kind": "llvm", "fast-math": False}),
    ("vulkan -supports_float16=2", CHANGED, {"kind": "vulkan", "supports_float16": True}),
    ({"kind": "llvm", "fast-math": 2}, CHANGED, {"kind": "llvm", "fast-math": True}),
    ({"kind": "llvm", "fast-math": -1}, CHANGED, {"kind": "llvm", "fast-math": True}),
    ('{"kind": "llvm", "fast-math": 2}', CHANGED, {"kind": "llvm", "fast-math": True}),
    ("cuda -host='llvm -num-cores=4abc'", CHANGED, {"kind": "cuda", "host": {"kind": "llvm", "num-cores": 4}}),
    # the same values written otherwise: nothing to report
    ("llvm -num-cores=+4", [], {"kind": "llvm", "num-cores": 4}),
    ("llvm -num-cores=007", [], {"kind": "llvm", "num-cores": 7}),
    ("llvm -num-cores=' 4'", [], {"kind": "llvm", "num-cores": 4}),
    ("llvm -num-cores='4 '", [], {"kind": "llvm", "num-cores": 4}),
    ("llvm -num-cores=-0", [], {"kind": "llvm", "num-cores": 0}),
    ("llvm -num-cores=true", [], {"kind": "llvm", "num-cores": 1}),
    ("llvm -fast-math", [], {"kind": "llvm", "fast-math": True}),
    ("llvm -fast-math=True", [], {"kind": "llvm", "fast-math": True}),
    ("llvm -fast-math=0", [], {"kind": "llvm", "fast-math": False}),
    ({"kind": "llvm", "num-cores": True}, [], {"kind": "llvm", "num-cores": 1}),
    ({"kind": "llvm", "fast-math": 1}, [], {"kind": "llvm", "fast-math": True}),
    ("llvm -mcpu='skylake '", [], {"kind": "llvm", "mcpu": "skylake"}),
    ("llvm -mattr=+a,,+b", [], {"kind": "llvm", "mattr": ["+a", "+b"]}),
    ("llvm -mattr=' +a , +b '", [], {"kind": "llvm", "mattr": ["+a", "+b"]}),
]


@pytest.mark.parametrize(("spec", "changes", "expected"), VALUE_ROWS, ids=[repr(r[0])[:70] for r in VALUE_ROWS])
def test_values_tvm_read_otherwise_are_reported(
    spec: Any, changes: list[tuple[str, str]], expected: dict[str, Any]
) -> None:
    assert_migrates(spec, expected, changes)


def test_a_changed_value_points_at_the_value() -> None:
    m = migrate("llvm -mcpu=x -num-cores=4abc")
    assert (
        m.changes[0].message
        == "attribute 'num-cores': '4abc' read as 4: TVM read the leading integer 4 and ignored the rest"
    )
    assert m.source[slice(*m.changes[0].span)] == "4abc"  # type: ignore[misc]
    m = migrate("llvm -fast-math=2")
    assert m.changes[0].message == "attribute 'fast-math': '2' read as true: TVM took every integer but 0 as true"
    m = migrate("llvm -num-cores -mcpu=x")
    assert m.changes[0].message == "attribute 'num-cores': written without a value, read as 1"
    assert m.source[slice(*m.changes[0].span)] == "-num-cores"  # type: ignore[misc]
    m = migrate("cuda -host='llvm -num-cores=0x10'")
    assert m.changes[0].span is None
    assert m.changes[0].message.startswith("in host: attribute 'num-cores': '0x10' read as 0")
    # a value the policy drops is reported as dropped only
    m = migrate("c -mcpu=x -system-lib=2", policy="drop")
    assert [c.rule for c in m.changes] == ["removed-attribute"]


# ------------------------------------------------------------------ every rule has a golden case


def _all_goldens() -> list[Golden]:
    return [*GOLDENS, *((spec, {}, changes, expected) for spec, changes, expected in [*CHECK_ROWS, *VALUE_ROWS])]


@pytest.mark.parametrize("rule", list(RULES))
def test_every_rule_has_a_golden_case(rule: str) -> None:
    # a golden case lists the rule among its changes, and its migration really reports it
    cases = [(spec, options) for spec, options, changes, _ in _all_goldens() if rule in {r for r, _ in changes}]
    assert cases, f"rule {rule!r} has no golden case: add one to GOLDENS"
    for spec, options in cases:
        assert rule in [change.rule for change in migrate(spec, **options).changes], (spec, options)
