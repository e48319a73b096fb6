"""Modern targets in source are checked too: dicts and JSON texts where a target is read (and the
dicts that flow there), against the release's kinds, attributes and tags and TVM 0.27's checks;
and ``str(target)`` tested for a kind or an option, which is JSON since TVM 0.24.

Every expected text and finding is written by hand. The differential proof: what apache-tvm 0.27
does with each case's target before and after the fix, recorded by
``tests/fixproof/record_modern027.py`` (the golden always runs; the live test where ``import tvm``
works).
"""

from __future__ import annotations

import ast
import json
import re
import textwrap
from pathlib import Path
from typing import Any

import pytest

from targetlang.fix import fix_source

from .fixproof.modern_cases import EXPRESSION_CASES, TARGET_CASES, ExpressionCase, TargetCase

DATA = Path(__file__).parent / "data" / "fix"
GOLDEN = DATA / "modern027.jsonl"
TUTORIAL = DATA / "places" / "cross_compilation_and_rpc.py"

# (id, source, unsafe, the fixed text, the findings: (line, column, rule, safety, applied))
Row = tuple[str, str, bool, str, list[tuple[int, int, str, str, bool]]]

ROWS: list[Row] = [
    (
        "tutorial",
        "import tvm\n\ntarget = tvm.target.Target(\n"
        '    {"kind": "llvm", "mtriple": "aarch64-linux-gnu", "mattr": "+neon"}\n)\n',
        False,
        "import tvm\n\ntarget = tvm.target.Target(\n"
        '    {"kind": "llvm", "mtriple": "aarch64-linux-gnu", "mattr": ["+neon"]}\n)\n',
        [(4, 63, "target-attr-type", "safe", True)],
    ),
    (
        "keyword of tvm.compile",
        'import tvm\n\ntvm.compile(mod, target={"kind": "cuda", "libs": "cudnn"})\n',
        False,
        'import tvm\n\ntvm.compile(mod, target={"kind": "cuda", "libs": ["cudnn"]})\n',
        [(3, 50, "target-attr-type", "safe", True)],
    ),
    (
        "single quotes kept",
        "from tvm.target import Target\n\nt = Target({'kind': 'llvm', 'mattr': '+avx2'})\n",
        False,
        "from tvm.target import Target\n\nt = Target({'kind': 'llvm', 'mattr': ['+avx2']})\n",
        [(3, 38, "target-attr-type", "safe", True)],
    ),
    (
        "a dict that flows to Target",
        'import tvm\n\ndef f():\n    cfg = {"kind": "llvm", "mattr": "+neon"}\n    return tvm.target.Target(cfg)\n',
        False,
        'import tvm\n\ndef f():\n    cfg = {"kind": "llvm", "mattr": ["+neon"]}\n    return tvm.target.Target(cfg)\n',
        [(4, 37, "target-attr-type", "safe", True)],
    ),
    (
        "a module-level dict: other modules may import it, unsafe as a legacy string there is",
        'import tvm\n\ncfg = {"kind": "llvm", "mattr": "+neon"}\ntarget = tvm.target.Target(cfg)\n',
        False,
        'import tvm\n\ncfg = {"kind": "llvm", "mattr": "+neon"}\ntarget = tvm.target.Target(cfg)\n',
        [(3, 33, "target-attr-type", "unsafe", False)],
    ),
    (
        "a dict whose value is also read as text: unsafe (a list would break the +)",
        'def f():\n    cfg = {"kind": "llvm", "mattr": "+avx2"}\n    print("f: " + cfg["mattr"])\n'
        "    return Target(cfg)\n",
        False,
        'def f():\n    cfg = {"kind": "llvm", "mattr": "+avx2"}\n    print("f: " + cfg["mattr"])\n'
        "    return Target(cfg)\n",
        [(2, 37, "target-attr-type", "unsafe", False)],
    ),
    (
        "a dict appended to: unsafe",
        'def f():\n    opts = {"kind": "llvm", "mattr": "+neon"}\n    opts["mattr"] += ",+fma"\n'
        "    return Target(opts)\n",
        True,
        'def f():\n    opts = {"kind": "llvm", "mattr": ["+neon"]}\n    opts["mattr"] += ",+fma"\n'
        "    return Target(opts)\n",
        [(2, 38, "target-attr-type", "unsafe", True)],
    ),
    (
        "an empty feature string: no fix offered",
        'Target({"kind": "llvm", "mattr": ""})\n',
        False,
        'Target({"kind": "llvm", "mattr": ""})\n',
        [(1, 34, "target-attr-type", "report-only", False)],
    ),
    (
        "commas: unsafe, not applied",
        'import tvm\n\ntvm.target.Target({"kind": "llvm", "mattr": "+neon,+v8.2a"})\n',
        False,
        'import tvm\n\ntvm.target.Target({"kind": "llvm", "mattr": "+neon,+v8.2a"})\n',
        [(3, 45, "target-attr-type", "unsafe", False)],
    ),
    (
        "commas: split with unsafe fixes",
        'import tvm\n\ntvm.target.Target({"kind": "llvm", "mattr": "+neon,+v8.2a"})\n',
        True,
        'import tvm\n\ntvm.target.Target({"kind": "llvm", "mattr": ["+neon", "+v8.2a"]})\n',
        [(3, 45, "target-attr-type", "unsafe", True)],
    ),
    (
        "an int written as text",
        'import tvm\n\ntvm.target.Target({"kind": "llvm", "num-cores": "8"})\n',
        True,
        'import tvm\n\ntvm.target.Target({"kind": "llvm", "num-cores": 8})\n',
        [(3, 49, "target-attr-type", "unsafe", True)],
    ),
    (
        "a bool written as text: reported",
        'import tvm\n\ntvm.target.Target({"kind": "llvm", "fast-math": "true"})\n',
        True,
        'import tvm\n\ntvm.target.Target({"kind": "llvm", "fast-math": "true"})\n',
        [(3, 49, "target-attr-type", "report-only", False)],
    ),
    (
        "an int for a bool: TVM 0.27 reads it, no finding",
        'import tvm\n\ntvm.target.Target({"kind": "llvm", "fast-math": 1})\n',
        True,
        'import tvm\n\ntvm.target.Target({"kind": "llvm", "fast-math": 1})\n',
        [],
    ),
    (
        "a nested host",
        'import tvm\n\ntvm.target.Target({"kind": "cuda", "host": {"kind": "llvm", "mattr": "+neon"}})\n',
        False,
        'import tvm\n\ntvm.target.Target({"kind": "cuda", "host": {"kind": "llvm", "mattr": ["+neon"]}})\n',
        [(3, 70, "target-attr-type", "safe", True)],
    ),
    (
        "a JSON text",
        'import tvm\n\ntvm.target.Target(\'{"kind": "llvm", "mattr": "+neon"}\')\n',
        False,
        'import tvm\n\ntvm.target.Target(\'{"kind": "llvm", "mattr": ["+neon"]}\')\n',
        [(3, 19, "target-attr-type", "safe", True)],
    ),
    (
        "a JSON text with three wrong types: the two safe fixes, at once",
        'import tvm\n\ntvm.target.Target(\'{"kind": "llvm", "mattr": "+a", "libs": "x", "num-cores": "4"}\')\n',
        False,
        'import tvm\n\ntvm.target.Target(\'{"kind": "llvm", "mattr": ["+a"], "libs": ["x"], "num-cores": "4"}\')\n',
        [
            (3, 19, "target-attr-type", "safe", True),
            (3, 19, "target-attr-type", "safe", True),
            (3, 19, "target-attr-type", "unsafe", False),
        ],
    ),
    (
        "a JSON text written with escapes: reported",
        'import tvm\n\ntvm.target.Target("{\\"kind\\": \\"llvm\\", \\"mattr\\": \\"+neon\\"}")\n',
        False,
        'import tvm\n\ntvm.target.Target("{\\"kind\\": \\"llvm\\", \\"mattr\\": \\"+neon\\"}")\n',
        [(3, 19, "target-attr-type", "report-only", False)],
    ),
    (
        "a tag as the host, and a removed kind's bare name",
        'import tvm\n\na = tvm.target.Target({"kind": "cuda", "host": "nvidia/jetson-nanoo"})\n'
        'b = tvm.target.Target("stackvm")\n',
        False,
        'import tvm\n\na = tvm.target.Target({"kind": "cuda", "host": "nvidia/jetson-nanoo"})\n'
        'b = tvm.target.Target("stackvm")\n',
        [(3, 48, "target-unknown-tag", "report-only", False), (4, 23, "target-unknown-kind", "report-only", False)],
    ),
    (
        "an unknown attribute",
        'import tvm\n\ntvm.target.Target({"kind": "llvm", "mcpux": "skylake"})\n',
        False,
        'import tvm\n\ntvm.target.Target({"kind": "llvm", "mcpux": "skylake"})\n',
        [(3, 36, "target-unknown-attr", "report-only", False)],
    ),
    (
        "an unknown tag, as text and as a key",
        'import tvm\n\na = tvm.target.Target("nvidia/jetson-nanoo")\n'
        'b = tvm.target.Target({"tag": "nvidia/jetson-nanoo"})\n',
        False,
        'import tvm\n\na = tvm.target.Target("nvidia/jetson-nanoo")\n'
        'b = tvm.target.Target({"tag": "nvidia/jetson-nanoo"})\n',
        [(3, 23, "target-unknown-tag", "report-only", False), (4, 31, "target-unknown-tag", "report-only", False)],
    ),
    (
        "kinds removed and misspelt",
        'import tvm\n\na = tvm.target.Target({"kind": "hybrid"})\nb = tvm.target.Target({"kind": "cudda"})\n',
        False,
        'import tvm\n\na = tvm.target.Target({"kind": "hybrid"})\nb = tvm.target.Target({"kind": "cudda"})\n',
        [(3, 32, "target-unknown-kind", "report-only", False), (4, 32, "target-unknown-kind", "report-only", False)],
    ),
    (
        "an API imported under another name",
        'from tvm import compile as build_it\n\ncfg = {"kind": "hybrid"}\nbuild_it(mod, target=cfg)\n',
        False,
        'from tvm import compile as build_it\n\ncfg = {"kind": "hybrid"}\nbuild_it(mod, target=cfg)\n',
        [(3, 16, "target-unknown-kind", "report-only", False)],
    ),
    (
        "a removed kind's name, to Target under another name",
        'from tvm.target import Target as T\n\nT("cutlass")\n',
        False,
        'from tvm.target import Target as T\n\nT("cutlass")\n',
        [(3, 3, "target-unknown-kind", "report-only", False)],
    ),
    (
        "a removed kind's name through a name",
        'import tvm\nx = "cutlass"\ntvm.build(m, target=x)\n',
        False,
        'import tvm\nx = "cutlass"\ntvm.build(m, target=x)\n',
        [(2, 5, "target-unknown-kind", "report-only", False)],
    ),
    (
        "no API called: a dict or a kind's name is data",
        'cfg = {"kind": "hybrid"}\nprint(cfg, "cutlass")\n',
        False,
        'cfg = {"kind": "hybrid"}\nprint(cfg, "cutlass")\n',
        [],
    ),
    (
        "a canonicaliser's check",
        'import tvm\n\ntvm.target.Target({"kind": "cuda", "arch": "80"})\n',
        False,
        'import tvm\n\ntvm.target.Target({"kind": "cuda", "arch": "80"})\n',
        [(3, 44, "target-rejected", "report-only", False)],
    ),
    (
        "a dict that is no target: left",
        'cfg = {"kind": "llvm", "mattr": "+neon"}\nprint(cfg)\n',
        False,
        'cfg = {"kind": "llvm", "mattr": "+neon"}\nprint(cfg)\n',
        [],
    ),
    (
        "a value not known here: the rest still checked",
        'import tvm\n\ntvm.target.Target({"kind": "llvm", "mcpu": cpu, "mattr": "+neon"})\n',
        False,
        'import tvm\n\ntvm.target.Target({"kind": "llvm", "mcpu": cpu, "mattr": ["+neon"]})\n',
        [(3, 58, "target-attr-type", "safe", True)],
    ),
    (
        "a ** in the dict: left",
        'import tvm\n\ntvm.target.Target({"kind": "llvm", **extra, "mattr": "+neon"})\n',
        False,
        'import tvm\n\ntvm.target.Target({"kind": "llvm", **extra, "mattr": "+neon"})\n',
        [],
    ),
    (
        "a correct modern target: nothing",
        'import tvm\n\ntvm.target.Target({"kind": "llvm", "mattr": ["+neon"], "num-cores": 4}, host="llvm")\n',
        False,
        'import tvm\n\ntvm.target.Target({"kind": "llvm", "mattr": ["+neon"], "num-cores": 4}, host="llvm")\n',
        [],
    ),
    (
        "str(t).startswith of a Target",
        'import tvm\n\nt = tvm.target.Target("cuda")\nif str(t).startswith("cuda"):\n    pass\n',
        True,
        'import tvm\n\nt = tvm.target.Target("cuda")\nif t.kind.name == "cuda":\n    pass\n',
        [(4, 4, "target-str-compare", "unsafe", True)],
    ),
    (
        "an option searched for in str(t)",
        'import tvm\n\nt = tvm.target.Target("llvm")\nfast = "-mcpu" in str(t)\n',
        True,
        'import tvm\n\nt = tvm.target.Target("llvm")\nfast = "mcpu" in t.attrs\n',
        [(4, 8, "target-str-compare", "unsafe", True)],
    ),
    (
        "a receiver taken for a Target by its name: reported",
        'def f(target):\n    return str(target) == "llvm"\n',
        True,
        'def f(target):\n    return str(target) == "llvm"\n',
        [(2, 12, "target-str-compare", "report-only", False)],
    ),
    (
        "str(t.kind) is still the name, and a kind is still in the JSON: left",
        'import tvm\n\nt = tvm.target.Target("cuda")\na = str(t.kind) == "cuda"\nb = "cuda" in str(t)\n',
        True,
        'import tvm\n\nt = tvm.target.Target("cuda")\na = str(t.kind) == "cuda"\nb = "cuda" in str(t)\n',
        [],
    ),
    (
        "str() of anything else: left",
        'name = "llvm"\nok = str(name) == "llvm"\n',
        True,
        'name = "llvm"\nok = str(name) == "llvm"\n',
        [],
    ),
]


