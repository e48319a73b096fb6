"""Extract every TVM release's target-kind and target-tag schema from TVM's own source.

Run from the repository root (a script, not a test)::

    python tests/oracle/extract_schemas.py \\
        [--tvm-git /work/.mirror/apache+tvm/repo] [--tvm027 /tmp/tvm027] \\
        [--out targetlang/data/tvm-schemas.json] [--newest 0.27]
    python tests/oracle/extract_schemas.py --modern
    env -u LD_PRELOAD python tests/oracle/extract_schemas.py --wheel-files [--tvm027 VENV] [--newest 0.27]

The second writes, from the shipped ``tvm-schemas.json``, the per-release data of each modern
release before the newest (``targetlang/data/kinds-v0.24.json``, ``tags-v0.24.json``...: what
migration writes for ``--target-version 0.24``). The third records the newest release's
``kinds-v0.27.json`` and ``tags-v0.27.json`` from its wheel (each kind's options and the export of
a bare target of it, each tag's exported target). The releases come from targetlang's release
table (``targetlang._versions``).

``--tvm-git`` is a clone (bare is fine) of apache/tvm holding the tags v0.7.0 ... v0.26.0 and
v0.27.dev0. ``--tvm027`` is a virtual environment with ``apache-tvm==0.27.*`` installed (from PyPI);
0.27 is not tagged in apache/tvm, so:

* 0.27 tags are read from the wheel's own Python tag registrations (``tvm/**/target_tags.py``,
  ``tvm/target/tag_registry/*.py``; since v0.24 TVM registers its tags in Python);
* 0.27 kinds are read from the C++ source at ``v0.27.dev0`` (the branch point of 0.27), and every
  kind the installed 0.27 registers that this source lacks is added from the wheel's TargetKind API
  (name, default device type, default keys, option names and types in registration order; that API
  gives no defaults, so those attributes have default ``null``; ``file`` names the wheel).

What is read, per release (tag ``v0.X.0``):

* kinds: every ``TVM_REGISTER_TARGET_KIND("name", kDLxxx)`` in ``src/`` with its call chain
  (``add_attr_option<T>("attr"[, default])``, ``set_default_keys``, ``set_target_parser`` /
  ``set_target_canonicalizer`` (recorded as ``target_parser``), ``set_attrs_preprocessor``), preceded
  by the attributes the macro itself adds (``include/tvm/target/target_kind.h``);
* tags: ``TVM_REGISTER_TARGET_TAG("name").set_config({...})`` in ``src/target/tag.cc`` with the file's
  own macros expanded, plus the Python registrations (``register_tag(name, config)`` at module level
  in ``python/tvm``), executed with a stub ``register_tag`` that records the config.

The C++ reader strips comments, splices lines, runs a small preprocessor (``#define``/``#undef``,
``#if``/``#elif``/``#else``/``#endif``) for a build with LLVM >= 19 having an AArch64 backend (what
the released wheels are), and records the preprocessor condition a tag or kind was registered under.
Anything it cannot read (an unknown C++ type, a chain call it does not know, a constant it cannot
resolve) stops the script with an error naming the release, file and text.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, ClassVar

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from targetlang._release_schemas import MODERN_TYPES
from targetlang._versions import FIRST_SCHEMA, LAST_LEGACY, MODERN, Version


def schema_releases(newest: Version) -> list[str]:
    """The releases extracted: TVM's first with a kind registry to ``newest`` (the release of the
    installed wheel), from the release table, not a range of this script's own."""
    return [str(Version(0, n)) for n in range(FIRST_SCHEMA.minor, newest.minor + 1)]


RELEASES = schema_releases(MODERN)
BUILD = {"TVM_LLVM_VERSION": 190, "TVM_LLVM_HAS_AARCH64_TARGET": 1}
DEVICE_TYPES = {
    "kDLCPU": 1,
    "kDLCUDA": 2,
    "kDLGPU": 2,
    "kDLOpenCL": 4,
    "kDLAOCL": 5,
    "kDLVulkan": 7,
    "kDLMetal": 8,
    "kDLROCM": 10,
    "kDLExtDev": 12,
    "kDLWebGPU": 15,
    "kDLHexagon": 16,
}


class ExtractError(Exception):
    pass


# per git ref: whether add_attr_option takes ConfigSchema traits (v0.24+) rather than a default value
TRAITS_API: dict[str, bool] = {}


# ----------------------------------------------------------------------------------------------
# git access


class Tree:
    def __init__(self, git: str, ref: str) -> None:
        self.git, self.ref = git, ref

    def show(self, path: str) -> str:
        return subprocess.run(
            ["git", "-C", self.git, "show", f"{self.ref}:{path}"], check=True, capture_output=True, text=True
        ).stdout

    def grep_files(self, pattern: str, *paths: str) -> list[str]:
        out = subprocess.run(
            ["git", "-C", self.git, "grep", "-l", "-F", pattern, self.ref, "--", *paths],
            capture_output=True,
            text=True,
        )
        if out.returncode not in (0, 1):
            raise ExtractError(out.stderr)
        return sorted(line.split(":", 1)[1] for line in out.stdout.splitlines())

    def exists(self, path: str) -> bool:
        r = subprocess.run(["git", "-C", self.git, "cat-file", "-e", f"{self.ref}:{path}"], capture_output=True)
        return r.returncode == 0


# ----------------------------------------------------------------------------------------------
# C++ lexing and preprocessing

_STR = r'R"(?P<delim>[^(\s]*)\(.*?\)(?P=delim)"|"(?:[^"\\\n]|\\.)*"'
_CHR = r"'(?:[^'\\\n]|\\.)*'"


