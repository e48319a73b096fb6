"""``targetlang fix``: rewrite the legacy targets of whole source trees into what TVM 0.27 reads.

>>> from targetlang.fix import fix_source
>>> result = fix_source('tgt = Target("cuda -arch=sm_80")\\n', path="a.py")
>>> print(result.text, end="")
tgt = Target({"kind": "cuda", "arch": "sm_80"})
>>> [finding.rule for finding in result.findings]
['target-string']

Python is rewritten through LibCST (``pip install 'targetlang[fix]'``), keeping every other byte.
Other text files (shell scripts, Markdown, reStructuredText, configuration) are only reported,
and read without LibCST, except the Python code blocks of documents (and of a Python file's
comments, a sphinx-gallery tutorial's) with ``docs=True``. The rules are
:data:`RULES`; ``docs/fix.md`` describes each.
"""

from __future__ import annotations

import functools
import importlib
import re
from collections.abc import Callable, Collection
from dataclasses import replace
from pathlib import PurePath

from .._registry import Registry
from .._signals import signals_held
from .._versions import DISTRIBUTIONS, distribution_release
from ._apis import DEFAULT_TABLE, TARGET_APIS, ApiTable, TargetApi, parse_api
from ._findings import Finding, FixResult, UseSite
from ._rules import RULES, Rule, Safety

__all__ = [
    "NOTEBOOK_SUFFIXES",
    "PYTHON_SUFFIXES",
    "RULES",
    "TARGET_APIS",
    "TARGET_VERSIONS",
    "TEXT_SUFFIXES",
    "Finding",
    "FixResult",
    "Rule",
    "Safety",
    "TargetApi",
    "UseSite",
    "fix_source",
    "parse_api",
]

PYTHON_SUFFIXES = frozenset({".py", ".pyi"})
TARGET_VERSIONS = DISTRIBUTIONS
"""The target distributions fixed code may be meant for (``--target-version``): the named ones
(``"tirx-0.1"``: TVM TIRx), then the TVM releases after the last that read legacy strings, the
newest last (the default)."""
TEXT_SUFFIXES = frozenset({".sh", ".bash", ".md", ".rst", ".txt", ".toml", ".yaml", ".yml", ".json", ".cfg", ".ini"})
NOTEBOOK_SUFFIXES = frozenset({".ipynb"})
"""Jupyter notebooks: the Python of their code cells is fixed, every other byte kept."""

_INSTALL_HINT = "targetlang fix rewrites Python with LibCST: pip install 'targetlang[fix]'"


def _selector(select: Collection[str] | None, ignore: Collection[str]) -> Callable[[str], bool]:
    for rule in [*(select or ()), *ignore]:
        if rule not in RULES:
            raise ValueError(f"unknown rule {rule!r}; the rules are {', '.join(RULES)}")
    chosen = frozenset(RULES if select is None else select) - frozenset(ignore)
    return chosen.__contains__


