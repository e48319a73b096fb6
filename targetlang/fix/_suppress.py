"""Findings a comment asks ``targetlang fix`` to leave alone, and the comments ``--add-ignore`` writes.

In Python, and in the ``#`` comments of shell scripts and YAML and TOML files:

* ``# targetlang: ignore`` leaves every finding of its line alone, ``# targetlang:
  ignore[target-string,text-target]`` those of the rules named;
* ``# noqa`` with no code does as ``# targetlang: ignore`` (flake8's and ruff's blanket
  suppression); ``# noqa: CODES`` does so for those of its codes that are rule ids of ours (a
  ``# noqa: E501`` is another linter's and leaves our findings as they are).

In Python a comment on the first line of a statement covers every line of it (the only place a
comment may stand beside a line inside a multi-line string or after a backslash); in a shell
script a command continued with backslashes takes its comment on its last line, which covers the
whole command. A ``#`` inside quotes, and a line inside a multi-line string, a heredoc or a
YAML block scalar, hold no comment (:mod:`._hash_comments` says how far the scan goes). An INI
file (``.cfg``, ``.ini``) has whole-line comments only (``#`` or ``;``, as :mod:`configparser`
reads them): the comment goes on the line before the finding's, and ``--add-ignore`` writes it
there, with the finding's line's indentation. Markdown reads ``<!-- targetlang: ignore -->`` on
the finding's line or the line before it, reStructuredText a ``.. targetlang: ignore`` comment on
the line before it; a ``#`` comment on the line works inside their code blocks. JSON has no
comments: nothing there.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from ._diff import python_lines
from ._hash_comments import INI_SUFFIXES, hash_comments

if TYPE_CHECKING:
    from ._findings import Finding, FixResult

__all__ = [
    "ALL",
    "NO_SUPPRESSION",
    "Suppression",
    "add_ignores",
    "ignore_remaining",
    "python_suppression",
    "text_suppression",
    "unsuppressed_text",
]

ALL: frozenset[str] = frozenset({"*"})
"""What a bare ``# targetlang: ignore`` or ``# noqa`` suppresses: every rule."""

# the marker anywhere in a comment (after another tool's, as ruff finds its noqa); a noqa's codes
# on its line alone (a comment is one line; read in a whole text, a bare noqa with a colon must
# not take the next line's first word for its code: see python_suppression)
_IGNORE = re.compile(r"targetlang:\s*ignore(?:\[(?P<rules>[^\]]*)\])?", re.IGNORECASE)
_NOQA = re.compile(r"#\s*noqa(?::[^\S\r\n]*(?P<codes>[\w\-]+(?:(?:,|[^\S\r\n])+[\w\-]+)*))?", re.IGNORECASE)
_HASH_SUFFIXES = frozenset({".sh", ".bash", ".toml", ".yaml", ".yml", ".txt", ".cfg", ".ini"})
_SHELL_SUFFIXES = frozenset({".sh", ".bash"})
# where --add-ignore writes no comment: prose, JSON, and a notebook's cells (lines of a cell)
_NO_PLACE = frozenset({".rst", ".json", ".ipynb"})
_MD_COMMENT = re.compile(r"<!--\s*(targetlang:\s*ignore(?:\[[^\]]*\])?)\s*-->", re.IGNORECASE)
_RST_COMMENT = re.compile(r"^\s*\.\.\s+(targetlang:\s*ignore(?:\[[^\]]*\])?)\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Suppression:
    """The suppression comments of one text: for each line (from 1), the rule ids its comments
    leave alone (:data:`ALL` for all), and for each line, the first line of its statement."""

    lines: Mapping[int, frozenset[str]] = field(default_factory=dict)
    first_lines: Mapping[int, int] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.lines)

    def covers(self, line: int, rule: str) -> bool:
        """Whether a finding of ``rule`` on ``line`` is left alone."""
        for where in {line, self.first_lines.get(line, line)}:
            rules = self.lines.get(where)
            if rules is not None and ("*" in rules or rule in rules):
                return True
        return False


