"""The imports a fix changes: ``from tvm.target import Target`` added when a rewrite needs it, and
the imports of the helpers it replaced removed where nothing else uses them.

LibCST's ``RemoveImportsVisitor`` finds out whether an import is used by a scope analysis of the
whole module (over a second for one of TVM's large test files, most of the time fixing it took).
The names at stake here are the removed helpers (``cuda``, ``arm_cpu``, ...), and a simpler
question is enough: whether the name is written anywhere else in the module, as a name or in a
string annotation or ``__all__``. That keeps an import LibCST would remove only where the
name is bound again in another scope; the visitor itself is LibCST's, told the answer. Should its
internals change, LibCST's own analysis answers.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

import libcst as cst
from libcst.helpers import get_full_name_for_node

from .._signals import signals_held
from ._walk import walk

if TYPE_CHECKING:
    from libcst.codemod import CodemodContext
    from libcst.codemod.visitors import RemoveImportsVisitor

__all__ = ["IDENTIFIER", "NameUses", "imports"]

_Request = tuple[str, str, str | None]  # an import to remove: (module, name, alias)
_Found = dict[cst.ImportAlias, tuple[cst.ImportFrom, _Request]]  # its alias, statement and request


class NameUses(cst.CSTVisitor):
    """In one walk of a module: the names it uses, as names (not those of imports, attributes
    (``x.cuda``) or keyword arguments, which no import binds) and in the strings that name things,
    string annotations and ``__all__``; and the aliases of its ``from MODULE import NAME [as
    ALIAS]`` statements that ``unused`` names, ``(module, name, alias)``."""

    def __init__(self, unused: set[_Request]) -> None:
        super().__init__()
        self.unused = unused
        self.names: set[str] = set()
        self.aliases: _Found = {}
        self._not_names: set[int] = set()
        self._naming: list[cst.CSTNode] = []  # the annotations and __all__ assignments open

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, cst.Name):
            if id(node) not in self._not_names:
                self.names.add(node.value)
        elif isinstance(node, cst.SimpleString):
            if self._naming:
                self.names.update(IDENTIFIER.findall(node.value))
        elif isinstance(node, cst.Attribute):
            self._not_names.add(id(node.attr))
        elif isinstance(node, cst.Arg) and node.keyword is not None:
            self._not_names.add(id(node.keyword))
        elif isinstance(node, cst.Annotation) or _exports(node):
            self._naming.append(node)
        elif isinstance(node, cst.ImportFrom):
            self._import_from(node)
        return not isinstance(node, cst.ImportAlias)

    def on_leave(self, original_node: cst.CSTNode) -> None:
        if self._naming and self._naming[-1] is original_node:
            self._naming.pop()

    def not_a_name(self, node: cst.Name) -> bool:
        """``node`` is no name a module binds: an attribute's (``x.cuda``) or a keyword's."""
        return id(node) in self._not_names

    def naming(self) -> bool:
        """The visit is inside an annotation or an ``__all__`` assignment."""
        return bool(self._naming)

    def _import_from(self, node: cst.ImportFrom) -> None:
        if node.relative or node.module is None or isinstance(node.names, cst.ImportStar):
            return
        module = get_full_name_for_node(node.module)
        for alias in node.names:
            request = (module, alias.evaluated_name, alias.evaluated_alias)
            if request in self.unused:
                self.aliases[alias] = (node, request)

    def unused_aliases(self) -> _Found:
        """The aliases found whose name the module uses nowhere else."""
        return {
            a: found for a, found in self.aliases.items() if (a.evaluated_alias or a.evaluated_name) not in self.names
        }


IDENTIFIER = re.compile(r"[^\W\d]\w*")


def _exports(node: cst.CSTNode) -> bool:
    """``node`` assigns ``__all__``."""
    if isinstance(node, cst.Assign):
        return any(isinstance(t.target, cst.Name) and t.target.value == "__all__" for t in node.targets)
    if isinstance(node, (cst.AugAssign, cst.AnnAssign)):
        return isinstance(node.target, cst.Name) and node.target.value == "__all__"
    return False


@functools.cache
def _remove_told() -> Callable[[CodemodContext, _Found], RemoveImportsVisitor]:
    """LibCST's ``RemoveImportsVisitor`` with the unused aliases given, not analysed (run by
    ``module.visit``, which resolves no metadata). LibCST's codemod package is imported here, as
    a fix first changes imports: it takes 0.2 s, more than the rest of ``fix``'s start-up. (With
    the stops held, as every module a command imports as it runs: see ``_signals``.)"""
    with signals_held():
        from libcst.codemod.visitors import RemoveImportsVisitor

    class RemoveTold(RemoveImportsVisitor):
        def __init__(self, context: CodemodContext, unused: _Found) -> None:
            super().__init__(context, sorted({request for _, request in unused.values()}, key=str))
            self._told = {alias: statement for alias, (statement, _) in unused.items()}

        def visit_Module(self, node: cst.Module) -> None:
            self._unused_imports = dict(self._told)

        def on_visit(self, node: cst.CSTNode) -> bool:
            return not isinstance(node, cst.BaseExpression) and super().on_visit(node)

    return RemoveTold


def _told_works() -> bool:
    """Whether LibCST's visitor still keeps its analysis where :func:`_remove_told`'s puts it."""
    with signals_held():
        from libcst.codemod import CodemodContext
        from libcst.codemod.visitors import RemoveImportsVisitor

    return isinstance(getattr(RemoveImportsVisitor(CodemodContext()), "_unused_imports", None), dict)


def imports(module: cst.Module, add_target: bool, unused: set[_Request], add_json: bool = False) -> cst.Module:
    """``module`` with ``from tvm.target import Target`` added (``add_target``), ``import json``
    added (``add_json``), and the imports ``unused`` names, ``(module, name, alias)``, removed
    where nothing else uses them."""
    with signals_held():  # (see _remove_told)
        from libcst.codemod import CodemodContext
        from libcst.codemod.visitors import AddImportsVisitor, RemoveImportsVisitor

    context = CodemodContext()
    if add_target:
        AddImportsVisitor.add_needed_import(context, "tvm.target", "Target")
    if add_json:
        AddImportsVisitor.add_needed_import(context, "json")
    if add_target or add_json:
        module = AddImportsVisitor(context).transform_module(module)
    if not unused:
        return module
    if not _told_works():
        return RemoveImportsVisitor(context, sorted(unused, key=str)).transform_module(module)
    uses = NameUses(unused)
    walk(module, uses)
    found = uses.unused_aliases()
    if not found:
        return module
    return module.visit(_remove_told()(context, found))
