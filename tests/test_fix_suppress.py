"""Suppression comments of ``targetlang fix`` (``# targetlang: ignore[...]``, ``# noqa``) and the
comments ``--add-ignore`` writes: which findings a comment leaves alone, in Python and in text
files, and where the comments go."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from targetlang.fix import fix_source
from targetlang.fix._suppress import add_ignores, python_suppression, rules_of, text_suppression

from .conftest import Run

DATA = Path(__file__).resolve().parent / "data" / "fix"


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / ".git").mkdir()  # the settings' search stops here
    monkeypatch.chdir(tmp_path)


# ------------------------------------------------------------------ what a comment says


@pytest.mark.parametrize(
    ("comment", "rules"),
    [
        ("# targetlang: ignore", {"*"}),
        ("# targetlang: ignore[target-string]", {"target-string"}),
        ("# targetlang: ignore[target-string, text-target]", {"target-string", "text-target"}),
        ("# TargetLang:Ignore[target-helper]", {"target-helper"}),
        ("# noqa", {"*"}),
        ("# NOQA", {"*"}),
        ("# noqa: E501", None),
        ("# noqa: E501, F401", None),
        ("# noqa: target-string", {"target-string"}),
        ("# noqa: E501,target-property", {"target-property"}),
        ("# type: ignore  # targetlang: ignore[canon-target]", {"canon-target"}),
        ("# a comment about targets", None),
        ("# targetlang ignores nothing here", None),
    ],
)
def test_what_a_comment_suppresses(comment: str, rules: set[str] | None) -> None:
    found = rules_of(comment, ["target-string", "text-target", "target-helper", "target-property", "canon-target"])
    assert (set(found) if found is not None else None) == rules


# ------------------------------------------------------------------ Python: lines and statements

MULTI = '''import tvm
a = tvm.target.Target(  # targetlang: ignore
    "llvm -mcpu=a",
)
b = (
    "llvm -mcpu=b",  # targetlang: ignore[target-string]
    """x