NO_SUPPRESSION = Suppression()


def rules_of(comment: str, known: Iterable[str]) -> frozenset[str] | None:
    """The rule ids the comment text ``comment`` suppresses (:data:`ALL` for every one), or
    ``None`` when it suppresses nothing of ours. ``known`` are our rule ids (a ``noqa`` code
    that is none of them is another linter's)."""
    found: set[str] = set()
    for match in _IGNORE.finditer(comment):
        if match["rules"] is None:
            return ALL
        found.update(name.strip() for name in match["rules"].split(",") if name.strip())
    for match in _NOQA.finditer(comment):
        if match["codes"] is None:
            return ALL
        ours = frozenset(known)
        found.update(code for code in re.split(r"[,\s]+", match["codes"]) if code in ours)
    return frozenset(found) if found else None


def _known() -> frozenset[str]:
    from ._rules import RULES

    return frozenset(RULES)


def _may_hold(text: str) -> bool:
    lowered = text.lower()
    return "targetlang" in lowered or "noqa" in lowered


def python_suppression(text: str) -> Suppression:
    """The suppression comments of the Python source ``text`` (read with :mod:`tokenize`: a
    ``#`` inside a string is no comment), with the span of each statement."""
    known = _known()
    # A comment is a part of the text that starts with "#": what the patterns find in it, they
    # find in the whole text too (a match holds no "#" but its first), with as many rules or
    # more. Nothing of ours in the whole text: no comment to read (a noqa comment whose codes
    # are F401 and such is another linter's), and no tokenizing.
    if not _may_hold(text) or rules_of(text, known) is None:
        return NO_SUPPRESSION
    lines: dict[int, frozenset[str]] = {}
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT:
                rules = rules_of(token.string, known)
                if rules is not None:
                    lines[token.start[0]] = lines.get(token.start[0], frozenset()) | rules
    except (tokenize.TokenError, SyntaxError):
        return NO_SUPPRESSION  # not Python: the parser says so elsewhere
    if not lines:
        return NO_SUPPRESSION
    return Suppression(lines, _statement_firsts(text))


def _statement_firsts(text: str) -> dict[int, int]:
    """For each line of a statement that spans more than one, the statement's first line."""
    firsts: dict[int, int] = {}
    for first, last, _ in python_statements(text):
        for line in range(first + 1, last + 1):
            firsts[line] = first
    return firsts


def python_statements(text: str) -> list[tuple[int, int, frozenset[int]]]:
    """Each logical line of ``text``: its first and last line, and the lines a comment may end
    (those whose end is no part of a string and follows no backslash)."""
    statements: list[tuple[int, int, frozenset[int]]] = []
    first: int | None = None
    free: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        kind = token.type
        if kind in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT):
            free.add(token.start[0])
        if kind in (tokenize.NL, tokenize.COMMENT) and first is None:
            continue  # a blank or comment-only line between statements
        if kind in (tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER):
            continue
        if first is None:
            first = token.start[0]
        if kind == tokenize.NEWLINE:
            statements.append((first, token.start[0], frozenset(free)))
            first, free = None, set()
    return statements


def text_suppression(text: str, suffix: str) -> Suppression:
    """The suppression comments of a text file of ``suffix`` (see the module's description)."""
    if not _may_hold(text):
        return NO_SUPPRESSION
    known = _known()
    lines: dict[int, frozenset[str]] = {}
    rows = text.splitlines()
    hashed = hash_comments(rows, suffix)
    for number, row in enumerate(rows, 1):
        marks: list[tuple[int, frozenset[str] | None]] = []
        start = hashed.comment(number)
        if start is not None and suffix in INI_SUFFIXES:  # a whole line: it speaks of the next
            marks.append((number + 1, rules_of("#" + row[start:].lstrip()[1:], known)))
        elif start is not None:
            marks.append((number, rules_of(row[start:], known)))
        if suffix == ".md":
            for match in _MD_COMMENT.finditer(row):
                rules = rules_of(match[1], known)
                marks += [(number, rules), (number + 1, rules)]
        elif suffix == ".rst":
            comment = _RST_COMMENT.match(row)
            if comment:
                marks.append((number + 1, rules_of(comment[1], known)))
        for where, rules in marks:
            if rules is not None:
                lines[where] = lines.get(where, frozenset()) | rules
    if not lines:
        return NO_SUPPRESSION
    firsts: dict[int, int] = {}
    if suffix in _SHELL_SUFFIXES:
        # a continued command takes its comment on its last line: map each line to that one
        start = None
        for number, row in enumerate(rows, 1):
            if row.endswith("\\"):
                start = number if start is None else start
                continue
            if start is not None:
                for line in range(start, number):
                    firsts[line] = number
                start = None
    return Suppression(lines, firsts)


