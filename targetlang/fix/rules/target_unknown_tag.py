"""``target-unknown-tag``: a tag (``"nvidia/jetson-nanoo"``, or ``{"tag": ...}``) where a
target is read that the ``--target-version`` release does not have, with did-you-mean. Reported
only."""

from __future__ import annotations

import libcst as cst

from .._modern import noted, report
from .._plugins import plugin
from .._rewriter import Rewriter

RULE = plugin("target-unknown-tag")


@RULE.rewrite(cst.Dict, cst.SimpleString)
def _reported(
    rewriter: Rewriter, original: cst.Dict | cst.SimpleString, updated: cst.BaseExpression
) -> cst.BaseExpression:
    if noted(rewriter.survey, original):
        report(rewriter, RULE.rule.id, original)
    return updated
