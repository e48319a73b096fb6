"""The part of a Python file LibCST must read: the statements that may hold something to fix and
what a fix of them reads, with every other statement elided.

LibCST parses a few hundred kilobytes a second; Python's own parser (already run on every file,
:func:`._python_syntax.check_syntax`) is many times faster. From its tree and the places the text
prefilter found (:func:`._prefilter.hits`), this module keeps

* the statements those places are in (the seeds), and the imports and the module's docstring
  (the names of its top-level classes and functions, which the survey reads, are told it
  beside the view: :attr:`Sparse.defined`);
* every statement that uses a name a kept statement binds, in the scope it binds it in, again
  from each of those that hands the value on to another name (where a value goes: the flow
  follows it through names, and stops at a use that uses it up), and the callers of a function
  a kept ``return`` returns from;
* the statements that bind a name a kept statement uses (what a name holds: a ``Target``, a
  literal), one step;
* the header of every compound statement around a kept one.

Each run of sibling statements that is not kept becomes one line, a ``pass`` with a marker
comment: every kept line keeps its columns, and its number once the runs are counted
(:meth:`Sparse.lines_in`, which the findings are placed by; blank lines kept the numbers as they
were, and were a third of what LibCST parsed). After the fix the marked runs are put back
(:meth:`Sparse.restore`). Names are matched as words of the
text (in strings and comments too, as attribute names too): a word more keeps a statement more,
never one less.
"""

from __future__ import annotations

import ast
import bisect
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ._diff import line_starts, python_lines
from ._python_syntax import COMPOUND_STATEMENTS, first_line, pieces_shallow, statement_bodies

__all__ = ["Sparse", "sparse"]

_WORD = re.compile(r"[^\W\d]\w*")
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_HEADER_SKIP = frozenset({"body", "orelse", "finalbody", "handlers", "cases"})


@dataclass(frozen=True)
class Sparse:
    """``text`` with the runs of statements nothing needs elided; ``regions`` maps each run's
    marker line to the original lines it stands for."""

    text: str
    regions: tuple[tuple[str, str], ...]
    # the classes and functions the module defines at its top level, kept or elided (a call of
    # one is the module's own: :attr:`._survey.Survey.defined`)
    defined: frozenset[str] = frozenset()
    # whether ``text`` surely nests less than LibCST takes (:func:`._python_syntax.shallow`, of
    # the kept statements alone)
    shallow: bool = False
    # the first and last line in ``text`` of each of its top-level statements (an elided run's
    # marker one), as :class:`._positions.Outline` has them
    statements: tuple[tuple[int, int], ...] = ()

    def restore(self, fixed: str) -> str | None:
        """``fixed`` (``text`` after a fix) with every elided run put back, or ``None`` when a
        run's marker is not found as it was written."""
        wanted = dict(self.regions)
        out: list[str] = []
        for line in python_lines(fixed):
            original = wanted.pop(line.rstrip("\r\n"), None) if _MARK in line else None
            out.append(line if original is None else original)
        return None if wanted else "".join(out)

    def lines_in(self, text: str) -> list[int]:
        """For each line of ``text`` (this view, or what a fix made of it), from 1: its line once
        the elided runs are put back (and one more, the line after the last)."""
        sizes = {marker: len(python_lines(original)) for marker, original in self.regions}
        found = [0]
        line = 1
        for each in python_lines(text):
            found.append(line)
            line += sizes.get(each.rstrip("\r\n"), 1) if _MARK in each else 1
        found.append(line)
        return found


_MARK = "# targetlang-elided-"


@dataclass
class _Statement:
    node: ast.stmt
    start: int  # first line (its decorators')
    end: int
    parent: int  # index of the statement it is in, -1 at the top
    scope: int  # index of the function or class it is in, -1 for the module
    words: frozenset[str] | None = None
    bound: frozenset[str] | None = None
    text_end: int | None = None


