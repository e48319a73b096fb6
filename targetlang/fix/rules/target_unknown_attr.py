"""``target-unknown-attr``: an attribute of a modern target that its kind does not have in the
``--target-version`` release (TVM rejects it: "Unknown config option"), with did-you-mean, or
where it went if TVM removed it. Reported only."""

from __future__ import annotations

import libcst as cst

from .._modern import noted, report
from .._plugins import plugin
from .._rewriter import Rewriter

RULE = plugin("target-unknown-attr")


@RULE.rewrite(cst.Dict, cst.SimpleString)
def _reported(
    rewriter: Rewriter, original: cst.Dict | cst.SimpleString, updated: cst.BaseExpression
) -> cst.BaseExpression:
    if noted(rewriter.survey, original):
        report(rewriter, RULE.rule.id, original)
    return updated
