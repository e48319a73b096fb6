"""The Python side of ``targetlang fix``: LibCST finds legacy targets and rewrites them in place.

Two passes over one tree. :class:`_Survey` reads the whole module first: which strings stand
where a target goes (and how sure that is), which calls are removed helpers, and which names
evidently hold a ``Target`` in each scope. It reads it through :func:`._walk.walk`, which does
not rebuild the tree as LibCST's own visit does. :class:`_Rewriter` then replaces those nodes, bottom
up, keeping every other byte of the source: comments, layout and quote style stay as they were.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import io
import re
import tokenize
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import libcst as cst

from .._registry import Registry
from ..errors import NestingTooDeepError, SourceSyntaxError, SourceTooLargeError
from ._apis import DEFAULT_TABLE, EVERY_POSITIONAL, ApiTable
from ._constants import evaluate
from ._convert import Conversion, convert, known_kind, options_of, reading_registry
from ._findings import Finding, UseSite
from ._flow import Flow, Use, unsafe_use
from ._imports import imports
from ._literal import PLACEHOLDER, placeholder, render
from ._positions import starts
from ._properties import REMOVED_PROPERTIES
from ._rules import Safety
from ._walk import walk

__all__ = ["MAX_PYTHON_CHARS", "fix_python"]

_HELPER_MODULES = ("tvm.target", "tvm.target.target")
_CANON = {
    "canon_target": "one",
    "canon_target_and_host": "pair",
    "canon_multi_target": "many",
    "canon_multi_target_and_host": "many",
    "canon_target_map_and_host": "many",
}
_GUESSED_RECEIVERS = frozenset({"target", "tgt", "tvm_target", "target_host", "host"})


def _dotted(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        head = _dotted(node.value)
        return None if head is None else f"{head}.{node.attr.value}"
    return None


@dataclass
class _Scope:
    bindings: dict[str, str] = field(default_factory=dict)  # name -> "target" or "other"
    function: str = ""


@dataclass(frozen=True)
class _Context:
    """A place where a target may stand: ``strict``, an argument an API of the table reads as a
    target, or not (a constant, an element, an argument of another call), where only what
    cheaply looks like a legacy target is read. Whether a fix is safe is the flow's to say."""

    strict: bool


_STRICT, _LOOSE = _Context(True), _Context(False)


def _helper_names() -> frozenset[str]:
    from ..helpers import HELPERS

    return frozenset(HELPERS)


@functools.cache
def _dispatch(visitor: type[cst.CSTVisitor], node: type[cst.CSTNode]) -> tuple[bool, Any, Any]:
    """For a node class: whether it is a statement, and the visitor's ``visit_``/``leave_``
    functions for it (what ``CSTVisitor.on_visit`` looks up by name at every node)."""
    name = node.__name__
    statement = issubclass(node, cst.BaseStatement)
    return statement, getattr(visitor, f"visit_{name}", None), getattr(visitor, f"leave_{name}", None)