def strip_comments(text: str) -> str:
    """Remove // and /* */ comments (keeping newlines and string literals)."""
    out = []
    for m in re.finditer(rf"{_STR}|{_CHR}|//[^\n]*|/\*.*?\*/|[^\"'/R]+|.", text, re.S):
        s = m.group(0)
        if s.startswith('R"'):
            # a raw string becomes an ordinary one-line literal (it may hold newlines and '#')
            out.append(json.dumps(s[s.index("(") + 1 : s.rindex(")")]))
        elif s.startswith("//"):
            out.append(" ")
        elif s.startswith("/*"):
            out.append(" " + "\n" * s.count("\n"))
        else:
            out.append(s)
    return "".join(out)


_TOKEN = re.compile(
    rf"\s+|(?P<str>{_STR})|(?P<chr>{_CHR})|(?P<num>0[xX][0-9a-fA-F]+[uUlL]*|\d+\.\d*(?:[eE][-+]?\d+)?[fF]?|\d+[uUlL]*)"
    r"|(?P<id>[A-Za-z_]\w*)|(?P<p>::|->|&&|\|\||==|!=|>=|<=|##|[-+*/%<>(){}\[\],.;:=!&|^~?#])"
)


def tokenize(text: str, where: str) -> list[str]:
    toks: list[str] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            raise ExtractError(f"{where}: cannot tokenize {text[pos : pos + 40]!r}")
        if m.lastgroup:
            toks.append(m.group(0))
        pos = m.end()
    return toks


class Macro:
    def __init__(self, params: list[str] | None, body: list[str], cond: str) -> None:
        self.params, self.body, self.cond = params, body, cond


def eval_condition(expr: str, macros: dict[str, Macro], where: str) -> bool:
    def defined(m: re.Match[str]) -> str:
        name = m.group(1)
        return "1" if (name in macros or name in BUILD) else "0"

    e = re.sub(r"defined\s*\(?\s*(\w+)\s*\)?", defined, expr)

    def ident(m: re.Match[str]) -> str:
        name = m.group(0)
        if name in BUILD:
            return str(BUILD[name])
        if name in macros and macros[name].params is None:
            return " ".join(macros[name].body) or "0"
        raise ExtractError(f"{where}: cannot evaluate #if {expr!r}: unknown {name}")

    e = re.sub(r"[A-Za-z_]\w*", ident, e)
    e = e.replace("&&", " and ").replace("||", " or ").replace("!", " not ").replace(" not =", "!=")
    try:
        return bool(eval(e, {"__builtins__": {}}))
    except Exception as exc:
        raise ExtractError(f"{where}: cannot evaluate #if {expr!r}: {exc}") from exc


def preprocess(text: str, where: str) -> list[tuple[str, str]]:
    """Comments stripped, lines spliced, directives run: (token, condition) pairs, macros expanded."""
    text = strip_comments(text).replace("\\\n", " ")
    macros: dict[str, Macro] = {}
    # one entry per open #if: (this branch active, a branch was taken, condition text of this branch)
    stack: list[tuple[bool, bool, str]] = []
    out: list[tuple[str, str]] = []
    pending: list[tuple[str, str]] = []
    for line in text.split("\n"):
        s = line.strip()
        active = all(x for x, _, _ in stack)
        cond = " && ".join(c for _, _, c in stack if c)
        if not s.startswith("#"):
            if active:
                pending.extend((t, cond) for t in tokenize(line, where))
            continue
        d = s[1:].strip()
        word = re.match(r"\w*", d).group(0)  # type: ignore[union-attr]
        rest = d[len(word) :].strip()
        if word in ("if", "ifdef", "ifndef"):
            expr = rest if word == "if" else f"defined({rest})" if word == "ifdef" else f"!defined({rest})"
            val = active and eval_condition(expr, macros, where)
            stack.append((val, val, expr))
        elif word == "elif":
            _, taken, prev = stack.pop()
            outer = all(x for x, _, _ in stack)
            val = outer and not taken and eval_condition(rest, macros, where)
            stack.append((val, taken or val, f"!({prev}) && ({rest})"))
        elif word == "else":
            _, taken, prev = stack.pop()
            stack.append((not taken, True, f"!({prev})"))
        elif word == "endif":
            stack.pop()
        elif not active or word in ("include", "pragma", "error", "warning", "line"):
            continue
        elif word == "define":
            out.extend(expand(pending, macros, where))
            pending = []
            m = re.match(r"(\w+)(\((.*?)\))?\s*(.*)$", rest, re.S)
            if not m:
                raise ExtractError(f"{where}: cannot read #define {rest[:60]!r}")
            params = [x.strip() for x in m.group(3).split(",")] if m.group(2) else None
            macros[m.group(1)] = Macro([] if params == [""] else params, tokenize(m.group(4), where), cond)
        elif word == "undef":
            out.extend(expand(pending, macros, where))
            pending = []
            macros.pop(rest.split()[0], None)
        else:
            raise ExtractError(f"{where}: unknown directive {s[:60]!r}")
    if stack:
        raise ExtractError(f"{where}: unterminated #if")
    return out + expand(pending, macros, where)


