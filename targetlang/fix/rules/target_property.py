"""``target-property``: a read of a ``Target`` property TVM 0.24 removed (``t.arch``,
``t.model``, ...), rewritten to the TVM 0.27 expression that gives what TVM v0.23's property gave
(:mod:`.._properties`). Safe where the receiver is known to hold a ``Target`` (a name bound to
``Target(...)`` or a helper call in its scope, a parameter annotated ``Target``, a call that
makes one), unsafe where only its name says so.

On TVM 0.25 and later the property reads the attribute again: a read is fixed only where it
still behaves otherwise than v0.23's property (a renamed key, a changed type, a computed value;
or an absent attribute, unless a ``hasattr`` test of the same receiver guards the read)."""

from __future__ import annotations

import libcst as cst

from .._plugins import plugin
from .._properties import REMOVED_PROPERTIES
from .._rewriter import Rewriter
from .._rules import Safety
from .._survey import GUESSED_RECEIVERS, Survey

RULE = plugin("target-property")

# Names that are taken for a Target's where nothing else says what they hold.


def _receiver(survey: Survey, node: cst.BaseExpression) -> Safety | None:
    """``safe`` where ``node`` is known to hold a Target, ``unsafe`` where only its name says so."""
    found = survey.target_receiver(node)
    return "safe" if found == "known" else "unsafe" if found == "named" else None


_IMPORTED = RULE.rule.id + "/imported"  # the dotted names of modules imported


@RULE.survey(cst.Import, cst.ImportFrom)
def _imported(survey: Survey, node: cst.Import | cst.ImportFrom) -> None:
    """A module's dotted name reads no property: ``from tvm.target.mcpu import x`` is left."""
    names: list[cst.BaseExpression] = [] if isinstance(node.names, cst.ImportStar) else [a.name for a in node.names]
    if isinstance(node, cst.ImportFrom) and node.module is not None:
        names.append(node.module)
    marked = survey.marks.setdefault(_IMPORTED, set())
    for name in names:
        while isinstance(name, cst.Attribute):
            marked.add(id(name))
            name = name.value


_STORED = RULE.rule.id + "/stored"  # the attributes written or deleted, not read


@RULE.survey(cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.Del, cst.For, cst.CompFor, cst.AsName)
def _stored(
    survey: Survey,
    node: cst.AssignTarget | cst.AugAssign | cst.AnnAssign | cst.Del | cst.For | cst.CompFor | cst.AsName,
) -> None:
    """An attribute assigned, deleted or bound (``t.model = x``, ``del t.arch``, ``for t.arch in
    ...``, ``with ... as t.model``) is no read: it is left as written (rewritten, it was not
    Python)."""
    marked = survey.marks.setdefault(_STORED, set())
    pending: list[cst.BaseExpression] = [node.name if isinstance(node, cst.AsName) else node.target]
    while pending:
        target = pending.pop()
        if isinstance(target, cst.Attribute):
            marked.add(id(target))
        elif isinstance(target, (cst.Tuple, cst.List)):
            pending.extend(element.value for element in target.elements)
        elif isinstance(target, cst.StarredElement):
            pending.append(target.value)


@RULE.survey(cst.Attribute)
def _found(survey: Survey, node: cst.Attribute) -> None:
    if node.attr.value not in REMOVED_PROPERTIES:
        return
    if id(node) in survey.marks.get(_IMPORTED, ()) or id(node) in survey.marks.get(_STORED, ()):
        return
    safety = _receiver(survey, node.value)
    if safety is not None:
        survey.note(RULE.rule.id, node, safety)


@RULE.rewrite(cst.Attribute)
def _fixed(rewriter: Rewriter, original_node: cst.Attribute, updated_node: cst.Attribute) -> cst.BaseExpression:
    safety = rewriter.survey.noted(RULE.rule.id, original_node)
    if safety is None:
        return updated_node
    bound = original_node.value
    if safety == "safe" and isinstance(bound, cst.Name) and not _holds_target(rewriter, bound):
        # another binding reaches the read (a comprehension's, an except's): the name decides
        safety = "unsafe" if bound.value in GUESSED_RECEIVERS else None
        if safety is None:
            return updated_node
    prop = REMOVED_PROPERTIES[original_node.attr.value]
    modern = rewriter.options.target_version.reads_attributes
    if modern and (
        prop.modern is None
        or (not prop.modern_always and _guarded(rewriter, original_node, rewriter.code(original_node.value)))
    ):
        return updated_node  # on this release it reads what v0.23's property read
    receiver = rewriter.code(updated_node.value)
    if not isinstance(updated_node.value, (cst.Name, cst.Attribute, cst.Call, cst.Subscript)):
        receiver = f"({receiver})"
    after = prop.replacement.format(t=receiver)
    if rewriter.fstring_quotes and '"' in rewriter.fstring_quotes:
        after = after.replace('"', "'")  # inside f"...{...}": no double quote before Python 3.12
    if modern:
        message = f"Target.{prop.name}: {prop.modern}; v0.23's property: {prop.note}"
    else:
        message = f"Target.{prop.name} was removed in TVM 0.24; {prop.note}".rstrip("; ")
    if safety == "unsafe":
        message += " (the receiver is taken for a Target by its name)"
    if not rewriter.report(original_node, RULE.rule.id, message, after, safety):
        return updated_node
    return rewriter.parens(cst.parse_expression(after), updated_node)


