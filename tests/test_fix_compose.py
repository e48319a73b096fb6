"""What a string literal holds, read without Python's ``literal_eval`` where it can be."""

from __future__ import annotations

import ast
import warnings

import libcst as cst
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from targetlang.fix._compose import string_value

from .conftest import examples

_BODY = st.text(st.sampled_from(list("ab -=\"'\\\n\t{}é")), max_size=10)


@settings(max_examples=examples(2000), deadline=None)
@given(_BODY, st.sampled_from(["", "r", "b", "u", "R", "rb"]), st.sampled_from(['"', "'", '"""', "'''"]))
def test_a_literal_holds_what_python_reads(body: str, prefix: str, quote: str) -> None:
    code = prefix + quote + body + quote
    try:
        node = cst.parse_expression(code)
        with warnings.catch_warnings():  # (an invalid escape: Python warns, and reads it)
            warnings.simplefilter("ignore")
            held = ast.literal_eval(code)  # Python's reading is the judge
    except (cst.ParserSyntaxError, cst.CSTValidationError, SyntaxError, ValueError):
        return  # (not one literal: a quote or a line break where it cannot stand, bytes not ASCII)
    if isinstance(node, cst.SimpleString):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert string_value(node) == held


@pytest.mark.parametrize(
    ("code", "value"),
    [('"llvm -mcpu=a"', "llvm -mcpu=a"), ("''", ""), ('""""a"b"""', '"a"b'), ("'a\\'b'", "a'b"), ('b"x"', b"x")],
)
def test_literals_of_each_shape(code: str, value: str | bytes) -> None:
    node = cst.parse_expression(code)
    assert isinstance(node, cst.SimpleString)
    assert string_value(node) == value
