"""Where the code of a Markdown or reStructuredText document stands: its fenced blocks (with
their info strings, ```` ```{.python .input} ```` as d2l-style books write them), indented code
blocks, ``.. code-block::``/``.. ipython::`` directives, ``::`` literal blocks and ``>>>``
sessions; and a session's code with its prompts taken off, and put back under them.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

__all__ = ["CODE_PROMPT", "PYTHON", "Block", "Session", "blocks", "line_spans", "session"]

PYTHON = frozenset({"python", "py", "python3", "ipython", "ipython3", "pycon", "sage"})
_CONFIG = frozenset({"json", "jsonc", "json5", "yaml", "yml", "toml", "ini", "cfg"})

# (a line may end in \r\n: the \r belongs to no info string, and a closing fence may have one)
_MD_FENCE = re.compile(r"^(?P<indent>[ \t]{0,3})(?P<fence>```+|~~~+)[ \t]*(?P<info>[^\r\n]*)\r?\n", re.MULTILINE)
_RST_DIRECTIVE = re.compile(
    r"^(?P<indent>[ \t]*)\.\. (?P<name>code-block|code|sourcecode|ipython)::[ \t]*(?P<lang>[\w+-]*)[^\n]*\n",
    re.MULTILINE,
)
# A paragraph that ends in "::" (not a directive: ".. note::" holds reStructuredText)
_RST_LITERAL = re.compile(r"^(?P<indent>[ \t]*)(?!\.\. )\S[^\n]*::[ \t]*\r?\n", re.MULTILINE)
_PROMPT = re.compile(r"(?P<indent>[ \t]*)>>>(?: |$)")
CODE_PROMPT = re.compile(r">>> ?|>>>$|In \[\d*\]: ?")
"""The prompt of a statement's first line in a session."""
_MORE_PROMPT = re.compile(r"\.\.\.+: ?|\.\.\. ?|\.\.\.$")


@dataclass(frozen=True)
class Block:
    """A code block's body, ``text[start:end]`` (whole lines), its ``language`` (lower case; ``""``
    when unnamed), the ``indent`` its lines share, and whether it is a ``session`` of prompts."""

    start: int
    end: int
    language: str
    indent: str
    session: bool = False

    @property
    def python(self) -> bool:
        """Whether the block is read as Python (``""``: an unnamed block, Python if it parses)."""
        return self.session or self.language in PYTHON or self.language == ""

    @property
    def config(self) -> bool:
        """Whether the block holds a configuration format (JSON, YAML, TOML, INI)."""
        return self.language in _CONFIG


def line_spans(text: str, start: int = 0) -> Iterator[tuple[int, int]]:
    """``(start, end)`` of each line of ``text`` from ``start`` (its ``\\n`` in it)."""
    while start < len(text):
        stop = text.find("\n", start)
        end = len(text) if stop < 0 else stop + 1
        yield start, end
        start = end


def _indented_body(text: str, start: int, base: int) -> tuple[int, int]:
    """The lines from ``start`` indented past ``base`` columns (blank lines within), less the
    blank lines at its end."""
    end = last = start
    for begin, stop in line_spans(text, start):
        line = text[begin:stop]
        if line.strip() and len(line) - len(line.lstrip()) <= base:
            break
        end = stop
        if line.strip():
            last = stop
    return start, min(end, last) if last > start else start


def _language(info: str) -> str:
    """The language of a fence's info string: ``python``, ``{python}``, ``{.python .input}``."""
    info = info.strip()
    if info.startswith("{"):
        words = info.strip("{}").replace(",", " ").split()
        for word in words:
            name = word.lstrip(".").lower()
            if "=" not in name and name:
                return name
        return ""
    return info.split()[0].lower() if info.split() else ""


def _starts_session(text: str, start: int, end: int) -> bool:
    for begin, stop in line_spans(text, start):
        if begin >= end:
            return False
        line = text[begin:stop].strip()
        if line:
            return line.startswith(">>>") or re.match(r"In \[\d*\]:", line) is not None
    return False


def _common_indent(text: str, start: int, end: int) -> str:
    indents = []
    for begin, stop in line_spans(text, start):
        if begin >= end:
            break
        line = text[begin:stop]
        if line.strip():
            indents.append(line[: len(line) - len(line.lstrip(" \t"))])
    if not indents:
        return ""
    common = min(indents, key=len)
    while common and not all(indent.startswith(common) for indent in indents):
        common = common[:-1]
    return common


def _within(spans: list[tuple[int, int]]) -> Callable[[int], bool]:
    """Whether an offset is in one of ``spans``: a binary search, not a look at every span for
    every line (a document of many blocks cost the square of its length)."""
    ordered = sorted(spans)
    starts = [start for start, _ in ordered]
    reach = list(itertools.accumulate((end for _, end in ordered), max))

    def within(offset: int) -> bool:
        last = bisect.bisect_right(starts, offset) - 1
        return last >= 0 and offset < reach[last]

    return within


