"""Where a value goes: every use of a literal, followed through the names that hold it.

A legacy target string may become a dict only where nothing reads it as a string. :class:`Flow`
follows a literal from where it is written to each place it is used: through assignments,
parameter defaults, ``for`` loops over a literal list and ``pytest.mark.parametrize`` lists, to
every access of those names that LibCST's ``ScopeProvider`` finds in their scope (nested
functions included). Each place is a :class:`Use`: a target position of an API in
:mod:`._apis`, or something else (a string operation, a comparison, a call the table does not
know, a module-level name other modules may import, a return, a test that expects an error).
The fix is safe only when there is at least one use and every use is a target position.

The parents are the survey's (noted in its walk of the module); the scopes are worked out on
the first question, once per module or per ``def`` or ``class``: most files ask none.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Literal, TypeVar, cast

import libcst as cst
from libcst.metadata import ExpressionContext, ExpressionContextProvider, GlobalScope, Scope, ScopeProvider
from libcst.metadata.expression_context_provider import ExpressionContextVisitor
from libcst.metadata.scope_provider import ScopeVisitor

from ._apis import REJECTION_CONTEXTS, ApiTable, TargetApi
from ._survey import dotted
from ._walk import walk, walk_children

__all__ = ["TEXT_USES", "Flow", "Use", "UseKind", "unsafe_use"]

UseKind = Literal["target", "rejection", "string", "call", "export", "return", "other"]
"""``target``: a target position of a known API; ``rejection``: inside a test that expects an
error; ``string``: read as text (formatting, ``in``, a comparison, a method, an index);
``call``: passed to a call the table does not know; ``export``: a module-level name other
modules may import; ``return``: returned from a function; ``other``: any other use."""

_A = TypeVar("_A")
_V = TypeVar("_V", bound=cst.CSTVisitor)

# How many names deep a value is followed (x = "..."; y = x; z = y ...): deeper is "other".
_MAX_DEPTH = 8


@dataclass(frozen=True)
class Use:
    """One place a value is used: its ``kind``, the ``node`` there, and what happens to it
    (``what``: ``"the target of tvm.build()"``, ``"formatted into an f-string"``)."""

    kind: UseKind
    node: cst.CSTNode
    what: str


class _Parents(cst.CSTVisitor):
    def __init__(self) -> None:
        self.parents: dict[int, cst.CSTNode] = {}
        self.order: dict[int, int] = {}  # the place of each node in the text, as its start
        self.stack: list[cst.CSTNode] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        self.order[id(node)] = len(self.order)
        if self.stack:
            self.parents[id(node)] = self.stack[-1]
        self.stack.append(node)
        return True

    def on_leave(self, original_node: cst.CSTNode) -> None:
        self.stack.pop()


class Flow:
    """The uses of values in one module. ``qualified`` names what a call's function is (the
    survey's reading of the module's imports: a name and whether an import resolved it)."""

    def __init__(
        self,
        module: cst.Module,
        table: ApiTable,
        qualified: Callable[[cst.BaseExpression], tuple[str, bool] | None],
        structure: tuple[dict[int, cst.CSTNode], dict[int, int]] | None = None,
    ) -> None:
        self.module = module
        self.table = table
        self.qualified = qualified
        # each node's parent and place, when a walk of the module noted them (the survey's)
        self._parents: dict[int, cst.CSTNode] | None = structure[0] if structure is not None else None
        self._order: dict[int, int] = structure[1] if structure is not None else {}
        self._scopes: dict[cst.CSTNode, Scope | None] | None = None  # the module's
        self._statement_scopes: dict[int, dict[cst.CSTNode, Scope | None]] = {}  # a def's or class's alone
        self._module_imports: list[cst.SimpleStatementLine | cst.BaseCompoundStatement] | None = None

    # -- the module's structure, worked out once

    @property
    def parents(self) -> dict[int, cst.CSTNode]:
        if self._parents is None:
            visitor = _Parents()
            walk(self.module, visitor)
            self._parents = visitor.parents
            self._order = visitor.order
        return self._parents

    @property
    def order(self) -> dict[int, int]:
        """The place of each node in the text (by id), as its start."""
        if self._parents is None:
            _ = self.parents
        return self._order

    def parent(self, node: cst.CSTNode) -> cst.CSTNode | None:
        return self.parents.get(id(node))

    def _scope(self, node: cst.CSTNode, access: bool = False) -> Scope | None:
        """The scope ``node`` stands in. A name bound in a function (or a class) is read and
        bound only inside the statement of the module that holds it, a ``def`` or ``class``:
        LibCST's scopes of that statement alone answer for it, at a fraction of the cost of the
        module's (most files ask of one test function). Of a name at module level (a def's
        decorators and defaults are read there), and of one read in the statement (``access``)
        but bound outside it (a module-level name, a ``global`` one), the module's scopes
        answer. (A name a ``global`` statement binds has no binding in the function's scope,
        in LibCST's scopes of the module as in those of the statement.)"""
        top = self._statement_of(node)
        if isinstance(top, (cst.FunctionDef, cst.ClassDef)):
            scopes = self._statement_scopes.get(id(top))
            if scopes is None:
                alone = cst.Module(body=[*self._imports(), top])
                scopes = self._statement_scopes[id(top)] = _scopes(alone)
            scope = scopes.get(node)
            if scope is not None and not isinstance(scope, GlobalScope):
                if not access or _bound_inside(scope, node):
                    return scope
        if self._scopes is None:
            self._scopes = _scopes(self.module)
        return self._scopes.get(node)

    def _imports(self) -> list[cst.SimpleStatementLine | cst.BaseCompoundStatement]:
        """The statements of the module's body that import something, outside a ``def`` or
        ``class`` (LibCST's scopes read some names by what the module imports: the string of a
        ``typing.cast``, a dotted name of an ``import a.b``), given with a statement alone."""
        if self._module_imports is None:
            self._module_imports = [statement for statement in self.module.body if _imports_in(statement)]
        return self._module_imports

    def _statement_of(self, node: cst.CSTNode) -> cst.CSTNode | None:
        """The statement of the module's body that holds ``node``."""
        parent = self.parent(node)
        while parent is not None and parent is not self.module:
            node, parent = parent, self.parent(parent)
        return node if parent is self.module else None

    # -- calls

    def api(self, call: cst.Call) -> TargetApi | None:
        """The row of the table ``call`` calls, if any."""
        name = self.qualified(call.func)
        return None if name is None else self.table.find(*name)

    def callee(self, call: cst.Call) -> str:
        name = self.qualified(call.func)
        return name[0] if name is not None else self.module.code_for_node(call.func)

    @staticmethod
    def argument_at(call: cst.Call, arg: cst.Arg) -> tuple[int | None, str | None]:
        """The position (from 0) of a positional ``arg`` of ``call``, or its keyword; a position
        after a ``*args`` is unknown (``None``)."""
        if arg.keyword is not None:
            return None, arg.keyword.value
        position = 0
        for other in call.args:
            if other is arg:
                return position, None
            if other.star:
                return None, None
            if other.keyword is None:
                position += 1
        return None, None

    def target_position(self, call: cst.Call, arg: cst.Arg) -> TargetApi | None:
        """The API that reads ``arg`` of ``call`` as a target, if one does."""
        api = self.api(call)
        if api is None or arg.star == "**":
            return None
        position, keyword = self.argument_at(call, arg)
        if arg.star == "*":
            return api if any(p < 0 for p in api.positions) else None
        return api if api.takes(position, keyword) else None

    def _rejects(self, call: cst.Call) -> bool:
        name = self.qualified(call.func)
        called = name[0] if name is not None else (dotted(call.func) or "")
        return called in REJECTION_CONTEXTS or called.rsplit(".", 1)[-1] in REJECTION_CONTEXTS - {"pytest.raises"}

    def expects_rejection(self, node: cst.CSTNode) -> bool:
        """Whether ``node`` is inside a ``with pytest.raises(...)`` (or ``assertRaises``) block,
        or an argument of such a call's call form (``pytest.raises(E, Target, "...")``)."""
        child = node
        parent = self.parent(node)
        while parent is not None:
            if isinstance(parent, cst.With) and child is parent.body:
                if any(isinstance(item.item, cst.Call) and self._rejects(item.item) for item in parent.items):
                    return True
            elif isinstance(parent, cst.Call) and isinstance(child, cst.Arg) and self._rejects(parent):
                return True
            elif isinstance(parent, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
                return False
            child, parent = parent, self.parent(parent)
        return False

    # -- following a value

    def uses(self, value: cst.BaseExpression) -> list[Use]:
        """Every use of the value of ``value`` (an expression in the module)."""
        found: list[Use] = []
        self._follow(value, found, 0, set(), items=False)
        return found

    def _follow(self, node: cst.CSTNode, found: list[Use], depth: int, seen: set[int], items: bool) -> None:
        """The uses of the value ``node`` evaluates to; with ``items``, of each item of it (the
        value is a list or tuple of targets)."""
        if self.expects_rejection(node):
            found.append(Use("rejection", node, "in a test that expects an error"))
            return
        parent = self.parent(node)
        if depth > _MAX_DEPTH or parent is None:
            found.append(Use("other", node, "passed through too many names to follow"))
            return
        if isinstance(parent, cst.Arg):
            self._argument(node, parent, found, depth, seen, items)
        elif isinstance(parent, (cst.Assign, cst.AnnAssign, cst.AugAssign)) and node is parent.value:
            self._assigned(node, parent, found, depth, seen, items)
        elif isinstance(parent, cst.NamedExpr) and node is parent.value:
            self._bound(parent.target, found, depth, seen, items)
            self._follow(parent, found, depth + 1, seen, items)
        elif isinstance(parent, cst.Param) and node is parent.default:
            self._bound(parent.name, found, depth, seen, items)
        elif isinstance(parent, (cst.Element, cst.StarredElement)) and not items:
            container = self.parent(parent)
            assert container is not None
            self._follow(container, found, depth + 1, seen, items=True)
        elif isinstance(parent, cst.For) and node is parent.iter and items:
            self._bound(parent.target, found, depth, seen, items=False, exported=False)
        elif isinstance(parent, cst.Return):
            self._returned(node, found, depth, seen)
        elif isinstance(parent, cst.Yield):
            found.append(Use("return", node, "yielded from the function"))
        elif isinstance(parent, cst.FormattedStringExpression):
            found.append(Use("string", node, "formatted into an f-string"))
        elif isinstance(parent, cst.BinaryOperation):
            found.append(Use("string", node, f"an operand of {self.module.code_for_node(parent.operator).strip()}"))
        elif isinstance(parent, cst.ComparisonTarget) or isinstance(parent, cst.Comparison):
            found.append(Use("string", node, self._compared(parent)))
        elif isinstance(parent, cst.Attribute) and node is parent.value:
            found.append(Use("string", node, f"read as an object (.{parent.attr.value})"))
        elif isinstance(parent, cst.Subscript) and node is parent.value:
            found.append(Use("string", node, "indexed"))
        elif isinstance(parent, cst.DictElement):
            found.append(Use("other", node, "a value in a dict" if node is parent.value else "a key of a dict"))
        elif isinstance(parent, cst.Expr):
            return  # a statement of its own: computed and dropped
        elif isinstance(parent, cst.IfExp) and node is not parent.test:
            self._follow(parent, found, depth + 1, seen, items)  # a branch: the value of the whole
        elif isinstance(parent, cst.BooleanOperation):
            self._follow(parent, found, depth + 1, seen, items)  # x or "llvm ...": may be its value
        elif isinstance(parent, (cst.If, cst.While, cst.IfExp, cst.BooleanOperation, cst.UnaryOperation)):
            found.append(Use("string", node, "tested for truth"))
        else:
            what = "an element of a list" if items else f"used in {type(parent).__name__}"
            found.append(Use("other", node, what))

    def _returned(self, node: cst.CSTNode, found: list[Use], depth: int, seen: set[int]) -> None:
        """A value a function returns: the uses of each call of the function in the module
        (the function's name is followed as a name is; a method's calls are not)."""
        function = self.parent(node)
        while function is not None and not isinstance(function, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            function = self.parent(function)
        if not isinstance(function, cst.FunctionDef) or self._method(function):
            found.append(Use("return", node, "returned from the function"))
            return
        name = function.name
        scope = self._scope(name)
        if scope is None:
            found.append(Use("return", node, f"returned from {name.value}()"))
            return
        if isinstance(scope, GlobalScope) and not name.value.startswith("_"):
            found.append(Use("export", name, f"returned from {name.value}(), which other modules may import"))
        calls = 0
        for access in self._accesses(scope, name):
            call = self.parent(access)
            if isinstance(call, cst.Call) and call.func is access and id(call) not in seen:
                seen.add(id(call))
                calls += 1
                self._follow(call, found, depth + 1, seen, items=False)
            elif not isinstance(call, cst.Call) or call.func is not access:
                found.append(Use("other", access, f"{name.value} passed as a value"))
        if calls == 0:
            found.append(Use("return", node, f"returned from {name.value}(), called nowhere in the module"))

    def _method(self, function: cst.FunctionDef) -> bool:
        outer = self.parent(function)
        while outer is not None and not isinstance(outer, (cst.FunctionDef, cst.ClassDef, cst.Module)):
            outer = self.parent(outer)
        return isinstance(outer, cst.ClassDef)

    def _compared(self, parent: cst.CSTNode) -> str:
        operator = parent.operator if isinstance(parent, cst.ComparisonTarget) else None
        if isinstance(operator, (cst.In, cst.NotIn)):
            return "tested with `in`"
        if isinstance(parent, cst.Comparison) and any(
            isinstance(t.operator, (cst.In, cst.NotIn)) for t in parent.comparisons
        ):
            return "searched with `in`"
        return "compared"

    def _argument(
        self, node: cst.CSTNode, arg: cst.Arg, found: list[Use], depth: int, seen: set[int], items: bool
    ) -> None:
        call = self.parent(arg)
        assert isinstance(call, cst.Call)
        if node is not arg.value:
            found.append(Use("other", node, "used in an argument"))
            return
        if self._rejects(call):
            found.append(Use("rejection", node, f"an argument of {self.callee(call)}(), which expects an error"))
            return
        api = self.target_position(call, arg)
        if api is not None and api.fixture is not None and self._fixture(call, api.fixture, found, depth, seen):
            return
        if api is not None and (not items or arg.star == "*" or any(p < 0 for p in api.positions)):
            found.append(Use("target", node, f"the target of {api.name}()"))
            return
        if api is not None:
            found.append(Use("other", node, f"a list passed to {api.name}()"))
            return
        if self._parametrize(call, arg, found, depth, seen):
            return
        found.append(
            Use("call", node, f"passed to {self.callee(call)}(), which the table of target APIs does not know")
        )

    def _decorated(self, call: cst.Call) -> cst.FunctionDef | None:
        decorator = self.parent(call)
        function = self.parent(decorator) if isinstance(decorator, cst.Decorator) else None
        return function if isinstance(function, cst.FunctionDef) else None

    def _fixture(self, call: cst.Call, name: str, found: list[Use], depth: int, seen: set[int]) -> bool:
        """A decorator that hands the value to the parameter ``name`` of the function it
        decorates: that parameter's uses, if the function has it."""
        function = self._decorated(call)
        if function is None:
            return False
        for param in (*function.params.params, *function.params.kwonly_params, *function.params.posonly_params):
            if param.name.value == name:
                self._bound(param.name, found, depth, seen, items=False)
                return True
        return False

    def _parametrize(self, call: cst.Call, arg: cst.Arg, found: list[Use], depth: int, seen: set[int]) -> bool:
        """``@pytest.mark.parametrize("target", [...])``: the list's items are the values of the
        decorated function's parameter of that name."""
        name = self.qualified(call.func)
        if name is None or not name[0].endswith("mark.parametrize"):
            return False
        positional = [a for a in call.args if a.keyword is None]
        names = positional[0].value if positional else None
        if len(positional) < 2 or arg is not positional[1] or not isinstance(names, cst.SimpleString):
            return False
        text = names.evaluated_value
        if not isinstance(text, str) or "," in text:
            return False
        return self._fixture(call, text.strip(), found, depth, seen)

    def _assigned(
        self,
        node: cst.CSTNode,
        statement: cst.Assign | cst.AnnAssign | cst.AugAssign,
        found: list[Use],
        depth: int,
        seen: set[int],
        items: bool,
    ) -> None:
        if isinstance(statement, cst.AugAssign):
            found.append(Use("string", node, "appended to"))
            return
        targets = [t.target for t in statement.targets] if isinstance(statement, cst.Assign) else [statement.target]
        for target in targets:
            self._bound(target, found, depth, seen, items)

    def _bound(
        self,
        target: cst.CSTNode,
        found: list[Use],
        depth: int,
        seen: set[int],
        items: bool,
        exported: bool = True,
    ) -> None:
        """The uses of a name bound to the value (with ``items``, a list of targets); at module
        level, unless not ``exported`` (a loop variable), other modules may import it too."""
        if isinstance(target, cst.Attribute):
            found.append(Use("other", target, f"stored in {self.module.code_for_node(target)}"))
            return
        if not isinstance(target, cst.Name):
            found.append(Use("other", target, "unpacked"))
            return
        scope = self._scope(target)
        if scope is None:
            found.append(Use("other", target, f"bound to {target.value}"))
            return
        if exported and isinstance(scope, GlobalScope) and not target.value.startswith("_"):
            found.append(Use("export", target, f"the module-level name {target.value}, which other modules may import"))
        elif type(scope).__name__ == "ClassScope":
            found.append(Use("other", target, f"the class attribute {target.value}"))
            return
        for access in self._accesses(scope, target):
            if id(access) in seen:
                continue
            seen.add(id(access))
            self._follow(access, found, depth + 1, seen, items)
        assignments = self._in_order(scope.assignments[target.value])
        for assignment in assignments:  # t += "...": a binding that reads t
            bound = getattr(assignment, "node", None)
            statement = self.parent(bound) if isinstance(bound, cst.CSTNode) else None
            if isinstance(statement, cst.AugAssign) and statement.target is bound and id(bound) not in seen:
                seen.add(id(bound))
                operator = self.module.code_for_node(statement.operator).strip()
                found.append(Use("string", bound, f"changed in place with {operator}"))

    def bindings(self, name: cst.Name) -> list[object] | None:
        """The nodes of every binding that may give the access ``name`` its value (an assigned
        name, a parameter, a ``def`` or an import), or ``None`` when the scopes cannot say."""
        scope = self._scope(name, access=True)
        if scope is None:
            return None
        found: list[object] = []
        for access in scope.accesses[name.value]:
            if access.node is name:
                referents = self._in_order(access.referents)
                found.extend(getattr(assignment, "node", None) for assignment in referents)
        return found or None

    def literal_values(self, name: cst.Name) -> list[object] | None:
        """Every value the name ``name`` (an access) may hold, when each binding that reaches it
        gives literals: an assignment of a literal, a parameter given by a
        ``pytest.mark.parametrize`` list of literals; ``None`` when one does not."""
        scope = self._scope(name, access=True)
        if scope is None:
            return None
        values: list[object] = []
        for access in scope.accesses[name.value]:
            if access.node is not name:
                continue
            if not access.referents:
                return None
            for assignment in self._in_order(access.referents):
                found = self._bound_values(getattr(assignment, "node", None))
                if found is None:
                    return None
                values.extend(found)
        return values or None

    def _bound_values(self, node: object) -> list[object] | None:
        if isinstance(node, cst.Name):
            statement = self.parent(node)
            if isinstance(statement, cst.AssignTarget):
                statement = self.parent(statement)
            if isinstance(statement, (cst.Assign, cst.AnnAssign)) and statement.value is not None:
                value = _literal(statement.value)
                return None if value is _NOT_LITERAL else [value]
            return None
        if isinstance(node, cst.Param):
            function = self.parent(self.parent(node) or node)
            while function is not None and not isinstance(function, cst.FunctionDef):
                function = self.parent(function)
            return None if function is None else _parametrized(function, node.name.value)
        return None

    def _in_order(self, items: Iterable[_A]) -> list[_A]:
        """Assignments or accesses in the order their nodes stand in the text: LibCST's scopes
        keep them in sets, whose order is that of the nodes' addresses in memory."""
        order = self.order
        return sorted(items, key=lambda item: order.get(id(getattr(item, "node", None)), -1))

    def _accesses(self, scope: Scope, target: cst.CSTNode) -> Iterator[cst.CSTNode]:
        name = target.value if isinstance(target, cst.Name) else ""
        for assignment in scope.assignments[name]:
            node = getattr(assignment, "node", None)
            if node is target or (isinstance(node, (cst.Param, cst.FunctionDef)) and node.name is target):
                for access in self._in_order(assignment.references):
                    yield access.node


def _scopes(module: cst.Module) -> dict[cst.CSTNode, Scope | None]:
    """LibCST's scope of each node of ``module`` (not of white space, comments and punctuation,
    which nothing asks of): what ``MetadataWrapper(module).resolve(ScopeProvider)`` gives, its two
    visitors run by :func:`._walk.walk`. LibCST's own visit rebuilds every node it passes, their
    manual visits of a function's parts too: in a run over TVM's files that was three quarters of
    the time the scopes took."""
    contexts = ExpressionContextProvider()
    walk(module, _unrebuilt(ExpressionContextVisitor)(contexts, ExpressionContext.LOAD), trivia=False)
    provider = ScopeProvider()
    provider.metadata = {ExpressionContextProvider: contexts._computed}
    visitor = _unrebuilt(ScopeVisitor)(provider)
    walk(module, visitor, trivia=False)
    visitor.infer_accesses()
    return cast("dict[cst.CSTNode, Scope | None]", dict(provider._computed))


@functools.cache
def _unrebuilt(visitor: type[_V]) -> type[_V]:
    """``visitor``'s class, whose every visit of a node walks its children with :func:`walk`
    (and so tells LibCST not to: its own visit would rebuild them), whether the walk or the
    visitor's own ``node.visit(self)`` of a part (a function's parameters, then its body) met it."""

    def on_visit(self: Any, node: cst.CSTNode) -> bool:
        if visitor.on_visit(self, node):
            walk_children(node, self, trivia=False)
        return False

    return type(f"_Unrebuilt{visitor.__name__}", (visitor,), {"on_visit": on_visit})


def _imports_in(statement: cst.BaseStatement) -> bool:
    """Whether ``statement``, of a module's body, imports something outside a ``def`` or ``class``."""
    if isinstance(statement, cst.SimpleStatementLine):
        return any(isinstance(small, (cst.Import, cst.ImportFrom)) for small in statement.body)
    if isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
        return False
    found = _ImportFinder()
    walk(statement, found)
    return found.found


class _ImportFinder(cst.CSTVisitor):
    def __init__(self) -> None:
        self.found = False

    def visit_Import(self, node: cst.Import) -> None:
        self.found = True

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        self.found = True


def _bound_inside(scope: Scope, name: cst.CSTNode) -> bool:
    """Whether the name the access ``name`` reads is bound in a scope other than the module's,
    by LibCST's ``scope`` of it: then every binding that reaches it is inside the statement
    whose scopes these are."""
    value = getattr(name, "value", None)
    if not isinstance(value, str):
        return False
    referents = [
        assignment for access in scope.accesses[value] if access.node is name for assignment in access.referents
    ]
    return bool(referents) and not any(isinstance(assignment.scope, GlobalScope) for assignment in referents)


def unsafe_use(uses: list[Use], value: cst.CSTNode) -> Use | None:
    """The use that keeps a fix of ``value`` from being safe: a test that expects an error
    first, else the first use that is no target position; with no use at all, ``value`` itself
    (nothing says it is a target). ``None`` when the fix is safe."""
    for use in uses:
        if use.kind == "rejection":
            return use
    if not uses:
        return Use("other", value, "never used where a target goes")
    # a use that reads it as text first: it decides the form of the fix (JSON text)
    text = next((use for use in uses if use.kind in TEXT_USES), None)
    return text or next((use for use in uses if use.kind != "target"), None)


TEXT_USES = frozenset({"string", "call"})
"""The uses that read a value as text: where one is, a fix writes a string of JSON, not a dict."""


_NOT_LITERAL = object()


def _literal(node: cst.BaseExpression) -> object:
    try:
        return ast.literal_eval(cst.Module(body=[]).code_for_node(node))
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return _NOT_LITERAL


def _parametrized(function: cst.FunctionDef, name: str) -> list[object] | None:
    """The values ``@pytest.mark.parametrize`` lists for the parameter ``name``, or ``None``."""
    for decorator in function.decorators:
        call = decorator.decorator
        if not (isinstance(call, cst.Call) and (dotted(call.func) or "").endswith("mark.parametrize")):
            continue
        positional = [arg.value for arg in call.args if arg.keyword is None]
        if len(positional) < 2:
            continue
        names, rows = _literal(positional[0]), _literal(positional[1])
        if isinstance(names, str):
            names = [part.strip() for part in names.split(",")]
        if not isinstance(names, (list, tuple)) or name not in names or not isinstance(rows, (list, tuple)):
            continue
        index = list(names).index(name)
        if len(names) == 1:
            return [row[0] if isinstance(row, (list, tuple)) and len(row) == 1 else row for row in rows]
        if all(isinstance(row, (list, tuple)) and len(row) == len(names) for row in rows):
            return [row[index] for row in rows]
        return None
    return None