def unsuppressed_text(text: str, suffix: str, findings: Iterable[Finding]) -> list[Finding]:
    """The ``findings`` of the text file ``text`` (of ``suffix``) that its comments leave reported:
    those applied (a document's Python fixes read their block's own comments), and those no
    comment covers. The Python fixer's findings in a Markdown or reStructuredText Python block
    were judged by the block's comments, as Python's tokenizer reads them, and are kept: a
    ``# noqa`` inside one of its strings is no comment."""
    findings = list(findings)
    suppressed = text_suppression(text, suffix)
    if not suppressed:
        return findings
    in_blocks = _python_block_lines(text, suffix) if suffix in (".md", ".rst") else frozenset()
    return [
        f
        for f in findings
        if f.applied or (f.rule != "text-target" and f.line in in_blocks) or not suppressed.covers(f.line, f.rule)
    ]


def _python_block_lines(text: str, suffix: str) -> frozenset[int]:
    """The lines (from 1) of a document's code blocks read as Python."""
    from ._document_blocks import blocks

    lines: set[int] = set()
    for block in blocks(text, suffix == ".md"):
        if block.python:
            first = text.count("\n", 0, block.start) + 1
            lines.update(range(first, first + text.count("\n", block.start, block.end) + 1))
    return frozenset(lines)


def suppression_for(text: str, suffix: str) -> Suppression:
    """The suppression of ``text``, read as Python for a suffix no text one."""
    if suffix in _HASH_SUFFIXES or suffix in (".md", ".rst", ".json"):
        return text_suppression(text, suffix) if suffix != ".json" else NO_SUPPRESSION
    return python_suppression(text)


def _merged(comment: str, rule: str) -> str | None:
    """``comment`` with ``rule`` added to the ``targetlang: ignore[...]`` it holds, or ``None``
    when it holds none (a bare one already covers the rule)."""
    match = _IGNORE.search(comment)
    if match is None:
        return None
    if match["rules"] is None:
        return comment
    rules = [name.strip() for name in match["rules"].split(",") if name.strip()]
    if rule not in rules:
        rules.append(rule)
    return comment[: match.start()] + f"targetlang: ignore[{','.join(rules)}]" + comment[match.end() :]


def _with_comment(row: str, rule: str, comment_at: int | None) -> str:
    """The line ``row`` (no line break), whose comment starts at ``comment_at`` if it has one,
    with a comment leaving ``rule`` alone at its end."""
    if comment_at is not None:
        merged = _merged(row[comment_at:], rule)
        if merged is not None:
            return row[:comment_at] + merged
    return f"{row.rstrip()}  # targetlang: ignore[{rule}]" if row.strip() else f"# targetlang: ignore[{rule}]"