def blocks(text: str, markdown: bool) -> list[Block]:
    """Every code block of a document (Markdown if ``markdown``, else reStructuredText), in order,
    none inside another; a ``>>>`` run outside every block is a block of its own."""
    found: list[Block] = []
    taken: list[tuple[int, int]] = []
    if markdown:
        position = 0
        while (match := _MD_FENCE.search(text, position)) is not None:
            fence = match["fence"]
            close = re.compile(rf"^[ \t]*{re.escape(fence[0])}{{{len(fence)},}}[ \t]*\r?$", re.MULTILINE)
            closing = close.search(text, match.end())
            stop = closing.start() if closing is not None else len(text)
            language = _language(match["info"])
            session = language == "pycon" or _starts_session(text, match.end(), stop)
            found.append(Block(match.end(), stop, language or "fence", match["indent"], session))
            taken.append((match.start(), closing.end() if closing is not None else len(text)))
            position = closing.end() if closing is not None else len(text)
        found += _indented_blocks(text, taken)
    else:
        for match in _RST_DIRECTIVE.finditer(text):
            base = len(match["indent"].expandtabs())
            start, end = _indented_body(text, match.end(), base)
            language = "ipython" if match["name"] == "ipython" else match["lang"].lower() or "fence"
            session = _starts_session(text, start, end)
            found.append(Block(start, end, language, _common_indent(text, start, end), session))
            taken.append((match.start(), end))
        directives = _within(taken)
        for match in _RST_LITERAL.finditer(text):
            if directives(match.start()):
                continue
            base = len(match["indent"].expandtabs())
            start, end = _indented_body(text, match.end(), base)
            if end > start:
                session = _starts_session(text, start, end)
                found.append(Block(start, end, "", _common_indent(text, start, end), session))
                taken.append((match.start(), end))
    found += _doctests(text, taken)
    found.sort(key=lambda block: block.start)
    return found


def _indented_blocks(text: str, taken: list[tuple[int, int]]) -> Iterator[Block]:
    """Markdown's indented code blocks: lines indented 4 spaces or more after a blank line,
    outside the fences."""
    fenced = _within(taken)
    previous_blank = True
    begin_block: int | None = None
    end_block = 0
    for begin, stop in line_spans(text):
        line = text[begin:stop]
        inside = fenced(begin)
        code = not inside and line.strip() != "" and (line.startswith("    ") or line.startswith("\t"))
        if begin_block is None:
            if code and previous_blank:
                begin_block, end_block = begin, stop
        elif code or (not inside and not line.strip()):
            if line.strip():
                end_block = stop
        else:
            yield Block(begin_block, end_block, "", _common_indent(text, begin_block, end_block))
            begin_block = None
        previous_blank = not line.strip()
    if begin_block is not None:
        yield Block(begin_block, end_block, "", _common_indent(text, begin_block, end_block))


def _doctests(text: str, taken: list[tuple[int, int]]) -> Iterator[Block]:
    """``>>>`` runs (to the next blank line) outside every other block: doctest blocks."""
    run: tuple[int, int] | None = None
    taken_at = _within(taken)
    for begin, stop in line_spans(text):
        line = text[begin:stop]
        if run is not None:
            if line.strip():
                run = (run[0], stop)
                continue
            yield Block(run[0], run[1], "pycon", _common_indent(text, *run), True)
            run = None
        if _PROMPT.match(line) and not taken_at(begin):
            run = (begin, stop)
    if run is not None:
        yield Block(run[0], run[1], "pycon", _common_indent(text, *run), True)


@dataclass(frozen=True)
class Session:
    """The code of a ``>>>``/``In [1]:`` session: ``code``, and for each of its lines the line of
    the session it stands on (from 0) and the prompt before it there (indent included)."""

    code: str
    lines: tuple[int, ...]
    prompts: tuple[str, ...]


def session(body: str) -> Session:
    """The code of a session: the lines after ``>>>``/``In [n]:``, and ``...`` lines right after
    them; every other line is expected output, no code.

    >>> read = session(">>> t = Target(\\n...     'llvm -mcpu=a')\\n>>> t.kind.name\\n'llvm'")
    >>> print(read.code, end="")
    t = Target(
        'llvm -mcpu=a')
    t.kind.name
    >>> read.lines, read.prompts
    ((0, 1, 2), ('>>> ', '... ', '>>> '))
    """
    code: list[str] = []
    where: list[int] = []
    prompts: list[str] = []
    in_code = False
    for number, line in enumerate(body.split("\n")):
        stripped = line.lstrip(" \t")
        indent = line[: len(line) - len(stripped)]
        prompt = CODE_PROMPT.match(stripped) or (_MORE_PROMPT.match(stripped) if in_code else None)
        if prompt is None:
            in_code = False
            continue
        in_code = True
        code.append(stripped[prompt.end() :])
        where.append(number)
        prompts.append(indent + prompt[0])
    return Session("".join(line + "\n" for line in code), tuple(where), tuple(prompts))
