"""The text a Python expression builds of parts: f-strings, ``+``, ``%``, ``str.format``, ``join``.

:func:`compose` evaluates what it can and puts a placeholder (:mod:`._literal`) where a part is
known only at run time, keeping that part's code, so that a target built of parts can be read as
a target and written back as a dict with the run-time values in place.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from typing import Any

import libcst as cst

from ._constants import evaluate
from ._literal import PLACEHOLDER, placeholder

__all__ = ["compose", "is_format", "quote_of", "string_value", "stringish"]

_PERCENT_FIELD = re.compile(r"%%|%[-#0 +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[diouxXeEfFgGcrsa]")
_FORMAT_FIELD = re.compile(r"\{\{|\}\}|\{([^{}!:]*)(?:![rsa])?(?::[^{}]*)?\}")


def is_format(node: cst.Call) -> bool:
    """``"...".format(...)`` or ``" ".join([...])``: a method of a string literal that builds text."""
    func = node.func
    return (
        isinstance(func, cst.Attribute)
        and func.attr.value in ("format", "join")
        and isinstance(func.value, cst.SimpleString)
    )


def stringish(node: cst.BaseExpression) -> bool:
    """``node`` is a string literal or builds one."""
    return (
        isinstance(node, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString))
        or (isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (cst.Add, cst.Modulo)))
        or (isinstance(node, cst.Call) and is_format(node))
    )


def string_value(node: cst.SimpleString) -> str | bytes:
    """What the literal ``node`` holds (LibCST's ``evaluated_value``, which runs Python's
    ``literal_eval``: a fifth of the time of a target a line); a literal with no prefix and no
    backslash holds its body as it is written."""
    code = node.value
    if "\\" in code or code[0] not in "'\"":
        return node.evaluated_value
    return code[3:-3] if code[:3] in ("'''", '"""') and len(code) >= 6 else code[1:-1]


def quote_of(node: cst.BaseExpression) -> str:
    """The quote character of the (first) string literal of ``node``, ``"`` if it has none."""
    return _quote(node) or '"'


def _quote(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.SimpleString):
        return node.quote[0]
    if isinstance(node, cst.FormattedString):
        return node.end[0]
    if isinstance(node, (cst.ConcatenatedString, cst.BinaryOperation)):
        return _quote(node.left) or _quote(node.right)
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
        return _quote(node.func.value)
    return None


def compose(node: cst.BaseExpression, code: Callable[[cst.CSTNode], str]) -> tuple[str, list[str]] | None:
    """The text ``node`` builds, with a placeholder for each part that is not a literal, and the
    code of those parts; ``None`` when it is no string building this module understands."""
    composer = _Composer(code)
    text = composer.text(node)
    return None if text is None else (text, composer.exprs)


# Expressions that stand as one operand wherever they are written.
_ATOMS = (
    cst.Name,
    cst.Attribute,
    cst.Call,
    cst.Subscript,
    cst.SimpleString,
    cst.ConcatenatedString,
    cst.FormattedString,
    cst.Integer,
    cst.Float,
    cst.Imaginary,
    cst.List,
    cst.Dict,
    cst.Set,
    cst.ListComp,
    cst.DictComp,
    cst.SetComp,
    cst.GeneratorExp,
)


