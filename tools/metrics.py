"""How the code base is built, in figures: where a newcomer would trip (docs/design.md).

    python -m tools.metrics          # each figure, its goal, and what stands behind it
    python -m tools.metrics --table  # the table of docs/design.md ("The house in figures")

- modules of 500 lines or more (goal: none but data tables);
- functions of cyclomatic complexity 20 or more, as ruff's mccabe rule (C901) counts it (goal:
  at most 5, none of 30 or more);
- imports of another module's private name (goal: none; tests/test_layers.py holds it there);
- reads of a private attribute another module defines, ``registry._kinds`` (goal: none: the
  owning module gives an accessor; tests/test_layers.py holds it there);
- command-line options declared more than once (goal: each once; ``_tvmc``'s are TVM's tvmc's,
  modelled, not targetlang's).
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "targetlang"

__all__ = [
    "complex_functions",
    "imported_module",
    "long_modules",
    "option_declarations",
    "private_imports",
    "private_reads",
]


def _modules() -> list[tuple[str, Path]]:
    return sorted((str(p.relative_to(ROOT).with_suffix("")).replace("/", "."), p) for p in PACKAGE.rglob("*.py"))


def long_modules(least: int = 500) -> list[tuple[str, int]]:
    """The modules of ``least`` lines or more, longest first."""
    found = [(name, len(path.read_text(encoding="utf-8").splitlines())) for name, path in _modules()]
    return sorted(((name, n) for name, n in found if n >= least), key=lambda item: -item[1])


_TOO_COMPLEX = re.compile(r"`(?P<name>[^`]+)` is too complex \((?P<n>\d+) > \d+\)")


def complex_functions(least: int = 20) -> list[tuple[str, str, int]]:
    """(module, function, complexity) of every function of complexity ``least`` or more, by
    ruff's mccabe rule, most complex first."""
    ruff = [sys.executable, "-m", "ruff", "check", "--select", "C901", "--output-format", "json", "--no-cache"]
    ruff += ["--config", f"lint.mccabe.max-complexity = {least - 1}", str(PACKAGE)]
    done = subprocess.run(ruff, capture_output=True, text=True, check=False, cwd=ROOT)
    found = []
    for diagnostic in json.loads(done.stdout or "[]"):
        match = _TOO_COMPLEX.search(diagnostic["message"])
        if match is None:
            raise RuntimeError(f"ruff's C901 message changed: {diagnostic['message']!r}")
        module = str(Path(diagnostic["filename"]).relative_to(ROOT).with_suffix("")).replace("/", ".")
        found.append((module, match["name"], int(match["n"])))
    return sorted(found, key=lambda item: -item[2])


def imported_module(node: ast.ImportFrom, name: str) -> str | None:
    """The targetlang module ``from ... import`` reads from in the module ``name`` (relative
    imports resolved), or ``None`` for another package's."""
    if node.level:
        package = name.split(".")[:-1]  # (of targetlang.logs.__init__ too: targetlang.logs)
        base = package[: len(package) - node.level + 1]
        return ".".join([*base, node.module] if node.module else base)
    if node.module and node.module.split(".")[0] == "targetlang":
        return node.module
    return None


def private_imports(path: Path, name: str) -> list[str]:
    """The private names (``_x``, not a module) the module ``name`` at ``path`` imports from
    another targetlang module, as ``module.name``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    itself = name.removesuffix(".__init__")
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom) or (module := imported_module(node, name)) is None:
            continue
        folder = ROOT.joinpath(*module.split("."))
        for alias in node.names:
            private = alias.name.startswith("_") and not alias.name.startswith("__")
            submodule = (folder / f"{alias.name}.py").exists() or (folder / alias.name / "__init__.py").exists()
            if private and not submodule and module != itself:
                found.append(f"{module}.{alias.name}")
    return found


# Private attributes read across modules on purpose: LibCST's own protocol method, which a node
# class of fix/ overrides and the walk calls on every node, LibCST's or ours.
_FOREIGN_PROTOCOL = frozenset({"_visit_and_replace_children"})


def _private_names(tree: ast.AST) -> set[str]:
    """The private names a module defines: functions, classes, names and attributes it assigns,
    and the strings that name them (``__slots__``, ``object.__setattr__``)."""
    own = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            own.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            own.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            own.add(node.id)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            own.add(node.value)
    return {name for name in own if name.startswith("_") and not name.startswith("__")}


def private_reads(sources: dict[str, str] | None = None) -> list[str]:
    """Each read of a private attribute (``x._name``, ``x`` not ``self`` or ``cls``) that the
    reading module does not define and another module does, as ``module: name (owner)``; of
    targetlang's modules, or of ``sources`` (module name to its text)."""
    if sources is None:
        sources = {name: path.read_text(encoding="utf-8") for name, path in _modules()}
    trees = {name: ast.parse(text) for name, text in sources.items()}
    defined = {name: _private_names(tree) for name, tree in trees.items()}
    found = []
    for name, tree in trees.items():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Attribute) or not node.attr.startswith("_") or node.attr.startswith("__"):
                continue
            if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                continue
            if node.attr in defined[name] or node.attr in _FOREIGN_PROTOCOL:
                continue
            owners = [other for other, names in defined.items() if other != name and node.attr in names]
            if owners:
                found.append(f"{name}: {node.attr} ({', '.join(owners)})")
    return found


def option_declarations() -> dict[str, list[str]]:
    """Each command-line option (``--x``) declared more than once, and the modules declaring it
    (a module as often as it declares it)."""
    seen: dict[str, list[str]] = defaultdict(list)
    for name, path in _modules():
        if name.startswith("targetlang._tvmc."):  # (the options of TVM's own tvmc, as it declared them)
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
                continue
            if node.func.attr != "add_argument":
                continue
            for arg in node.args:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value.startswith("--"):
                    seen[arg.value].append(name)
    return {option: modules for option, modules in sorted(seen.items()) if len(modules) > 1}


def _figures() -> list[tuple[str, str, str, list[str]]]:
    """(figure, value, goal, what stands behind it)."""
    modules = long_modules()
    functions = complex_functions()
    imports = [f"{name}: {found}" for name, path in _modules() for found in private_imports(path, name)]
    reads = private_reads()
    options = option_declarations()
    return [
        ("modules of 500 lines or more", str(len(modules)), "0 (but data tables)", [f"{m} {n}" for m, n in modules]),
        (
            "functions of complexity 20 or more (30 or more)",
            f"{len(functions)} ({sum(n >= 30 for *_, n in functions)})",
            "<= 5 (0)",
            [f"{m} {f} {n}" for m, f, n in functions],
        ),
        ("imports of another module's private name", str(len(imports)), "0", imports),
        ("reads of a private attribute another module defines", str(len(reads)), "0", reads),
        (
            "options declared more than once (declarations)",
            f"{len(options)} ({sum(map(len, options.values()))})",
            "0",
            [f"{o}: {', '.join(ms)}" for o, ms in options.items()],
        ),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.metrics", description=__doc__.split("\n\n")[0])
    parser.add_argument("--table", action="store_true", help="print the markdown table docs/design.md holds")
    args = parser.parse_args(argv)
    figures = _figures()
    if args.table:
        print("| figure | now | goal |\n|---|---:|---:|")
        for figure, value, goal, _ in figures:
            print(f"| {figure} | {value} | {goal} |")
        return 0
    for figure, value, goal, behind in figures:
        print(f"{figure}: {value} (goal {goal})")
        for line in behind:
            print(f"  {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
