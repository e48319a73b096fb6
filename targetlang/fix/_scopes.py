"""What LibCST's scopes say of one module: each node's parent and place, the scope a name
stands in, the bindings that give a name its value and the values they give.

The parents are a walk's of the module (the survey's, when it noted them); the scopes are worked
out on the first question, once per module or per ``def`` or ``class``: most files ask none.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterable, Iterator
from typing import Any, TypeVar, cast

import libcst as cst
from libcst.metadata import ExpressionContext, ExpressionContextProvider, GlobalScope, Scope, ScopeProvider
from libcst.metadata.expression_context_provider import ExpressionContextVisitor
from libcst.metadata.scope_provider import ScopeVisitor

from ._survey import dotted
from ._walk import walk, walk_children

__all__ = ["Scopes", "module_scopes"]

_A = TypeVar("_A")
_V = TypeVar("_V", bound=cst.CSTVisitor)


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


class Scopes:
    """The structure and scopes of one module, asked of node by node."""

    def __init__(
        self,
        module: cst.Module,
        structure: tuple[dict[int, cst.CSTNode], dict[int, int]] | None = None,
    ) -> None:
        self.module = module
        # each node's parent and place, when a walk of the module noted them (the survey's)
        self._parents: dict[int, cst.CSTNode] | None = structure[0] if structure is not None else None
        self._order: dict[int, int] = structure[1] if structure is not None else {}
        self._scopes: dict[cst.CSTNode, Scope | None] | None = None  # the module's
        self._statement_scopes: dict[int, dict[cst.CSTNode, Scope | None]] = {}  # a def's or class's alone
        self._module_imports: list[cst.SimpleStatementLine | cst.BaseCompoundStatement] | None = None

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

    def scope(self, node: cst.CSTNode, access: bool = False) -> Scope | None:
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
                scopes = self._statement_scopes[id(top)] = module_scopes(alone)
            scope = scopes.get(node)
            if scope is not None and not isinstance(scope, GlobalScope):
                if not access or _bound_inside(scope, node):
                    return scope
        if self._scopes is None:
            self._scopes = module_scopes(self.module)
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

    def bindings(self, name: cst.Name) -> list[object] | None:
        """The nodes of every binding that may give the access ``name`` its value (an assigned
        name, a parameter, a ``def`` or an import), or ``None`` when the scopes cannot say."""
        scope = self.scope(name, access=True)
        if scope is None:
            return None
        found: list[object] = []
        for access in scope.accesses[name.value]:
            if access.node is name:
                referents = self.in_order(access.referents)
                found.extend(getattr(assignment, "node", None) for assignment in referents)
        return found or None

    def literal_values(self, name: cst.Name) -> list[object] | None:
        """Every value the name ``name`` (an access) may hold, when each binding that reaches it
        gives literals: an assignment of a literal, a parameter given by a
        ``pytest.mark.parametrize`` list of literals; ``None`` when one does not."""
        scope = self.scope(name, access=True)
        if scope is None:
            return None
        values: list[object] = []
        for access in scope.accesses[name.value]:
            if access.node is not name:
                continue
            if not access.referents:
                return None
            for assignment in self.in_order(access.referents):
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

    def in_order(self, items: Iterable[_A]) -> list[_A]:
        """Assignments or accesses in the order their nodes stand in the text: LibCST's scopes
        keep them in sets, whose order is that of the nodes' addresses in memory."""
        order = self.order
        return sorted(items, key=lambda item: order.get(id(getattr(item, "node", None)), -1))

    def accesses(self, scope: Scope, target: cst.CSTNode) -> Iterator[cst.CSTNode]:
        name = target.value if isinstance(target, cst.Name) else ""
        for assignment in scope.assignments[name]:
            node = getattr(assignment, "node", None)
            if node is target or (isinstance(node, (cst.Param, cst.FunctionDef)) and node.name is target):
                for access in self.in_order(assignment.references):
                    yield access.node


def module_scopes(module: cst.Module) -> dict[cst.CSTNode, Scope | None]:
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
