"""The Python side of ``targetlang fix``: LibCST finds legacy targets and rewrites them in place.

Two passes over one tree. The survey (:mod:`._survey`) reads the whole module first: what its
imports bind, which names hold a ``Target``, where a target may stand, and what each rule's
survey hook notes (:mod:`._plugins`, one module a rule in :mod:`.rules`). The rewriter
(:mod:`._rewriter`) then replaces, bottom up, what the rules' rewrite hooks fix, keeping every
other byte of the source. Whether a fix of a value is safe is decided by where the value goes
(:mod:`._flow`). The text is fixed again until nothing changes (ruff's fix loop).
"""

from __future__ import annotations

import ast
import dataclasses
import io
import tokenize
import warnings
from collections.abc import Callable
from typing import TypeVar

import libcst as cst

from .._diagnostics import on_large_stack
from .._registry import Registry
from .._versions import MODERN, RELEASES, Release
from ..errors import NestingTooDeepError, SourceSyntaxError, SourceTooLargeError
from ._apis import DEFAULT_TABLE, ApiTable
from ._findings import Finding
from ._flow import Flow
from ._imports import imports
from ._layout import black_formatter, long_lines, project_line_length, split
from ._prefilter import worth_parsing
from ._rewriter import Options, Rewriter
from ._suppress import python_suppression
from ._survey import Survey
from ._walk import walk

__all__ = ["MAX_PYTHON_CHARS", "fix_python"]

_R = TypeVar("_R")


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
    target_version: Release = RELEASES[str(MODERN)],
    line_length: int | None = None,
) -> tuple[str, list[Finding]]:
    """``text`` (Python source) with its legacy targets fixed, and the findings; their line
    numbers count from ``first_line`` (a code block inside a document). A written target that
    makes its line longer than ``line_length`` (default: the project's, :mod:`._layout`) is
    split over lines."""
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
            target_version=target_version,
            line_length=line_length,
        )
        return "\ufeff" + without, found
    if len(text) > MAX_PYTHON_CHARS:
        message = f"{path}: {len(text)} characters of Python is more than targetlang fix rewrites ({MAX_PYTHON_CHARS})"
        raise SourceTooLargeError(message, text, MAX_PYTHON_CHARS, len(text))
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
        if not worth_parsing(text, registry):
            return text, []
        length = line_length if line_length is not None else project_line_length(path)
        options = Options(path, registry, unsafe, selected, prefer_tags, target_version, first_line, length)
        # LibCST parses and visits recursively, and its limits are lower than Python's: source
        # nested deeper than this thread's stack takes is fixed on a large stack, and deeper than
        # that one takes is refused (its native parser would crash, not raise)
        cost, deepest = _nesting_cost(text, path, _MAX_LARGE_STACK_COST)
        if cost <= _MAX_NESTING_COST:
            try:
                return _fixed_point(text, options, table)
            except RecursionError:  # a shape the cost underrates: again, on the large stack
                pass
        return _on_large_stack(text, path, deepest, lambda: _fixed_point(text, options, table))


def _fixed_point(text: str, options: Options, table: ApiTable) -> tuple[str, list[Finding]]:
    """``text`` fixed until nothing changes (ruff's fix loop), and the findings."""
    registry = options.registry
    fixed, findings, written = _fixed_python(text, options, table)
    # A later pass adds the fixes it applied (placed in the text it read). Only what a pass wrote
    # can hold anything new (the rest was read, and fixed or not, in the pass before), so the loop
    # goes on only while what was written may hold a target.
    current = fixed
    for _ in range(_MAX_PASSES - 1):
        if current == text or not any(f.applied for f in findings) or not worth_parsing(written, registry):
            break
        again, later, written = _fixed_python(current, options, table)
        if again == current:
            break
        findings += [f for f in later if f.applied]
        current = again
    return current, findings


def _on_large_stack(text: str, path: str, deepest: int, call: Callable[[], _R]) -> _R:
    """``call()`` in a thread with a large stack (:func:`targetlang._diagnostics.on_large_stack`),
    a :class:`NestingTooDeepError` at ``deepest`` (an offset) if even that stack does not hold it."""
    too_deep = _too_deep(text, path, deepest)

    def guarded() -> _R:
        try:
            return call()
        except RecursionError:
            raise too_deep from None
        except SourceSyntaxError as err:
            # Python read it (every file is checked first): LibCST's parser, which gives up on
            # long chains (about 4,000 strings side by side) with a syntax error at the start
            raise too_deep from err

    try:
        return on_large_stack(guarded)
    except NestingTooDeepError as err:
        if err is too_deep:
            raise
        raise too_deep from None  # no large stack to be had here


# How many times a text is fixed at most before the fixes stop being applied (ruff's limit is 100;
# a fix here never needs more than two passes).
_MAX_PASSES = 10


