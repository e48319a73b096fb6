"""The fuzz targets: one function per entry point of targetlang, each taking the fuzzer's bytes.

``fuzz_NAME.py`` runs ``NAME`` under atheris; the tests (tests/test_fuzz_harnesses.py) run each on
its stored corpus and check that it does catch a broken promise. On every input only a
:class:`targetlang.TargetError` may escape, and what is accepted must keep the promises that
:mod:`common` checks; a broken promise raises :class:`common.Broken`.
"""

from __future__ import annotations

import ast
import json
import re
import warnings
from typing import Literal, TypedDict

from common import check_target, expect, text_of

import targetlang
from targetlang.errors import NestingTooDeepError, SourceTooLargeError
from targetlang.fix import RULES, TARGET_VERSIONS, Finding, FixResult, fix_source
from targetlang.logs import LogMigrator, parse_line, read_lines, splice

__all__ = ["fix", "log_line", "migrate", "parse_dict", "parse_text", "printers"]

# Build the parser and load the registries now, so that the first input is not charged for them
# (libFuzzer reports an input that takes 10 s as a slow unit).
targetlang.parse("cuda -host=llvm").resolve()


def parse_text(data: bytes) -> None:
    """Fuzz ``targetlang.parse`` on text: legacy strings, tag names, JSON and JSON-ish objects."""
    text = text_of(data)
    try:
        target = targetlang.parse(text)
    except targetlang.TargetError:
        return
    check_target(target, text)


def parse_dict(data: bytes) -> None:
    """Fuzz ``targetlang.parse`` on config dicts (the TVM config form), decoded from JSON bytes."""
    try:
        config = json.loads(text_of(data))
    except (ValueError, RecursionError):
        return  # not JSON: the text harness covers that
    if not isinstance(config, dict):
        return
    try:
        target = targetlang.parse(config)
    except targetlang.TargetError:
        return
    check_target(target)


def printers(data: bytes) -> None:
    """Fuzz the printers: canonical and JSON-ish forms, TVM v0.22's str() of the resolved target, edits."""
    text = text_of(data)
    try:
        target = targetlang.parse(text)
    except targetlang.TargetError:
        return
    jsonish = target.canonical_jsonish()
    expect(targetlang.parse(jsonish) == target, "parse(canonical_jsonish()) != t", jsonish)
    try:
        resolved = target.resolve()
    except targetlang.TargetError:
        return
    check_target(resolved)
    expect(resolved.resolve() == resolved, "resolve() is not idempotent", text)
    try:
        legacy = resolved.to_legacy_str()
    except targetlang.TargetError:
        legacy = None  # a composite or a value TVM's printer could not write: an error, not a crash
    if legacy is not None:
        expect(isinstance(legacy, str) and legacy.startswith(resolved.kind), "to_legacy_str()", legacy)
    json.dumps(resolved.to_json())
    for name in list(target.attrs)[:2]:
        edited = target.without_attr(name)
        expect(name not in edited.attrs, "without_attr() kept the attribute", text, name)
        check_target(edited, None)


_ERAS = (None, "0.6", "0.7", "0.8")
_POLICIES = ("error", "drop", "keep")


