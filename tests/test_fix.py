"""targetlang fix on Python source: one row per case, the source before and after by hand."""

from __future__ import annotations

import ast
import dataclasses
import warnings
from pathlib import Path

import libcst as cst
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from libcst.metadata import MetadataWrapper, PositionProvider

import targetlang.fix._rewriter
from targetlang import NestingTooDeepError, SourceSyntaxError
from targetlang.fix import RULES, Rule, _imports, _positions, _walk, fix_source
from targetlang.fix._apis import DEFAULT_TABLE
from targetlang.fix._positions import starts
from targetlang.fix._prefilter import hits
from targetlang.fix._python_syntax import statement_lines
from targetlang.fix._rule_docs import rule_doc
from targetlang.fix._sparse import sparse
from targetlang.fix._survey import Survey

from .conftest import Run, examples
from .newest import MODERN_NAMES
from .test_fix_docs import blocks
from .test_fix_fixed_point import _NESTED

# (id, source, fixed with safe fixes, the rules found in order)
SAFE_CASES: list[tuple[str, str, str, list[str]]] = [
    (
        "constructor",
        'tgt = Target("cuda -arch=sm_80")\n',
        'tgt = Target({"kind": "cuda", "arch": "sm_80"})\n',
        ["target-string"],
    ),
    (
        "typed values and quote style kept",
        "t = tvm.target.Target('llvm -mcpu=cortex-a72 -mattr=+neon -num-cores=4')  # pi\n",
        "t = tvm.target.Target({'kind': 'llvm', 'mcpu': 'cortex-a72', 'mattr': ['+neon'], 'num-cores': 4})  # pi\n",
        ["target-string"],
    ),
    (
        "bool attribute",
        'Target("vulkan -supports_float16=1")\n',
        'Target({"kind": "vulkan", "supports_float16": True})\n',
        ["target-string"],
    ),
    (
        "nested host",
        "Target(\"cuda -host='llvm -mtriple=aarch64-linux-gnu'\")\n",
        'Target({"kind": "cuda", "host": {"kind": "llvm", "mtriple": "aarch64-linux-gnu"}})\n',
        ["target-string"],
    ),
    (
        "second argument and host keyword",
        'a = Target("cuda", "llvm -mcpu=skylake")\nb = Target("cuda", host="llvm -mcpu=skylake")\n',
        'a = Target("cuda", {"kind": "llvm", "mcpu": "skylake"})\n'
        'b = Target("cuda", host={"kind": "llvm", "mcpu": "skylake"})\n',
        ["target-string", "target-string"],
    ),
    (
        "target keyword of any call",
        'lib = tvm.compile(mod, target="llvm -mtriple=x86_64-linux-gnu")\n',
        'lib = tvm.compile(mod, target={"kind": "llvm", "mtriple": "x86_64-linux-gnu"})\n',
        ["target-string"],
    ),
    (
        "the target argument of tvm.compile",
        'f = tvm.compile(mod, "opencl -device=mali")\n',
        'f = tvm.compile(mod, {"kind": "opencl", "device": "mali"})\n',
        ["target-string"],
    ),
    (
        "vdevice and parametrize_targets",
        'I.vdevice("llvm -mcpu=skylake", 0, "global")\n@tvm.testing.parametrize_targets("llvm -num-cores=2", "cuda")\n'
        "def test(): pass\n",
        'I.vdevice({"kind": "llvm", "mcpu": "skylake"}, 0, "global")\n'
        '@tvm.testing.parametrize_targets({"kind": "llvm", "num-cores": 2}, "cuda")\n'
        "def test(): pass\n",
        ["target-string", "target-string"],
    ),
    (
        "a local name that reaches a target position only",
        "def f(mod):\n    sm80 = 'cuda -arch=sm_80'  # keep\n    return tvm.build(mod, target=sm80)\n",
        "def f(mod):\n    sm80 = {'kind': 'cuda', 'arch': 'sm_80'}  # keep\n    return tvm.build(mod, target=sm80)\n",
        ["target-string"],
    ),
    (
        "list elements looped over into a target position",
        'for t in ["llvm -mcpu=skylake", "cuda", "nvidia/jetson-nano"]:\n    tvm.compile(mod, t)\n',
        'for t in [{"kind": "llvm", "mcpu": "skylake"}, "cuda", "nvidia/jetson-nano"]:\n    tvm.compile(mod, t)\n',
        ["target-string"],
    ),
    (
        "renames reported with migrate's rule ids",
        'Target("llvm -target=aarch64-linux-gnu -libs=mkldnn")\n',
        'Target({"kind": "llvm", "mtriple": "aarch64-linux-gnu", "libs": ["dnnl"]})\n',
        ["target-string"],
    ),
    (
        "literal f-string and %",
        "Target(f\"llvm -mcpu={'skylake'}\")\nTarget('llvm -mcpu=%s' % 'skylake')\n",
        "Target({\"kind\": \"llvm\", \"mcpu\": \"skylake\"})\nTarget({'kind': 'llvm', 'mcpu': 'skylake'})\n",
        ["dynamic-target", "dynamic-target"],
    ),
    (
        "a join of literals",
        'tvm.testing.parametrize_targets(" ".join(["vulkan", "-supports_int8=1"]))\n',
        'tvm.testing.parametrize_targets({"kind": "vulkan", "supports_int8": True})\n',
        ["dynamic-target"],
    ),
    (
        "a property inside an f-string",
        'def f(target: Target):\n    return f"arch {target.arch}"\n',
        "def f(target: Target):\n    return f\"arch {str(target.attrs.get('arch', ''))}\"\n",
        ["target-property"],
    ),
    (
        "a parameter's default",
        'def f(mod, target="llvm -num-cores=4"):\n    return tvm.compile(mod, target)\n',
        'def f(mod, target={"kind": "llvm", "num-cores": 4}):\n    return tvm.compile(mod, target)\n',
        ["target-string"],
    ),
    (
        "implicit concatenation",
        'Target(\n    "llvm -mtriple=aarch64-linux-gnu "\n    "-mattr=+neon"\n)\n',
        'Target(\n    {"kind": "llvm", "mtriple": "aarch64-linux-gnu", "mattr": ["+neon"]}\n)\n',
        ["target-string"],
    ),
    (
        "helper to the tag of the same product",
        "t = tvm.target.arm_cpu('rasp3b')\n",
        't = tvm.target.Target("arm/rasp3b")\n',
        ["target-helper"],
    ),
    (
        "helper to a dict",
        'x = tvm.target.cuda(arch="sm_80")\n',
        'x = tvm.target.Target({"kind": "cuda", "arch": "sm_80", "model": "unknown"})\n',
        ["target-helper"],
    ),
    (
        "helper imported by name gets Target imported",
        "from tvm.target import arm_cpu\n\nt = arm_cpu('rasp3b')\n",
        'from tvm.target import Target\n\nt = Target("arm/rasp3b")\n',
        ["target-helper"],
    ),
    (
        "a helper import still used elsewhere stays",
        "from tvm.target import cuda\n\nt = cuda(arch='sm_80')\nf = cuda\n",
        'from tvm.target import Target, cuda\n\nt = Target({"kind": "cuda", "arch": "sm_80", "model": "unknown"})\n'
        "f = cuda\n",
        ["target-helper", "target-helper"],  # (the import: cuda is used as a value, reported)
    ),
    (
        "a helper name as an attribute or a keyword does not keep its import",
        "from tvm.target import cuda\n\nt = cuda(arch='sm_80')\nx = y.cuda\nf(cuda=1)\n",
        'from tvm.target import Target\n\nt = Target({"kind": "cuda", "arch": "sm_80", "model": "unknown"})\n'
        "x = y.cuda\nf(cuda=1)\n",
        ["target-helper"],
    ),
    (
        "a helper named in __all__ or a string annotation keeps its import, a target string does not",
        "from tvm.target import cuda, rocm\nfrom tvm.target import mali\n\n__all__ = ['cuda']\n"
        "def f(x: 'List[rocm]') -> None:\n    return [cuda(), rocm(), mali(), Target('mali')]\n",
        "from tvm.target import Target, cuda, rocm\n\n__all__ = ['cuda']\n"
        "def f(x: 'List[rocm]') -> None:\n"
        '    return [Target({"kind": "cuda", "model": "unknown"}), Target({"kind": "rocm", "model": "unknown"}), '
        'Target({"kind": "opencl", "device": "mali", "model": "unknown"}), Target(\'mali\')]\n',
        ["target-helper"] * 5,  # (cuda in __all__, rocm in an annotation: each import is reported)
    ),
    (
        "a helper import in a branch, among others in parentheses",
        "try:\n    import x\nexcept E:\n    pass\nelse:\n    from tvm.target import (  # the helpers\n"
        "        Target,\n        cuda,  # the GPU\n    )\n\nt = cuda()\n",
        "try:\n    import x\nexcept E:\n    pass\nelse:\n    from tvm.target import (  # the helpers\n"
        '        Target)\n\nt = Target({"kind": "cuda", "model": "unknown"})\n',
        ["target-helper"],
    ),
    (
        "create",
        'tvm.target.create("llvm -mcpu=skylake")\n',
        'tvm.target.Target({"kind": "llvm", "mcpu": "skylake"})\n',
        ["canon-target", "target-string"],
    ),
    (
        "canon_target of a literal",
        'Target.canon_target("llvm -num-cores=4")\n',
        'Target({"kind": "llvm", "num-cores": 4})\n',
        ["canon-target", "target-string"],
    ),
    (
        "property of an evident Target",
        'def f():\n    t = Target("cuda")\n    return t.arch, t.libs\n',
        'def f():\n    t = Target("cuda")\n    return str(t.attrs.get("arch", "")), list(t.attrs.get("libs", []))\n',
        ["target-property", "target-property"],
    ),
    (
        "property of an annotated parameter",
        "def f(target: tvm.target.Target):\n    return target.mcpu\n",
        'def f(target: tvm.target.Target):\n    return str(target.attrs.get("mcpu", ""))\n',
        ["target-property"],
    ),
    (
        "bare kinds, tags and JSON stay",
        'Target("llvm")\nTarget("nvidia/jetson-nano")\nTarget(\'{"kind": "cuda"}\')\nTarget({"kind": "cuda"})\n',
        'Target("llvm")\nTarget("nvidia/jetson-nano")\nTarget(\'{"kind": "cuda"}\')\nTarget({"kind": "cuda"})\n',
        [],
    ),
    (
        "strings that are not targets stay",
        '"""cuda -arch=sm_80 in a docstring"""\n# Target("llvm -mcpu=skylake")\nassert s == "llvm -mcpu=x"\n'
        'cmd = "c -Wall -O2"\n',
        '"""cuda -arch=sm_80 in a docstring"""\n# Target("llvm -mcpu=skylake")\nassert s == "llvm -mcpu=x"\n'
        'cmd = "c -Wall -O2"\n',
        [],
    ),
]


