"""Every place a shell script, a configuration file or a document keeps a target, found:
``text-target`` and the Python code blocks of documents (and of a tutorial's comments)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from targetlang.fix import Finding, _commented_block, fix_source
from targetlang.fix._comment_blocks import fix_comments

from .conftest import examples

PLACES = Path(__file__).parent / "data" / "fix" / "places"
LLVM_A = '{"kind": "llvm", "mcpu": "a"}'
CUDA = '{"kind": "cuda", "arch": "sm_80"}'
NEON = '{"kind": "llvm", "mtriple": "aarch64-linux-gnu", "mattr": ["+neon"]}'

Found = tuple[int, int, str, str, str | None]  # line, column, rule, before, after


def found(findings: tuple[Finding, ...] | list[Finding]) -> list[Found]:
    return [(f.line, f.column, f.rule, f.before, f.after) for f in findings]


# (id, path, text, the findings: line, column, rule, before, after)
CASES: list[tuple[str, str, str, list[Found]]] = [
    (
        "shell: a variable holding a legacy target",
        "run.sh",
        'TARGET="llvm -mcpu=a"\n',
        [(1, 1, "text-target", 'TARGET="llvm -mcpu=a"', f"TARGET='{LLVM_A}'")],
    ),
    (
        "shell: export TVM_TARGET, single quotes",
        "run.sh",
        "export TVM_TARGET='cuda -arch=sm_80'\n",
        [(1, 8, "text-target", "TVM_TARGET='cuda -arch=sm_80'", f"TVM_TARGET='{CUDA}'")],
    ),
    (
        "shell: a variable holding a bare kind is no finding",
        "run.sh",
        "TARGET=llvm\nDEVICE=cuda\n",
        [],
    ),
    (
        "shell: a variable holding no target",
        "run.sh",
        'CFLAGS="-O2 -g"\nMSG="llvm is used"\n',
        [],
    ),
    (
        "shell: --target= with backslash-escaped spaces",
        "run.sh",
        "tvmc compile --target=cuda\\ -arch=sm_80 m.onnx\n",
        [(1, 14, "text-target", "--target=cuda\\ -arch=sm_80", f"--target='{CUDA}'")],
    ),
    (
        "shell: tvmc's -t",
        "run.sh",
        'tvmc compile -t "llvm -mcpu=a" -o m.tar m.onnx\n',
        [(1, 14, "text-target", '-t "llvm -mcpu=a"', f"-t '{LLVM_A}'")],
    ),
    (
        "shell: another tool's -t is no target",
        "run.sh",
        "docker run -t ubuntu bash\nsort -t , -k 2 f\n",
        [],
    ),
    (
        "shell: python -c in single quotes, the fix as it stands in them",
        "run.sh",
        "python3 -c 'import tvm; tvm.target.Target(\"llvm -mcpu=a\")'\n",
        [(1, 43, "target-string", '"llvm -mcpu=a"', LLVM_A)],
    ),
    (
        "shell: python -c in double quotes, the fix escaped for them",
        "run.sh",
        'python -c "import tvm; print(tvm.target.Target(\\"cuda -arch=sm_80\\"))"\n',
        [
            (
                1,
                48,
                "target-string",
                '\\"cuda -arch=sm_80\\"',
                '{\\"kind\\": \\"cuda\\", \\"arch\\": \\"sm_80\\"}',
            )
        ],
    ),
    (
        "shell: TVM_TEST_TARGETS as before",
        "ci.sh",
        'export TVM_TEST_TARGETS="llvm -mcpu=a;cuda"\n',
        [(1, 8, "text-target", 'TVM_TEST_TARGETS="llvm -mcpu=a;cuda"', f"TVM_TEST_TARGETS='{LLVM_A};cuda'")],
    ),
    (
        "YAML: any key holding a legacy target",
        "c.yaml",
        "tuning:\n  tvm_target: llvm -mcpu=a  # the build machine\n  name: llvm\n",
        [(2, 3, "text-target", "tvm_target: llvm -mcpu=a", f"tvm_target: '{LLVM_A}'")],
    ),
    (
        "YAML: a block list's items",
        "c.yml",
        "targets:\n  - llvm -mcpu=a\n  - cuda\n  - 'cuda -arch=sm_80'\n",
        [
            (2, 5, "text-target", "llvm -mcpu=a", f"'{LLVM_A}'"),
            (4, 5, "text-target", "'cuda -arch=sm_80'", f"'{CUDA}'"),
        ],
    ),
    (
        "YAML: a flow list",
        "c.yaml",
        'targets: ["llvm -mcpu=a", "cuda"]\n',
        [(1, 11, "text-target", '"llvm -mcpu=a"', f"'{LLVM_A}'")],
    ),
    (
        "YAML: a bare kind under target stays no finding",
        "c.yaml",
        "target: cuda\n",
        [],
    ),
    (
        "TOML: host_target and a list",
        "tune.toml",
        '[build]\nhost_target = "llvm -mcpu=a"\ntargets = [\n  "cuda -arch=sm_80",\n  "llvm",\n]\n',
        [
            (2, 1, "text-target", 'host_target = "llvm -mcpu=a"', f"host_target = '{LLVM_A}'"),
            (4, 3, "text-target", '"cuda -arch=sm_80"', f"'{CUDA}'"),
        ],
    ),
    (
        "INI: any key, unquoted",
        "setup.cfg",
        "[tvm]\nhost_target = llvm -mcpu=a ; the host\n",
        [(2, 1, "text-target", "host_target = llvm -mcpu=a", f"host_target = {LLVM_A}")],
    ),
    (
        "JSON: a key, the JSON written as a JSON string",
        "c.json",
        '{"target": "cuda -arch=sm_80", "name": "llvm"}\n',
        [
            (
                1,
                2,
                "text-target",
                '"target": "cuda -arch=sm_80"',
                '"target": "{\\"kind\\": \\"cuda\\", \\"arch\\": \\"sm_80\\"}"',
            )
        ],
    ),
    (
        "JSON: a list's items, not those of a list in it",
        "c.json",
        '{"targets": ["llvm -mcpu=a"], "log": [["x", "llvm -mcpu=b"]]}\n',
        [(1, 14, "text-target", '"llvm -mcpu=a"', '"{\\"kind\\": \\"llvm\\", \\"mcpu\\": \\"a\\"}"')],
    ),
    (
        "Markdown: a JSON block",
        "README.md",
        'Config:\n\n```json\n{"target": "cuda -arch=sm_80"}\n```\n',
        [
            (
                4,
                2,
                "text-target",
                '"target": "cuda -arch=sm_80"',
                '"target": "{\\"kind\\": \\"cuda\\", \\"arch\\": \\"sm_80\\"}"',
            )
        ],
    ),
    (
        "Markdown: a YAML block",
        "README.md",
        "```yaml\nbuild:\n  tvm_target: llvm -mcpu=a\n```\n",
        [(3, 3, "text-target", "tvm_target: llvm -mcpu=a", f"tvm_target: '{LLVM_A}'")],
    ),
    (
        "Markdown: a shell block's variable",
        "README.md",
        '```bash\nexport TVM_TARGET="cuda -arch=sm_80"\n```\n',
        [(2, 8, "text-target", 'TVM_TARGET="cuda -arch=sm_80"', f"TVM_TARGET='{CUDA}'")],
    ),
    (
        "Markdown: a fence with attributes (d2l)",
        "README.md",
        '# T\n\n```{.python .input}\nt = tvm.target.Target("llvm -mcpu=a")\n```\n',
        [(4, 23, "target-string", '"llvm -mcpu=a"', LLVM_A)],
    ),
    (
        "Markdown: a block run by another language's cell magic is read as text",
        "chapter.md",
        '```python\n%%bash\ntvmc compile --target="llvm -mcpu=a" m.onnx\n```\n',
        [(3, 14, "text-target", '--target="llvm -mcpu=a"', f"--target='{LLVM_A}'")],
    ),
    (
        "Markdown: a fence of {python}",
        "README.md",
        '```{python}\nt = Target("llvm -mcpu=a")\n```\n',
        [(2, 12, "target-string", '"llvm -mcpu=a"', LLVM_A)],
    ),
    (
        "Markdown: a pycon fence",
        "README.md",
        "```pycon\n>>> t = Target(\"llvm -mcpu=a\")\n>>> str(t)\n'llvm -mcpu=a'\n```\n",
        [(2, 16, "target-string", '"llvm -mcpu=a"', LLVM_A)],
    ),
    (
        "Markdown: an indented code block",
        "README.md",
        'Build:\n\n    t = Target("llvm -mcpu=a")\n\nDone.\n',
        [(3, 16, "target-string", '"llvm -mcpu=a"', LLVM_A)],
    ),
    (
        "Markdown: an indented block that is no Python is read as text",
        "README.md",
        'Run:\n\n    tvmc compile --target "llvm -mcpu=a" m.onnx\n',
        [(3, 18, "text-target", '--target "llvm -mcpu=a"', f"--target '{LLVM_A}'")],
    ),
    (
        "reStructuredText: a :: literal block",
        "guide.rst",
        'Build it::\n\n    t = Target("cuda -arch=sm_80")\n',
        [(3, 16, "target-string", '"cuda -arch=sm_80"', CUDA)],
    ),
    (
        "reStructuredText: an ipython block",
        "guide.rst",
        ".. ipython:: python\n\n   In [1]: t = Target(\"llvm -mcpu=a\")\n\n   In [2]: t.kind.name\n   Out[2]: 'llvm'\n",
        [(3, 23, "target-string", '"llvm -mcpu=a"', LLVM_A)],
    ),
    (
        "reStructuredText: a doctest, continued",
        "guide.rst",
        "Try:\n\n   >>> t = Target(\n   ...     \"llvm -mcpu=a\")\n   >>> t.kind.name\n   'llvm'\n",
        [(4, 12, "target-string", '"llvm -mcpu=a"', LLVM_A)],
    ),
    (
        "reStructuredText: a code-block of JSON",
        "guide.rst",
        '.. code-block:: json\n\n   {\n     "target": "cuda -arch=sm_80"\n   }\n',
        [
            (
                4,
                6,
                "text-target",
                '"target": "cuda -arch=sm_80"',
                '"target": "{\\"kind\\": \\"cuda\\", \\"arch\\": \\"sm_80\\"}"',
            )
        ],
    ),
]


@pytest.mark.parametrize(("path", "text", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_each_place_is_found(path: str, text: str, expected: list[Found]) -> None:
    result = fix_source(text, path=path)
    assert found(result.findings) == expected
    assert result.text == text  # reported only (a document's Python too, without docs)


# (id, path, text, the text with docs=True)
DOC_FIXES: list[tuple[str, str, str, str]] = [
    (
        "a fence with attributes",
        "README.md",
        '```{.python .input}\nt = Target("llvm -mcpu=a")\n```\n',
        f"```{{.python .input}}\nt = Target({LLVM_A})\n```\n",
    ),
    (
        "a d2l-style block with IPython lines: they stay as they were",
        "chapter.md",
        '```{.python .input  n=1}\n%matplotlib inline\n!pip install tvm\nt = Target("llvm -mcpu=a")\n```\n',
        f"```{{.python .input  n=1}}\n%matplotlib inline\n!pip install tvm\nt = Target({LLVM_A})\n```\n",
    ),
    (
        "a Markdown fence with CRLF line endings",
        "windows.md",
        'x\r\n\r\n```python\r\nt = Target("llvm -mcpu=a")\r\n```\r\n',
        f"x\r\n\r\n```python\r\nt = Target({LLVM_A})\r\n```\r\n",
    ),
    (
        "a reST literal block with CRLF line endings",
        "windows.rst",
        'Build it::\r\n\r\n    t = Target("cuda -arch=sm_80")\r\n\r\nText.\r\n',
        f"Build it::\r\n\r\n    t = Target({CUDA})\r\n\r\nText.\r\n",
    ),
    (
        "a blank line of spaces in a fixed block stays as it was",
        "chapter.md",
        '```python\nwith tvm.target.create("cuda"):\n    \n    x = 1\n```\n',
        '```python\nwith tvm.target.Target("cuda"):\n    \n    x = 1\n```\n',
    ),
    (
        "a fenced block indented as a whole keeps its indent",
        "chapter.md",
        '```python\n  with tvm.target.create("cuda"):\n      \n      x = 1\n```\n',
        '```python\n  with tvm.target.Target("cuda"):\n      \n      x = 1\n```\n',
    ),
    (
        "a session: the fix under the prompts, the expected output left alone",
        "README.md",
        '```pycon\n>>> t = Target("llvm -mcpu=a")\n>>> print(t)\nllvm -mcpu=a\n```\n',
        f"```pycon\n>>> t = Target({LLVM_A})\n>>> print(t)\nllvm -mcpu=a\n```\n",
    ),
    (
        "an indented doctest, its continuation line fixed",
        "guide.rst",
        'Try:\n\n   >>> t = Target(\n   ...     "llvm -mcpu=a")\n   >>> t\n   llvm -mcpu=a\n',
        f"Try:\n\n   >>> t = Target(\n   ...     {LLVM_A})\n   >>> t\n   llvm -mcpu=a\n",
    ),
    (
        "an ipython block",
        "guide.rst",
        '.. ipython:: python\n\n   In [1]: t = Target("llvm -mcpu=a")\n\nText.\n',
        f".. ipython:: python\n\n   In [1]: t = Target({LLVM_A})\n\nText.\n",
    ),
    (
        "a literal block, its indent kept",
        "guide.rst",
        'Build it::\n\n    t = Target("cuda -arch=sm_80")\n\nText.\n',
        f"Build it::\n\n    t = Target({CUDA})\n\nText.\n",
    ),
]


LONG = '"llvm -mtriple=aarch64-linux-gnu -mcpu=cortex-a78 -mattr=+neon,+dotprod -num-cores=4"'
SPLIT = [
    "{",
    '    "kind": "llvm",',
    '    "mtriple": "aarch64-linux-gnu",',
    '    "mcpu": "cortex-a78",',
    '    "mattr": ["+neon", "+dotprod"],',
    '    "num-cores": 4,',
    "}",
]
DOC_FIXES += [
    (
        "two statements changed side by side: each under its own prompt",
        "README.md",
        '```pycon\n>>> a = Target("llvm -mcpu=a")\n>>> b = Target("cuda -arch=sm_80")\n```\n',
        f"```pycon\n>>> a = Target({LLVM_A})\n>>> b = Target({CUDA})\n```\n",
    ),
    (
        "a fix split over lines: continuation prompts",
        "README.md",
        f"```pycon\n>>> t = tvm.target.Target({LONG})\n>>> t.kind.name\n'llvm'\n```\n",
        "```pycon\n>>> t = tvm.target.Target(\n"
        + "".join(f"...     {row}\n" for row in SPLIT)
        + "... )\n>>> t.kind.name\n'llvm'\n```\n",
    ),
    (
        "a fix split over lines in IPython: its ...: prompts",
        "guide.rst",
        f".. ipython:: python\n\n   In [1]: t = tvm.target.Target({LONG})\n\n   In [2]: t\n",
        ".. ipython:: python\n\n   In [1]: t = tvm.target.Target(\n"
        + "".join(f"      ...:     {row}\n" for row in SPLIT)
        + "      ...: )\n\n   In [2]: t\n",
    ),
]


@pytest.mark.parametrize(("path", "text", "fixed"), [c[1:] for c in DOC_FIXES], ids=[c[0] for c in DOC_FIXES])
def test_a_documents_python_is_fixed_with_docs(path: str, text: str, fixed: str) -> None:
    result = fix_source(text, path=path, docs=True)
    assert result.text == fixed
    assert all(f.applied for f in result.findings) and result.findings


TUTORIAL = """\
import tvm

