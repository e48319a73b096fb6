"""Suppression comments of ``targetlang fix`` (``# targetlang: ignore[...]``, ``# noqa``) and the
comments ``--add-ignore`` writes: which findings a comment leaves alone, in Python and in text
files, and where the comments go."""

from __future__ import annotations

import shutil
from pathlib import Path, PurePath

import pytest

from targetlang.fix import fix_source
from targetlang.fix._hash_comments import hash_comments
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
        ("# noqa:", {"*"}),
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
        # (its codes on its own line: the next line's first word is no code of it)
        'import tvm\nt = tvm.target.Target("cuda -arch=sm_80")  # noqa:\nprint(t)\n',
        'import tvm\nt = tvm.target.Target("cuda -arch=sm_80")  # noqa:\nprint(t)\n',
        [],
        id="bare-noqa-with-a-colon",
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
            "Run `--target 'llvm -mcpu=a'`\nin prose.\n",
            [(1, "text-target")],
            "Run `--target 'llvm -mcpu=a'` <!-- targetlang: ignore[text-target] -->\nin prose.\n",
            [],
            id="markdown-prose",
        ),
        pytest.param(
            ".md",
            "```bash\ntvmc compile --target 'llvm -mcpu=a' m.onnx # build\n```\n",
            [(2, "text-target")],
            "```bash\ntvmc compile --target 'llvm -mcpu=a' m.onnx # build  # targetlang: ignore[text-target]\n```\n",
            [],
            id="markdown-code-block",
        ),
        pytest.param(
            ".md",
            "```bash\ncat <<EOF\n--target 'llvm -mcpu=a'\nEOF\n```\n",
            [(3, "text-target")],
            "```bash\ncat <<EOF\n--target 'llvm -mcpu=a'\nEOF\n```\n",
            [(3, "text-target")],
            id="markdown-heredoc-no-place",
        ),
        pytest.param(
            ".rst",
            "Run ``--target 'llvm -mcpu=a'``.\n",
            [(1, "text-target")],
            "Run ``--target 'llvm -mcpu=a'``.\n",
            [(1, "text-target")],
            id="rst-no-place",
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
    _tree(tmp_path, {"README.rst": "Run ``tvmc --target 'llvm -mcpu=a'``.\n"})
    status, _, err = run("fix", "--add-ignore", "README.rst")
    assert status == 1
    assert "README.rst:1:" in err and "--add-ignore found no place for a comment here" in err
    assert (tmp_path / "README.rst").read_text() == "Run ``tvmc --target 'llvm -mcpu=a'``.\n"


def test_add_ignore_then_check_reports_nothing_in_markdown(run: Run, tmp_path: Path) -> None:
    readme = (
        "# Build\n\nRun `tvmc --target 'llvm -mcpu=a'` or:\n\n"
        '```bash\ntvmc compile --target "cuda -arch=sm_80" m.onnx\n```\n\n'
        '```python\nt = "llvm -mcpu=a"\nprint(t)\nTarget(t)\n```\n'
    )
    _tree(tmp_path, {"README.md": readme})
    status, _, _ = run("fix", "--add-ignore", "--quiet", "README.md")
    assert status == 0
    assert (tmp_path / "README.md").read_text() == (
        "# Build\n\nRun `tvmc --target 'llvm -mcpu=a'` or: <!-- targetlang: ignore[text-target] -->\n\n"
        '```bash\ntvmc compile --target "cuda -arch=sm_80" m.onnx  # targetlang: ignore[text-target]\n```\n\n'
        '```python\nt = "llvm -mcpu=a"  # targetlang: ignore[target-string]\nprint(t)\nTarget(t)\n```\n'
    )
    assert run("fix", "--check", "README.md") == (0, "", "0 findings in 1 file, 0 fixable; 0 files would change\n")


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


# ------------------------------------------------------------------ a `#` that is data, not a comment

DATA_HASHES = [
    pytest.param(
        "run.sh", 'echo "see # noqa"; python b.py --target "llvm -mcpu=skylake"\n', [1], id="shell-double-quotes"
    ),
    pytest.param(
        "run.sh", "echo 'a # targetlang: ignore' && tvmc --target \"llvm -mcpu=a\" m.onnx\n", [1], id="shell-single"
    ),
    pytest.param(
        "run.sh",
        'python -c "import os\n# noqa" --target "llvm -mcpu=a"\n',
        [2],
        id="shell-string-over-lines",
    ),
    pytest.param("run.sh", 'cat <<EOF > run2.sh\ntvmc --target "llvm -mcpu=a"  # noqa\nEOF\n', [2], id="shell-heredoc"),
    pytest.param(
        "run.sh", 'echo "see # noqa"; tvmc --target "llvm -mcpu=a"  # noqa\n', [], id="shell-comment-after-quotes"
    ),
    pytest.param("c.yaml", "run: \"tvmc --target 'llvm -mcpu=a' # noqa\"\n", [1], id="yaml-double-quoted"),
    pytest.param("c.yaml", 'run: |\n  tvmc --target "llvm -mcpu=a"  # noqa\n', [2], id="yaml-block-scalar"),
    pytest.param("c.yaml", 'run: >-\n  tvmc --target "llvm -mcpu=a"  # noqa\nb: 1\n', [2], id="yaml-folded-scalar"),
    # YAML's own rule: in a plain scalar " #" starts a comment, quotes or not
    pytest.param("c.yaml", "run: tvmc --target 'llvm -mcpu=a' --name 'x # noqa'\n", [], id="yaml-plain-scalar"),
    pytest.param("c.toml", "cmd = \"tvmc --target 'llvm -mcpu=a' # noqa\"\n", [1], id="toml-string"),
    pytest.param(
        "c.toml", 'script = """\ntvmc --target "llvm -mcpu=a"  # noqa\n"""\n', [2], id="toml-multi-line-string"
    ),
    pytest.param("c.toml", "cmd = \"tvmc --target 'llvm -mcpu=a'\"  # noqa\n", [], id="toml-comment-after-string"),
    pytest.param(
        "README.md",
        '```python\nimport tvm\nt = tvm.target.Target("llvm -mcpu=a", name="see # noqa")\n```\n',
        [3],
        id="markdown-python-string",
    ),
    pytest.param(
        "README.md",
        '```python\nimport tvm\nt = tvm.target.Target("llvm -mcpu=a")  # noqa\n```\n',
        [],
        id="markdown-python-comment",
    ),
    pytest.param(
        "README.md",
        '```shell\necho "# noqa"; tvmc --target "llvm -mcpu=a" m.onnx\n```\n',
        [2],
        id="markdown-shell-string",
    ),
    pytest.param(
        "m.py", 'import tvm\nt = tvm.target.Target("llvm -mcpu=a", name="see # noqa")\n', [2], id="python-string"
    ),
]


@pytest.mark.parametrize(("name", "source", "lines"), DATA_HASHES)
def test_a_hash_inside_a_string_suppresses_nothing(name: str, source: str, lines: list[int]) -> None:
    assert [f.line for f in fix_source(source, path=name).findings] == lines


def test_a_document_s_python_string_with_docs() -> None:
    source = '```python\nimport tvm\nt = tvm.target.Target("llvm -mcpu=a", name="see # noqa")\n```\n'
    result = fix_source(source, path="README.md", docs=True)
    assert [(f.line, f.applied) for f in result.findings] == [(3, True)]
    assert result.text == (
        '```python\nimport tvm\nt = tvm.target.Target({"kind": "llvm", "mcpu": "a"}, name="see # noqa")\n```\n'
    )


# ------------------------------------------------------------------ INI: whole-line comments, the line before

INI_READ = [
    pytest.param("[tvm]\n# targetlang: ignore\ntarget = llvm -mcpu=a\n", [], id="hash-line-before"),
    pytest.param("[tvm]\n; noqa\ntarget = llvm -mcpu=a\n", [], id="semicolon-noqa-before"),
    pytest.param("[tvm]\n  # targetlang: ignore[text-target]\n  target = llvm -mcpu=a\n", [], id="indented"),
    pytest.param("[tvm]\n# targetlang: ignore[target-string]\ntarget = llvm -mcpu=a\n", [3], id="another-rule"),
    # configparser reads this comment as part of the value: it suppresses nothing
    pytest.param("[tvm]\ntarget = llvm -mcpu=a  # noqa\n", [2], id="after-the-value"),
    pytest.param("[tvm]\n# noqa\n\ntarget = llvm -mcpu=a\n", [4], id="not-just-before"),
]


@pytest.mark.parametrize("source", [p.values[0] for p in INI_READ], ids=[str(p.id) for p in INI_READ])
def test_ini_suppression_reads_the_line_before(source: str) -> None:
    lines = next(p.values[1] for p in INI_READ if p.values[0] == source)
    assert [f.line for f in fix_source(source, path="setup.cfg").findings] == lines


@pytest.mark.parametrize(
    ("suffix", "text", "findings", "written"),
    [
        pytest.param(
            ".cfg",
            "[tvm]\ntarget = llvm -mcpu=skylake\n",
            [(2, "text-target")],
            "[tvm]\n# targetlang: ignore[text-target]\ntarget = llvm -mcpu=skylake\n",
            id="cfg",
        ),
        pytest.param(
            ".ini",
            "[a]\r\nhosts =\r\n    llvm -mcpu=a\r\n    llvm -mcpu=b",
            [(3, "text-target"), (4, "text-target")],
            "[a]\r\nhosts =\r\n    # targetlang: ignore[text-target]\r\n    llvm -mcpu=a\r\n"
            "    # targetlang: ignore[text-target]\r\n    llvm -mcpu=b",
            id="continuation-lines-crlf-no-last-break",
        ),
        pytest.param(
            ".cfg",
            "[tvm]\n# targetlang: ignore[target-string]\ntarget = llvm -mcpu=a\n",
            [(3, "text-target")],
            "[tvm]\n# targetlang: ignore[target-string,text-target]\ntarget = llvm -mcpu=a\n",
            id="merged-into-the-line-before",
        ),
        pytest.param(
            ".cfg",
            "[tvm]\ntarget = llvm -mcpu=a\n",
            [(2, "text-target"), (2, "target-string")],
            "[tvm]\n# targetlang: ignore[target-string,text-target]\ntarget = llvm -mcpu=a\n",
            id="two-rules-one-line",
        ),
    ],
)
def test_add_ignores_in_ini_writes_a_line_before(
    suffix: str, text: str, findings: list[tuple[int, str]], written: str
) -> None:
    import configparser

    assert add_ignores(text, suffix, findings) == (written, [])
    before, after = configparser.ConfigParser(), configparser.ConfigParser()
    before.read_string(text)
    after.read_string(written)
    assert {s: dict(before[s]) for s in before} == {s: dict(after[s]) for s in after}


def test_add_ignore_on_setup_cfg_keeps_its_values(run: Run, tmp_path: Path) -> None:
    import configparser

    _tree(tmp_path, {"setup.cfg": "[tvm]\ntarget = llvm -mcpu=skylake\n"})
    assert run("fix", "--add-ignore", "--quiet", "setup.cfg")[0] == 0
    written = (tmp_path / "setup.cfg").read_text()
    assert written == "[tvm]\n# targetlang: ignore[text-target]\ntarget = llvm -mcpu=skylake\n"
    parser = configparser.ConfigParser()
    parser.read(tmp_path / "setup.cfg")
    assert parser["tvm"]["target"] == "llvm -mcpu=skylake"
    assert run("fix", "--check", "setup.cfg") == (0, "", "0 findings in 1 file, 0 fixable; 0 files would change\n")


# ------------------------------------------------------------------ no comment inside a string, heredoc, block scalar

INSIDE = [
    pytest.param(
        "pyproject.toml",
        '[tool.x]\nscript = """\nset -e\ntvmc compile --target "llvm -mcpu=a" m.onnx\n"""\n',
        4,
        id="toml-basic-multi-line",
    ),
    pytest.param(
        "pyproject.toml",
        "[tool.x]\nscript = '''\ntvmc compile --target \"llvm -mcpu=a\" m.onnx'''\n",
        3,
        id="toml-literal-multi-line-closing-on-the-line",
    ),
    pytest.param("run.sh", 'cat <<EOF > job.sh\ntvmc compile --target "llvm -mcpu=a" m.onnx\nEOF\n', 2, id="heredoc"),
    pytest.param(
        "run.sh",
        "cat <<-'END' > job.sh\n\ttvmc compile --target \"llvm -mcpu=a\" m.onnx\n\tEND\necho done\n",
        2,
        id="heredoc-quoted-tab-stripped",
    ),
    pytest.param(
        "run.sh",
        'python -c "\nimport os\n" --target "llvm -mcpu=a"\n',
        3,
        id="shell-string-closing-on-the-line",
    ),
    pytest.param(
        "ci.yaml",
        'jobs:\n  build:\n    steps:\n      - run: |\n          tvmc compile --target "llvm -mcpu=a" m.onnx\n'
        "      - run: echo done\n",
        5,
        id="yaml-literal-block",
    ),
    pytest.param(
        "ci.yaml",
        'steps:\n  - >-\n    tvmc compile --target "llvm -mcpu=a" m.onnx\n  - echo done\n',
        3,
        id="yaml-folded-block-in-a-list",
    ),
]


def _read_back(name: str, text: str, tmp_path: Path) -> object:
    """What a file's own reader makes of it: TOML's data, YAML's, a shell script's output."""
    if name.endswith(".toml"):
        import tomllib

        return tomllib.loads(text)
    if name.endswith(".yaml"):
        yaml = pytest.importorskip("yaml")
        return yaml.safe_load(text)
    import subprocess

    script = tmp_path / "read_back.sh"
    script.write_text(text.replace("> job.sh", ""))
    assert subprocess.run(["bash", "-n", str(script)], check=False).returncode == 0
    return subprocess.run(["bash", str(script)], capture_output=True, text=True, cwd=tmp_path, check=False).stdout


@pytest.mark.parametrize(("name", "source", "line"), INSIDE)
def test_add_ignore_writes_no_comment_inside_a_string(
    run: Run, tmp_path: Path, name: str, source: str, line: int
) -> None:
    assert add_ignores(source, PurePath(name).suffix, [(line, "text-target")]) == (source, [(line, "text-target")])
    _tree(tmp_path, {name: source})
    status, _, err = run("fix", "--add-ignore", name)
    assert status == 1
    assert f"{name}:{line}:" in err and "--add-ignore found no place for a comment here" in err
    assert (tmp_path / name).read_text() == source
    assert _read_back(name, (tmp_path / name).read_text(), tmp_path) == _read_back(name, source, tmp_path)


def test_add_ignore_after_a_heredoc_comments_the_next_command(run: Run, tmp_path: Path) -> None:
    source = 'cat <<EOF\n--target "llvm -mcpu=a"\nEOF\ntvmc --target "llvm -mcpu=b" m.onnx\n'
    written = add_ignores(source, ".sh", [(2, "text-target"), (4, "text-target")])
    assert written == (
        'cat <<EOF\n--target "llvm -mcpu=a"\nEOF\n'
        'tvmc --target "llvm -mcpu=b" m.onnx  # targetlang: ignore[text-target]\n',
        [(2, "text-target")],
    )
    heredoc = '--target "llvm -mcpu=a"\n'
    assert _read_back("run.sh", written[0], tmp_path) == _read_back("run.sh", source, tmp_path) == heredoc


@pytest.mark.parametrize(
    ("suffix", "text", "starts", "inside"),
    [
        pytest.param(".sh", "echo 'a # b' # c\necho a#b\n", [13, None], [], id="shell-quotes-and-words"),
        pytest.param(".sh", 'echo "a \\" # b" # c\n', [16], [], id="shell-escaped-double-quote"),
        pytest.param(".sh", "cat <<A <<-B\na # x\nA\n\tb\n\tB\n# c\n", [None] * 5 + [0], [2, 3, 4, 5], id="heredocs"),
        pytest.param(".sh", "echo $((1<<2)) # c\n", [15], [], id="a-shift-is-no-heredoc"),
        pytest.param(".yaml", "a: it's # c\nb: 'it''s # x' # c\n", [8, 15], [], id="yaml-apostrophe-and-escape"),
        pytest.param(".yaml", 'a: "x\n  # y" # c\n', [None, 7], [1, 2], id="yaml-quoted-over-lines"),
        pytest.param(
            ".yaml", "- a: |+2 # c\n    x # y\n\n- b\n", [9, None, None, None], [2, 3], id="yaml-block-in-a-list"
        ),
        pytest.param(".toml", 'a = "x#y"#c\nb = """\n# y\n\'"""" # c\n', [9, None, None, 6], [2, 3, 4], id="toml"),
        pytest.param(".cfg", "[a]\n; c\nb = x # y\n  # d\n", [None, 0, None, 0], [], id="ini-whole-lines"),
        pytest.param(".md", "don't # c\nsay 'a # b' # c\n", [6, 12], [], id="prose-apostrophe"),
    ],
)
def test_where_comments_stand(suffix: str, text: str, starts: list[int | None], inside: list[int]) -> None:
    found = hash_comments(text.splitlines(), suffix)
    assert list(found.starts) == starts
    assert sorted(found.inside) == inside
