"""The ``targetlang fix`` command: modes, files and what is written to them, standard input,
directory walks, errors, processes, registries. Each test runs in an empty directory of its own
(paths are relative, so the output is exact)."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import targetlang._cli.fix_files as command
import targetlang.fix
from targetlang.fix import FixResult

from .conftest import Run
from .newest import NEWEST

LEGACY = 't = tvm.target.Target("cuda -arch=sm_80")\n'
FIXED = 't = tvm.target.Target({"kind": "cuda", "arch": "sm_80"})\n'
REPORT_SH = (
    "{path}:1:14: text-target [report-only] legacy target string (write the JSON; TVM >= 0.24 reads no other form)\n"
    '  write: --target \'{{"kind": "llvm", "mcpu": "skylake"}}\'\n'
)
SH = 'tvmc compile --target "llvm -mcpu=skylake" m.onnx\n'
JSON_FIELDS = [
    "file",
    "line",
    "column",
    "rule",
    "safety",
    "message",
    "before",
    "after",
    "applied",
    "migration_rules",
    "reason",
    "uses",
]


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def write(files: dict[str, str | bytes]) -> None:
    for name, content in files.items():
        path = Path(name)
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_bytes(content.encode("utf-8"))


# ------------------------------------------------------------------ the default mode: a diff


# (id, files, argv after "fix", status, stdout, stderr)
DIFF_CASES: list[tuple[str, dict[str, str | bytes], list[str], int, str, str]] = [
    (
        "one change",
        {"m.py": "import tvm\n" + LEGACY},
        ["m.py"],
        1,
        "--- a/m.py\n+++ b/m.py\n@@ -1,2 +1,2 @@\n import tvm\n"
        '-t = tvm.target.Target("cuda -arch=sm_80")\n+t = tvm.target.Target({"kind": "cuda", "arch": "sm_80"})\n',
        "1 finding in 1 file, 1 fixable; 1 file would change\n",
    ),
    (
        "no newline at the end",
        {"m.py": LEGACY.rstrip("\n")},
        ["m.py"],
        1,
        "--- a/m.py\n+++ b/m.py\n@@ -1 +1 @@\n"
        '-t = tvm.target.Target("cuda -arch=sm_80")\n\\ No newline at end of file\n'
        '+t = tvm.target.Target({"kind": "cuda", "arch": "sm_80"})\n\\ No newline at end of file\n',
        "1 finding in 1 file, 1 fixable; 1 file would change\n",
    ),
    (
        "a clean tree",
        {"src/a.py": 'Target("cuda")\n', "src/b.sh": "tvmc compile --target llvm m.onnx\n", "README.md": "# x\n"},
        ["."],
        0,
        "",
        "0 findings in 3 files, 0 fixable; 0 files would change\n",
    ),
    (
        "files below '.' are shown without './'",
        {"src/m.py": LEGACY},
        ["."],
        1,
        "--- a/src/m.py\n+++ b/src/m.py\n@@ -1 +1 @@\n" + "-" + LEGACY + "+" + FIXED,
        "1 finding in 1 file, 1 fixable; 1 file would change\n",
    ),
    (
        "--tvm-version reads with that release's own kinds",
        {"m.py": 'Target("llvm -vector-width=256")\n'},
        ["--tvm-version", "0.19", "m.py"],
        1,
        "",
        "m.py:1:8: target-string [report-only] cannot read the target: kind 'llvm' has no attribute"
        " 'vector-width' until TVM v0.20 added it\n"
        "1 finding in 1 file, 0 fixable, 1 to do by hand; 0 files would change\n",
    ),
    (
        "--tvm-version of a release that had the attribute",
        {"m.py": 'Target("llvm -vector-width=256")\n'},
        ["--tvm-version", "0.20.0", "m.py"],
        1,
        '--- a/m.py\n+++ b/m.py\n@@ -1 +1 @@\n-Target("llvm -vector-width=256")\n'
        '+Target({"kind": "llvm", "vector-width": 256})\n',
        "1 finding in 1 file, 1 fixable; 1 file would change\n",
    ),
    (
        "an unsafe fix is shown, not applied",
        {"m.py": 'expected = "llvm -mcpu=skylake"\n'},
        ["m.py"],
        1,
        "",
        "m.py:1:12: target-string [unsafe] legacy target string; not safe: at line 1, the module-level name "
        "expected, which other modules may import\n"
        '  fix (unsafe): {"kind": "llvm", "mcpu": "skylake"}\n'
        "1 finding in 1 file, 0 fixable, 1 more with --unsafe-fixes; 0 files would change\n",
    ),
    (
        "--unsafe-fixes in the diff",
        {"m.py": 'expected = "llvm -mcpu=skylake"\n'},
        ["--unsafe-fixes", "m.py"],
        1,
        '--- a/m.py\n+++ b/m.py\n@@ -1 +1 @@\n-expected = "llvm -mcpu=skylake"\n'
        '+expected = {"kind": "llvm", "mcpu": "skylake"}\n',
        "1 finding in 1 file, 1 fixable; 1 file would change\n",
    ),
    (
        "a fix of two statements is shown on two indented lines",
        {"m.py": "target, host = Target.canon_target_and_host(target, host)\n"},
        ["m.py"],
        1,
        "",
        "m.py:1:16: canon-target [unsafe] canon_target_and_host(t, h) is (Target(t, host=h), its host), unless t is "
        "None\n  fix (unsafe): target = Target(target, host=host)\n    host = target.host\n"
        "1 finding in 1 file, 0 fixable, 1 more with --unsafe-fixes; 0 files would change\n",
    ),
    (
        "--quiet prints the diff only",
        {"m.py": LEGACY, "run.sh": SH},
        ["-q", "m.py", "run.sh"],
        1,
        "--- a/m.py\n+++ b/m.py\n@@ -1 +1 @@\n" + "-" + LEGACY + "+" + FIXED,
        "",
    ),
]


@pytest.mark.parametrize(
    ("files", "argv", "status", "out", "err"), [c[1:] for c in DIFF_CASES], ids=[c[0] for c in DIFF_CASES]
)
def test_default_mode_prints_a_diff(
    run: Run, files: dict[str, str | bytes], argv: list[str], status: int, out: str, err: str
) -> None:
    write(files)
    before = {name: Path(name).read_bytes() for name in files}
    assert run("fix", *argv) == (status, out, err)
    assert {name: Path(name).read_bytes() for name in files} == before  # nothing written


# ------------------------------------------------------------------ --write: what is written


# (id, bytes before, bytes after --write)
WRITE_CASES: list[tuple[str, bytes, bytes]] = [
    ("plain", LEGACY.encode(), FIXED.encode()),
    (
        "CRLF line endings kept",
        b'import tvm\r\n\r\nt = tvm.target.Target("cuda -arch=sm_80")\r\nx = 1\r\n',
        b'import tvm\r\n\r\nt = tvm.target.Target({"kind": "cuda", "arch": "sm_80"})\r\nx = 1\r\n',
    ),
    (
        "non-ASCII comments kept, no BOM added",
        "# Zielplattform: Jetson Orin → GPU für das Modell, 模型\n".encode()
        + LEGACY.encode()
        + "s = 'naïve ✓'\n".encode(),
        "# Zielplattform: Jetson Orin → GPU für das Modell, 模型\n".encode()
        + FIXED.encode()
        + "s = 'naïve ✓'\n".encode(),
    ),
    ("a byte order mark kept", b"\xef\xbb\xbf" + LEGACY.encode(), b"\xef\xbb\xbf" + FIXED.encode()),
    (
        "tabs, comments and the other quotes kept",
        b"if True:\n\tt = Target('llvm -mcpu=skylake')  # the build host\n",
        b"if True:\n\tt = Target({'kind': 'llvm', 'mcpu': 'skylake'})  # the build host\n",
    ),
]


@pytest.mark.parametrize(("before", "after"), [c[1:] for c in WRITE_CASES], ids=[c[0] for c in WRITE_CASES])
def test_write_changes_only_the_targets(run: Run, before: bytes, after: bytes) -> None:
    path = Path("m.py")
    path.write_bytes(before)
    path.chmod(0o754)
    status, out, err = run("fix", "--write", "m.py")
    assert (status, out) == (0, "")
    assert err == "1 finding in 1 file, 1 fixed; 1 file changed\n"
    assert path.read_bytes() == after
    assert stat.S_IMODE(path.stat().st_mode) == 0o754
    assert run("fix", "m.py") == (0, "", "0 findings in 1 file, 0 fixable; 0 files would change\n")


def test_write_leaves_unchanged_files_alone(run: Run) -> None:
    write({"a.py": LEGACY, "b.py": 'Target("cuda")\n', "c.sh": SH})
    past = 1_500_000_000_000_000_000
    for name in ("b.py", "c.sh"):
        os.utime(name, ns=(past, past))
    status, out, err = run("fix", "--write", ".")
    assert (status, out) == (1, "")  # the shell script's target is left to do by hand
    assert err == REPORT_SH.format(path="c.sh") + ("2 findings in 3 files, 1 fixed, 1 to do by hand; 1 file changed\n")
    assert Path("a.py").read_text() == FIXED
    for name in ("b.py", "c.sh"):
        assert os.stat(name).st_mtime_ns == past


def test_write_refuses_a_file_that_changed_meanwhile(run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    write({"a.py": LEGACY, "b.py": LEGACY})
    original = command.fix_file

    def fix_then_edit(path: str, job: command.Job) -> command.Outcome:
        outcome = original(path, job)
        if path == "a.py":
            with open(path, "a", encoding="utf-8") as handle:
                handle.write("x = 1\n")  # an editor saved the file meanwhile
        return outcome

    monkeypatch.setattr(command, "fix_file", fix_then_edit)
    status, out, err = run("fix", "--write", "-j", "1", "a.py", "b.py")
    assert (status, out) == (2, "")
    assert err == (
        "error: a.py changed while it was being fixed; not written (run again)\n"
        "2 findings in 2 files, 2 fixed; 2 files changed\n"
    )
    assert Path("a.py").read_text() == LEGACY + "x = 1\n"
    assert Path("b.py").read_text() == FIXED


# ------------------------------------------------------------------ --check and --json


def test_check_prints_findings_and_the_summary_only(run: Run) -> None:
    write({"m.py": LEGACY, "run.sh": SH})
    status, out, err = run("fix", "--check", ".")
    assert status == 1
    assert out == "m.py:1:23: target-string [safe] legacy target string\n" + REPORT_SH.format(path="run.sh")
    assert err == "2 findings in 2 files, 1 fixable, 1 to do by hand; 1 file would change\n"
    assert Path("m.py").read_text() == LEGACY
    assert run("fix", "--check", "-q", ".") == (1, "", "")
    Path("m.py").write_text(FIXED)
    Path("run.sh").write_text("tvmc compile --target llvm m.onnx\n")
    assert run("fix", "--check", ".") == (0, "", "0 findings in 2 files, 0 fixable; 0 files would change\n")


def test_json_lists_every_finding_with_the_documented_fields(run: Run) -> None:
    write({"m.py": LEGACY + 'Target("llvm -system-lib")\n', "run.sh": SH})
    status, out, err = run("fix", "--json", ".")
    assert status == 1
    assert err == "3 findings in 2 files, 1 fixable, 2 to do by hand; 1 file would change\n"
    findings = json.loads(out)
    assert isinstance(findings, list) and len(findings) == 3
    for finding in findings:
        assert list(finding) == JSON_FIELDS
    assert findings[0] == {
        "file": "m.py",
        "line": 1,
        "column": 23,
        "rule": "target-string",
        "safety": "safe",
        "message": "legacy target string",
        "before": '"cuda -arch=sm_80"',
        "after": '{"kind": "cuda", "arch": "sm_80"}',
        "applied": True,
        "migration_rules": [],
        "reason": None,
        "uses": [{"line": 1, "column": 23, "kind": "target", "what": "the target of tvm.target.Target()"}],
    }
    assert (findings[1]["rule"], findings[1]["after"], findings[1]["migration_rules"]) == (
        "target-string",
        None,
        ["removed-attribute"],
    )
    assert (findings[2]["file"], findings[2]["rule"], findings[2]["applied"]) == ("run.sh", "text-target", False)
    assert Path("m.py").read_text() == LEGACY + 'Target("llvm -system-lib")\n'
    status, out, err = run("fix", "--json", "--write", "-q", "m.py")
    assert (status, err) == (1, "")
    assert [f["applied"] for f in json.loads(out)] == [True, False]
    assert Path("m.py").read_text() == FIXED + 'Target("llvm -system-lib")\n'


# ------------------------------------------------------------------ rules and usage errors


# (id, argv after "fix", words of the error)
USAGE_CASES: list[tuple[str, list[str], str]] = [
    ("unknown rule to --select", ["--select", "nope", "m.py"], "argument --select: unknown rule 'nope' (the rules: "),
    ("unknown rule among others", ["--ignore", "target-string,nope", "m.py"], "argument --ignore: unknown rule 'nope'"),
    ("--write with --check", ["--write", "--check", "m.py"], "argument --check: not allowed with argument --write"),
    ("no path", [], "the following arguments are required: PATH"),
    ("a bad --jobs", ["-j", "two", "m.py"], "argument -j/--jobs: not a number of processes: 'two'"),
    ("no process", ["-j", "0", "m.py"], "argument -j/--jobs: at least one process: 0"),
    (
        "an unknown --tvm-version",
        ["--tvm-version", "0.99", "m.py"],
        "argument --tvm-version: unknown TVM version '0.99'",
    ),
    (
        "a release of another era",
        ["--tvm-version", "0.8", "m.py"],
        "argument --tvm-version: fix reads targets as TVM v0.10",
    ),
    (
        "a --target-version that read legacy strings",
        ["--target-version", "0.23", "m.py"],
        "argument --target-version: invalid choice: '0.23'",
    ),
    (
        "a --target-api without its argument",
        ["--target-api", "mylib.build", "m.py"],
        "argument --target-api: --target-api takes QUALNAME:ARG",
    ),
]


@pytest.mark.parametrize(("argv", "words"), [c[1:] for c in USAGE_CASES], ids=[c[0] for c in USAGE_CASES])
def test_usage_errors(run: Run, argv: list[str], words: str) -> None:
    write({"m.py": LEGACY})
    status, out, err = run("fix", *argv)
    assert (status, out) == (2, "")
    assert err.startswith("usage: targetlang fix ") and f"targetlang fix: error: {words}" in err
    assert "Traceback" not in err
    assert Path("m.py").read_text() == LEGACY


# (id, argv after "fix", the error)
PATH_ERRORS: list[tuple[str, list[str], str]] = [
    ("a missing path", ["m.py", "missing.py"], "error: no such file or directory: missing.py\n"),
    ("'-' among paths", ["-", "m.py"], "error: '-' (standard input) cannot be mixed with paths\n"),
]


@pytest.mark.parametrize(("argv", "err"), [c[1:] for c in PATH_ERRORS], ids=[c[0] for c in PATH_ERRORS])
def test_path_errors(run: Run, argv: list[str], err: str) -> None:
    write({"m.py": LEGACY})
    assert run("fix", *argv) == (2, "", err)


# (id, argv after "fix", the rules found)
SELECT_CASES: list[tuple[str, list[str], list[str]]] = [
    ("all", [], ["target-string", "target-helper", "target-property"]),
    ("--select one", ["--select", "target-helper"], ["target-helper"]),
    ("--select two", ["--select", "target-string, target-property"], ["target-string", "target-property"]),
    ("--ignore", ["--ignore", "target-helper"], ["target-string", "target-property"]),
    (
        "--select and --ignore",
        ["--select", "target-string,target-helper", "--ignore", "target-string"],
        ["target-helper"],
    ),
]


@pytest.mark.parametrize(("argv", "rules"), [c[1:] for c in SELECT_CASES], ids=[c[0] for c in SELECT_CASES])
def test_select_and_ignore(run: Run, argv: list[str], rules: list[str]) -> None:
    write({"m.py": 'import tvm\na = Target("llvm -mcpu=a")\nb = tvm.target.cuda()\nc = Target("cuda")\nc.arch\n'})
    status, out, _ = run("fix", "--json", *argv, "m.py")
    assert status == 1
    assert [finding["rule"] for finding in json.loads(out)] == rules


# ------------------------------------------------------------------ standard input


# (id, argv after "fix", stdin, status, stdout, stderr)
STDIN_CASES: list[tuple[str, list[str], bytes, int, str, str]] = [
    (
        "Python by default: the fixed text",
        ["-"],
        LEGACY.encode(),
        0,
        FIXED,
        "1 finding in 1 file, 1 fixed; 1 file changed\n",
    ),
    (
        "--stdin-filename names a shell script: reported as text",
        ["--stdin-filename", "x.sh", "-"],
        SH.encode(),
        1,
        SH,
        REPORT_SH.format(path="x.sh") + "1 finding in 1 file, 0 fixed, 1 to do by hand; 0 files changed\n",
    ),
    (
        "--stdin-filename names Python",
        ["--stdin-filename", "src/m.py", "-"],
        b'expected = "llvm -mcpu=skylake"\n',
        1,
        'expected = "llvm -mcpu=skylake"\n',
        "src/m.py:1:12: target-string [unsafe] legacy target string; not safe: at line 1, the module-level name "
        "expected, which other modules may import\n"
        '  fix (unsafe): {"kind": "llvm", "mcpu": "skylake"}\n'
        "1 finding in 1 file, 0 fixed, 1 more with --unsafe-fixes; 0 files changed\n",
    ),
    (
        "--check: the findings, and status 1 for what would change",
        ["--check", "-"],
        LEGACY.encode(),
        1,
        "<stdin>:1:23: target-string [safe] legacy target string\n",
        "1 finding in 1 file, 1 fixable; 1 file would change\n",
    ),
    (
        "--check on clean text",
        ["--check", "-"],
        b'Target("cuda")\n',
        0,
        "",
        "0 findings in 1 file, 0 fixable; 0 files would change\n",
    ),
    ("--quiet", ["-q", "-"], LEGACY.encode(), 0, FIXED, ""),
    ("a byte order mark kept", ["-q", "-"], b"\xef\xbb\xbf" + LEGACY.encode(), 0, "\ufeff" + FIXED, ""),
    (
        "not UTF-8",
        ["-"],
        b"x = '\xff'\n",
        2,
        "",
        "error: <stdin> is not UTF-8 text (invalid start byte at byte 5)\n",
    ),
]


@pytest.mark.parametrize(
    ("argv", "stdin", "status", "out", "err"), [c[1:] for c in STDIN_CASES], ids=[c[0] for c in STDIN_CASES]
)
def test_standard_input(run: Run, argv: list[str], stdin: bytes, status: int, out: str, err: str) -> None:
    assert run("fix", *argv, stdin=stdin) == (status, out, err)


def test_standard_input_as_json(run: Run) -> None:
    status, out, err = run("fix", "--json", "--stdin-filename", "x.sh", "-", stdin=b'tvmc --target "llvm -mcpu=a"\n')
    assert (status, err) == (1, "1 finding in 1 file, 0 fixable, 1 to do by hand; 0 files would change\n")
    [finding] = json.loads(out)
    assert list(finding) == JSON_FIELDS
    assert (finding["file"], finding["rule"], finding["line"], finding["column"]) == ("x.sh", "text-target", 1, 6)


def test_standard_input_that_does_not_parse(run: Run) -> None:
    status, out, err = run("fix", "-", stdin=b'x = 1\ndef f(:\n    Target("llvm -mcpu=a")\n')
    assert (status, out) == (2, "")
    assert err.startswith("error: <stdin>:2: cannot parse Python: ") and err.count("\n") == 1


# ------------------------------------------------------------------ walking a tree


# (directory, whether a walk skips it)
SKIPPED_DIRS: list[tuple[str, bool]] = [
    (".git", True),
    ("venv", True),
    (".venv", True),
    ("__pycache__", True),
    ("node_modules", True),
    (".tox", True),
    ("build", True),
    ("site-packages", True),
    (".github", False),
    ("docs", False),
    ("src/pkg", False),
]


@pytest.mark.parametrize(("directory", "skipped"), SKIPPED_DIRS, ids=[c[0] for c in SKIPPED_DIRS])
def test_walk_skips_environments_and_caches(run: Run, directory: str, skipped: bool) -> None:
    write({f"tree/{directory}/m.py": LEGACY})
    status, out, err = run("fix", "--check", "tree")
    if skipped:
        assert (status, out, err) == (0, "", "0 findings in 0 files, 0 fixable; 0 files would change\n")
    else:
        assert status == 1 and out == f"tree/{directory}/m.py:1:23: target-string [safe] legacy target string\n"
    # named on the command line, a file is read wherever it is
    assert run("fix", "--check", "-q", f"tree/{directory}/m.py")[0] == 1


@pytest.mark.skipif(sys.platform == "win32", reason="symbolic links")
def test_walk_follows_no_symbolic_link(run: Run) -> None:
    write({"outside/m.py": LEGACY, "outside/sub/n.py": LEGACY, "tree/own.py": LEGACY})
    os.symlink(os.path.abspath("outside/sub"), "tree/linked_dir")
    os.symlink(os.path.abspath("outside/m.py"), "tree/linked.py")
    status, out, err = run("fix", "--check", "tree")
    assert status == 1
    assert out == "tree/own.py:1:23: target-string [safe] legacy target string\n"
    assert err == "1 finding in 1 file, 1 fixable; 1 file would change\n"
    assert run("fix", "--write", "-q", "tree") == (0, "", "")
    assert Path("outside/m.py").read_text() == LEGACY and Path("outside/sub/n.py").read_text() == LEGACY


def test_walk_reads_only_the_suffixes_it_knows(run: Run) -> None:
    write(
        {
            "t/a.py": LEGACY,
            "t/b.pyi": LEGACY,
            "t/c.sh": SH,
            "t/Makefile": SH,
            "t/d.c": LEGACY,
            "t/E.PY": LEGACY,
        }
    )
    status, out, err = run("fix", "--check", "t")
    assert status == 1 and err == "4 findings in 4 files, 3 fixable, 1 to do by hand; 3 files would change\n"
    assert [line.split(":", 1)[0] for line in out.splitlines() if not line.startswith(" ")] == [
        "t/E.PY",
        "t/a.py",
        "t/b.pyi",
        "t/c.sh",
    ]


# ------------------------------------------------------------------ files that cannot be fixed


def test_a_file_that_is_not_utf8_is_an_error_and_the_rest_is_fixed(run: Run) -> None:
    write({"a.py": b"# caf\xe9\n" + LEGACY.encode(), "b.py": LEGACY})
    status, out, err = run("fix", "--write", ".")
    assert (status, out) == (2, "")
    assert err == (
        "error: a.py is not UTF-8 text (invalid continuation byte at byte 5); left alone\n"
        "1 finding in 2 files, 1 fixed; 1 file changed\n"
    )
    assert Path("a.py").read_bytes() == b"# caf\xe9\n" + LEGACY.encode()
    assert Path("b.py").read_text() == FIXED


@pytest.mark.parametrize(
    ("source", "line"),
    [
        ('x = 1\ndef f(:\n    Target("llvm -mcpu=a")\n', 2),
        ('Target("llvm -mcpu=a")\nprint "python 2"\n', 2),
        ('if True:\n\tTarget("llvm -mcpu=a")\n        x = 1\n', 3),
    ],
    ids=["syntax", "python 2", "tabs and spaces"],
)
def test_python_that_does_not_parse_is_an_error_on_one_line(run: Run, source: str, line: int) -> None:
    write({"a.py": LEGACY, "bad.py": source})
    status, out, err = run("fix", ".")
    assert status == 2
    assert out == "--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n" + "-" + LEGACY + "+" + FIXED
    first, summary = err.split("\n")[:2]
    assert first.startswith(f"error: bad.py:{line}: cannot parse Python: ")
    assert summary == "1 finding in 2 files, 1 fixable; 1 file would change"
    assert err.count("\n") == 2 and "Traceback" not in err


def test_a_bug_met_in_one_file_is_an_error_on_one_line(run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    write({"a.py": LEGACY, "b.py": LEGACY, "c.py": LEGACY})
    real = targetlang.fix.fix_source

    def fix_source(text: str, **options: Any) -> FixResult:
        if options["path"] == "b.py":
            raise RecursionError("maximum recursion depth exceeded\nmore")
        return real(text, **options)

    monkeypatch.setattr("targetlang._cli.fix_files.fix_source", fix_source)
    status, out, err = run("fix", "--write", "-j", "1", ".")
    assert (status, out) == (2, "")
    assert err == (
        "error: b.py: internal error (a bug in targetlang): RecursionError: maximum recursion depth exceeded\n"
        "2 findings in 3 files, 2 fixed; 2 files changed\n"
    )
    assert [Path(name).read_text() for name in ("a.py", "b.py", "c.py")] == [FIXED, LEGACY, FIXED]


# ------------------------------------------------------------------ processes


def test_jobs_do_not_change_the_output(run: Run) -> None:
    files: dict[str, str | bytes] = {}
    for i in range(24):
        body = f'import tvm\n\n\ndef f{i}():\n    return tvm.target.Target("llvm -mcpu=core{i} -num-cores={i + 1}")\n'
        if i % 5 == 0:
            body += "\n\ndef g(tgt):\n    return tgt.mcpu\n"  # an unsafe finding, shown on stderr
        files[f"pkg/sub{i % 3}/m{i:02}.py"] = body
    files["pkg/run.sh"] = SH
    write(files)
    serial = run("fix", "-j", "1", "pkg")
    parallel = run("fix", "-j", "2", "pkg")
    assert serial == parallel
    assert serial[0] == 1 and serial[1].count("\n--- a/pkg/") + serial[1].startswith("--- a/pkg/") == 24
    assert serial[2].endswith(
        "30 findings in 25 files, 24 fixable, 5 more with --unsafe-fixes, 1 to do by hand; 24 files would change\n"
    )
    assert run("fix", "--check", "-j", "1", "pkg") == run("fix", "--check", "-j", "3", "pkg")


# ------------------------------------------------------------------ --registry: a fork's own kinds


HIP_REGISTRY = """\
base = "0.22"

