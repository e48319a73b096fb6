"""Python source read without LibCST: whether it parses (Python's own parser), how deeply it
nests for LibCST, the errors of both, and whether it holds anything to fix. ``targetlang fix``
asks this first of every file, so that LibCST, a second or more to import and the most of a run
to parse with, is loaded and run only for a file that may hold a target."""

from __future__ import annotations

import ast
import io
import itertools
import re
import string
import tokenize
import warnings
from collections.abc import Sequence
from dataclasses import dataclass

from .._registry import Registry
from ..errors import NestingTooDeepError, SourceSyntaxError
from ._apis import ApiTable
from ._diff import python_lines
from ._prefilter import hits_of

__all__ = [
    "COMPOUND_STATEMENTS",
    "MAX_LARGE_STACK_COST",
    "MAX_NESTING_COST",
    "MAX_PYTHON_CHARS",
    "Reading",
    "calls_target_api",
    "check_syntax",
    "first_line",
    "may_need_fixing",
    "nesting_cost",
    "pieces_shallow",
    "python_error",
    "shallow",
    "statement_bodies",
    "statement_lines",
    "too_deep",
]


@dataclass(frozen=True)
class Reading:
    """What Python's own parser and the text prefilter said of a file: its tree, and the spans
    that may hold something to fix (:func:`._prefilter.hits`)."""

    tree: ast.Module
    hits: tuple[tuple[int, int], ...]


def may_need_fixing(text: str, path: str, registry: Registry | None, table: ApiTable) -> Reading | bool:
    """Whether ``text`` must be read by LibCST: ``False`` when it holds nothing to fix, else what
    was read of it (``True``: too large to read, the fixer refuses it). ``table``: the APIs that
    take a target. Raises :class:`SourceSyntaxError` where Python cannot parse it, as the fixer
    would, whatever it holds."""
    text = text.removeprefix("\ufeff")  # (a byte order mark: the fixer keeps it)
    if len(text) > MAX_PYTHON_CHARS:
        return True
    with warnings.catch_warnings():  # (the user's SyntaxWarnings are theirs: see fix_python)
        warnings.simplefilter("ignore", SyntaxWarning)
        warnings.simplefilter("ignore", DeprecationWarning)
        # (not compile() where the tree is not wanted, though it makes no Python objects of it
        # and took a tenth less time over TVM's files: it is quadratic in the code objects of one
        # scope alike, 10,000 lines of `f = lambda: 0` 2.8 s against ast.parse's 0.16 s)
        tree = check_syntax(text, path)
    found, modern = hits_of(text, registry, table)
    if not found or (modern and not calls_target_api(tree, table)):
        return False
    return Reading(tree, tuple(found))


