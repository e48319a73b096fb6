"""``canon-target``: ``Target.canon_target*()`` and ``tvm.target.create()``, which TVM 0.24
removed, rewritten to ``Target(...)``. Their target arguments are target positions of the table
of target APIs (:mod:`.._apis`), so a legacy string in them is ``target-string``'s."""

from __future__ import annotations

import libcst as cst

from .._plugins import plugin
from .._rewriter import Rewriter
from .._rules import Safety
from .._survey import Survey

RULE = plugin("canon-target")

# canon_* -> what it returns: one target, a (target, host) pair, or many
_CANON = {
    "canon_target": "one",
    "canon_target_and_host": "pair",
    "canon_multi_target": "many",
    "canon_multi_target_and_host": "many",
    "canon_target_map_and_host": "many",
}


def _canon_name(survey: Survey, call: cst.BaseExpression) -> str | None:
    if not isinstance(call, cst.Call):
        return None
    module, _, last = (survey.qualified(call.func) or "").rpartition(".")
    return last if last in _CANON and module.rsplit(".", 1)[-1] == "Target" else None


@RULE.survey(cst.Call)
def _found(survey: Survey, node: cst.Call) -> None:
    if survey.noted(RULE.rule.id, node) == "pair":
        return  # fixed with the statement that unpacks it
    if survey.helper(node) == "create":
        survey.note(RULE.rule.id, node, "create")
    else:
        name = _canon_name(survey, node)
        if name is not None:
            survey.note(RULE.rule.id, node, name)


@RULE.survey(cst.SimpleStatementLine)
def _unpacked(survey: Survey, node: cst.SimpleStatementLine) -> None:
    """``a, b = Target.canon_target_and_host(...)`` alone on its line: noted with the two names
    (the call itself is then fixed by the statement's rewrite, not alone)."""
    if len(node.body) != 1 or not isinstance(node.body[0], cst.Assign):
        return
    assign = node.body[0]
    if len(assign.targets) != 1 or _canon_name(survey, assign.value) != "canon_target_and_host":
        return
    unpacked = assign.targets[0].target
    if isinstance(unpacked, cst.Tuple) and len(unpacked.elements) == 2:
        first, second = (element.value for element in unpacked.elements)
        if isinstance(first, cst.Name) and isinstance(second, cst.Name):
            survey.note(RULE.rule.id, node, (first.value, second.value))
            survey.note(RULE.rule.id, assign.value, "pair")


@RULE.rewrite(cst.Call)
def _canon(rewriter: Rewriter, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
    name = rewriter.survey.noted(RULE.rule.id, original)
    if name is None or name == "pair":
        return updated
    if name == "create":
        constructor = rewriter.constructor(original.func, "")
        message = "tvm.target.create() is Target()"
        if not rewriter.report(original, RULE.rule.id, message, f"{constructor}(...)", "safe"):
            return updated
        return updated.with_changes(func=cst.parse_expression(constructor))
    constructor = rewriter.constructor(original.func, name)
    if _CANON[name] != "one":
        message = (
            f"{name}() returns {'a pair' if _CANON[name] == 'pair' else 'a list or map'} of targets: "
            "build each with Target(target, host=host)"
        )
        rewriter.report(original, RULE.rule.id, message, None, "report-only")
        return updated
    args = [arg for arg in updated.args if arg.keyword is None]
    if len(args) != 1 or args[0].star:
        rewriter.report(original, RULE.rule.id, f"{name}() with unusual arguments", None, "report-only")
        return updated
    literal = isinstance(original.args[0].value, (cst.SimpleString, cst.ConcatenatedString, cst.Dict))
    if isinstance(original.args[0].value, cst.Name) and original.args[0].value.value == "None":
        rewriter.report(original, RULE.rule.id, f"{name}(None) is None", None, "report-only")
        return updated
    safety: Safety = "safe" if literal else "unsafe"
    message = f"{name}(x) is Target(x)" + ("" if literal else " unless x is None (canon_target returned None)")
    only = args[0].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    new = updated.with_changes(func=cst.parse_expression(constructor), args=[only])
    if not rewriter.report(original, RULE.rule.id, message, rewriter.code(new), safety):
        return updated
    return new


@RULE.rewrite(cst.SimpleStatementLine)
def _pair(
    rewriter: Rewriter, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
    """``target, host = Target.canon_target_and_host(target, host)``: two statements."""
    if len(original_node.body) != 1 or not isinstance(original_node.body[0], cst.Assign):
        return updated_node
    call = original_node.body[0].value
    pair = rewriter.survey.noted(RULE.rule.id, original_node)
    if pair is None:
        return updated_node
    first, second = pair
    assign = updated_node.body[0]
    assert isinstance(assign, cst.Assign) and isinstance(assign.value, cst.Call)
    new_call = assign.value
    constructor = rewriter.constructor(new_call.func, "canon_target_and_host")
    positional = [arg for arg in new_call.args if arg.keyword is None]
    keyword = [arg for arg in new_call.args if arg.keyword is not None and arg.keyword.value == "target_host"]
    host = positional[1].value if len(positional) > 1 else (keyword[0].value if keyword else None)
    target = rewriter.code(positional[0].value) if positional else None
    if target is None:
        return updated_node
    host_code = None if host is None or (isinstance(host, cst.Name) and host.value == "None") else rewriter.code(host)
    built = f"{constructor}({target}" + (f", host={host_code})" if host_code else ")")
    lines = f"{first} = {built}\n{second} = {first}.host\n"
    message = "canon_target_and_host(t, h) is (Target(t, host=h), its host), unless t is None"
    if not rewriter.report(call, RULE.rule.id, message, lines.rstrip("\n"), "unsafe"):
        return updated_node
    statements = cst.parse_module(lines).body
    head = statements[0].with_changes(leading_lines=updated_node.leading_lines)
    return cst.FlattenSentinel([head, *statements[1:]])