def add_ignores(text: str, suffix: str, findings: Iterable[tuple[int, str]]) -> tuple[str, list[tuple[int, str]]]:
    """``text`` with a ``# targetlang: ignore[rule]`` comment for each ``(line, rule)`` of
    ``findings``, and those it cannot place (a Markdown, reStructuredText or JSON file; a Python
    line whose end is inside a string or after a backslash, in a statement whose first line is
    so too).

    Python's comment goes at the end of the finding's line where one may stand there, else at
    the end of its statement's first line; a ``targetlang: ignore[...]`` already there is merged
    with. A text file's goes at the end of the line (a shell command continued with backslashes:
    at the end of its last line), none on a line inside a multi-line string, a heredoc or a block
    scalar; an INI file's on a line of its own before the finding's."""
    wanted = sorted(set(findings))
    if not wanted:
        return text, []
    if suffix in INI_SUFFIXES:
        return _ini_ignores(text, wanted)
    if suffix == ".md":
        return _markdown_ignores(text, wanted)
    if suffix in _NO_PLACE:
        return text, wanted
    placed = _hash_places(text, suffix, wanted) if suffix in _HASH_SUFFIXES else _python_places(text, wanted)
    if placed is None:
        return text, wanted
    pieces, places, comments, unplaced = placed
    for line, rules in places.items():
        piece = pieces[line - 1]
        body = piece.rstrip("\r\n")
        for rule in rules:
            body = _with_comment(body, rule, comments.get(line))
            comments.setdefault(line, body.rindex("# targetlang"))
        pieces[line - 1] = body + piece[len(piece.rstrip("\r\n")) :]
    return "".join(pieces), unplaced


# The lines of a text, the rules whose comment goes at the end of each line, the column where a
# line's comment starts (if it has one), the findings no comment can be placed for.
_Places = tuple[list[str], dict[int, list[str]], dict[int, int], list[tuple[int, str]]]


def _hash_places(text: str, suffix: str, wanted: list[tuple[int, str]]) -> _Places:
    """Where the comments of ``wanted`` go in a text file whose comments start with ``#``."""
    places: dict[int, list[str]] = {}
    unplaced: list[tuple[int, str]] = []
    comments: dict[int, int] = {}
    pieces = text.splitlines(keepends=True)
    hashed = hash_comments([piece.rstrip("\r\n") for piece in pieces], suffix)
    for line, rule in wanted:
        target = line
        if suffix in _SHELL_SUFFIXES:
            while target <= len(pieces) and pieces[target - 1].rstrip("\r\n").endswith("\\"):
                target += 1
        if (
            1 <= target <= len(pieces)
            and not pieces[target - 1].rstrip("\r\n").endswith("\\")
            and target not in hashed.inside
            and line not in hashed.inside
        ):
            places.setdefault(target, []).append(rule)
        else:
            unplaced.append((line, rule))
    for line in places:
        start = hashed.comment(line)
        if start is not None:
            comments[line] = start
    return pieces, places, comments, unplaced


def _python_places(text: str, wanted: list[tuple[int, str]]) -> _Places | None:
    """Where the comments of ``wanted`` go in Python code (``None``: it does not tokenize)."""
    places: dict[int, list[str]] = {}
    unplaced: list[tuple[int, str]] = []
    comments: dict[int, int] = {}
    pieces = python_lines(text)
    try:
        statements = python_statements(text)
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT:
                comments[token.start[0]] = token.start[1]
    except (tokenize.TokenError, SyntaxError):
        return None
    span = {line: statement for statement in statements for line in range(statement[0], statement[1] + 1)}
    for line, rule in wanted:
        statement = span.get(line)
        if statement is None and line in comments:
            # a comment's own line (a code block in a tutorial's comments): the marker after it,
            # where the block's code reads it too
            places.setdefault(line, []).append(rule)
        elif statement is None:
            unplaced.append((line, rule))
        elif line in statement[2]:
            places.setdefault(line, []).append(rule)
        elif statement[0] in statement[2]:
            places.setdefault(statement[0], []).append(rule)
        else:
            unplaced.append((line, rule))
    return pieces, places, comments, unplaced


