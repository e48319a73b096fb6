"""``text-target``: legacy targets in files that are not Python: shell scripts, documents,
configuration.

Only target positions are looked at: ``--target``/``--target_host``/``--target-host`` options,
``TVM_TEST_TARGETS=``, and ``target =`` / ``target:`` settings. What is found is reported with
the JSON to write there, quoted for where it stands (report-only: the quoting rules of a
document or a config format are the author's). The Python code blocks of Markdown and
reStructuredText are given to the Python fixer instead when ``fix_block`` is passed.
"""

from __future__ import annotations

import bisect
import itertools
import json
import re
import textwrap
from collections.abc import Callable, Iterator

from ..._registry import Registry
from ...errors import SourceSyntaxError
from .._convert import convert, known_kind, options_of
from .._findings import Finding

__all__ = ["fix_text"]

_POSITION = re.compile(
    r"(?P<key>--target(?:[_-]host)?|\bTVM_TEST_TARGETS|(?<![\w.-])target(?:_host)?)"
    r"(?P<sep>\s*[=:]\s*|(?<=t)[ \t]+)"
    r"(?P<value>\"[^\"\n]*\"|'[^'\n]*'|[^\s\"'#,;)]+)"
)
_MD_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>```+|~~~+)[ \t]*(?P<lang>[\w+-]*)[^\n]*\n", re.MULTILINE)
_RST_BLOCK = re.compile(
    r"^(?P<indent>[ \t]*)\.\. (?:code-block|code|sourcecode)::[ \t]*(?P<lang>\w+)[^\n]*\n", re.MULTILINE
)
_PYTHON = frozenset({"python", "py", "python3", "ipython", "pycon"})
# A line as str.splitlines(keepends=True) cuts them, read in place (not the rest of the text split
# at every block: a document of many blocks cost the square of its length).
_LINE = re.compile(r"[^\n\r\v\f\x1c-\x1e\x85\u2028\u2029]*(?:\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029])?")
# Configuration formats whose values may stand unquoted with spaces in them (a YAML plain
# scalar, an INI value): there an unquoted value is the rest of its line, less a comment.
_BARE_VALUES = {
    ".yaml": re.compile(r"\s+#"),
    ".yml": re.compile(r"\s+#"),
    ".cfg": re.compile(r"\s+[#;]"),
    ".ini": re.compile(r"\s+[#;]"),
}

FixBlock = Callable[[str, int], tuple[str, list[Finding]]]


def _shell_quote(text: str) -> str:
    return "'" + text.replace("'", "'\"'\"'") + "'"


def _quoted_like(value: str, text: str, shell: bool, yaml: bool = False) -> str:
    """``text`` written where ``value`` (as found, with its quotes) stood."""
    if shell:
        return _shell_quote(text)
    if yaml and value[:1] not in "\"'":
        return "'" + text.replace("'", "''") + "'"  # unquoted, YAML would read the JSON as a mapping
    if value[:1] == "'" and "'" not in text:
        return f"'{text}'"
    if value[:1] == '"':
        return "'" + text + "'" if "'" not in text else json.dumps(text)
    return text


def _python_blocks(text: str, suffix: str) -> Iterator[tuple[int, int, str]]:
    """``(start, end, indent)`` of each Python code block's body in a document."""
    if suffix == ".md":
        position = 0
        while (match := _MD_FENCE.search(text, position)) is not None:
            fence = match["fence"]
            close = re.compile(rf"^[ \t]*{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$", re.MULTILINE)
            closing = close.search(text, match.end())
            stop = closing.start() if closing is not None else len(text)
            if match["lang"].lower() in _PYTHON:
                yield match.end(), stop, ""
            position = closing.end() if closing is not None else len(text)
    else:
        for match in _RST_BLOCK.finditer(text):
            if match["lang"].lower() not in _PYTHON:
                continue
            start = end = match.end()
            base = len(match["indent"].expandtabs())
            for found in _LINE.finditer(text, start):
                line = found[0]
                if not line or (line.strip() and len(line) - len(line.lstrip()) <= base):
                    break  # (an empty line: the end of the text)
                end += len(line)
            body = text[start:end]
            indent = re.match(r"\n*([ \t]*)", body)
            yield start, end, indent[1] if indent else ""


class _Lines:
    """Where the lines of a text start, found once, for the line and column of any offset: not
    counted from the start of the text for each one, which cost the square of its length (a
    shell script of 40,000 findings took 20 s)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts: list[int] | None = None  # (found on the first question: most texts are asked none)

    def line_col(self, offset: int) -> tuple[int, int]:
        """The line (from 1) and the column (from 1) of ``offset``; lines end at each ``\\n``."""
        if self.starts is None:
            self.starts = [0, *(found.end() for found in re.finditer("\n", self.text))]
        line = bisect.bisect_right(self.starts, offset)
        return line, offset - self.starts[line - 1] + 1


def _outside(blocks: list[tuple[int, int]]) -> Callable[[int], bool]:
    """Whether an offset is in none of ``blocks`` (spans ``(start, end)`` in the order of their
    starts): a binary search, not a look at every block for every offset."""
    starts = [start for start, _ in blocks]
    reach = list(itertools.accumulate((end for _, end in blocks), max))  # the furthest end so far

    def outside(offset: int) -> bool:
        last = bisect.bisect_right(starts, offset) - 1
        return last < 0 or reach[last] <= offset

    return outside


def fix_text(
    text: str,
    *,
    path: str,
    registry: Registry | None,
    selected: Callable[[str], bool],
    fix_block: FixBlock | None = None,
) -> tuple[str, list[Finding]]:
    """``text`` with its Python blocks fixed (when ``fix_block``), and every finding."""
    findings: list[Finding] = []
    suffix = path[path.rfind(".") :].lower() if "." in path else ""
    shell = suffix in (".sh", ".bash", ".md", ".rst", ".txt")
    skipped: list[tuple[int, int]] = []
    pieces: list[str] = []
    done = 0
    lines = _Lines(text)
    if fix_block is not None and suffix in (".md", ".rst"):
        for start, end, indent in _python_blocks(text, suffix):
            block = textwrap.dedent(text[start:end])
            try:
                fixed, found = fix_block(block, lines.line_col(start)[0])
            except SourceSyntaxError:
                continue  # a console session or a fragment: read as text below
            skipped.append((start, end))
            findings.extend(found)
            if fixed != block:
                pieces += [text[done:start], textwrap.indent(fixed, indent, lambda line: bool(line.strip()))]
                done = end
    pieces.append(text[done:])
    if selected("text-target"):
        outside = _outside(skipped)
        for match in _POSITION.finditer(text):
            if outside(match.start()):
                findings.extend(_reported(text, match, path, registry, shell, suffix, lines))
    findings.sort(key=lambda f: (f.line, f.column))
    return "".join(pieces), findings


def _value(text: str, match: re.Match[str], suffix: str) -> str:
    """The value of a setting as it stands in ``text``: as matched, or for an unquoted value of a
    configuration format that allows spaces in one, the rest of the line less a comment."""
    value = match["value"]
    comment = _BARE_VALUES.get(suffix)
    if comment is None or value[:1] in "\"'" or match["key"].startswith("--"):
        return value
    line_end = text.find("\n", match.start("value"))
    rest = text[match.start("value") : len(text) if line_end < 0 else line_end]
    cut = comment.search(rest)
    return (rest if cut is None else rest[: cut.start()]).rstrip()


def _reported(
    text: str, match: re.Match[str], path: str, registry: Registry | None, shell: bool, suffix: str, lines: _Lines
) -> list[Finding]:
    value = _value(text, match, suffix)
    before = text[match.start() : match.start("value") + len(value)]
    inner = value[1:-1] if value[:1] in "\"'" else value
    many = match["key"] == "TVM_TEST_TARGETS"
    targets = inner.split(";") if many else [inner]
    written: list[str] = []
    messages: list[str] = []
    rules: list[str] = []
    legacy = False
    for target in targets:
        words = options_of(target)
        if words is None or not known_kind(words[0], registry):
            written.append(target)
            continue
        legacy = True
        conversion = convert(target, registry)
        rules += conversion.rule_ids
        messages.append(conversion.message)
        if conversion.config is None:
            return [_finding(lines, match.start(), before, path, conversion.message, None, tuple(rules))]
        written.append(json.dumps(conversion.config) if conversion.tag is None else conversion.tag)
    if not legacy:
        return []
    joined = ";".join(written)
    quoted = _quoted_like(value, joined, shell or many or match["key"].startswith("--"), suffix in (".yaml", ".yml"))
    after = f"{match['key']}{match['sep']}{quoted}"
    message = "; ".join(dict.fromkeys(messages)) + " (write the JSON; TVM >= 0.24 reads no other form)"
    return [_finding(lines, match.start(), before, path, message, after, tuple(dict.fromkeys(rules)))]


def _finding(
    lines: _Lines, start: int, before: str, path: str, message: str, after: str | None, rules: tuple[str, ...]
) -> Finding:
    line, column = lines.line_col(start)
    return Finding(path, line, column, "text-target", message, before, after, "report-only", False, rules)