def _holds_target(rewriter: Rewriter, name: cst.Name) -> bool:
    """Whether every binding LibCST's scope analysis finds for ``name`` gives it a ``Target``:
    an assignment or ``with ... as`` of a call that makes one, a parameter annotated ``Target``."""
    bindings = rewriter.flow.bindings(name)
    if bindings is None:
        return False
    survey = rewriter.survey
    for bound in bindings:
        parent = rewriter.flow.parent(bound) if isinstance(bound, cst.CSTNode) else None
        if isinstance(bound, cst.Param):
            annotation = bound.annotation.annotation if bound.annotation is not None else None
            named = survey.qualified(annotation) if annotation is not None else None
            if isinstance(annotation, cst.SimpleString) and isinstance(annotation.evaluated_value, str):
                named = annotation.evaluated_value
            if named is None or named.rsplit(".", 1)[-1] != "Target":
                return False
        elif isinstance(parent, cst.AssignTarget):
            statement = rewriter.flow.parent(parent)
            if not (isinstance(statement, cst.Assign) and survey.makes_target(statement.value)):
                return False
        elif isinstance(parent, (cst.AnnAssign, cst.NamedExpr)):
            if parent.value is None or not survey.makes_target(parent.value):
                return False
        elif isinstance(parent, cst.AsName):
            item = rewriter.flow.parent(parent)
            if not (isinstance(item, cst.WithItem) and survey.makes_target(item.item)):
                return False
        else:
            return False
    return True


def _guarded(rewriter: Rewriter, node: cst.Attribute, receiver: str) -> bool:
    """Whether ``node`` (a read of the attribute) is only evaluated after ``hasattr(receiver,
    "<its name>")`` held: in the body of an ``if``, the true branch of a conditional expression,
    or after it in an ``and``."""
    name = node.attr.value
    child: cst.CSTNode = node
    parent = rewriter.flow.parent(node)
    while parent is not None and not isinstance(parent, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
        if isinstance(parent, (cst.If, cst.IfExp)) and child is parent.body:
            if _tests(rewriter, parent.test, receiver, name):
                return True
        if isinstance(parent, cst.BooleanOperation) and isinstance(parent.operator, cst.And) and child is parent.right:
            if _tests(rewriter, parent.left, receiver, name):
                return True
        child, parent = parent, rewriter.flow.parent(parent)
    return False


def _tests(rewriter: Rewriter, test: cst.BaseExpression, receiver: str, name: str) -> bool:
    """``test`` is, or holds in an ``and``, ``hasattr(receiver, "name")``."""
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
        return _tests(rewriter, test.left, receiver, name) or _tests(rewriter, test.right, receiver, name)
    if not (isinstance(test, cst.Call) and isinstance(test.func, cst.Name) and test.func.value == "hasattr"):
        return False
    if len(test.args) != 2 or not isinstance(test.args[1].value, cst.SimpleString):
        return False
    return rewriter.code(test.args[0].value) == receiver and test.args[1].value.evaluated_value == name


# The attribute each property read, where it is not the property's own name; and the property
# whose value v0.23 computed (no attribute says whether it is there).
_KEYS = {"device_name": "device", "vtcm_capacity": "vtcm-capacity"}
_COMPUTED = frozenset({"supports_integer_dot_product"})


@RULE.survey(cst.Call)
def _tested(survey: Survey, node: cst.Call) -> None:
    """``hasattr(target, "device_name")``: a test of a removed property."""
    if not (isinstance(node.func, cst.Name) and node.func.value == "hasattr" and len(node.args) == 2):
        return
    name = node.args[1].value
    prop = name.evaluated_value if isinstance(name, cst.SimpleString) else None
    if isinstance(prop, str) and prop in REMOVED_PROPERTIES and _receiver(survey, node.args[0].value) is not None:
        survey.note(RULE.rule.id, node, prop)


@RULE.rewrite(cst.Call)
def _test(rewriter: Rewriter, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
    """On 0.24 ``hasattr(t, "arch")`` is always False (v0.23's always True): test the attribute
    the property read. From 0.25 it tests the attribute again, but for a renamed key."""
    name = rewriter.survey.noted(RULE.rule.id, original)
    if not isinstance(name, str):
        return updated
    prop = REMOVED_PROPERTIES[name]
    if rewriter.options.target_version.reads_attributes and not (prop.modern_always and prop.modern):
        return updated  # it tests whether the target has the attribute, as a guard means to
    if rewriter.options.target_version.reads_attributes and name not in _KEYS and name not in _COMPUTED:
        return updated  # (a changed type: the test still says whether the attribute is there)
    receiver = rewriter.code(updated.args[0].value)
    was = f"hasattr(t, {name!r}) was always true on v0.23 (the property was always there)"
    now = prop.modern if rewriter.options.target_version.reads_attributes else "on TVM 0.24 it is never true"
    if name in _COMPUTED:
        message = f"{was}; {now}: test what the code needs instead"
        rewriter.report(original, RULE.rule.id, message, None, "report-only")
        return updated
    key = _KEYS.get(name, name)
    after = f"({key!r} in {receiver}.attrs)".replace("'", '"')
    message = f"{was}; {now}: test the attribute it read, {key!r} (true where v0.23's property read a value)"
    if not rewriter.report(original, RULE.rule.id, message, after, "unsafe"):
        return updated
    return rewriter.parens(cst.parse_expression(after), updated)