def calls_target_api(tree: ast.Module, table: ApiTable) -> bool:
    """Whether ``tree`` may call an API of ``table``: a call of a name, or of an attribute, that
    is the last word of one (:attr:`._apis.ApiTable.last_words`), or of a name an import binds to one
    (``from tvm import build as b``). More than the survey resolves, never less."""
    names = table.last_words
    bound = set(names)
    called: list[str] = []  # the names called, not (yet) known to be an API's
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute):
                if func.attr in names:
                    return True
            elif isinstance(func, ast.Name):
                if func.id in bound:
                    return True
                called.append(func.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound.update(a.asname for a in node.names if a.asname and a.name.rsplit(".", 1)[-1] in names)
    return any(name in bound for name in called)


def check_syntax(text: str, path: str) -> ast.Module:
    """Python's tree of ``text``; :class:`SourceSyntaxError` where Python cannot parse it, and
    :class:`NestingTooDeepError` where it is nested too deeply to be read."""
    try:
        return ast.parse(text)
    except SyntaxError as err:
        if "too many nested" in (err.msg or ""):
            nesting_cost(text, path, MAX_NESTING_COST)
        raise python_error(text, path, err.lineno or 1, (err.offset or 1) - 1, err.msg) from None
    except (ValueError, MemoryError, RecursionError) as err:
        nesting_cost(text, path, MAX_NESTING_COST)
        raise python_error(text, path, 1, 0, str(err) or type(err).__name__) from None


# LibCST's tree takes about 450 bytes of memory and 27 µs per character of source: past this a
# file would take half a gigabyte. TVM's largest Python file has 170,000 characters.
MAX_PYTHON_CHARS = 1 << 20

# The cost of a nesting counts, per open bracket, a few frames, and per link of a chain on one
# level (a + b + ..., a and b and ..., not not ..., a if b else ..., lambda: lambda: ..., a.b.c...,
# f()()..., a[0][0]..., "a" "b" ..., elif ...) about one: LibCST nests each link in the one before. On a thread's usual
# stack LibCST takes a cost of 250; on the large stack (512 MB) 60,000 links of a chain were fixed.
MAX_NESTING_COST = 250
MAX_LARGE_STACK_COST = 20_000
_BRACKET_COST = 5
_OPEN, _CLOSE = frozenset("([{"), frozenset(")]}")
_RESETS = frozenset({",", ":", "=", ";", ":=", "->"})
_KEYWORD_LINKS = frozenset({"and", "or", "not", "if", "else", "lambda", "in", "is", "await"})
_STATEMENT_START = frozenset({tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.NL})


def nesting_cost(text: str, path: str, limit: int) -> tuple[int, int]:
    """The deepest nesting cost of ``text`` and the offset of the token that reaches it; a
    :class:`NestingTooDeepError` at the first token past ``limit``. Linear: one pass over the
    tokens, a running sum."""
    chains = [0]
    lambdas = [0]  # per bracket level, the lambdas whose colon is still to come: it ends no chain
    total = 0  # sum(chains) + the elif chains', kept as it changes
    elifs = [0]  # per indentation level, the elif links of the if statement under way
    deepest, where = 0, (1, 0)
    previous = tokenize.NEWLINE
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            kind, string = token.type, token.string
            if kind == tokenize.INDENT:
                elifs.append(0)
            elif kind == tokenize.DEDENT:
                if len(elifs) > 1:
                    total -= elifs.pop()
            elif kind == tokenize.NAME and previous in _STATEMENT_START:
                if string == "elif":
                    elifs[-1] += 1
                    total += 1
                elif string != "else":
                    total -= elifs[-1]
                    elifs[-1] = 0
            if kind == tokenize.OP and string in _OPEN:
                chains.append(0)
                lambdas.append(0)
            elif kind == tokenize.OP and string in _CLOSE:
                if len(chains) > 1:
                    total -= chains.pop()
                    lambdas.pop()
                # a call or a subscript is a link of the chain it ends (f(1)(1)..., a[0][0]...)
                chains[-1] += 1
                total += 1
            elif kind == tokenize.OP and string == ":" and lambdas[-1]:
                lambdas[-1] -= 1
            elif kind == tokenize.NEWLINE or (kind == tokenize.OP and string in _RESETS):
                total -= chains[-1]
                chains[-1] = 0
            elif kind in (tokenize.OP, tokenize.STRING) or (kind == tokenize.NAME and string in _KEYWORD_LINKS):
                chains[-1] += 1
                total += 1
                if string == "lambda":
                    lambdas[-1] += 1
            if kind not in (tokenize.COMMENT, tokenize.NL):
                previous = kind
            cost = _BRACKET_COST * (len(chains) - 1) + total
            if cost > deepest:
                deepest, where = cost, token.start
                if cost > limit:
                    raise too_deep(text, path, _offset(text, *where), len(string))
    except (tokenize.TokenError, SyntaxError):
        pass  # not Python: the parser says where
    return deepest, _offset(text, *where)


# What may be a link of a chain (an operator or other punctuation, a quote of a string, a
# keyword that links), and what may open a bracket, anywhere in a line, its strings and comments too.
_KEYWORDS = ("and", "or", "not", "if", "else", "lambda", "in", "is", "await")
_LINK = re.compile(rf"[^\w\s]|\b(?:{'|'.join(_KEYWORDS)})\b")
_BRACKETS = ("(", "[", "{")
_NO_WORDS = str.maketrans("", "", string.ascii_letters + string.digits + "_" + string.whitespace)


def shallow(text: str, tree: ast.Module) -> bool:
    """Whether ``text`` (whose tree Python made) surely nests less than :data:`MAX_NESTING_COST`
    for LibCST, without tokenizing it: each piece of the text has fewer links of a chain than
    that, brackets counted five times (as :func:`nesting_cost` counts them), with every ``elif``
    of the text. A piece runs from the first line of a statement, at any depth, to the line
    before the next one's; a statement that starts inside another's logical line (after a ``;``
    that follows a line of brackets) starts none. A logical line is in one piece then, and
    :func:`nesting_cost`'s sum, all but the ``elif`` links, starts again at each piece: a file
    of functions of short lines is told so at once, one with a deep line is tokenized."""
    lines = python_lines(text)
    if len(lines) < 200 or "\r" in text:
        return False  # (tokenizing it costs little; a lone \r ends a line for Python, not here)
    # each statement's first line, and the last line of its own logical line (a compound
    # statement's header's: the line before its body's, or the body's when it shares the line)
    spans: list[tuple[int, int]] = []
    pending: list[ast.stmt] = list(tree.body)
    while pending:
        statement = pending.pop()
        if type(statement) not in COMPOUND_STATEMENTS:
            spans.append((statement.lineno, statement.end_lineno or statement.lineno))
            continue
        first = first_line(statement)
        bodies = statement_bodies(statement)
        if bodies:
            inner = min(body[0].lineno for body in bodies)
            spans.append((first, max(first, inner - 1 if inner > statement.lineno else inner)))
            for body in bodies:
                pending.extend(body)
        else:
            spans.append((first, statement.end_lineno or first))
    return pieces_shallow(lines, spans, text.count("elif"))


def pieces_shallow(lines: Sequence[str], spans: list[tuple[int, int]], elifs: int) -> bool:
    """:func:`shallow`'s bound over ``lines`` (with their endings), whose statements' own
    logical lines are ``spans`` (first and last line, from 1), with ``elifs`` links of ``elif``
    chains: each piece, from the first line of a statement to the line before the next one's,
    has fewer links than :data:`MAX_NESTING_COST`."""
    budget = MAX_NESTING_COST - elifs
    spans.sort()
    starts: list[int] = []
    reach = 0  # the last line of the logical lines begun so far
    for first, last in spans:
        if first > reach and (not starts or starts[-1] != first):
            starts.append(first)
        reach = max(reach, last)
    starts.append(len(lines) + 1)
    for first, following in itertools.pairwise(starts):
        piece = "".join(lines[first - 1 : following - 1])
        brackets = _BRACKET_COST * sum(piece.count(bracket) for bracket in _BRACKETS)
        # what may be a link, counted in C first (a count no smaller than the pattern's: every
        # character but an ASCII word's or a space, every keyword inside a word too)
        if brackets + len(piece.translate(_NO_WORDS)) + sum(map(piece.count, _KEYWORDS)) < budget:
            continue
        if brackets + len(_LINK.findall(piece)) >= budget:
            return False
    return True


# The statements that hold others (a simple statement holds none, and has no decorator).
COMPOUND_STATEMENTS = frozenset(
    {
        *(ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.If, ast.For, ast.AsyncFor, ast.While),
        *(ast.With, ast.AsyncWith, ast.Try, ast.Match, *((ast.TryStar,) if hasattr(ast, "TryStar") else ())),
    }
)


def first_line(statement: ast.stmt) -> int:
    """The first line of ``statement``: its first decorator's, if it has one."""
    decorators: list[ast.expr] = getattr(statement, "decorator_list", [])
    return min([statement.lineno, *(d.lineno for d in decorators)])


def statement_lines(body: Sequence[ast.stmt]) -> tuple[tuple[int, int], ...]:
    """The first line and the last of each of ``body``'s statements."""
    return tuple((first_line(node), node.end_lineno or node.lineno) for node in body)


def statement_bodies(statement: ast.stmt) -> list[list[ast.stmt]]:
    """The bodies of a compound statement, none of them empty (its clauses', its handlers' and
    its cases' too), in the order of the fields."""
    bodies = [getattr(statement, field, None) for field in ("body", "orelse", "finalbody")]
    found = [body for body in bodies if isinstance(body, list) and body and isinstance(body[0], ast.stmt)]
    found += [handler.body for handler in getattr(statement, "handlers", ()) if handler.body]
    found += [case.body for case in getattr(statement, "cases", ()) if case.body]
    return found


def too_deep(text: str, path: str, offset: int, width: int = 0) -> NestingTooDeepError:
    message = f"{path}: Python nested too deeply for targetlang fix (brackets and chains of operators)"
    return NestingTooDeepError(message, text, offset, offset + width)


def _offset(text: str, line: int, column: int) -> int:
    """The offset of ``column`` of ``line`` (from 1) in ``text``."""
    start = 0
    for _ in range(line - 1):
        found = text.find("\n", start)
        if found < 0:
            break
        start = found + 1
    return min(len(text), start + column)


def python_error(text: str, path: str, line: int, column: int, message: str) -> SourceSyntaxError:
    lines = text.splitlines(keepends=True)
    offset = min(len(text), sum(len(piece) for piece in lines[: max(0, line - 1)]) + column)
    return SourceSyntaxError(f"{path}: cannot parse Python: {message}", text, offset, offset)
