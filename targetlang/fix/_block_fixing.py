"""The Python code blocks of a document, each given to the Python fixer (``fix_block``) and its
fix put back where the block stands: under its indent, or under a session's prompts (the
expected output left as it is). A block that does not parse as Python is left to be read as
text; without LibCST a Python block is read as text too, for the strings that are targets."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from ..errors import SourceSyntaxError
from ._diff import lines, opcodes
from ._document_blocks import CODE_PROMPT, Block, Session, blocks, session
from ._findings import Finding, UseSite
from ._ipython import mask, unmask
from ._text_place import Lines

__all__ = ["DocumentCode", "FixBlock", "fix_document", "moved"]

FixBlock = Callable[[str, int], tuple[str, list[Finding]]]
"""The Python fixer for a block: its code and the line (from 1) it starts on, to the fixed code
and the findings."""


@dataclass
class DocumentCode:
    """What :func:`fix_document` made of a document: its ``text`` with the fixes, the
    ``findings`` of its Python blocks, the spans read as Python (``python``), the blocks of a
    configuration format (``config``), and the Python blocks read as text, LibCST missing
    (``unread``)."""

    text: str
    findings: list[Finding] = field(default_factory=list)
    python: list[tuple[int, int]] = field(default_factory=list)
    config: list[Block] = field(default_factory=list)
    unread: list[tuple[int, int]] = field(default_factory=list)


def moved(finding: Finding, where: Callable[[int, int], tuple[int, int]]) -> Finding:
    """``finding`` with its place, and its uses' places, moved by ``where`` (line, column to line,
    column)."""
    line, column = where(finding.line, finding.column)
    reason, message = finding.reason, finding.message
    said = _AT_LINE.match(reason) if reason is not None else None
    if reason is not None and said is not None:  # the use that makes it unsafe, named by its line
        moved_reason = f"at line {where(int(said[1]), 1)[0]}, {reason[said.end() :]}"
        message = message.replace(f"not safe: {reason}", f"not safe: {moved_reason}")
        reason = moved_reason
    return dataclasses.replace(
        finding,
        line=line,
        column=column,
        reason=reason,
        message=message,
        uses=tuple(_moved_use(u, where) for u in finding.uses),
    )


_AT_LINE = re.compile(r"at line (\d+), ")  # how the rewriter names the use that keeps a fix unsafe


def _moved_use(use: UseSite, where: Callable[[int, int], tuple[int, int]]) -> UseSite:
    line, column = where(use.line, use.column)
    return dataclasses.replace(use, line=line, column=column)


def fix_document(
    text: str, markdown: bool, fix_block: FixBlock | None, lines: Lines, line_offset: int = 0
) -> DocumentCode:
    """The Python blocks of a Markdown (``markdown``) or reStructuredText ``text`` fixed by
    ``fix_block`` (``None``: none read as Python); the lines of its findings are those of
    ``text`` plus ``line_offset`` (the lines of the file it stands in)."""
    result = DocumentCode(text)
    pieces: list[str] = []
    done = 0
    missing = False
    for block in blocks(text, markdown):
        if block.config:
            result.config.append(block)
            continue
        if fix_block is None or not block.python:
            continue
        if missing:
            if block.language:  # named Python: its strings are read as text
                result.unread.append((block.start, block.end))
            continue
        try:
            fixed, found = (_session if block.session else _plain)(text, block, fix_block, lines, line_offset)
        except SourceSyntaxError:
            continue  # a console session or a fragment: read as text
        except ImportError:
            missing = True
            if block.language:
                result.unread.append((block.start, block.end))
            continue
        result.python.append((block.start, block.end))
        result.findings.extend(found)
        if fixed != text[block.start : block.end]:
            pieces += [text[done : block.start], fixed]
            done = block.end
    pieces.append(text[done:])
    result.text = "".join(pieces)
    return result


def _plain(text: str, block: Block, fix_block: FixBlock, lines: Lines, offset: int) -> tuple[str, list[Finding]]:
    body = text[block.start : block.end]
    indent, code = _dedented(body)
    # a book made of notebooks (d2l's {.python .input} blocks) keeps their %matplotlib and !pip
    masked = mask(code)
    if masked is None:  # a cell magic of another language: no Python
        raise SourceSyntaxError("a block of another language's cell magic", code, 0, 0)
    fixed, found = fix_block(masked[0], lines.line_col(block.start)[0] + offset)
    restored = unmask(fixed, masked[1])
    if restored is None:  # a fix moved a masked line: the block's findings, none applied
        fixed = code
        found = [dataclasses.replace(f, applied=False) for f in found]
    else:
        fixed = restored
    shift = len(indent)
    found = [moved(f, lambda line, column: (line, column + shift)) for f in found] if shift else found
    if fixed == code:
        return body, found
    return _indented(fixed, indent), found


def _dedented(body: str) -> tuple[str, str]:
    """The indent the non-blank lines of ``body`` share, and ``body`` without it. Unlike
    ``textwrap.dedent``, a blank line stays as it is (spaces and all): the block is written back
    byte for byte where the fix does not change it."""
    rows = lines(body)  # at \n only, as Python reads the block
    indents = [row[: len(row) - len(row.lstrip(" \t"))] for row in rows if row.strip()]
    indent = min(indents, key=len) if indents else ""
    while indent and not all(each.startswith(indent) for each in indents):
        indent = indent[:-1]
    return indent, "".join(row[len(indent) :] if row.strip() else row for row in rows)


def _indented(code: str, indent: str) -> str:
    """``code`` with ``indent`` put back before each non-blank line (a blank one was kept whole)."""
    return "".join(indent + row if row.strip() else row for row in lines(code))


def _session(text: str, block: Block, fix_block: FixBlock, lines: Lines, offset: int) -> tuple[str, list[Finding]]:
    body = text[block.start : block.end]
    rows = [row[len(block.indent) :] if row.startswith(block.indent) else row for row in body.split("\n")]
    code = session("\n".join(rows))
    if not code.code.strip():
        raise SourceSyntaxError("no code", body, 0, 0)
    fixed, found = fix_block(code.code, 1)
    first = lines.line_col(block.start)[0] + offset
    indent = len(block.indent)

    def where(line: int, column: int) -> tuple[int, int]:
        if not 1 <= line <= len(code.lines):
            return first, column
        return first + code.lines[line - 1], column + indent + len(code.prompts[line - 1])

    found = [moved(f, where) for f in found]
    if fixed == code.code:
        return body, found
    written = _under_prompts(body.split("\n"), code, fixed, block.indent)
    if written is None:
        # a line added before the first statement (an import) or a change across expected output:
        # where the new lines go among the prompts is the author's
        note = " (the fix changes the session's lines: write it by hand)"
        return body, [dataclasses.replace(f, applied=False, message=f.message + note) for f in found]
    return written, found


def _continued(prompt: str) -> str:
    """The prompt of a statement's next line after ``prompt``: ``... ``, or IPython's ``...:``
    under ``In [n]:``."""
    stripped = prompt.lstrip(" \t")
    indent = prompt[: len(prompt) - len(stripped)]
    if stripped.startswith("In ["):
        return indent + " " * (len(stripped.rstrip()) - 4) + "...: "
    return indent + (stripped if stripped.startswith("...") else "... ")  # (after the first prompt)


def _under_prompts(rows: list[str], code: Session, fixed: str, indent: str) -> str | None:
    """``rows`` (a session's lines) with the code ``fixed`` in place of ``code``'s, each changed
    run of lines under the prompt of its first and continuation prompts after it; ``None`` when
    a run of changed lines spans expected output or none of the old lines."""
    old = code.code.split("\n")[:-1]
    new = fixed.split("\n")[:-1] if fixed.endswith("\n") else fixed.split("\n")
    out = list(rows)
    replaced: list[tuple[int, int, list[str]]] = []
    for tag, i1, i2, j1, j2 in opcodes(old, new):  # linear past a few thousand lines
        if tag == "equal":
            continue
        if i1 == i2 or code.lines[i2 - 1] - code.lines[i1] != i2 - 1 - i1:
            return None
        prompt = code.prompts[i1]
        if i2 - i1 == j2 - j1:  # each line changed in place: under its own prompt
            texts = [code.prompts[i1 + j - j1] + new[j] for j in range(j1, j2)]
        elif any(CODE_PROMPT.match(p.lstrip(" \t")) for p in code.prompts[i1 + 1 : i2]):
            return None  # lines of two statements made more or fewer: which prompt goes where is unknown
        else:
            texts = [(prompt if j == j1 else _continued(prompt)) + new[j] for j in range(j1, j2)]
        replaced.append((code.lines[i1], code.lines[i2 - 1] + 1, [indent + t if t.strip() else t for t in texts]))
    for start, stop, texts in reversed(replaced):
        out[start:stop] = texts
    return "\n".join(out)