class _Module:
    def __init__(self, text: str, tree: ast.Module) -> None:
        self.lines = python_lines(text)
        self.statements: list[_Statement] = []
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
                    statements.append(_Statement(node, node.lineno, node.end_lineno or node.lineno, parent, scope))
                    children[index] = []
                    if isinstance(node, ast.Global):
                        self._declared_global.update(node.names)
                    continue
                statements.append(_Statement(node, first_line(node), node.end_lineno or node.lineno, parent, scope))
                inner = index if isinstance(node, _SCOPES) else scope
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
                statement.text_end = child.start - 1 if _starts_line(self, child) else child.start
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
            if isinstance(node, _FUNCTIONS):
                names.update(_parameters(node))
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
            if not isinstance(self.statements[index].node, _SCOPES):
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
            if (first or isinstance(node, _FUNCTIONS)) and word in self.locals(scope):
                return scope
            first = False
            scope = self.statements[scope].scope
        return -1 if word in self.module_names() else None


def sparse(text: str, tree: ast.Module, hits: Iterable[tuple[int, int]]) -> Sparse | None:
    """``text`` (whose tree is ``tree``) with what nothing needs elided, keeping the statements
    the character spans ``hits`` are in; ``None`` when nothing would be elided."""
    module = _Module(text, tree)
    if not module.statements:
        return None
    starts = line_starts(module.lines)
    seeds: set[int] = set()
    for begin, end in hits:
        for line in range(_line_of(starts, begin), _line_of(starts, max(begin, end - 1)) + 1):
            seeds.update(module.texts_at(line))
    kept = _kept(module, seeds)
    return _elided(module, kept)


def _kept(module: _Module, seeds: set[int]) -> set[int]:
    statements = module.statements
    kept: set[int] = set()
    top = module.children[-1][0]
    always = [i for i, s in enumerate(statements) if isinstance(s.node, (ast.Import, ast.ImportFrom))]
    if top and _docstring(statements[top[0]].node):
        always.append(top[0])
    # uses: from each kept statement, the statements that read a name it binds, transitively;
    # past a statement that reads a followed name, only where the statement hands the name's
    # value on (binds it to another name, returns it): elsewhere the flow stops there too
    tracked: set[tuple[int, str]] = set()
    pending: list[tuple[int, tuple[str, bool] | None]] = [(seed, None) for seed in seeds]
    reached: set[int] = set()
    followed: set[int] = set()
    while pending:
        index, via = pending.pop()
        if index in followed:
            continue
        reached.add(index)
        statement = statements[index]
        if via is not None and not _hands_on(statement.node, *via):
            continue
        followed.add(index)
        names = [(statement.scope, name) for name in module.bound(index)]
        if isinstance(statement.node, _FUNCTIONS):
            names += [(index, name) for name in _parameters(statement.node)]  # their uses
        if isinstance(statement.node, (ast.Return, ast.Expr)) and _returns(statement.node):
            function = _enclosing_function(module, index)
            if function is not None:  # where the value goes: each call of the function
                names.append((statements[function].scope, statements[function].node.name))  # type: ignore[attr-defined]
        for scope, name in names:
            home = _home(module, scope, name)
            if home is None or (home, name) in tracked:
                continue
            tracked.add((home, name))
            if home >= 0 and isinstance(statements[home].node, ast.ClassDef):
                continue  # a class attribute: the flow follows it no further
            # of a function whose return is followed, the value is that of each call of it
            called = isinstance(statement.node, (ast.Return, ast.Expr)) and name not in module.bound(index)
            pending.extend((use, (name, called)) for use in _uses(module, home, name))
    kept |= reached
    # definitions: one step from every statement kept so far
    for index in list(reached):
        scope = statements[index].scope
        for word in module.words(index):
            for home in module.homes(word, scope):
                kept.update(module.binders(home).get(word, ()))
    kept.update(always)
    # the compound statements around a kept one
    for index in list(kept):
        parent = statements[index].parent
        while parent >= 0 and parent not in kept:
            kept.add(parent)
            parent = statements[parent].parent
    return kept