@pytest.mark.parametrize(("source", "expected", "rules"), [c[1:] for c in SAFE_CASES], ids=[c[0] for c in SAFE_CASES])
def test_safe_fix(source: str, expected: str, rules: list[str]) -> None:
    result = fix_source(source, path="case.py", line_length=200)  # the layout has tests of its own
    assert result.text == expected
    assert [f.rule for f in result.findings] == rules
    assert fix_source(result.text, path="case.py").text == result.text  # a second run changes nothing


@pytest.mark.parametrize(
    "source",
    [case[1] for case in SAFE_CASES if "import" in case[1]],
    ids=[c[0] for c in SAFE_CASES if "import" in c[1]],
)
def test_imports_are_removed_as_libcsts_own_analysis_removes_them(monkeypatch: pytest.MonkeyPatch, source: str) -> None:
    told = fix_source(source, path="case.py").text
    monkeypatch.setattr(_imports, "_told_works", lambda: False)  # LibCST's RemoveImportsVisitor, whole
    assert fix_source(source, path="case.py").text == told


# (id, source, fixed with --unsafe-fixes, the finding's safety without it)
UNSAFE_CASES: list[tuple[str, str, str]] = [
    (
        "a value that reads as a target, never used as one",
        'def f():\n    expected = "llvm -mcpu=skylake"\n',
        'def f():\n    expected = {"kind": "llvm", "mcpu": "skylake"}\n',
    ),
    (
        "a module-level name other modules may import",
        "SM80_TARGET = 'cuda -arch=sm_80'  # keep\n",
        "SM80_TARGET = {'kind': 'cuda', 'arch': 'sm_80'}  # keep\n",
    ),
    (
        "receiver guessed by its name",
        "def f(target):\n    return target.arch\n",
        'def f(target):\n    return str(target.attrs.get("arch", ""))\n',
    ),
    (
        "an argument of any call that reads as a target",
        'fp16_to_fp32("llvm -mcpu=skylake-avx512", 15)\n',
        'fp16_to_fp32(\'{"kind": "llvm", "mcpu": "skylake-avx512"}\', 15)\n',  # JSON text: still a string
    ),
    (
        "canon_target of a variable",
        "t = Target.canon_target(spec)\n",
        "t = Target(spec)\n",
    ),
    (
        "canon_target_and_host unpacked",
        "    \ntarget, host = Target.canon_target_and_host(target, target_host)\n",
        "    \ntarget = Target(target, host=target_host)\nhost = target.host\n",
    ),
    (
        "an f-string with a run-time value",
        'Target(f"llvm -mcpu={cpu} -num-cores=4")\n',
        'Target({"kind": "llvm", "mcpu": cpu, "num-cores": 4})\n',
    ),
    (
        "format with a run-time value inside a value",
        'Target("cuda -arch=sm_{}".format(sm))\n',
        'Target({"kind": "cuda", "arch": f"sm_{sm}"})\n',
    ),
    (
        "% with whole run-time values (TVM's testing/utils.py)",
        'target = Target("llvm -mtriple=%s -mcpu=%s" % (triple, cpu))\n',
        'target = Target({"kind": "llvm", "mtriple": triple, "mcpu": cpu})\n',
    ),
    (
        "an integer attribute gets the conversion TVM applied",
        'Target("llvm -num-cores=%d -mattr=%s" % (n, features))\n',
        'Target({"kind": "llvm", "num-cores": int(n), "mattr": features.split(",")})\n',
    ),
    (
        "an integer already converted is not converted again",
        'Target(f"llvm -num-cores={int(n)}")\n',
        'Target({"kind": "llvm", "num-cores": int(n)})\n',
    ),
    (
        "a value appended with + and a space",
        'Target("llvm -mtriple " + triple)\n',
        'Target({"kind": "llvm", "mtriple": triple})\n',
    ),
    (
        "options appended to a target a variable holds",
        "import tvm\nt = tvm.target.Target(target + ' -libs=thrust')\n",
        "import tvm\nt = tvm.target.Target({**tvm.target.Target(target).export(), 'libs': ['thrust']})\n",
    ),
    (
        "a kind a variable holds, options of run-time values",
        "from tvm.target import Target\nt = Target(f'{kind} -mcpu={cpu}')\n",
        "from tvm.target import Target\nt = Target({**Target(kind).export(), 'mcpu': cpu})\n",
    ),
    (
        "a template of a kind, a literal and a run-time value",
        "import tvm\ntvm.build(mod, target='%s -device=%s -model=%s' % (kind, 'arm_cpu', model))\n",
        "import tvm\ntvm.build(mod, target={**tvm.target.Target(kind).export(), "
        "'device': 'arm_cpu', 'model': model})\n",
    ),
    (
        "options appended in place",
        "import tvm\ndef f(target):\n    target += ' -libs=thrust'\n    return target\n",
        "import tvm\ndef f(target):\n"
        "    target = {**tvm.target.Target(target).export(), 'libs': ['thrust']}\n    return target\n",
    ),
    (
        "a string read as text: JSON text (TVM's runtime/module.py)",
        'def f(triple):\n    s = "llvm -mtriple " + triple\n    _ffi_api.Pack(s)\n',
        'import json\n\ndef f(triple):\n    s = json.dumps({"kind": "llvm", "mtriple": triple})\n'
        "    _ffi_api.Pack(s)\n",
    ),
    (
        "helper with a non-literal argument",
        "t = tvm.target.cuda(model, arch='sm_80')\n",
        't = tvm.target.Target({"kind": "cuda", "arch": "sm_80", "model": model})\n',
    ),
]