def _check_syntax(text: str, path: str) -> None:
    """Raise :class:`SourceSyntaxError` where Python cannot parse ``text``, and
    :class:`NestingTooDeepError` where it is nested too deeply to be read."""
    try:
        ast.parse(text)
    except SyntaxError as err:
        if "too many nested" in (err.msg or ""):
            _nesting_cost(text, path, _MAX_NESTING_COST)
        raise _python_error(text, path, err.lineno or 1, (err.offset or 1) - 1, err.msg) from None
    except (ValueError, MemoryError, RecursionError) as err:
        _nesting_cost(text, path, _MAX_NESTING_COST)
        raise _python_error(text, path, 1, 0, str(err) or type(err).__name__) from None


def _fixed_python(text: str, options: Options, table: ApiTable) -> tuple[str, list[Finding], str]:
    """One pass: the text with the fixes applied, the findings, and the code the fixes wrote."""
    path = options.path
    try:
        module = cst.parse_module(text)
    except (cst.ParserSyntaxError, cst.CSTValidationError) as err:
        raise _python_error(text, path, 1, 0, str(err).split("\n", 1)[0]) from None
    survey = Survey(table)
    walk(module, survey)
    if not survey.work():
        return text, [], ""
    # The survey's node ids name the nodes the rewriter meets: the same tree, not a copy.
    flow = Flow(module, table, survey.name_of)
    # each pass reads its own text's comments: a fix before may have moved the lines
    options = dataclasses.replace(options, suppressed=python_suppression(text))
    rewriter = Rewriter(module, survey, options, flow)
    fixed = module.visit(rewriter)
    findings = sorted(rewriter.placed(), key=lambda f: (f.line, f.column))
    if not any(f.applied for f in findings):
        return text, findings, ""  # byte for byte: LibCST's printing is not always (a last lone \r)
    # a written target that makes its line too long: black's layout for a file black leaves as
    # it is, else each such dict one entry a line (before the imports change: the nodes are ids)
    code = fixed.code
    too_long, dicts = long_lines(text, code, fixed, rewriter.inserted, options.line_length)
    black = black_formatter(text, options.line_length) if too_long else None
    split_dicts = bool(dicts) and black is None
    if split_dicts:
        fixed = split(fixed, dicts, options.line_length)
    new_imports = rewriter.need_target_import or bool(rewriter.replaced_imports) or rewriter.need_json
    if new_imports:
        fixed = imports(fixed, rewriter.need_target_import, rewriter.replaced_imports, rewriter.need_json)
    if split_dicts or new_imports:
        code = fixed.code
    if black is not None:
        code = black(code)
    if text.endswith("\r") and not code.endswith("\r"):
        code += "\r"
    lines = set(rewriter.rewritten)
    written = "\n".join([*lines, *(fixed.code_for_node(n) for n in rewriter.inserted if isinstance(n, cst.CSTNode))])
    return code, findings, written


# LibCST's tree takes about 450 bytes of memory and 27 µs per character of source: past this a
# file would take half a gigabyte. TVM's largest Python file has 170,000 characters.
MAX_PYTHON_CHARS = 1 << 20

# The cost of a nesting counts, per open bracket, a few frames, and per link of a chain on one
# level (a + b + ..., a and b and ..., not not ..., a if b else ..., lambda: lambda: ..., a.b.c...,
# f()()..., a[0][0]..., "a" "b" ..., elif ...) about one: LibCST nests each link in the one before. On a thread's usual
# stack LibCST takes a cost of 250; on the large stack (512 MB) 60,000 links of a chain were fixed.
_MAX_NESTING_COST = 250
_MAX_LARGE_STACK_COST = 20_000
_BRACKET_COST = 5
_OPEN, _CLOSE = frozenset("([{"), frozenset(")]}")
_RESETS = frozenset({",", ":", "=", ";", ":=", "->"})
_KEYWORD_LINKS = frozenset({"and", "or", "not", "if", "else", "lambda", "in", "is", "await"})
_STATEMENT_START = frozenset({tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.NL})


def _nesting_cost(text: str, path: str, limit: int) -> tuple[int, int]:
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
                    raise _too_deep(text, path, _offset(text, *where), len(string))
    except (tokenize.TokenError, SyntaxError):
        pass  # not Python: the parser says where
    return deepest, _offset(text, *where)


def _too_deep(text: str, path: str, offset: int, width: int = 0) -> NestingTooDeepError:
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


def _python_error(text: str, path: str, line: int, column: int, message: str) -> SourceSyntaxError:
    lines = text.splitlines(keepends=True)
    offset = min(len(text), sum(len(piece) for piece in lines[: max(0, line - 1)]) + column)
    return SourceSyntaxError(f"{path}: cannot parse Python: {message}", text, offset, offset)
