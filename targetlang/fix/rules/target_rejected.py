"""``target-rejected``: a value of a modern target that one of TVM 0.27's canonicalisers rejects
(``data/checks-v0.27.json``: a cuda ``arch`` that is no ``sm_``, a negative ``num-cores``...),
reported with 0.27's own message. Reported only."""

from __future__ import annotations

import libcst as cst

from .._modern import noted, report
from .._plugins import plugin
from .._rewriter import Rewriter

RULE = plugin("target-rejected")


@RULE.rewrite(cst.Dict, cst.SimpleString)
def _reported(
    rewriter: Rewriter, original: cst.Dict | cst.SimpleString, updated: cst.BaseExpression
) -> cst.BaseExpression:
    if noted(rewriter.survey, original):
        report(rewriter, RULE.rule.id, original)
    return updated