@pytest.mark.parametrize(("source", "expected"), [c[1:] for c in UNSAFE_CASES], ids=[c[0] for c in UNSAFE_CASES])
def test_unsafe_fix(source: str, expected: str) -> None:
    safe = fix_source(source, path="case.py")
    assert safe.text == source
    assert [f.safety for f in safe.findings] == ["unsafe"]
    assert not safe.findings[0].applied
    assert "\ue000" not in safe.findings[0].message  # no placeholder shows
    fixed = fix_source(source, path="case.py", unsafe=True, line_length=200)
    assert fixed.text == expected
    assert fixed.findings[0].applied


# A removed property written, deleted or bound is no read: left as it is, no finding (rewritten
# to an expression, the assignment was no Python: fuzz_fix found `t.max_function_args = ...`)
STORED_PROPERTIES = [
    ("assigned", "def f(target):\n    target.max_function_args = 4\n"),
    ("assigned among others", "def f(target):\n    a, target.model = 1, 2\n"),
    ("annotated", "def f(target):\n    target.model: str = 'x'\n"),
    ("augmented", "def f(target):\n    target.model += 'x'\n"),
    ("deleted", "def f(target):\n    del target.arch\n"),
    ("a for loop's", "def f(target):\n    for target.model in models:\n        pass\n"),
    ("a comprehension's", "def f(target):\n    return [1 for target.model in models]\n"),
    ("a with's", "def f(target):\n    with g() as target.model:\n        pass\n"),
]


@pytest.mark.parametrize("source", [c[1] for c in STORED_PROPERTIES], ids=[c[0] for c in STORED_PROPERTIES])
def test_a_property_written_is_no_read(source: str) -> None:
    fixed = fix_source(source, path="case.py", unsafe=True)
    assert (fixed.text, fixed.findings) == (source, ())
    # the same receiver read is still found
    read = fix_source(source + "    return target.arch\n", path="case.py", unsafe=True)
    assert [f.rule for f in read.findings] == ["target-property"]


# (id, source, rule, migration rules, words of the message, suggestion or None)
REPORT_CASES: list[tuple[str, str, str, tuple[str, ...], str, str | None]] = [
    (
        "removed attribute",
        'Target("llvm -system-lib")\n',
        "target-string",
        ("removed-attribute",),
        "system-lib",
        None,
    ),
    (
        "a run-time value of a bool attribute",
        'Target(f"vulkan -supports_float16={fp16}")\n',
        "dynamic-target",
        (),
        "a boolean known only at run time (-supports_float16): write the dict by hand",
        None,
    ),
    (
        "a run-time value a helper looks up in its table of models",
        "t = tvm.target.arm_cpu(model=args.model)\n",
        "target-helper",
        (),
        "depends on the value of args.model (its table of known values sets more options)",
        None,
    ),
    (
        "options appended to no kind's target",
        "Target(target + ' --verbose')\n",
        "dynamic-target",
        (),
        "the options are no kind's",
        None,
    ),
    (
        "an unknown kind where a target must stand",
        'Target("hip -mcpu=gfx900")\n',
        "target-string",
        (),
        "unknown target kind 'hip'",
        None,
    ),
    (
        "canon_multi_target",
        "Target.canon_multi_target(targets)\n",
        "canon-target",
        (),
        "list or map",
        None,
    ),
    (
        "helper called with **kwargs",
        "tvm.target.hexagon(cpu_ver, **kwargs)\n",
        "target-helper",
        (),
        "run time",
        None,
    ),
]


@pytest.mark.parametrize(
    ("source", "rule", "migration", "words", "suggestion"),
    [c[1:] for c in REPORT_CASES],
    ids=[c[0] for c in REPORT_CASES],
)
def test_report_only(source: str, rule: str, migration: tuple[str, ...], words: str, suggestion: str | None) -> None:
    result = fix_source(source, path="case.py", unsafe=True)
    assert result.text == source
    [finding] = result.findings
    assert (finding.rule, finding.safety, finding.applied) == (rule, "report-only", False)
    assert finding.changes == migration
    assert words in finding.message
    assert finding.after == suggestion


def test_registry_adds_user_kinds() -> None:
    from targetlang import Registry, builtin_registry

    base = builtin_registry()
    hip = dataclasses.replace(base.kinds["rocm"], name="hip")
    registry = Registry([*base.kinds.values(), hip], base.tags, base.version)
    result = fix_source('Target("hip -mcpu=gfx900")\n', path="a.py", registry=registry, unsafe=True)
    [finding] = result.findings
    assert "unknown-attribute" in finding.changes


