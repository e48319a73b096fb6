"""``text-target``: legacy targets in files that are not Python: shell scripts, documents,
configuration.

Only target positions are looked at (:mod:`.._shell_text` and :mod:`.._config_text` say which).
What is found is reported with the JSON to write there, quoted for where it stands (report-only:
the quoting rules of a document or a config format are the author's). The Python code blocks of
Markdown and reStructuredText (:mod:`.._document_blocks`) are given to the Python fixer instead
when ``fix_block`` is passed, and so is the code of a ``python -c`` (reported only).
"""

from __future__ import annotations

import bisect
import itertools
import json
import re
from collections.abc import Callable, Iterable

from ..._registry import Registry
from ..._versions import MODERN
from ...errors import SourceSyntaxError
from .._block_fixing import FixBlock, fix_document
from .._config_text import FORMATS
from .._config_text import places as config_places
from .._convert import convert, known_kind, options_of
from .._findings import Finding
from .._literal import render
from .._shell_text import places as shell_places
from .._shell_text import python_code
from .._text_place import Lines, Place, quoted

__all__ = ["FixBlock", "fix_text"]

_SHELL_SUFFIXES = frozenset({".sh", ".bash"})
_DOCUMENT_SUFFIXES = {".md": True, ".rst": False}  # (Markdown?)
_PYTHON_STRING = re.compile(r"\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'")
_NO_LIBCST = " (LibCST would fix this Python: pip install 'targetlang[fix]')"
_PYTHON_C = " (in the code of a python -c: write it there)"
_DOCS_NOTE = " (--docs fixes it)"


def _outside(blocks: list[tuple[int, int]]) -> Callable[[int], bool]:
    """Whether an offset is in none of ``blocks`` (spans ``(start, end)``): a binary search, not a
    look at every block for every offset."""
    blocks = sorted(blocks)
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
    to: str = str(MODERN),
) -> tuple[str, list[Finding]]:
    """``text`` with its Python blocks fixed (when ``fix_block``), and every finding; a target is
    written for modern release ``to``."""
    suffix = path[path.rfind(".") :].lower() if "." in path else ""
    lines = Lines(text)
    fixed = text
    findings: list[Finding] = []
    found: list[Place] = []
    form = FORMATS.get(suffix)
    if suffix in _DOCUMENT_SUFFIXES:
        document = fix_document(text, _DOCUMENT_SUFFIXES[suffix], fix_block, lines)
        fixed = document.text
        findings += document.findings
        outside = _outside(document.python + document.unread)
        found += (place for place in shell_places(text) if outside(place.start))
        for block in document.config:
            found += _shifted(config_places(text[block.start : block.end], FORMATS[block.language]), block.start)
        unread = [_string_place(text, match) for start, end in document.unread for match in _strings(text, start, end)]
        found += unread
        codes: Callable[[int], bool] | None = outside
    elif form is not None:
        found += config_places(text, form)
        found += (place for place in shell_places(text, assignments=False) if place.head.startswith("-"))
        unread, codes = [], None
    else:
        found += shell_places(text)
        unread, codes = [], _anywhere if suffix in _SHELL_SUFFIXES or suffix == ".txt" else None
    if selected("text-target"):
        unread_starts = {place.start for place in unread}
        reach = 0  # the end of the furthest place reported: one that starts before it overlaps it
        for place in sorted(found, key=lambda p: (p.start, -p.end)):
            if place.start < reach:
                continue
            finding = _reported(text, place, path, registry, lines, to)
            if finding is not None:
                if place.start in unread_starts:
                    finding = _unread(finding)
                findings.append(finding)
                reach = place.end
    if fix_block is not None and codes is not None:
        findings += _python_c(text, codes, path, fix_block, lines)
    findings.sort(key=lambda f: (f.line, f.column))
    return fixed, findings