@pytest.mark.parametrize(("source", "unsafe", "fixed", "expected"), [r[1:] for r in ROWS], ids=[r[0] for r in ROWS])
def test_row(source: str, unsafe: bool, fixed: str, expected: list[tuple[int, int, str, str, bool]]) -> None:
    result = fix_source(source, unsafe=unsafe, line_length=0)
    assert result.text == fixed
    assert [(f.line, f.column, f.rule, f.safety, f.applied) for f in result.findings] == expected
    again = fix_source(result.text, unsafe=unsafe, line_length=0)
    assert again.text == result.text  # a fixed point


@pytest.mark.parametrize(
    ("source", "words"),
    [
        ('import tvm\ntvm.target.Target({"kind": "llvm", "mcpux": "a"})\n', ["'mcpux'", "did you mean 'mcpu'"]),
        ('import tvm\ntvm.target.Target({"kind": "llvm", "system-lib": True})\n', ["TVM removed it", "Runtime"]),
        ('import tvm\ntvm.target.Target("nvidia/jetson-nanoo")\n', ["no tag", "did you mean 'nvidia/jetson-nano'"]),
        ('import tvm\ntvm.target.Target({"kind": "hybrid"})\n', ["'hybrid'", "removed in TVM v0.22"]),
        ('import tvm\ntvm.target.Target({"kind": "cudnn"})\n', ["'cudnn'", "BYOC"]),
        ('import tvm\ntvm.target.Target({"kind": "cudda"})\n', ["no target kind 'cudda'", "did you mean 'cuda'"]),
        ('import tvm\ntvm.target.Target({"kind": "cuda", "arch": "80"})\n', ["invalid CUDA arch: -arch=80"]),
        ('import tvm\ntvm.target.Target({"kind": "llvm", "mattr": "+a"})\n', ["'mattr'", "Array<str>", "rejects"]),
    ],
)
def test_message(source: str, words: list[str]) -> None:
    (finding,) = fix_source(source).findings
    for word in words:
        assert word in finding.message