def fix_source(
    text: str,
    *,
    path: str | None = None,
    registry: Registry | None = None,
    unsafe: bool = False,
    select: Collection[str] | None = None,
    ignore: Collection[str] = (),
    prefer_tags: bool = False,
    docs: bool = False,
    target_apis: Collection[TargetApi] = (),
    target_version: str = TARGET_VERSIONS[-1],
    line_length: int | None = None,
    check: bool = False,
) -> FixResult:
    """Find the legacy targets in ``text`` and fix what can be fixed.

    ``path`` says what the text is by its suffix (one of :data:`TEXT_SUFFIXES`, else Python)
    and names it in the findings. Safe fixes are applied, unsafe ones too with ``unsafe``; report-only findings never.
    ``select``/``ignore`` take rule ids of :data:`RULES`. ``registry`` adds user kinds (a fork's
    ``hip``); ``prefer_tags`` writes a TVM 0.27 tag where one is provably equal and names the
    target's own model. The Python code blocks of Markdown and reStructuredText (and those in the
    comments of a Python file) are reported, and fixed with ``docs``. ``target_apis`` are APIs
    of the user's that take a target, beside
    :data:`TARGET_APIS` (:func:`parse_api` reads them as ``--target-api`` does).
    ``target_version`` is the TVM release the fixed code will run on (one of
    :data:`TARGET_VERSIONS`, ``"tirx-0.1"`` for TVM TIRx): from 0.25 on, and in TIRx, a
    ``Target`` reads its attributes again, and a removed property is fixed only where it still
    behaves otherwise. A written target that makes its line longer than ``line_length``
    (default: the project's, ``[tool.ruff]`` or ``[tool.black]`` ``line-length`` of the
    ``pyproject.toml`` above ``path``, else 88) is split
    over lines, by black where black leaves the file as it is; ``0`` leaves the lines as the
    fixes wrote them (what ``--check`` and ``--json`` do, which show no text). With ``check``
    the findings alone are made, as ``--check`` shows them, not the fixed Python: the result's
    ``text`` is the source and its ``would_change`` says whether the fixes would change it.
    A Jupyter notebook (:data:`NOTEBOOK_SUFFIXES`) has the Python of its code cells fixed and
    every other byte kept; its findings name their ``cell``, and a cell that does not parse is
    left alone with a line of :attr:`FixResult.errors`.
    Raises :class:`~targetlang.SourceSyntaxError` for Python that does not parse (or a notebook
    that is not nbformat 4 JSON), and
    ``ImportError`` (saying how to install it) when LibCST is missing.
    """
    selected = _selector(select, ignore)
    table = _table(tuple(target_apis))
    if target_version not in TARGET_VERSIONS:
        raise ValueError(f"target_version is one of {', '.join(TARGET_VERSIONS)}, not {target_version!r}")
    runs_on = distribution_release(target_version)
    name = path if path is not None else "<string>"
    suffix = PurePath(path).suffix.lower() if path is not None else ".py"

    def python_of(code: str, first_line: int = 1, check: bool = False) -> tuple[str | None, list[Finding]]:
        # LibCST is imported for the first code that needs it: a shell script or a config never
        # does, nor Python that holds nothing the rules look for (most files of a tree)
        from ._python_syntax import may_need_fixing

        read = may_need_fixing(code, name, registry, table)
        if read is False:
            return code, []
        return _python_fixer()(
            code,
            path=name,
            registry=registry,
            unsafe=unsafe,
            selected=selected,
            prefer_tags=prefer_tags,
            first_line=first_line,
            table=table,
            target_version=runs_on,
            line_length=line_length,
            reading=read if read is not True else None,
            check=check,
        )

    def python(code: str, first_line: int = 1) -> tuple[str, list[Finding]]:
        fixed, found = python_of(code, first_line)
        assert fixed is not None  # (None only when checking)
        return fixed, found

    if suffix in NOTEBOOK_SUFFIXES:
        # never read as Python (its JSON would be a dict, its targets in metadata rewritten):
        # the code cells are fixed as a .py file is, and every other byte is kept
        with signals_held():  # (as in _python_fixer)
            from ._notebook import fix_notebook

        _python_fixer()  # (LibCST missing: said before any cell)
        cell_errors: list[str] = []
        fixed, findings = fix_notebook(text, python, path=name, errors=cell_errors)
        return _result(text, fixed, findings, check, tuple(cell_errors))

    def fix_block(block: str, line: int) -> tuple[str, list[Finding]]:
        fixed, found = python(block, line)
        if docs:
            return fixed, found
        # reported, not applied: a document's code is changed only when asked (--docs)
        return block, [
            replace(f, applied=False, message=f"{f.message} (--docs fixes it)", in_document=True) for f in found
        ]

    if suffix not in TEXT_SUFFIXES:
        made, findings = python_of(text, check=check)
        fixed = text if made is None else made  # (None: check, and the fixes change the Python)
        if _commented_block(text):
            with signals_held():  # (as in _python_fixer)
                from ._comment_blocks import fix_comments

            # a sphinx-gallery tutorial's examples, in .. code-block:: of its comments
            fixed, in_comments = fix_comments(text, fixed, fix_block)
            if in_comments:
                findings = sorted([*findings, *in_comments], key=lambda f: (f.line, f.column))
        return _result(text, fixed, findings, check, changed=made is None)
    with signals_held():  # (as in _python_fixer: a rule's module made as the stops arrive)
        from ._suppress import unsuppressed_text
        from .rules.text_target import fix_text

    fixed, findings = fix_text(
        text, path=name, registry=registry, selected=selected, fix_block=fix_block, to=str(runs_on)
    )
    # a code block's Python findings were judged by its own comments; the rest by the file's
    findings = unsuppressed_text(text, suffix, findings)
    return _result(text, fixed, findings, check)


def _result(
    source: str, fixed: str, findings: list[Finding], check: bool, errors: tuple[str, ...] = (), changed: bool = False
) -> FixResult:
    """What ``fix_source`` gives: checking, the source as the text (``changed``: the fixes
    change it, whatever ``fixed`` says)."""
    if check:
        return FixResult(source, source, tuple(findings), errors, would_change=changed or fixed != source)
    return FixResult(source, fixed, tuple(findings), errors)


def _commented_block(text: str) -> bool:
    """Whether a comment line holds a block's marker (_comment_blocks._MARKERS): the only comments
    it reads. (Each ``#`` is looked at, then its line; an expression that starts at every line
    took six times as long, as long as the prefilter's patterns together.)"""
    for found in _MARKED_COMMENT.finditer(text):
        start = text.rfind("\n", 0, found.start()) + 1
        if not text[start : found.start()].strip(" \t"):  # (the line's first character but blanks)
            return True
    return False


_MARKED_COMMENT = re.compile(r"#[^\n]*?(?:code-block|::|```)")


@functools.lru_cache(maxsize=8)
def _table(extra: tuple[TargetApi, ...]) -> ApiTable:
    return DEFAULT_TABLE.with_rows(extra) if extra else DEFAULT_TABLE


def _python_fixer() -> Callable[..., tuple[str | None, list[Finding]]]:
    # the stops held while LibCST and its native parser initialise (as the command line imports
    # its modules): a handler raising inside an extension module's import can crash it. (LibCST
    # imports its parser at the first parse_module.)
    with signals_held():
        try:
            from ._python import fix_python
        except ImportError as err:
            if getattr(err, "name", None) != "libcst" and "libcst" not in str(err):
                raise
            raise ImportError(_INSTALL_HINT) from None
        importlib.import_module("libcst.native")  # (one that cannot be loaded says so itself, as at a parse)
    return fix_python
