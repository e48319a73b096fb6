"""A target written as text in Python, where the survey found one may stand: read, converted and
judged, for the rules that find target text (``target-string`` and ``dynamic-target``)."""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from ._compose import compose, quote_of
from ._convert import known_kind, options_of
from ._flow import unsafe_use
from ._literal import PLACEHOLDER
from ._rewriter import Rewriter
from ._rules import Safety

__all__ = ["built_target", "target_text"]


def target_text(
    rewriter: Rewriter,
    original: cst.BaseExpression,
    updated: cst.BaseExpression,
    text: str,
    exprs: Sequence[str],
    rule: str,
) -> cst.BaseExpression:
    """``original``, whose text is ``text`` (with a placeholder for each of ``exprs``, the code
    of its run-time parts), fixed as ``rule`` if it is a legacy target; its safety is the flow's
    (:mod:`._flow`): safe only when every use of the value is a target position."""
    context = rewriter.survey.contexts[id(original)]
    words = options_of(text)
    if words is None or PLACEHOLDER.search(words[0]):
        return updated
    if not known_kind(words[0], rewriter.options.registry) and not context.strict:
        return updated
    conversion = rewriter.convert(text)
    if conversion.config is None and not context.strict and conversion.changes == ():
        return updated  # a string that merely starts like a target: only where one must stand is it one
    written = rewriter.written(conversion, quote_of(original), exprs) if conversion.config is not None else None
    safety: Safety = conversion.safety if written is not None else "report-only"
    message = conversion.message
    uses = rewriter.flow.uses(original)
    blocker = unsafe_use(uses, original)
    if blocker is not None and blocker.kind == "rejection":
        # a test that TVM rejects the string form: the string is what it tests
        message = "legacy target string in a test that expects an error (left as it is: TVM >= 0.24 rejects it)"
        safety, written = "report-only", None
    elif blocker is not None and safety == "safe":
        safety = "unsafe"
    if exprs:
        safety = "report-only"  # what the expressions hold at run time is unknown here
    if exprs and written is not None:
        message += "; built from non-literal parts: write the dict instead"
    if not rewriter.report(original, rule, message, written, safety, conversion.rule_ids, uses, blocker):
        return updated
    assert written is not None
    return rewriter.parens(cst.parse_expression(written), updated)


def built_target(
    rewriter: Rewriter, original: cst.BaseExpression, updated: cst.BaseExpression, literal_rule: str = "dynamic-target"
) -> cst.BaseExpression:
    """A target text built of parts: ``dynamic-target`` when a part is known only at run time,
    ``literal_rule`` when every part is a literal."""
    if id(original) not in rewriter.survey.contexts:
        return updated
    built = compose(original, rewriter.code)
    if built is None:
        return updated
    text, exprs = built
    return target_text(rewriter, original, updated, text, exprs, "dynamic-target" if exprs else literal_rule)
