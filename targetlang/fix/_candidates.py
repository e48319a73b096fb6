"""Whether an expression may build a legacy target at all, cheaply, on LibCST's nodes: the rules
read it whole only then."""

from __future__ import annotations

import re

import libcst as cst

from ._compose import is_format

__all__ = ["built", "candidate"]

# A legacy target with options: a word, white space, a dash, in the text of one string node.
_LEGACY_SHAPE = re.compile(r"""^[rRuUfF]*(?:'|"|\'\'\'|\"\"\")\s*[\w{%-]""")
_OPTION = re.compile(r"\s-")
_LEGACY_TEXT = re.compile(r"\s*[\w{]\S*\s+-")


def built(node: cst.BaseExpression) -> bool:
    """``node`` builds a text of parts (``+``, ``%``, an f-string, ``.format``, ``.join``)."""
    return isinstance(node, (cst.BinaryOperation, cst.FormattedString)) or (
        isinstance(node, cst.Call) and is_format(node)
    )


def candidate(node: cst.BaseExpression) -> bool:
    """Cheaply: ``node`` may build a legacy target with options (the rewriter decides)."""
    if isinstance(node, cst.SimpleString):
        return bool(_LEGACY_SHAPE.match(node.value) and _OPTION.search(node.value))
    if isinstance(node, cst.ConcatenatedString):
        value = node.evaluated_value
        if isinstance(value, str):
            return bool(_LEGACY_TEXT.match(value))
        return candidate(node.left) or candidate(node.right)
    if isinstance(node, cst.FormattedString):
        return any(
            _OPTION.search(p.value)
            if isinstance(p, cst.FormattedStringText)
            else isinstance(p, cst.FormattedStringExpression) and candidate(p.expression)
            for p in node.parts
        )
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (cst.Add, cst.Modulo)):
        return candidate(node.left) or candidate(node.right)
    if isinstance(node, (cst.Tuple, cst.List)):  # the operands of a % template
        return any(candidate(element.value) for element in node.elements)
    if isinstance(node, cst.Call) and is_format(node) and isinstance(node.func, cst.Attribute):
        if node.func.attr.value == "join":
            return bool(node.args) and isinstance(node.args[0].value, (cst.List, cst.Tuple))
        return candidate(node.func.value) or any(candidate(arg.value) for arg in node.args)
    return False
