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
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ._diff import line_starts, python_lines
from ._module_index import FUNCTIONS, SCOPES, ModuleIndex, header_nodes, parameters, starts_line
from ._python_syntax import pieces_shallow

__all__ = ["Sparse", "sparse"]


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


def sparse(text: str, tree: ast.Module, hits: Iterable[tuple[int, int]]) -> Sparse | None:
    """``text`` (whose tree is ``tree``) with what nothing needs elided, keeping the statements
    the character spans ``hits`` are in; ``None`` when nothing would be elided."""
    module = ModuleIndex(text, tree)
    if not module.statements:
        return None
    starts = line_starts(module.lines)
    seeds: set[int] = set()
    for begin, end in hits:
        for line in range(_line_of(starts, begin), _line_of(starts, max(begin, end - 1)) + 1):
            seeds.update(module.texts_at(line))
    kept = _kept(module, seeds)
    return _elided(module, kept)


def _kept(module: ModuleIndex, seeds: set[int]) -> set[int]:
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
        if isinstance(statement.node, FUNCTIONS):
            names += [(index, name) for name in parameters(statement.node)]  # their uses
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


def _home(module: ModuleIndex, scope: int, name: str) -> int | None:
    """The scope a name bound in ``scope`` lives in (``global``/``nonlocal`` move it out)."""
    if scope < 0:
        return -1
    if name in module.locals(scope):
        return scope
    outer = module.statements[scope].scope
    return module.resolve(name, outer) if outer >= 0 else -1


def _uses(module: ModuleIndex, home: int, name: str) -> Iterator[int]:
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
        elif isinstance(module.statements[index].node, FUNCTIONS):
            yield index  # a header: a default, a decorator read in the scope around


def _hands_on(node: ast.stmt, name: str, called: bool) -> bool:
    """Whether ``node``, which reads ``name`` (with ``called``, calls it: the value is what the
    call returns), may hand its value on as :class:`._flow.Flow` follows one: bind it to a name
    (an assignment, a ``for`` loop over it, a ``:=``), return it, or give it to a function's
    parameters (a default, a decorator). A value in a list, a tuple or a branch of a conditional
    is the value; anything else uses it up (a call, an operator, an attribute)."""
    if isinstance(node, SCOPES):
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
        for part in header_nodes(node)
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


def _enclosing_function(module: ModuleIndex, index: int) -> int | None:
    scope = module.statements[index].scope
    if scope >= 0 and isinstance(module.statements[scope].node, FUNCTIONS):
        return scope
    return None


def _returns(node: ast.stmt) -> bool:
    if isinstance(node, ast.Return):
        return node.value is not None
    return isinstance(node, ast.Expr) and isinstance(node.value, (ast.Yield, ast.YieldFrom))


def _docstring(node: ast.stmt) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)


def _elided(module: ModuleIndex, kept: set[int]) -> Sparse | None:
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
                    while run and not starts_line(module, statements[run[0]]):
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
    defined = frozenset(node.name for node in nodes if isinstance(node, SCOPES))
    return Sparse(text, tuple(regions), defined, flat, _outline(module, {start for start, _ in elide}, dropped, at))


def _outline(module: ModuleIndex, markers: set[int], dropped: list[bool], at: list[int]) -> tuple[tuple[int, int], ...]:
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


def _ending(line: str) -> str:
    return line[len(line.rstrip("\r\n")) :]


def _line_of(starts: list[int], offset: int) -> int:
    return max(1, min(len(starts) - 1, bisect.bisect_right(starts, offset)))