# targetlang: ignore
""",
)
c = 1 + \\
    2  # noqa
'''


@pytest.mark.parametrize(
    ("line", "rule", "covered"),
    [
        (2, "target-string", True),  # the comment's own line
        (3, "target-string", True),  # a later line of the statement: the first line's comment
        (4, "target-helper", True),
        (5, "target-string", False),  # the first line of b holds no comment
        (6, "target-string", True),
        (6, "target-helper", False),  # a comment naming another rule
        (7, "target-string", False),  # b's comment is on its line 6, not its first
        (8, "target-string", False),  # '# targetlang: ignore' inside a string is no comment
        (11, "target-string", False),  # after a backslash, the comment on the last line...
        (12, "target-string", True),  # ...covers its own line only
        (1, "target-string", False),
    ],
)
def test_python_suppression_by_line_and_statement(line: int, rule: str, covered: bool) -> None:
    assert python_suppression(MULTI).covers(line, rule) is covered


SUPPRESSED_PYTHON = [
    pytest.param(
        'import tvm\nt = tvm.target.Target("cuda -arch=sm_80")  # targetlang: ignore\n',
        'import tvm\nt = tvm.target.Target("cuda -arch=sm_80")  # targetlang: ignore\n',
        [],
        id="all-rules",
    ),
    pytest.param(
        'import tvm\nt = tvm.target.Target("cuda -arch=sm_80")  # noqa\n',
        'import tvm\nt = tvm.target.Target("cuda -arch=sm_80")  # noqa\n',
        [],
        id="bare-noqa",
    ),
    pytest.param(
        'import tvm\nt = tvm.target.Target("cuda -arch=sm_80")  # noqa: E501\n',
        'import tvm\nt = tvm.target.Target({"kind": "cuda", "arch": "sm_80"})  # noqa: E501\n',
        [(2, "target-string")],
        id="another-linter-s-noqa",
    ),
    pytest.param(
        'import tvm\nt = tvm.target.Target("cuda -arch=sm_80")  # noqa: target-string\n',
        'import tvm\nt = tvm.target.Target("cuda -arch=sm_80")  # noqa: target-string\n',
        [],
        id="noqa-with-our-rule",
    ),
    pytest.param(
        'import tvm\nt = tvm.target.Target("cuda -arch=sm_80")  # targetlang: ignore[target-helper]\n',
        'import tvm\nt = tvm.target.Target({"kind": "cuda", "arch": "sm_80"})  # targetlang: ignore[target-helper]\n',
        [(2, "target-string")],
        id="another-rule",
    ),
    pytest.param(
        'import tvm\nt = tvm.target.Target(  # targetlang: ignore[target-string]\n    "cuda -arch=sm_80"\n)\n'
        'u = tvm.target.Target("llvm -mcpu=a")\n',
        'import tvm\nt = tvm.target.Target(  # targetlang: ignore[target-string]\n    "cuda -arch=sm_80"\n)\n'
        'u = tvm.target.Target({"kind": "llvm", "mcpu": "a"})\n',
        [(5, "target-string")],
        id="first-line-of-statement",
    ),
    pytest.param(
        'import tvm\nt = tvm.target.cuda(arch="sm_80")  # targetlang: ignore[target-helper]\n',
        'import tvm\nt = tvm.target.cuda(arch="sm_80")  # targetlang: ignore[target-helper]\n',
        [],
        id="a-helper",
    ),
]


@pytest.mark.parametrize(("source", "fixed", "found"), SUPPRESSED_PYTHON)
def test_a_suppressed_python_finding_is_neither_reported_nor_applied(
    source: str, fixed: str, found: list[tuple[int, str]]
) -> None:
    result = fix_source(source, path="m.py", line_length=0)
    assert result.text == fixed
    assert [(f.line, f.rule) for f in result.findings] == found


# ------------------------------------------------------------------ text files

TEXT_CASES = [
    pytest.param(
        "run.sh",
        'tvmc compile --target "llvm -mcpu=a" m.onnx  # targetlang: ignore\n'
        'tvmc compile --target "llvm -mcpu=b" m.onnx\n',
        [2],
        id="shell",
    ),
    pytest.param(
        "run.sh",
        'tvmc compile --target "llvm -mcpu=a" m.onnx  # noqa: E501\n'
        'tvmc compile --target "llvm -mcpu=b" m.onnx  # noqa\n',
        [1],
        id="shell-noqa",
    ),
    pytest.param(
        "run.sh",
        'tvmc compile \\\n  --target "llvm -mcpu=a" \\\n  m.onnx  # targetlang: ignore[text-target]\n'
        'tvmc compile --target "llvm -mcpu=b" m.onnx\n',
        [4],
        id="shell-continued-command",
    ),
    pytest.param(
        "run.sh",
        'tvmc compile --target "llvm -mcpu=a" m.onnx  # targetlang: ignore[target-string]\n',
        [1],
        id="shell-another-rule",
    ),
    pytest.param(
        "c.yaml",
        'a:\n  target: "llvm -mcpu=a"  # targetlang: ignore\nb:\n  target: "llvm -mcpu=b"\n',
        [4],
        id="yaml",
    ),
    pytest.param(
        "c.toml",
        'target = "llvm -mcpu=a"  # targetlang: ignore[text-target]\ntarget_host = "llvm -mcpu=b"\n',
        [2],
        id="toml",
    ),
    pytest.param(
        "README.md",
        '<!-- targetlang: ignore -->\nRun `tvmc --target "llvm -mcpu=a"`.\n\nRun `tvmc --target "llvm -mcpu=b"`.\n',
        [4],
        id="markdown-comment-before",
    ),
    pytest.param(
        "index.rst",
        '.. targetlang: ignore\n\ntvmc --target "llvm -mcpu=a"\n',
        [3],
        id="rst-comment-not-just-before",
    ),
    pytest.param(
        "index.rst",
        'Run it:\n.. targetlang: ignore\ntvmc --target "llvm -mcpu=a"\n',
        [],
        id="rst-comment-just-before",
    ),
]


@pytest.mark.parametrize(("name", "source", "lines"), TEXT_CASES)
def test_a_suppressed_text_finding_is_not_reported(name: str, source: str, lines: list[int]) -> None:
    result = fix_source(source, path=name)
    assert [f.line for f in result.findings] == lines
    assert result.text == source


def test_a_hash_inside_a_shell_word_is_no_comment() -> None:
    assert not text_suppression("echo a#targetlang:ignore\n", ".sh")


# ------------------------------------------------------------------ where --add-ignore writes


@pytest.mark.parametrize(
    ("suffix", "text", "findings", "written", "unplaced"),
    [
        pytest.param(
            ".py",
            'x = "llvm -mcpu=a"\n',
            [(1, "target-string")],
            'x = "llvm -mcpu=a"  # targetlang: ignore[target-string]\n',
            [],
            id="end-of-line",
        ),
        pytest.param(
            ".py",
            'x = "llvm -mcpu=a"  # targetlang: ignore[target-helper]\n',
            [(1, "target-string")],
            'x = "llvm -mcpu=a"  # targetlang: ignore[target-helper,target-string]\n',
            [],
            id="merged",
        ),
        pytest.param(
            ".py",
            'x = "llvm -mcpu=a"  # noqa: E501\n',
            [(1, "target-string"), (1, "dynamic-target")],
            'x = "llvm -mcpu=a"  # noqa: E501  # targetlang: ignore[dynamic-target,target-string]\n',
            [],
            id="after-another-comment-two-rules",
        ),
        pytest.param(
            ".py",
            'x = "#" + "llvm -mcpu=a"\r\n',
            [(1, "target-string")],
            'x = "#" + "llvm -mcpu=a"  # targetlang: ignore[target-string]\r\n',
            [],
            id="hash-in-a-string-crlf",
        ),
        pytest.param(
            ".py",
            'x = f(\n    """a\nllvm -mcpu=a""")\n',
            [(2, "target-string")],
            'x = f(  # targetlang: ignore[target-string]\n    """a\nllvm -mcpu=a""")\n',
            [],
            id="line-ends-in-a-string",
        ),
        pytest.param(
            ".py",
            'x = \\\n    "llvm -mcpu=a" + \\\n    y\n',
            [(2, "target-string")],
            'x = \\\n    "llvm -mcpu=a" + \\\n    y\n',
            [(2, "target-string")],
            id="backslashes-no-place",
        ),
        pytest.param(
            ".py",
            'x = """llvm\n-mcpu=a"""\n',
            [(1, "target-string")],
            'x = """llvm\n-mcpu=a"""\n',
            [(1, "target-string")],
            id="first-line-in-a-string",
        ),
        pytest.param(
            ".py",
            '#   t = Target("llvm -mcpu=a")\n',
            [(1, "target-string")],
            '#   t = Target("llvm -mcpu=a")  # targetlang: ignore[target-string]\n',
            [],
            id="a-comment-s-line",
        ),
        pytest.param(
            ".sh",
            'tvmc \\\n  --target "llvm -mcpu=a" \\\n  m.onnx\n',
            [(2, "text-target")],
            'tvmc \\\n  --target "llvm -mcpu=a" \\\n  m.onnx  # targetlang: ignore[text-target]\n',
            [],
            id="shell-continued",
        ),
        pytest.param(
            ".yaml",
            "target: 'llvm -mcpu=a' # old\n",
            [(1, "text-target")],
            "target: 'llvm -mcpu=a' # old  # targetlang: ignore[text-target]\n",
            [],
            id="yaml",
        ),
        pytest.param(
            ".md",
            "`--target 'llvm -mcpu=a'`\n",
            [(1, "text-target")],
            "`--target 'llvm -mcpu=a'`\n",
            [(1, "text-target")],
            id="markdown-no-place",
        ),
    ],
)
def test_add_ignores_places(
    suffix: str, text: str, findings: list[tuple[int, str]], written: str, unplaced: list[tuple[int, str]]
) -> None:
    assert add_ignores(text, suffix, findings) == (written, unplaced)


# ------------------------------------------------------------------ the command

SAMPLE = {
    "src/model.py": 'import tvm\n\nhost = "llvm -mcpu=a"\nprint(host)\n'
    't = tvm.target.Target("cuda -arch=sm_80", host)\n'
    'u = tvm.target.Target(  # a call over lines\n    f"llvm -mcpu={cpu}"\n)\n',
    "src/skip.py": 'import tvm\nt = tvm.target.Target("cuda -arch=sm_80")  # targetlang: ignore\n',
    "scripts/run.sh": 'tvmc compile \\\n  --target "llvm -mcpu=a" \\\n  m.onnx\n',
    "conf/c.yaml": 'model:\n  target: "llvm -mcpu=a"\n',
    "conf/c.toml": 'target = "llvm -mcpu=a"\n',
    "conf/c.ini": "[build]\ntarget = llvm -mcpu=a\n",
    "notes.txt": 'tvmc compile --target "llvm -mcpu=a" m.onnx\n',
}


def _tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(text.encode("utf-8"))


def test_a_suppressed_line_is_untouched_by_write(run: Run, tmp_path: Path) -> None:
    _tree(tmp_path, {"m.py": SAMPLE["src/skip.py"] + 'v = tvm.target.Target("llvm -mcpu=a")\n'})
    status, _, _ = run("fix", "--write", "--quiet", "m.py")
    assert status == 0
    assert (tmp_path / "m.py").read_text() == (
        'import tvm\nt = tvm.target.Target("cuda -arch=sm_80")  # targetlang: ignore\n'
        'v = tvm.target.Target({"kind": "llvm", "mcpu": "a"})\n'
    )


def test_add_ignore_then_check_reports_nothing(run: Run, tmp_path: Path) -> None:
    _tree(tmp_path, SAMPLE)
    status, out, _ = run("fix", "--add-ignore", ".")
    assert (status, out) == (0, "")
    assert (tmp_path / "src/model.py").read_text() == (
        'import tvm\n\nhost = "llvm -mcpu=a"  # targetlang: ignore[target-string]\nprint(host)\n'
        't = tvm.target.Target({"kind": "cuda", "arch": "sm_80"}, host)\n'
        "u = tvm.target.Target(  # a call over lines\n"
        '    f"llvm -mcpu={cpu}"  # targetlang: ignore[dynamic-target]\n)\n'
    )
    assert (tmp_path / "scripts/run.sh").read_text() == (
        'tvmc compile \\\n  --target "llvm -mcpu=a" \\\n  m.onnx  # targetlang: ignore[text-target]\n'
    )
    yaml = 'model:\n  target: "llvm -mcpu=a"  # targetlang: ignore[text-target]\n'
    assert (tmp_path / "conf/c.yaml").read_text() == yaml
    assert (tmp_path / "src/skip.py").read_text() == SAMPLE["src/skip.py"]
    assert run("fix", "--check", ".") == (0, "", "0 findings in 7 files, 0 fixable; 0 files would change\n")
    # and a second --add-ignore has nothing to add
    before = {name: (tmp_path / name).read_text() for name in SAMPLE}
    assert run("fix", "--add-ignore", "--quiet", ".")[0] == 0
    assert {name: (tmp_path / name).read_text() for name in SAMPLE} == before


def test_add_ignore_reports_what_it_cannot_place(run: Run, tmp_path: Path) -> None:
    _tree(tmp_path, {"README.md": "Run `tvmc --target 'llvm -mcpu=a'`.\n"})
    status, _, err = run("fix", "--add-ignore", "README.md")
    assert status == 1
    assert "README.md:1:" in err and "--add-ignore found no place for a comment here" in err
    assert (tmp_path / "README.md").read_text() == "Run `tvmc --target 'llvm -mcpu=a'`.\n"


REAL = [
    "2030db36e4/tests__python__target__test_x86_features.py.before",
    "2030db36e4/tests__python__target__test_riscv_features.py.before",
    "2030db36e4/tests__scripts__task_python_unittest_gpuonly.sh.before",
    "2030db36e4/docs__how_to__tutorials__export_and_load_executable.py.before",
    "283fd19683/python__tvm__contrib__thrust.py.before",
]


@pytest.mark.parametrize("name", REAL)
def test_add_ignore_on_tvm_s_own_files(run: Run, tmp_path: Path, name: str) -> None:
    """TVM's files as they were before its maintainers migrated them (tests/data/fix/SOURCES.md):
    after --add-ignore, --check finds nothing, and only comments were added to what --write
    would leave."""
    path = Path(name).name.removesuffix(".before").split("__")[-1]
    shutil.copyfile(DATA / name, tmp_path / path)
    assert run("fix", "--write", "--quiet", path)[0] == 1  # something is left to do by hand
    written = (tmp_path / path).read_text()
    shutil.copyfile(DATA / name, tmp_path / path)
    assert run("fix", "--add-ignore", "--quiet", path)[0] == 0
    ignored = (tmp_path / path).read_text()
    assert run("fix", "--check", path) == (0, "", "0 findings in 1 file, 0 fixable; 0 files would change\n")
    # each line differs from --write's by a comment at its end, if at all
    pairs = list(zip(written.splitlines(), ignored.splitlines(), strict=True))
    changed = [(a, b) for a, b in pairs if a != b]
    assert changed
    for a, b in changed:
        assert b.startswith(a.rstrip()) and "# targetlang: ignore[" in b[len(a.rstrip()) :]


def test_add_ignore_as_docs_fix_md_shows_it(run: Run, tmp_path: Path) -> None:
    """The example of docs/fix.md, Suppressing a finding: the file it shows after --add-ignore."""
    source = (
        'import tvm\nhost = "llvm -mcpu=skylake"\nprint("host:", host)\n'
        't = tvm.target.Target("cuda -arch=sm_80", host)\n'
    )
    _tree(tmp_path, {"serve.py": source})
    assert run("fix", "--add-ignore", "serve.py") == (0, "", "1 finding in 1 file, 1 fixed; 1 file changed\n")
    assert (tmp_path / "serve.py").read_text() == (
        'import tvm\nhost = "llvm -mcpu=skylake"  # targetlang: ignore[target-string]\nprint("host:", host)\n'
        't = tvm.target.Target({"kind": "cuda", "arch": "sm_80"}, host)\n'
    )
    doc = (Path(__file__).resolve().parents[1] / "docs" / "fix.md").read_text(encoding="utf-8")
    section = doc.split("### Suppressing a finding")[1]
    assert (tmp_path / "serve.py").read_text() in section