def _home(module: _Module, scope: int, name: str) -> int | None:
    """The scope a name bound in ``scope`` lives in (``global``/``nonlocal`` move it out)."""
    if scope < 0:
        return -1
    if name in module.locals(scope):
        return scope
    outer = module.statements[scope].scope
    return module.resolve(name, outer) if outer >= 0 else -1


def _uses(module: _Module, home: int, name: str) -> Iterator[int]:
    """The statements that may read ``name`` of the scope ``home``."""
    if home >= 0:
        candidates: Iterable[int] = module.subtree(home)
    else:
        candidates = module.with_word(name)
    for index in candidates:
        if name not in module.words(index):
            continue
        if home in module.homes(name, module.statements[index].scope):
            yield index
        elif isinstance(module.statements[index].node, _FUNCTIONS):
            yield index  # a header: a default, a decorator read in the scope around


def _hands_on(node: ast.stmt, name: str, called: bool) -> bool:
    """Whether ``node``, which reads ``name`` (with ``called``, calls it: the value is what the
    call returns), may hand its value on as :class:`._flow.Flow` follows one: bind it to a name
    (an assignment, a ``for`` loop over it, a ``:=``), return it, or give it to a function's
    parameters (a default, a decorator). A value in a list, a tuple or a branch of a conditional
    is the value; anything else uses it up (a call, an operator, an attribute)."""
    if isinstance(node, _SCOPES):
        return True  # a default, a decorator's argument: the parameters are followed
    if isinstance(node, ast.Assign):
        value: ast.expr | None = node.value
    elif isinstance(node, ast.AnnAssign):
        value = node.value
    elif isinstance(node, (ast.For, ast.AsyncFor)):
        value = node.iter
    elif isinstance(node, ast.Return):
        value = node.value
    else:
        value = None
    if value is not None and _carries(value, name, called):
        return True
    return any(
        isinstance(child, ast.NamedExpr) and _carries(child.value, name, called)
        for part in _header_nodes(node)
        for child in ast.walk(part)
    )


def _carries(node: ast.expr, name: str, called: bool) -> bool:
    """Whether the value of ``node`` may be the value of the name ``name`` (``called``: of a call
    of it), or hold it as an item: the name itself, in a list, tuple or set, a branch of
    ``if``/``else``, an operand of ``and``/``or``, a ``:=``."""
    pending = [node]
    while pending:
        current = pending.pop()
        if called and isinstance(current, ast.Call):
            if isinstance(current.func, ast.Name) and current.func.id == name:
                return True
        elif not called and isinstance(current, ast.Name):
            if current.id == name:
                return True
        elif isinstance(current, (ast.List, ast.Tuple, ast.Set)):
            pending.extend(current.elts)
        elif isinstance(current, (ast.Starred, ast.NamedExpr)):
            pending.append(current.value)
        elif isinstance(current, ast.IfExp):
            pending.extend((current.body, current.orelse))
        elif isinstance(current, ast.BoolOp):
            pending.extend(current.values)
    return False


def _parameters(node: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    arguments = node.args
    every = (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg)
    return {arg.arg for arg in every if arg is not None}


def _enclosing_function(module: _Module, index: int) -> int | None:
    scope = module.statements[index].scope
    if scope >= 0 and isinstance(module.statements[scope].node, _FUNCTIONS):
        return scope
    return None


def _returns(node: ast.stmt) -> bool:
    if isinstance(node, ast.Return):
        return node.value is not None
    return isinstance(node, ast.Expr) and isinstance(node.value, (ast.Yield, ast.YieldFrom))


def _docstring(node: ast.stmt) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)