def test_the_release_read_is_the_target_version() -> None:
    source = 'import tvm\ntvm.target.Target({"kind": "hybrid"})\n'
    (finding,) = fix_source(source, target_version="0.24").findings
    assert "not in TVM 0.24" in finding.message


def test_ignored_rule_reports_nothing() -> None:
    source = 'import tvm\ntvm.target.Target({"kind": "llvm", "mattr": "+neon"})\n'
    result = fix_source(source, ignore=["target-attr-type"])
    assert result.text == source and result.findings == ()


# -- the TVM tutorial: its "+neon", in a sphinx-gallery comment's code block


def _tutorial_snippet() -> str:
    lines = TUTORIAL.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if "target = tvm.target.Target(" in line and "#" in line)
    return textwrap.dedent("\n".join(line.split("#", 1)[1] for line in lines[start : start + 3])) + "\n"


def test_the_tutorial_snippet_is_found_and_fixed() -> None:
    snippet = _tutorial_snippet()
    assert snippet == (
        'target = tvm.target.Target(\n    {"kind": "llvm", "mtriple": "aarch64-linux-gnu", "mattr": "+neon"}\n)\n'
    )
    result = fix_source("import tvm\n" + snippet)
    assert result.text == (
        "import tvm\n"
        'target = tvm.target.Target(\n    {"kind": "llvm", "mtriple": "aarch64-linux-gnu", "mattr": ["+neon"]}\n)\n'
    )
    assert [(f.rule, f.safety, f.before, f.after) for f in result.findings] == [
        ("target-attr-type", "safe", '"+neon"', '["+neon"]')
    ]


