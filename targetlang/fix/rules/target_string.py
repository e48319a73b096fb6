"""``target-string``: a legacy target string where a target may stand, rewritten to a dict.

The survey finds where a target may stand (:mod:`.._survey`); :func:`.._target_text.target_text`
reads, converts and judges the text by where its value goes (:mod:`.._flow`).
"""

from __future__ import annotations

import libcst as cst

from .._compose import string_value
from .._plugins import plugin
from .._rewriter import Rewriter
from .._target_text import built_target, target_text

RULE = plugin("target-string")


@RULE.rewrite(cst.SimpleString)
def _string(rewriter: Rewriter, original: cst.SimpleString, updated: cst.SimpleString) -> cst.BaseExpression:
    if id(original) not in rewriter.survey.contexts:
        return updated
    value = string_value(original)
    if not isinstance(value, str):
        return updated
    return target_text(rewriter, original, updated, value, (), "target-string")


@RULE.rewrite(cst.ConcatenatedString)
def _concatenated(
    rewriter: Rewriter, original: cst.ConcatenatedString, updated: cst.ConcatenatedString
) -> cst.BaseExpression:
    # "llvm " "-mcpu=a" is one literal; with an f-string among its parts it is dynamic-target's
    return built_target(rewriter, original, updated, literal_rule="target-string")
