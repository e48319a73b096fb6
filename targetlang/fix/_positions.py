"""Where a few nodes of a LibCST module start, at the cost of printing the module once.

LibCST's ``PositionProvider`` records the range of every node of the module (a CodeRange per
node, a context manager per expression), which took 1.5 s of the 4.9 s that fixing TVM's
largest test file took; ``targetlang fix`` needs the start of the few nodes it reports. This
prints the module with LibCST's own position-keeping code state, told to keep the positions of
those nodes alone (0.2 s for that file); every other node costs a set lookup. The positions are
the ``PositionProvider``'s, which tests/test_fix.py checks; should LibCST's printing change under
it, the ``PositionProvider`` itself answers instead.
"""

from __future__ import annotations

import contextlib
from collections.abc import Collection
from typing import cast

import libcst as cst
from libcst.metadata import CodeRange, MetadataWrapper, PositionProvider
from libcst.metadata.position_provider import PositionProvidingCodegenState

__all__ = ["Span", "spans", "starts"]

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