def test_finding_positions_and_json() -> None:
    source = 'import tvm\n\nx = [\n    "llvm -mcpu=a",\n    tvm.target.Target("cuda -arch=sm_80"),\n]\n'
    result = fix_source(source, path="pkg/m.py")
    assert [(f.line, f.column) for f in result.findings] == [(4, 5), (5, 23)]
    assert result.findings[1].to_json() == {
        "file": "pkg/m.py",
        "line": 5,
        "column": 23,
        "rule": "target-string",
        "safety": "safe",
        "message": "legacy target string",
        "before": '"cuda -arch=sm_80"',
        "after": '{"kind": "cuda", "arch": "sm_80"}',
        "applied": True,
        "migration_rules": [],
        "reason": None,
        "uses": [{"line": 5, "column": 23, "kind": "target", "what": "the target of tvm.target.Target()"}],
    }
    first = result.findings[0]
    assert (first.safety, first.reason) == (
        "unsafe",
        "at line 3, the module-level name x, which other modules may import",
    )
    assert first.to_json()["uses"] == [
        {"line": 3, "column": 1, "kind": "export", "what": "the module-level name x, which other modules may import"}
    ]


def test_select_and_ignore() -> None:
    source = 'Target("cuda -arch=sm_80")\nt = Target("cuda")\nt.arch\n'
    only = fix_source(source, path="a.py", select=["target-property"])
    assert only.text == 'Target("cuda -arch=sm_80")\nt = Target("cuda")\nstr(t.attrs.get("arch", ""))\n'
    assert [f.rule for f in only.findings] == ["target-property"]
    without = fix_source(source, path="a.py", ignore=["target-property"])
    assert without.text == 'Target({"kind": "cuda", "arch": "sm_80"})\nt = Target("cuda")\nt.arch\n'
    with pytest.raises(ValueError, match="unknown rule 'nope'"):
        fix_source(source, select=["nope"])


def test_prefer_tags_needs_the_same_product() -> None:
    rasp = '"llvm -device=arm_cpu -model=bcm2837 -mtriple=armv7l-linux-gnueabihf -mattr=+neon"'
    text = f"Target({rasp})\n"
    as_dict = fix_source(text, path="a.py", line_length=200).text
    assert as_dict.startswith('Target({"kind": "llvm"')
    # the model bcm2837 is not in the name of the tag arm/rasp3b: a config stays a config
    assert fix_source(text, path="a.py", prefer_tags=True, line_length=200).text == as_dict


def test_python_that_does_not_parse() -> None:
    with pytest.raises(SourceSyntaxError) as info:
        fix_source("x = Target('llvm -mcpu=a')\ndef f(:\n", path="bad.py")
    assert (info.value.line, info.value.column) == (2, 7)
    assert "bad.py" in str(info.value)


def test_python_that_does_not_parse_is_an_error_even_without_a_target() -> None:
    # a linter's promise: a file it cannot read is said, whatever it holds
    with pytest.raises(SourceSyntaxError) as info:
        fix_source("x = 1\ndef f(:\n", path="bad.py")
    assert (info.value.source or "")[info.value.start :].startswith(":")
    assert "bad.py: cannot parse Python" in str(info.value)
    with pytest.raises(SourceSyntaxError, match="'\\(' was never closed"):
        fix_source("x = (")  # (issue 28's case: no path, nothing a target could be)


# A file without a target is read as Python's parser reads it: what only the compiler refuses is
# read (a syntax check by compile() would refuse it), what the parser refuses fails, at its place.
_NO_TARGET_SYNTAX = [
    ("return at the top", "return 1\n", None),
    ("nonlocal at the top", "nonlocal x\n", None),
    ("a future that does not exist", "from __future__ import nothing\n", None),
    ("await outside async", "await x\n", None),
    ("a bracket never closed", "x = 1\ny = [\n", (2, 5)),
    ("a null byte", "x = 1\x00\n", (1, 1)),
    ("a tab after spaces", "if x:\n        a = 1\n\tb = 2\n", (3, 1)),
]


@pytest.mark.parametrize(
    ("source", "where"), [row[1:] for row in _NO_TARGET_SYNTAX], ids=[row[0] for row in _NO_TARGET_SYNTAX]
)
def test_python_without_a_target_is_read_as_python_reads_it(source: str, where: tuple[int, int] | None) -> None:
    if where is None:
        assert fix_source(source, path="a.py").findings == ()
        return
    with pytest.raises(SourceSyntaxError) as info:
        fix_source(source, path="a.py")
    assert (info.value.line, info.value.column) == where


def test_brackets_too_deep_for_python_are_too_deep_without_a_target() -> None:
    # (Python's tokenizer refuses past 200 levels: too deep, at the first bracket past what the
    # fixer takes, whatever the file holds)
    with pytest.raises(NestingTooDeepError) as info:
        fix_source("x = " + "(" * 300 + "1" + ")" * 300 + "\n", path="a.py")
    assert (info.value.line, info.value.column) == (1, 55)


def test_one_run_reaches_the_fixed_point() -> None:
    # the helper's argument is a removed property: both are fixed in one run
    source = "import tvm\ndef f(target):\n    return tvm.target.cuda(target.model)\n"
    result = fix_source(source, path="m.py", unsafe=True, line_length=200)
    assert result.text == (
        'import tvm\ndef f(target):\n    return tvm.target.Target({"kind": "cuda", '
        '"model": str(target.attrs.get("model", "unknown"))})\n'
    )
    again = fix_source(result.text, path="m.py", unsafe=True, line_length=200)
    assert again.text == result.text
    assert not any(f.applied for f in again.findings)


@pytest.mark.parametrize("rule", RULES.values(), ids=lambda rule: rule.id)
def test_every_rule_says_how_safe_its_fixes_are(rule: Rule) -> None:
    """The safety a rule's row gives is what its page shows: a safe rule has an example fixed
    under ``--write`` (a ``python after`` block), an unsafe one only examples fixed under
    ``--unsafe-fixes`` (``python after unsafe``), a report-only one no example fixed at all."""
    page = rule_doc(rule.id)
    assert page is not None, rule.id
    # (read as tests/test_fix_docs.py runs the examples: by the words of each fence's info)
    afters = [block.info[2:] for block in blocks(page) if block.info[:2] == ("python", "after")]
    shown = "report-only" if not afters else "safe" if () in afters else "unsafe"
    assert shown == rule.safety
    assert all(extra in ((), ("unsafe",)) for extra in afters), afters


def test_package_docstring_examples() -> None:
    import doctest

    import targetlang.fix

    result = doctest.testmod(targetlang.fix)
    assert result.failed == 0 and result.attempted >= 3


def test_readme_fix_example(run: Run) -> None:
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    block = readme.split("## Fixing whole source trees", 1)[1].split("```console\n", 1)[1].split("```", 1)[0]
    lines = block.splitlines()
    command = lines[1].removeprefix("$ ")
    source = command.split("echo '", 1)[1].split("' |", 1)[0] + "\n"
    status, out, err = run("fix", "-", stdin=source.encode())
    assert (status, out, err) == (0, lines[2] + "\n", lines[3] + "\n")


