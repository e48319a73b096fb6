"""The package's layers, read from the source: every import of a targetlang module points down the
chain of docs/design.md, except ``Target(spec)``'s deferred call of the parser."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tools.metrics import imported_module, option_declarations, private_imports, private_reads

PACKAGE = Path(__file__).resolve().parents[1] / "targetlang"

# Lowest first. A module may import the ones before it; the modules of one subpackage may import
# each other.
CHAIN = (
    "_signals",
    "_attribute_names",
    "_cache",
    "_atomic_file",
    "errors",
    "_versions",
    "_lexical",
    "_grammar_file",
    "_json_text",
    "_legacy_words",
    "_syntax",
    "_schema",
    "_values",
    "_release_schemas",
    "_registry_entries",
    "_registry",
    "_resolution",
    "_printing",
    "_diagnostics",
    "_target",
    "_derived",
    "_eras",
    "_tag_budget",
    "_config_values",
    "_json_decoding",
    "_legacy_reading",
    "_reading",
    "_parsing",
    "_registry_files",
    "_layering",
    "compat",
    "_tvmc",
    "_helper_strings",
    "helpers",
    "migration",
    "_checking",
    "_llvm_names",
    "__init__",
    "_progress",
    "_pool",
    "logs",
    "fix",
    "inspection",
    "_cli",
    "__main__",
)
# (importer, imported, function it is deferred into): the references upwards that are allowed.
# Target's constructor is a façade over the parser, and its edits and resolution over the module
# that makes the targets a target derives (each makes Targets, so each sits above Target).
UPWARDS = {("_target", "_parsing", "__new__"), ("_target", "_derived", "_derived")}


def _layer(module: str) -> str:
    first = module.split(".")[0]
    # ``from . import Registry`` names something of the package itself, not a module
    return first if first in CHAIN else "__init__"


def _imports(path: Path, name: str) -> list[tuple[str, str]]:
    """(module imported, enclosing function or "") for each import of a targetlang module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[str, str]] = []

    def visit(node: ast.AST, function: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = child.name if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) else function
            if isinstance(child, ast.ImportFrom):
                module = imported_module(child, name)
                if module is None:
                    targets = []
                else:  # ``from . import x``: x, a module or a name of the package
                    targets = [module] if child.module else [f"{module}.{a.name}" for a in child.names]
                found.extend((t.removeprefix("targetlang").lstrip(".") or "__init__", function) for t in targets)
            elif isinstance(child, ast.Import):
                found.extend(
                    (a.name.removeprefix("targetlang").lstrip(".") or "__init__", function)
                    for a in child.names
                    if a.name.split(".")[0] == "targetlang"
                )
            visit(child, inner)

    visit(tree, "")
    return found


MODULES = sorted(
    (str(p.relative_to(PACKAGE.parent).with_suffix("")).replace("/", "."), p) for p in PACKAGE.rglob("*.py")
)


def test_every_module_has_a_place_in_the_chain() -> None:
    assert len(MODULES) > 30
    for name, _ in MODULES:
        inner = name.removeprefix("targetlang.")
        assert _layer(inner if name != "targetlang.__init__" else "__init__") in CHAIN, name


@pytest.mark.parametrize(("name", "path"), MODULES, ids=[name for name, _ in MODULES])
def test_imports_point_down(name: str, path: Path) -> None:
    inner = name.removeprefix("targetlang.")
    me = _layer(inner) if name != "targetlang.__init__" else "__init__"
    for imported, function in _imports(path, name):
        them = _layer(imported)
        if them == me:
            continue
        if (me, them, function) in UPWARDS:
            continue
        assert CHAIN.index(them) < CHAIN.index(me), f"{name} imports {imported} (in {function or 'the module'})"


def test_the_checker_sees_an_upward_import() -> None:
    # the allowed exception is found, so a new one would be too
    found = _imports(PACKAGE / "_target.py", "targetlang._target")
    assert ("_parsing", "__new__") in found


@pytest.mark.parametrize(("name", "path"), MODULES, ids=[name for name, _ in MODULES])
def test_no_module_imports_another_modules_private_name(name: str, path: Path) -> None:
    # A name another module needs is that module's public name (an internal module's, under
    # its _-prefixed module name): what is private stays where it is defined.
    assert private_imports(path, name) == []


def test_the_checker_sees_a_private_import(tmp_path: Path) -> None:
    source = tmp_path / "x.py"
    source.write_text("from .check import _hidden, Checker\nfrom . import _scheduler_schema\nfrom ..errors import _e\n")
    assert private_imports(source, "targetlang.logs.x") == ["targetlang.logs.check._hidden", "targetlang.errors._e"]
    init = tmp_path / "__init__.py"
    init.write_text("from ._rules import _hidden\nfrom . import _rules\n")
    assert private_imports(init, "targetlang.migration.__init__") == ["targetlang.migration._rules._hidden"]


def test_no_module_reads_a_private_attribute_another_module_defines() -> None:
    # (the owning module gives an accessor: _registry.tag_target_cache, _target.text_form, ...)
    assert private_reads() == []


def test_the_checker_sees_a_private_read() -> None:
    sources = {
        "a": "class Registry:\n    __slots__ = ('_kinds',)\n\n    def kind(self):\n        return self._kinds\n",
        "b": "def f(registry):\n    return registry._kinds, registry._own, registry.kinds\n",
        "c": "_own = 1\n\ndef g(x):\n    return x._own\n",
    }
    assert private_reads(sources) == ["b: _kinds (a)", "b: _own (c)"]


def test_each_command_line_option_is_declared_once() -> None:
    # (in targetlang/_cli/options.py, whatever command takes it)
    assert option_declarations() == {}


# _tvmc reads a tvmc command line as TVM's own argparse parser read it: a model of TVM's tool,
# not a command of targetlang's.
ARGPARSE_OUTSIDE_THE_COMMAND_LINE = {"targetlang._tvmc._flags"}


def test_the_library_holds_no_argparse() -> None:
    # the command line is one layer, targetlang/_cli: no library module builds options
    users = set()
    for name, path in MODULES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if "argparse" in names or (isinstance(node, ast.ImportFrom) and node.module == "argparse"):
                users.add(name)
    assert users, "no module imports argparse: the check reads nothing"
    outside = {name for name in users if not name.startswith("targetlang._cli.")}
    assert outside == ARGPARSE_OUTSIDE_THE_COMMAND_LINE
