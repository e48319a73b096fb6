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
from .._survey import HELPER_MODULES, Survey, dotted

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


# The names tvm.target had that TVM 0.24 has not: the helpers, create(), and vta() and micro(),
# which went before (v0.19): importing any of them fails.
_REMOVED = frozenset({"create", "vta", "micro"})
_CALLED = RULE.rule.id + "/called"


def _removed(survey: Survey) -> frozenset[str]:
    return survey.helper_names | _REMOVED


@RULE.survey(cst.Call)
def _called(survey: Survey, node: cst.Call) -> None:
    # (before the visit of its function: a helper named there is called, not used as a value)
    if isinstance(node.func, cst.Attribute):
        survey.notes.setdefault(_CALLED, {})[id(node.func)] = True


@RULE.survey(cst.Attribute)
def _as_value(survey: Survey, node: cst.Attribute) -> None:
    """``tvm.target.arm_cpu`` not called: handed to ``functools.partial``, kept in a dict."""
    module, _, name = (survey.qualified(node) or "").rpartition(".")
    if module in HELPER_MODULES and name in _removed(survey) and id(node) not in survey.notes.get(_CALLED, {}):
        survey.note(RULE.rule.id, node, "value")


@RULE.rewrite(cst.Attribute)
def _value(rewriter: Rewriter, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
    if rewriter.survey.noted(RULE.rule.id, original) == "value":
        rewriter.report(original, RULE.rule.id, _VALUE.format(name=original.attr.value), None, "report-only")
    return updated


_VALUE = (
    "{name}, a helper TVM 0.24 removed, used as a value (not called): build each target it would have "
    "built with Target(...) (targetlang.helpers.{name}(...) builds the same target, and "
    "targetlang.migrate() gives its dict)"
)


@RULE.survey(cst.ImportFrom)
def _imported(survey: Survey, node: cst.ImportFrom) -> None:
    if node.relative or node.module is None or isinstance(node.names, cst.ImportStar):
        return
    if dotted(node.module) in HELPER_MODULES and any(alias.evaluated_name in _removed(survey) for alias in node.names):
        survey.note(RULE.rule.id, node, "import")


@RULE.rewrite(cst.ImportFrom)
def _import(rewriter: Rewriter, original: cst.ImportFrom, updated: cst.ImportFrom) -> cst.ImportFrom:
    """An imported helper that is never called: the import fails on TVM 0.24 and later. Not
    used at all, it is removed (safe); used as a value, it is reported."""
    if rewriter.survey.noted(RULE.rule.id, original) != "import":
        return updated
    assert not isinstance(original.names, cst.ImportStar)
    module = dotted(original.module) if original.module is not None else ""
    for alias in original.names:
        name = alias.evaluated_name
        if name not in _removed(rewriter.survey):
            continue
        local = alias.evaluated_alias or name
        uses = rewriter.flow.accesses_of(original, local)
        if uses is None:
            continue
        called = [use for use in uses if _called_helper(rewriter, use)]
        values = [use for use in uses if use not in called]
        if values:
            rewriter.report(alias, RULE.rule.id, _VALUE.format(name=name), None, "report-only")
        elif not called:
            message = f"{name} is imported, never called: TVM 0.24 has no {name} (ImportError); the import is removed"
            if rewriter.report(alias, RULE.rule.id, message, "", "safe"):
                rewriter.replaced_imports.add((module or "", name, alias.evaluated_alias))
    return updated


def _called_helper(rewriter: Rewriter, use: cst.CSTNode) -> bool:
    call = rewriter.flow.parent(use)
    return isinstance(call, cst.Call) and call.func is use and rewriter.survey.helper(call) is not None