DEEP_SOURCES = [
    ("brackets", "x = " + "[" * 1000 + '"llvm -mcpu=a"' + "]" * 1000 + "\n"),
    ("binary chain", "x = Target(" + " + ".join(['"llvm -mcpu=a"'] * 3000) + ")\n"),
    ("implicit concatenation", "x = Target(" + " ".join(['"llvm -mcpu=a"'] * 5000) + ")\n"),
    ("attribute chain", 'Target("cuda")\nt = ' + ".".join(["a"] * 5000) + ".arch\n"),
    ("calls", "x = " + "Target(" * 5000 + '"llvm -mcpu=a"' + ")" * 5000 + "\n"),
]


@pytest.mark.parametrize("source", [s for _, s in DEEP_SOURCES], ids=[n for n, _ in DEEP_SOURCES])
def test_deep_source_is_a_nesting_error_not_a_crash(source: str) -> None:
    from targetlang import NestingTooDeepError

    with pytest.raises(NestingTooDeepError) as info:
        fix_source(source, path="deep.py")
    assert "deep.py" in str(info.value) and 0 < info.value.start < len(source)


def test_nesting_of_real_code_is_read() -> None:
    source = "x = Target(" + " ".join(['"llvm -mcpu=a "'] * 100) + ")\n" + "y = " + "[" * 40 + "1" + "]" * 40 + "\n"
    assert len(fix_source(source, path="ok.py").findings) == 1


def test_huge_python_is_an_error_before_any_work() -> None:
    from targetlang import SourceTooLargeError
    from targetlang.fix._python import MAX_PYTHON_CHARS

    source = 'x = Target("llvm -mcpu=a")\n' + "y = 1\n" * (MAX_PYTHON_CHARS // 6 + 1)
    with pytest.raises(SourceTooLargeError) as info:
        fix_source(source, path="big.py")
    assert "big.py" in str(info.value) and info.value.start == MAX_PYTHON_CHARS


# ------------------------------------------------------------------ positions

_POSITION_FILES = sorted(
    (Path(__file__).resolve().parent / "data" / "fix").glob("*/*.py.before"), key=lambda p: p.stat().st_size
)


class _Reportable(cst.CSTVisitor):
    """Every node of the kinds the fixer reports (strings, calls, attributes, operations)."""

    def __init__(self) -> None:
        super().__init__()
        self.nodes: list[cst.CSTNode] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        kinds = (
            cst.SimpleString,
            cst.ConcatenatedString,
            cst.FormattedString,
            cst.BinaryOperation,
            cst.Call,
            cst.Attribute,
        )
        if isinstance(node, kinds):
            self.nodes.append(node)
        return True


@pytest.mark.parametrize("path", _POSITION_FILES[20:80:6], ids=lambda p: p.name)
def test_the_starts_of_reported_nodes_are_the_position_providers(path: Path) -> None:
    module = cst.parse_module(path.read_text(encoding="utf-8"))
    seen = _Reportable()
    module.visit(seen)
    assert len(seen.nodes) > 50
    positions = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    expected = {node: (positions[node].start.line, positions[node].start.column) for node in seen.nodes}
    assert starts(module, seen.nodes) == expected
    some = seen.nodes[::7]
    assert starts(module, some) == {node: expected[node] for node in some}


@pytest.mark.parametrize("path", _POSITION_FILES[23:80:9], ids=lambda p: p.name)
def test_the_spans_of_reported_nodes_are_the_position_providers(path: Path) -> None:
    module = cst.parse_module(path.read_text(encoding="utf-8"))
    seen = _Reportable()
    module.visit(seen)
    positions = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    found, code = _positions.spans(module, seen.nodes)
    assert code == module.code
    assert found == {
        node: (
            (positions[node].start.line, positions[node].start.column),
            (positions[node].end.line, positions[node].end.column),
        )
        for node in seen.nodes
    }


class _Names(cst.CSTVisitor):
    def __init__(self) -> None:
        self.nodes: list[cst.Name] = []

    def visit_Name(self, node: cst.Name) -> None:
        self.nodes.append(node)


def _found_in_text_is_the_position_providers(text: str, outline: _positions.Outline) -> int:
    """Every node :func:`_positions.found_in_text` finds in ``text`` (a file, or a sparse view
    of one) is where LibCST's ``PositionProvider`` says it is; how many it found."""
    module = cst.parse_module(text)
    survey = Survey(DEFAULT_TABLE)
    _walk.walk(module, survey, trivia=False)
    seen = _Reportable()
    module.visit(seen)
    names = _Names()
    module.visit(names)  # (as a use of a value is)
    nodes = [*seen.nodes, *names.nodes]
    found = _positions.found_in_text(module, nodes, outline, survey.parents)
    positions = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    for node, ((start, end), code) in found.items():
        place = positions[node]
        assert (start, end) == ((place.start.line, place.start.column), (place.end.line, place.end.column))
        assert code == module.code_for_node(node)
    return len(found)


@pytest.mark.parametrize("path", _POSITION_FILES[1::4], ids=lambda p: p.name)
def test_the_nodes_found_in_the_text_are_where_the_position_provider_says(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    tree = ast.parse(text)
    assert _found_in_text_is_the_position_providers(text, _positions.Outline(text, statement_lines(tree.body))) > 20
    view = sparse(text, tree, hits(text))
    if view is not None:  # and in a sparse view of it, by the view's own outline
        _found_in_text_is_the_position_providers(view.text, _positions.Outline(view.text, view.statements))


def _placed_alike(source: str, name: str, monkeypatch: pytest.MonkeyPatch) -> int:
    """``source``'s findings are the same placed where their code is found as placed by printing
    the module; how many there are."""
    found = fix_source(source, path=name, unsafe=True, docs=True, check=True).findings
    with monkeypatch.context() as patched:
        patched.setattr(targetlang.fix._rewriter, "found_in_text", lambda *args, **kwargs: {})
        printed = fix_source(source, path=name, unsafe=True, docs=True, check=True).findings
    assert [dataclasses.asdict(f) for f in found] == [dataclasses.asdict(f) for f in printed]
    return len(found)


def test_real_files_findings_are_placed_alike_found_in_the_text_or_printed(monkeypatch: pytest.MonkeyPatch) -> None:
    files = _POSITION_FILES[::5]
    total = sum(
        _placed_alike(path.read_text(encoding="utf-8"), path.name.removesuffix(".before"), monkeypatch)
        for path in files
    )
    assert total > 50


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(_NESTED), min_size=1, max_size=5), st.booleans(), st.booleans())
def test_generated_findings_are_placed_alike_found_in_the_text_or_printed(
    statements: list[str], one_line: bool, inside: bool
) -> None:
    # (statements written twice, several on a line, in a function: placed by printing where the
    # code is not found once in its statement's lines)
    body = "; ".join(statements) + "\n" if one_line else "\n".join(statements) + "\n"
    if inside:
        body = "def build(mod, target, tgt, targets):\n" + "".join(f"    {line}\n" for line in body.splitlines())
    with pytest.MonkeyPatch.context() as monkeypatch:
        assert _placed_alike("import tvm\nfrom tvm.target import Target\n" + body, "m.py", monkeypatch)