class _Composer:
    def __init__(self, code: Callable[[cst.CSTNode], str]) -> None:
        self.code = code
        self.exprs: list[str] = []

    def _held(self, value: cst.BaseExpression) -> str:
        code = self.code(value)
        if not isinstance(value, _ATOMS) and not value.lpar:
            # written as a dict's value, inside int(...) or before .split(","): an f-string's
            # {cpu,n} or {a or b} must stay one operand there
            code = f"({code})"
        self.exprs.append(code)
        return placeholder(len(self.exprs) - 1)

    def part(self, value: cst.BaseExpression) -> str | None:
        """A part as text: a literal's text, else a placeholder."""
        try:
            literal = evaluate(value)
        except ValueError:
            return self._held(value)
        return literal if isinstance(literal, str) else str(literal)

    def operand(self, value: cst.BaseExpression) -> Any:
        """A literal's own value (``%d`` wants the number), else a placeholder."""
        try:
            return evaluate(value)
        except ValueError:
            return self._held(value)

    def piece(self, value: cst.BaseExpression) -> str | None:
        """A part that may build text itself (read through) or not (a part)."""
        return self.text(value) if stringish(value) else self.part(value)

    def text(self, value: cst.BaseExpression) -> str | None:
        if isinstance(value, cst.SimpleString):
            text = value.evaluated_value
            return text if isinstance(text, str) else None
        if isinstance(value, cst.ConcatenatedString):
            return _joined(self.text(value.left), self.text(value.right))
        if isinstance(value, cst.FormattedString):
            return _formatted(value, self.part)
        if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Add):
            return _joined(self.piece(value.left), self.piece(value.right))
        if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Modulo):
            return self.percent(value)
        if isinstance(value, cst.Call) and is_format(value):
            assert isinstance(value.func, cst.Attribute)
            return self.join(value) if value.func.attr.value == "join" else self.format(value)
        return None

    def percent(self, value: cst.BinaryOperation) -> str | None:
        template = self.text(value.left) if isinstance(value.left, cst.SimpleString) else None
        if template is None:
            return None
        items = value.right.elements if isinstance(value.right, cst.Tuple) else None
        operands = [e.value for e in items] if items is not None else [value.right]
        values = [self.operand(e) for e in operands]
        try:
            return template % tuple(values)
        except (TypeError, ValueError, KeyError):
            if not any(isinstance(v, str) and PLACEHOLDER.search(v) for v in values):
                return None  # Python itself cannot format it: no text, no target
            # a placeholder where a number is wanted (%d): it stands for the whole field
            fields = iter(v if isinstance(v, str) else str(v) for v in values)
            try:
                return _PERCENT_FIELD.sub(lambda m: "%" if m[0] == "%%" else next(fields), template)
            except StopIteration:
                return None

    def join(self, value: cst.Call) -> str | None:
        assert isinstance(value.func, cst.Attribute)
        template = self.text(value.func.value)
        joined = value.args[0].value if len(value.args) == 1 and not value.args[0].star else None
        if template is None or not isinstance(joined, (cst.List, cst.Tuple)):
            return None
        words = [self.piece(e.value) for e in joined.elements]
        return None if any(w is None for w in words) else template.join(w for w in words if w is not None)

    def format(self, value: cst.Call) -> str | None:
        assert isinstance(value.func, cst.Attribute)
        template = self.text(value.func.value)
        if template is None or any(arg.star for arg in value.args):
            return None
        positional = [self.operand(arg.value) for arg in value.args if arg.keyword is None]
        named = {arg.keyword.value: self.operand(arg.value) for arg in value.args if arg.keyword is not None}
        try:
            return template.format(*positional, **named)
        except (IndexError, KeyError, ValueError, AttributeError, TypeError):
            return _format_fields(template, positional, named)


def _joined(left: str | None, right: str | None) -> str | None:
    return None if left is None or right is None else left + right


def _format_fields(template: str, positional: list[Any], named: dict[str, Any]) -> str | None:
    """``template.format(...)`` with each field replaced by its argument as text, whatever its
    conversion or format spec: where an argument is a placeholder it stands for the field."""
    counter = iter(range(len(positional)))

    def field(match: re.Match[str]) -> str:
        if match[0] in ("{{", "}}"):
            return match[0][0]
        name = match[1]
        value = positional[next(counter)] if name == "" else (positional[int(name)] if name.isdigit() else named[name])
        return value if isinstance(value, str) else str(value)

    try:
        return _FORMAT_FIELD.sub(field, template)
    except (StopIteration, IndexError, KeyError):
        return None


def _formatted(node: cst.FormattedString, part: Callable[[cst.BaseExpression], str | None]) -> str | None:
    prefix = node.start[:-1].lower().replace("f", "")
    quote = node.end
    out = []
    for piece in node.parts:
        if isinstance(piece, cst.FormattedStringText):
            try:
                text = ast.literal_eval(prefix + quote + piece.value + quote)
            except (SyntaxError, ValueError):
                return None
            out.append(str(text).replace("{{", "{").replace("}}", "}"))
            continue
        if not isinstance(piece, cst.FormattedStringExpression):
            return None
        if piece.equal is not None:
            return None  # f"{x=}" prints the expression's text too: no target is written so
        if piece.conversion is not None or piece.format_spec:
            # what it prints is not the value itself: the suggestion says how it is printed
            value = part(_printed(piece))
        else:
            value = part(piece.expression)
        if value is None:
            return None
        out.append(value)
    return "".join(out)


def _printed(piece: cst.FormattedStringExpression) -> cst.BaseExpression:
    """The expression that gives what ``{x!r:>3}`` prints: ``format(repr(x), ">3")``."""
    code = cst.Module(body=[]).code_for_node(piece.expression)
    if piece.conversion is not None:
        code = f"{ {'r': 'repr', 's': 'str', 'a': 'ascii'}[piece.conversion] }({code})"
    if piece.format_spec:
        spec = "".join(p.value if isinstance(p, cst.FormattedStringText) else "{}" for p in piece.format_spec)
        code = f"format({code}, {spec!r})"
    return cst.parse_expression(code)