def _ini_ignores(text: str, wanted: list[tuple[int, str]]) -> tuple[str, list[tuple[int, str]]]:
    """An INI text with a ``# targetlang: ignore[...]`` line before each finding's line (with its
    indentation), merged into one already there; configparser reads a comment after a value as
    part of the value."""
    pieces = text.splitlines(keepends=True)
    rules: dict[int, list[str]] = {}
    unplaced: list[tuple[int, str]] = []
    for line, rule in wanted:
        if 1 <= line <= len(pieces):
            rules.setdefault(line, []).append(rule)
        else:
            unplaced.append((line, rule))
    for line in sorted(rules, reverse=True):
        piece = pieces[line - 1]
        before = pieces[line - 2] if line > 1 else ""
        body = before.rstrip("\r\n")
        if line > 1 and body.lstrip().startswith("#") and _IGNORE.search(body):
            ending = before[len(body) :]
            for rule in rules[line]:
                merged = _merged(body, rule)
                body = merged if merged is not None else body
            pieces[line - 2] = body + ending
            continue
        ending = piece[len(piece.rstrip("\r\n")) :] or _line_break(text)
        indent = piece[: len(piece) - len(piece.lstrip(" \t"))]
        pieces.insert(line - 1, f"{indent}# targetlang: ignore[{','.join(rules[line])}]{ending}")
    return "".join(pieces), unplaced


def _markdown_ignores(text: str, wanted: list[tuple[int, str]]) -> tuple[str, list[tuple[int, str]]]:
    """A Markdown text with each finding's line marked: in a code block a ``#`` comment at its end
    (a shell, a config or Python line, where the line is no string's or heredoc's inside), in
    prose an HTML comment at its end, ``<!-- targetlang: ignore[rule] -->``, which no reader sees
    and which, unlike a line of its own, does not break its paragraph in two."""
    from ._document_blocks import blocks

    pieces = text.splitlines(keepends=True)
    code: set[int] = set()
    for block in blocks(text, True):
        first = text.count("\n", 0, block.start) + 1
        code.update(range(first, first + text.count("\n", block.start, block.end)))
    hashed = hash_comments([piece.rstrip("\r\n") for piece in pieces], ".sh")
    places: dict[int, list[str]] = {}
    unplaced: list[tuple[int, str]] = []
    for line, rule in wanted:
        if not 1 <= line <= len(pieces) or (line in code and line in hashed.inside):
            unplaced.append((line, rule))
        else:
            places.setdefault(line, []).append(rule)
    for line, rules in places.items():
        piece = pieces[line - 1]
        body = piece.rstrip("\r\n")
        if line in code:
            comment_at = hashed.comment(line)
            for rule in rules:
                body = _with_comment(body, rule, comment_at)
                comment_at = body.rindex("# targetlang")
        else:
            body += f" <!-- targetlang: ignore[{','.join(rules)}] -->"
        pieces[line - 1] = body + piece[len(piece.rstrip("\r\n")) :]
    return "".join(pieces), unplaced


def _line_break(text: str) -> str:
    found = re.search(r"\r\n|\r|\n", text)
    return found[0] if found else "\n"


def ignore_remaining(result: FixResult, suffix: str, refix: Callable[[str], FixResult]) -> tuple[str, list[Finding]]:
    """``--add-ignore``: ``result``'s text (the fixes ``--write`` applies) with a comment leaving
    alone each finding left in it, and the findings to report: those applied, and those left
    that no comment could be placed for. ``refix`` fixes a text again, as ``result`` was made:
    what is left is found again in the fixed text, where its lines are."""
    text = result.text
    applied = [f for f in result.findings if f.applied]
    current = result
    if applied:  # the fixed text's own lines: found again in it
        for _ in range(_MAX_REFIXES):
            current = refix(text)
            again = [f for f in current.findings if f.applied]
            applied += again
            text = current.text
            if not again:
                break
    remaining = [f for f in current.findings if not f.applied]
    placed = [(f.line, f.rule) for f in remaining if f.cell is None]
    text, unplaced = add_ignores(text, suffix, placed)
    missed = set(unplaced)
    left = [
        replace(f, message=f"{f.message}; --add-ignore found no place for a comment here")
        for f in remaining
        if f.cell is not None or (f.line, f.rule) in missed
    ]
    return text, applied + left


_MAX_REFIXES = 3  # Python's fixes reach their fixed point in fix_source itself: one more is a check