def expand(toks: list[tuple[str, str]], macros: dict[str, Macro], where: str, depth: int = 0) -> list[tuple[str, str]]:
    if depth > 20:
        raise ExtractError(f"{where}: macro recursion")
    out: list[tuple[str, str]] = []
    i = 0
    changed = False
    while i < len(toks):
        t, c = toks[i]
        m = macros.get(t)
        if m is None:
            out.append((t, c))
            i += 1
            continue
        if "#" in m.body or "##" in m.body:
            raise ExtractError(f"{where}: macro {t} uses # or ##")
        mcond = " && ".join(x for x in (c, m.cond) if x)
        if m.params is None:
            out.extend((b, mcond) for b in m.body)
            i += 1
            changed = True
            continue
        if i + 1 >= len(toks) or toks[i + 1][0] != "(":
            out.append((t, c))
            i += 1
            continue
        args: list[list[str]] = [[]]
        depth_p = 0
        j = i + 2
        while True:
            tok = toks[j][0]
            if tok == "(":
                depth_p += 1
            elif tok == ")":
                if depth_p == 0:
                    break
                depth_p -= 1
            if tok == "," and depth_p == 0:
                args.append([])
            else:
                args[-1].append(tok)
            j += 1
        if args == [[]]:
            args = []
        if len(args) != len(m.params):
            raise ExtractError(f"{where}: macro {t} takes {len(m.params)} arguments, got {len(args)}")
        sub = dict(zip(m.params, args, strict=True))
        for b in m.body:
            out.extend((x, mcond) for x in sub.get(b, [b]))
        i = j + 1
        changed = True
    return expand(out, macros, where, depth + 1) if changed else out


# ----------------------------------------------------------------------------------------------
# C++ expressions


class Default:
    def __init__(self, value: Any) -> None:
        self.value = value


class Opaque:
    def __init__(self, name: str) -> None:
        self.name = name


STRING_T = {"String", "std::string"}
INT_T = {"Integer", "Int", "int64_t", "int", "int32_t"}
BOOL_T = {"Bool", "bool"}
OPAQUE_CALLS = {"AttrValidator"}


def norm_type(t: str) -> str:
    t = re.sub(r"\s+", "", t)
    return re.sub(r"\b(?:tvm::)?(?:ffi::|runtime::|ir::)", "", t)


def map_type(t: str, where: str) -> str:
    n = norm_type(t)
    if n in STRING_T:
        return "string"
    if n in INT_T:
        return "int"
    if n in BOOL_T:
        return "bool"
    if n == "Target":
        return "target"
    m = re.fullmatch(r"Array<(.*)>", n)
    if m:
        return f"array<{map_type(m.group(1), where)}>"
    m = re.fullmatch(r"Map<String,(.*)>", n)
    if m:
        return f"map<string,{map_type(m.group(1), where)}>"
    raise ExtractError(f"{where}: unknown C++ attribute type {t!r}")


class Parser:
    def __init__(self, toks: list[str], where: str, constants: dict[str, Any]) -> None:
        self.toks, self.i, self.where, self.constants = toks, 0, where, constants

    def peek(self, k: int = 0) -> str:
        return self.toks[self.i + k] if self.i + k < len(self.toks) else ""

    def take(self, expect: str | None = None) -> str:
        t = self.peek()
        if expect is not None and t != expect:
            ctx = " ".join(self.toks[max(0, self.i - 8) : self.i + 8])
            raise ExtractError(f"{self.where}: expected {expect!r}, got {t!r} near: {ctx}")
        self.i += 1
        return t

    def fail(self, msg: str) -> ExtractError:
        ctx = " ".join(self.toks[max(0, self.i - 8) : self.i + 8])
        return ExtractError(f"{self.where}: {msg} near: {ctx}")

    def qualified(self) -> str:
        name = self.take()
        if name == "::":
            name += self.take()
        while self.peek() == "::":
            name += self.take() + self.take()
        return name

    def template_args(self) -> str:
        self.take("<")
        depth = 1
        parts: list[str] = []
        while True:
            t = self.take()
            if t == "<":
                depth += 1
            elif t == ">":
                depth -= 1
                if depth == 0:
                    return "".join(p if p != "," else ", " for p in parts)
            if not t:
                raise self.fail("unterminated template arguments")
            parts.append(t)

    def skip_balanced(self) -> None:
        opener = self.take()
        closer = {"(": ")", "{": "}", "[": "]"}[opener]
        depth = 1
        while depth:
            t = self.take()
            if not t:
                raise self.fail("unbalanced")
            if t == opener:
                depth += 1
            elif t == closer:
                depth -= 1

    def expr(self) -> Any:
        return self.binary(0)

    _PREC: ClassVar[list[tuple[str, ...]]] = [("|",), ("&",), ("<<", ">>"), ("+", "-"), ("*", "/", "%")]

    def binop(self, level: int) -> str | None:
        a, b = self.peek(), self.peek(1)
        op = a + b if (a, b) in (("<", "<"), (">", ">")) else a
        return op if op in self._PREC[level] else None

    def binary(self, level: int) -> Any:
        if level == len(self._PREC):
            return self.unary()
        left = self.binary(level + 1)
        while (op := self.binop(level)) is not None:
            self.i += len(op) if op in ("<<", ">>") else 1
            right = self.binary(level + 1)
            if not (isinstance(left, int) and isinstance(right, int)) or isinstance(left, bool):
                raise self.fail(f"non-integer operands of {op}")
            left = {
                "|": lambda x, y: x | y,
                "&": lambda x, y: x & y,
                "<<": lambda x, y: x << y,
                ">>": lambda x, y: x >> y,
                "+": lambda x, y: x + y,
                "-": lambda x, y: x - y,
                "*": lambda x, y: x * y,
                "/": lambda x, y: x // y,
                "%": lambda x, y: x % y,
            }[op](left, right)
        return left

    def unary(self) -> Any:
        t = self.peek()
        if t == "-":
            self.take()
            v = self.unary()
            if not isinstance(v, (int, float)) or isinstance(v, bool):
                raise self.fail("negating a non-number")
            return -v
        if t == "(":
            self.take()
            v = self.expr()
            self.take(")")
            return v
        if t.startswith('"'):
            s = ""
            while self.peek().startswith('"'):
                s += ast.literal_eval(self.take())
            return s
        if re.fullmatch(r"\d.*", t):
            self.take()
            num = t.rstrip("uUlLfF") if not t.startswith(("0x", "0X")) else t.rstrip("uUlL")
            return float(num) if "." in num else int(num, 0)
        if t in ("true", "false"):
            self.take()
            return t == "true"
        if t == "{":
            return self.init_list()
        if t == "[":
            raise self.fail("lambda where a value was expected")
        if re.fullmatch(r"[A-Za-z_:]\w*|::", t):
            return self.named()
        raise self.fail(f"cannot read expression at {t!r}")

    def init_list(self) -> list[Any]:
        self.take("{")
        items = []
        while self.peek() != "}":
            items.append(self.expr())
            if self.peek() == ",":
                self.take()
            elif self.peek() != "}":
                raise self.fail("expected , or }")
        self.take("}")
        return items

    def call_args(self) -> list[Any]:
        self.take("(")
        items = []
        while self.peek() != ")":
            items.append(self.expr())
            if self.peek() == ",":
                self.take()
            elif self.peek() != ")":
                raise self.fail("expected , or )")
        self.take(")")
        return items

    def named(self) -> Any:
        name = self.qualified()
        last = name.split("::")[-1]
        targs = self.template_args() if self.peek() == "<" else None
        if last in OPAQUE_CALLS:
            self.skip_balanced()
            return Opaque(name)
        if self.peek() not in ("(", "{"):
            if targs is None and name in self.constants:
                return self.constants[name]
            if targs is None and last in self.constants:
                return self.constants[last]
            raise self.fail(f"cannot resolve constant {name!r}")
        args = self.call_args() if self.peek() == "(" else self.init_list()
        base = norm_type(name)
        if base == "DefaultValue" or last == "DefaultValue":
            if len(args) != 1:
                raise self.fail("DefaultValue takes one argument")
            return Default(args[0])
        if targs is None and base in STRING_T | INT_T | BOOL_T:
            if not args:
                return "" if base in STRING_T else (False if base in BOOL_T else 0)
            (v,) = args
            if base in STRING_T and isinstance(v, str):
                return v
            if base in INT_T and isinstance(v, int) and not isinstance(v, bool):
                return v
            if base in BOOL_T and isinstance(v, bool):
                return v
            if base in BOOL_T and v in (0, 1):
                return bool(v)
            raise self.fail(f"{name}({v!r}) does not fit its type")
        if base in ("Array", "Map") and targs is not None:
            if base == "Array":
                return list(args)
            return to_dict(args, self)
        raise self.fail(f"unknown call {name}{'<' + targs + '>' if targs else ''}")