class _Survey(cst.CSTVisitor):
    """What the rewriter needs to know about the module before it changes anything."""

    def __init__(self, table: ApiTable) -> None:
        self.table = table
        self.aliases: dict[str, str] = {}
        self.contexts: dict[int, _Context] = {}
        self.helpers: dict[int, str] = {}  # call -> helper name ("create" included)
        self.canon: dict[int, str] = {}  # call -> canon_* name
        self.pairs: dict[int, tuple[str, str]] = {}  # call -> the two names it is unpacked into
        self.properties: dict[int, Safety] = {}  # attribute -> safety of replacing it
        self.operands: set[int] = set()  # tuples right of a % template
        self.scopes: list[_Scope] = [_Scope()]
        self.helper_names = _helper_names()
        self.open: list[cst.CSTNode] = []  # the statements the visit is inside
        # The statements that hold a node the rewriter may change (each is kept where it is
        # named, _keep): it skips the others, most of a file. Every node the survey names is the
        # one it visits or inside it.
        self.kept: set[int] = set()

    def on_visit(self, node: cst.CSTNode) -> bool:
        statement, visit, _ = _dispatch(type(self), type(node))
        if statement:
            self.open.append(node)
        return visit is None or visit(self, node) is not False

    def on_leave(self, original_node: cst.CSTNode) -> None:
        statement, _, leave = _dispatch(type(self), type(original_node))
        if leave is not None:
            leave(self, original_node)
        if statement:
            self.open.pop()

    def _keep(self) -> None:
        """The statements the visit is inside hold a node named for the rewriter."""
        self.kept.update(map(id, self.open))

    def work(self) -> bool:
        """Whether anything may need the rewriter: a string where a target may stand that looks
        like a legacy target, a removed helper or ``canon_*`` call, a removed property."""
        return bool(self.contexts or self.helpers or self.canon or self.properties)

    # -- names

    def qualified(self, node: cst.BaseExpression) -> str | None:
        resolved = self.name_of(node)
        return None if resolved is None else resolved[0]

    def name_of(self, node: cst.BaseExpression) -> tuple[str, bool] | None:
        """The dotted name ``node`` stands for, by the module's imports, and whether an import
        named its first word."""
        name = _dotted(node)
        if name is None:
            return None
        head, _, rest = name.partition(".")
        full = self.aliases.get(head)
        if full is None:
            return name, False
        return (f"{full}.{rest}" if rest else full), True

    def visit_Import(self, node: cst.Import) -> None:
        for alias in node.names:
            name = _dotted(alias.name) or ""
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                self.aliases[alias.asname.name.value] = name
            else:
                head = name.split(".")[0]
                self.aliases[head] = head

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        if node.relative or node.module is None or isinstance(node.names, cst.ImportStar):
            return
        module = _dotted(node.module) or ""
        for alias in node.names:
            name = _dotted(alias.name) or ""
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

    def _helper(self, call: cst.Call) -> str | None:
        """The name of the removed helper ``call`` calls (``create`` included), if it is one."""
        module, _, last = (self.qualified(call.func) or "").rpartition(".")
        return last if module in _HELPER_MODULES and (last in self.helper_names or last == "create") else None

    def _makes_target(self, value: cst.BaseExpression) -> bool:
        if not isinstance(value, cst.Call):
            return False
        name = self.qualified(value.func) or ""
        last = name.rsplit(".", 1)[-1]
        return last == "Target" or name.endswith("Target.current") or self._helper(value) is not None

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.scopes.append(_Scope(function=node.name.value))
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
        self.scopes.append(_Scope(function=self.scopes[-1].function))
        for param in node.params.params:
            self._bind(param.name.value, False)

    def leave_Lambda(self, original_node: cst.Lambda) -> None:
        self.scopes.pop()

    def visit_For(self, node: cst.For) -> None:
        self._bind_target(node.target, False)

    def visit_WithItem(self, node: cst.WithItem) -> None:
        if node.asname is not None:
            self._bind_target(node.asname.name, False)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._bind_target(node.target, False)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._bind_target(node.target, self._makes_target(node.value))

    # -- where targets stand

    def _mark(self, node: cst.BaseExpression, context: _Context) -> None:
        if isinstance(node, (cst.List, cst.Tuple, cst.Set)):
            for element in node.elements:
                if not isinstance(element, cst.StarredElement):
                    self._mark(element.value, context)
            return
        # where a target must stand, any text is looked at (the rewriter reads it whole); elsewhere
        # only what cheaply looks like a legacy target is
        if id(node) in self.operands or not (_candidate(node) or (context.strict and _built(node))):
            return
        current = self.contexts.get(id(node))
        if current is None or (context.strict and not current.strict):
            self.contexts[id(node)] = context
            self._keep()

    def visit_Assign(self, node: cst.Assign) -> None:
        holds = self._makes_target(node.value)
        names = []
        for target in node.targets:
            self._bind_target(target.target, holds)
            names.append(_dotted(target.target) or "")
        self._mark(node.value, _LOOSE)
        call = node.value
        if isinstance(call, cst.Call) and len(node.targets) == 1:
            unpacked = node.targets[0].target
            if isinstance(unpacked, cst.Tuple) and len(unpacked.elements) == 2:
                first, second = (element.value for element in unpacked.elements)
                if isinstance(first, cst.Name) and isinstance(second, cst.Name):
                    self.pairs[id(call)] = (first.value, second.value)
                    self._keep()

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:
            self._bind_target(node.target, self._makes_target(node.value))
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
        if _is_format(node):  # "...".format(a, b), " ".join([a, b]): parts of one text, no targets
            for arg in node.args:
                self.operands.add(id(arg.value))
                if isinstance(arg.value, (cst.List, cst.Tuple)):
                    self.operands.update(id(element.value) for element in arg.value.elements)
            return
        resolved = self.name_of(node.func)
        name = resolved[0] if resolved is not None else ""
        module, _, last = name.rpartition(".")
        positional = [arg.value for arg in node.args if arg.keyword is None and not arg.star]
        if self._helper(node) is not None:
            self.helpers[id(node)] = last
            self._keep()
            if last == "create":
                for value in positional[:1]:
                    self._mark(value, _STRICT)
        elif last in _CANON and module.rsplit(".", 1)[-1] == "Target":
            self.canon[id(node)] = last
            self._keep()
            for value in positional[:2]:
                self._mark(value, _STRICT)
        api = self.table.find(*resolved) if resolved is not None else None
        position = 0
        for arg in node.args:
            if arg.star:
                position = -(1 << 30)  # after *args no position is known
                if arg.star == "*" and api is not None and EVERY_POSITIONAL in api.positions:
                    self._mark(arg.value, _STRICT)
                continue
            keyword = arg.keyword.value if arg.keyword is not None else None
            takes = api is not None and api.takes(position if keyword is None and position >= 0 else None, keyword)
            # any other argument: a target only as far as it looks like one, and as safe as
            # its uses (the flow) say
            self._mark(arg.value, _STRICT if takes else _LOOSE)
            if keyword is None:
                position += 1

    # -- removed properties

    def _receiver(self, node: cst.BaseExpression) -> Safety | None:
        if isinstance(node, cst.Call):
            return "safe" if self._makes_target(node) else None
        if isinstance(node, cst.Name):
            for scope in reversed(self.scopes):
                status = scope.bindings.get(node.value)
                if status == "target":
                    return "safe"
                if status is not None:
                    break
            return "unsafe" if node.value in _GUESSED_RECEIVERS else None
        if isinstance(node, cst.Attribute) and node.attr.value in _GUESSED_RECEIVERS:
            return "unsafe"
        return None

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if node.attr.value not in REMOVED_PROPERTIES:
            return
        safety = self._receiver(node.value)
        if safety is not None:
            self.properties[id(node)] = safety
            self._keep()


