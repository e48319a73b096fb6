"""Where a shell script (or a shell block, or the prose, of a document) holds a target: the
options ``--target``/``--target-host`` (``=`` or a space, a quoted or backslash-escaped value),
tvmc's ``-t``, ``TVM_TEST_TARGETS=``, any variable assignment (``TARGET=``, ``export
TVM_TARGET=``), ``target =``/``target:`` settings, and the code of ``python -c '...'``."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from ._text_place import Place

__all__ = ["PythonCode", "places", "python_code"]

_VALUE = r"(?P<value>\"(?:[^\"\\\n]|\\.)*\"|'[^'\n]*'|(?:[^\s\"'#,;|&()<>\\`]|\\[^\n])+)"
_OPTION = re.compile(r"(?P<key>--target(?:[_-]host)?|(?<![\w-])-t)(?P<sep>[ \t]*=[ \t]*|[ \t]+)" + _VALUE)
# A setting named target (YAML, TOML, INI, prose): kept from before any assignment was read
_SETTING = re.compile(r"(?P<key>(?<![\w.$-])target(?:_host)?)(?P<sep>\s*[=:]\s*|(?<=t)[ \t]+)" + _VALUE)
_ASSIGNMENT = re.compile(r"(?P<key>(?<![\w$/-])[A-Za-z_][A-Za-z0-9_]*)(?P<sep>=)" + _VALUE)
_PYTHON_C = re.compile(
    r"(?<![\w/.-])(?:[\w./-]*/)?python(?:[\d.]*)(?:[ \t]+-[A-Za-z]+)*?[ \t]+-c[ \t]*"
    r"(?P<code>'[^']*'|\"(?:[^\"\\]|\\[\s\S])*\")"
)
_DOUBLE_ESCAPED = frozenset('$`"\\\n')


def _unquoted(value: str) -> str:
    """The word a shell makes of ``value``: quotes taken off, escapes read."""
    if value[:1] == "'":
        return value[1:-1]
    if value[:1] == '"':
        return re.sub(r"\\([$`\"\\])", r"\1", value[1:-1])
    return re.sub(r"\\(.)", r"\1", value)


def places(text: str, assignments: bool = True) -> Iterator[Place]:
    """Every target position of a shell text, in no particular order (the caller sorts them and
    keeps one of any that overlap); ``assignments``: any variable's value too."""
    for match in _OPTION.finditer(text):
        short = match["key"] == "-t"  # tvmc's; other tools' -t is no target: only a legacy one with options counts
        yield _place(match, named=not short)
    for match in _SETTING.finditer(text):
        yield _place(match, named=True)
    if assignments:
        for match in _ASSIGNMENT.finditer(text):
            many = match["key"] == "TVM_TEST_TARGETS"
            yield _place(match, named=many, many=many)


def _place(match: re.Match[str], named: bool, many: bool = False) -> Place:
    value = match["value"]
    head = match["key"] + match["sep"]
    return Place(match.start(), match.end(), head, _unquoted(value), value, "shell", named, many)


@dataclass(frozen=True)
class PythonCode:
    """The code of a ``python -c`` argument: ``code``, the offset in the text of each of its
    characters (``offsets``, one more for its end) and the quote it stands in."""

    code: str
    offsets: tuple[int, ...]
    quote: str

    def escaped(self, written: str) -> str:
        """``written`` (Python) as it is to stand inside this argument's quotes."""
        if self.quote == "'":
            return written.replace("'", "'\"'\"'")
        return re.sub(r"([$`\"\\])", r"\\\1", written)


def python_code(text: str) -> Iterator[PythonCode]:
    """The code of each ``python -c '...'`` of a shell text."""
    for match in _PYTHON_C.finditer(text):
        quoted = match["code"]
        start = match.start("code") + 1
        if quoted[0] == "'":
            offsets = list(range(start, start + len(quoted) - 1))
            yield PythonCode(quoted[1:-1], tuple(offsets), "'")
            continue
        chars: list[str] = []
        offsets = []
        index = 0
        inner = quoted[1:-1]
        while index < len(inner):
            char = inner[index]
            if char == "\\" and index + 1 < len(inner) and inner[index + 1] in _DOUBLE_ESCAPED:
                if inner[index + 1] != "\n":  # a line continued: no character at all
                    chars.append(inner[index + 1])
                    offsets.append(start + index)
                index += 2
                continue
            chars.append(char)
            offsets.append(start + index)
            index += 1
        offsets.append(start + len(inner))
        yield PythonCode("".join(chars), tuple(offsets), '"')
