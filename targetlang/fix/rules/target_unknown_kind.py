"""``target-unknown-kind``: a modern target (a dict, a JSON text or a kind's bare name, where a
target is read) of a kind the ``--target-version`` release does not have: one TVM removed (with
what replaced it, if anything) or a misspelt one (with did-you-mean). Reported only."""

from __future__ import annotations

import libcst as cst

from .._modern import noted, report
from .._plugins import plugin
from .._rewriter import Rewriter

RULE = plugin("target-unknown-kind")


@RULE.rewrite(cst.Dict, cst.SimpleString)
def _reported(
    rewriter: Rewriter, original: cst.Dict | cst.SimpleString, updated: cst.BaseExpression
) -> cst.BaseExpression:
    if noted(rewriter.survey, original):
        report(rewriter, RULE.rule.id, original)
    return updated