@dataclass(frozen=True)
class _Options:
    path: str
    registry: Registry | None
    unsafe: bool
    selected: Callable[[str], bool]
    prefer_tags: bool


class _Rewriter(cst.CSTTransformer):
    def __init__(self, module: cst.Module, survey: _Survey, options: _Options, flow: Flow) -> None:
        super().__init__()
        self.module = module
        self.survey = survey
        self.options = options
        self.flow = flow
        self.findings: list[Finding] = []  # placed at line 0 until placed() is called
        self.reported: list[cst.CSTNode] = []  # the node of each finding
        # the uses of each finding's value, and the one that keeps its fix from being safe
        self.uses: list[tuple[Sequence[Use], Use | None]] = []
        self.need_target_import = False
        self.replaced_imports: set[tuple[str, str, str | None]] = set()  # (module, name, alias)
        self.fstring_quotes: list[str] = []  # the quotes of the f-strings around the current node

    # -- bookkeeping

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, cst.BaseStatement) and id(node) not in self.survey.kept:
            return False  # nothing in it to change (its leave_ method still sees it, unchanged)
        return super().on_visit(node)

    def _code(self, node: cst.CSTNode) -> str:
        return self.module.code_for_node(node)

    def _report(
        self,
        original: cst.CSTNode,
        rule: str,
        message: str,
        after: str | None,
        safety: Safety,
        changes: Sequence[str] = (),
        uses: Sequence[Use] = (),
        blocker: Use | None = None,
    ) -> bool:
        """Record a finding (with the uses of its value, and the use that makes it unsafe);
        whether to apply it."""
        apply = (
            after is not None
            and self.options.selected(rule)
            and (safety == "safe" or (safety == "unsafe" and self.options.unsafe))
        )
        if not self.options.selected(rule):
            return False
        self.findings.append(
            Finding(
                self.options.path,
                0,
                0,
                rule,
                message,
                self._code(original),
                after,
                safety,
                apply,
                tuple(changes),
            )
        )
        self.reported.append(original)
        self.uses.append((uses, blocker))
        return apply

    def placed(self) -> list[Finding]:
        """The findings, each at the line and column where its node starts (found at once, for
        all of them: see :mod:`._positions`), with the uses of its value where they are."""
        wanted = set(self.reported)
        wanted.update(use.node for uses, _ in self.uses for use in uses)
        where = starts(self.module, wanted)
        placed = []
        for finding, node, (uses, blocker) in zip(self.findings, self.reported, self.uses, strict=True):
            sites = tuple(UseSite(where[u.node][0], where[u.node][1] + 1, u.kind, u.what) for u in uses)
            reason = None
            message = finding.message
            if blocker is not None:
                reason = f"at line {where[blocker.node][0]}, {blocker.what}"
                if finding.safety == "unsafe":
                    message += f"; not safe: {reason}"
            placed.append(
                dataclasses.replace(
                    finding,
                    line=where[node][0],
                    column=where[node][1] + 1,
                    message=message,
                    reason=reason,
                    uses=sites,
                )
            )
        return placed

    @staticmethod
    def _parens(new: cst.BaseExpression, old: cst.BaseExpression) -> cst.BaseExpression:
        if old.lpar and not new.lpar:
            return new.with_changes(lpar=old.lpar, rpar=old.rpar)
        return new

    # -- target text

    def _written(self, conversion: Conversion, quote: str, exprs: Sequence[str] = ()) -> str | None:
        if conversion.tag is not None:
            return quote + conversion.tag + quote
        return render(conversion.config, quote, exprs)

    def _target_text(
        self, original: cst.BaseExpression, updated: cst.BaseExpression, text: str, exprs: Sequence[str], rule: str
    ) -> cst.BaseExpression:
        context = self.survey.contexts[id(original)]
        words = options_of(text)
        if words is None or PLACEHOLDER.search(words[0]):
            return updated
        if not known_kind(words[0], self.options.registry) and not context.strict:
            return updated
        conversion = self._convert(text)
        if conversion.config is None and not context.strict:
            # a string that merely starts like a target: only where a target must stand is it one
            if conversion.changes == ():
                return updated
        quote = _quote_of(original)
        written = self._written(conversion, quote, exprs) if conversion.config is not None else None
        safety: Safety = conversion.safety if written is not None else "report-only"
        message = conversion.message
        uses = self.flow.uses(original)
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
        if not self._report(original, rule, message, written, safety, conversion.rule_ids, uses, blocker):
            return updated
        assert written is not None
        return self._parens(cst.parse_expression(written), updated)

    def _convert(self, text: str, hint: str | None = None) -> Conversion:
        return convert(text, self.options.registry, hint, self.options.prefer_tags)

    def leave_SimpleString(self, original_node: cst.SimpleString, updated_node: cst.SimpleString) -> cst.BaseExpression:
        if id(original_node) not in self.survey.contexts:
            return updated_node
        value = original_node.evaluated_value
        if not isinstance(value, str):
            return updated_node
        return self._target_text(original_node, updated_node, value, (), "target-string")

    def leave_ConcatenatedString(
        self, original_node: cst.ConcatenatedString, updated_node: cst.ConcatenatedString
    ) -> cst.BaseExpression:
        return self._dynamic(original_node, updated_node, literal_rule="target-string")

    def visit_FormattedString(self, node: cst.FormattedString) -> None:
        self.fstring_quotes.append(node.end[0])

    def leave_FormattedString(
        self, original_node: cst.FormattedString, updated_node: cst.FormattedString
    ) -> cst.BaseExpression:
        self.fstring_quotes.pop()
        return self._dynamic(original_node, updated_node)

    def leave_BinaryOperation(
        self, original_node: cst.BinaryOperation, updated_node: cst.BinaryOperation
    ) -> cst.BaseExpression:
        return self._dynamic(original_node, updated_node)

    def _dynamic(
        self, original: cst.BaseExpression, updated: cst.BaseExpression, literal_rule: str = "dynamic-target"
    ) -> cst.BaseExpression:
        """A target text built of parts (``literal_rule`` when every part is a literal)."""
        if id(original) not in self.survey.contexts:
            return updated
        built = _compose(original, self._code)
        if built is None:
            return updated
        text, exprs = built
        return self._target_text(original, updated, text, exprs, "dynamic-target" if exprs else literal_rule)

    # -- calls: helpers, canon_*, str.format

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        key = id(original_node)
        if key in self.survey.contexts and _is_format(original_node):
            return self._dynamic(original_node, updated_node)
        if key in self.survey.helpers:
            return self._helper(original_node, updated_node, self.survey.helpers[key])
        if key in self.survey.canon and key not in self.survey.pairs:
            return self._canon(original_node, updated_node, self.survey.canon[key])
        return updated_node

    def _constructor(self, func: cst.BaseExpression, suffix: str) -> str:
        """The code that names ``Target`` where ``func`` (a helper or ``Target.canon_*``) was."""
        name = self._code(func)
        if suffix and name.endswith("." + suffix):
            return name[: -len(suffix) - 1]
        if "." in name:
            return name.rsplit(".", 1)[0] + ".Target"
        if self.survey.aliases.get("Target", "").rsplit(".", 1)[-1] != "Target":
            self.need_target_import = True
        if isinstance(func, cst.Name):  # imported by name: the import may be left unused
            module, _, name = self.survey.aliases.get(func.value, "").rpartition(".")
            if module:
                self.replaced_imports.add((module, name, func.value if func.value != name else None))
        return "Target"

    def _helper(self, original: cst.Call, updated: cst.Call, name: str) -> cst.BaseExpression:
        from ..helpers import helper_string

        constructor = self._constructor(original.func, "")
        if name == "create":
            rule, message = "canon-target", "tvm.target.create() is Target()"
            if not self._report(original, rule, message, f"{constructor}(...)", "safe"):
                return updated
            return updated.with_changes(func=cst.parse_expression(constructor))
        exprs: list[str] = []
        args: list[Any] = []
        kwargs: dict[str, Any] = {}
        # the code of an argument is the rewritten one: a removed property inside it is fixed in
        # the same pass (arm_cpu(t.model))
        for arg, now in zip(original.args, updated.args, strict=True):
            if arg.star:
                message = f"{name}() called with {arg.star}: the target it builds is known only at run time"
                self._report(original, "target-helper", message, None, "report-only")
                return updated
            try:
                value = evaluate(arg.value)
            except ValueError:
                value = placeholder(len(exprs))
                exprs.append(self._code(now.value))
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
            self._report(original, "target-helper", f"{name}(): {problem}", None, "report-only")
            return updated
        hint = next((a for a in [*args[:1], kwargs.get("model"), kwargs.get("cpu_ver")] if isinstance(a, str)), None)
        conversion = self._convert(text, None if exprs else hint)
        written = self._written(conversion, '"', exprs) if conversion.config is not None else None
        used = all(placeholder(i) in text for i in range(len(exprs)))
        if written is not None and not used:
            written = None  # an argument that did not reach the target text: cannot write it
        safety: Safety = "report-only" if written is None else ("unsafe" if exprs else conversion.safety)
        shown = text
        for index, code in enumerate(exprs):
            shown = shown.replace(placeholder(index), "{" + code + "}")
        message = f"{name}() built {shown!r}; " + conversion.message
        after = None if written is None else f"{constructor}({written})"
        if not self._report(original, "target-helper", message, after, safety, conversion.rule_ids):
            return updated
        assert after is not None
        return self._parens(cst.parse_expression(after), updated)

    def _canon(self, original: cst.Call, updated: cst.Call, name: str) -> cst.BaseExpression:
        constructor = self._constructor(original.func, name)
        if _CANON[name] != "one":
            message = (
                f"{name}() returns {'a pair' if _CANON[name] == 'pair' else 'a list or map'} of targets: "
                "build each with Target(target, host=host)"
            )
            self._report(original, "canon-target", message, None, "report-only")
            return updated
        args = [arg for arg in updated.args if arg.keyword is None]
        if len(args) != 1 or args[0].star:
            self._report(original, "canon-target", f"{name}() with unusual arguments", None, "report-only")
            return updated
        literal = isinstance(original.args[0].value, (cst.SimpleString, cst.ConcatenatedString, cst.Dict))
        if isinstance(original.args[0].value, cst.Name) and original.args[0].value.value == "None":
            self._report(original, "canon-target", f"{name}(None) is None", None, "report-only")
            return updated
        safety: Safety = "safe" if literal else "unsafe"
        message = f"{name}(x) is Target(x)" + ("" if literal else " unless x is None (canon_target returned None)")
        new = updated.with_changes(func=cst.parse_expression(constructor), args=[args[0].with_changes(comma=None)])
        if not self._report(original, "canon-target", message, self._code(new), safety):
            return updated
        return new

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
        if len(original_node.body) != 1 or not isinstance(original_node.body[0], cst.Assign):
            return updated_node
        call = original_node.body[0].value
        if id(call) not in self.survey.pairs or self.survey.canon.get(id(call)) != "canon_target_and_host":
            return updated_node
        first, second = self.survey.pairs[id(call)]
        assign = updated_node.body[0]
        assert isinstance(assign, cst.Assign) and isinstance(assign.value, cst.Call)
        new_call = assign.value
        constructor = self._constructor(new_call.func, "canon_target_and_host")
        positional = [arg for arg in new_call.args if arg.keyword is None]
        keyword = [arg for arg in new_call.args if arg.keyword is not None and arg.keyword.value == "target_host"]
        host = positional[1].value if len(positional) > 1 else (keyword[0].value if keyword else None)
        target = self._code(positional[0].value) if positional else None
        if target is None:
            return updated_node
        host_code = None if host is None or (isinstance(host, cst.Name) and host.value == "None") else self._code(host)
        built = f"{constructor}({target}" + (f", host={host_code})" if host_code else ")")
        lines = f"{first} = {built}\n{second} = {first}.host\n"
        message = "canon_target_and_host(t, h) is (Target(t, host=h), its host), unless t is None"
        if not self._report(call, "canon-target", message, lines.rstrip("\n"), "unsafe"):
            return updated_node
        statements = cst.parse_module(lines).body
        head = statements[0].with_changes(leading_lines=updated_node.leading_lines)
        return cst.FlattenSentinel([head, *statements[1:]])

    # -- removed properties

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute) -> cst.BaseExpression:
        safety = self.survey.properties.get(id(original_node))
        if safety is None:
            return updated_node
        prop = REMOVED_PROPERTIES[original_node.attr.value]
        receiver = self._code(updated_node.value)
        if not isinstance(updated_node.value, (cst.Name, cst.Attribute, cst.Call, cst.Subscript)):
            receiver = f"({receiver})"
        after = prop.replacement.format(t=receiver)
        if self.fstring_quotes and '"' in self.fstring_quotes:
            after = after.replace('"', "'")  # inside f"...{...}": no double quote before Python 3.12
        message = f"Target.{prop.name} was removed in TVM 0.24; {prop.note}".rstrip("; ")
        if safety == "unsafe":
            message += " (the receiver is taken for a Target by its name)"
        if not self._report(original_node, "target-property", message, after, safety):
            return updated_node
        return self._parens(cst.parse_expression(after), updated_node)


