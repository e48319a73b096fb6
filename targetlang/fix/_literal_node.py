"""The LibCST node of a target config as :func:`._literal.render` writes it, made directly.

A fix puts the dict it wrote into the tree as a node. Parsing the written code back took LibCST
about 110 microseconds a target (a fifth of ``fix --check`` on a file of a target a line); the
node made here from the same value costs a third of that, and is the node LibCST's parser makes
of that code (tests/test_fix_literal.py compares them on generated configs, and their code).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import libcst as cst

if TYPE_CHECKING:  # (LibCST's own module: what its codegen passes, named for the types alone)
    from libcst._nodes.internal import CodegenState

from ._literal import PLACEHOLDER, Code, string_body

__all__ = ["WrittenCode", "literal_node"]

# The nodes of layout every node made here holds, made once and shared (a node is immutable, and
# one of white space or punctuation is never reported nor looked up by its id): a dict of three
# entries is 10 nodes to make, not 26.
_EMPTY = cst.SimpleWhitespace("")
_SPACE = cst.SimpleWhitespace(" ")
_COMMA = cst.Comma(whitespace_before=_EMPTY, whitespace_after=_SPACE)
_MINUS = cst.Minus(whitespace_after=_EMPTY)
_LBRACE, _RBRACE = cst.LeftCurlyBrace(whitespace_after=_EMPTY), cst.RightCurlyBrace(whitespace_before=_EMPTY)
_LBRACKET = cst.LeftSquareBracket(whitespace_after=_EMPTY)
_RBRACKET = cst.RightSquareBracket(whitespace_before=_EMPTY)


def literal_node(value: Any, quote: str) -> cst.BaseExpression | None:
    """The node of ``render(value, quote)`` (no run-time parts), or ``None`` where it holds what
    only the code says (a placeholder, code as it is, a float that is no number)."""
    if isinstance(value, Code):
        return None
    if isinstance(value, bool) or value is None:
        return cst.Name(repr(value))
    if isinstance(value, int):
        if value < 0:
            return cst.UnaryOperation(_MINUS, cst.Integer(repr(-value)))
        return cst.Integer(repr(value))
    if isinstance(value, float):
        if not math.isfinite(value):
            return None
        if math.copysign(1.0, value) < 0:
            return cst.UnaryOperation(_MINUS, cst.Float(repr(-value)))
        return cst.Float(repr(value))
    if isinstance(value, str):
        return _string(value, quote)
    if isinstance(value, dict):
        entries: list[cst.BaseDictElement] = []
        last = len(value) - 1
        for index, (key, item) in enumerate(value.items()):
            key_node, item_node = _string(str(key), quote), literal_node(item, quote)
            if key_node is None or item_node is None:
                return None
            comma = _COMMA if index < last else cst.MaybeSentinel.DEFAULT
            entries.append(cst.DictElement(key_node, item_node, comma, _EMPTY, _SPACE))
        return cst.Dict(entries, _LBRACE, _RBRACE)
    if isinstance(value, (list, tuple)):
        elements: list[cst.BaseElement] = []
        last = len(value) - 1
        for index, item in enumerate(value):
            node = literal_node(item, quote)
            if node is None:
                return None
            elements.append(cst.Element(node, _COMMA if index < last else cst.MaybeSentinel.DEFAULT))
        return cst.List(elements, _LBRACKET, _RBRACKET)
    return None


def _string(text: str, quote: str) -> cst.SimpleString | None:
    if PLACEHOLDER.search(text):
        return None
    return cst.SimpleString(quote + string_body(text, quote) + quote)


@dataclass(frozen=True)
class WrittenCode(cst.BaseExpression):
    """An expression whose code is ``text``, of no other node: what a fix writes when its
    findings alone are asked for (``--check``), where nothing reads the node but its code (a
    pass after, which reads the nodes a fix made, makes them: ``_python._fixed_python``)."""

    text: str
    lpar: Sequence[cst.LeftParen] = ()
    rpar: Sequence[cst.RightParen] = ()

    def _visit_and_replace_children(self, visitor: object) -> WrittenCode:
        return self  # (no node inside it to visit)

    def _codegen_impl(self, state: CodegenState) -> None:
        with self._parenthesize(state):
            state.add_token(self.text)
