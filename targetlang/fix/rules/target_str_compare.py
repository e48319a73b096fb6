"""``target-str-compare``: ``str(target)`` compared with or searched for a kind or an option
(``str(t) == "llvm"``, ``str(t).startswith("cuda")``, ``"-mcpu" in str(t)``). Since TVM 0.24
``str()`` of a ``Target`` is its JSON (``{"kind":"cuda","tag":"",...}``), so these tests are
always false; they are rewritten to test the kind's name or the attributes. Unsafe where the
receiver is known to hold a ``Target`` (as ``target-property`` knows it), reported with the
replacement where only its name says so. ``str(t.kind)`` is still the kind's name: left alone.
A kind searched for with ``in`` (``"cuda" in str(t)``) is still found in the JSON: left alone."""

from __future__ import annotations

import json

import libcst as cst

from .._plugins import plugin
from .._rewriter import Rewriter
from .._rules import Safety
from .._survey import Survey

RULE = plugin("target-str-compare")

# The attributes whose value is a list: "-mattr=+neon" in str(t) asks whether "+neon" is one of its items
_ARRAYS = frozenset({"mattr", "libs", "keys"})


def _receiver(survey: Survey, node: cst.BaseExpression) -> Safety | None:
    """``unsafe`` where ``node`` is known to hold a Target, ``report-only`` where only its name says so."""
    found = survey.target_receiver(node)
    return "unsafe" if found == "known" else "report-only" if found == "named" else None


def _stringified(survey: Survey, node: cst.BaseExpression) -> tuple[cst.BaseExpression, Safety] | None:
    """``str(x)`` of a target ``x``: ``x`` and the fix's safety."""
    if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "str"):
        return None
    if len(node.args) != 1 or node.args[0].star or node.args[0].keyword is not None:
        return None
    value = node.args[0].value
    safety = _receiver(survey, value)
    return None if safety is None else (value, safety)


def _text(node: cst.BaseExpression) -> str | None:
    value = node.evaluated_value if isinstance(node, cst.SimpleString) else None
    return value if isinstance(value, str) else None


def _kind_test(receiver: str, text: str, negated: bool) -> str | None:
    """``t.kind.name == "cuda"`` for a text that is a kind's name alone."""
    if not text or any(c.isspace() for c in text) or text.startswith(("{", "-")):
        return None
    return f"{receiver}.kind.name {'!=' if negated else '=='} {json.dumps(text)}"


def _option_test(receiver: str, text: str, negated: bool) -> str | None:
    """``"mcpu" in t.attrs`` for ``-mcpu``; a test of its value for ``-mcpu=skylake``."""
    if not text.startswith("-") or any(c.isspace() for c in text):
        return None
    name, equals, value = text.lstrip("-").partition("=")
    if not name:
        return None
    if not equals:
        return f"{json.dumps(name)} {'not in' if negated else 'in'} {receiver}.attrs"
    if name in _ARRAYS:
        return f"{json.dumps(value)} {'not in' if negated else 'in'} list({receiver}.attrs.get({json.dumps(name)}, []))"
    test = f"str({receiver}.attrs.get({json.dumps(name)}, ''))".replace("'", '"')
    return f"{test} {'!=' if negated else '=='} {json.dumps(value)}"


@RULE.survey(cst.Comparison)
def _compared(survey: Survey, node: cst.Comparison) -> None:
    if len(node.comparisons) != 1:
        return
    right = node.comparisons[0]
    operator = right.operator
    if isinstance(operator, (cst.Equal, cst.NotEqual)):
        for string, other in ((node.left, right.comparator), (right.comparator, node.left)):
            found = _stringified(survey, string)
            if found is not None and _text(other) is not None:
                survey.note(RULE.rule.id, node, ("equal", found, _text(other), isinstance(operator, cst.NotEqual)))
                return
    elif isinstance(operator, (cst.In, cst.NotIn)):
        found = _stringified(survey, right.comparator)
        text = _text(node.left)
        if found is not None and text is not None and text.startswith("-"):
            survey.note(RULE.rule.id, node, ("in", found, text, isinstance(operator, cst.NotIn)))


@RULE.survey(cst.Call)
def _prefixed(survey: Survey, node: cst.Call) -> None:
    func = node.func
    if not (isinstance(func, cst.Attribute) and func.attr.value in ("startswith", "endswith")):
        return
    found = _stringified(survey, func.value)
    if found is not None and len(node.args) == 1 and _text(node.args[0].value) is not None:
        survey.note(RULE.rule.id, node, (func.attr.value, found, _text(node.args[0].value), False))


_JSON = 'str() of a Target is its JSON since TVM 0.24 (\'{"kind":"cuda","tag":"",...}\')'


def _fix(rewriter: Rewriter, original: cst.BaseExpression, updated: cst.BaseExpression) -> cst.BaseExpression:
    noted = rewriter.survey.noted(RULE.rule.id, original)
    if noted is None:
        return updated
    how, (receiver_node, safety), text, negated = noted
    receiver = rewriter.code(receiver_node)
    if not isinstance(receiver_node, (cst.Name, cst.Attribute, cst.Call, cst.Subscript)):
        receiver = f"({receiver})"
    if how == "in":
        after = _option_test(receiver, text, negated)
        what = f"so {text!r} is never in it: test the attributes"
    elif how == "endswith":
        after = None
        what = "so it ends with '}': test the kind's name or the attributes"
    else:
        after = _kind_test(receiver, text, negated)
        verb = "starts with" if how == "startswith" else ("equals" if not negated else "differs from")
        always = "false" if not negated else "true"
        what = f"so the test that it {verb} {text!r} is always {always}: test the kind's name"
        if after is None:
            what += " and the attributes"
    message = f"{_JSON}, {what}"
    if safety == "report-only" and after is not None:
        message += " (the receiver is taken for a Target by its name)"
    if after is None:
        safety = "report-only"
    if not rewriter.report(original, RULE.rule.id, message, after, safety) or after is None:
        return updated
    return rewriter.parens(cst.parse_expression(after), updated)


@RULE.rewrite(cst.Comparison)
def _comparison(rewriter: Rewriter, original: cst.Comparison, updated: cst.Comparison) -> cst.BaseExpression:
    return _fix(rewriter, original, updated)


@RULE.rewrite(cst.Call)
def _call(rewriter: Rewriter, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
    return _fix(rewriter, original, updated)