# A legacy target with options: a word, white space, a dash, in the text of one string node.
_LEGACY_SHAPE = re.compile(r"""^[rRuUfF]*(?:'|"|\'\'\'|\"\"\")\s*[\w{%-]""")
_OPTION = re.compile(r"\s-")
_LEGACY_TEXT = re.compile(r"\s*[\w{]\S*\s+-")


def _worth_parsing(text: str, registry: Registry | None = None) -> bool:
    """Whether ``text`` has anything the rules look for at all: most files of a tree have not,
    and reading them with LibCST is most of the time a run takes."""
    looks, properties = _prefilter(registry)
    return bool(looks.search(text) or (properties.search(text) and _TARGET_WORD.search(text)))


_TARGET_WORD = re.compile(r"target|tgt", re.IGNORECASE)


@functools.lru_cache(maxsize=8)
def _prefilter(registry: Registry | None) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """What may hold a legacy target: a string that starts like one (a kind, or a template's
    field, and an option later in it), the parts of a built one (a kind and a space, then a field
    or the end of the string; a space and an option alone), a string with options where a target
    must stand, a string written with escapes, a join of a literal list, a helper or ``canon_*``
    call; and a removed property (in a file that speaks of targets)."""
    kinds = "|".join(sorted(map(re.escape, reading_registry(registry).kinds), key=len, reverse=True))
    helpers = "|".join(sorted(_helper_names() | {"create"}))
    head = rf"""(?:{kinds}|%[-#0 +\d.]*[a-z]|\{{[^{{}}\n]*\}})"""
    looks = re.compile(
        "|".join(
            (
                rf"""["']\s*{head}[^"'\n]*?\s-""",
                rf"""["']\s*(?:{kinds})\s+["'{{%]""",
                r"""["']\s+-\w""",
                r"""(?:Target\(|\b(?:target|target_host|host)\s*=)[^)]{0,400}?["'][^"'\n]*?-""",
                r"""["'][^"'\n]*\\[xuUN0-7]""",
                r"""["']\.join\(\s*[\[(]""",
                rf"""\b(?:{helpers})\s*\(|canon_""",
            )
        )
    )
    return looks, re.compile(rf"\.(?:{'|'.join(sorted(REMOVED_PROPERTIES))})\b")


