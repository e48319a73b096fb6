"""IPython's own syntax in Python code (a notebook's cell, a d2l-style book's ``{.python .input}``
block): line magics (``%timeit``), shell escapes (``!pip install``, ``x = !ls``), help
(``obj?``) and cell magics (``%%time``). LibCST reads none of it, so each such line is masked
as a placeholder Python reads while the code is fixed, and put back byte for byte after."""

from __future__ import annotations

import re

__all__ = ["mask", "unmask"]

# Cell magics whose body is Python that IPython runs as such.
_PYTHON_CELL_MAGICS = frozenset({"time", "timeit", "capture", "prun", "python", "python2", "python3", "debug"})
_NEWLINE = re.compile(r"\r\n|\r|\n")
_HELP = re.compile(r"(\?{1,2}[\w.*]+|[\w.*\[\]]+\?{1,2})[ \t]*")
_ASSIGNED_MAGIC = re.compile(r"[A-Za-z_][\w.]*(\s*,\s*[A-Za-z_][\w.]*)*\s*=\s*[%!]")


def mask(code: str) -> tuple[str, dict[str, str]] | None:
    """``code`` with its IPython lines made Python (each a placeholder that says which), and
    the lines by placeholder; ``None`` for a cell another language's cell magic runs."""
    token = "targetlang-ipython-"
    while token in code:
        token += "-"
    lines = _NEWLINE.split(code)
    breaks = _NEWLINE.findall(code)
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    originals: dict[str, str] = {}

    def masked(i: int, statement: bool) -> None:
        line = lines[i]
        indent = line[: len(line) - len(line.lstrip(" \t\f"))]
        key = f"{token}{len(originals)}"
        originals[key] = line
        lines[i] = f"{indent}pass  # {key}" if statement else f"# {key}"

    if first is not None and lines[first].lstrip().startswith("%%"):
        name = lines[first].lstrip()[2:].split(maxsplit=1)
        if not name or name[0] not in _PYTHON_CELL_MAGICS:
            return None
        masked(first, True)
    depth, quote, continued = 0, "", False
    i = 0
    while i < len(lines):
        line = lines[i]
        body = line.lstrip(" \t\f")
        if not (depth or quote or continued) and _is_ipython(body):
            masked(i, True)
            while line.endswith("\\") and i + 1 < len(lines):  # the magic goes on
                i += 1
                line = lines[i]
                masked(i, False)
            i += 1
            continue
        depth, quote, continued = _scanned(line, depth, quote)
        i += 1
    if not originals:
        return code, {}
    return "".join(line + brk for line, brk in zip(lines, [*breaks, ""], strict=True)), originals


def _is_ipython(body: str) -> bool:
    """A logical line that IPython turns into a call: a line magic, a shell escape, help."""
    return body.startswith(("%", "!")) or bool(_HELP.fullmatch(body) or _ASSIGNED_MAGIC.match(body))


def _scanned(line: str, depth: int, quote: str) -> tuple[int, str, bool]:
    """The brackets open, the string open and whether the logical line goes on, after ``line``:
    enough of Python's tokens to tell a line magic from a line that goes on with ``%``."""
    i = 0
    while i < len(line):
        if quote:
            if line[i] == "\\":
                i += 2
                continue
            if line.startswith(quote, i):
                i += len(quote)
                quote = ""
                continue
            i += 1
            continue
        char = line[i]
        if char == "#":
            return depth, "", False
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth = max(0, depth - 1)
        elif char in "\"'":
            quote = char * 3 if line.startswith(char * 3, i) else char
            i += len(quote)
            continue
        i += 1
    continues = line.endswith("\\")
    if len(quote) == 1 and not continues:
        quote = ""  # an unclosed one-line string: Python's error, not a reason to read on
    return depth, quote, continues and not quote


def unmask(fixed: str, originals: dict[str, str]) -> str | None:
    """``fixed`` with each placeholder line back as it was; ``None`` if one is not found once."""
    if not originals:
        return fixed
    lines = _NEWLINE.split(fixed)
    breaks = [*_NEWLINE.findall(fixed), ""]
    seen: set[str] = set()
    for i, line in enumerate(lines):
        body = line.strip(" \t\f")
        key = body.removeprefix("pass  # ").removeprefix("# ")
        if key in originals and body in (f"pass  # {key}", f"# {key}"):
            if key in seen:
                return None
            seen.add(key)
            lines[i] = originals[key]
    if len(seen) != len(originals):
        return None
    return "".join(line + brk for line, brk in zip(lines, breaks, strict=True))