def test_the_whole_tutorial_file_is_fixed_with_docs() -> None:
    text = TUTORIAL.read_text(encoding="utf-8")
    result = fix_source(text, path="cross_compilation_and_rpc.py", docs=True)
    assert '#           {"kind": "llvm", "mtriple": "aarch64-linux-gnu", "mattr": ["+neon"]}\n' in result.text
    assert result.text.replace('["+neon"]', '"+neon"') == text
    assert [(f.line, f.column, f.rule, f.applied) for f in result.findings] == [(734, 75, "target-attr-type", True)]
    reported = fix_source(text, path="cross_compilation_and_rpc.py")  # without docs: reported, not applied
    assert reported.text == text
    assert [(f.line, f.column, f.rule, f.applied) for f in reported.findings] == [(734, 75, "target-attr-type", False)]


# -- the cases of the differential proof


@pytest.mark.parametrize("case", TARGET_CASES, ids=[c.id for c in TARGET_CASES])
def test_target_case(case: TargetCase) -> None:
    source = f"import tvm\n\ntvm.target.Target({case.before})\n"
    result = fix_source(source, unsafe=True, line_length=0)
    assert [(f.rule, f.safety) for f in result.findings] == [(case.rule, case.safety)]
    after = case.before if case.after is None else case.after
    assert result.text == f"import tvm\n\ntvm.target.Target({after})\n"