def _built(node: cst.BaseExpression) -> bool:
    """``node`` builds a text of parts (``+``, ``%``, an f-string, ``.format``, ``.join``)."""
    return isinstance(node, (cst.BinaryOperation, cst.FormattedString)) or (
        isinstance(node, cst.Call) and _is_format(node)
    )


def _candidate(node: cst.BaseExpression) -> bool:
    """Cheaply: ``node`` may build a legacy target with options (the rewriter decides)."""
    if isinstance(node, cst.SimpleString):
        return bool(_LEGACY_SHAPE.match(node.value) and _OPTION.search(node.value))
    if isinstance(node, cst.ConcatenatedString):
        value = node.evaluated_value
        if isinstance(value, str):
            return bool(_LEGACY_TEXT.match(value))
        return _candidate(node.left) or _candidate(node.right)
    if isinstance(node, cst.FormattedString):
        return any(
            _OPTION.search(p.value)
            if isinstance(p, cst.FormattedStringText)
            else isinstance(p, cst.FormattedStringExpression) and _candidate(p.expression)
            for p in node.parts
        )
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (cst.Add, cst.Modulo)):
        return _candidate(node.left) or _candidate(node.right)
    if isinstance(node, (cst.Tuple, cst.List)):  # the operands of a % template
        return any(_candidate(element.value) for element in node.elements)
    if isinstance(node, cst.Call) and _is_format(node) and isinstance(node.func, cst.Attribute):
        if node.func.attr.value == "join":
            return bool(node.args) and isinstance(node.args[0].value, (cst.List, cst.Tuple))
        return _candidate(node.func.value) or any(_candidate(arg.value) for arg in node.args)
    return False


