"""``dynamic-target``: a legacy target built by an f-string, ``%``, ``+``, ``str.format()`` or
``" ".join([...])`` where a target may stand, and options appended to a target a name holds
(``target += " -libs=thrust"``)."""

from __future__ import annotations

import libcst as cst

from .._compose import is_format, quote_of
from .._convert import options_of
from .._plugins import plugin
from .._rewriter import Rewriter
from .._survey import Survey
from .._target_text import built_target, merge

RULE = plugin("dynamic-target")


@RULE.rewrite(cst.FormattedString, cst.BinaryOperation)
def _built(rewriter: Rewriter, original: cst.BaseExpression, updated: cst.BaseExpression) -> cst.BaseExpression:
    return built_target(rewriter, original, updated)


@RULE.rewrite(cst.Call)
def _format(rewriter: Rewriter, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
    if id(original) in rewriter.survey.contexts and is_format(original):
        return built_target(rewriter, original, updated)
    return updated


@RULE.survey(cst.AugAssign)
def _appended(survey: Survey, node: cst.AugAssign) -> None:
    """``target += " -libs=thrust"``: options appended to a target held by a name."""
    if not (isinstance(node.operator, cst.AddAssign) and isinstance(node.target, cst.Name)):
        return
    value = node.value.evaluated_value if isinstance(node.value, cst.SimpleString) else None
    if isinstance(value, str) and value.strip().startswith("-") and options_of("x " + value) is not None:
        survey.note(RULE.rule.id, node, value.split())


@RULE.rewrite(cst.AugAssign)
def _merged(rewriter: Rewriter, original: cst.AugAssign, updated: cst.AugAssign) -> cst.BaseSmallStatement:
    options = rewriter.survey.noted(RULE.rule.id, original)
    if options is None:
        return updated
    assert isinstance(original.target, cst.Name)
    name = original.target.value
    written, message = merge(rewriter, name, options, (), quote_of(original.value))
    if written is None and "no kind's" in message:
        return updated  # options of no target: some other text
    after = None if written is None else f"{name} = {written}"
    message += f"; {name} then holds a dict, not a string"
    if not rewriter.report(original, RULE.rule.id, message, after, "unsafe" if after else "report-only"):
        return updated
    assert after is not None
    statement = cst.parse_statement(after + "\n")
    assert isinstance(statement, cst.SimpleStatementLine)
    return statement.body[0].with_changes(semicolon=updated.semicolon)