def _elided(module: _Module, kept: set[int]) -> Sparse | None:
    statements = module.statements
    elide: list[tuple[int, int]] = []  # line ranges
    pending = [-1]
    while pending:
        parent = pending.pop()
        for body in module.children[parent]:
            run: list[int] = []
            for index in [*body, None]:
                if index is not None and index not in kept:
                    run.append(index)
                    continue
                if run:
                    # only whole lines that no kept statement and no header shares
                    following = statements[index].start if index is not None else None
                    while run and not _starts_line(module, statements[run[0]]):
                        run.pop(0)
                    while run and following is not None and following <= statements[run[-1]].end:
                        following = statements[run.pop()].start
                    if run:
                        elide.append((statements[run[0]].start, statements[run[-1]].end))
                    run = []
                if index is not None:
                    pending.append(index)
    if not elide:
        return None
    nonce = os.urandom(8).hex()  # (secrets.token_hex's own: its module imports OpenSSL, 8 ms)
    lines = list(module.lines)
    regions: list[tuple[str, str]] = []
    dropped = [False] * (len(lines) + 1)
    for number, (start, end) in enumerate(sorted(elide)):
        original = "".join(lines[start - 1 : end])
        if not original.endswith(("\n", "\r")):
            return None  # the last line without a newline: the marker would have none
        first = lines[start - 1]
        indent = first[: len(first) - len(first.lstrip(" \t"))]
        marker = f"{indent}pass  {_MARK}{nonce}-{number}"
        regions.append((marker, original))
        lines[start - 1] = marker + _ending(lines[end - 1])
        for line in range(start + 1, end + 1):
            dropped[line] = True
    view: list[str] = []
    at = [0] * (len(lines) + 1)  # each line's in the view (a kept one's)
    for number, text_line in enumerate(lines, 1):
        if not dropped[number]:
            view.append(text_line)
        at[number] = len(view)
    text = "".join(view)
    if len(python_lines(text)) != len(view):
        return None  # a lone \r before a line's \n read as one \r\n: the lines would move
    flat = "\r" not in text
    if flat:
        spans = [(at[statements[index].start], at[module.text_end(index)]) for index in kept]
        flat = pieces_shallow(view, spans, text.count("elif"))
    nodes = (statements[index].node for index in module.children[-1][0])
    defined = frozenset(node.name for node in nodes if isinstance(node, _SCOPES))
    return Sparse(text, tuple(regions), defined, flat, _outline(module, {start for start, _ in elide}, dropped, at))


def _outline(module: _Module, markers: set[int], dropped: list[bool], at: list[int]) -> tuple[tuple[int, int], ...]:
    """The first and last line in the view of each of its top-level statements (an elided run's
    marker, at ``markers``, one): ``at`` each line's number in the view, ``dropped`` the lines
    it has not."""
    outline = []
    for index in module.children[-1][0]:
        statement = module.statements[index]
        if statement.start in markers:
            outline.append((at[statement.start], at[statement.start]))
        elif not dropped[statement.start]:
            outline.append((at[statement.start], at[statement.end]))
    return tuple(outline)


def _starts_line(module: _Module, statement: _Statement) -> bool:
    """Whether nothing but white space (and a decorator's ``@``) stands before ``statement`` on
    its first line (not a header's ``if x:``, ``else:``, nor a statement before a ``;``)."""
    node = statement.node
    first = min([node, *getattr(node, "decorator_list", ())], key=lambda n: (n.lineno, n.col_offset))
    line = module.lines[statement.start - 1]
    before = line.encode("utf-8")[: first.col_offset].strip()
    return not before or (first is not node and before == b"@")  # (a decorator's after its @)


def _ending(line: str) -> str:
    return line[len(line.rstrip("\r\n")) :]


def _line_of(starts: list[int], offset: int) -> int:
    return max(1, min(len(starts) - 1, bisect.bisect_right(starts, offset)))


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
        parts: Iterable[ast.AST] = _header_nodes(node)
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


def _header_nodes(node: ast.stmt) -> Iterator[ast.AST]:
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
