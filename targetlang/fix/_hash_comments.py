"""Where the ``#`` comments of a shell script, a YAML, TOML or INI file (or a line of prose) stand,
and which of their lines lie inside a multi-line string, a heredoc or a block scalar (where a
``#`` is data, and a comment written at the line's end would be data too).

A line is scanned for quotes as its format reads them, enough to tell a comment's ``#`` from one
in a value; it is no parser. Its limits:

* shell: single and double quotes (across lines) and ``<<EOF`` heredocs (``<<-``, a quoted
  word); a ``#`` starts a comment at the start of a word. ``$'...'``, quotes inside ``$(...)`` or
  backquotes within double quotes, and ``case`` patterns are read as plain quotes;
* YAML: a quote opens a scalar only where a value starts (after ``key:``, ``-``, ``[``, ``{``,
  ``,``), so an apostrophe in a plain scalar is text; a block scalar (``|``, ``>``, with its
  indicators) runs while its lines are indented further than its key (or its ``-``). A plain
  scalar continued over lines is read line by line;
* TOML: basic and literal strings, one-line and multi-line; a ``#`` outside them is a comment;
* INI (``.cfg``, ``.ini``): :mod:`configparser` reads no comment after a value, only whole lines
  starting with ``#`` or ``;``: those are the comments, and no line is inside anything;
* anything else (``.txt``, a document's lines): quotes closed on the line are strings; a line
  with a quote left open (an apostrophe in prose) is read as if it had no quotes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["INI_SUFFIXES", "HashComments", "hash_comments"]

INI_SUFFIXES = frozenset({".cfg", ".ini"})
"""Formats whose comments are whole lines only (:mod:`configparser`'s default)."""

_SHELL = frozenset({".sh", ".bash"})
_YAML = frozenset({".yaml", ".yml"})
_WORD_BREAK = frozenset(" \t;&|()")
_HEREDOC = re.compile(r"<<(?P<strip>-?)[ \t]*(?P<quote>['\"]?)(?P<word>[\w.@%+-]+)(?P=quote)")
_INI_COMMENT = re.compile(r"[ \t]*[#;]")
# where a YAML quoted scalar may open: the line's start, after "key:", "-", "?", or in a flow collection
_YAML_VALUE_START = re.compile(r"(?:^[ \t]*|(?:^|[ \t])[-?][ \t]+|:[ \t]+|[\[{,][ \t]*)\Z")
_YAML_BLOCK = re.compile(r"(?:^|:[ \t]+|(?:^|[ \t])-[ \t]+)[|>](?:[-+]?[1-9]?|[1-9][-+])[ \t]*\Z")
_YAML_HEAD = re.compile(r"[ ]*(?:-[ ]+)*")


@dataclass(frozen=True)
class HashComments:
    """For each line of a text (from 1), the offset of the ``#`` (or ``;``) that starts its comment
    (``None``: no comment), and the lines that start or end inside a multi-line string, a heredoc
    or a block scalar (``inside``): no comment may be written on them."""

    starts: tuple[int | None, ...]
    inside: frozenset[int]

    def comment(self, line: int) -> int | None:
        """Where the comment of ``line`` (from 1) starts in it, if it has one."""
        return self.starts[line - 1] if 1 <= line <= len(self.starts) else None


def hash_comments(rows: list[str], suffix: str) -> HashComments:
    """The comments of ``rows`` (the lines of a text of ``suffix``, without their line breaks)."""
    if suffix in INI_SUFFIXES:
        return HashComments(tuple(0 if _INI_COMMENT.match(row) else None for row in rows), frozenset())
    if suffix in _SHELL:
        return _shell(rows)
    if suffix in _YAML:
        return _yaml(rows)
    if suffix == ".toml":
        return _toml(rows)
    return HashComments(tuple(_line_comment(row) for row in rows), frozenset())


def _line_comment(row: str) -> int | None:
    """A line read on its own: quotes that close on it are strings, else none are."""
    start, quote, _ = _shell_line(row, None)
    if quote is None:
        return start
    for index, char in enumerate(row):
        if char == "#" and (index == 0 or row[index - 1] in _WORD_BREAK):
            return index
    return None


def _shell_line(row: str, quote: str | None) -> tuple[int | None, str | None, list[tuple[str, bool]]]:
    """The comment's start on a shell line entered inside ``quote`` (``None``: none), the quote
    it ends inside, and the heredocs it opens (word, whether tabs are stripped)."""
    heredocs: list[tuple[str, bool]] = []
    index = 0
    while index < len(row):
        char = row[index]
        if quote == "'":
            if char == "'":
                quote = None
        elif quote == '"':
            if char == "\\":
                index += 1
            elif char == '"':
                quote = None
        elif char == "\\":
            index += 1
        elif char in "'\"":
            quote = char
        elif char == "#" and (index == 0 or row[index - 1] in _WORD_BREAK):
            return index, None, heredocs
        elif char == "<" and not row.startswith("<<<", index):
            heredoc = _HEREDOC.match(row, index)
            if heredoc:
                heredocs.append((heredoc["word"], heredoc["strip"] == "-"))
                index = heredoc.end()
                continue
        index += 1
    return None, quote, heredocs


def _shell(rows: list[str]) -> HashComments:
    starts: list[int | None] = []
    inside: set[int] = set()
    quote: str | None = None
    pending: list[tuple[str, bool]] = []
    body: tuple[str, bool] | None = None
    for number, row in enumerate(rows, 1):
        if body is not None:  # a heredoc's line, its closing word's too: data
            starts.append(None)
            inside.add(number)
            if (row.lstrip("\t") if body[1] else row) == body[0]:
                body = pending.pop(0) if pending else None
            continue
        entered = quote
        start, quote, opened = _shell_line(row, quote)
        starts.append(start)
        if entered is not None or quote is not None:
            inside.add(number)
        pending += opened
        if pending and quote is None:
            body = pending.pop(0)
    return HashComments(tuple(starts), frozenset(inside))


def _yaml(rows: list[str]) -> HashComments:
    starts: list[int | None] = []
    inside: set[int] = set()
    quote: str | None = None
    block: int | None = None  # a block scalar's lines are indented further than this
    for number, row in enumerate(rows, 1):
        if block is not None:
            if not row.strip() or len(row) - len(row.lstrip(" ")) > block:
                starts.append(None)
                inside.add(number)
                continue
            block = None
        entered = quote
        start: int | None = None
        index = 0
        while index < len(row):
            char = row[index]
            if quote == "'":
                if char == "'":
                    if row.startswith("''", index):
                        index += 1  # an escaped quote
                    else:
                        quote = None
            elif quote == '"':
                if char == "\\":
                    index += 1
                elif char == '"':
                    quote = None
            elif char in "'\"" and (entered is not None or _YAML_VALUE_START.search(row, 0, index)):
                quote = char
            elif char == "#" and (index == 0 or row[index - 1] in " \t"):
                start = index
                break
            index += 1
        starts.append(start)
        if entered is not None or quote is not None:
            inside.add(number)
        elif _YAML_BLOCK.search(row[:start].rstrip() if start is not None else row.rstrip()):
            head = _YAML_HEAD.match(row)
            assert head is not None  # it matches the empty string
            rest = row[head.end() :]
            dash = row.rfind("-", 0, head.end())
            block = dash if rest[:1] in ("|", ">") and dash >= 0 else head.end()
    return HashComments(tuple(starts), frozenset(inside))


def _toml(rows: list[str]) -> HashComments:
    starts: list[int | None] = []
    inside: set[int] = set()
    multi: str | None = None  # the delimiter of the multi-line string the line is in
    for number, row in enumerate(rows, 1):
        entered = multi
        start: int | None = None
        index = 0
        while index < len(row):
            if multi is not None:
                if multi == '"""' and row[index] == "\\":
                    index += 2
                    continue
                if row.startswith(multi, index):
                    # a quote or two of the content may stand just before the delimiter
                    end = index + 3
                    while end < len(row) and end < index + 5 and row[end] == multi[0]:
                        end += 1
                    index, multi = end, None
                    continue
                index += 1
                continue
            char = row[index]
            if row.startswith('"""', index) or row.startswith("'''", index):
                multi = row[index : index + 3]
                index += 3
                continue
            if char in "'\"":
                index = _toml_string_end(row, index)
                continue
            if char == "#":
                start = index
                break
            index += 1
        starts.append(start)
        if entered is not None or multi is not None:
            inside.add(number)
    return HashComments(tuple(starts), frozenset(inside))


def _toml_string_end(row: str, index: int) -> int:
    """The offset just after the one-line string opening at ``index``."""
    quote = row[index]
    index += 1
    while index < len(row):
        if quote == '"' and row[index] == "\\":
            index += 2
            continue
        if row[index] == quote:
            return index + 1
        index += 1
    return index
