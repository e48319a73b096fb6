"""docs/fix.md runs as written: its before/after examples, its reports, its console sessions.

The page's fenced blocks are read by their info strings:

* ``<lang> before`` starts an example; the ``after``/``report`` blocks that follow it in the same
  section (up to the next ``before``) belong to it.
* ``python after`` is what ``fix_source(before)`` gives; ``python after unsafe`` what it gives
  with ``unsafe=True`` (and not without).
* ``text report`` is exactly what ``targetlang fix --check FILE`` prints on standard output,
  ``FILE`` (the path of its first line) holding the ``before`` block.
* ``console`` is a shell session run with ``targetlang._cli.main`` in an empty directory:
  ``$ cat FILE`` writes the lines shown to ``FILE``, ``$ echo TEXT | targetlang ...`` feeds
  ``TEXT`` to standard input, ``$ echo $?`` checks the last status, and every ``targetlang``
  command must print exactly the lines shown (standard output, then standard error, as a
  terminal shows a run of one file).
* ``pycon`` is a doctest.
"""

from __future__ import annotations

import argparse
import doctest
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from targetlang.fix import RULES, fix_source
from targetlang.fix._apis import EVERY_POSITIONAL, TARGET_APIS
from targetlang.fix._properties import REMOVED_PROPERTIES

from .conftest import Run
from .doc_refresh import shown
from .test_cli import replay, transcript

DOC = Path(__file__).resolve().parents[1] / "docs" / "fix.md"
RULE_DOCS = Path(__file__).resolve().parents[1] / "targetlang" / "data" / "rules"

_FENCE = re.compile(r"^(?P<fence>`{3,}|~{3,})(?P<info>[^`\n]*)$")


@dataclass(frozen=True)
class Block:
    """A fenced block: the section it is in (the ``## `` heading), its info words, its text."""

    section: str
    info: tuple[str, ...]
    text: str
    line: int

    @property
    def where(self) -> str:
        return f"docs/fix.md:{self.line} ({self.section})"


@dataclass
class Example:
    before: Block
    results: list[Block] = field(default_factory=list)


def blocks(text: str) -> list[Block]:
    """Every fenced block of a Markdown text, a longer fence holding shorter ones."""
    found: list[Block] = []
    section = ""
    lines = text.split("\n")
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.startswith("## "):
            section = line[3:].strip()
        opening = _FENCE.match(line)
        if opening is None:
            index += 1
            continue
        fence = opening["fence"]
        body: list[str] = []
        index += 1
        while index < len(lines) and not (
            lines[index].startswith(fence[0] * len(fence)) and not lines[index].strip(fence[0]).strip()
        ):
            body.append(lines[index])
            index += 1
        found.append(Block(section, tuple(opening["info"].split()), "".join(b + "\n" for b in body), index - len(body)))
        index += 1
    return found


BLOCKS = blocks(DOC.read_text(encoding="utf-8"))


def examples() -> list[Example]:
    found: list[Example] = []
    current: Example | None = None
    for block in BLOCKS:
        if block.info[1:2] == ("before",):
            current = Example(block)
            found.append(current)
        elif block.info[1:2] in (("after",), ("report",)):
            assert current is not None and current.before.section == block.section, f"{block.where}: no before"
            current.results.append(block)
        else:
            current = None
    return found


EXAMPLES = examples()
PAIRS = [(example.before, block) for example in EXAMPLES for block in example.results]
PYTHON_PAIRS = [(before, block) for before, block in PAIRS if block.info[:2] == ("python", "after")]
REPORTS = [(before, block) for before, block in PAIRS if block.info[1] == "report"]
CONSOLES = [block for block in BLOCKS if block.info == ("console",)]


def test_the_page_has_examples_of_every_kind() -> None:
    assert len(PYTHON_PAIRS) >= 9 and len(REPORTS) >= 4 and len(CONSOLES) >= 6
    assert all(example.results for example in EXAMPLES), [e.before.where for e in EXAMPLES if not e.results]
    assert {before.section for before, after in PYTHON_PAIRS if after.info[2:] == ("unsafe",)} >= {
        "target-string",
        "target-helper",
        "canon-target",
        "target-property",
    }
    for block in BLOCKS:
        if block.info[1:2] == ("after",):
            assert block.info[0] == "python" and block.info[2:] in ((), ("unsafe",)), block.where


