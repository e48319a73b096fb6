"""The targets in target positions of Python source, in source order.

:func:`targets_in_source` lists, for a Python file, every expression that stands where TVM reads a
target: the arguments of ``Target(...)``, ``target=``/``target_host=``/``host=`` keyword arguments,
``VDevice``/``I.vdevice``, ``tvm.testing.parametrize_targets``, ``T.target``, the target argument
of ``tvm.compile``/``tvm.build``/``tvm.tir.build``/``relax.build``, module- and class-level
constants (and local variables) holding a target, calls of the target helper constructors TVM
removed (``tvm.target.cuda()``, ``arm_cpu("rasp3b")``, ...), and any other string or dict literal
that can only be a target (a legacy string with options, a tag, a dict with ``kind``).

:func:`targets_in_text` finds targets in free text: comments and docstrings of Python files, shell
scripts (``TVM_TEST_TARGETS="cuda;opencl -device=mali"``), rst and markdown.

Each :class:`Site` has a line (1-based), a column (0-based, in characters), the source text of the
expression, and its value when it is a literal (``ast.literal_eval``; a few constant expressions
such as ``" ".join([...])`` of literals are folded and marked ``folded``). The lists serve to pair
the targets that TVM's maintainers wrote by hand (in the ``.after`` files of tests/data/fix) with
what a source rewriter writes for the ``.before`` files.

Run as a script, it prints the sites of the files given as JSON lines.
"""

from __future__ import annotations

import ast
import copy
import functools
import io
import json
import operator
import re
import shlex
import sys
import tokenize
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass
from typing import Any

__all__ = [
    "HELPERS",
    "KINDS",
    "REMOVED_PROPERTIES",
    "REMOVED_STATIC_METHODS",
    "Site",
    "dotted",
    "fold",
    "legacy_api_uses",
    "looks_like_target",
    "sites_of_file",
    "targets_in_source",
    "targets_in_text",
]

# Every target kind some TVM release from v0.6 on knew: the first word of a legacy string.
KINDS = frozenset(
    {
        "aocl",
        "aocl_sw_emu",
        "c",
        "composite",
        "cuda",
        "cuda_host",
        "ext_dev",
        "hexagon",
        "hybrid",
        "llvm",
        "metal",
        "micro_dev",
        "nvptx",
        "opencl",
        "opengl",
        "rocm",
        "sdaccel",
        "stackvm",
        "trn",
        "vulkan",
        "webgpu",
    }
)
# The vendors of TVM's registered tags ("nvidia/geforce-rtx-3080", "qcom/hexagon-v68", ...).
TAG_VENDORS = frozenset({"apple", "arm", "aws", "nvidia", "qcom", "raspberry-pi", "riscv"})
# The helper constructors of tvm.target that TVM removed (apache/tvm#18793).
HELPERS = frozenset(
    {
        "adreno",
        "arm_cpu",
        "bifrost",
        "create",
        "cuda",
        "hexagon",
        "intel_graphics",
        "mali",
        "micro",
        "rasp",
        "riscv_cpu",
        "rocm",
        "stm32",
    }
)
# Static methods of Target that TVM removed with them.
REMOVED_STATIC_METHODS = frozenset(
    {
        "canon_multi_target",
        "canon_multi_target_and_host",
        "canon_target",
        "canon_target_and_host",
        "canon_target_map_and_host",
        "target_or_current",
    }
)
# Properties of Target that TVM removed with them (read target.attrs[...] instead).
REMOVED_PROPERTIES = frozenset(
    {
        "arch",
        "device_name",
        "features",
        "l2_cache_size_bytes",
        "libs",
        "mattr",
        "max_block_size_x",
        "max_block_size_y",
        "max_function_args",
        "max_num_threads",
        "max_shared_memory_per_block",
        "mcpu",
        "model",
        "supports_cooperative_matrix",
        "supports_integer_dot_product",
        "thread_warp_size",
        "vtcm_capacity",
    }
)
_BUILDS = frozenset({"tvm.compile", "tvm.build", "tvm.tir.build", "tir.build", "relax.build", "tvm.relax.build"})
_TARGET_KEYWORDS = frozenset({"target", "target_host", "host"})
_TAG = re.compile(r"(?P<vendor>[a-z][a-z0-9-]*)/[A-Za-z0-9][A-Za-z0-9_.+-]*")

