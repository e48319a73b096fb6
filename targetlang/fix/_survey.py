"""The first of the two passes over a module: what it imports, which names hold a ``Target``,
where a target may stand, and what each rule's survey hooks noted.

It reads the tree through :func:`._walk.walk`, which does not rebuild it as LibCST's own visit
does. Where a target may stand is shared by the rules that read target text (``target-string``,
``dynamic-target``); what else a rule looks for, it notes itself (:mod:`._plugins`).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import libcst as cst

from ._apis import EVERY_POSITIONAL, ApiTable
from ._candidates import built, candidate
from ._compose import is_format
from ._plugins import SurveyHook, survey_hooks
from ._prefilter import GUESSED_RECEIVERS, helper_names

__all__ = ["GUESSED_RECEIVERS", "HELPER_MODULES", "STRICT", "Context", "Survey", "dotted"]

# The modules whose helper constructors TVM 0.24 removed.
HELPER_MODULES = ("tvm.target", "tvm.target.target")


def dotted(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        head = dotted(node.value)
        return None if head is None else f"{head}.{node.attr.value}"
    return None


@dataclass
class _Scope:
    bindings: dict[str, str] = field(default_factory=dict)  # name -> "target" or "other"


@dataclass(frozen=True)
class Context:
    """A place where a target may stand: ``strict``, an argument an API of the table reads as a
    target, or not (a constant, an element, an argument of another call), where only what
    cheaply looks like a legacy target is read. Whether a fix is safe is the flow's to say."""

    strict: bool


STRICT, _LOOSE = Context(True), Context(False)


@functools.cache
def _dispatch(node: type[cst.CSTNode]) -> tuple[Any, Any, tuple[SurveyHook, ...]]:
    """For a node class: the survey's own ``visit_``/``leave_`` functions for it (what
    ``CSTVisitor.on_visit`` looks up by name at every node), and the rules' survey hooks for it."""
    name = node.__name__
    visit, leave = getattr(Survey, f"visit_{name}", None), getattr(Survey, f"leave_{name}", None)
    return visit, leave, survey_hooks().get(node, ())


