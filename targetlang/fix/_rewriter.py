"""The second of the two passes over a module: the rules' rewrite hooks replace the nodes they
fix, and every finding is recorded where it was found."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import libcst as cst

from .._registry import Registry
from .._versions import MODERN, RELEASES, Release
from ._convert import Conversion, convert
from ._diff import line_starts, python_lines
from ._findings import Finding, UseSite
from ._flow import Flow, Use
from ._layout import DEFAULT_LINE_LENGTH
from ._literal import render
from ._plugins import rewrite_hooks
from ._positions import Outline, Span, found_in_text, spans, starts
from ._rules import Safety
from ._suppress import NO_SUPPRESSION, Suppression
from ._survey import Survey

__all__ = ["Options", "Rewriter"]


@dataclass(frozen=True)
class Options:
    """What a run asks for: the file's name, the registry read with, whether unsafe fixes are
    applied, which rules run, whether tags are preferred; ``suppressed``: the findings the
    text's comments leave alone (``# targetlang: ignore``), by the text's own lines."""

    path: str
    registry: Registry | None
    unsafe: bool
    selected: Callable[[str], bool]
    prefer_tags: bool
    target_version: Release = RELEASES[str(MODERN)]
    first_line: int = 1
    line_length: int = DEFAULT_LINE_LENGTH
    suppressed: Suppression = NO_SUPPRESSION
    source: str = ""  # the whole file (a sparse view's): whether black formats it is asked of it
    check: bool = False  # the findings only: the fixed code is made only for a pass after
    # the classes and functions the whole module defines at its top level (a sparse view's
    # module elides those nothing reads)
    defined: frozenset[str] = frozenset()
    # a sparse view's: each line's in the whole text, given the text (Sparse.lines_in)
    lines_in: Callable[[str], Sequence[int]] | None = None
    # the text this pass reads and its top-level statements' lines (the first pass's: a later
    # one reads what the fixes made), where the findings are looked for before printing it
    outline: Outline | None = None


def _unparenthesized(node: cst.CSTNode) -> cst.CSTNode:
    """``node`` without the parentheses around it: a finding's place is where the node itself
    starts (LibCST's position), so what it found starts there too."""
    if isinstance(node, cst.BaseExpression) and node.lpar:
        return node.with_changes(lpar=(), rpar=())
    return node


def _word(char: str) -> bool:
    """``char`` would run into a name or keyword beside it."""
    return char.isalnum() or char == "_"


# What the visit keeps track of, per class of node (LibCST's bases are ABCs: isinstance is slow).
_OTHER, _STATEMENT, _FSTRING = 1, 2, 3
_TRACKED: dict[type, int] = {}


def _tracked(node: type) -> int:
    statement, fstring = issubclass(node, cst.BaseStatement), issubclass(node, cst.FormattedString)
    _TRACKED[node] = _STATEMENT if statement else _FSTRING if fstring else _OTHER
    return _TRACKED[node]


@dataclass(frozen=True)
class _Undo:
    """What a fix may change besides its node: to put back where it cannot be written."""

    findings: int  # how many findings there were before it
    need_json: bool
    need_target_import: bool
    replaced_imports: frozenset[tuple[str, str, str | None]]


class Rewriter(cst.CSTTransformer):
    """The second pass: replaces, bottom up, the nodes the rules' rewrite hooks fix, keeping
    every other byte of the source (comments, layout and quote style stay as they were), and
    records each finding with the node it was found at (placed in the text at the end)."""

    def __init__(self, module: cst.Module, survey: Survey, options: Options, flow: Flow) -> None:
        super().__init__()
        self.module = module
        self.survey = survey
        self.options = options
        self.flow = flow
        self.findings: list[Finding] = []  # placed at line 0 until placed() is called
        self.reported: list[cst.CSTNode] = []  # the node of each finding
        self.inserted: list[cst.CSTNode] = []  # each node a fix put in the tree
        self.need_json = False  # a fix wrote json.dumps(...)
        # the uses of each finding's value, and the one that keeps its fix from being safe
        self.uses: list[tuple[Sequence[Use], Use | None]] = []
        self.need_target_import = False
        self.wrote_code = False  # a fix put code alone in the tree (a WrittenCode: checking)
        self.replaced_imports: set[tuple[str, str, str | None]] = set()  # (module, name, alias)
        self.fstring_quotes: list[str] = []  # the quotes of the f-strings around the current node
        self._fstring_ends: list[str] = []  # and their closing quotes whole (''' or ')
        self._statements: list[cst.CSTNode] = []  # the statements around the current node
        self._read_later: set[int] = set()  # the findings whose text placed() reads in the code
        self._known_code: dict[int, tuple[cst.CSTNode, str]] = {}  # by id, a node parsed() made and its code
        # where the visit goes down: the survey's paths, and everything inside a marked node
        self._marked = survey.marked()
        self._paths = survey.paths(self._marked)
        self._inside = 0  # how many marked nodes the visit is inside

    # -- bookkeeping

    def on_visit(self, node: cst.CSTNode) -> bool:
        kind = _TRACKED.get(type(node)) or _tracked(type(node))
        if kind == _STATEMENT:
            self._statements.append(node)
        elif kind == _FSTRING:
            assert isinstance(node, cst.FormattedString)
            self.fstring_quotes.append(node.end[0])
            self._fstring_ends.append(node.end)
        key = id(node)
        if key in self._marked:
            self._inside += 1
            return True
        # nothing below to change, off the survey's paths (its leave hooks still see it, unchanged)
        return self._inside > 0 or key in self._paths

    # No field of a node is watched (no visit_<Node>_<field> method): LibCST's look for one, a
    # name formatted and looked up for every field of every node visited, is left out.
    def on_visit_attribute(self, node: cst.CSTNode, attribute: str) -> None:
        return None

    def on_leave_attribute(self, original_node: cst.CSTNode, attribute: str) -> None:
        return None

    def on_leave(self, original_node: cst.CSTNode, updated_node: cst.CSTNode) -> Any:
        kind = _TRACKED.get(type(original_node)) or _tracked(type(original_node))
        if kind == _STATEMENT:
            self._statements.pop()
        elif kind == _FSTRING:
            self.fstring_quotes.pop()
            self._fstring_ends.pop()
        if id(original_node) in self._marked:
            self._inside -= 1
        for hook in rewrite_hooks().get(type(original_node), ()):
            kept = self._side_effects() if self._fstring_ends else None
            result = hook(self, original_node, updated_node)
            if result is not updated_node:
                if kept is not None and not self._fits_fstring(self.code(result)):
                    self._withdraw(kept)
                    return updated_node
                bare = isinstance(result, cst.BaseExpression) and not result.lpar
                if bare and self._abuts_a_word(original_node, result):
                    result = result.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
                self.inserted.append(result)
                return result  # one rule fixes a node
        return updated_node

    def _abuts_a_word(self, original: cst.CSTNode, result: cst.CSTNode) -> bool:
        """Whether ``result``, in place of ``original``, would touch a keyword or name beside it
        (``return(t).arch``, ``return"..." % x`` fixed to a call): a word where the original had
        a bracket or quote, and a word in its statement just there."""
        if isinstance(result, (cst.Dict, cst.List, cst.Tuple, cst.Set)):
            return False  # a bracket (or a parenthesis) at each end
        after = self.code(result)
        if not (_word(after[:1]) or _word(after[-1:])):
            return False
        before = self.code(original)
        starts, ends = _word(after[:1]) and not _word(before[:1]), _word(after[-1:]) and not _word(before[-1:])
        if not (starts or ends) or not self._statements:
            return False
        statement = self.code(self._statements[-1])
        at = statement.find(before)
        while at >= 0:  # (each place the statement holds that text: rare, and any one is enough)
            if (starts and _word(statement[at - 1 : at])) or (ends and _word(statement[at + len(before) :][:1])):
                return True
            at = statement.find(before, at + 1)
        return False

    # -- inside an f-string's braces

    def _fits_fstring(self, code: str) -> bool:
        """Whether ``code`` may stand between the braces of the f-strings around (before Python
        3.12, PEP 701: no backslash, no quote of an f-string around, no line break in a
        single-quoted one)."""
        if "\\" in code:
            return False
        for end in self._fstring_ends:
            if end in code or (len(end) == 1 and ("\n" in code or "\r" in code)):
                return False
        return True

    def _side_effects(self) -> _Undo:
        return _Undo(len(self.findings), self.need_json, self.need_target_import, frozenset(self.replaced_imports))

    def _withdraw(self, undo: _Undo) -> None:
        """The fix a hook made cannot be written where it stands: its findings are reported, with
        what to write, and nothing of it is applied (nor an import it needed)."""
        self.need_json, self.need_target_import = undo.need_json, undo.need_target_import
        self.replaced_imports = set(undo.replaced_imports)
        for index in range(undo.findings, len(self.findings)):
            finding = self.findings[index]
            if finding.applied:
                self.findings[index] = dataclasses.replace(
                    finding,
                    safety="report-only",
                    applied=False,
                    message=f"{finding.message}; inside an f-string's braces, where Python before 3.12 reads no "
                    "backslash and no quote of the f-string: write it by hand (or bind it to a name first)",
                )

    def code(self, node: cst.CSTNode) -> str:
        return self.module.code_for_node(node)

    def report(
        self,
        original: cst.CSTNode,
        rule: str,
        message: str,
        after: str | None,
        safety: Safety,
        changes: Sequence[str] = (),
        uses: Sequence[Use] = (),
        blocker: Use | None = None,
    ) -> bool:
        """Record a finding (with the uses of its value, and the use that makes it unsafe);
        whether to apply it. A finding its line's comment suppresses is neither recorded nor
        applied."""
        if self.options.suppressed and self._suppressed(original, rule):
            return False
        apply = (
            after is not None
            and self.options.selected(rule)
            and (safety == "safe" or (safety == "unsafe" and self.options.unsafe))
        )
        if not self.options.selected(rule):
            return False
        # an expression's text is read where it stands once they are all placed (placed(), which
        # prints the module once, where printing each found node would cost as much again)
        read_later = isinstance(original, cst.BaseExpression)
        self.findings.append(
            Finding(
                self.options.path,
                0,
                0,
                rule,
                message,
                "" if read_later else self.code(_unparenthesized(original)),
                after,
                safety,
                apply,
                tuple(changes),
            )
        )
        self.reported.append(original)
        self.uses.append((uses, blocker))
        if read_later:
            self._read_later.add(len(self.findings) - 1)
        return apply

    def _suppressed(self, node: cst.CSTNode, rule: str) -> bool:
        # a file with suppression comments only: its node's line costs a printing of the module
        line, _ = starts(self.module, [node])[node]
        return self.options.suppressed.covers(line, rule)

    def placed(self) -> list[Finding]:
        """The findings, each at the line and column where its node starts (found at once, for
        all of them: see :mod:`._positions`), with the uses of its value where they are."""
        wanted = set(self.reported)
        wanted.update(use.node for uses, _ in self.uses for use in uses)
        outline = self.options.outline
        in_text = found_in_text(self.module, wanted, outline, self.survey.parents) if outline is not None else {}
        found: dict[cst.CSTNode, Span] = {node: span for node, (span, _) in in_text.items()}
        rest = wanted.difference(found)
        code = outline.text if outline is not None else ""
        if rest:  # placed by printing the module
            printed, code = spans(self.module, rest)
            found.update(printed)
        shift = self.options.first_line - 1  # a code block of a document: its lines are the document's
        # a sparse view's lines: their numbers in the whole text
        whole = self.options.lines_in(code) if self.options.lines_in is not None else None
        where = {
            node: ((line if whole is None else whole[line]) + shift, column)
            for node, ((line, column), _) in found.items()
        }
        offsets = line_starts(python_lines(code)) if self._read_later and rest else []
        placed = []
        for index, (finding, node, (uses, blocker)) in enumerate(
            zip(self.findings, self.reported, self.uses, strict=True)
        ):
            if index in self._read_later:
                if node in in_text:
                    before = in_text[node][1]
                else:
                    (first, start), (last, end) = found[node]
                    before = code[offsets[first - 1] + start : offsets[last - 1] + end]
                finding = dataclasses.replace(finding, before=before)
            sites = tuple(UseSite(where[u.node][0], where[u.node][1] + 1, u.kind, u.what) for u in uses)
            reason = None
            message = finding.message
            if blocker is not None:
                reason = f"at line {where[blocker.node][0]}, {blocker.what}"
                if finding.safety == "unsafe":
                    message += f"; not safe: {reason}"
            placed.append(
                dataclasses.replace(
                    finding,
                    line=where[node][0],
                    column=where[node][1] + 1,
                    message=message,
                    reason=reason,
                    uses=sites,
                )
            )
        return placed

    @staticmethod
    def parens(new: cst.BaseExpression, old: cst.BaseExpression) -> cst.BaseExpression:
        if old.lpar and not new.lpar:
            return new.with_changes(lpar=old.lpar, rpar=old.rpar)
        return new

    def parsed(
        self, written: str, old: cst.BaseExpression, made: cst.BaseExpression | None = None
    ) -> cst.BaseExpression:
        """The node of the code ``written`` in place of ``old`` (in its parentheses), which
        :meth:`written_code` knows the code of without printing it; ``made``: that node, made
        without parsing (:func:`._literal_node.literal_node`)."""
        node = self.parens(made if made is not None else cst.parse_expression(written), old)
        if not node.lpar:
            # (the node kept with its code: one a fix then drops, withdrawn or put in parentheses,
            # must not leave its id to a node made after it)
            self._known_code[id(node)] = (node, written)
        return node

    def written_code(self, module: cst.Module) -> Iterator[str]:
        """The code of each node the fixes put in the tree, ``module`` the fixed one."""
        for node in self.inserted:
            known = self._known_code.get(id(node))
            if known is not None and known[0] is node:
                yield known[1]
            elif isinstance(node, cst.CSTNode):  # (not a FlattenSentinel: statements a fix split)
                yield module.code_for_node(node)

    def written(self, conversion: Conversion, quote: str, exprs: Sequence[str] = ()) -> str | None:
        if conversion.tag is not None:
            return quote + conversion.tag + quote
        return render(conversion.config, quote, exprs)

    def convert(self, text: str, hint: str | None = None) -> Conversion:
        to = str(self.options.target_version)
        return convert(text, self.options.registry, hint, self.options.prefer_tags, to)

    def target_name(self) -> str:
        """The code that names ``tvm.target.Target`` in this module (imported if it must be)."""
        aliases = self.survey.aliases
        for local, full in aliases.items():
            if full in ("tvm.target.Target", "tvm.target.target.Target"):
                return local
        for local, full in aliases.items():
            if full == "tvm":
                return f"{local}.target.Target"
        self.need_target_import = True
        return "Target"

    def constructor(self, func: cst.BaseExpression, suffix: str) -> str:
        """The code that names ``Target`` where ``func`` (a helper or ``Target.canon_*``) was."""
        name = self.code(func)
        if suffix and name.endswith("." + suffix):
            return name[: -len(suffix) - 1]
        if "." in name:
            return name.rsplit(".", 1)[0] + ".Target"
        if self.survey.aliases.get("Target", "").rsplit(".", 1)[-1] != "Target":
            self.need_target_import = True
        if isinstance(func, cst.Name):  # imported by name: the import may be left unused
            module, _, name = self.survey.aliases.get(func.value, "").rpartition(".")
            if module:
                self.replaced_imports.add((module, name, func.value if func.value != name else None))
        return "Target"
