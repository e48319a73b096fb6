"""``target-helper``: a helper constructor TVM 0.24 removed (``tvm.target.cuda()``,
``arm_cpu("rasp4b")``, ``hexagon("v68")``, ...), rewritten to ``Target(...)`` of the target it
built (:mod:`targetlang.helpers` computes it as TVM v0.23 did). A call of a helper gives a
``Target``, and so does its fix: where the value goes does not change."""

from __future__ import annotations

import functools
import warnings
from collections import Counter
from typing import Any

import libcst as cst

from ...helpers import ARM_CPU_MODELS, HEXAGON_ARCH, RISCV_CPU_MODELS, STM32_SERIES, helper_string
from .._constants import evaluate
from .._imports import IDENTIFIER, NameUses
from .._literal import placeholder, render
from .._plugins import plugin
from .._rewriter import Rewriter
from .._rules import Safety
from .._runtime import SENTINEL, Typed, written_values
from .._survey import HELPER_MODULES, Survey, dotted
from .._walk import walk

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
    integers: dict[int, int] = {}
    try:
        text = _built(name, args, kwargs)
    except (TypeError, ValueError) as err:
        # a run-time value where the helper wants a number: a sentinel number stands for it, and
        # is written int(value), the conversion the helper's number went through
        numbers = {placeholder(i): SENTINEL + i for i in range(len(exprs))}
        try:
            text = _built(name, [numbers.get(a, a) for a in args], {k: numbers.get(v, v) for k, v in kwargs.items()})
        except (TypeError, ValueError):
            # an argument known only at run time is shown as the code that gives it
            problem = str(err).replace(f"_{name}()", f"{name}()")
            for index, code in enumerate(exprs):
                problem = problem.replace(repr(placeholder(index)), code).replace(placeholder(index), code)
            rewriter.report(original, "target-helper", f"{name}(): {problem}", None, "report-only")
            return updated
        integers = {SENTINEL + i: i for i in range(len(exprs)) if str(SENTINEL + i) in text}
    looked_up = _looked_up(name, args, kwargs, exprs, text)
    if looked_up is not None:
        message = (
            f"{name}(): the target it built depends on the value of {looked_up} (its table of known "
            "values sets more options), known here only at run time: write the target for each value"
        )
        rewriter.report(original, "target-helper", message, None, "report-only")
        return updated
    hint = next((a for a in [*args[:1], kwargs.get("model"), kwargs.get("cpu_ver")] if isinstance(a, str)), None)
    conversion = rewriter.convert(text, None if exprs else hint)
    written = None
    if conversion.config is not None and integers:
        config = written_values(conversion.config, Typed(text, integers, frozenset()), exprs, '"')
        written = render(config, '"', exprs)
    elif conversion.config is not None:
        written = rewriter.written(conversion, '"', exprs)
    used = all(placeholder(i) in text or SENTINEL + i in integers for i in range(len(exprs)))
    if written is not None and not used:
        written = None  # an argument that did not reach the target text: cannot write it
    safety: Safety = "report-only" if written is None else ("unsafe" if exprs else conversion.safety)
    shown = text
    for index, code in enumerate(exprs):
        shown = shown.replace(placeholder(index), "{" + code + "}").replace(str(SENTINEL + index), "{" + code + "}")
    message = f"{name}() built {shown!r}; " + conversion.message
    after = None if written is None else f"{constructor}({written})"
    if not rewriter.report(original, "target-helper", message, after, safety, conversion.rule_ids):
        return updated
    assert after is not None
    return rewriter.parens(cst.parse_expression(after), updated)


# Values a helper looks up in its tables: a run-time value may be one of them.
_PROBES = tuple(dict.fromkeys([*ARM_CPU_MODELS, *RISCV_CPU_MODELS, *STM32_SERIES, *HEXAGON_ARCH]))


def _looked_up(name: str, args: list[Any], kwargs: dict[str, Any], exprs: list[str], text: str) -> str | None:
    """The code of a run-time argument whose value changes more of the target than where it is
    written (a model the helper looks up: arm_cpu("rk3399") sets the triple), or ``None``."""
    for index, code in enumerate(exprs):
        mark = placeholder(index)
        for probe in _PROBES:
            try:
                probed = _built(
                    name,
                    [probe if a == mark else a for a in args],
                    {k: probe if v == mark else v for k, v in kwargs.items()},
                )
            except (TypeError, ValueError):
                continue
            if probed.replace(probe, mark) != text:
                return code
    return None


def _built(name: str, args: list[Any], kwargs: dict[str, Any]) -> str:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the helpers' deprecation notes are for callers at run time
        return helper_string(name, *args, **kwargs)


