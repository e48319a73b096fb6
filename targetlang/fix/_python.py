"""The Python side of ``targetlang fix``: LibCST finds legacy targets and rewrites them in place.

Two passes over one tree. The survey (:mod:`._survey`) reads the whole module first: what its
imports bind, which names hold a ``Target``, where a target may stand, and what each rule's
survey hook notes (:mod:`._plugins`, one module a rule in :mod:`.rules`). The rewriter
(:mod:`._rewriter`) then replaces, bottom up, what the rules' rewrite hooks fix, keeping every
other byte of the source. Whether a fix of a value is safe is decided by where the value goes
(:mod:`._flow`). The text is fixed again until nothing changes (ruff's fix loop).
"""

from __future__ import annotations

import dataclasses
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
from ._positions import Outline
from ._prefilter import hits, worth_parsing
from ._python_syntax import (
    MAX_LARGE_STACK_COST,
    MAX_NESTING_COST,
    MAX_PYTHON_CHARS,
    Reading,
    check_syntax,
    nesting_cost,
    python_error,
    shallow,
    statement_lines,
    too_deep,
)
from ._rewriter import Options, Rewriter
from ._sparse import Sparse, sparse
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
    reading: Reading | None = None,
    check: bool = False,
) -> tuple[str | None, list[Finding]]:
    """``text`` (Python source) with its legacy targets fixed, and the findings; their line
    numbers count from ``first_line`` (a code block inside a document). A written target that
    makes its line longer than ``line_length`` (default: the project's, :mod:`._layout`) is
    split over lines. ``reading``: what :func:`._python_syntax.may_need_fixing` read of it
    (without a byte order mark), not read again. With ``check`` (the findings only), the fixed
    text is ``None`` where the fixes change the text: it is not made."""
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
            reading=reading,
            check=check,
        )
        return None if without is None else "\ufeff" + without, found
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
        if reading is None:
            tree = check_syntax(text, path)
            spans = hits(text, registry, table)
            if not spans:
                return text, []
            reading = Reading(tree, tuple(spans))
        length = line_length if line_length is not None else project_line_length(path)
        options = Options(
            path,
            registry,
            unsafe,
            selected,
            prefer_tags,
            target_version,
            first_line,
            length,
            source=text,
            check=check,
            outline=Outline(text, statement_lines(reading.tree.body)),
        )
        # a hit every other line or more (a file of targets): the view would keep nearly all of it
        dense = len(reading.hits) * 2 >= text.count("\n") + 1
        view = sparse(text, reading.tree, reading.hits) if _SPARSE_VIEW and not dense else None
        if view is not None:
            done = _fixed_sparse(text, view, options, table, view.shallow)
            if done is not None:
                return done
        flat = shallow(text, reading.tree)
        # LibCST parses and visits recursively, and its limits are lower than Python's: source
        # nested deeper than this thread's stack takes is fixed on a large stack, and deeper than
        # that one takes is refused (its native parser would crash, not raise)
        cost, deepest = (0, 0) if flat else nesting_cost(text, path, MAX_LARGE_STACK_COST)
        if cost <= MAX_NESTING_COST:
            try:
                return _fixed_point(text, options, table)
            except RecursionError:  # a shape the cost underrates: again, on the large stack
                pass
        return _on_large_stack(text, path, deepest, lambda: _fixed_point(text, options, table))


# Whether LibCST reads the sparse view of a file (tests compare it with the whole text).
_SPARSE_VIEW = True


def _fixed_sparse(
    text: str, view: Sparse, options: Options, table: ApiTable, flat: bool = False
) -> tuple[str | None, list[Finding]] | None:
    """``text`` fixed through its sparse ``view`` (LibCST reads only what :mod:`._sparse` kept),
    or ``None`` when that cannot be done: the whole text is read then, and says why."""
    black: list[bool] = []
    try:
        cost, _ = (0, 0) if flat else nesting_cost(view.text, options.path, MAX_LARGE_STACK_COST)
        if cost > MAX_NESTING_COST:
            return None
        in_view = dataclasses.replace(
            options, defined=view.defined, lines_in=view.lines_in, outline=Outline(view.text, view.statements)
        )
        fixed, findings = _fixed_point(view.text, in_view, table, black)
    except (RecursionError, SourceSyntaxError, NestingTooDeepError):
        return None
    if fixed == view.text:
        return text, findings
    if fixed is None:  # (checking: changed, not made)
        return None, findings
    restored = view.restore(fixed)
    if restored is None:
        return None
    if black:
        formatter = black_formatter(text, options.line_length)
        if formatter is not None:
            restored = formatter(restored)
    return restored, findings