def to_dict(pairs: list[Any], p: Parser) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        if not (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str)):
            raise p.fail(f"not a key/value pair: {pair!r}")
        out[pair[0]] = pair[1]
    return out


def plain(v: Any, p: Parser) -> Any:
    """A config value: bare {{k, v}, ...} lists become dicts where every element is a pair."""
    if isinstance(v, (Default, Opaque)):
        raise p.fail("unexpected trait in a value")
    if isinstance(v, dict):
        return {k: plain(x, p) for k, x in v.items()}
    if isinstance(v, list):
        return [plain(x, p) for x in v]
    return v


def find_constants(text: str) -> dict[str, Any]:
    """Named integer/string constants defined in the file (constexpr / const / static const)."""
    out: dict[str, Any] = {}
    for m in re.finditer(
        r"\b(?:static\s+)?(?:constexpr|const)\s+(?:static\s+)?[\w:<>]+\s+(\w+)\s*=\s*([^;{}]+);", strip_comments(text)
    ):
        try:
            p = Parser(tokenize(m.group(2), "constant"), "constant", {})
            v = p.expr()
            if p.i == len(p.toks):
                out[m.group(1)] = v
        except ExtractError:
            pass
    return out


# ----------------------------------------------------------------------------------------------
# kinds


def read_chain(p: Parser) -> list[tuple[str, str | None, list[Any]]]:
    calls: list[tuple[str, str | None, list[Any]]] = []
    while p.peek() == ".":
        p.take()
        method = p.take()
        targs = p.template_args() if p.peek() == "<" else None
        if method in ("set_attr",):
            p.skip_balanced()
            calls.append((method, targs, []))
            continue
        if method in ("set_target_parser", "set_attrs_preprocessor", "set_target_canonicalizer"):
            p.take("(")
            if p.peek() == "[":
                raise p.fail(f"lambda given to {method}")
            start = p.i
            p.qualified()
            fname = "".join(p.toks[start : p.i])
            p.take(")")
            calls.append((method, targs, [fname]))
            continue
        calls.append((method, targs, p.call_args()))
    return calls