@pytest.mark.parametrize("case", EXPRESSION_CASES, ids=[c.id for c in EXPRESSION_CASES])
def test_expression_case(case: ExpressionCase) -> None:
    source = f"import tvm\n\nt = tvm.target.Target({case.target})\nok = {case.before}\n"
    result = fix_source(source, unsafe=True, line_length=0)
    assert [(f.rule, f.safety) for f in result.findings] == [("target-str-compare", case.safety)]
    assert result.text == f"import tvm\n\nt = tvm.target.Target({case.target})\nok = {case.after}\n"


def _golden() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    header, *records = [json.loads(line) for line in GOLDEN.read_text(encoding="utf-8").splitlines()]
    return header, records


def test_golden_is_the_table_s() -> None:
    header, records = _golden()
    assert header["tvm"].startswith("0.27")
    table = [(c.id, c.before, c.after) for c in TARGET_CASES] + [(c.id, c.before, c.after) for c in EXPRESSION_CASES]
    assert [(r["id"], r["before"], r["after"]) for r in records] == table


@pytest.mark.parametrize("case", TARGET_CASES, ids=[c.id for c in TARGET_CASES])
def test_golden_before_rejected_after_built(case: TargetCase) -> None:
    """Every target the rules flag was rejected by TVM 0.27; every one the fix wrote was built,
    with the value the fix wrote."""
    record = next(r for r in _golden()[1] if r["id"] == case.id)
    assert record["tvm_before"]["built"] is False
    if case.after is None:
        return
    assert record["tvm_after"]["built"] is True
    written = ast.literal_eval(case.after)
    written = json.loads(written) if isinstance(written, str) else written
    exported = record["tvm_after"]["export"]
    for level in (written, written.get("host")):
        if isinstance(level, dict):
            built = exported if level is written else exported["host"]
            for name, value in level.items():
                if name != "host":
                    assert built[name] == value, (case.id, name)