# roles, most specific first: when one expression is found in several roles, the first one wins
ROLES = (
    "helper",
    "Target",
    "Target.host",
    "T.target",
    "VDevice",
    "parametrize_targets",
    "build",
    "keyword",
    "constant",
    "assign",
    "literal",
    "comment",
    "docstring",
    "shell",
    "text",
)


@dataclass(frozen=True)
class Site:
    """One target in a file.

    ``role``: where it stands (one of :data:`ROLES`); ``call``: the dotted name of the call it is an
    argument of (or the helper's name), ``keyword``: the keyword it is passed as, ``name``: the
    variable a constant is assigned to. ``value`` is the literal value (``None`` when ``literal`` is
    false); ``folded`` marks a value computed from a constant expression rather than read from a
    literal.
    """

    line: int
    col: int
    end_line: int
    end_col: int
    role: str
    source: str
    literal: bool
    value: Any = None
    folded: bool = False
    call: str | None = None
    keyword: str | None = None
    name: str | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def looks_like_target(value: Any, *, bare_kind: bool = False) -> bool:
    """Whether ``value`` can only be a target: a legacy string ``kind -opt...`` (a bare kind only
    with ``bare_kind``), a tag ``vendor/name``, a JSON object or a dict with a ``kind`` or ``tag``."""
    if isinstance(value, dict):
        kind, tag = value.get("kind"), value.get("tag")
        return isinstance(kind, str) or isinstance(tag, str)
    if not isinstance(value, str):
        return False
    text = value.strip()
    if text.startswith("{"):
        try:
            decoded = json.loads(text)
        except ValueError:
            return False
        return isinstance(decoded, dict) and looks_like_target(decoded)
    words = _words(text)
    if not words:
        return False
    if words[0] in KINDS:
        return bare_kind if len(words) == 1 else _options(words[1:])
    match = _TAG.fullmatch(text)
    return match is not None and match["vendor"] in TAG_VENDORS


def _words(text: str) -> list[str]:
    """``text`` split at blanks outside quotes (``-device_name='A B'`` is one word)."""
    try:
        return shlex.split(text)
    except ValueError:
        return text.split()


def _options(words: list[str]) -> bool:
    """Whether ``words`` are legacy options: ``-key=value``, ``-key value`` or a flag ``-key``."""
    expecting_value = False
    for word in words:
        if word.startswith("-") and len(word) > 1 and not word[1:2].isdigit():
            expecting_value = "=" not in word
        elif expecting_value:
            expecting_value = False
        else:
            return False
    return True