def apply_chain(kind: dict[str, Any], calls: list[tuple[str, str | None, list[Any]]], p: Parser) -> None:
    for method, targs, args in calls:
        if method == "set_name":
            continue
        if method in ("set_device_type", "set_default_device_type"):
            (kind["device_type"],) = args
        elif method == "add_attr_option":
            if targs is None or not args or not isinstance(args[0], str):
                raise p.fail("add_attr_option without type or name")
            default = None
            for extra in args[1:]:
                if isinstance(extra, Opaque):
                    continue  # a validator trait (ConfigSchema::AttrValidator)
                if isinstance(extra, Default):
                    extra = extra.value
                elif TRAITS_API.get(p.where.split(":")[0]):
                    # v0.24+: add_attr_option<T>(key, traits...) keeps refl::DefaultValue(x) as the
                    # default, a string as the doc, and silently ignores anything else
                    if not isinstance(extra, str):
                        kind.setdefault("ignored_defaults", {})[args[0]] = plain(extra, p)
                    continue
                if default is not None:
                    raise p.fail("two defaults")
                default = plain(extra, p)
            name = args[0]
            if any(a[0] == name for a in kind["attrs"]):
                raise p.fail(f"attribute {name} registered twice")
            kind["attrs"].append([name, map_type(targs, p.where), default])
        elif method == "set_default_keys":
            (keys,) = args
            if not (isinstance(keys, list) and all(isinstance(k, str) for k in keys)):
                raise p.fail("set_default_keys argument")
            kind["default_keys"] = keys
        elif method in ("set_target_parser", "set_target_canonicalizer"):
            kind["target_parser"] = args[0]
        elif method == "set_attrs_preprocessor":
            kind["preprocessor"] = args[0]
        elif method == "set_attr":
            continue
        else:
            raise p.fail(f"unknown chain call .{method}")


def common_attrs(tree: Tree) -> tuple[list[tuple[str, str | None, list[Any]]], Parser]:
    where = f"{tree.ref}:include/tvm/target/target_kind.h"
    text = strip_comments(tree.show("include/tvm/target/target_kind.h")).replace("\\\n", " ")
    m = re.search(r"#\s*define\s+TVM_REGISTER_TARGET_KIND\s*\(\s*TargetKindName\s*,\s*DeviceType\s*\)(.*)", text)
    if not m:
        raise ExtractError(f"{where}: no TVM_REGISTER_TARGET_KIND macro")
    body = m.group(1).split("\n")[0]
    toks = tokenize(body, where)
    k = toks.index("RegisterOrGet")
    p = Parser(toks, where, {"DeviceType": -1})
    p.i = k + 1
    p.skip_balanced()
    calls = read_chain(p)
    if p.i != len(toks):
        raise p.fail("unread text after the macro's chain")
    return calls, p


def device_types(tree: Tree) -> dict[str, int]:
    """kDL* device type numbers: DLPack's, overridden by the release's own TVM extensions (kDLAOCL,
    kDLSDAccel, kDLHexagon were TVM-side numbers in some releases)."""
    table = dict(DEVICE_TYPES)
    found: dict[str, int] = {}
    for path in ("include/tvm/runtime/c_runtime_api.h", "include/tvm/runtime/device_api.h"):
        if not tree.exists(path):
            continue
        for name, num in re.findall(r"\b(kDL\w+)\s*=\s*(\d+)\s*[,}]", strip_comments(tree.show(path))):
            if found.setdefault(name, int(num)) != int(num):
                raise ExtractError(f"{tree.ref}:{path}: {name} defined as {found[name]} and {num}")
    table.update(found)
    return table


def extract_kinds(tree: Tree) -> dict[str, dict[str, Any]]:
    header = tree.show("include/tvm/target/target_kind.h")
    TRAITS_API[tree.ref] = bool(re.search(r"add_attr_option\(const\s+(?:ffi::)?String&\s*key,\s*Traits&&", header))
    macro_calls, mp = common_attrs(tree)
    devices = device_types(tree)
    kinds: dict[str, dict[str, Any]] = {}
    for path in tree.grep_files("TVM_REGISTER_TARGET_KIND", "src"):
        where = f"{tree.ref}:{path}"
        text = tree.show(path)
        toks_c = preprocess(text, where)
        toks = [t for t, _ in toks_c]
        p = Parser(toks, where, {**devices, **find_constants(text)})
        found = 0
        while p.i < len(toks):
            if toks[p.i] != "TVM_REGISTER_TARGET_KIND":
                p.i += 1
                continue
            if p.peek(-1) == "define" or p.peek(1) != "(":
                raise p.fail("TVM_REGISTER_TARGET_KIND not used as a registration")
            cond = toks_c[p.i][1]
            p.take()
            args = p.call_args()
            if not args or not isinstance(args[0], str):
                raise p.fail("kind name")
            name = args[0]
            kind: dict[str, Any] = {"device_type": None, "default_keys": [], "attrs": []}
            kind["target_parser"] = None
            kind["preprocessor"] = None
            # the macro: RegisterOrGet(name).set_name().set_device_type(DeviceType).add_attr_option...
            for method, targs, margs in macro_calls:
                if method in ("set_device_type", "set_default_device_type"):
                    if len(args) != 2 or not isinstance(args[1], int):
                        raise p.fail(f"device type of kind {name}")
                    kind["device_type"] = args[1]
                else:
                    apply_chain(kind, [(method, targs, margs)], mp)
            apply_chain(kind, read_chain(p), p)
            if p.peek() != ";":
                raise p.fail(f"chain of kind {name} does not end with ;")
            if kind["device_type"] is None:
                raise p.fail(f"no device type for kind {name}")
            kind["file"] = path
            if cond:
                kind["condition"] = cond
            if name in kinds:
                raise p.fail(f"kind {name} registered twice")
            kinds[name] = kind
            found += 1
        if found == 0 and "TVM_REGISTER_TARGET_KIND(" in strip_comments(text) and not path.endswith(".h"):
            raise ExtractError(f"{where}: mentions TVM_REGISTER_TARGET_KIND but nothing was read")
    return kinds


# ----------------------------------------------------------------------------------------------
# tags


