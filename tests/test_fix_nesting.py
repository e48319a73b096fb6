"""A file told shallow without tokenizing it nests less than LibCST takes on a thread's stack:
what tokenizing it (:func:`nesting_cost`) would say."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from targetlang.fix._prefilter import hits
from targetlang.fix._python_syntax import MAX_NESTING_COST, nesting_cost, shallow
from targetlang.fix._sparse import sparse

from .conftest import examples

DATA = Path(__file__).parent / "data"

# One-line statements, and the shapes that nest: brackets, chains of operators, of keywords, of
# strings side by side, of attributes and calls, elif chains, a statement over many lines.
_LINES = st.sampled_from(
    [
        "lib = tvm.build(mod, target='llvm -mcpu=core-avx2 -num-cores=1')",
        "x = 1",
        "# a comment (((((",
        "",
        "y = a and b and c or not d",
        "z = ((((((((((1))))))))))",
        "s = 'a' 'b' 'c' 'd' 'e' 'f'",
        "t = a.b.c.d.e.f(1)(2)[3][4]",
        "if a:\n    pass\nelif b:\n    pass\nelif c:\n    pass",
        "@dec(1)\ndef f(a, b=[1, 2]):\n    return a if b else -a",
        "d = {\n    'kind': 'llvm',\n    'mattr': ['+a', '+b'],\n}",
        "a = 1; b = 2; c = [3]",
        "w = x + \\\n    y + z",
        "v = f'{a}{b}' + \"c\"",
    ]
)
_DEEP = st.sampled_from(
    [
        "q = " + " + ".join(["a"] * 300),
        "q = " + " and ".join(["a"] * 300),
        "q = " + "(" * 60 + "1" + ")" * 60,
        "q = " + "not " * 300 + "a",
        "q = [\n" + "".join(f"    a{i} + \n" for i in range(300)) + "    0]",
        "\n".join(["if a:\n    pass"] + ["elif b:\n    pass"] * 300),
    ]
)


def _agrees(text: str) -> None:
    tree = ast.parse(text)
    if shallow(text, tree):
        assert nesting_cost(text, "x.py", 10**9)[0] < MAX_NESTING_COST
    # the sparse view LibCST reads, told shallow by its kept statements alone
    view = sparse(text, tree, hits(text))
    if view is not None and view.shallow:
        assert nesting_cost(view.text, "x.py", 10**9)[0] < MAX_NESTING_COST


def test_a_view_is_shallow_when_what_it_keeps_is() -> None:
    deep = "y = " + "(" * 60 + "1" + ")" * 60
    text = (
        "import tvm\n"
        + "".join(f"x{i} = {i}\n" for i in range(250))
        + f"def f():\n    {deep}\n"
        + 't = tvm.target.Target("llvm -mcpu=a")\n'
    )
    view = sparse(text, ast.parse(text), hits(text))
    assert not shallow(text, ast.parse(text))
    assert view is not None and view.shallow  # (the deep line elided)
    assert nesting_cost(view.text, "x.py", 10**9)[0] < MAX_NESTING_COST
    kept = text.replace("x0 = 0\n", f'x0 = Target("llvm -mcpu=b", {"(" * 60}1{")" * 60})\n')
    view = sparse(kept, ast.parse(kept), hits(kept))
    assert view is not None and not view.shallow  # (a deep line kept: tokenized)


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(_LINES, min_size=150, max_size=400), st.lists(_DEEP, max_size=1), st.integers(0, 400))
def test_a_shallow_file_nests_less_than_libcst_takes(lines: list[str], deep: list[str], at: int) -> None:
    lines[at % len(lines) : at % len(lines)] = deep
    text = "\n".join(lines) + "\n"
    _agrees(text)
    if deep:
        assert nesting_cost(text, "x.py", 10**9)[0] >= MAX_NESTING_COST  # (the shape is deep)
        assert not shallow(text, ast.parse(text))


# Blocks the lines go into: a function, a class, a branch, a loop, a try (with clauses that carry
# brackets of their own), a with, a decorated function.
_BLOCKS = st.sampled_from(
    [
        "def f(a, b=(1, 2)):",
        "class C(Base, metaclass=M):",
        "if (a and b) or c:",
        "for x in [1, 2, (3, 4)]:",
        "try:",
        "with open(x) as f, g((1, 2)):",
        "@dec((1, 2))\n@other\ndef g():",
    ]
)


def _nest(lines: list[str], blocks: list[str]) -> str:
    """``lines`` in ``blocks``, each block inside the one before: a try's last clauses after."""
    text = "".join(f"{line}\n" for line in lines)
    for block in reversed(blocks):
        body = "".join(f"    {line}\n" for line in text.removesuffix("\n").split("\n"))
        if block == "try:":
            body += "except (ValueError, KeyError) as e:\n    pass\nelse:\n    x = [(1,)]\nfinally:\n    pass\n"
        text = f"{block}\n{body}"
    return text


@settings(max_examples=examples(200), deadline=None)
@given(
    st.lists(_LINES, min_size=150, max_size=400),
    st.lists(_DEEP, max_size=1),
    st.integers(0, 400),
    st.lists(_BLOCKS, max_size=4),
    st.lists(_LINES, max_size=40),
)
def test_a_shallow_file_of_blocks_nests_less_than_libcst_takes(
    lines: list[str], deep: list[str], at: int, blocks: list[str], after: list[str]
) -> None:
    lines[at % len(lines) : at % len(lines)] = deep
    text = _nest(lines, blocks) + "\n".join(after) + "\n"
    _agrees(text)
    if deep:
        assert not shallow(text, ast.parse(text))


def test_a_file_of_targets_and_a_file_of_functions_are_shallow() -> None:
    flat = "import tvm\n" + "".join(f"lib{i} = tvm.build(m, target='llvm -num-cores={i}')\n" for i in range(300))
    assert shallow(flat, ast.parse(flat))
    nested = "class C:\n    def f():\n" + "".join(f"        x{i} = a + b + c + d\n" for i in range(300))
    assert shallow(nested, ast.parse(nested))  # (each statement is one piece: never tokenized)
    assert nesting_cost(nested, "x.py", 10**9)[0] < MAX_NESTING_COST
    # one deep line among them: tokenized
    deep = nested + "        y = f(" + "[" * 60 + "]" * 60 + ")\n"
    assert not shallow(deep, ast.parse(deep))


@pytest.mark.parametrize("path", sorted(DATA.rglob("*.py*"))[::3], ids=lambda p: p.name)
def test_real_files(path: Path) -> None:
    text = path.read_text(encoding="utf-8", errors="replace")
    try:
        ast.parse(text)
    except (SyntaxError, ValueError):
        return
    _agrees(text)