def test_a_node_is_not_found_in_the_text_where_its_statements_are_not_python_s() -> None:
    text = "x = 'llvm -mcpu=a'; y = 1\nz = 'cuda'\n"
    module = cst.parse_module(text)
    survey = Survey(DEFAULT_TABLE)
    _walk.walk(module, survey, trivia=False)
    seen = _Reportable()
    module.visit(seen)
    lines = statement_lines(ast.parse(text).body)
    assert len(_positions.found_in_text(module, seen.nodes, _positions.Outline(text, lines), survey.parents)) == 2
    # one statement too few, or the first line's two read as one: nothing is found
    for wrong in (lines[1:], ((1, 1), (2, 2))):
        assert _positions.found_in_text(module, seen.nodes, _positions.Outline(text, wrong), survey.parents) == {}


def test_a_node_written_twice_in_its_statement_is_placed_by_printing() -> None:
    source = "import tvm\nlib = tvm.build(m, target='llvm -mcpu=a') or tvm.build(m, target='llvm -mcpu=a')\n"
    line = source.splitlines()[1]
    first = line.index("'llvm")
    findings = fix_source(source, path="x.py", check=True).findings
    assert [(f.line, f.column) for f in findings] == [(2, first + 1), (2, line.index("'llvm", first + 1) + 1)]


def test_a_finding_s_text_is_the_text_as_it_stands() -> None:
    # (LibCST prints a node alone without the indent of the block it stands in)
    source = (
        "import tvm\n\n\ndef build(mod):\n    return tvm.build(\n        mod,\n"
        '        target=("llvm "\n                "-mcpu=skylake"),\n    )\n'
    )
    [finding] = fix_source(source, path="x.py").findings
    assert finding.before == '"llvm "\n                "-mcpu=skylake"'
    assert (finding.line, finding.column) == (7, 17)


def test_positions_come_from_the_position_provider_if_libcst_printing_changes(monkeypatch: pytest.MonkeyPatch) -> None:
    module = cst.parse_module("x = 1\nt = Target('llvm -mcpu=a')\n")
    seen = _Reportable()
    module.visit(seen)

    def changed(*args: object) -> None:
        raise AttributeError("no such field")

    monkeypatch.setattr(_positions._KeepingSome, "before_codegen", changed)
    assert starts(module, seen.nodes) == {seen.nodes[0]: (2, 4), seen.nodes[1]: (2, 11)}


# ------------------------------------------------------------------ the survey's walk

# Python whose nodes LibCST visits in an order that is not their classes' field order (an
# if-expression, a decorated function, a call's parentheses), or whose fields it announces only
# when they hold something (an f-string's format spec, which comes first without one here).
_WALK_SOURCE = """\
import tvm.target as T, os
from tvm.target import *
from . import (a, b as c)
@dec(x if y else "llvm -mcpu=a")
async def f(a, /, b: int = 1, *args, c: str = "cuda -arch=sm_80", **kw) -> "T":
    t = (Target(f"llvm -mcpu={a}") if (n := len(a)) else T.cuda(model="x"))
    u = [f"{v!r:>{w}}" for v in a if v async for w in b]
    del t[0:1:2], kw
    match t:
        case {"kind": k, **rest} if k: pass
        case [1, *others] | Point(x=0): return lambda q, *r: q % (r,)
    with open(a) as h, ctx(): yield from h
    try: raise E from None
    except* E as e: nonlocal_ = {**kw, "k": not -+~x}
    finally: await g(*a, **kw)
    global G; assert G, "m"
    while 1 < 2 <= 3: break
    else: continue
class C[T: int, *Ts, **P](Base, metaclass=M):
    type X = list[T]
    x: int = 1; y @= z; s = r"a" "b"; o = b"c"
"""


class _Events(cst.CSTVisitor):
    """The nodes a visit meets, as ``(event, node)`` in order."""

    def __init__(self) -> None:
        super().__init__()
        self.events: list[tuple[str, int]] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        self.events.append(("visit", id(node)))
        return not isinstance(node, cst.Lambda)  # a visit_ that stops the walk down

    def on_leave(self, original_node: cst.CSTNode) -> None:
        self.events.append(("leave", id(original_node)))


@pytest.mark.parametrize(
    "source",
    [_WALK_SOURCE, *(p.read_text(encoding="utf-8") for p in _POSITION_FILES[::25])],
    ids=["every syntax", *(p.name for p in _POSITION_FILES[::25])],
)
def test_the_walk_meets_the_nodes_libcsts_visit_meets_in_its_order(
    monkeypatch: pytest.MonkeyPatch, source: str
) -> None:
    monkeypatch.setattr(_walk, "_ORDER", {})  # the order recorded afresh, from this source
    module = cst.parse_module(source)
    visited, walked = _Events(), _Events()
    module.visit(visited)
    _walk.walk(module, walked)
    assert len(visited.events) > 500
    assert walked.events == visited.events


class _Plain(_Events):
    """The nodes a visit meets but those of layout and punctuation (and what they hold)."""

    def __init__(self) -> None:
        super().__init__()
        self.inside = 0  # how many trivia nodes the visit is in

    def on_visit(self, node: cst.CSTNode) -> bool:
        trivial = isinstance(node, tuple(_walk.TRIVIA))
        if trivial or self.inside:
            self.inside += 1
            return True
        return super().on_visit(node)

    def on_leave(self, original_node: cst.CSTNode) -> None:
        if self.inside:
            self.inside -= 1
        else:
            super().on_leave(original_node)


@pytest.mark.parametrize(
    "source",
    [_WALK_SOURCE, *(p.read_text(encoding="utf-8") for p in _POSITION_FILES[::25])],
    ids=["every syntax", *(p.name for p in _POSITION_FILES[::25])],
)
def test_the_walk_without_trivia_meets_every_other_node_in_libcsts_order(source: str) -> None:
    module = cst.parse_module(source)
    visited, walked = _Plain(), _Events()
    module.visit(visited)
    _walk.walk(module, walked, trivia=False)
    assert len(visited.events) > 200
    assert walked.events == visited.events
    whole = _Events()
    _walk.walk(module, whole)
    assert len(whole.events) > len(walked.events) * 1.3  # (white space and punctuation: many)


def test_a_node_whose_fields_libcst_does_not_announce_is_walked_by_libcsts_visit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_walk, "_ORDER", {})
    monkeypatch.setattr(_walk._Announced, "on_visit_attribute", lambda self, node, attribute: None)
    module = cst.parse_module(_WALK_SOURCE)
    visited, walked = _Events(), _Events()
    module.visit(visited)
    _walk.walk(module, walked)
    assert walked.events == visited.events


def test_the_users_invalid_escapes_are_not_warned_of() -> None:
    # Python warns of an invalid escape when it reads one (a SyntaxWarning on the user's screen
    # from 3.12 on): the fixer reads the user's source, it does not run it.
    source = 't = Target("llvm -mcpu=a\\,b")\nu = Target("llvm -mcpu=%s" % "x\\,")\nv = Target(f"llvm -mcpu=\\,{x}")\n'
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = fix_source(source, path="x.py")
    assert [str(w.message) for w in caught] == []
    assert [f.rule for f in result.findings] == ["target-string", "dynamic-target", "dynamic-target"]