def extract_cpp_tags(tree: Tree) -> dict[str, dict[str, Any]]:
    tags: dict[str, dict[str, Any]] = {}
    for path in tree.grep_files("TVM_REGISTER_TARGET_TAG", "src"):
        where = f"{tree.ref}:{path}"
        text = tree.show(path)
        toks_c = preprocess(text, where)
        toks = [t for t, _ in toks_c]
        p = Parser(toks, where, find_constants(text))
        while p.i < len(toks):
            if toks[p.i] != "TVM_REGISTER_TARGET_TAG":
                p.i += 1
                continue
            cond = toks_c[p.i][1]
            p.take()
            (name,) = p.call_args()
            p.take(".")
            p.take("set_config")
            (cfg,) = p.call_args()
            extra: list[tuple[Any, Any]] = []
            while p.peek() == ".":
                p.take()
                p.take("with_config")
                key, value = p.call_args()
                extra.append((key, value))
            p.take(";")
            if not isinstance(name, str):
                raise p.fail("tag name")
            config = plain(to_dict(cfg, p), p)
            for key, value in extra:
                if not isinstance(key, str):
                    raise p.fail("with_config key")
                config[key] = plain(value, p)
            tags[name] = {"config": config}  # a later set_config overwrites the earlier one
            if cond:
                tags[name]["condition"] = cond
    return tags


def run_python_tags(sources: dict[str, str]) -> dict[str, dict[str, Any]]:
    """Execute Python tag registrations with a stub register_tag; return name -> config."""
    tags: dict[str, dict[str, Any]] = {}
    for path, src in sorted(sources.items()):
        tree = ast.parse(src, path)
        body = []
        for node in tree.body:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            if isinstance(node, ast.FunctionDef) and node.name in ("register_tag", "list_tags"):
                continue
            body.append(node)
        tree.body = body
        calls: list[tuple[str, Any, bool]] = []

        def register_tag(name: str, config: Any, override: bool = False, _c: Any = calls) -> None:
            _c.append((name, json.loads(json.dumps(config)), override))

        env: dict[str, Any] = {"register_tag": register_tag, "list_tags": lambda: None, "__name__": "tags"}
        exec(compile(tree, path, "exec"), env)
        for name, config, override in calls:
            if name in tags and not override and tags[name]["config"] != config:
                raise ExtractError(f"{path}: tag {name} registered twice with different configs")
            tags[name] = {"config": config}
    return tags


def python_tag_files(paths: list[str], read: Any) -> dict[str, str]:
    out = {}
    for path in paths:
        src = read(path)
        mod = ast.parse(src, path)
        top = [n for n in mod.body if not isinstance(n, (ast.FunctionDef, ast.Import, ast.ImportFrom))]
        if any("register_tag" in ast.unparse(n) or "_register" in ast.unparse(n) for n in top):
            out[path] = src
    return out


def extract_tags(tree: Tree) -> dict[str, dict[str, Any]]:
    tags = extract_cpp_tags(tree)
    files = [f for f in tree.grep_files("register_tag(", "python/tvm") if not f.endswith("registry.py")]
    for name, t in run_python_tags(python_tag_files(files, tree.show)).items():
        if name in tags:
            raise ExtractError(f"{tree.ref}: tag {name} registered in C++ and in Python")
        tags[name] = t
    return tags


def wheel_tags(site: Path) -> dict[str, dict[str, Any]]:
    files = []
    for f in sorted((site / "tvm").rglob("*.py")):
        rel = f.relative_to(site).as_posix()
        if "register_tag(" in f.read_text() and not rel.endswith("registry.py"):
            files.append(rel)
    return run_python_tags(python_tag_files(files, lambda rel: (site / rel).read_text()))


# ----------------------------------------------------------------------------------------------
# 0.27 from the wheel


WHEEL_PROBE = r"""
import json, tvm
from tvm.target import Target, TargetKind
out = {"version": tvm.__version__, "kinds": {}}
for name in sorted(Target.list_kinds()):
    kind = Target({"kind": name}).kind if name != "composite" else None
    opts = dict(TargetKind.options_from_name(name))
    out["kinds"][name] = {"options": list(opts.items())}
    if kind is not None:
        out["kinds"][name]["default_keys"] = list(kind.default_keys)
        out["kinds"][name]["device_type"] = int(kind.default_device_type)
        exported = Target({"kind": name}).export()
        out["kinds"][name]["export"] = {
            k: v for k, v in exported.items() if isinstance(v, (bool, int, str)) and k in opts
        }
print(json.dumps(out))
"""

WHEEL_TYPES = MODERN_TYPES


def wheel_kinds(python: str) -> tuple[str, dict[str, Any]]:
    out = subprocess.run([python, "-c", WHEEL_PROBE], check=True, capture_output=True, text=True).stdout
    data = json.loads(out.strip().splitlines()[-1])
    return data["version"], data["kinds"]


# ----------------------------------------------------------------------------------------------
# assembling


def variant_key(v: dict[str, Any]) -> str:
    return json.dumps(v, sort_keys=True)