def test_every_rule_has_a_section() -> None:
    sections = {block.section for block in BLOCKS}
    headings = re.findall(r"^## (.+)$", DOC.read_text(encoding="utf-8"), re.MULTILINE)
    for rule in RULES:
        assert rule in headings, f"docs/fix.md has no section '## {rule}'"
        assert rule in sections, f"section {rule} has no example"
    assert "Proven on TVM's own migration" in headings


@pytest.mark.parametrize(("before", "after"), PYTHON_PAIRS, ids=[f"{b.section}:{b.line}" for b, _ in PYTHON_PAIRS])
def test_python_example(before: Block, after: Block) -> None:
    unsafe = after.info[2:] == ("unsafe",)
    # as for a project of no line length of its own (88)
    result = fix_source(before.text, path="example.py", unsafe=unsafe, line_length=88)
    assert result.text == after.text, after.where
    assert before.section in [finding.rule for finding in result.findings], before.where
    if unsafe:  # the example shows a fix that needs --unsafe-fixes
        assert fix_source(before.text, path="example.py", line_length=88).text != after.text, after.where
    again = fix_source(result.text, path="example.py", unsafe=unsafe, line_length=88)
    assert again.text == result.text  # nothing left to fix


@pytest.mark.parametrize(("before", "report"), REPORTS, ids=[f"{b.section}:{b.line}" for b, _ in REPORTS])
def test_report_example(
    before: Block, report: Block, run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = report.text.split(":", 1)[0]
    assert "/" not in name and name, report.where
    (tmp_path / name).write_text(before.text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    status, out, err = run("fix", "--check", name)
    for page in _pages(report.section):
        shown(page, report.text, out, report.where)
    assert status == 1 and err.endswith("would change\n"), report.where
    assert f": {before.section} [" in report.text, report.where


@pytest.mark.parametrize("block", CONSOLES, ids=[f"{b.section or 'top'}:{b.line}" for b in CONSOLES])
def test_console_example(block: Block, run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert block.text.startswith("$ "), f"{block.where}: output before any command"
    monkeypatch.chdir(tmp_path)
    replay(transcript(block.text.split("\n")[:-1]), run, block.where, _pages(block.section), stdout_first=True)


def _pages(section: str) -> list[Path]:
    """Where a block of the page's ``section`` is written: the page, and the rule's own file for
    a rule's section (the page holds a copy of it: tests/rule_docs.py)."""
    return [DOC, *([RULE_DOCS / f"{section}.md"] if section in RULES else [])]


def property_table() -> list[str]:
    """The table of removed properties, built from the module the fixes are made from."""
    rows = [
        "| property | TVM 0.27 expression (`t` the target) | note | on TVM >= 0.25 (`--target-version`) |",
        "|---|---|---|---|",
    ]
    for prop in REMOVED_PROPERTIES.values():
        if prop.modern is None:
            modern = "not fixed: reads what v0.23's property read (AttributeError instead of KeyError where both raise)"
        elif prop.modern_always:
            modern = f"always fixed: {prop.modern}"
        else:
            modern = f"fixed unless a `hasattr` test guards the read: {prop.modern}"
        rows.append(f"| `{prop.name}` | `{prop.replacement.format(t='t')}` | {prop.note} | {modern} |")
    return rows


def test_property_table_is_the_module_s() -> None:
    text = DOC.read_text(encoding="utf-8")
    section = text.split("\n## target-property\n", 1)[1].split("\n## ", 1)[0]
    table = [line for line in section.split("\n") if line.startswith("|")]
    assert table == property_table()
    assert len(table) == 2 + 16


def test_python_api_examples() -> None:
    sessions = [block for block in BLOCKS if block.info == ("pycon",)]
    assert sessions
    for block in sessions:
        test = doctest.DocTestParser().get_doctest(block.text, {}, "fix.md", str(DOC), block.line)
        runner = doctest.DocTestRunner()
        runner.run(test)
        assert runner.failures == 0 and runner.tries >= 4, block.where


def test_the_rules_and_options_named_are_real() -> None:
    """Every option of the page's option table is one ``targetlang fix`` has."""
    from targetlang._cli.command_line import _build_parser

    parser = _build_parser()
    text = DOC.read_text(encoding="utf-8")
    table = text.split("| option | what it does |", 1)[1].split("\n\n", 1)[0]
    named = set(re.findall(r"`(--?[\w-]+)", table))
    [commands] = [action for action in parser._actions if isinstance(action, argparse._SubParsersAction)]
    fix = commands.choices["fix"]
    known = {option for action in fix._actions for option in action.option_strings}
    assert named and named <= known, named - known
    assert known - {"-h", "--help"} <= named, known - named


def target_api_table() -> list[str]:
    """The table of target APIs, built from the table the flow reads."""
    rows = ["| API | the arguments that take a target | also named | TVM releases |", "|---|---|---|---|"]
    for api in TARGET_APIS:
        where = ["every positional" if p == EVERY_POSITIONAL else f"positional {p}" for p in api.positions]
        where += [f"`{keyword}=`" for keyword in api.keywords]
        aliases = ", ".join(f"`{alias}`" for alias in api.aliases)
        rows.append(f"| `{api.name}` | {', '.join(where)} | {aliases} | {api.releases} |")
    return rows


def test_target_api_table_is_the_module_s() -> None:
    text = DOC.read_text(encoding="utf-8")
    section = text.split("<!-- begin target-apis -->\n", 1)[1].split("<!-- end target-apis -->", 1)[0]
    assert section.rstrip("\n").split("\n") == target_api_table()


# ------------------------------------------------------------------ documents of many blocks


def _many_blocks(suffix: str, count: int) -> tuple[str, list[tuple[int, int | None, str]]]:
    """A document of ``count`` Python code blocks (Markdown or reStructuredText), the last three
    building a target from a legacy string (and naming one in a comment, the Python fixer's to
    read, not text-target's), then a paragraph and a shell block with a legacy ``--target``
    each; and the findings it holds, (line, column or None, rule), the lines
    counted as they are written."""
    lines: list[str] = ["Title", "=====" if suffix == ".rst" else "", ""]
    expected: list[tuple[int, int | None, str]] = []
    indent = "" if suffix == ".md" else "   "

    def block(language: str, code: list[str], finding: str | None) -> None:
        lines.extend([f"```{language}"] if suffix == ".md" else [f".. code-block:: {language}", ""])
        for line in code:
            lines.append(indent + line)
            if finding == "target-string" and "Target(" in line:
                expected.append((len(lines), None, finding))
            elif finding == "text-target" and "--target" in line:
                expected.append((len(lines), lines[-1].index("--target") + 1, finding))
        lines.extend(["```", ""] if suffix == ".md" else [""])

    for i in range(count):
        lines += [f"Step {i}.", ""]
        if i < count - 3:
            block("python", [f"x = {i}", "print(x + 1)"], None)
        else:
            block(
                "python",
                [
                    "import tvm",
                    '# (tvmc compile --target "llvm -mcpu=core-avx2": a comment, which text-target skips here)',
                    f't = tvm.target.Target("llvm -mcpu=core-avx2 -num-cores={i}")',
                ],
                "target-string",
            )
    command = 'tvmc compile --target "llvm -mcpu=skylake" model.onnx'
    lines += [f"Run ``{command}``.", ""]
    expected.append((len(lines) - 1, lines[-2].index("--target") + 1, "text-target"))
    block("sh", [command], "text-target")
    return "\n".join(lines) + "\n", expected


@pytest.mark.parametrize("suffix", [".md", ".rst"])
def test_the_findings_of_the_last_blocks_of_a_long_document_are_on_their_lines(suffix: str) -> None:
    # Each finding's line was counted from the start of the document, and each block of a
    # reStructuredText document read the rest of it (the square of its length): the lines now
    # come from a table of where the lines start, and a block ends without the rest being read.
    text, expected = _many_blocks(suffix, 1500)
    result = fix_source(text, path="guide" + suffix, docs=True)
    found = [(f.line, f.column if f.rule == "text-target" else None, f.rule) for f in result.findings]
    assert found == expected
    assert [f.applied for f in result.findings] == [True, True, True, False, False]
    written = [f'{{"kind": "llvm", "mcpu": "core-avx2", "num-cores": {i}}}' for i in range(1497, 1500)]
    fixed = result.text.splitlines()
    for (line, _, _), target in zip(expected[:3], written, strict=True):
        assert fixed[line - 1].strip() == f"t = tvm.target.Target({target})"
    assert result.text.count("tvm.target.Target(") == 3 and result.text.count('"llvm -mcpu=skylake"') == 2
