"""The node a fix puts in the tree for a target config is the node LibCST's parser makes of the
code :func:`targetlang.fix._literal.render` writes for it."""

from __future__ import annotations

import ast
from typing import Any

import libcst as cst
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from targetlang.fix._literal import Code, placeholder, render, string_body
from targetlang.fix._literal_node import WrittenCode, literal_node

from .conftest import examples

_TEXT = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=12) | st.sampled_from(
    ["llvm", "core-avx2", "+avx2,+fma", "it's", 'say "x"', "a\\b", "tab\there", "line\nbreak", "\x7f", "{}"]
)
_SCALAR = (
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False, allow_infinity=False) | _TEXT
)
_CONFIG = st.recursive(
    _SCALAR,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TEXT, inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=examples(1000), deadline=None)
@given(_CONFIG, st.sampled_from(['"', "'"]))
def test_the_node_made_is_the_node_parsed(value: Any, quote: str) -> None:
    written = render(value, quote)
    assert written is not None
    node = literal_node(value, quote)
    assert node is not None
    assert node.deep_equals(cst.parse_expression(written))
    assert cst.Module([]).code_for_node(node) == written


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ({"kind": "llvm", "mcpu": "avx2", "num-cores": 4}, '{"kind": "llvm", "mcpu": "avx2", "num-cores": 4}'),
        ({"kind": "cuda", "libs": ["cudnn", "cublas"], "arch": "sm_80"}, None),
        ({"host": {"kind": "llvm", "mtriple": "aarch64-linux-gnu"}, "x": -3, "y": -0.0, "z": None}, None),
        ([], "[]"),
        ({}, "{}"),
        (1e16, "1e+16"),
    ],
)
def test_configs_of_each_shape(value: Any, written: str | None) -> None:
    node = literal_node(value, '"')
    assert node is not None
    code = cst.Module([]).code_for_node(node)
    assert code == (written if written is not None else render(value, '"'))
    assert node.deep_equals(cst.parse_expression(code))


@pytest.mark.parametrize(
    "value",
    [
        {"kind": "llvm", "mcpu": placeholder(0)},  # a run-time part: the code says what it is
        {"kind": "llvm", "mattr": Code('mattr.split(",")')},
        [float("inf")],
        {"kind": placeholder(1) + "-x"},
    ],
)
def test_what_only_the_code_says_is_parsed(value: Any) -> None:
    assert literal_node(value, '"') is None


@settings(max_examples=examples(2000), deadline=None)
@given(st.text(max_size=16) | _TEXT, st.sampled_from(['"', "'"]))
def test_a_string_s_body_reads_back_as_the_string(text: str, quote: str) -> None:
    # Python's own reading of the literal is the judge (surrogates, control characters, quotes)
    body = string_body(text, quote)
    assert ast.literal_eval(quote + body + quote) == text
    assert "\n" not in body and "\r" not in body
    joined = ast.parse("f" + quote + string_body(text, quote, braces=True) + quote, mode="eval").body
    assert isinstance(joined, ast.JoinedStr)  # of text alone: its braces doubled
    parts = [part.value for part in joined.values if isinstance(part, ast.Constant) and isinstance(part.value, str)]
    assert len(parts) == len(joined.values) and "".join(parts) == text


def test_written_code_is_printed_as_it_was_written_in_the_tree() -> None:
    # (what a fix writes when checking: its code in place of the node it replaces, in parentheses
    # where it is given them)
    module = cst.parse_module("x = f('llvm -mcpu=a', 1)\n")

    class Written(cst.CSTTransformer):
        def leave_SimpleString(self, original: cst.SimpleString, updated: cst.SimpleString) -> cst.BaseExpression:
            return WrittenCode('{"kind": "llvm", "mcpu": "a"}')

    fixed = module.visit(Written())
    assert fixed.code == 'x = f({"kind": "llvm", "mcpu": "a"}, 1)\n'
    assert fixed.visit(Written()).code == fixed.code
    framed = WrittenCode("t").with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    assert module.code_for_node(framed) == "(t)"