_TYPE_MESSAGE = re.compile(r"Option '([\w-]+)': expected type")


@pytest.mark.parametrize("case", [c for c in TARGET_CASES if c.rule == "target-attr-type"], ids=lambda c: c.id)
def test_golden_type_messages_name_the_attribute(case: TargetCase) -> None:
    record = next(r for r in _golden()[1] if r["id"] == case.id)
    found = _TYPE_MESSAGE.search(record["tvm_before"]["message"])
    assert found is not None
    (finding,) = fix_source(f"import tvm\ntvm.target.Target({case.before})\n").findings
    assert repr(found[1]) in finding.message


@pytest.mark.parametrize("case", EXPRESSION_CASES, ids=[c.id for c in EXPRESSION_CASES])
def test_golden_str_tests_misread_and_fixed(case: ExpressionCase) -> None:
    record = next(r for r in _golden()[1] if r["id"] == case.id)
    assert record["tvm_before"] is (not case.legacy)  # silently the other answer on 0.27
    assert record["tvm_after"] is case.legacy


def test_live_tvm_027_agrees_with_the_golden() -> None:
    tvm = pytest.importorskip("tvm")
    if not tvm.__version__.startswith("0.27"):
        pytest.skip(f"apache-tvm {tvm.__version__}, not 0.27")
    from .fixproof.record_modern027 import records

    def verdict(result: Any) -> Any:
        return result if not isinstance(result, dict) else (result["built"], result.get("message"))

    live = [(r["id"], verdict(r["tvm_before"]), verdict(r["tvm_after"])) for r in records()]
    recorded = [(r["id"], verdict(r["tvm_before"]), verdict(r["tvm_after"])) for r in _golden()[1]]
    assert live == recorded