def _quote_of(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.SimpleString):
        return node.quote[0]
    if isinstance(node, cst.FormattedString):
        return node.end[0]
    if isinstance(node, cst.ConcatenatedString):
        return _quote_of(node.left)
    if isinstance(node, cst.BinaryOperation):
        return _quote_of(node.left)
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
        return _quote_of(node.func.value)
    return '"'


def _is_format(node: cst.Call) -> bool:
    """``"...".format(...)`` or ``" ".join([...])``: a method of a string literal that builds text."""
    func = node.func
    return (
        isinstance(func, cst.Attribute)
        and func.attr.value in ("format", "join")
        and isinstance(func.value, cst.SimpleString)
    )


def _compose(node: cst.BaseExpression, code: Callable[[cst.CSTNode], str]) -> tuple[str, list[str]] | None:
    """The text ``node`` builds, with a placeholder for each part that is not a literal, and the
    code of those parts; ``None`` when it is no string building this module understands."""
    exprs: list[str] = []

    def part(value: cst.BaseExpression) -> str | None:
        try:
            literal = evaluate(value)
        except ValueError:
            exprs.append(code(value))
            return placeholder(len(exprs) - 1)
        return literal if isinstance(literal, str) else str(literal)

    def operand(value: cst.BaseExpression) -> Any:
        """A literal's own value (``%d`` wants the number), else a placeholder."""
        try:
            return evaluate(value)
        except ValueError:
            exprs.append(code(value))
            return placeholder(len(exprs) - 1)

    def walk(value: cst.BaseExpression) -> str | None:
        if isinstance(value, cst.SimpleString):
            text = value.evaluated_value
            return text if isinstance(text, str) else None
        if isinstance(value, cst.ConcatenatedString):
            left, right = walk(value.left), walk(value.right)
            return None if left is None or right is None else left + right
        if isinstance(value, cst.FormattedString):
            return _formatted(value, part)
        if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Add):
            left, right = walk(value.left), part(value.right) if not _stringish(value.right) else walk(value.right)
            if not _stringish(value.left):
                left = part(value.left)
            return None if left is None or right is None else left + right
        if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Modulo):
            template = walk(value.left) if isinstance(value.left, cst.SimpleString) else None
            if template is None:
                return None
            items = value.right.elements if isinstance(value.right, cst.Tuple) else None
            operands = [e.value for e in items] if items is not None else [value.right]
            values = [operand(e) for e in operands]
            try:
                return template % tuple(values)
            except (TypeError, ValueError, KeyError):
                if not any(isinstance(v, str) and PLACEHOLDER.search(v) for v in values):
                    return None  # Python itself cannot format it: no text, no target
                # a placeholder where a number is wanted (%d): it stands for the whole field
                fields = iter(v if isinstance(v, str) else str(v) for v in values)
                try:
                    return _PERCENT_FIELD.sub(lambda m: "%" if m[0] == "%%" else next(fields), template)
                except StopIteration:
                    return None
        if isinstance(value, cst.Call) and _is_format(value):
            assert isinstance(value.func, cst.Attribute)
            template = walk(value.func.value)
            if value.func.attr.value == "join":
                joined = value.args[0].value if len(value.args) == 1 and not value.args[0].star else None
                if template is None or not isinstance(joined, (cst.List, cst.Tuple)):
                    return None
                words = [part(e.value) if not _stringish(e.value) else walk(e.value) for e in joined.elements]
                return None if any(w is None for w in words) else template.join(w for w in words if w is not None)
            if template is None or any(arg.star for arg in value.args):
                return None
            positional = [operand(arg.value) for arg in value.args if arg.keyword is None]
            named = {arg.keyword.value: operand(arg.value) for arg in value.args if arg.keyword is not None}
            try:
                return template.format(*positional, **named)
            except (IndexError, KeyError, ValueError, AttributeError, TypeError):
                return _format_fields(template, positional, named)
        return None

    text = walk(node)
    return None if text is None else (text, exprs)


