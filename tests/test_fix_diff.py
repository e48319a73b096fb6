"""The diff ``fix`` prints: a right patch whatever the texts, difflib's own for the files of
ordinary size and for the local changes fix makes, in time linear in a long file."""

from __future__ import annotations

import difflib
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from targetlang.fix import _diff
from targetlang.fix._diff import unified_diff

from .conftest import examples

LINES = st.lists(st.sampled_from(["a\n", "b\n", "```\n", "\n", "x = 1\n", "t = T('llvm')\n"]), max_size=80)


def _patched(a: list[str], b: list[str], opcodes: Sequence[tuple[str, int, int, int, int]]) -> list[str]:
    out: list[str] = []
    i = j = 0
    for tag, i1, i2, j1, j2 in opcodes:
        assert (i1, j1) == (i, j), "the opcodes leave a gap or overlap"
        if tag == "equal":
            assert a[i1:i2] == b[j1:j2]
            out += a[i1:i2]
        else:
            out += b[j1:j2]
        i, j = i2, j2
    assert (i, j) == (len(a), len(b))
    return out


@settings(max_examples=examples(400), deadline=None)
@given(LINES, LINES)
def test_the_walk_side_by_side_is_a_right_patch(a: list[str], b: list[str]) -> None:
    original = _diff._WHOLE
    try:
        _diff._WHOLE = 0  # the walk, not difflib whole, however short the texts
        assert _patched(a, b, _diff.opcodes(a, b)) == b
    finally:
        _diff._WHOLE = original


@settings(max_examples=examples(200), deadline=None)
@given(LINES, LINES)
def test_a_file_of_ordinary_size_gets_difflibs_diff(a: list[str], b: list[str]) -> None:
    assert list(unified_diff(a, b, "a/f", "b/f")) == list(difflib.unified_diff(a, b, "a/f", "b/f"))


def _document(blocks: int, fixed: bool) -> list[str]:
    """A Markdown document of ``blocks`` alike Python blocks, each holding one target."""
    lines: list[str] = []
    for k in range(blocks):
        target = '{"kind": "llvm", "mcpu": "x"}' if fixed else '"llvm -mcpu=x"'
        lines += [f"Step {k}:\n", "\n", "```python\n", f"t = Target({target})\n", "```\n", "\n"]
    return lines


@pytest.mark.parametrize("blocks", [1, 2, 700])
def test_the_changes_fix_makes_give_the_diff_of_each_line_on_a_long_file(
    blocks: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # One hunk (the changes are closer than twice the context), each target's line out and in;
    # difflib itself, on 700 blocks, takes the popular fence lines as junk and moves one.
    a, b = _document(blocks, False), _document(blocks, True)
    body: list[str] = []
    for k in range(blocks):
        body += [f" Step {k}:\n", " \n", " ```python\n", '-t = Target("llvm -mcpu=x")\n']
        body += ['+t = Target({"kind": "llvm", "mcpu": "x"})\n', " ```\n", " \n"]
    size = 6 * blocks  # from the first line (three before the first change) to the last
    expected = ["--- a/doc.md\n", "+++ b/doc.md\n", f"@@ -1,{size} +1,{size} @@\n", *body]
    monkeypatch.setattr(_diff, "_WHOLE", 0)
    assert list(unified_diff(a, b, "a/doc.md", "b/doc.md")) == expected
    if blocks < 3:
        assert expected == list(difflib.unified_diff(a, b, "a/doc.md", "b/doc.md"))


def test_a_document_of_32000_changed_blocks_is_diffed_whole() -> None:
    # Before, difflib's search over the whole of both texts took 27 s of a 37 s run at 16,000
    # blocks; this is a correctness check of the long path (its time is in docs/performance.md).
    a, b = _document(32_000, False), _document(32_000, True)
    lines = list(unified_diff(a, b, "a/doc.md", "b/doc.md"))
    assert sum(line.startswith("-t = ") for line in lines) == 32_000
    assert sum(line.startswith("+t = ") for line in lines) == 32_000
    assert lines[-3:] == ['+t = Target({"kind": "llvm", "mcpu": "x"})\n', " ```\n", " \n"]