def dedupe(per_release: dict[str, dict[str, dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
    names: list[str] = []
    for rel in RELEASES:
        for n in per_release[rel]:
            if n not in names:
                names.append(n)
    out: dict[str, list[dict[str, Any]]] = {}
    for n in names:
        variants: list[dict[str, Any]] = []
        index: dict[str, dict[str, Any]] = {}
        for rel in RELEASES:
            v = per_release[rel].get(n)
            if v is None:
                continue
            k = variant_key(v)
            if k not in index:
                index[k] = {"releases": [], **v}
                variants.append(index[k])
            index[k]["releases"].append(rel)
        out[n] = variants
    return out


def dump(data: dict[str, Any]) -> str:
    lines = ["{"]
    lines.append(f'"source": {json.dumps(data["source"])},')
    lines.append(f'"notes": {json.dumps(data["notes"])},')
    lines.append(f'"releases": {json.dumps(data["releases"])},')
    for section in ("kinds", "tags"):
        lines.append(f'"{section}": {{')
        items = list(data[section].items())
        for i, (name, variants) in enumerate(items):
            lines.append(f"{json.dumps(name)}: [")
            for j, v in enumerate(variants):
                lines.append(json.dumps(v, separators=(",", ":")) + ("," if j < len(variants) - 1 else ""))
            lines.append("]" + ("," if i < len(items) - 1 else ""))
        lines.append("}" + ("," if section == "kinds" else ""))
    lines.append("}")
    return "\n".join(lines) + "\n"


# TVM's type names of the option types, as TargetKind.options_from_name gives them
TVM_TYPE_NAMES = {v: k for k, v in WHEEL_TYPES.items()}


def modern_kinds(schemas: dict[str, Any], rel: str) -> dict[str, Any]:
    """Release ``rel``'s kinds in the form of ``kinds-v0.27.json`` (recorded from the wheel): each
    kind's options with TVM's type names, and as ``bare_export`` its keys and the defaults its source
    registers (what its canonicaliser adds, such as llvm's ``mtriple``, needs the release to run)."""
    kinds: dict[str, Any] = {}
    for name, variants in schemas["kinds"].items():
        variant = next((v for v in variants if rel in v["releases"]), None)
        if variant is None:
            continue
        bare = {"kind": name, "tag": "", "keys": variant["default_keys"]}
        bare.update({a: d for a, _, d in variant["attrs"] if d is not None and a not in bare})
        kinds[name] = {"options": {a: TVM_TYPE_NAMES[t] for a, t, _ in variant["attrs"]}, "bare_export": bare}
    source = (
        f"apache/tvm tag v{rel}.0 as extracted into targetlang/data/tvm-schemas.json: each kind's options, "
        "default keys and registered defaults; generated by tests/oracle/extract_schemas.py --modern"
    )
    return {"source": source, "kinds": kinds}


def modern_tags(schemas: dict[str, Any], rel: str) -> dict[str, Any]:
    """Release ``rel``'s tags in the form of ``tags-v0.27.json``: each config as its source
    registers it (not exported: no defaults or computed ``feature.*`` added)."""
    tags = {}
    for name, variants in schemas["tags"].items():
        variant = next((v for v in variants if rel in v["releases"]), None)
        if variant is not None:
            tags[name] = variant["config"]
    source = (
        f"apache/tvm tag v{rel}.0 as extracted into targetlang/data/tvm-schemas.json: each tag's config as "
        "registered; generated by tests/oracle/extract_schemas.py --modern"
    )
    return {"source": source, "count": len(tags), "tags": tags}


# The newest release's kinds-v*.json and tags-v*.json, recorded from its wheel: what each kind
# lists and a bare target of it exports, and each tag's exported target (run under the wheel's
# Python, from the repository root; record_schemas.plain turns TVM's objects into JSON).
WHEEL_FILES_PROBE = r"""
import json, sys
sys.path.insert(0, "tests/oracle")
from record_schemas import plain
import tvm
from tvm.target import Target, TargetKind
kinds = {}
for name in Target.list_kinds():
    opts = {str(k): str(v) for k, v in dict(TargetKind.options_from_name(name)).items()}
    kinds[str(name)] = {"options": opts, "bare_export": plain(Target({"kind": name}).export())}
tags = {str(n): plain(c) for n, c in tvm.target.tag.list_tags().items()}
source = f"apache-tvm {tvm.__version__} from PyPI: "
k = {"source": source + "Target.list_kinds(), TargetKind.options_from_name(), Target({'kind': K}) exported on a "
     "machine without GPUs", "kinds": kinds}
t = {"source": source + "tvm.target.tag.list_tags()", "count": len(tags), "tags": tags}
print(json.dumps([k, t]))
"""


def wheel_files(python: str, newest: Version) -> dict[str, str]:
    """``kinds-vNEWEST.json`` and ``tags-vNEWEST.json`` from the wheel installed for ``python``."""
    out = subprocess.run([python, "-c", WHEEL_FILES_PROBE], check=True, capture_output=True, text=True).stdout
    kinds, tags = json.loads(out.strip().splitlines()[-1])
    return {f"kinds-v{newest}.json": json.dumps(kinds, indent=1), f"tags-v{newest}.json": json.dumps(tags, indent=1)}


def modern_files(schemas_text: str, newest: Version = MODERN) -> dict[str, str]:
    """The per-release data of each release after the last legacy one and before ``newest`` (whose
    files are recorded from its wheel): file name -> text, as shipped in targetlang/data."""
    schemas = json.loads(schemas_text)
    out = {}
    for rel in schemas["releases"]:
        version = Version.parse(rel)
        if LAST_LEGACY < version < newest:
            out[f"kinds-v{rel}.json"] = json.dumps(modern_kinds(schemas, rel), indent=1)
            out[f"tags-v{rel}.json"] = json.dumps(modern_tags(schemas, rel), indent=1)
    return out


def main() -> int:
    global RELEASES
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tvm-git", default="/work/.mirror/apache+tvm/repo")
    ap.add_argument("--tvm027", default="/tmp/tvm027", help="a venv with the newest release's wheel installed")
    ap.add_argument("--newest", default=str(MODERN), help="the release of that wheel (default: the newest shipped)")
    ap.add_argument("--out", default="targetlang/data/tvm-schemas.json")
    ap.add_argument(
        "--modern", action="store_true", help="only write each modern release's kinds-v*.json, tags-v*.json from --out"
    )
    ap.add_argument(
        "--wheel-files", action="store_true", help="only write the newest release's kinds-v*.json, tags-v*.json"
    )
    a = ap.parse_args()
    newest = Version.parse(a.newest)
    if a.modern or a.wheel_files:
        python = str(Path(a.tvm027) / "bin" / "python")
        written = modern_files(Path(a.out).read_text(), newest) if a.modern else wheel_files(python, newest)
        for name, text in written.items():
            old = Path(a.out).parent / name
            if a.modern and old.is_file() and "--modern" not in json.loads(old.read_text())["source"]:
                continue  # recorded from the release's wheel when it was the newest: kept
            old.write_text(text)
            print(f"wrote {name}", file=sys.stderr)
        return 0
    RELEASES = schema_releases(newest)
    wheel = str(newest)
    kinds: dict[str, dict[str, dict[str, Any]]] = {}
    tags: dict[str, dict[str, dict[str, Any]]] = {}
    python = str(Path(a.tvm027) / "bin" / "python")
    site = Path(
        subprocess.run(
            [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
    )
    dlpack = site / "tvm_ffi" / "include" / "dlpack" / "dlpack.h"
    for name, num in re.findall(r"\b(kDL\w+)\s*=\s*(\d+)", dlpack.read_text()):
        if DEVICE_TYPES.setdefault(name, int(num)) != int(num):
            raise ExtractError(f"{dlpack}: {name} = {num} differs from {DEVICE_TYPES[name]}")
    for rel in RELEASES[:-1]:
        tree = Tree(a.tvm_git, f"refs/tags/v{rel}.0")
        kinds[rel] = extract_kinds(tree)
        tags[rel] = extract_tags(tree)
        print(f"{rel}: {len(kinds[rel])} kinds, {len(tags[rel])} tags", file=sys.stderr)
    version, wk = wheel_kinds(python)
    kinds[wheel] = extract_kinds(Tree(a.tvm_git, f"refs/tags/v{wheel}.dev0"))
    for name, info in wk.items():
        if name in kinds[wheel]:
            have = {a[0] for a in kinds[wheel][name]["attrs"]}
            for opt, typ in info["options"]:
                if opt not in have:
                    if typ not in WHEEL_TYPES:
                        raise ExtractError(f"apache-tvm {version}: unknown option type {typ!r} of {name}.{opt}")
                    # its default is what a bare target of the kind exports (webgpu's
                    # max_shared_memory_per_block: 32768); the source has no declaration to read
                    default = info.get("export", {}).get(opt)
                    kinds[wheel][name]["attrs"].append([opt, WHEEL_TYPES[typ], default])
                    kinds[wheel][name].setdefault("wheel_only_attrs", []).append(opt)
            continue
        attrs = []
        for opt, typ in info["options"]:
            if typ not in WHEEL_TYPES:
                raise ExtractError(f"apache-tvm {version}: unknown option type {typ!r} of {name}.{opt}")
            attrs.append([opt, WHEEL_TYPES[typ], None])
        kinds[wheel][name] = {
            "device_type": info["device_type"],
            "default_keys": info["default_keys"],
            "attrs": attrs,
            "target_parser": None,
            "preprocessor": None,
            "file": f"apache-tvm {version} wheel (TargetKind API)",
        }
    tags[wheel] = wheel_tags(site)
    print(f"{wheel}: {len(kinds[wheel])} kinds, {len(tags[wheel])} tags (apache-tvm {version})", file=sys.stderr)
    kinds_out, tags_out = dedupe(kinds), dedupe(tags)
    data = {
        "source": (
            "apache/tvm tags v0.7.0 ... v0.26.0 (C++ src/ and include/, Python python/tvm tag registrations); "
            f"0.27: kinds from v0.27.dev0 source plus kinds only the apache-tvm {version} wheel registers "
            "(from its TargetKind API, no defaults), tags from that wheel's Python tag registrations; "
            "generated by tests/oracle/extract_schemas.py"
        ),
        "notes": [
            "attrs: [name, type, default] in registration order, the TVM_REGISTER_TARGET_KIND macro's own first; "
            "default null = no default.",
            "target_parser: the function given to set_target_parser, or to set_target_canonicalizer (its later name).",
            "Preprocessor conditions were evaluated for a build with LLVM >= 19 having an AArch64 backend; "
            "a kind or tag registered (or defined by a macro) under a condition carries it in 'condition'.",
            "ignored_defaults: values given to add_attr_option after the name that v0.24+'s traits API silently "
            "ignores (only refl::DefaultValue(x) is a default there), so the attribute has no default.",
            "wheel_only_attrs (0.27): options the apache-tvm 0.27 wheel lists that v0.27.dev0's source lacks; "
            "appended with their wheel type and, as default, what a bare target of the kind exports (null when it "
            "exports nothing), not at their registered position.",
            "Tags: a name registered twice keeps the later config (as TVM does); configs are as registered, "
            "before Target construction adds defaults and keys.",
        ],
        "releases": RELEASES,
        "kinds": kinds_out,
        "tags": tags_out,
    }
    Path(a.out).write_text(dump(data))
    nk = sum(len(v) for v in kinds_out.values())
    nt = sum(len(v) for v in tags_out.values())
    print(
        f"wrote {a.out}: {len(kinds_out)} kinds ({nk} variants), {len(tags_out)} tags ({nt} variants)",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