_PERCENT_FIELD = re.compile(r"%%|%[-#0 +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[diouxXeEfFgGcrsa]")
_FORMAT_FIELD = re.compile(r"\{\{|\}\}|\{([^{}!:]*)(?:![rsa])?(?::[^{}]*)?\}")


def _format_fields(template: str, positional: list[Any], named: dict[str, Any]) -> str | None:
    """``template.format(...)`` with each field replaced by its argument as text, whatever its
    conversion or format spec: where an argument is a placeholder it stands for the field."""
    counter = iter(range(len(positional)))

    def field(match: re.Match[str]) -> str:
        if match[0] in ("{{", "}}"):
            return match[0][0]
        name = match[1]
        value = positional[next(counter)] if name == "" else (positional[int(name)] if name.isdigit() else named[name])
        return value if isinstance(value, str) else str(value)

    try:
        return _FORMAT_FIELD.sub(field, template)
    except (StopIteration, IndexError, KeyError):
        return None


def _stringish(node: cst.BaseExpression) -> bool:
    return (
        isinstance(node, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString))
        or (isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (cst.Add, cst.Modulo)))
        or (isinstance(node, cst.Call) and _is_format(node))
    )


def _formatted(node: cst.FormattedString, part: Callable[[cst.BaseExpression], str | None]) -> str | None:
    prefix = node.start[:-1].lower().replace("f", "")
    quote = node.end
    out = []
    for piece in node.parts:
        if isinstance(piece, cst.FormattedStringText):
            try:
                text = ast.literal_eval(prefix + quote + piece.value + quote)
            except (SyntaxError, ValueError):
                return None
            out.append(str(text).replace("{{", "{").replace("}}", "}"))
            continue
        if not isinstance(piece, cst.FormattedStringExpression):
            return None
        if piece.equal is not None:
            return None  # f"{x=}" prints the expression's text too: no target is written so
        if piece.conversion is not None or piece.format_spec:
            # what it prints is not the value itself: the suggestion says how it is printed
            value = part(_printed(piece))
        else:
            value = part(piece.expression)
        if value is None:
            return None
        out.append(value)
    return "".join(out)


def _printed(piece: cst.FormattedStringExpression) -> cst.BaseExpression:
    """The expression that gives what ``{x!r:>3}`` prints: ``format(repr(x), ">3")``."""
    code = cst.Module(body=[]).code_for_node(piece.expression)
    if piece.conversion is not None:
        code = f"{ {'r': 'repr', 's': 'str', 'a': 'ascii'}[piece.conversion] }({code})"
    if piece.format_spec:
        spec = "".join(p.value if isinstance(p, cst.FormattedStringText) else "{}" for p in piece.format_spec)
        code = f"format({code}, {spec!r})"
    return cst.parse_expression(code)


