"""Lines a maintainer accepts as they are: a written target that makes its line longer than the
project's line length is split over lines, as the project's formatter would.

The line length is the project's (``[tool.ruff] line-length``, else ``[tool.black]
line-length``, in the nearest ``pyproject.toml`` above the file; 88 without one, the default of
both). Where a line is too long:

* a file that black leaves as it is (black installed, ``black.format_str`` of the source gives
  the source) is formatted with black after the fix, so a format-clean file stays so: black's
  formatting is line by line, and only the lines the fix changed change again;
* any other file keeps its own style, and each written dict on a long line is split one entry a
  line, indented four spaces past its line, with a trailing comma (what black and ruff write for
  a collection that does not fit); a line any other fix made too long (a property's
  replacement) is laid out by black alone, its quotes kept.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType

import libcst as cst

from .._registry_files import MAX_TOML_BYTES, check_toml_keys
from .._signals import signals_held
from ..errors import RegistryError
from ._positions import starts
from ._project_files import project_folders
from ._walk import walk

__all__ = ["DEFAULT_LINE_LENGTH", "black_formatter", "long_lines", "project_line_length", "split"]

DEFAULT_LINE_LENGTH = 88


def project_line_length(path: str | None) -> int:
    """The line length of the project ``path`` belongs to (its nearest ``pyproject.toml``)."""
    if path is None or path.startswith("<"):
        return DEFAULT_LINE_LENGTH
    return _line_length_of(Path(path).resolve().parent)


@functools.lru_cache(maxsize=256)
def _line_length_of(directory: Path) -> int:
    for folder in project_folders(directory):  # (the search the settings make, too)
        config = folder / "pyproject.toml"
        if config.is_file():
            try:
                with open(config, "rb") as handle:
                    data = handle.read(MAX_TOML_BYTES + 1)
                if len(data) > MAX_TOML_BYTES:
                    return DEFAULT_LINE_LENGTH
                text = data.decode("utf-8")
                # bounded as a registry file is: tomllib takes quadratic time and memory on a
                # dotted key of many parts (20,000: 6 s, 1.6 GB)
                check_toml_keys(text)
                tool = tomllib.loads(text).get("tool", {})
            except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, RegistryError):
                return DEFAULT_LINE_LENGTH
            for name in ("ruff", "black"):
                length = tool.get(name, {}).get("line-length") if isinstance(tool.get(name), dict) else None
                if isinstance(length, int) and length > 0:
                    return length
            return DEFAULT_LINE_LENGTH
    return DEFAULT_LINE_LENGTH


def long_lines(
    source: str, code: str, fixed: cst.Module, written: Sequence[cst.CSTNode], limit: int
) -> tuple[bool, dict[int, str]]:
    """Whether a node ``written`` into ``fixed`` (``source`` fixed, whose code is ``code``)
    stands on a line longer than ``limit``, and the dicts of targets that do: by id, the indent
    of that line."""
    if limit <= 0:
        return False, {}  # no limit: the lines as the fixes wrote them
    before = {line for line in source.splitlines() if len(line) > limit}
    if all(line in before for line in code.splitlines() if len(line) > limit):
        return False, {}  # no line the fixes wrote is too long: most files, at the cost of a split
    nodes = [node for node in written if isinstance(node, cst.CSTNode)]
    dicts = [found for node in nodes for found in _outer_dicts(node)]
    present = _Present({id(node) for node in [*nodes, *dicts]})
    walk(fixed, present)  # (not those a fix further up replaced again: a helper's argument)
    nodes = [node for node in nodes if id(node) in present.found]
    dicts = [node for node in dicts if id(node) in present.found]
    if not nodes:
        return False, {}
    where = starts(fixed, [*nodes, *dicts])
    lines = code.splitlines()
    if not any(len(lines[where[node][0] - 1]) > limit for node in nodes):
        return False, {}
    long = {}
    for node in [*dicts, *(node for node in nodes if not _outer_dicts(node))]:
        line = lines[where[node][0] - 1]
        if len(line) > limit:
            indent = line[: len(line) - len(line.lstrip(" \t"))]
            # a dict is split itself; any other fix, the line that holds it (by black)
            statement = present.found.get(id(node)) if not isinstance(node, cst.Dict) else node
            if statement is not None:
                long[id(statement)] = indent
    return True, long


class _Present(cst.CSTVisitor):
    """Which of the nodes ``wanted`` the tree holds, each with the line that holds it."""

    def __init__(self, wanted: set[int]) -> None:
        self.wanted = wanted
        self.found: dict[int, cst.CSTNode | None] = {}
        self.lines: list[cst.CSTNode] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, cst.SimpleStatementLine):
            self.lines.append(node)
        if id(node) in self.wanted:
            self.found[id(node)] = self.lines[-1] if self.lines else None
        return True

    def on_leave(self, original_node: cst.CSTNode) -> None:
        if isinstance(original_node, cst.SimpleStatementLine):
            self.lines.pop()


def split(fixed: cst.Module, long: dict[int, str], limit: int) -> cst.Module:
    """``fixed`` with each dict of ``long`` one entry a line, and each line of it laid out by
    black (if black is installed), quotes as they are."""
    return fixed.visit(_Split(long, limit))


def _outer_dicts(node: cst.CSTNode) -> list[cst.Dict]:
    """The dicts in ``node`` that no other dict holds (a target's; its host's stays inline)."""
    if isinstance(node, cst.Dict):
        return [node]
    if isinstance(node, cst.Call):
        return [found for arg in node.args for found in _outer_dicts(arg.value)]
    return []


@functools.cache
def _black() -> ModuleType | None:
    """Black, where it is installed (imported with the stops held, as every module a command
    imports as it runs: see ``_signals``)."""
    with signals_held():
        try:
            import black
        except ImportError:
            return None
    return black


def black_formatter(source: str, limit: int) -> Callable[[str], str] | None:
    """Black at ``limit``, if it is installed and leaves ``source`` as it is (a format-clean
    file), else ``None``."""
    black = _black()
    if black is None:
        return None
    mode = black.Mode(line_length=limit)
    try:
        if black.format_str(source, mode=mode) != source:
            return None
    except Exception:  # black cannot read it: not a file it formats
        return None

    def formatted(code: str) -> str:
        try:
            text: str = black.format_str(code, mode=mode)
        except Exception:  # the fix is still right as it is
            return code
        return text

    return formatted


class _Split(cst.CSTTransformer):
    """Each dict named (by id, with the indent of its line) one entry a line."""

    def __init__(self, indents: dict[int, str], limit: int) -> None:
        super().__init__()
        self.indents = indents
        self.limit = limit
        self.blocks: list[str] = []  # the indents of the blocks around, outermost first
        self.default = "    "
        self.fstrings = 0  # the f-strings around the current node

    def visit_Module(self, node: cst.Module) -> None:
        self.default = node.default_indent

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        self.blocks.append(node.indent if node.indent is not None else self.default)

    def leave_IndentedBlock(self, original_node: cst.IndentedBlock, updated_node: cst.IndentedBlock) -> cst.BaseSuite:
        self.blocks.pop()
        return updated_node

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.BaseStatement:
        indent = self.indents.get(id(original_node))
        if indent is None:
            return updated_node
        black = _black()
        if black is None:
            return updated_node
        alone = cst.Module(body=[updated_node.with_changes(leading_lines=[])]).code
        mode = black.Mode(line_length=max(self.limit - len(indent), 20), string_normalization=False)
        try:
            laid = cst.parse_statement(black.format_str(alone, mode=mode))
        except Exception:  # black or LibCST cannot read it: the line stays as the fix wrote it
            return updated_node
        return laid.with_changes(leading_lines=updated_node.leading_lines)

    def visit_FormattedString(self, node: cst.FormattedString) -> None:
        self.fstrings += 1

    def leave_FormattedString(
        self, original_node: cst.FormattedString, updated_node: cst.FormattedString
    ) -> cst.BaseExpression:
        self.fstrings -= 1
        return updated_node

    def leave_Dict(self, original_node: cst.Dict, updated_node: cst.Dict) -> cst.BaseExpression:
        indent = self.indents.get(id(original_node))
        # before Python 3.12 a line break between an f-string's braces is a syntax error (PEP 701):
        # a dict inside one stays on its line
        if indent is None or not updated_node.elements or self.fstrings:
            return updated_node
        # LibCST writes the indent of the blocks around before each line inside the brackets
        block = "".join(self.blocks)
        own = indent[len(block) :] if indent.startswith(block) else ""
        code = cst.Module(body=[]).code_for_node
        inner = own + "    "
        entries = []
        for element in updated_node.elements:
            if isinstance(element, cst.DictElement):
                entries.append(f"{inner}{code(element.key)}: {code(element.value)},\n")
            else:
                entries.append(f"{inner}**{code(element.value)},\n")
        split = cst.parse_expression("{\n" + "".join(entries) + own + "}")
        return split.with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)