def dotted(node: ast.AST) -> str | None:
    """``a.b.c`` for a name or attribute chain, else ``None``."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


_ARITHMETIC: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Pow: operator.pow,
    ast.FloorDiv: operator.floordiv,
}


def fold(node: ast.expr) -> tuple[bool, Any]:
    """``(True, value)`` for a literal or a constant expression of literals (``4 * 2**20``,
    ``" ".join([...])``, ``"a" + "b"``, an f-string without fields), else ``(False, None)``."""
    return _fold(node)


def _fold(node: ast.expr) -> tuple[bool, Any]:
    try:
        return True, ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        pass
    if isinstance(node, ast.JoinedStr) and all(isinstance(part, ast.Constant) for part in node.values):
        return True, "".join(str(part.value) for part in node.values if isinstance(part, ast.Constant))
    if isinstance(node, ast.BinOp) and type(node.op) in _ARITHMETIC:
        ok_left, left = _fold(node.left)
        ok_right, right = _fold(node.right)
        if ok_left and ok_right and isinstance(left, str) and isinstance(right, str) and isinstance(node.op, ast.Add):
            return True, left + right
        numbers = (int, float)
        if ok_left and ok_right and isinstance(left, numbers) and isinstance(right, numbers):
            if not isinstance(left, bool) and not isinstance(right, bool):
                if isinstance(node.op, ast.Pow) and abs(right) > 64:
                    return False, None
                try:
                    return True, _ARITHMETIC[type(node.op)](left, right)
                except (ArithmeticError, ValueError):
                    return False, None
    if isinstance(node, (ast.List, ast.Tuple)):
        folded = [_fold(element) for element in node.elts]
        if all(ok for ok, _ in folded):
            values = [value for _, value in folded]
            return True, values if isinstance(node, ast.List) else tuple(values)
    if isinstance(node, ast.Dict) and all(key is not None for key in node.keys):
        keys = [_fold(key) for key in node.keys if key is not None]
        values = [_fold(value) for value in node.values]
        if all(ok for ok, _ in keys) and all(ok for ok, _ in values):
            try:
                return True, {key: value for (_, key), (_, value) in zip(keys, values, strict=True)}
            except TypeError:  # an unhashable key
                return False, None
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "join"
        and len(node.args) == 1
        and not node.keywords
    ):
        ok_sep, sep = _fold(node.func.value)
        ok_items, items = _fold(node.args[0])
        if (
            ok_sep
            and ok_items
            and isinstance(sep, str)
            and isinstance(items, (list, tuple))
            and all(isinstance(item, str) for item in items)
        ):
            return True, sep.join(items)
    return False, None


def _template(node: ast.expr) -> str | None:
    """The text a string expression builds, with ``{}`` for what is computed at run time
    (f-strings, ``"..." % x``, ``"..." + x``), or ``None`` when it is not a string expression."""
    if isinstance(node, ast.Constant):
        return node.value if isinstance(node.value, str) else None
    if isinstance(node, ast.JoinedStr):
        return "".join(
            part.value if isinstance(part, ast.Constant) and isinstance(part.value, str) else "{}"
            for part in node.values
        )
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        return _template(node.left)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _template(node.left), _template(node.right)
        if left is None and right is None:
            return None
        return (left if left is not None else "{}") + (right if right is not None else "{}")
    return None


def _target_like(node: ast.expr, *, bare_kind: bool = False) -> bool:
    """Whether the expression ``node`` builds a target: a literal that :func:`looks_like_target`,
    a dict display with a ``kind`` or ``tag`` key, or a string built from a template that looks
    like a legacy target (``f"llvm -mtriple={triple}"``, ``"llvm -mtriple=%s" % arch``)."""
    ok, value = _fold(node)
    if ok:
        return looks_like_target(value, bare_kind=bare_kind)
    if isinstance(node, ast.Dict):
        return any(isinstance(key, ast.Constant) and key.value in ("kind", "tag") for key in node.keys)
    template = _template(node)
    return template is not None and looks_like_target(template.replace("{}", "X"), bare_kind=bare_kind)


class _Columns:
    """ast's UTF-8 byte columns to character columns, and source segments (lines split as the
    parser splits them: at ``\n``, ``\r\n`` and ``\r`` only)."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.lines = source.encode("utf-8").splitlines(keepends=True)

    def col(self, line: int, byte_col: int) -> int:
        if not 0 < line <= len(self.lines):
            return byte_col
        return len(self.lines[line - 1][:byte_col].decode("utf-8", errors="replace"))

    def segment(self, node: ast.AST) -> str:
        start, end = getattr(node, "lineno", None), getattr(node, "end_lineno", None)
        first, last = getattr(node, "col_offset", None), getattr(node, "end_col_offset", None)
        if not (isinstance(start, int) and isinstance(end, int) and isinstance(first, int) and isinstance(last, int)):
            return ""
        if end > len(self.lines):
            return ""
        if start == end:
            return self.lines[start - 1][first:last].decode("utf-8", errors="replace")
        chunks = [self.lines[start - 1][first:], *self.lines[start : end - 1], self.lines[end - 1][:last]]
        return b"".join(chunks).decode("utf-8", errors="replace")