def fix_python(
    text: str,
    *,
    path: str = "<string>",
    registry: Registry | None = None,
    unsafe: bool = False,
    selected: Callable[[str], bool] = lambda rule: True,
    prefer_tags: bool = False,
    first_line: int = 1,
    table: ApiTable = DEFAULT_TABLE,
) -> tuple[str, list[Finding]]:
    """``text`` (Python source) with its legacy targets fixed, and the findings; their line
    numbers count from ``first_line`` (a code block inside a document)."""
    if text.startswith("\ufeff"):  # LibCST drops a byte order mark: keep it
        without, found = fix_python(
            text[1:],
            path=path,
            registry=registry,
            unsafe=unsafe,
            selected=selected,
            prefer_tags=prefer_tags,
            first_line=first_line,
            table=table,
        )
        return "\ufeff" + without, found
    if len(text) > MAX_PYTHON_CHARS:
        message = f"{path}: {len(text)} characters of Python is more than targetlang fix rewrites ({MAX_PYTHON_CHARS})"
        raise SourceTooLargeError(message, text, MAX_PYTHON_CHARS, len(text))
    _check_nesting(text, path)
    # Reading the user's source makes Python warn of what is in it (an invalid escape: a
    # SyntaxWarning from 3.12 on, printed on the user's screen, a DeprecationWarning before), in
    # Python's own parser, in ast.literal_eval and in LibCST's evaluated_value: those are
    # theirs to see when they run it, not ours to print while reading it.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        warnings.simplefilter("ignore", DeprecationWarning)
        # Python's own parser first, for every file (one that does not parse is an error whether
        # or not it holds a target, as a linter says): LibCST accepts some source Python rejects
        # (a bad escape, bytes beside str) and then fails later, out of a node's value
        _check_syntax(text, path)
        if not _worth_parsing(text, registry):
            return text, []
        options = _Options(path, registry, unsafe, selected, prefer_tags)
        fixed, findings = _fixed_python(text, options, table)
        # ruff's fix loop: fix the fixed text again until nothing changes, so that one run reaches
        # the fixed point. A later pass adds the fixes it applied (placed in the text it read).
        current = fixed
        for _ in range(_MAX_PASSES - 1):
            if current == text or not any(f.applied for f in findings):
                break
            again, later = _fixed_python(current, options, table)
            if again == current:
                break
            findings += [f for f in later if f.applied]
            current = again
        if first_line != 1:
            findings = [dataclasses.replace(f, line=f.line + first_line - 1) for f in findings]
        return current, findings


# How many times a text is fixed at most before the fixes stop being applied (ruff's limit is 100;
# a fix here never needs more than two passes).
_MAX_PASSES = 10


def _check_syntax(text: str, path: str) -> None:
    try:
        ast.parse(text)
    except SyntaxError as err:
        raise _python_error(text, path, err.lineno or 1, (err.offset or 1) - 1, err.msg) from None
    except (ValueError, MemoryError, RecursionError) as err:
        raise _python_error(text, path, 1, 0, str(err)) from None


def _fixed_python(text: str, options: _Options, table: ApiTable) -> tuple[str, list[Finding]]:
    """One pass: the text with the fixes applied, and the findings."""
    path = options.path
    try:
        module = cst.parse_module(text)
    except (cst.ParserSyntaxError, cst.CSTValidationError) as err:
        raise _python_error(text, path, 1, 0, str(err).split("\n", 1)[0]) from None
    survey = _Survey(table)
    walk(module, survey)
    if not survey.work():
        return text, []
    # The survey's node ids name the nodes the rewriter meets: the same tree, not a copy.
    flow = Flow(module, table, survey.name_of)
    rewriter = _Rewriter(module, survey, options, flow)
    fixed = module.visit(rewriter)
    if rewriter.need_target_import or rewriter.replaced_imports:
        fixed = imports(fixed, rewriter.need_target_import, rewriter.replaced_imports)
    findings = sorted(rewriter.placed(), key=lambda f: (f.line, f.column))
    if not any(f.applied for f in findings):
        return text, findings  # byte for byte: LibCST's printing is not always (a last lone \r)
    code = fixed.code
    if text.endswith("\r") and not code.endswith("\r"):
        code += "\r"
    return code, findings


# LibCST's tree takes about 450 bytes of memory and 27 µs per character of source: past this a
# file would take half a gigabyte. TVM's largest Python file has 170,000 characters.
MAX_PYTHON_CHARS = 1 << 20

# LibCST parses and visits recursively: a tree this deep would exhaust Python's stack (a
# RecursionError, or a crash of the native parser). The cost counts, per open bracket, a few
# frames, and per link of a chain on one level (a + b + ..., a.b.c..., "a" "b" ...) about one.
_MAX_NESTING_COST = 250
_BRACKET_COST = 5
_OPEN, _CLOSE = frozenset("([{"), frozenset(")]}")
_RESETS = frozenset({",", ":", "=", ";", ":=", "->"})


def _check_nesting(text: str, path: str) -> None:
    """Raise :class:`NestingTooDeepError` for source nested deeper than LibCST can take."""
    chains = [0]
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.OP and token.string in _OPEN:
                chains.append(0)
            elif token.type == tokenize.OP and token.string in _CLOSE:
                if len(chains) > 1:
                    chains.pop()
            elif token.type == tokenize.NEWLINE or (token.type == tokenize.OP and token.string in _RESETS):
                chains[-1] = 0
            elif token.type in (tokenize.OP, tokenize.STRING):
                chains[-1] += 1
            else:
                continue
            cost = _BRACKET_COST * (len(chains) - 1) + sum(chains)
            if cost > _MAX_NESTING_COST:
                lines = text.splitlines(keepends=True)
                offset = sum(len(line) for line in lines[: token.start[0] - 1]) + token.start[1]
                message = f"{path}: Python nested too deeply for targetlang fix (brackets and chains of operators)"
                raise NestingTooDeepError(message, text, offset, offset + len(token.string))
    except (tokenize.TokenError, SyntaxError):
        return  # not Python: the parser says where


def _python_error(text: str, path: str, line: int, column: int, message: str) -> SourceSyntaxError:
    lines = text.splitlines(keepends=True)
    offset = min(len(text), sum(len(piece) for piece in lines[: max(0, line - 1)]) + column)
    return SourceSyntaxError(f"{path}: cannot parse Python: {message}", text, offset, offset)