def migrate(data: bytes) -> None:
    """Fuzz ``targetlang.migrate`` in every era and under every policy."""
    # The first byte picks the era and the policy; the rest is the text.
    choice = data[0] if data else 0
    era, policy = _ERAS[choice % len(_ERAS)], _POLICIES[choice // len(_ERAS) % len(_POLICIES)]
    text = text_of(data[1:])
    try:
        result = targetlang.migrate(text, era=era, policy=policy)  # type: ignore[arg-type]
    except targetlang.TargetError:
        return
    for change in result.changes:
        expect(change.rule in targetlang.migration.RULES, "unknown rule id", change)
        if change.span is not None:
            expect(0 <= change.span[0] <= change.span[1] <= len(text), "change span outside the input", change)
    if result.json is None:
        expect(not result.ok, "no JSON although nothing is an error", text, result.changes)
        return
    exported = json.loads(json.dumps(result.json))
    expect(exported == result.json, "migrated JSON does not survive json.dumps", result.json)
    if result.target is not None:
        expect(targetlang.parse(exported) == result.target, "parse(m.json) != m.target", result.json)
        check_target(result.target)


_MIGRATORS = (LogMigrator(), LogMigrator(to="canonical", policy="drop"))


def log_line(data: bytes) -> None:
    """Fuzz the tuning-log line reader, splicing, and log migration."""
    (record,) = list(read_lines([data + b"\n"], "fuzz.log")) if b"\n" not in data else (None,)
    if record is None:
        return  # one line at a time
    expect((record.text + record.newline).encode("utf-8", "surrogateescape") == data + b"\n", "line not kept", data)
    for field in record.fields:
        own = record.text[field.start : field.end]
        expect(splice(record, field, own) == record.text, "splicing a field's own text changed the line", data)
    for migrator in _MIGRATORS:
        result = migrator.migrate(record)
        if result.problems:
            expect(result.text == record.text, "a record with a problem was changed", data, result.text)
            continue
        again = parse_line(result.text)
        expect(again.format is record.format, "migration changed the record's format", data, result.text)
        for field in again.fields:
            if field.spec:
                try:
                    targetlang.parse(field.spec)
                except targetlang.TargetError as err:
                    expect(False, "a migrated target does not read", result.text, str(err))
        expect(migrator.migrate(again).text == result.text, "a second migration changed the line", result.text)


# The first byte of a fix input picks the file's name (its suffix says its language), whether
# unsafe fixes and tags are applied, the TVM release the fixed code is meant for, and the line
# length (0: no layout; 40: most written dicts are split).
FIX_PATHS = ("fuzz.py", "fuzz.py", "fuzz.py", "run.sh", "README.md", "notes.md", "guide.rst", "tune.yaml")
_FIX_LINE_LENGTHS = (88, 40, 0, 120)
_SAFETIES = ("safe", "unsafe", "report-only")
_PYTHON_LINES = re.compile(r"\r\n|\r|\n")  # the line breaks of Python's tokenizer (and LibCST's)
# KNOWN, LibCST's: a line of indentation and a backslash continuation alone, which joins the next
# line to it. LibCST rejects it inside a block (valid Python refused: "expected INDENT") and
# elsewhere reads the statement after it one line early, dropping the continuation when it
# prints the fixed statement. Its positions and bytes there are LibCST's; where the text has such
# a line, those two checks are left out.
_LONE_CONTINUATION = re.compile(r"^[ \t\f]*\\(?:\r\n|\r|\n)", re.MULTILINE)
_LONE_CR = re.compile(r"\r(?!\n)")
# KNOWN, LibCST's too: indentation that mixes tabs and spaces on one line, which Python reads
# (the same block at tab sizes 8 and 1), LibCST's tokenizer may not ("no matching outer block
# for dedent"): a refusal of such a text is not held against fix.
_MIXED_INDENT = re.compile(r"^[ \t]*(?: \t|\t )", re.MULTILINE)
# KNOWN, LibCST's too: a starred value right after return or yield (`return* [t]`), which Python
# reads, LibCST refuses ("Must have at least one space after 'return'").
_KEYWORD_STAR = re.compile(r"\b(?:return|yield)\*")


class FixOptions(TypedDict):
    path: str
    docs: bool
    unsafe: bool
    prefer_tags: bool
    target_version: str
    line_length: int


def fix_options(choice: int) -> FixOptions:
    """The options of ``fix_source`` that the first byte ``choice`` of an input picks."""
    path = FIX_PATHS[choice & 7]
    return FixOptions(
        path=path,
        docs=path != "notes.md",  # notes.md: its Python blocks are reported only
        unsafe=bool(choice & 8),
        prefer_tags=bool(choice & 16),
        target_version=TARGET_VERSIONS[0 if choice & 32 else -1],
        line_length=_FIX_LINE_LENGTHS[choice >> 6 & 3],
    )


def fix(data: bytes) -> None:
    """Fuzz ``targetlang.fix.fix_source`` (``targetlang fix``) on Python, shell scripts, Markdown,
    reStructuredText and YAML, with and without the unsafe fixes."""
    options = fix_options(data[0] if data else 0)
    text = text_of(data[1:])
    python = options["path"].endswith(".py")
    valid = _python_validity(text) if python else None
    try:
        result = fix_source(text, **options)
    except targetlang.TargetError as err:
        # Python's parser accepted it: only its size or its depth may be refused
        limit = isinstance(err, (NestingTooDeepError, SourceTooLargeError))
        libcst_gap = _LONE_CONTINUATION.search(text) or _MIXED_INDENT.search(text) or _KEYWORD_STAR.search(text)
        expect(not valid or limit or libcst_gap is not None, "valid Python refused", err)
        return
    expect(isinstance(result, FixResult) and result.source == text, "not a FixResult of the text", result)
    expect(valid is not False, "Python that does not parse was fixed", text)
    _check_findings(result, options, text)
    # checking (fix --check) finds what fixing finds, and says what would change without the text
    try:
        checked = fix_source(text, **options, check=True)
    except targetlang.TargetError as err:
        expect(False, "checking refused what fixing read", text, err)
        return
    same = checked.findings == result.findings and checked.errors == result.errors
    expect(same and checked.changed == result.changed and checked.text == text, "checking is not fixing", text)
    if python and valid:
        after = _python_validity(result.text)
        expect(after is not False, "valid Python became invalid", text, result.text)
        if valid == "compiles" and after is not None:
            expect(after == "compiles", "Python that compiled no longer compiles", text, result.text)
    if not any(finding.applied for finding in result.findings):
        expect(result.text == text, "the text changed though no fix was applied", text, result.text)
    if not result.changed:
        return
    # the fix loop stops where nothing is left to apply: a second run changes nothing
    try:
        again = fix_source(result.text, **options)
    except targetlang.TargetError as err:
        expect(False, "the fixed text is refused", text, result.text, err)
        return
    applied = [finding.describe() for finding in again.findings if finding.applied]
    expect(not applied and again.text == result.text, "not a fixed point", text, result.text, again.text, applied)


def _python_validity(text: str) -> Literal["compiles", "parses", False] | None:
    """``"compiles"``, ``"parses"`` (an AST, but compile() refuses it: ``return`` outside a
    function, a misplaced ``from __future__``), ``False`` (not Python) or ``None`` (too deep for
    this check to tell)."""
    # Python reads a file that starts with a byte order mark, and so does fix; str source cannot
    source = text.removeprefix("\ufeff")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # invalid escapes and the like: the user's to see
        try:
            tree = ast.parse(source)
        except (SyntaxError, ValueError):
            return False
        except (RecursionError, MemoryError):
            return None
        try:
            compile(tree, "<fuzz>", "exec", dont_inherit=True)
        except SyntaxError:
            return "parses"
        except (RecursionError, MemoryError, OverflowError, ValueError):
            return None
    return "compiles"


def _check_findings(result: FixResult, options: FixOptions, text: str) -> None:
    """Each finding is one of a known rule at a place of the text that holds what it found, and
    is applied only where the options allow."""
    python = options["path"].endswith(".py")
    document = options["path"].endswith((".md", ".rst"))
    lines = _PYTHON_LINES.split(text) if python else text.split("\n")

    def in_block(finding: Finding) -> bool:
        return document and finding.rule != "text-target"

    libcst_places = _LONE_CONTINUATION.search(text) is None  # (see above)
    # KNOWN: rules/text_target.py counts a document's lines at each \n, LibCST a block's at a lone
    # \r too (as CommonMark does): with one, a block's findings are not placed in either count
    block_places = libcst_places and _LONE_CR.search(text) is None

    keys = [(finding.line, finding.column) for finding in result.findings]
    expect(keys == sorted(keys), "findings out of order", text, keys)
    for finding in result.findings:
        expect(finding.rule in RULES and finding.safety in _SAFETIES, "unknown rule or safety", finding)
        expect(finding.path == options["path"], "the finding names another file", finding)
        if finding.rule == "text-target" or (block_places if in_block(finding) else libcst_places):
            _check_place(finding, lines, text)
        if finding.applied:
            expect(finding.after is not None and finding.safety != "report-only", "a report applied", finding)
            expect(finding.safety == "safe" or options["unsafe"], "an unsafe fix applied", finding)
            expect(python or (document and options["docs"]), "a finding applied outside Python", finding)
        exported = finding.to_json()
        expect(json.loads(json.dumps(exported)) == exported, "a finding's JSON does not survive json.dumps", exported)


def _check_place(finding: Finding, lines: list[str], text: str) -> None:
    """The finding's line and column lie inside the text, where its ``before`` starts."""
    expect(1 <= finding.line <= len(lines), "a finding's line outside the text", text, finding)
    line = lines[finding.line - 1]
    expect(1 <= finding.column <= len(line) + 1, "a finding's column outside its line", text, finding)
    first = _PYTHON_LINES.split(finding.before)[0] if finding.before else ""
    found = line.startswith(first, finding.column - 1)
    expect(found, "the text at a finding's place is not its `before`", text, finding)