######################################################################
# Cross compile
# -------------
#
# .. code-block:: python
#
#       target = tvm.target.Target(
#           "llvm -mtriple=aarch64-linux-gnu -mattr=+neon"
#       )
#
x = 1
"""


def test_a_tutorials_comment_block_is_read_as_a_documents_block() -> None:
    result = fix_source(TUTORIAL, path="tutorial.py")
    assert found(result.findings) == [(10, 13, "target-string", '"llvm -mtriple=aarch64-linux-gnu -mattr=+neon"', NEON)]
    assert result.findings[0].message.endswith("(--docs fixes it)") and not result.findings[0].applied
    assert result.text == TUTORIAL
    fixed = fix_source(TUTORIAL, path="tutorial.py", docs=True)
    assert fixed.text == TUTORIAL.replace('"llvm -mtriple=aarch64-linux-gnu -mattr=+neon"', NEON)
    assert [f.applied for f in fixed.findings] == [True]


def test_only_comment_runs_with_a_block_marker_are_read() -> None:
    text = '# t = Target("llvm -mcpu=a")\nx = 1\n'
    assert fix_source(text, path="m.py", docs=True).findings == ()


def test_the_tvm_tutorials_block_is_given_to_the_python_fixer_at_its_lines() -> None:
    source = (PLACES / "cross_compilation_and_rpc.py").read_text(encoding="utf-8")
    given: list[tuple[str, int]] = []

    def recorder(block: str, line: int) -> tuple[str, list[Finding]]:
        given.append((block, line))
        return block, []

    assert fix_comments(source, source, recorder) == (source, [])
    neon = [(block, line) for block, line in given if '"mattr": "+neon"' in block]
    assert len(neon) == 1
    block, first = neon[0]
    rows = block.split("\n")
    at = next(i for i, row in enumerate(rows) if "+neon" in row)
    assert rows[at - 1 : at + 2] == [
        "target = tvm.target.Target(",
        '    {"kind": "llvm", "mtriple": "aarch64-linux-gnu", "mattr": "+neon"}',
        ")",
    ]
    assert first + at == 734  # the file's line of the dict
    assert (
        source.split("\n")[733].strip()
        == '#           {"kind": "llvm", "mtriple": "aarch64-linux-gnu", "mattr": "+neon"}'
    )


# (the file in tests/data/fix/places, the name it is read as, the findings: line, column, before)
REAL: list[tuple[str, str, list[tuple[int, int, str]]]] = [
    (
        "task_python_adreno.sh",
        "task_python_adreno.sh",
        [(22, 8, 'TVM_RELAY_OPENCL_TEXTURE_TARGETS="opencl -device=adreno"')],
    ),
    (
        "test_config.json",
        "test_config.json",
        [(5, 3, '"target": "llvm -mtriple=aarch64-linux-gnu -mattr=+neon"')],
    ),
    (
        "arm_compute_lib.rst",
        "arm_compute_lib.rst",
        [
            (130, 14, '"llvm -mtriple=aarch64-linux-gnu -mattr=+neon"'),
            (182, 7, '"target": "llvm -mtriple=aarch64-linux-gnu -mattr=+neon"'),
        ],
    ),
    (
        "adreno.rst",
        "adreno.rst",
        [
            (90, 77, 'target="opencl -device=adreno"'),
            (409, 36, '--target="opencl -device=adreno"'),
            (410, 4, '--target-host="llvm -mtriple=aarch64-linux-gnu"'),
        ],
    ),
    (
        "cpp_rtvm_README.md",
        "README.md",
        [
            (52, 51, '--target-host="llvm -mtriple=aarch64-linux-gnu"'),
            (61, 1, '--target-host="llvm -mtriple=aarch64-linux-gnu"'),
            (310, 3, '--target="opencl -device=adreno"'),
            (311, 3, '--target-host="llvm -mtriple=aarch64-linux-gnu"'),
            (337, 55, '--target="opencl -device=adreno"'),
            (337, 88, '--target-host="llvm -mtriple=aarch64-linux-gnu"'),
        ],
    ),
]


CUDA_XAVIER = (
    '--target "cuda -keys=cuda,gpu -libs=cudnn,cublas -arch=sm_72 -max_num_threads=1024 -max_threads_per_block=1024 '
    '-registers_per_block=65536 -shared_memory_per_block=49152 -thread_warp_size=32"'
)
REAL += [
    ("tensorflow-pet-dataset-client-server.yml", "c.yml", [(20, 5, "target: llvm -mcpu=core-avx2")]),
    ("yolact-tvm-gpu-detection.yml", "c.yml", [(17, 5, 'target: "cuda -libs=cudnn,cublas"')]),
    (
        "jetson-agx-xavier-tvm-darknet-client.sh",
        "client.sh",
        [(16, 5, CUDA_XAVIER), (17, 5, '--target-host "llvm -mtriple=aarch64-linux-gnu"')],
    ),
    (
        "resnet50-tvm-jetson-agx-orin-fp16.json",
        "c.json",
        [(40, 17, '"target": "cuda -arch=sm_87 -libs=cudnn,cublas"')],
    ),
]


@pytest.mark.parametrize(("file", "name", "expected"), REAL, ids=[r[0] for r in REAL])
def test_the_targets_of_real_files_are_found(file: str, name: str, expected: list[tuple[int, int, str]]) -> None:
    text = (PLACES / file).read_text(encoding="utf-8")
    result = fix_source(text, path=name)
    assert [(f.line, f.column, f.before) for f in result.findings] == expected
    lines = text.split("\n")
    for finding in result.findings:  # each where it says it is
        assert lines[finding.line - 1].startswith(finding.before, finding.column - 1)
    assert result.text == text


def test_the_json_of_a_real_config_is_written_as_a_json_string() -> None:
    text = (PLACES / "test_config.json").read_text(encoding="utf-8")
    (finding,) = fix_source(text, path="test_config.json").findings
    assert finding.after == (
        '"target": "{\\"kind\\": \\"llvm\\", \\"mtriple\\": \\"aarch64-linux-gnu\\", \\"mattr\\": [\\"+neon\\"]}"'
    )


_WITHOUT_LIBCST = "import sys; sys.modules['libcst'] = None; from targetlang.__main__ import run; sys.exit(run())"


def _without_libcst(tmp_path: Path, *args: str) -> tuple[int, str, str]:
    done = subprocess.run(
        [sys.executable, "-c", _WITHOUT_LIBCST, *args], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    return done.returncode, done.stdout, done.stderr


def test_text_files_are_read_without_libcst(tmp_path: Path) -> None:
    (tmp_path / "run.sh").write_text('tvmc compile --target "llvm -mcpu=a" m.onnx\n', encoding="utf-8")
    (tmp_path / "c.yaml").write_text("tvm_target: cuda -arch=sm_80\n", encoding="utf-8")
    (tmp_path / "r.md").write_text('# T\n\n```python\nt = Target("llvm -mcpu=a")\n```\n', encoding="utf-8")
    status, out, err = _without_libcst(tmp_path, "fix", "--check", "run.sh", "c.yaml", "r.md")
    assert status == 1, err
    assert out.splitlines() == [
        "run.sh:1:14: text-target [report-only] legacy target string (write the JSON; TVM >= 0.24 reads no other form)",
        f"  write: --target '{LLVM_A}'",
        "c.yaml:1:1: text-target [report-only] legacy target string (write the JSON; TVM >= 0.24 reads no other form)",
        f"  write: tvm_target: '{CUDA}'",
        "r.md:4:12: text-target [report-only] legacy target string (write the JSON; TVM >= 0.24 reads no other form)"
        " (LibCST would fix this Python: pip install 'targetlang[fix]')",
        f"  write: {LLVM_A}",
    ]


def test_a_python_file_still_needs_libcst(tmp_path: Path) -> None:
    (tmp_path / "run.sh").write_text("echo\n", encoding="utf-8")
    (tmp_path / "m.py").write_text("x = 1\n", encoding="utf-8")
    message = "error: targetlang fix rewrites Python with LibCST: pip install 'targetlang[fix]'\n"
    assert _without_libcst(tmp_path, "fix", "--check", ".") == (2, "", message)
    assert _without_libcst(tmp_path, "fix", "--check", "run.sh") == (
        0,
        "",
        "0 findings in 1 file, 0 fixable; 0 files would change\n",
    )


def test_the_tvm_tutorials_mattr_is_found_in_its_comments_and_fixed_with_docs() -> None:
    # the rule is target-attr-type's; what is tested here is that the block reaches it, at the
    # file's line and column, and that its fix goes back under the same "#" prefix
    source = (PLACES / "cross_compilation_and_rpc.py").read_text(encoding="utf-8")
    result = fix_source(source, path="cross_compilation_and_rpc.py")
    assert [(f.line, f.column, f.rule, f.before, f.after, f.applied) for f in result.findings] == [
        (734, 75, "target-attr-type", '"+neon"', '["+neon"]', False)
    ]
    fixed = fix_source(source, path="cross_compilation_and_rpc.py", docs=True).text
    before = '    #           {"kind": "llvm", "mtriple": "aarch64-linux-gnu", "mattr": "+neon"}\n'
    after = '    #           {"kind": "llvm", "mtriple": "aarch64-linux-gnu", "mattr": ["+neon"]}\n'
    assert source.count(before) == 1 and fixed == source.replace(before, after)


def test_a_session_s_unsafe_reason_names_the_document_s_line() -> None:
    # the use that keeps the fix unsafe is print(t), on the document's line 5 (the session's 2nd)
    text = '# T\n\n```pycon\n>>> t = "llvm -mcpu=a"\n>>> print(t)\nllvm -mcpu=a\n>>> Target(t)\n```\n'
    [finding] = fix_source(text, path="s.md").findings
    assert (finding.line, finding.column, finding.safety) == (4, 9, "unsafe")
    assert finding.reason == "at line 5, passed to print(), which the table of target APIs does not know"
    assert "not safe: at line 5, passed to print()" in finding.message
    assert [(use.line, use.kind) for use in finding.uses] == [(4, "export"), (5, "call"), (7, "target")]


_COMMENT_PIECES = st.sampled_from(["#", " ", "\t", "\n", "\r", "x", "::", ":", "``", "`", "code-block", "code", "-"])


@settings(max_examples=examples(400), deadline=None)
@given(st.lists(_COMMENT_PIECES, max_size=20).map("".join))
def test_a_commented_block_is_told_as_a_comment_line_with_a_marker(text: str) -> None:
    # (what fix_source asks before reading a file's comments for code blocks)
    expected = re.search(r"^[ \t]*#.*(?:code-block|::|```)", text, re.MULTILINE) is not None
    assert _commented_block(text) == expected