def _fixed_point(
    text: str, options: Options, table: ApiTable, deferred_black: list[bool] | None = None
) -> tuple[str | None, list[Finding]]:
    """``text`` fixed until nothing changes (ruff's fix loop), and the findings (``None`` for
    the text when checking, the fixes change it). With ``deferred_black`` (a sparse view),
    black's layout is not applied but asked for there."""
    registry = options.registry
    fixed, findings, written = _fixed_python(text, options, table, deferred_black)
    # A later pass adds the fixes it applied (placed in the text it read). Only what a pass wrote
    # can hold anything new (the rest was read, and fixed or not, in the pass before), so the loop
    # goes on only while what was written may hold a target.
    current = fixed
    after = dataclasses.replace(options, outline=None)
    for _ in range(_MAX_PASSES - 1):
        applied = any(f.applied for f in findings)
        if current is None or current == text or not applied or not worth_parsing(written, registry, written=True):
            break
        # (what it reads is what the fixes made: the outline of the text before is not its)
        again, later, written = _fixed_python(current, after, table, deferred_black)
        if again == current:
            break
        findings += [f for f in later if f.applied]
        current = again
    return current, findings


def _on_large_stack(text: str, path: str, deepest: int, call: Callable[[], _R]) -> _R:
    """``call()`` in a thread with a large stack (:func:`targetlang._diagnostics.on_large_stack`),
    a :class:`NestingTooDeepError` at ``deepest`` (an offset) if even that stack does not hold it."""
    refused = too_deep(text, path, deepest)

    def guarded() -> _R:
        try:
            return call()
        except RecursionError:
            raise refused from None
        except SourceSyntaxError as err:
            # Python read it (every file is checked first): LibCST's parser, which gives up on
            # long chains (about 4,000 strings side by side) with a syntax error at the start
            raise refused from err

    try:
        return on_large_stack(guarded)
    except NestingTooDeepError as err:
        if err is refused:
            raise
        raise refused from None  # no large stack to be had here


# How many times a text is fixed at most before the fixes stop being applied (ruff's limit is 100;
# a fix here never needs more than two passes).
_MAX_PASSES = 10


def _fixed_python(
    text: str, options: Options, table: ApiTable, deferred_black: list[bool] | None = None
) -> tuple[str | None, list[Finding], str]:
    """One pass: the text with the fixes applied, the findings, and the code the fixes wrote.
    Checking, the text is ``None`` when fixes were applied and no pass comes after this one
    (what they wrote holds nothing a pass would read again): the code is not printed."""
    path = options.path
    try:
        module = cst.parse_module(text)
    except (cst.ParserSyntaxError, cst.CSTValidationError) as err:
        raise python_error(text, path, 1, 0, str(err).split("\n", 1)[0]) from None
    survey = Survey(table)
    survey.defined.update(options.defined)
    walk(module, survey, trivia=False)  # (it reads no white space, bracket or operator)
    if not survey.work():
        return text, [], ""
    # The survey's node ids name the nodes the rewriter meets: the same tree, not a copy.
    flow = Flow(module, table, survey.name_of, (survey.parents, survey.order))
    # each pass reads its own text's comments: a fix before may have moved the lines
    options = dataclasses.replace(options, suppressed=python_suppression(text))
    rewriter = Rewriter(module, survey, options, flow)
    fixed = module.visit(rewriter)
    findings = sorted(rewriter.placed(), key=lambda f: (f.line, f.column))
    if not any(f.applied for f in findings):
        return text, findings, ""  # byte for byte: LibCST's printing is not always (a last lone \r)
    if options.check:
        # what the fixes wrote, as the end of this pass gives it (no layout with no text shown:
        # the imports a fix needs are no code it wrote)
        written = "\n".join(rewriter.written_code(fixed))
        if not worth_parsing(written, options.registry, written=True):
            return None, findings, written
        if rewriter.wrote_code:  # a pass comes after this one: it reads the text the fixes make
            return _fixed_python(text, dataclasses.replace(options, check=False), table, deferred_black)
    # a written target that makes its line too long: black's layout for a file black leaves as
    # it is, else each such dict one entry a line (before the imports change: the nodes are ids)
    code = fixed.code
    too_long, dicts = long_lines(text, code, fixed, rewriter.inserted, options.line_length)
    if deferred_black is not None:
        # a sparse view: black is asked of the whole file, and formats it once it is put back
        wanted = too_long and black_formatter(options.source, options.line_length) is not None
        if wanted:
            deferred_black.append(True)
        black = None
        split_dicts = bool(dicts) and not wanted
    else:
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
    # what the fixes wrote: the only text a next pass may find anything new in (the rest of each
    # line it stands in was read by this one)
    written = "\n".join(rewriter.written_code(fixed))
    return code, findings, written