class _Finder(ast.NodeVisitor):
    def __init__(self, source: str) -> None:
        self.columns = _Columns(source)
        self.found: dict[tuple[int, int, int, int], Site] = {}
        self.depth = 0  # > 0 inside a function body
        self.helper_names: set[str] = set()  # helpers imported by name: from tvm.target import cuda
        self.target_modules: set[str] = {"tvm.target"}  # names bound to the module tvm.target

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        for alias in node.names:
            if node.module == "tvm.target" and alias.name in HELPERS:
                self.helper_names.add(alias.asname or alias.name)
            elif node.module == "tvm" and alias.name == "target":
                self.target_modules.add(alias.asname or "target")

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.name == "tvm.target" and alias.asname:
                self.target_modules.add(alias.asname)

    # --- recording ---------------------------------------------------------------------------

    def add(
        self,
        node: ast.expr,
        role: str,
        *,
        call: str | None = None,
        keyword: str | None = None,
        name: str | None = None,
        require_literal: bool = False,
    ) -> None:
        if node.end_lineno is None or node.end_col_offset is None:
            return
        literal, value = _fold(node)
        folded = literal and not _is_plain_literal(node)
        if require_literal and not literal:
            return
        key = (node.lineno, node.col_offset, node.end_lineno, node.end_col_offset)
        old = self.found.get(key)
        if old is not None and ROLES.index(old.role) <= ROLES.index(role):
            return
        self.found[key] = Site(
            line=node.lineno,
            col=self.columns.col(node.lineno, node.col_offset),
            end_line=node.end_lineno,
            end_col=self.columns.col(node.end_lineno, node.end_col_offset),
            role=role,
            source=self.columns.segment(node),
            literal=literal,
            value=value if literal else None,
            folded=folded,
            call=call,
            keyword=keyword,
            name=name,
        )

    # --- scopes ------------------------------------------------------------------------------

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._function(node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self._function(node)

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self._defaults(node.args)
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        for decorator in node.decorator_list:
            self.visit(decorator)
        self._defaults(node.args)
        for default in [*node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)]:
            self.visit(default)
        if node.returns is not None:
            self.visit(node.returns)
        self.depth += 1
        for statement in node.body:
            self.visit(statement)
        self.depth -= 1

    def _defaults(self, args: ast.arguments) -> None:
        """A parameter named like a target with a target default: ``def f(target="llvm -...")``."""
        positional = [*args.posonlyargs, *args.args]
        pairs = list(zip(positional[len(positional) - len(args.defaults) :], args.defaults, strict=True))
        pairs += [(arg, default) for arg, default in zip(args.kwonlyargs, args.kw_defaults, strict=True) if default]
        for arg, default in pairs:
            if ("target" in arg.arg.lower() or arg.arg == "host") and _target_like(default, bare_kind=True):
                self.add(default, "keyword", keyword=arg.arg, name=arg.arg)

    # --- assignments -------------------------------------------------------------------------

    def visit_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            self._assigned(target, node.value)
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self._assigned(node.target, node.value)
        self.generic_visit(node)

    def _assigned(self, target: ast.expr, value: ast.expr) -> None:
        name = dotted(target)
        if name is None:
            return
        named = "target" in name.lower() or name.lower().endswith("host")
        role = "assign" if self.depth else "constant"
        if _target_like(value, bare_kind=named):
            self.add(value, role, name=name)
        elif isinstance(value, (ast.List, ast.Tuple)) and named:
            # DEFAULT_TEST_TARGETS = ["llvm", {"kind": "vulkan", ...}, ...]
            for element in value.elts:
                if _target_like(element, bare_kind=True):
                    self.add(element, role, name=name)

    # --- calls -------------------------------------------------------------------------------

    def visit_Call(self, node: ast.Call) -> None:
        name = dotted(node.func) or ""
        last = name.rsplit(".", 1)[-1]
        prefix = name.rsplit(".", 1)[0] if "." in name else ""
        if last == "Target":
            for index, arg in enumerate(node.args[:2]):
                self.add(arg, "Target" if index == 0 else "Target.host", call=name)
            for keyword in node.keywords:
                if keyword.arg in ("target", "host"):
                    role = "Target" if keyword.arg == "target" else "Target.host"
                    self.add(keyword.value, role, call=name, keyword=keyword.arg)
        elif name in ("T.target", "tir.target", "tvm.script.tir.target"):
            for arg in node.args[:2]:
                self.add(arg, "T.target", call=name)
            for keyword in node.keywords:
                if keyword.arg in ("target", "host"):
                    self.add(keyword.value, "T.target", call=name, keyword=keyword.arg)
        elif last == "VDevice" or name in ("I.vdevice", "ir.vdevice", "tvm.script.ir.vdevice"):
            if node.args:
                self.add(node.args[0], "VDevice", call=name)
            for keyword in node.keywords:
                if keyword.arg == "tgt":
                    self.add(keyword.value, "VDevice", call=name, keyword=keyword.arg)
        elif last == "parametrize_targets":
            for arg in node.args:
                self.add(arg, "parametrize_targets", call=name)
        elif name in _BUILDS and len(node.args) >= 2:
            self.add(node.args[1], "build", call=name)
        elif (last in HELPERS and prefix in self.target_modules) or name in self.helper_names:
            self.add(node, "helper", call=name)
        elif last in REMOVED_STATIC_METHODS and prefix.endswith("Target"):
            self.add(node, "helper", call=name)
        if last != "Target" and name not in ("T.target", "tir.target"):
            for keyword in node.keywords:
                if keyword.arg in ("target", "target_host") or (
                    keyword.arg == "host" and _target_like(keyword.value, bare_kind=True)
                ):
                    self.add(keyword.value, "keyword", call=name, keyword=keyword.arg)
        self.generic_visit(node)

    # --- any other literal that can only be a target -----------------------------------------

    def loose(self, scan: _Scan) -> None:
        # a literal inside a literal site (a host dict inside a target dict) is part of that site;
        # one inside an expression site (String("cuda --host llvm")) is a target of its own
        taken = [(s.line, s.col, s.end_line, s.end_col) for s in self.found.values() if s.literal]
        for node in scan.candidates:
            if id(node) in scan.skip or node.end_lineno is None or node.end_col_offset is None:
                continue
            if not _target_like(node):
                continue
            start = (node.lineno, self.columns.col(node.lineno, node.col_offset))
            end = (node.end_lineno, self.columns.col(node.end_lineno, node.end_col_offset))
            if any((a, b) <= start and end <= (c, d) for a, b, c, d in taken):
                continue  # inside a site already found (a host dict inside a target dict)
            self.add(node, "literal")
            taken.append((*start, *end))


