"""``target-attr-type``: a value of a modern target whose type is not its attribute's
(``"mattr": "+neon"`` for a list of str), which TVM 0.27 rejects. A str without a comma for a
list of str is fixed to a list of it (safe); a str with commas to the list of its parts (unsafe:
the legacy reader split them there, but a list of one such str is accepted too); a str of
digits for an int (unsafe); the rest is reported. The checking is :mod:`.._modern`'s."""

from __future__ import annotations

import libcst as cst

from .._modern import NOTE, noted, report, survey_node
from .._plugins import plugin
from .._rewriter import Rewriter
from .._survey import Survey

RULE = plugin("target-attr-type")


@RULE.survey(cst.Dict, cst.SimpleString)
def _noted(survey: Survey, node: cst.Dict | cst.SimpleString) -> None:
    """Every modern rule's survey: a dict with a kind or tag, a string that is JSON or a tag."""
    survey_node(survey, node)


@RULE.rewrite(cst.Dict)
def _dict(rewriter: Rewriter, original: cst.Dict, updated: cst.Dict) -> cst.BaseExpression:
    """A value that is no str: reported (the str values are fixed where they stand, below)."""
    if noted(rewriter.survey, original):
        report(rewriter, RULE.rule.id, original, lambda node: not isinstance(node, cst.SimpleString))
    return updated


@RULE.rewrite(cst.SimpleString)
def _text(rewriter: Rewriter, original: cst.SimpleString, updated: cst.SimpleString) -> cst.BaseExpression:
    """A JSON text, or a str value of a dict: the value alone is replaced, the rest kept as it is."""
    if noted(rewriter.survey, original):
        # a JSON text: each fix is the literal with one value replaced; all of them, at once
        code = rewriter.code(original)
        edits = [_edit(code, problem.after) for problem, applied in report(rewriter, RULE.rule.id, original) if applied]
        for start, end, text in sorted((edit for edit in edits if edit is not None), reverse=True):
            code = code[:start] + text + code[end:]
        if code != rewriter.code(original):
            return cst.parse_expression(code)
    element = rewriter.flow.parent(original) if rewriter.survey.notes.get(NOTE) else None
    config = rewriter.flow.parent(element) if isinstance(element, cst.DictElement) else None
    if config is not None and noted(rewriter.survey, config):
        for problem, applied in report(rewriter, RULE.rule.id, config, lambda node: node is original):
            if applied and problem.after is not None:
                return rewriter.parens(cst.parse_expression(problem.after), updated)
    return updated


def _edit(code: str, after: str | None) -> tuple[int, int, str] | None:
    """Where ``after`` differs from ``code`` (one place): its start and end in ``code``, and the
    text there instead."""
    if after is None:
        return None
    start = 0
    while start < min(len(code), len(after)) and code[start] == after[start]:
        start += 1
    end = 0
    while end < min(len(code), len(after)) - start and code[-1 - end] == after[-1 - end]:
        end += 1
    return start, len(code) - end, after[start : len(after) - end]
