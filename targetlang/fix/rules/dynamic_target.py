"""``dynamic-target``: a legacy target built by an f-string, ``%``, ``+``, ``str.format()`` or
``" ".join([...])`` where a target may stand."""

from __future__ import annotations

import libcst as cst

from .._compose import is_format
from .._plugins import plugin
from .._rewriter import Rewriter
from .._target_text import built_target

RULE = plugin("dynamic-target")


@RULE.rewrite(cst.FormattedString, cst.BinaryOperation)
def _built(rewriter: Rewriter, original: cst.BaseExpression, updated: cst.BaseExpression) -> cst.BaseExpression:
    return built_target(rewriter, original, updated)


@RULE.rewrite(cst.Call)
def _format(rewriter: Rewriter, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
    if id(original) in rewriter.survey.contexts and is_format(original):
        return built_target(rewriter, original, updated)
    return updated