class _Scan:
    """One walk over a module: its docstrings, the expressions that may be loose targets, and
    those that are pieces of a string built at run time (or docstrings) and so are not."""

    def __init__(self, tree: ast.Module) -> None:
        self.docstrings: list[ast.Constant] = []
        self.candidates: list[ast.expr] = []
        self.skip: set[int] = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                body = node.body
                if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                    if isinstance(body[0].value.value, str):
                        self.docstrings.append(body[0].value)
                        self.skip.add(id(body[0].value))
            elif isinstance(node, ast.JoinedStr):
                self.skip.update(id(part) for part in node.values)
                self.candidates.append(node)
            elif isinstance(node, ast.BinOp):
                if isinstance(node.op, (ast.Add, ast.Mod)):
                    self.skip.update((id(node.left), id(node.right)))
                self.candidates.append(node)
            elif isinstance(node, (ast.Constant, ast.Dict)):
                self.candidates.append(node)


def _is_plain_literal(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return all(_is_plain_literal(e) for e in node.elts)
    if isinstance(node, ast.Dict):
        return all(k is None or _is_plain_literal(k) for k in node.keys) and all(
            _is_plain_literal(v) for v in node.values
        )
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        return _is_plain_literal(node.operand)
    return False  # BinOp (4 * 2**20), JoinedStr, calls: computed


def targets_in_source(source: str) -> list[Site]:
    """The targets in target positions of Python ``source``, in source order (see the module)."""
    tree, visited = _visited(source)
    return _targets_in_tree(visited, _Scan(tree))


@functools.lru_cache(maxsize=512)
def _visited(source: str) -> tuple[ast.Module, _Finder]:
    """``source``'s tree, and a finder that has walked it (not yet its loose literals): the
    targets of a file and its uses of the legacy API are read from one parse and one walk."""
    tree = ast.parse(source)
    finder = _Finder(source)
    finder.visit(tree)
    return tree, finder


def _targets_in_tree(visited: _Finder, scan: _Scan) -> list[Site]:
    finder = copy.copy(visited)  # (the cached one is left as it is)
    finder.found = dict(visited.found)
    finder.loose(scan)
    # a site nested in another (Target(Target("cuda"), ...)) is kept: both are positions
    return sorted(finder.found.values(), key=lambda s: (s.line, s.col, -s.end_line, -s.end_col))


# --- free text ----------------------------------------------------------------------------------

_KIND_ALTERNATION = "|".join(sorted((re.escape(k) for k in KINDS), key=len, reverse=True))
# a quoted legacy string with at least one option: "llvm -mtriple=aarch64-linux-gnu"; in double
# quotes it may hold single-quoted values ("vulkan -device_name='A B'")
_QUOTED_LEGACY = re.compile(
    rf"""(?:"(?P<d>(?:{_KIND_ALTERNATION})[ \t]+-[^"\n]*)"|'(?P<s>(?:{_KIND_ALTERNATION})[ \t]+-[^'"\n]*)')"""
)
# TVM_TEST_TARGETS="cuda;opencl -device=mali" or ='cuda;{"kind":"opencl","device":"mali"}'
_ENV_TARGETS = re.compile(r"""\b[A-Z_]*TARGETS?[A-Z_]*=(?:"(?P<d>[^"\n]*)"|'(?P<s>[^'\n]*)')""")


def _balanced(text: str, start: int) -> int | None:
    """The end of the ``{...}`` starting at ``start`` on one line (quotes respected), or ``None``."""
    depth = 0
    quote: str | None = None
    index = start
    while index < len(text) and text[index] != "\n":
        char = text[index]
        if quote is not None:
            if char == "\\":
                index += 1
            elif char == quote:
                quote = None
        elif char in "\"'":
            quote = char
        elif char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return index + 1
        index += 1
    return None


def _dict_value(text: str) -> tuple[bool, Any]:
    try:
        return True, ast.literal_eval(text)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        pass
    try:
        return True, json.loads(text)
    except ValueError:
        return False, None


def _line_col(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1)


def targets_in_text(text: str, role: str = "text", *, line: int = 1, col: int = 0) -> list[Site]:
    """The targets written in free ``text``: quoted legacy strings with options, dict/JSON literals
    with a ``kind`` or ``tag`` on one line, and ``*TARGETS*="a;b;c"`` environment assignments (each
    ``;``-separated entry that looks like a target). ``line``/``col`` place ``text`` in its file."""
    sites: list[Site] = []
    spans: list[tuple[int, int]] = []

    def add(start: int, end: int, literal: bool, value: Any) -> None:
        if any(start < b and a < end for a, b in spans):
            return  # overlaps a target found already (the entry of a TARGETS= list)
        spans.append((start, end))
        first_line, first_col = _line_col(text, start)
        last_line, last_col = _line_col(text, end)
        sites.append(
            Site(
                line=line + first_line - 1,
                col=first_col + (col if first_line == 1 else 0),
                end_line=line + last_line - 1,
                end_col=last_col + (col if last_line == 1 else 0),
                role=role,
                source=text[start:end],
                literal=literal,
                value=value,
            )
        )

    for match in _ENV_TARGETS.finditer(text):
        group = "d" if match["d"] is not None else "s"
        offset = match.start(group)
        for entry in match[group].split(";"):
            stripped = entry.strip()
            start = offset + len(entry) - len(entry.lstrip())
            offset += len(entry) + 1
            if stripped and (stripped in KINDS or looks_like_target(stripped)):
                add(start, start + len(stripped), True, stripped)
    for match in re.finditer(r"\{", text):
        end = _balanced(text, match.start())
        if end is None:
            continue
        ok, value = _dict_value(text[match.start() : end])
        if ok and isinstance(value, dict) and looks_like_target(value):
            add(match.start(), end, True, value)
    for match in _QUOTED_LEGACY.finditer(text):
        group = "d" if match["d"] is not None else "s"
        add(match.start(), match.end(), True, match[group])
    return sorted(sites, key=lambda s: (s.line, s.col))


def _comments_and_docstrings(source: str, scan: _Scan) -> Iterator[tuple[str, str, int, int]]:
    """``(role, text, line, col)`` of every comment and docstring of Python ``source``."""
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            yield "comment", token.string, token.start[0], token.start[1]
    columns = _Columns(source)
    for node in scan.docstrings:
        yield "docstring", columns.segment(node), node.lineno, columns.col(node.lineno, node.col_offset)


def sites_of_file(path: str, text: str) -> list[Site]:
    """Every target of a file: for Python, :func:`targets_in_source` plus the targets in its
    comments and docstrings; for anything else (shell, rst, markdown), :func:`targets_in_text`."""
    return list(_sites_of_file(path, text))


@functools.lru_cache(maxsize=512)
def _sites_of_file(path: str, text: str) -> tuple[Site, ...]:
    name = path.removesuffix(".before").removesuffix(".after")
    if not name.endswith(".py"):
        role = "shell" if name.endswith(".sh") else "text"
        return tuple(targets_in_text(text, role))
    tree, visited = _visited(text)
    scan = _Scan(tree)
    sites = _targets_in_tree(visited, scan)
    for role, chunk, line, col in _comments_and_docstrings(text, scan):
        sites.extend(targets_in_text(chunk, role, line=line, col=col))
    return tuple(sorted(sites, key=lambda s: (s.line, s.col, -s.end_line, -s.end_col)))


def legacy_api_uses(source: str) -> list[Site]:
    """Uses of the Target API TVM removed in apache/tvm#18793: helper constructors, the
    ``canon_*`` static methods, and reads of removed properties (``target.arch``,
    ``target.max_num_threads``, ...; by attribute name, so a read of another object's attribute of
    the same name is listed too). Role ``helper`` or ``property``."""
    tree, finder = _visited(source)
    uses = [site for site in finder.found.values() if site.role == "helper"]
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.ctx, ast.Load)
            and node.attr in REMOVED_PROPERTIES
            and node.end_lineno is not None
            and node.end_col_offset is not None
        ):
            uses.append(
                Site(
                    line=node.lineno,
                    col=finder.columns.col(node.lineno, node.col_offset),
                    end_line=node.end_lineno,
                    end_col=finder.columns.col(node.end_lineno, node.end_col_offset),
                    role="property",
                    source=finder.columns.segment(node),
                    literal=False,
                    name=node.attr,
                )
            )
    return sorted(uses, key=lambda s: (s.line, s.col))


def main(paths: Iterable[str]) -> None:
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        for site in sites_of_file(path, text):
            print(json.dumps({"file": path, **site.to_json()}, sort_keys=True))


if __name__ == "__main__":
    main(sys.argv[1:])
