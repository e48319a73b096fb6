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

import re

import libcst as cst
from libcst.codemod import CodemodContext
from libcst.codemod.visitors import AddImportsVisitor, RemoveImportsVisitor
from libcst.helpers import get_full_name_for_node

from ._walk import walk

__all__ = ["imports"]


class _Written(cst.CSTVisitor):
    """The names a module uses: as names (not those of imports, attributes (``x.cuda``) or
    keyword arguments, which no import binds), and in the strings that name things, string
    annotations and ``__all__``."""

    def __init__(self) -> None:
        super().__init__()
        self.names: set[str] = set()
        self._not_names: set[int] = set()
        self._naming: list[cst.CSTNode] = []  # the annotations and __all__ assignments open

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, cst.Name):
            if id(node) not in self._not_names:
                self.names.add(node.value)
        elif isinstance(node, cst.SimpleString):
            if self._naming:
                self.names.update(_IDENTIFIER.findall(node.value))
        elif isinstance(node, cst.Attribute):
            self._not_names.add(id(node.attr))
        elif isinstance(node, cst.Arg) and node.keyword is not None:
            self._not_names.add(id(node.keyword))
        elif isinstance(node, cst.Annotation) or _exports(node):
            self._naming.append(node)
        return not isinstance(node, cst.ImportAlias)

    def on_leave(self, original_node: cst.CSTNode) -> None:
        if self._naming and self._naming[-1] is original_node:
            self._naming.pop()


_IDENTIFIER = re.compile(r"[^\W\d]\w*")


def _exports(node: cst.CSTNode) -> bool:
    """``node`` assigns ``__all__``."""
    if isinstance(node, cst.Assign):
        return any(isinstance(t.target, cst.Name) and t.target.value == "__all__" for t in node.targets)
    if isinstance(node, (cst.AugAssign, cst.AnnAssign)):
        return isinstance(node.target, cst.Name) and node.target.value == "__all__"
    return False


class _Aliases(cst.CSTVisitor):
    """The aliases of ``from MODULE import NAME [as ALIAS]`` statements that ``unused`` names."""

    def __init__(self, unused: set[tuple[str, str, str | None]], written: _Written) -> None:
        super().__init__()
        self.unused, self.written = unused, written
        self.found: dict[cst.ImportAlias, cst.ImportFrom] = {}

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, cst.ImportFrom):
            if node.relative or node.module is None or isinstance(node.names, cst.ImportStar):
                return False
            module = get_full_name_for_node(node.module)
            for alias in node.names:
                name, bound = alias.evaluated_name, alias.evaluated_alias
                if (module, name, bound) in self.unused and (bound or name) not in self.written.names:
                    self.found[alias] = node
            return False
        return not isinstance(node, cst.BaseExpression)  # an import is a statement

    def on_leave(self, original_node: cst.CSTNode) -> None:
        pass


class _RemoveTold(RemoveImportsVisitor):
    """LibCST's ``RemoveImportsVisitor`` with the unused aliases given, not analysed (run by
    ``module.visit``, which resolves no metadata)."""

    def __init__(self, context: CodemodContext, unused: dict[cst.ImportAlias, cst.ImportFrom]) -> None:
        super().__init__(context, _requests(unused))
        self._told = unused

    def visit_Module(self, node: cst.Module) -> None:
        self._unused_imports = dict(self._told)

    def on_visit(self, node: cst.CSTNode) -> bool:
        return not isinstance(node, cst.BaseExpression) and super().on_visit(node)


def _requests(aliases: dict[cst.ImportAlias, cst.ImportFrom]) -> list[tuple[str, str, str | None]]:
    found = []
    for alias, statement in aliases.items():
        assert statement.module is not None
        module = get_full_name_for_node(statement.module)
        assert module is not None
        found.append((module, alias.evaluated_name, alias.evaluated_alias))
    return sorted(set(found), key=str)


def _told_works() -> bool:
    """Whether LibCST's visitor still keeps its analysis where :class:`_RemoveTold` puts it."""
    return isinstance(getattr(RemoveImportsVisitor(CodemodContext()), "_unused_imports", None), dict)


def imports(module: cst.Module, add_target: bool, unused: set[tuple[str, str, str | None]]) -> cst.Module:
    """``module`` with ``from tvm.target import Target`` added (``add_target``) and the imports
    ``unused`` names, ``(module, name, alias)``, removed where nothing else uses them."""
    context = CodemodContext()
    if add_target:
        AddImportsVisitor.add_needed_import(context, "tvm.target", "Target")
        module = AddImportsVisitor(context).transform_module(module)
    if not unused:
        return module
    if not _told_works():
        return RemoveImportsVisitor(context, sorted(unused, key=str)).transform_module(module)
    written = _Written()
    walk(module, written)
    aliases = _Aliases(unused, written)
    walk(module, aliases)
    if not aliases.found:
        return module
    return module.visit(_RemoveTold(context, aliases.found))