def test_every_rule_is_one_module_of_its_own() -> None:
    """A rule is its row in RULES and one module of targetlang.fix.rules named for its id."""
    import importlib
    import pkgutil

    import targetlang.fix.rules
    from targetlang.fix._plugins import _plugins, rule_module

    modules = {info.name for info in pkgutil.iter_modules(targetlang.fix.rules.__path__)}
    assert modules == {rule_id.replace("-", "_") for rule_id in RULES}
    for rule_id in RULES:
        module = importlib.import_module(rule_module(rule_id))
        assert rule_id in (module.__doc__ or "").split(":", 1)[0], rule_id
    # every Python rule plugs in (its module makes its plugin, a report-only modern rule through
    # _modern.report_only_rule); the text rule reads no Python
    hooked = {each.rule.id for each in _plugins() if each.surveys or each.rewrites}
    assert hooked == set(RULES) - {"text-target"}


def test_the_rewriter_watches_no_field_of_a_node() -> None:
    """The rewriter skips LibCST's look for visit_<Node>_<field> methods: it has none, and its
    rules hook in through rewrite_hooks, by the class of the node."""
    import re

    from targetlang.fix._rewriter import Rewriter

    ours = [vars(cls) for cls in Rewriter.__mro__ if cls.__module__.startswith("targetlang")]
    watching = [name for names in ours for name in names if re.fullmatch(r"(?:visit|leave)_[A-Z]\w*_\w+", name)]
    assert watching == []  # (LibCST's own are empty stubs)
    assert Rewriter.on_visit_attribute is not cst.CSTTransformer.on_visit_attribute


# (id, source, the release the code runs on, fixed?, words of the message)
TARGET_VERSION_CASES: list[tuple[str, str, str, bool, str]] = [
    ("0.24: every removed property", "def f(t: Target):\n    return t.max_num_threads\n", "0.24", True, "removed"),
    ("0.27: both raise where absent", "def f(t: Target):\n    return t.max_num_threads\n", "0.27", False, ""),
    ("0.25: an absent attribute", "def f(t: Target):\n    return t.mcpu\n", "0.25", True, "AttributeError"),
    (
        "0.27: guarded by a conditional expression",
        'def f(t: Target):\n    return t.arch if hasattr(t, "arch") else ""\n',
        "0.27",
        False,
        "",
    ),
    (
        "0.27: guarded by an if",
        'def f(t: Target):\n    if hasattr(t, "model") and t.kind.name == "llvm":\n        return t.model\n',
        "0.27",
        False,
        "",
    ),
    ("0.27: guarded by and", 'def f(t: Target):\n    return hasattr(t, "mcpu") and t.mcpu\n', "0.27", False, ""),
    (
        "0.27: a guard of another receiver",
        'def f(t: Target, u: Target):\n    return t.arch if hasattr(u, "arch") else ""\n',
        "0.27",
        True,
        "AttributeError",
    ),
    (
        "0.27: a guard of another attribute",
        'def f(t: Target):\n    return t.arch if hasattr(t, "mcpu") else ""\n',
        "0.27",
        True,
        "AttributeError",
    ),
    (
        "0.27: the else branch is not guarded",
        'def f(t: Target):\n    return "" if hasattr(t, "arch") else t.arch\n',
        "0.27",
        True,
        "AttributeError",
    ),
    (
        "0.26: a changed type, guarded or not",
        'def f(t: Target):\n    return t.mattr if hasattr(t, "mattr") else []\n',
        "0.26",
        True,
        "Array, not a list",
    ),
    ("0.27: a renamed key", "def f(t: Target):\n    return t.device_name\n", "0.27", True, "'device_name' (vulkan's)"),
    (
        "0.27: a computed value",
        "def f(t: Target):\n    return t.supports_integer_dot_product\n",
        "0.27",
        True,
        "computed it from the arch",
    ),
]


@pytest.mark.parametrize(
    ("source", "version", "fixed", "words"),
    [c[1:] for c in TARGET_VERSION_CASES],
    ids=[c[0] for c in TARGET_VERSION_CASES],
)
def test_target_version(source: str, version: str, fixed: bool, words: str) -> None:
    result = fix_source(source, path="m.py", target_version=version)
    if not fixed:
        assert result.findings == () and result.text == source
        return
    [finding] = result.findings
    assert finding.applied and words in finding.message, finding.message
    assert ".attrs" in result.text


def test_target_version_is_a_modern_release() -> None:
    from targetlang.fix import TARGET_VERSIONS

    assert TARGET_VERSIONS == ("tirx-0.1", *MODERN_NAMES)
    assert fix_source("t = Target('cuda')\nt.model\n", path="m.py").findings[0].applied  # default: the newest
    with pytest.raises(ValueError, match="target_version"):
        fix_source("x = 1\n", path="m.py", target_version="0.23")


LONG = 'target = tvm.target.Target("cuda -arch=sm_87 -max_threads_per_block=1024 -libs=cudnn,cublas", host=host)\n'


def test_a_long_line_is_split_as_black_splits_it_in_a_file_black_leaves_as_it_is() -> None:
    import black

    source = (
        "import tvm\n\n\ndef build(host):\n"
        "    target = tvm.target.Target(\n"
        '        "cuda -arch=sm_87 -max_threads_per_block=1024 -libs=cudnn,cublas", host=host\n'
        "    )\n"
        "    return target\n"
    )
    assert black.format_str(source, mode=black.Mode()) == source  # a format-clean file
    fixed = fix_source(source, path="m.py", line_length=88)
    assert fixed.text == (
        "import tvm\n\n\ndef build(host):\n"
        "    target = tvm.target.Target(\n"
        "        {\n"
        '            "kind": "cuda",\n'
        '            "arch": "sm_87",\n'
        '            "max_threads_per_block": 1024,\n'
        '            "libs": ["cudnn", "cublas"],\n'
        "        },\n"
        "        host=host,\n"
        "    )\n"
        "    return target\n"
    )
    assert black.format_str(fixed.text, mode=black.Mode()) == fixed.text  # and stays so


def test_a_long_line_in_a_file_of_its_own_style_splits_the_dict_alone() -> None:
    source = "class C:\n    def f(self, host):\n        " + LONG
    assert fix_source(source, path="m.py", line_length=88).text == (
        "class C:\n    def f(self, host):\n"
        "        target = tvm.target.Target({\n"
        '            "kind": "cuda",\n'
        '            "arch": "sm_87",\n'
        '            "max_threads_per_block": 1024,\n'
        '            "libs": ["cudnn", "cublas"],\n'
        "        }, host=host)\n"
    )


