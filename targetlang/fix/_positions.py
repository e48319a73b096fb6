"""Where a few nodes of a LibCST module start: found in the text by their code, or at the cost
of printing the module once.

LibCST's ``PositionProvider`` records the range of every node of the module (a CodeRange per
node, a context manager per expression), which took 1.5 s of the 4.9 s that fixing TVM's
largest test file took; ``targetlang fix`` needs the start of the few nodes it reports. This
prints the module with LibCST's own position-keeping code state, told to keep the positions of
those nodes alone (0.2 s for that file); every other node costs a set lookup. The positions are
the ``PositionProvider``'s, which tests/test_fix.py checks; should LibCST's printing change under
it, the ``PositionProvider`` itself answers instead.

Most of what is reported is an expression whose code (a target's string, a helper's call) is
written once in the statement it is in, whose lines Python's own parser gave
(:class:`Outline`): there it is found without printing the module (:func:`found_in_text`; in a
file of a target a line, printing took a fifth of a run). What is not found there so, once and
whole, is placed by printing.
"""

from __future__ import annotations

import bisect
import contextlib
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import cast

import libcst as cst
from libcst.metadata import CodeRange, MetadataWrapper, PositionProvider
from libcst.metadata.position_provider import PositionProvidingCodegenState

from ._diff import line_starts, python_lines

__all__ = ["Outline", "Span", "found_in_text", "spans", "starts"]

_NOTHING = contextlib.nullcontext()


class _KeepingSome(PositionProvidingCodegenState):
    """LibCST's position-keeping code state, keeping the positions of ``wanted`` nodes alone."""

    wanted: Collection[cst.CSTNode]

    def _update_position(self, value: str) -> None:
        if "\n" in value or "\r" in value:
            super()._update_position(value)
        else:  # most tokens: no line break to count
            self.column += len(value)

    def before_codegen(self, node: cst.CSTNode) -> None:
        if node in self.wanted:
            super().before_codegen(node)

    def after_codegen(self, node: cst.CSTNode) -> None:
        if node in self.wanted:
            super().after_codegen(node)

    # A shared no-op context for all but the wanted nodes, not a generator's: cheaper.
    def record_syntactic_position(  # type: ignore[override]
        self, node: cst.CSTNode, *, start_node: cst.CSTNode | None = None, end_node: cst.CSTNode | None = None
    ) -> contextlib.AbstractContextManager[None]:
        if node in self.wanted:
            return super().record_syntactic_position(node, start_node=start_node, end_node=end_node)
        return _NOTHING


def starts(module: cst.Module, nodes: Collection[cst.CSTNode]) -> dict[cst.CSTNode, tuple[int, int]]:
    """For each of ``nodes`` (nodes of ``module``): its line (from 1) and column (from 0), as
    LibCST's ``PositionProvider`` gives its start."""
    return {node: start for node, (start, _) in spans(module, nodes)[0].items()}


Span = tuple[tuple[int, int], tuple[int, int]]


def spans(module: cst.Module, nodes: Collection[cst.CSTNode]) -> tuple[dict[cst.CSTNode, Span], str]:
    """For each of ``nodes`` (nodes of ``module``): the line (from 1) and column (from 0) of its
    start and of its end, as LibCST's ``PositionProvider`` gives them (an expression's without
    its parentheses); and the module's code, which they are places in (printed to find them)."""
    if not nodes:
        return {}, ""
    kept = PositionProvider()  # (only its record of positions, _computed, is used)
    try:
        state = _KeepingSome(
            default_indent=module.default_indent, default_newline=module.default_newline, provider=kept
        )
        state.wanted = nodes
        module._codegen(state)
        computed = cast("dict[cst.CSTNode, CodeRange]", kept._computed)
        ranges = {node: computed[node] for node in nodes}
        code = "".join(state.tokens)
    except (AttributeError, KeyError, TypeError):  # LibCST's printing changed under us
        positions = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
        ranges = {node: positions[node] for node in nodes}
        code = module.code
    found = {
        node: ((place.start.line, place.start.column), (place.end.line, place.end.column))
        for node, place in ranges.items()
    }
    return found, code


_VALUED = (cst.SimpleString, cst.Name)


@dataclass(frozen=True)
class Outline:
    """The text a LibCST module was parsed from, and the first and last line of each of its
    top-level statements, in order, as Python's parser gives them (the first a decorator's)."""

    text: str
    statements: tuple[tuple[int, int], ...]


def found_in_text(
    module: cst.Module, nodes: Collection[cst.CSTNode], outline: Outline, parents: Mapping[int, cst.CSTNode]
) -> dict[cst.CSTNode, tuple[Span, str]]:
    """The span (as :func:`spans` gives it) and code of each of ``nodes`` that is an expression
    without parentheses, on one line, whose code is written once in the lines of the top-level
    statement it is in (``parents``: each node's parent, by id); the others are not there. Only where LibCST's
    top-level statements are Python's (a line of several statements is one of LibCST's)."""
    lines: dict[int, tuple[int, int]] = {}  # each top-level statement's, by id
    units = outline.statements
    at = 0
    for statement in module.body:
        count = len(statement.body) if isinstance(statement, cst.SimpleStatementLine) else 1
        if at + count > len(units):
            return {}
        lines[id(statement)] = (units[at][0], units[at + count - 1][1])
        at += count
    if at != len(units):
        return {}
    text = outline.text
    offsets = line_starts(python_lines(text))
    found: dict[cst.CSTNode, tuple[Span, str]] = {}
    for node in nodes:
        if not isinstance(node, cst.BaseExpression) or node.lpar:
            continue
        top: cst.CSTNode = node
        parent = parents.get(id(node))
        while parent is not None and parent is not module:
            top, parent = parent, parents.get(id(parent))
        where = lines.get(id(top)) if parent is module else None
        if where is None or where[1] >= len(offsets):
            continue
        # (a string's or a name's code is its value: printing it would give the same)
        code = node.value if isinstance(node, _VALUED) else module.code_for_node(node)
        if not code or "\n" in code or "\r" in code:
            continue  # (printed alone, a node over lines has not the indent of its block)
        begin, end = offsets[where[0] - 1], offsets[where[1]]
        start = text.find(code, begin, end)
        if start < 0 or text.find(code, start + 1, end) >= 0:
            continue  # not written there as printed, or written there twice
        stop = start + len(code)
        line = bisect.bisect_right(offsets, start)
        last = bisect.bisect_right(offsets, stop - 1)
        found[node] = (((line, start - offsets[line - 1]), (last, stop - offsets[last - 1])), code)
    return found
