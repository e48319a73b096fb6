"""``target-helper``: a helper constructor TVM 0.24 removed (``tvm.target.cuda()``,
``arm_cpu("rasp4b")``, ``hexagon("v68")``, ...), rewritten to ``Target(...)`` of the target it
built (:mod:`targetlang.helpers` computes it as TVM v0.23 did). A call of a helper gives a
``Target``, and so does its fix: where the value goes does not change."""

from __future__ import annotations

import warnings
from typing import Any

import libcst as cst

from ...helpers import helper_string
from .._constants import evaluate
from .._literal import placeholder
from .._plugins import plugin
from .._rewriter import Rewriter
from .._rules import Safety
from .._survey import Survey

RULE = plugin("target-helper")


@RULE.survey(cst.Call)
def _found(survey: Survey, node: cst.Call) -> None:
    name = survey.helper(node)
    if name is not None and name != "create":  # create() is Target(): canon-target's
        survey.note(RULE.rule.id, node, name)


@RULE.rewrite(cst.Call)
def _helper(rewriter: Rewriter, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
    name = rewriter.survey.noted(RULE.rule.id, original)
    if name is None:
        return updated
    constructor = rewriter.constructor(original.func, "")
    exprs: list[str] = []
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    # the code of an argument is the rewritten one: a removed property inside it is fixed in
    # the same pass (arm_cpu(t.model))
    for arg, now in zip(original.args, updated.args, strict=True):
        if arg.star:
            message = f"{name}() called with {arg.star}: the target it builds is known only at run time"
            rewriter.report(original, "target-helper", message, None, "report-only")
            return updated
        try:
            value = evaluate(arg.value)
        except ValueError:
            value = placeholder(len(exprs))
            exprs.append(rewriter.code(now.value))
        if arg.keyword is None:
            args.append(value)
        else:
            kwargs[arg.keyword.value] = value
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the helpers' deprecation notes are for callers at run time
            text = helper_string(name, *args, **kwargs)
    except (TypeError, ValueError) as err:
        # an argument known only at run time is shown as the code that gives it
        problem = str(err).replace(f"_{name}()", f"{name}()")
        for index, code in enumerate(exprs):
            problem = problem.replace(repr(placeholder(index)), code).replace(placeholder(index), code)
        rewriter.report(original, "target-helper", f"{name}(): {problem}", None, "report-only")
        return updated
    hint = next((a for a in [*args[:1], kwargs.get("model"), kwargs.get("cpu_ver")] if isinstance(a, str)), None)
    conversion = rewriter.convert(text, None if exprs else hint)
    written = rewriter.written(conversion, '"', exprs) if conversion.config is not None else None
    used = all(placeholder(i) in text for i in range(len(exprs)))
    if written is not None and not used:
        written = None  # an argument that did not reach the target text: cannot write it
    safety: Safety = "report-only" if written is None else ("unsafe" if exprs else conversion.safety)
    shown = text
    for index, code in enumerate(exprs):
        shown = shown.replace(placeholder(index), "{" + code + "}")
    message = f"{name}() built {shown!r}; " + conversion.message
    after = None if written is None else f"{constructor}({written})"
    if not rewriter.report(original, "target-helper", message, after, safety, conversion.rule_ids):
        return updated
    assert after is not None
    return rewriter.parens(cst.parse_expression(after), updated)