[kinds.hip]
attrs = { mcpu = "string", mtriple = "string" }
default_keys = ["rocm", "gpu"]
device_type = 10
"""
HIP_SOURCE = 'lib = tvm.compile(mod, "hip -mcpu=gfx900")\nt = Target("hip -mcpu=gfx906")\n'
HIP_FOUND = (
    f"m.py:1:24: target-string [safe] legacy target string; kind 'hip' is the registry's own (TVM {NEWEST} itself "
    "does not know it)\n"
    f"m.py:2:12: target-string [safe] legacy target string; kind 'hip' is the registry's own (TVM {NEWEST} itself "
    "does not know it)\n"
)


@pytest.mark.parametrize(
    "argv",
    [
        ["fix", "--check", "--registry", "hip.toml", "m.py"],
        ["--registry", "hip.toml", "fix", "--check", "m.py"],
        ["fix", "--registry", "hip.toml", "--check", "-j", "2", "m.py"],
    ],
    ids=["after fix", "before fix", "with jobs"],
)
def test_registry_adds_a_fork_s_kinds(run: Run, argv: list[str]) -> None:
    write({"hip.toml": HIP_REGISTRY, "m.py": HIP_SOURCE})
    assert run(*argv) == (1, HIP_FOUND, "2 findings in 1 file, 2 fixable; 1 file would change\n")


def test_registry_kinds_are_written_for_the_fork(run: Run) -> None:
    write({"hip.toml": HIP_REGISTRY, "m.py": HIP_SOURCE})
    assert run("fix", "--write", "--quiet", "--registry", "hip.toml", "m.py")[0] == 0
    assert Path("m.py").read_text() == (
        'lib = tvm.compile(mod, {"kind": "hip", "mcpu": "gfx900"})\nt = Target({"kind": "hip", "mcpu": "gfx906"})\n'
    )


def test_without_the_registry_a_fork_s_kind_is_unknown(run: Run) -> None:
    write({"m.py": HIP_SOURCE})
    assert run("fix", "--check", "m.py") == (
        1,
        "m.py:1:24: target-string [report-only] cannot read the target: unknown target kind 'hip'\n"
        "m.py:2:12: target-string [report-only] cannot read the target: unknown target kind 'hip'\n",
        "2 findings in 1 file, 0 fixable, 2 to do by hand; 0 files would change\n",
    )


def test_registry_for_text_files(run: Run) -> None:
    write({"hip.toml": HIP_REGISTRY, "run.sh": 'tvmc --target "hip -mcpu=gfx900"\n'})
    assert run("fix", "--check", "run.sh")[1] == ""
    status, out, err = run("fix", "--check", "--registry", "hip.toml", "run.sh")
    assert (status, err) == (1, "1 finding in 1 file, 0 fixable, 1 to do by hand; 0 files would change\n")
    assert (
        out == "run.sh:1:6: text-target [report-only] legacy target string; kind 'hip' is the registry's own "
        f"(TVM {NEWEST} itself does not know it) (write the JSON; TVM >= 0.24 reads no other form)\n"
        '  write: --target \'{"kind": "hip", "mcpu": "gfx900"}\'\n'
    )


def test_a_bad_registry_file_fails_once_before_any_work(run: Run) -> None:
    write({"bad.json": '{"kinds": {"npu": {"leaf": "false"}}}', "m.py": LEGACY})
    assert run("fix", "--write", "--registry", "bad.json", "m.py") == (
        2,
        "",
        "error: bad.json: kind 'npu': 'leaf' must be true or false, not a string\n",
    )
    assert Path("m.py").read_text() == LEGACY


# ------------------------------------------------------------------ text files


# (id, file name, content, the findings --check prints)
TEXT_CASES: list[tuple[str, str, str, str]] = [
    (
        "shell: quoted option",
        "run.sh",
        SH,
        REPORT_SH.format(path="run.sh"),
    ),
    (
        "shell: a bare kind is fine",
        "run.sh",
        "tvmc compile --target llvm m.onnx\n",
        "",
    ),
    (
        "YAML: an unquoted value runs to the end of the line, less a comment",
        "c.yaml",
        "build:\n  target: llvm -mcpu=skylake -mattr=+avx2,+fma  # the CI machine\n  target: cuda\n",
        "c.yaml:2:3: text-target [report-only] legacy target string (write the JSON; TVM >= 0.24 reads no other "
        'form)\n  write: target: \'{"kind": "llvm", "mcpu": "skylake", "mattr": ["+avx2", "+fma"]}\'\n',
    ),
    (
        "YAML: CRLF",
        "c.yml",
        "target: llvm -mcpu=skylake\r\n",
        "c.yml:1:1: text-target [report-only] legacy target string (write the JSON; TVM >= 0.24 reads no other "
        'form)\n  write: target: \'{"kind": "llvm", "mcpu": "skylake"}\'\n',
    ),
    (
        "INI: an unquoted value stays unquoted",
        "setup.cfg",
        "[tvm]\ntarget = llvm -mcpu=skylake ; fast\n",
        "setup.cfg:2:1: text-target [report-only] legacy target string (write the JSON; TVM >= 0.24 reads no other "
        'form)\n  write: target = {"kind": "llvm", "mcpu": "skylake"}\n',
    ),
    (
        "TOML: quoted",
        "tune.toml",
        'target = "cuda -arch=sm_80"\n',
        "tune.toml:1:1: text-target [report-only] legacy target string (write the JSON; TVM >= 0.24 reads no other "
        'form)\n  write: target = \'{"kind": "cuda", "arch": "sm_80"}\'\n',
    ),
    (
        "a byte order mark is no column",
        "run.sh",
        '\ufefftvmc --target "llvm -mcpu=skylake"\n',
        "run.sh:1:6: text-target [report-only] legacy target string (write the JSON; TVM >= 0.24 reads no other "
        'form)\n  write: --target \'{"kind": "llvm", "mcpu": "skylake"}\'\n',
    ),
]


@pytest.mark.parametrize(("name", "content", "found"), [c[1:] for c in TEXT_CASES], ids=[c[0] for c in TEXT_CASES])
def test_text_files_are_reported(run: Run, name: str, content: str, found: str) -> None:
    write({name: content})
    status, out, err = run("fix", "--check", name)
    assert (status, out) == (1 if found else 0, found)
    summary = "1 finding in 1 file, 0 fixable, 1 to do by hand" if found else "0 findings in 1 file, 0 fixable"
    assert err == summary + "; 0 files would change\n"
    assert run("fix", "--write", "-q", name)[0] == (1 if found else 0)
    assert Path(name).read_bytes() == content.encode("utf-8")  # report-only: never written


def test_docs_fixes_the_python_blocks_of_documents(run: Run) -> None:
    document = "# Use\n\n```python\n" + LEGACY + "```\n\n    $ tvmc --target llvm\n"
    write({"README.md": document})
    status, out, err = run("fix", "--check", "README.md")
    assert (status, err) == (1, "1 finding in 1 file, 0 fixable, 1 more with --docs; 0 files would change\n")
    assert (
        out == "README.md:4:23: target-string [safe] legacy target string (--docs fixes it)\n"
        '  write: {"kind": "cuda", "arch": "sm_80"}\n'
    )
    assert run("fix", "--write", "README.md")[0] == 1
    assert Path("README.md").read_text() == document
    assert run("fix", "--write", "--docs", "README.md") == (0, "", "1 finding in 1 file, 1 fixed; 1 file changed\n")
    assert Path("README.md").read_text() == document.replace(LEGACY, FIXED)


# ------------------------------------------------------------------ without LibCST


def test_without_libcst_the_command_says_how_to_install_it(run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    write({"m.py": LEGACY})
    monkeypatch.setitem(sys.modules, "libcst", None)  # import libcst raises ImportError
    monkeypatch.delitem(sys.modules, "targetlang.fix._python", raising=False)
    message = "error: targetlang fix rewrites Python with LibCST: pip install 'targetlang[fix]'\n"
    assert run("fix", "--write", "m.py") == (2, "", message)
    assert run("fix", "-", stdin=LEGACY.encode()) == (2, "", message)
    assert Path("m.py").read_text() == LEGACY

    from targetlang.fix import fix_source

    with pytest.raises(ImportError, match=r"pip install 'targetlang\[fix\]'"):
        fix_source(LEGACY, path="m.py")


def test_target_version_chooses_what_a_property_read_is_fixed_to(run: Run) -> None:
    write({"m.py": "def f(t: Target):\n    return t.max_num_threads\n"})
    assert run("fix", "--check", "m.py") == (0, "", "0 findings in 1 file, 0 fixable; 0 files would change\n")
    status, out, _ = run("fix", "--check", "--target-version", "0.24", "m.py")
    assert status == 1 and "m.py:2:12: target-property [safe] Target.max_num_threads was removed in TVM 0.24" in out


def test_the_summary_names_the_options_each_finding_left_needs(run: Run) -> None:
    doc = '# t\n\n```python\nx = Target("llvm -mcpu=a")\ndef f():\n    e = "llvm -mcpu=b"\n```\n'
    write({"r.md": doc, "m.py": 'def f():\n    e = "llvm -mcpu=b"\n'})
    status, out, err = run("fix", "--check", ".")
    assert err == (
        "3 findings in 2 files, 0 fixable, 1 more with --docs, 1 more with --unsafe-fixes, "
        "1 more with --docs --unsafe-fixes; 0 files would change\n"
    )
    # the uses of a value in a code block are at the document's lines
    assert "r.md:6:9: target-string [unsafe] legacy target string; not safe: at line 6, never used" in out
    status, out, err = run("fix", "--write", "--unsafe-fixes", ".")
    assert (status, err.splitlines()[-1]) == (1, "3 findings in 2 files, 1 fixed, 2 more with --docs; 1 file changed")
    status, out, err = run("fix", "--write", "--unsafe-fixes", "--docs", ".")
    assert (status, err) == (0, "2 findings in 2 files, 2 fixed; 1 file changed\n")


# ------------------------------------------------------------------ files fix must not read


def test_a_fifo_in_a_tree_is_skipped_with_a_note(run: Run) -> None:
    # Before, reading it waited for a writer forever, and the files after it were never fixed.
    write({"a.py": LEGACY, "c.py": LEGACY})
    os.mkfifo("b.py")
    status, out, err = run("fix", "--write", "-j", "1", ".")
    assert (status, out) == (0, "")
    assert err == "note: skipped b.py: a FIFO, not a file fix reads\n2 findings in 2 files, 2 fixed; 2 files changed\n"
    assert Path("a.py").read_text() == Path("c.py").read_text() == FIXED


@pytest.mark.parametrize("kind", ["fifo", "device", "link to a device"])
def test_a_special_file_named_is_refused_at_once(run: Run, kind: str) -> None:
    # Before, a FIFO hung the run and /dev/zero was read until memory ran out (MemoryError).
    write({"a.py": LEGACY})
    if kind == "fifo":
        os.mkfifo("s.py")
    elif kind == "device":
        if os.geteuid() != 0:
            pytest.skip("making a device takes root")
        os.mknod("s.py", stat.S_IFCHR | 0o666, os.makedev(1, 5))
    else:
        os.symlink("/dev/zero", "s.py")
    what = "a FIFO" if kind == "fifo" else "a character device"
    assert run("fix", "--write", "a.py", "s.py") == (2, "", f"error: s.py is {what}, not a file fix reads\n")
    assert Path("a.py").read_text() == LEGACY  # refused before any work


def test_a_notebook_named_is_never_read_as_python(run: Run) -> None:
    # Before, it was read as Python: its JSON metadata's target became a Python dict with True,
    # and json.load failed on the file afterwards. Now its code cells are fixed, the rest kept.
    book = '{\n "metadata": {"target": "vulkan -supports_float16=1"},\n "nbformat": 4\n}\n'
    cell = r'{"cell_type": "code", "metadata": {}, "outputs": [], "source": ["t = Target(\"llvm -mcpu=a\")\n"]}'
    good = '{\n "cells": [' + cell + '],\n "metadata": {"target": "vulkan -supports_float16=1"},\n "nbformat": 4\n}\n'
    write({"tune.ipynb": book, "good.ipynb": good, "a.py": LEGACY})
    status, out, err = run("fix", "--write", "tune.ipynb", "good.ipynb", "a.py")
    assert (status, out) == (2, "")
    assert err.splitlines()[0] == (
        "error: tune.ipynb:1: not an nbformat 4 notebook: 'cells' is no list of objects (line 1, column 1)"
    )
    assert Path("tune.ipynb").read_text() == book
    assert Path("good.ipynb").read_text() == good.replace(
        r'Target(\"llvm -mcpu=a\")', r'Target({\"kind\": \"llvm\", \"mcpu\": \"a\"})'
    )
    assert Path("a.py").read_text() == FIXED


def test_a_file_past_the_size_fix_reads_is_refused_before_it_is_read(
    run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    write({"a.py": LEGACY, "big.py": LEGACY + "#" * 100 + "\n"})
    monkeypatch.setattr(command, "MAX_FILE_BYTES", 100)
    status, out, err = run("fix", "--write", "-j", "1", "a.py", "big.py")
    assert (status, out) == (2, "")
    size = len(LEGACY) + 101
    assert err.splitlines()[0] == f"error: cannot read big.py: {size} bytes, more than fix reads (100)"
    assert Path("a.py").read_text() == FIXED


def test_write_refuses_a_same_length_rewrite_with_its_time_set_back(
    run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Before, inode, size and mtime matched what was read, and fix wrote over the change.
    write({"a.py": LEGACY})
    original = command.fix_file
    edited = LEGACY.replace("sm_80", "sm_86")

    def fix_then_edit(path: str, job: command.Job) -> command.Outcome:
        outcome = original(path, job)
        info = os.stat(path)
        with open(path, "r+", encoding="utf-8") as handle:
            handle.write(edited)
        os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))
        return outcome

    monkeypatch.setattr(command, "fix_file", fix_then_edit)
    status, _, err = run("fix", "--write", "-j", "1", "a.py")
    assert status == 2
    assert err.splitlines()[0] == "error: a.py changed while it was being fixed; not written (run again)"
    assert Path("a.py").read_text() == edited


def test_the_diff_of_a_file_with_a_form_feed_is_a_patch(run: Run) -> None:
    # str.splitlines split the diff's lines at the form feed too: the line before it came out
    # without its newline, "\ No newline at end of file" in the middle of a hunk, no patch.
    source = "import tvm\n\x0c\n" + LEGACY
    write({"m.py": source})
    status, out, _ = run("fix", "m.py")
    assert status == 1
    assert out == (
        "--- a/m.py\n+++ b/m.py\n@@ -1,3 +1,3 @@\n import tvm\n \x0c\n"
        '-t = tvm.target.Target("cuda -arch=sm_80")\n+t = tvm.target.Target({"kind": "cuda", "arch": "sm_80"})\n'
    )


@pytest.mark.parametrize(
    ("source", "imported"),
    [
        ("x = 1\n", False),  # nothing a rule looks for: Python's own parser only
        ("import tvm\ntvm.target.Target('cuda -arch=sm_80')\n", True),
    ],
)
def test_libcst_is_imported_only_for_a_file_that_may_need_it(tmp_path: Path, source: str, imported: bool) -> None:
    path = tmp_path / "a.py"
    path.write_text(source)
    script = (
        "import sys\nfrom targetlang._cli import main\n"
        f"main(['fix', '--check', {str(path)!r}])\nprint('libcst' in sys.modules, file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert done.stderr.splitlines()[-1] == str(imported), done.stderr