# The names tvm.target had that TVM 0.24 has not: the helpers, create(), and vta() and micro(),
# which went before (v0.19): importing any of them fails.
_REMOVED = frozenset({"create", "vta", "micro"})
_CALLED = RULE.rule.id + "/called"


def _removed(survey: Survey) -> frozenset[str]:
    return _removed_names(survey.helper_names)


@functools.cache
def _removed_names(helpers: frozenset[str]) -> frozenset[str]:
    return helpers | _REMOVED  # (asked at every call and attribute of a module: made once)


@RULE.survey(cst.Call)
def _called(survey: Survey, node: cst.Call) -> None:
    # (before the visit of its function: a helper named there is called, not used as a value)
    if isinstance(node.func, cst.Attribute) and node.func.attr.value in _removed(survey):
        survey.marks.setdefault(_CALLED, set()).add(id(node.func))


@RULE.survey(cst.Attribute)
def _as_value(survey: Survey, node: cst.Attribute) -> None:
    """``tvm.target.arm_cpu`` not called: handed to ``functools.partial``, kept in a dict."""
    module, _, name = (survey.qualified(node) or "").rpartition(".")
    if module in HELPER_MODULES and name in _removed(survey) and id(node) not in survey.marks.get(_CALLED, ()):
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
    used at all, it is removed (safe); used otherwise than called, it is reported."""
    if rewriter.survey.noted(RULE.rule.id, original) != "import":
        return updated
    assert not isinstance(original.names, cst.ImportStar)
    module = dotted(original.module) if original.module is not None else ""
    removed = _removed(rewriter.survey)
    guarded = _tries_import(rewriter, original)
    aliases = [alias for alias in original.names if alias.evaluated_name in removed]
    mentions = _Mentions({alias.evaluated_alias or alias.evaluated_name for alias in aliases}, rewriter.survey)
    walk(rewriter.module, mentions)
    for alias in aliases:
        name, local = alias.evaluated_name, alias.evaluated_alias or alias.evaluated_name
        if mentions.named[local] > mentions.calls[local]:
            rewriter.report(alias, RULE.rule.id, _VALUE.format(name=name), None, "report-only")
        elif not mentions.named[local] and guarded:
            message = (
                f"{name} is imported in a try that catches its ImportError: the import tells which TVM runs "
                "(TVM 0.24 has none); left as it is"
            )
            rewriter.report(alias, RULE.rule.id, message, None, "report-only")
        elif not mentions.named[local]:
            message = f"{name} is imported, never called: TVM 0.24 has no {name} (ImportError); the import is removed"
            if rewriter.report(alias, RULE.rule.id, message, "", "safe"):
                rewriter.replaced_imports.add((module or "", name, alias.evaluated_alias))
    return updated


_CATCHES_IMPORT = frozenset({"ImportError", "ModuleNotFoundError", "Exception", "BaseException"})


def _tries_import(rewriter: Rewriter, statement: cst.CSTNode) -> bool:
    """Whether ``statement`` is in the body of a ``try`` whose handlers catch an ImportError."""
    child, parent = statement, rewriter.flow.parent(statement)
    while parent is not None:
        if isinstance(parent, cst.Try) and child is parent.body and any(map(_catches_import, parent.handlers)):
            return True
        child, parent = parent, rewriter.flow.parent(parent)
    return False


def _catches_import(handler: cst.ExceptHandler) -> bool:
    if handler.type is None:
        return True  # a bare except
    caught = [e.value for e in handler.type.elements] if isinstance(handler.type, cst.Tuple) else [handler.type]
    return any((dotted(name) or "").rsplit(".", 1)[-1] in _CATCHES_IMPORT for name in caught)


class _Mentions(NameUses):
    """How often each of ``wanted`` is named (as a name, in an annotation's or ``__all__``'s
    string), and how often it is called as a helper the rules rewrite."""

    def __init__(self, wanted: set[str], survey: Survey) -> None:
        super().__init__(set())
        self.wanted = wanted
        self.survey = survey
        self.named: Counter[str] = Counter()
        self.calls: Counter[str] = Counter()

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value in self.wanted:
            if self.survey.helper(node) is not None:
                self.calls[node.func.value] += 1
        elif isinstance(node, cst.Name) and node.value in self.wanted and not self.not_a_name(node):
            self.named[node.value] += 1
        elif isinstance(node, cst.SimpleString) and self.naming():
            self.named.update(word for word in IDENTIFIER.findall(node.value) if word in self.wanted)
        return super().on_visit(node)
