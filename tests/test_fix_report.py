"""The output formats of ``targetlang fix`` (github, SARIF, JUnit, ``--statistics``), its exit
statuses, and ``targetlang rule`` with the rule files it prints (the same text as docs/fix.md's).
Each test runs in an empty directory of its own; the expected outputs are written by hand."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema  # type: ignore[import-untyped]
import pytest

from targetlang.fix import RULES, Finding
from targetlang.fix._report import Span, escape_data, escape_property, github, sarif, span, statistics
from targetlang.fix._rule_docs import rule_doc, rule_doc_ids, synced_page

from . import rule_docs
from .conftest import Run

SCHEMA = Path(__file__).resolve().parent / "data" / "sarif-schema-2.1.0.json"

BUILD = (
    "import tvm\n"
    "\n"
    "\n"
    "def build(mod, target=None):\n"
    '    target = target or tvm.target.Target("cuda -arch=sm_80")\n'
    '    print("building for", target.arch)\n'
    "    return tvm.compile(mod, target=target)\n"
)
RUN_SH = 'tvmc compile --target "llvm -mcpu=skylake" --output model.tar model.onnx\n'
CLEAN = 'TARGET = {"kind": "llvm", "mcpu": "skylake"}\n'
ARCH = (
    "Target.arch: on TVM >= 0.25 it reads the attribute, and raises AttributeError where the target has none; "
    "v0.23's property: '' when absent (only cuda has arch) (the receiver is taken for a Target by its name)"
)
SHELL = "legacy target string (write the JSON; TVM >= 0.24 reads no other form)"
WRITE_SH = '  write: --target \'{"kind": "llvm", "mcpu": "skylake"}\''


@pytest.fixture(autouse=True)
def _in_empty_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def tree() -> None:
    """A sample tree: a safe and an unsafe finding in Python, a report-only one in shell, a clean file."""
    Path("src").mkdir()
    Path("src/build.py").write_text(BUILD, encoding="utf-8")
    Path("run.sh").write_text(RUN_SH, encoding="utf-8")
    Path("src/ok.py").write_text(CLEAN, encoding="utf-8")


def finding(**fields: object) -> Finding:
    values: dict[str, object] = {
        "path": "a.py",
        "line": 1,
        "column": 1,
        "rule": "target-string",
        "message": "legacy target string",
        "before": '"llvm"',
        "after": None,
        "safety": "safe",
    }
    values.update(fields)
    return Finding(**values)  # type: ignore[arg-type]


# ------------------------------------------------------------------ spans


@pytest.mark.parametrize(
    ("line", "column", "before", "expected"),
    [
        (2, 23, '"llvm -mcpu=skylake"', Span(2, 23, 2, 43)),
        (1, 1, "x", Span(1, 1, 1, 2)),
        (4, 9, '"""llvm\n-mcpu=a\n"""', Span(4, 9, 6, 4)),
        (3, 5, "Target(\n    'cuda')", Span(3, 5, 4, 12)),
    ],
    ids=["one line", "one character", "a string of three lines", "a call over two lines"],
)
def test_the_span_of_a_finding_ends_just_past_its_text(line: int, column: int, before: str, expected: Span) -> None:
    assert span(finding(line=line, column=column, before=before)) == expected


# ------------------------------------------------------------------ github


def parse_workflow_command(line: str) -> tuple[str, dict[str, str], str]:
    """A workflow command read back as GitHub's runner reads it: ``::name k=v,k=v::message``,
    the properties split at ``,`` and ``=``, then each value and the message unescaped."""
    match = re.fullmatch(r"::(\w+)(?: ([^:]*))?::(.*)", line)
    assert match is not None, line
    name, fields, data = match.groups()
    properties = {}
    for field in (fields or "").split(","):
        key, value = field.split("=", 1)
        properties[key] = _unescape(value, property_value=True)
    return name, properties, _unescape(data, property_value=False)


def _unescape(text: str, *, property_value: bool) -> str:
    pairs = [("%0D", "\r"), ("%0A", "\n")] + ([("%3A", ":"), ("%2C", ",")] if property_value else [])
    for escaped, plain in pairs:
        text = text.replace(escaped, plain)
    return text.replace("%25", "%")  # last: '%253A' is '%3A' as written, not ':'


@pytest.mark.parametrize(
    ("text", "as_data", "as_property"),
    [
        ("plain", "plain", "plain"),
        ("100% sure", "100%25 sure", "100%25 sure"),
        ("a: b, c", "a: b, c", "a%3A b%2C c"),
        ("one\ntwo\r\nthree", "one%0Atwo%0D%0Athree", "one%0Atwo%0D%0Athree"),
        ("%3A is no colon", "%253A is no colon", "%253A is no colon"),
    ],
)
def test_github_escaping(text: str, as_data: str, as_property: str) -> None:
    assert (escape_data(text), escape_property(text)) == (as_data, as_property)


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("dir/a,b:c.py", "100% sure: a, b\nand a second line"),
        ("C:\\work\\x.py", "%0A stays as written, :: too"),
        ("a.py", "ends in a newline\n"),
    ],
)
def test_a_github_annotation_reads_back_as_written(path: str, message: str) -> None:
    found = finding(path=path, message=message, line=3, column=5, before='"llvm -mcpu=a"')
    [line] = github([found]).split("\n")[:-1]
    name, properties, data = parse_workflow_command(line)
    assert name == "error"
    assert properties == {
        "file": path,
        "line": "3",
        "col": "5",
        "endLine": "3",
        "endColumn": "19",
        "title": "targetlang (target-string)",
    }
    assert data == f"{path}:3:5: target-string [safe] {message}"


def test_github_annotations_of_a_tree(run: Run) -> None:
    tree()
    status, out, err = run("fix", "--output-format", "github", "src", "run.sh")
    assert status == 1
    lines = out.split("\n")
    assert lines[-1] == "" and len(lines) == 4
    assert [parse_workflow_command(line) for line in lines[:-1]] == [
        (
            "error",
            {
                "file": "src/build.py",
                "line": "5",
                "col": "42",
                "endLine": "5",
                "endColumn": "60",
                "title": "targetlang (target-string)",
            },
            "src/build.py:5:42: target-string [safe] legacy target string",
        ),
        (
            "error",
            {
                "file": "src/build.py",
                "line": "6",
                "col": "27",
                "endLine": "6",
                "endColumn": "38",
                "title": "targetlang (target-property)",
            },
            f'src/build.py:6:27: target-property [unsafe] {ARCH}\n  fix (unsafe): str(target.attrs.get("arch", ""))',
        ),
        (
            "warning",
            {
                "file": "run.sh",
                "line": "1",
                "col": "14",
                "endLine": "1",
                "endColumn": "43",
                "title": "targetlang (text-target)",
            },
            f"run.sh:1:14: text-target [report-only] {SHELL}\n{WRITE_SH}",
        ),
    ]
    assert err == "3 findings in 3 files, 1 fixable, 1 more with --unsafe-fixes, 1 to do by hand; 1 file would change\n"


def test_after_write_github_shows_only_the_findings_left(run: Run) -> None:
    tree()
    status, out, _ = run("fix", "--write", "--output-format", "github", "src", "run.sh")
    assert status == 1
    assert [parse_workflow_command(line)[1]["title"] for line in out.splitlines()] == [
        "targetlang (target-property)",
        "targetlang (text-target)",
    ]
    assert 'Target({"kind": "cuda", "arch": "sm_80"})' in Path("src/build.py").read_text()


def test_a_finding_in_a_notebook_cell_names_the_file_only() -> None:
    found = finding(path="tune.ipynb", cell=2, line=4, column=7)
    name, properties, data = parse_workflow_command(github([found]).rstrip("\n"))
    assert (name, properties) == ("error", {"file": "tune.ipynb", "title": "targetlang (target-string)"})
    assert data == "tune.ipynb:cell 2:4:7: target-string [safe] legacy target string"


# ------------------------------------------------------------------ sarif


def validate(log: object) -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft4Validator(schema).validate(log)


def test_the_sarif_log_of_a_tree_is_valid_sarif_2_1_0(run: Run) -> None:
    tree()
    status, out, _ = run("fix", "--output-format", "sarif", "src", "run.sh")
    assert status == 1
    log = json.loads(out)
    validate(log)
    [sarif_run] = log["runs"]
    driver = sarif_run["tool"]["driver"]
    assert (driver["name"], log["version"]) == ("targetlang", "2.1.0")
    assert [rule["id"] for rule in driver["rules"]] == list(RULES)
    assert driver["rules"][0]["shortDescription"]["text"] == RULES["target-string"].summary
    assert "helpUri" not in driver["rules"][0] and "informationUri" not in driver
    assert driver["rules"][0]["help"]["markdown"] == rule_doc("target-string")
    assert driver["rules"][0]["fullDescription"]["markdown"] == rule_doc("target-string")
    assert driver["rules"][0]["fullDescription"]["text"].startswith("A legacy target string (`kind -key=val ...`) ")
    results = sarif_run["results"]
    assert [(r["ruleId"], r["level"]) for r in results] == [
        ("target-string", "error"),
        ("target-property", "error"),
        ("text-target", "warning"),
    ]
    assert [r["locations"][0]["physicalLocation"] for r in results] == [
        {
            "artifactLocation": {"uri": "src/build.py"},
            "region": {"startLine": 5, "startColumn": 42, "endLine": 5, "endColumn": 60},
        },
        {
            "artifactLocation": {"uri": "src/build.py"},
            "region": {"startLine": 6, "startColumn": 27, "endLine": 6, "endColumn": 38},
        },
        {
            "artifactLocation": {"uri": "run.sh"},
            "region": {"startLine": 1, "startColumn": 14, "endLine": 1, "endColumn": 43},
        },
    ]
    # the safe finding is applied in the text and has no 'after' left to suggest; the others do
    assert "fixes" in results[1] and "fixes" in results[2]
    replacement = results[2]["fixes"][0]["artifactChanges"][0]["replacements"][0]
    assert replacement["insertedContent"]["text"] == '--target \'{"kind": "llvm", "mcpu": "skylake"}\''
    assert replacement["deletedRegion"] == {"startLine": 1, "startColumn": 14, "endLine": 1, "endColumn": 43}


@pytest.mark.parametrize(
    "found",
    [
        [],
        [finding(path="tune.ipynb", cell=3, line=2, column=1, after='{"kind": "llvm"}')],
        [finding(path="/abs/dir with space/a.py", after='{"kind": "llvm"}', safety="unsafe")],
        [finding(rule="no-such-rule", before='"a\nb"', safety="report-only")],
    ],
    ids=["no finding", "a notebook cell", "an absolute path", "a rule of no table, over two lines"],
)
def test_sarif_of_unusual_findings_is_valid(found: list[Finding]) -> None:
    log = json.loads(sarif(found))
    validate(log)
    results = log["runs"][0]["results"]
    assert len(results) == len(found)
    if found and found[0].cell is not None:
        assert "region" not in results[0]["locations"][0]["physicalLocation"]
        assert results[0]["message"]["text"] == "cell 3, line 2: legacy target string"
    if found and found[0].path.startswith("/"):
        assert results[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == (
            "file:///abs/dir%20with%20space/a.py"
        )


def test_the_sarif_schema_rejects_what_is_not_sarif() -> None:
    # the check can fail: a result without its message is no SARIF
    log = json.loads(sarif([finding()]))
    del log["runs"][0]["results"][0]["message"]
    with pytest.raises(jsonschema.ValidationError):
        validate(log)


# ------------------------------------------------------------------ junit


def test_junit_has_a_case_per_file_and_a_failure_per_finding(run: Run) -> None:
    tree()
    status, out, _ = run("fix", "--output-format", "junit", "src", "run.sh")
    assert status == 1
    assert out.startswith('<?xml version="1.0" encoding="UTF-8"?>\n')
    root = ET.fromstring(out.split("\n", 1)[1])
    [suite] = root.findall("testsuite")
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("3", "2", "0")
    cases = {case.get("name"): case.findall("failure") for case in suite.findall("testcase")}
    assert list(cases) == ["src/build.py", "src/ok.py", "run.sh"]
    assert [f.get("type") for f in cases["src/build.py"]] == ["target-string", "target-property"]
    assert cases["src/ok.py"] == []
    [shell] = cases["run.sh"]
    assert shell.get("message") == SHELL
    assert shell.text == f"run.sh:1:14: text-target [report-only] {SHELL}\n{WRITE_SH}"


def test_junit_carries_a_file_name_xml_has_no_character_for(run: Run) -> None:
    Path("a\x01b.py").write_text('Target("llvm -mcpu=a")\n', encoding="utf-8")
    status, out, _ = run("fix", "--output-format", "junit", "a\x01b.py")
    assert status == 1
    suite = ET.fromstring(out.split("\n", 1)[1]).find("testsuite")
    assert suite is not None
    assert [case.get("name") for case in suite.findall("testcase")] == ["a\\x01b.py"]


@pytest.mark.parametrize(
    ("stdin", "name", "reason"),
    [
        (b"def f(:\n", "x.py", "x.py:1: cannot parse Python: invalid syntax (line 1, column 7)"),
        (b"\xff\n", "x.py", "x.py is not UTF-8 text (invalid start byte at byte 0)"),
    ],
)
def test_standard_input_that_cannot_be_read_is_an_error_in_the_report(
    run: Run, stdin: bytes, name: str, reason: str
) -> None:
    status, out, err = run("fix", "--output-format", "junit", "--stdin-filename", name, "-", stdin=stdin)
    assert (status, err) == (2, f"error: {reason}\n")
    suite = ET.fromstring(out.split("\n", 1)[1]).find("testsuite")
    assert suite is not None
    assert [(e.tag, e.get("message")) for case in suite for e in case] == [("error", reason)]
    status, out, _ = run("fix", "--output-format", "sarif", "--stdin-filename", name, "-", stdin=stdin)
    [invocation] = json.loads(out)["runs"][0]["invocations"]
    assert invocation["executionSuccessful"] is False
    assert [n["message"]["text"] for n in invocation["toolExecutionNotifications"]] == [reason]


def test_a_file_that_does_not_parse_is_an_error_in_each_format(run: Run) -> None:
    tree()
    Path("bad.py").write_text("def f(:\n", encoding="utf-8")
    reason = "bad.py:1: cannot parse Python: invalid syntax (line 1, column 7)"
    status, out, _ = run("fix", "--output-format", "junit", "bad.py", "run.sh")
    assert status == 2
    suite = ET.fromstring(out.split("\n", 1)[1]).find("testsuite")
    assert suite is not None
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("2", "1", "1")
    [case] = [case for case in suite.findall("testcase") if case.get("name") == "bad.py"]
    assert [(e.tag, e.get("message")) for e in case] == [("error", reason)]
    status, out, _ = run("fix", "--output-format", "github", "bad.py")
    assert status == 2
    assert parse_workflow_command(out.rstrip("\n")) == (
        "error",
        {"file": "bad.py", "title": "targetlang (error)"},
        reason,
    )
    status, out, _ = run("fix", "--output-format", "sarif", "bad.py", "run.sh")
    assert status == 2
    log = json.loads(out)
    validate(log)
    [invocation] = log["runs"][0]["invocations"]
    assert invocation["executionSuccessful"] is False
    [note] = invocation["toolExecutionNotifications"]
    assert (note["level"], note["message"]["text"]) == ("error", reason)
    assert [r["ruleId"] for r in log["runs"][0]["results"]] == ["text-target"]


# ------------------------------------------------------------------ --statistics and json


def test_statistics_of_a_tree(run: Run) -> None:
    tree()
    Path("more.py").write_text('a = Target("llvm -mcpu=a")\nb = Target("llvm -mcpu=b")\n', encoding="utf-8")
    status, out, err = run("fix", "--statistics", ".")
    assert status == 1
    assert out == (
        "3\ttarget-string  \t[*] a legacy target string, rewritten to a dict literal (safe where every use of it "
        "is a target position)\n"
        "1\ttarget-property\t[ ] a Target property TVM 0.24 removed (t.arch, t.model, ...), rewritten to what it read\n"
        "1\ttext-target    \t[ ] a legacy target in a shell script, document or configuration file\n"
    )
    assert (
        err == "5 findings in 4 files, 3 fixable, 1 more with --unsafe-fixes, 1 to do by hand; 2 files would change\n"
    )


@pytest.mark.parametrize(
    ("findings", "expected"),
    [
        ([], ""),
        (
            [finding(rule="text-target", safety="report-only")] * 10 + [finding(applied=True)],
            "10\ttext-target  \t[ ] a legacy target in a shell script, document or configuration file\n"
            " 1\ttarget-string\t[*] a legacy target string, rewritten to a dict literal (safe where every use of it "
            "is a target position)\n",
        ),
        (
            [finding(rule="canon-target"), finding(rule="canon-target", applied=True)],
            "2\tcanon-target\t[*] Target.canon_target*() and tvm.target.create(), rewritten to Target(...)\n",
        ),
    ],
    ids=["nothing", "counts of two widths", "one fix applied marks the rule"],
)
def test_statistics_layout(findings: list[Finding], expected: str) -> None:
    assert statistics(findings) == expected


def test_statistics_as_json(run: Run) -> None:
    tree()
    status, out, _ = run("fix", "--statistics", "--output-format", "json", "run.sh")
    assert status == 1
    assert json.loads(out) == [
        {
            "rule": "text-target",
            "summary": RULES["text-target"].summary,
            "count": 1,
            "fixable": False,
            "fixable_count": 0,
        }
    ]


def test_json_is_output_format_json(run: Run) -> None:
    tree()
    old = run("fix", "--json", "src", "run.sh")
    new = run("fix", "--output-format", "json", "src", "run.sh")
    assert old == new and old[0] == 1
    assert [f["rule"] for f in json.loads(old[1])] == ["target-string", "target-property", "text-target"]


# ------------------------------------------------------------------ exit statuses


def _bad_registry() -> list[str]:
    Path("m.py").write_text('t = Target("llvm -mcpu=a")\n', encoding="utf-8")
    Path("bad.json").write_text('{"kinds": {"npu": {"leaf": "false"}}}', encoding="utf-8")
    return ["--registry", "bad.json", "m.py"]


def _files(files: dict[str, bytes]) -> list[str]:
    for name, data in files.items():
        Path(name).write_bytes(data)
    return sorted(files)


LEGACY = b't = Target("cuda -arch=sm_80")\n'
FIXED = b't = Target({"kind": "cuda", "arch": "sm_80"})\n'


# (id, the arguments after 'fix' (a function makes the files and gives them), the status)
STATUSES = [
    ("a clean file", lambda: _files({"a.py": CLEAN.encode()}), 0),
    ("a finding", lambda: _files({"a.py": LEGACY}), 1),
    ("--check with a finding", lambda: ["--check", *_files({"a.py": LEGACY})], 1),
    ("--write fixes every finding", lambda: ["--write", *_files({"a.py": LEGACY})], 0),
    ("--write leaves a report-only one", lambda: ["--write", *_files({"a.py": LEGACY, "r.sh": RUN_SH.encode()})], 1),
    ("--output-format sarif with a finding", lambda: ["--output-format", "sarif", *_files({"a.py": LEGACY})], 1),
    ("--statistics of a clean file", lambda: ["--statistics", *_files({"a.py": CLEAN.encode()})], 0),
    ("an unknown rule", lambda: ["--select", "no-such-rule", *_files({"a.py": LEGACY})], 2),
    ("a missing path", lambda: ["missing.py"], 2),
    ("Python that does not parse", lambda: _files({"a.py": LEGACY, "bad.py": b"def f(:\n"}), 2),
    ("a file that is not UTF-8", lambda: _files({"a.py": LEGACY, "bad.py": b"x = '\xff'\n"}), 2),
    ("a bad --registry file", _bad_registry, 2),
    ("an unknown output format", lambda: ["--output-format", "xml", *_files({"a.py": LEGACY})], 2),
]


@pytest.mark.parametrize(("make", "status"), [c[1:] for c in STATUSES], ids=[c[0] for c in STATUSES])
def test_exit_status(run: Run, make: object, status: int) -> None:
    assert callable(make)
    assert run("fix", *make())[0] == status


def test_a_file_that_does_not_parse_is_status_2_and_the_others_are_written(run: Run) -> None:
    _files({"a.py": LEGACY, "bad.py": b"def f(:\n", "c.py": LEGACY})
    status, out, err = run("fix", "--write", "-j", "1", ".")
    assert (status, out) == (2, "")
    assert err.startswith("error: bad.py:1: cannot parse Python: ")
    assert [Path(name).read_bytes() for name in ("a.py", "bad.py", "c.py")] == [FIXED, b"def f(:\n", FIXED]


def test_standard_input_that_does_not_parse_is_status_2(run: Run) -> None:
    assert run("fix", "--output-format", "github", "-", stdin=b"def f(:\n")[0] == 2


def test_the_help_has_the_table_of_exit_statuses(run: Run) -> None:
    status, out, _ = run("fix", "--help")
    assert status == 0
    table = out.split("Exit status:\n", 1)[1]
    assert [line.split()[0] for line in table.splitlines() if re.match(r"  \d  ", line)] == ["0", "1", "2"]
    assert "a file that cannot be read,\n     decoded, parsed or written" in table


# ------------------------------------------------------------------ targetlang rule


@pytest.mark.parametrize("rule", list(RULES))
def test_rule_prints_the_rule_s_file(run: Run, rule: str) -> None:
    text = rule_doc(rule)
    assert text is not None, f"targetlang/data/rules/{rule}.md is missing"
    assert text.startswith(f"## {rule}\n\n") and text.endswith("\n") and not text.endswith("\n\n")
    assert run("rule", rule) == (0, text, "")


def test_rule_all_prints_every_rule_in_order(run: Run) -> None:
    status, out, err = run("rule", "--all")
    assert (status, err) == (0, "")
    assert re.findall(r"^## (\S+)$", out, re.MULTILINE)[: len(RULES)] == list(RULES)


def test_rule_as_json(run: Run) -> None:
    status, out, _ = run("rule", "--output-format", "json", "canon-target")
    assert status == 0
    record = json.loads(out)
    assert (record["id"], record["safety"], record["summary"]) == (
        "canon-target",
        "safe",
        "Target.canon_target*() and tvm.target.create(), rewritten to Target(...)",
    )
    assert record["explanation"].startswith("## canon-target\n\n`tvm.target.create(x)` is `Target(x)`: **safe**.")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["no-such-rule"], "error: unknown rule 'no-such-rule'; the rules are: "),
        (["../../__init__"], "error: unknown rule '../../__init__'; the rules are: "),
        ([], "targetlang rule: error: one of the arguments RULE-ID --all is required"),
        (["--all", "canon-target"], "targetlang rule: error: argument RULE-ID: not allowed with argument --all"),
    ],
    ids=["unknown", "a path", "none", "both"],
)
def test_rule_usage_errors(run: Run, argv: list[str], message: str) -> None:
    status, out, err = run("rule", *argv)
    assert (status, out) == (2, "")
    assert message in err
    if "unknown rule" in message:
        assert err.rstrip("\n").endswith(", ".join(RULES))


def test_rule_works_without_libcst() -> None:
    script = (
        "import sys\n"
        "sys.modules['libcst'] = None  # import libcst raises ImportError\n"
        "from targetlang._cli import main\n"
        "sys.exit(main(['rule', 'target-string']))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == rule_doc("target-string")


# ------------------------------------------------------------------ the rule files and docs/fix.md


def test_every_rule_has_its_file() -> None:
    missing = [rule for rule in RULES if rule not in rule_doc_ids()]
    assert not missing, f"no targetlang/data/rules/<id>.md for {missing}"


def test_docs_fix_md_holds_the_rule_files() -> None:
    assert rule_docs.PAGE.read_text(encoding="utf-8") == rule_docs.synced(), (
        "docs/fix.md differs from targetlang/data/rules/: run python tests/rule_docs.py --write"
    )


def test_the_rule_files_are_the_sections_docs_fix_md_shows() -> None:
    page = rule_docs.PAGE.read_text(encoding="utf-8")
    for rule in rule_doc_ids():
        text = rule_doc(rule)
        assert f"<!-- begin rule {rule} -->\n{text}<!-- end rule {rule} -->\n" in page, rule


PAGE = "intro\n\n<!-- begin rule a -->\n## a\nold\n<!-- end rule a -->\n\n## Other\n"


@pytest.mark.parametrize(
    ("docs", "order", "expected"),
    [
        ({"a": "## a\nold\n"}, ["a"], PAGE),
        ({"a": "## a\nnew\n"}, ["a"], PAGE.replace("old", "new")),
        (
            {"a": "## a\nold\n", "b": "## b\nB\n"},
            ["a", "b"],
            PAGE.replace("end rule a -->\n", "end rule a -->\n\n<!-- begin rule b -->\n## b\nB\n<!-- end rule b -->\n"),
        ),
        (
            {"a": "## a\nold\n", "z": "## z\nZ\n"},
            ["z", "a"],
            PAGE.replace(
                "<!-- begin rule a", "<!-- begin rule z -->\n## z\nZ\n<!-- end rule z -->\n\n<!-- begin rule a"
            ),
        ),
        ({"q": "## q\n"}, [], PAGE + "\n<!-- begin rule q -->\n## q\n<!-- end rule q -->\n"),
    ],
    ids=["the same", "changed", "a new rule after the one before it", "a new rule before the first", "no markers"],
)
def test_synced_page(docs: dict[str, str], order: list[str], expected: str) -> None:
    assert synced_page(PAGE, docs, order) == expected


def test_the_rule_files_ship_in_the_package() -> None:
    import targetlang

    folder = Path(targetlang.__file__).parent / "data" / "rules"
    assert sorted(path.stem for path in folder.glob("*.md")) == rule_doc_ids()
    assert os.path.isfile(folder / "target-string.md")
