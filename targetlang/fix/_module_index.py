"""A module's statements indexed from Python's own tree, for the sparse view (:mod:`._sparse`): each
statement's lines, parent and scope, the words of its text, the names it binds, and the scopes
a name resolves to. Names are words of the text: a word more finds a statement more, never one
less."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ._diff import python_lines
from ._python_syntax import COMPOUND_STATEMENTS, first_line, statement_bodies

__all__ = ["FUNCTIONS", "SCOPES", "ModuleIndex", "Statement", "header_nodes", "parameters", "starts_line"]


_WORD = re.compile(r"[^\W\d]\w*")
SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_HEADER_SKIP = frozenset({"body", "orelse", "finalbody", "handlers", "cases"})


@dataclass
class Statement:
    """One statement of the module, where it stands, and what is asked of it once found."""

    node: ast.stmt
    start: int  # first line (its decorators')
    end: int
    parent: int  # index of the statement it is in, -1 at the top
    scope: int  # index of the function or class it is in, -1 for the module
    words: frozenset[str] | None = None
    bound: frozenset[str] | None = None
    text_end: int | None = None


class ModuleIndex:
    """The statements of a module by index, by line and by the words of their text; the names
    each scope binds."""

    def __init__(self, text: str, tree: ast.Module) -> None:
        self.lines = python_lines(text)
        self.statements: list[Statement] = []
        self.children: dict[int, list[list[int]]] = {}  # per statement, its bodies (-1: the module)
        self.owner = [-1] * (len(self.lines) + 2)  # per line (from 1), the innermost statement
        self.at_line: dict[int, list[int]] = {}  # per line, the statements whose own text holds it
        self._locals: dict[int, frozenset[str]] = {}
        self._binders: dict[int, dict[str, list[int]]] = {}
        self._with_word: dict[str, set[int]] | None = None
        self._declared_global: set[str] = set()
        self._index(tree)

    def _index(self, tree: ast.Module) -> None:
        pending: list[tuple[list[ast.stmt], int, int, list[int]]] = []
        top: list[int] = []
        self.children[-1] = [top]
        pending.append((tree.body, -1, -1, top))
        statements, children = self.statements, self.children
        while pending:
            body, parent, scope, into = pending.pop()
            for node in body:
                index = len(statements)
                into.append(index)
                if type(node) not in COMPOUND_STATEMENTS:  # (most: no decorator, no body)
                    statements.append(Statement(node, node.lineno, node.end_lineno or node.lineno, parent, scope))
                    children[index] = []
                    if isinstance(node, ast.Global):
                        self._declared_global.update(node.names)
                    continue
                statements.append(Statement(node, first_line(node), node.end_lineno or node.lineno, parent, scope))
                inner = index if isinstance(node, SCOPES) else scope
                bodies: list[list[int]] = []
                children[index] = bodies
                for child_body in statement_bodies(node):
                    mine: list[int] = []
                    bodies.append(mine)
                    pending.append((child_body, index, inner, mine))
        # Each line's innermost statement (the lines of a statement that no child covers: its
        # header's, its clauses'), and the statements whose own text holds it; in time linear in
        # the lines, not in the lines times the depth.
        at_line, owner = self.at_line, self.owner
        for index, statement in enumerate(statements):
            start, end = statement.start, statement.end
            if not children[index]:  # a simple statement: its lines are its own
                statement.text_end = end
                for line in range(start, end + 1):
                    at_line.setdefault(line, []).append(index)
                owner[start : end + 1] = [index] * (end + 1 - start)
                continue
            for line in range(start, self.text_end(index) + 1):
                at_line.setdefault(line, []).append(index)
            line = start
            for first, last in sorted(
                (statements[child].start, statements[child].end) for body in children[index] for child in body
            ):
                owner[line:first] = [index] * max(0, first - line)
                line = max(line, last + 1)
            owner[line : end + 1] = [index] * max(0, end + 1 - line)

    # -- what a statement holds

    def text_end(self, index: int) -> int:
        """The last line of a statement's own text: a simple statement's last, a compound
        statement's header's (its first child's line, where the child shares it)."""
        statement = self.statements[index]
        if statement.text_end is None:
            firsts = [body[0] for body in self.children[index] if body]
            if not firsts:
                statement.text_end = statement.end
            else:
                child = self.statements[min(firsts, key=lambda i: self.statements[i].start)]
                statement.text_end = child.start - 1 if starts_line(self, child) else child.start
        return statement.text_end

    def holds_text_at(self, index: int, line: int) -> bool:
        """Whether ``line`` is part of the statement's own text: its header (and a statement sharing
        its line), a clause's line (``else:``), every line of a simple statement."""
        return line <= self.text_end(index) or self.owner[line] == index

    def texts_at(self, line: int) -> list[int]:
        """The statements whose own text holds ``line`` (several: ``a = 1; b = 2``, ``for x in y: z``;
        a clause's line, ``else:``, is its statement's)."""
        found = self.at_line.get(line, [])
        owner = self.owner[line]
        return found if owner < 0 or owner in found else [*found, owner]

    def words(self, index: int) -> frozenset[str]:
        statement = self.statements[index]
        if statement.words is None:
            text = "".join(
                self.lines[line - 1]
                for line in range(statement.start, statement.end + 1)
                if self.holds_text_at(index, line)
            )
            statement.words = frozenset(_WORD.findall(text))
        return statement.words

    def bound(self, index: int) -> frozenset[str]:
        """The names the statement binds in the scope it is in (a function's parameters are
        its own scope's: :meth:`locals`)."""
        statement = self.statements[index]
        if statement.bound is None:
            lines = range(statement.start, self.text_end(index) + 1)
            walrus = any(":=" in self.lines[line - 1] for line in lines)
            statement.bound = frozenset(_bound(statement.node, walrus))
        return statement.bound

    def locals(self, scope: int) -> frozenset[str]:
        """The names a function binds (not declared global or nonlocal), or a class body."""
        found = self._locals.get(scope)
        if found is None:
            names: set[str] = set()
            declared: set[str] = set()
            node = self.statements[scope].node
            if isinstance(node, FUNCTIONS):
                names.update(parameters(node))
            for index in self.in_scope(scope):
                names |= self.bound(index)
                statement = self.statements[index].node
                if isinstance(statement, (ast.Global, ast.Nonlocal)):
                    declared.update(statement.names)
            found = frozenset(names - declared)
            self._locals[scope] = found
        return found

    def with_word(self, word: str) -> set[int]:
        """The statements whose own lines hold ``word`` (an index of the words of the whole
        text, made the first time: one scan, where a scan a name would be quadratic)."""
        if self._with_word is None:
            index: dict[str, set[int]] = {}
            for line, text in enumerate(self.lines, 1):
                holders = self.texts_at(line)
                if holders:
                    for found in set(_WORD.findall(text)):
                        index.setdefault(found, set()).update(holders)
            self._with_word = index
        return self._with_word.get(word, set())

    def binders(self, scope: int) -> dict[str, list[int]]:
        """Per name, the statements directly in ``scope`` that bind it."""
        found = self._binders.get(scope)
        if found is None:
            found = {}
            for index in self.in_scope(scope):
                for name in self.bound(index):
                    found.setdefault(name, []).append(index)
            self._binders[scope] = found
        return found

    def module_names(self) -> frozenset[str]:
        found = self._locals.get(-1)
        if found is None:
            names = set(self._declared_global)
            for index in self.in_scope(-1):
                names |= self.bound(index)
            found = frozenset(names)
            self._locals[-1] = found
        return found

    def in_scope(self, scope: int) -> Iterator[int]:
        """The statements directly in ``scope`` (a function, a class, -1 the module), compound
        statements' bodies included, nested functions' and classes' not."""
        pending = [i for body in self.children[scope] for i in body] if scope >= 0 else list(self.children[-1][0])
        while pending:
            index = pending.pop()
            yield index
            if not isinstance(self.statements[index].node, SCOPES):
                pending.extend(i for body in self.children[index] for i in body)

    def subtree(self, index: int) -> Iterator[int]:
        pending = [i for body in self.children[index] for i in body]
        while pending:
            current = pending.pop()
            yield current
            pending.extend(i for body in self.children[current] for i in body)

    def homes(self, word: str, scope: int) -> set[int]:
        """The scopes ``word`` may be read from in ``scope``: where it resolves, and in a class
        body the scope around too (a name the class binds later is read from there first)."""
        found = {home for home in (self.resolve(word, scope),) if home is not None}
        if scope >= 0 and isinstance(self.statements[scope].node, ast.ClassDef):
            outer = self.resolve(word, self.statements[scope].scope)
            if outer is not None:
                found.add(outer)
        return found

    def resolve(self, word: str, scope: int) -> int | None:
        """The scope that binds ``word`` as seen from ``scope`` (functions and the module; a
        class body only from itself), or ``None`` (a builtin, or not a name)."""
        first = True
        while scope >= 0:
            node = self.statements[scope].node
            if (first or isinstance(node, FUNCTIONS)) and word in self.locals(scope):
                return scope
            first = False
            scope = self.statements[scope].scope
        return -1 if word in self.module_names() else None


def parameters(node: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    arguments = node.args
    every = (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg)
    return {arg.arg for arg in every if arg is not None}


def starts_line(module: ModuleIndex, statement: Statement) -> bool:
    """Whether nothing but white space (and a decorator's ``@``) stands before ``statement`` on
    its first line (not a header's ``if x:``, ``else:``, nor a statement before a ``;``)."""
    node = statement.node
    first = min([node, *getattr(node, "decorator_list", ())], key=lambda n: (n.lineno, n.col_offset))
    line = module.lines[statement.start - 1]
    before = line.encode("utf-8")[: first.col_offset].strip()
    return not before or (first is not node and before == b"@")  # (a decorator's after its @)


# The parts of a statement that bind names (besides a := anywhere in it).
_BINDING_PARTS: dict[type[ast.stmt], tuple[str, ...]] = {
    ast.Assign: ("targets",),
    ast.AugAssign: ("target",),
    ast.AnnAssign: ("target",),
    ast.For: ("target",),
    ast.AsyncFor: ("target",),
    ast.With: ("items",),
    ast.AsyncWith: ("items",),
    ast.Delete: ("targets",),
    ast.Match: ("cases",),
}


if hasattr(ast, "TypeAlias"):  # (Python 3.12: type X = ...)
    _BINDING_PARTS[ast.TypeAlias] = ("name",)


def _bound(node: ast.stmt, walrus: bool = True) -> set[str]:
    """The names ``node`` binds, without its bodies' statements (a function's parameters are
    its own: not here). Without ``walrus`` (no ``:=`` in its text), only the parts that bind are
    read."""
    names: set[str] = set()
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        names.add(node.name)
        return names  # (its decorators and defaults bind nothing but with :=, rare enough)
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        for alias in node.names:
            if alias.name != "*":
                names.add((alias.asname or alias.name).split(".")[0])
        return names
    if isinstance(node, (ast.Global, ast.Nonlocal)):
        return names
    if walrus:
        parts: Iterable[ast.AST] = header_nodes(node)
    else:
        fields = _BINDING_PARTS.get(type(node), ())
        parts = [
            item
            for field in fields
            for value in (getattr(node, field),)
            for item in (value if isinstance(value, list) else [value])
            if isinstance(item, ast.AST)
        ]
        if isinstance(node, ast.Match):
            parts = [case.pattern for case in node.cases]
    for part in parts:
        for child in ast.walk(part):
            if isinstance(child, ast.Name) and not isinstance(child.ctx, ast.Load):
                names.add(child.id)
            elif isinstance(child, (ast.MatchAs, ast.MatchStar)) and child.name:
                names.add(child.name)
            elif isinstance(child, ast.MatchMapping) and child.rest:
                names.add(child.rest)
    for handler in getattr(node, "handlers", ()):
        if handler.name:
            names.add(handler.name)
    return names


def header_nodes(node: ast.stmt) -> Iterator[ast.AST]:
    """The parts of ``node`` that are not its bodies' statements."""
    for field, value in ast.iter_fields(node):
        if field in _HEADER_SKIP:
            continue
        if isinstance(value, ast.AST):
            yield value
        elif isinstance(value, list):
            yield from (item for item in value if isinstance(item, ast.AST))
    for handler in getattr(node, "handlers", ()):
        if handler.type is not None:
            yield handler.type
    for case in getattr(node, "cases", ()):
        yield case.pattern
        if case.guard is not None:
            yield case.guard