def test_the_line_length_is_the_projects(tmp_path: Path) -> None:
    source = 'target = tvm.target.Target("cuda -arch=sm_87 -max_threads_per_block=1024 -libs=cudnn")\n'
    one_line = (
        'target = tvm.target.Target({"kind": "cuda", "arch": "sm_87", '
        '"max_threads_per_block": 1024, "libs": ["cudnn"]})\n'
    )

    def longest(text: str) -> int:
        return max(map(len, text.splitlines()))

    configs = {
        "a": "[tool.ruff]\nline-length = 120\n[tool.black]\nline-length = 60\n",
        "b": "[tool.black]\nline-length = 100\n",
    }
    for project, config in configs.items():
        (tmp_path / project).mkdir()
        (tmp_path / project / "pyproject.toml").write_text(config)
    assert fix_source(source, path=str(tmp_path / "a" / "pkg" / "m.py")).text == one_line  # ruff's 120 first
    assert 80 < longest(fix_source(source, path=str(tmp_path / "b" / "m.py")).text) <= 100
    assert fix_source(source, path=str(tmp_path / "b" / "m.py"), line_length=200).text == one_line
    assert longest(fix_source(source, path="<stdin>").text) <= 88  # no project: 88
    assert fix_source(source, path="<stdin>", line_length=0).text == one_line  # 0: no limit


def test_a_short_line_is_left_on_one_line() -> None:
    fixed = fix_source('t = Target("cuda -arch=sm_80")\n', path="m.py", line_length=46)
    assert fixed.text == 't = Target({"kind": "cuda", "arch": "sm_80"})\n'


# (id, source, the findings' rules and safeties, the text with --unsafe-fixes or None: unchanged)
MISSED_CASES: list[tuple[str, str, list[tuple[str, str]], str | None]] = [
    (
        "imported helpers never called",
        "from tvm.target import Target, vta, hexagon\nt = Target('cuda')\n",
        [("target-helper", "safe"), ("target-helper", "safe")],
        "from tvm.target import Target\nt = Target('cuda')\n",
    ),
    (
        "a helper handed to functools.partial",
        "import functools\nimport tvm\nmake = functools.partial(tvm.target.arm_cpu, 'rasp4b')\n",
        [("target-helper", "report-only")],
        None,
    ),
    (
        "a dict of helpers imported by name",
        "from tvm.target import cuda, rocm\nMAKERS = {'cuda': cuda, 'rocm': rocm}\n",
        [("target-helper", "report-only"), ("target-helper", "report-only")],
        None,
    ),
    (
        "a with-as name holds a Target",
        "import tvm\nwith tvm.target.Target('cuda') as tt:\n    n = tt.mattr\n",
        [("target-property", "safe")],
        "import tvm\nwith tvm.target.Target('cuda') as tt:\n    n = list(tt.attrs.get(\"mattr\", []))\n",
    ),
    (
        "a helper import that tells which TVM runs is left alone",
        "try:\n    from tvm.target import cuda  # noqa: F401\n    LEGACY = True\n"
        "except ImportError:\n    LEGACY = False\n",
        [("target-helper", "report-only")],
        None,
    ),
    (
        "a name a comprehension binds again is no Target",
        "from tvm.target import Target\nt = Target('llvm')\nnames = [t.model for t in cars]\n",
        [],
        None,
    ),
    (
        "a class of the module's own named Target",
        "class Target:\n    def __init__(self, s):\n        self.parts = s.split()\n\n"
        "t = Target('llvm -mcpu=skylake')\n",
        [("target-string", "unsafe")],
        "class Target:\n    def __init__(self, s):\n        self.parts = s.split()\n\n"
        "t = Target('{\"kind\": \"llvm\", \"mcpu\": \"skylake\"}')\n",
    ),
    (
        "branches of a conditional expression",
        "import tvm\ndef f(mod, fast):\n    t = 'llvm -mcpu=skylake' if fast else 'llvm -mcpu=x86-64'\n"
        "    return tvm.compile(mod, t)\n",
        [("target-string", "safe"), ("target-string", "safe")],
        "import tvm\ndef f(mod, fast):\n    t = {'kind': 'llvm', 'mcpu': 'skylake'} if fast else "
        "{'kind': 'llvm', 'mcpu': 'x86-64'}\n    return tvm.compile(mod, t)\n",
    ),
    (
        "an assignment expression and a lambda's default",
        "import tvm\ndef g(mod):\n    tvm.compile(mod, (t := 'llvm -mcpu=a'))\n    return t.split()\n"
        "h = lambda t='cuda -arch=sm_80': tvm.target.Target(t)\n",
        [("target-string", "unsafe"), ("target-string", "safe")],
        "import tvm\ndef g(mod):\n    tvm.compile(mod, (t := '{\"kind\": \"llvm\", \"mcpu\": \"a\"}'))\n"
        "    return t.split()\nh = lambda t={'kind': 'cuda', 'arch': 'sm_80'}: tvm.target.Target(t)\n",
    ),
    (
        "a hasattr guard of a renamed key",
        'def f(t: Target):\n    return t.device_name if hasattr(t, "device_name") else ""\n',
        [("target-property", "safe"), ("target-property", "unsafe")],
        'def f(t: Target):\n    return str(t.attrs.get("device", "")) if ("device" in t.attrs) else ""\n',
    ),
]


@pytest.mark.parametrize(("source", "found", "fixed"), [c[1:] for c in MISSED_CASES], ids=[c[0] for c in MISSED_CASES])
def test_what_was_missed(source: str, found: list[tuple[str, str]], fixed: str | None) -> None:
    result = fix_source(source, path="m.py", unsafe=True, line_length=200)
    assert [(f.rule, f.safety) for f in result.findings] == found
    assert result.text == (source if fixed is None else fixed)
    assert fix_source(result.text, path="m.py", unsafe=True, line_length=200).text == result.text


def test_a_hasattr_guard_on_0_24_tests_the_attribute() -> None:
    source = 'def f(t: Target):\n    return t.arch if hasattr(t, "arch") else ""\n'
    result = fix_source(source, path="m.py", unsafe=True, target_version="0.24")
    assert result.text == 'def f(t: Target):\n    return str(t.attrs.get("arch", "")) if ("arch" in t.attrs) else ""\n'
    assert "on TVM 0.24 it is never true" in result.findings[1].message
    assert fix_source(source, path="m.py", unsafe=True).text == source  # 0.25 on: the guard works


def test_a_line_a_property_fix_made_too_long_is_laid_out_alone() -> None:
    source = (
        "import os\nclass C:\n    def f(self, target, logdir, key):\n"
        "        return os.path.join(logdir, 'x', target.model, key, target.mcpu, 'some-more-text-here')\n"
    )
    fixed = fix_source(source, path="m.py", unsafe=True, line_length=88).text
    assert fixed == (
        "import os\nclass C:\n    def f(self, target, logdir, key):\n"
        "        return os.path.join(\n"
        "            logdir,\n"
        "            'x',\n"
        '            str(target.attrs.get("model", "unknown")),\n'
        "            key,\n"
        '            str(target.attrs.get("mcpu", "")),\n'
        "            'some-more-text-here',\n"
        "        )\n"
    )


def test_canon_target_of_a_long_string_is_split() -> None:
    source = (
        "from tvm.target import Target\ndef f(x):\n"
        '    t = Target.canon_target("llvm -mcpu=skylake-avx512 -mtriple=x86_64-linux-gnu")\n'
    )
    fixed = fix_source(source, path="m.py", line_length=88).text
    assert max(map(len, fixed.splitlines())) <= 88
    assert '    t = Target({\n        "kind": "llvm",\n' in fixed