def _shifted(places: Iterable[Place], by: int) -> list[Place]:
    return [Place(p.start + by, p.end + by, p.head, p.value, p.stood, p.quoting, p.named, p.many) for p in places]


def _strings(text: str, start: int, end: int) -> Iterable[re.Match[str]]:
    return _PYTHON_STRING.finditer(text, start, end)


def _string_place(text: str, match: re.Match[str]) -> Place:
    """A Python string of a block LibCST would have read: a target if it reads as one."""
    value = match[0]
    return Place(match.start(), match.end(), "", value[1:-1], value, "like", False)


def _unread(finding: Finding) -> Finding:
    """A finding of a Python block read as text: the dict to write in Python's own words."""
    config = json.loads(finding.after[1:-1]) if finding.after and finding.after[0] in "'\"" else None
    after = render(config, '"') if isinstance(config, dict) else finding.after
    return Finding(
        finding.path,
        finding.line,
        finding.column,
        "text-target",
        finding.message + _NO_LIBCST,
        finding.before,
        after,
        "report-only",
        False,
        finding.changes,
        in_document=True,
    )


def _reported(
    text: str, place: Place, path: str, registry: Registry | None, lines: Lines, to: str
) -> Finding | None:
    before = text[place.start : place.end]
    targets = place.value.split(";") if place.many else [place.value]
    written: list[str] = []
    messages: list[str] = []
    rules: list[str] = []
    legacy = False
    for target in targets:
        words = options_of(target)
        if words is None or not known_kind(words[0], registry):
            written.append(target)
            continue
        conversion = convert(target, registry, to=to)
        if conversion.config is None and not place.named:
            return None  # not where a target must stand, and it does not read as one
        legacy = True
        rules += conversion.rule_ids
        messages.append(conversion.message)
        if conversion.config is None:
            return _finding(lines, place.start, before, path, conversion.message, None, tuple(rules))
        written.append(json.dumps(conversion.config) if conversion.tag is None else conversion.tag)
    if not legacy:
        return None
    after = place.head + quoted(";".join(written), place)
    message = "; ".join(dict.fromkeys(messages)) + " (write the JSON; TVM >= 0.24 reads no other form)"
    return _finding(lines, place.start, before, path, message, after, tuple(dict.fromkeys(rules)))


def _finding(
    lines: Lines, start: int, before: str, path: str, message: str, after: str | None, rules: tuple[str, ...]
) -> Finding:
    line, column = lines.line_col(start)
    return Finding(path, line, column, "text-target", message, before, after, "report-only", False, rules)


def _anywhere(offset: int) -> bool:
    return True


def _python_c(
    text: str, looked_at: Callable[[int], bool], path: str, fix_block: FixBlock, lines: Lines
) -> list[Finding]:
    """The Python fixer's findings in the code of each ``python -c`` where ``looked_at``:
    reported with the fix as it is to be written inside the argument's quotes, never applied (a
    shell word is no Python file)."""
    findings: list[Finding] = []
    for piece in python_code(text):
        if not piece.offsets or not looked_at(piece.offsets[0]):
            continue
        if "-" not in piece.code:
            continue  # no option: no legacy target in it
        try:
            _, found = fix_block(piece.code, 1)
        except (SourceSyntaxError, ImportError):
            continue
        code_lines = Lines(piece.code)
        for each in found:
            at = code_lines.offset(each.line, each.column)
            stop = min(at + len(each.before), len(piece.offsets) - 1)
            if not 0 <= at < len(piece.offsets):
                continue
            start, end = piece.offsets[at], piece.offsets[stop]
            line, column = lines.line_col(start)
            message = each.message.removesuffix(_DOCS_NOTE) + _PYTHON_C
            after = piece.escaped(each.after) if each.after is not None else None
            findings.append(
                Finding(
                    path,
                    line,
                    column,
                    each.rule,
                    message,
                    text[start:end],
                    after,
                    "report-only",
                    False,
                    each.changes,
                    each.reason,
                )
            )
    return findings
