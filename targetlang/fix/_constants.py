"""The value of a constant Python expression, read from its syntax tree and never run.

Helper arguments are often small constant expressions (``4 * 2**20``, ``-1``, ``["-O3"]``);
``ast.literal_eval`` refuses arithmetic beyond ``+``/``-`` of complex numbers, so the few
operators that appear in such arguments are evaluated here, on bounded operands.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable
from typing import Any

import libcst as cst

__all__ = ["evaluate"]

_BINARY: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
    ast.LShift: operator.lshift,
}
_LIMIT = 1 << 64  # past this an operand is no argument of a target helper, and 2**10**9 would hang


def _value(node: ast.AST) -> Any:
    if isinstance(node, ast.Constant) and not isinstance(node.value, bytes):
        return node.value
    if isinstance(node, (ast.List, ast.Tuple)):
        items = [_value(item) for item in node.elts]
        return items if isinstance(node, ast.List) else tuple(items)
    if isinstance(node, ast.Dict) and None not in node.keys:
        return {_value(k): _value(v) for k, v in zip(node.keys, node.values, strict=True) if k is not None}
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        operand = _value(node.operand)
        if isinstance(operand, (int, float)) and not isinstance(operand, bool):
            return -operand if isinstance(node.op, ast.USub) else operand
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _value(node.left), _value(node.right)
        numbers = all(isinstance(v, int) and not isinstance(v, bool) and abs(v) < _LIMIT for v in (left, right))
        if isinstance(node.op, (ast.Pow, ast.LShift)) and not (numbers and 0 <= right < 128):
            raise ValueError("not a small constant")
        if numbers or (isinstance(node.op, ast.Add) and isinstance(left, (str, list))):
            return _BINARY[type(node.op)](left, right)
    raise ValueError("not a constant")


def evaluate(node: cst.BaseExpression) -> Any:
    """The value of ``node`` when it is a literal or constant arithmetic; ``ValueError`` if not."""
    code = cst.Module(body=[]).code_for_node(node)
    try:
        tree = ast.parse(f"(\n{code}\n)", mode="eval")
    except SyntaxError:
        raise ValueError("not an expression on its own") from None
    try:
        return _value(tree.body)
    except (ZeroDivisionError, OverflowError, TypeError, RecursionError):
        raise ValueError("not a constant") from None