class Survey(cst.CSTVisitor):
    """What the rewriter needs to know about the module before it changes anything: the names
    its imports bind, the names that hold a ``Target`` in each scope, where a target may stand
    (``contexts``), and what each rule noted (``notes``, by rule id and node) in its hooks."""

    def __init__(self, table: ApiTable) -> None:
        self.table = table
        self.aliases: dict[str, str] = {}
        self.contexts: dict[int, Context] = {}
        self.notes: dict[str, dict[int, Any]] = {}
        # a rule's own bookkeeping, by a name of the rule's: no finding, so no work for the rewriter
        self.marks: dict[str, set[int]] = {}
        self.operands: set[int] = set()  # tuples right of a % template
        self.defined: set[str] = set()  # the names the module defines at its top level
        self.scopes: list[_Scope] = [_Scope()]
        self.helper_names = helper_names()
        # Each node's parent and place in the text (by id), for the flow and for the ways down
        # to what the rewriter reads (paths): noted on the way, where a walk of their own would
        # read the module again.
        self.parents: dict[int, cst.CSTNode] = {}
        self.order: dict[int, int] = {}
        self._path: list[cst.CSTNode] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        path = self._path
        self.order[id(node)] = len(self.order)
        if path:
            self.parents[id(node)] = path[-1]
        path.append(node)
        visit, _, hooks = _dispatch(type(node))
        for hook in hooks:
            hook(self, node)
        return visit is None or visit(self, node) is not False

    def on_leave(self, original_node: cst.CSTNode) -> None:
        _, leave, _ = _dispatch(type(original_node))
        if leave is not None:
            leave(self, original_node)
        self._path.pop()

    def marked(self) -> frozenset[int]:
        """The nodes (by id) a rule noted or a target may stand at: the only ones a rewrite hook
        acts on, itself or below it (a noted dict's values)."""
        return frozenset(self.contexts).union(*self.notes.values())

    def paths(self, marked: Iterable[int]) -> frozenset[int]:
        """The nodes (by id) on the way from the module down to each of ``marked`` (its
        :meth:`marked`), that one included: the rewriter goes down these alone (and all the way
        into a marked one), most of a file left as it is, unvisited."""
        found: set[int] = set()
        parents = self.parents
        for key in marked:
            while key not in found:
                found.add(key)
                parent = parents.get(key)
                if parent is None:
                    break
                key = id(parent)
        return frozenset(found)

    def note(self, rule: str, node: cst.CSTNode, value: Any) -> None:
        """What ``rule`` found at ``node`` (the rewriter hands it back with :meth:`noted`)."""
        self.notes.setdefault(rule, {})[id(node)] = value

    def noted(self, rule: str, node: cst.CSTNode) -> Any:
        """What ``rule`` noted at ``node``, or ``None``."""
        return self.notes.get(rule, {}).get(id(node))

    def work(self) -> bool:
        """Whether anything may need the rewriter: a string where a target may stand that looks
        like a legacy target, or anything a rule noted."""
        return bool(self.contexts or any(self.notes.values()))

    # -- names

    def qualified(self, node: cst.BaseExpression) -> str | None:
        resolved = self.name_of(node)
        return None if resolved is None else resolved[0]

    def visit_Module(self, node: cst.Module) -> None:
        """The classes and functions the module defines itself: a call of one is the module's
        own, never an API of TVM's that its name alone might look like (an assignment may be
        an alias of TVM's own, ``Target = tvm.target.Target``)."""
        for statement in node.body:
            if isinstance(statement, (cst.ClassDef, cst.FunctionDef)):
                self.defined.add(statement.name.value)

    def name_of(self, node: cst.BaseExpression) -> tuple[str, bool] | None:
        """The dotted name ``node`` stands for, by the module's imports, and whether an import
        named its first word."""
        name = dotted(node)
        if name is None:
            return None
        head, _, rest = name.partition(".")
        full = self.aliases.get(head)
        if full is None:
            return name, head in self.defined  # (a name of its own: resolved, to no API)
        return (f"{full}.{rest}" if rest else full), True

    def visit_Import(self, node: cst.Import) -> None:
        for alias in node.names:
            name = dotted(alias.name) or ""
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                self.aliases[alias.asname.name.value] = name
            else:
                head = name.split(".")[0]
                self.aliases[head] = head

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        if node.relative or node.module is None or isinstance(node.names, cst.ImportStar):
            return
        module = dotted(node.module) or ""
        for alias in node.names:
            name = dotted(alias.name) or ""
            local = name
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                local = alias.asname.name.value
            self.aliases[local] = f"{module}.{name}"

    # -- scopes and what their names hold

    def _bind(self, name: str, holds_target: bool) -> None:
        bindings = self.scopes[-1].bindings
        if holds_target and bindings.get(name, "target") == "target":
            bindings[name] = "target"
        else:
            bindings[name] = "other"

    def _bind_target(self, target: cst.BaseExpression, holds_target: bool) -> None:
        if isinstance(target, cst.Name):
            self._bind(target.value, holds_target)
        elif isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                self._bind_target(element.value, False)

    def helper(self, call: cst.Call) -> str | None:
        """The name of the removed helper ``call`` calls (``create`` included), if it is one."""
        module, _, last = (self.qualified(call.func) or "").rpartition(".")
        return last if module in HELPER_MODULES and (last in self.helper_names or last == "create") else None

    def makes_target(self, value: cst.BaseExpression) -> bool:
        if not isinstance(value, cst.Call):
            return False
        name = self.qualified(value.func) or ""
        last = name.rsplit(".", 1)[-1]
        # (canon_target(x) gave x's Target, or None for None, which no property read survived)
        makers = ("Target.current", "Target.canon_target")
        return last == "Target" or name.endswith(makers) or self.helper(value) is not None

    def target_receiver(self, node: cst.BaseExpression) -> str | None:
        """Whether ``node`` holds a ``Target``: ``"known"`` (a call that makes one, a name bound to
        one or annotated ``Target``), ``"named"`` (only its name says so: ``target``, ``tgt``...),
        else ``None``."""
        if isinstance(node, cst.Call):
            return "known" if self.makes_target(node) else None
        if isinstance(node, cst.Name):
            for scope in reversed(self.scopes):
                status = scope.bindings.get(node.value)
                if status == "target":
                    return "known"
                if status is not None:
                    break
            return "named" if node.value in GUESSED_RECEIVERS else None
        if isinstance(node, cst.Attribute) and node.attr.value in GUESSED_RECEIVERS:
            return "named"
        return None

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.scopes.append(_Scope())
        for param in [*node.params.params, *node.params.kwonly_params, *node.params.posonly_params]:
            annotation = param.annotation.annotation if param.annotation is not None else None
            named = self.qualified(annotation) if annotation is not None else None
            if isinstance(annotation, cst.SimpleString):
                named = annotation.evaluated_value if isinstance(annotation.evaluated_value, str) else None
            is_target = named is not None and named.rsplit(".", 1)[-1] == "Target"
            self._bind(param.name.value, is_target)
            if param.default is not None:  # def f(target="llvm -num-cores=4")
                self._mark(param.default, _LOOSE)

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.scopes.pop()

    def visit_Lambda(self, node: cst.Lambda) -> None:
        self.scopes.append(_Scope())
        for param in node.params.params:
            self._bind(param.name.value, False)
            if param.default is not None:
                self._mark(param.default, _LOOSE)

    def leave_Lambda(self, original_node: cst.Lambda) -> None:
        self.scopes.pop()

    def visit_For(self, node: cst.For) -> None:
        self._bind_target(node.target, False)

    def visit_WithItem(self, node: cst.WithItem) -> None:
        if node.asname is not None:  # with Target(...) as t: t holds a Target
            self._bind_target(node.asname.name, self.makes_target(node.item))

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._bind_target(node.target, False)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._bind_target(node.target, self.makes_target(node.value))
        self._mark(node.value, _LOOSE)

    def visit_IfExp(self, node: cst.IfExp) -> None:  # each branch may be the value
        self._mark(node.body, _LOOSE)
        self._mark(node.orelse, _LOOSE)

    # -- where targets stand

    def _mark(self, node: cst.BaseExpression, context: Context) -> None:
        if isinstance(node, (cst.List, cst.Tuple, cst.Set)):
            for element in node.elements:
                if not isinstance(element, cst.StarredElement):
                    self._mark(element.value, context)
            return
        # where a target must stand, any text is looked at (the rewriter reads it whole); elsewhere
        # only what cheaply looks like a legacy target is
        if id(node) in self.operands or not (candidate(node) or (context.strict and built(node))):
            return
        current = self.contexts.get(id(node))
        if current is None or (context.strict and not current.strict):
            self.contexts[id(node)] = context

    def visit_Assign(self, node: cst.Assign) -> None:
        holds = self.makes_target(node.value)
        names = []
        for target in node.targets:
            self._bind_target(target.target, holds)
            names.append(dotted(target.target) or "")
        self._mark(node.value, _LOOSE)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:
            self._bind_target(node.target, self.makes_target(node.value))
            self._mark(node.value, _LOOSE)

    def visit_Return(self, node: cst.Return) -> None:
        if node.value is not None:
            self._mark(node.value, _LOOSE)

    def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
        if isinstance(node.operator, cst.Modulo) and isinstance(node.right, cst.Tuple):
            self.operands.add(id(node.right))  # the values of a % template, not a list of targets

    def visit_List(self, node: cst.List) -> None:
        if id(node) not in self.operands:
            self._mark(node, _LOOSE)

    def visit_Tuple(self, node: cst.Tuple) -> None:
        if id(node) not in self.operands:
            self._mark(node, _LOOSE)
        else:  # the operands of a % template: parts of one text
            self.operands.update(id(element.value) for element in node.elements)

    def visit_Set(self, node: cst.Set) -> None:
        self._mark(node, _LOOSE)

    def visit_DictElement(self, node: cst.DictElement) -> None:
        self._mark(node.value, _LOOSE)

    def visit_Call(self, node: cst.Call) -> None:
        if is_format(node):  # "...".format(a, b), " ".join([a, b]): parts of one text, no targets
            for arg in node.args:
                self.operands.add(id(arg.value))
                if isinstance(arg.value, (cst.List, cst.Tuple)):
                    self.operands.update(id(element.value) for element in arg.value.elements)
            return
        resolved = self.name_of(node.func)
        api = self.table.find(*resolved) if resolved is not None else None
        position = 0
        for arg in node.args:
            if arg.star:
                position = -(1 << 30)  # after *args no position is known
                if arg.star == "*" and api is not None and EVERY_POSITIONAL in api.positions:
                    self._mark(arg.value, STRICT)
                continue
            keyword = arg.keyword.value if arg.keyword is not None else None
            takes = api is not None and api.takes(position if keyword is None and position >= 0 else None, keyword)
            # any other argument: a target only as far as it looks like one, and as safe as
            # its uses (the flow) say
            self._mark(arg.value, STRICT if takes else _LOOSE)
            if keyword is None:
                position += 1
