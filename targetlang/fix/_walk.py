"""A visit of a LibCST tree that reads it without building it again.

``node.visit(visitor)`` rebuilds every node it passes, even for a read-only ``CSTVisitor``
(LibCST's own "TODO: provide traversal where children are not replaced"): each node's
constructor and validation run, and the copies are dropped. Over TVM's test files that was half
the time ``targetlang fix`` spent outside LibCST's parser. :func:`walk` calls the visitor's
``on_visit``/``on_leave`` on the same nodes, in the same order, reading each node's fields.

The order is LibCST's own: a node class's children are visited in the order its
``_visit_and_replace_children`` announces their fields (``on_visit_attribute``), recorded once
per class by running it on one node with a visitor that does not go further down. A field that
node did not announce (LibCST announces an empty ``format_spec`` of an f-string expression only
when there is one) is recorded again from the first node that holds something in it; should
LibCST not announce a field that holds a node, its own visit walks that node.
tests/test_fix.py checks that every node is met, in LibCST's order, on real files.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import cast

import libcst as cst

__all__ = ["TRIVIA", "walk", "walk_children"]


class _Announced(cst.CSTVisitor):
    """Records the fields a node's ``_visit_and_replace_children`` visits, in order."""

    def __init__(self) -> None:
        self.fields: list[str] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        return False

    def on_visit_attribute(self, node: cst.CSTNode, attribute: str) -> None:
        if attribute not in self.fields:
            self.fields.append(attribute)


# class -> (its child fields in visiting order, its other dataclass fields)
_ORDER: dict[type[cst.CSTNode], tuple[tuple[str, ...], tuple[str, ...]]] = {}
# The values of the other fields: a node's text, its star, its indent
_PLAIN = frozenset({str, bool, int, type(None), cst.MaybeSentinel})
# type of a field's value -> 1: a node, 3: a node of TRIVIA, 2: a sequence, 0: anything else
# (isinstance() on LibCST's abstract classes is most of a walk's time otherwise)
_KINDS: dict[type, int] = {}


def _subclasses(base: type[cst.CSTNode]) -> set[type[cst.CSTNode]]:
    # (issubclass over LibCST's names would take 15 ms: its bases are ABCs)
    found = {base}
    for sub in base.__subclasses__():
        found |= _subclasses(sub)
    return found


# The nodes of layout and punctuation: white space, comments, brackets, operators; they hold no
# other kind of node. Half the nodes of a module; a visitor that reads none (the survey) is
# spared them.
_OPERATORS = (cst.BaseBinaryOp, cst.BaseBooleanOp, cst.BaseCompOp, cst.BaseUnaryOp, cst.BaseAugOp)
TRIVIA: frozenset[type[cst.CSTNode]] = frozenset(
    {
        *(node for base in _OPERATORS for node in _subclasses(base)),
        *(cst.SimpleWhitespace, cst.ParenthesizedWhitespace, cst.TrailingWhitespace, cst.EmptyLine, cst.Newline),
        *(cst.Comment, cst.Semicolon, cst.Colon, cst.Comma, cst.Dot, cst.ImportStar, cst.AssignEqual),
        *(cst.LeftParen, cst.RightParen, cst.LeftSquareBracket, cst.RightSquareBracket),
        *(cst.LeftCurlyBrace, cst.RightCurlyBrace),
    }
)


def _kind(value: object) -> int:
    kind = _KINDS.get(type(value))
    if kind is None:
        if isinstance(value, cst.CSTNode):
            kind = 3 if type(value) in TRIVIA else 1
        elif isinstance(value, Sequence) and not isinstance(value, str):
            kind = 2
        else:
            kind = 0
        _KINDS[type(value)] = kind
    return kind


def _holds_nodes(value: object) -> bool:
    kind = _kind(value)
    return kind in (1, 3) or (kind == 2 and any(_kind(item) in (1, 3) for item in cast("Sequence[object]", value)))


def _record(node: cst.CSTNode) -> tuple[str, ...] | None:
    """The fields of ``node`` in LibCST's visiting order, kept for its class; ``None`` if LibCST
    does not announce every field of it that holds a node (then LibCST's own visit walks it)."""
    announced = _Announced()
    node._visit_and_replace_children(announced)
    fields = tuple(announced.fields)
    rest = tuple(f.name for f in dataclasses.fields(node) if f.name not in fields)
    if any(_holds_nodes(getattr(node, name)) for name in rest):
        return None
    _ORDER[type(node)] = fields, rest
    return fields


def _fields(node: cst.CSTNode) -> tuple[str, ...] | None:
    order = _ORDER.get(type(node))
    if order is None:
        return _record(node)
    fields, rest = order
    for name in rest:
        value = getattr(node, name)
        if type(value) not in _PLAIN and _holds_nodes(value):
            return _record(node)
    return fields


def walk(node: cst.CSTNode, visitor: cst.CSTVisitor, trivia: bool = True) -> None:
    """What ``node.visit(visitor)`` does for a read-only ``visitor`` that does not watch
    attributes (``visit_<Node>_<field>``), without rebuilding the tree; not ``trivia``, the
    nodes of :data:`TRIVIA` (and so what they hold) are not met."""
    fields = _fields(node)
    if fields is None:
        node.visit(visitor)
        return
    if visitor.on_visit(node):
        _children(node, fields, visitor, trivia)
    visitor.on_leave(node)


def walk_children(node: cst.CSTNode, visitor: cst.CSTVisitor, trivia: bool = True) -> None:
    """:func:`walk` of each child of ``node``, in LibCST's order (``node`` itself not met)."""
    fields = _fields(node)
    if fields is None:
        node._visit_and_replace_children(visitor)  # (LibCST's own, for a node it does not announce)
    else:
        _children(node, fields, visitor, trivia)


def _children(node: cst.CSTNode, fields: tuple[str, ...], visitor: cst.CSTVisitor, trivia: bool) -> None:
    for name in fields:
        value = getattr(node, name)
        kind = _KINDS.get(type(value)) or _kind(value)  # (_kind's lookup inline: a node, a list)
        if kind == 1 or (kind == 3 and trivia):
            walk(value, visitor, trivia)
        elif kind == 2:
            for child in value:
                kind = _KINDS.get(type(child)) or _kind(child)
                if kind == 1 or (kind == 3 and trivia):
                    walk(child, visitor, trivia)
