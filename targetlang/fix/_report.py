"""The output formats of ``targetlang fix``'s findings: ``text``, ``json``, ``github``, ``sarif`` and
``junit``, and the count per rule of ``--statistics``.

Each takes the findings to report (the caller decides which: after ``--write``, the machine
formats report only what is left) and returns the text to print, ending in a newline.
"""

from __future__ import annotations

import json
import os
import re
import urllib.parse
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .. import __version__
from ._findings import Finding
from ._rule_docs import rule_doc
from ._rules import RULES, Rule

__all__ = [
    "FORMATS",
    "Span",
    "escape_data",
    "escape_property",
    "github",
    "json_findings",
    "junit",
    "render",
    "sarif",
    "shown",
    "span",
    "statistics",
    "statistics_json",
    "summary",
]

FORMATS = ("text", "json", "github", "sarif", "junit")
"""The values of ``--output-format``, the default first."""


_SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


@dataclass(frozen=True)
class Span:
    """Where a finding's ``before`` lies: first line and column, and the line and column just past
    its last character (all from 1; the end exclusive, as GitHub and SARIF count it)."""

    line: int
    column: int
    end_line: int
    end_column: int


def span(finding: Finding) -> Span:
    """The span of ``finding``'s ``before`` text, from its start and its own lines."""
    lines = finding.before.split("\n")
    if len(lines) == 1:
        return Span(finding.line, finding.column, finding.line, finding.column + len(finding.before))
    return Span(finding.line, finding.column, finding.line + len(lines) - 1, len(lines[-1]) + 1)


# ------------------------------------------------------------------ text


def shown(finding: Finding) -> str:
    """A finding as the text format shows it: :meth:`Finding.describe`, and below it, when there is
    one, the fix to apply by hand (``write:``) or with ``--unsafe-fixes`` (``fix (unsafe):``)."""
    line = finding.describe()
    if finding.after is not None and not finding.applied:
        after = finding.after.replace("\n", "\n    ")  # a fix of two statements: both lines indented
        line += f"\n  {'write' if finding.safety != 'unsafe' else 'fix (unsafe)'}: {after}"
    return line


def summary(found: Sequence[Finding], changed: int, files: int, write: bool, unsafe_fixes: bool) -> str:
    """The closing line: what was (or would be) fixed, and what each option left would fix."""
    applied = sum(f.applied for f in found)
    left = [f for f in found if not f.applied and f.safety != "report-only"]
    # what each is left for: a document's Python needs --docs, an unsafe fix --unsafe-fixes
    needs = [(f.in_document, f.safety == "unsafe" and not unsafe_fixes) for f in left]
    docs, unsafe, both = needs.count((True, False)), needs.count((False, True)), needs.count((True, True))
    by_hand = sum(f.safety == "report-only" for f in found)
    verb = "fixed" if write else "fixable"
    what = "changed" if write else "would change"
    parts = [
        f"{len(found)} finding{'s' if len(found) != 1 else ''} in {files} file{'s' if files != 1 else ''}",
        f"{applied} {verb}",
    ]
    if docs:
        parts.append(f"{docs} more with --docs")
    if unsafe:
        parts.append(f"{unsafe} more with --unsafe-fixes")
    if both:
        parts.append(f"{both} more with --docs --unsafe-fixes")
    if by_hand:
        parts.append(f"{by_hand} to do by hand")
    return f"{', '.join(parts)}; {changed} file{'s' if changed != 1 else ''} {what}"


def _counts(findings: Iterable[Finding]) -> list[tuple[str, int, int]]:
    """(rule, findings, findings whose fix is (or would be) applied) per rule: the most found first,
    then in the order of :data:`RULES`."""
    found = Counter(f.rule for f in findings)
    order = {rule: index for index, rule in enumerate(RULES)}
    rules = sorted(found, key=lambda rule: (-found[rule], order.get(rule, len(order)), rule))
    fixable = Counter(f.rule for f in findings if f.applied)
    return [(rule, found[rule], fixable[rule]) for rule in rules]


def statistics(findings: Sequence[Finding]) -> str:
    """The count of findings per rule, laid out as ``ruff check --statistics`` lays it out: the
    count, the rule, ``[*]`` where a fix of the rule is (or would be) applied, else ``[ ]``, and the
    rule's summary; tab-separated, the counts right-aligned, the rules padded to one width."""
    rows = _counts(findings)
    if not rows:
        return ""
    count_width = max(len(str(count)) for _, count, _ in rows)
    rule_width = max(len(rule) for rule, _, _ in rows)
    return "".join(
        f"{count:>{count_width}}\t{rule:<{rule_width}}\t{'[*]' if fixable else '[ ]'} {_summary_of(rule)}\n"
        for rule, count, fixable in rows
    )


def statistics_json(findings: Sequence[Finding]) -> str:
    """The count per rule as ruff's ``--statistics --output-format json`` gives it."""
    rows = [
        {"rule": rule, "summary": _summary_of(rule), "count": count, "fixable": bool(fixable), "fixable_count": fixable}
        for rule, count, fixable in _counts(findings)
    ]
    return json.dumps(rows, indent=2, ensure_ascii=False) + "\n"


def _summary_of(rule: str) -> str:
    known = RULES.get(rule)
    return known.summary if known is not None else ""


# ------------------------------------------------------------------ json


def json_findings(findings: Iterable[Finding]) -> str:
    """Every finding as a JSON array (what ``--json`` has always printed)."""
    return json.dumps([finding.to_json() for finding in findings], indent=2, ensure_ascii=False) + "\n"


# ------------------------------------------------------------------ github


def escape_data(text: str) -> str:
    """``text`` as the message of a GitHub workflow command (its ``%``, carriage returns and
    newlines escaped, as the runner's ``escapeData`` does)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """``text`` as a property value of a workflow command: as :func:`escape_data`, and ``:`` and
    ``,`` too (the runner's ``escapeProperty``)."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _level(finding: Finding) -> str:
    """``error`` for a finding with a fix (the code is what TVM >= 0.24 rejects, and fix knows what
    to write); ``warning`` for a report-only one, which may be meant (a test that expects the
    error) or need a person's judgement."""
    return "warning" if finding.safety == "report-only" else "error"


def github(findings: Iterable[Finding], errors: Iterable[tuple[str, str]] = ()) -> str:
    """One GitHub Actions workflow command per finding (``::error file=...,line=...::message``),
    which the runner shows as an annotation on the line, and one per file ``errors`` names (path,
    message: a file that could not be read or parsed). A finding in a notebook's cell names the
    file only: its line is the cell's, not the file's."""
    out = [
        f"::error file={escape_property(path)},title={escape_property('targetlang (error)')}::{escape_data(message)}\n"
        for path, message in errors
    ]
    for finding in findings:
        properties = {"file": finding.path}
        if finding.cell is None:
            where = span(finding)
            properties.update(
                line=str(where.line),
                col=str(where.column),
                endLine=str(where.end_line),
                endColumn=str(where.end_column),
            )
        properties["title"] = f"targetlang ({finding.rule})"
        fields = ",".join(f"{key}={escape_property(value)}" for key, value in properties.items())
        out.append(f"::{_level(finding)} {fields}::{escape_data(shown(finding))}\n")
    return "".join(out)


# ------------------------------------------------------------------ sarif


def _uri(path: str) -> str:
    """A path as a SARIF artifact URI: relative ones as they are (with ``/``), absolute ones as
    ``file:`` URIs."""
    if os.path.isabs(path):
        return "file://" + urllib.parse.quote(path.replace(os.sep, "/"))
    return urllib.parse.quote(path.replace(os.sep, "/"))


def _region(finding: Finding) -> dict[str, int]:
    where = span(finding)
    return {
        "startLine": where.line,
        "startColumn": where.column,
        "endLine": where.end_line,
        "endColumn": where.end_column,
    }


def _sarif_rule(rule: Rule) -> dict[str, Any]:
    doc = rule_doc(rule.id)
    full = {"text": f"{rule.summary}; its fixes are {rule.safety} at best."}
    if doc is not None:  # the rule's section of docs/fix.md: its first paragraph, and the whole in Markdown
        paragraphs = doc.split("\n\n")
        full = {"text": " ".join(paragraphs[1].split()) if len(paragraphs) > 1 else full["text"], "markdown": doc}
    return {
        "id": rule.id,
        "name": rule.id,
        "shortDescription": {"text": rule.summary},
        "fullDescription": full,
        # no helpUri: the project publishes its docs nowhere yet, so the docs travel in the log itself
        **({"help": {"text": full["text"], "markdown": doc}} if doc is not None else {}),
        "defaultConfiguration": {"level": "warning" if rule.safety == "report-only" else "error"},
        "properties": {"safety": rule.safety},
    }


def _sarif_result(finding: Finding, rule_index: Mapping[str, int]) -> dict[str, Any]:
    uri = _uri(finding.path)
    message = finding.message
    if finding.cell is not None:
        message = f"cell {finding.cell}, line {finding.line}: {message}"
    location: dict[str, Any] = {"physicalLocation": {"artifactLocation": {"uri": uri}}}
    result: dict[str, Any] = {
        "ruleId": finding.rule,
        "level": _level(finding),
        "message": {"text": message},
        "locations": [location],
        "properties": {"safety": finding.safety, "applied": finding.applied},
    }
    if finding.rule in rule_index:
        result["ruleIndex"] = rule_index[finding.rule]
    if finding.cell is not None:
        # the line is the cell's, not the notebook file's: no region, the cell said in the message
        result["properties"]["cell"] = finding.cell
        return result
    location["physicalLocation"]["region"] = _region(finding)
    if finding.after is not None:
        label = "fix (unsafe)" if finding.safety == "unsafe" else "write"
        result["fixes"] = [
            {
                "description": {"text": f"{label}: {finding.after}"},
                "artifactChanges": [
                    {
                        "artifactLocation": {"uri": uri},
                        "replacements": [
                            {"deletedRegion": _region(finding), "insertedContent": {"text": finding.after}}
                        ],
                    }
                ],
            }
        ]
    return result


def sarif(findings: Iterable[Finding], errors: Iterable[tuple[str, str]] = ()) -> str:
    """A SARIF 2.1.0 log of one run: the tool and every rule, a result per finding (with its fix
    where it has one), and the files ``errors`` names (path, message) as the invocation's
    notifications. Columns count Unicode code points, as the findings' do."""
    notifications = [
        {
            "level": "error",
            "message": {"text": message},
            "locations": [{"physicalLocation": {"artifactLocation": {"uri": _uri(path)}}}],
        }
        for path, message in errors
    ]
    rules = list(RULES.values())
    rule_index = {rule.id: index for index, rule in enumerate(rules)}
    log = {
        "$schema": _SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "targetlang",
                        "version": __version__,
                        "rules": [_sarif_rule(rule) for rule in rules],
                    }
                },
                "invocations": [
                    {"executionSuccessful": not notifications, "toolExecutionNotifications": notifications}
                ],
                "columnKind": "unicodeCodePoints",
                "results": [_sarif_result(finding, rule_index) for finding in findings],
            }
        ],
    }
    return json.dumps(log, indent=2, ensure_ascii=False) + "\n"


# ------------------------------------------------------------------ junit


def junit(findings: Iterable[Finding], files: Iterable[str], errors: Iterable[tuple[str, str]] = ()) -> str:
    """JUnit XML: one test suite, a test case per file read (passing when it has no finding), a
    failure per finding in it, and an error per message of ``errors`` (path, message: a file that
    could not be read or parsed)."""
    import xml.etree.ElementTree as ET  # (only for this format: 2 ms of every run's start otherwise)
    by_file: dict[str, list[Finding]] = {path: [] for path in files}
    for finding in findings:
        by_file.setdefault(finding.path, []).append(finding)
    problems: dict[str, list[str]] = {}
    for path, message in errors:
        by_file.setdefault(path, [])
        problems.setdefault(path, []).append(message)
    failed = sum(bool(found) for path, found in by_file.items() if path not in problems)
    tests, broken = str(len(by_file)), str(len(problems))
    suites = ET.Element("testsuites", name="targetlang fix", tests=tests, failures=str(failed), errors=broken)
    suite = ET.SubElement(suites, "testsuite", name="targetlang fix", tests=tests, failures=str(failed), errors=broken)
    for path, found in by_file.items():
        case = ET.SubElement(suite, "testcase", name=_xml(path), classname=_xml(path))
        for message in problems.get(path, ()):
            ET.SubElement(case, "error", message=_xml(message))
        for finding in found:
            failure = ET.SubElement(case, "failure", message=_xml(finding.message), type=finding.rule)
            failure.text = _xml(shown(finding))
    ET.indent(suites, space="  ")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"


# The characters XML 1.0 has no place for, even escaped: a file name may hold them (a\x01b.py).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _xml(text: str) -> str:
    """``text`` with each character XML cannot carry written as Python writes it (``\\x01``)."""
    return _NOT_XML.sub(lambda found: ascii(found[0])[1:-1], text)


# ------------------------------------------------------------------ dispatch


def render(
    output_format: str, findings: Sequence[Finding], files: Sequence[str], errors: Sequence[tuple[str, str]] = ()
) -> str:
    """The findings in a machine format (``json``, ``github``, ``sarif``, ``junit``), with the
    ``errors`` of files (path, message) where the format has a place for them (not in ``json``,
    an array of findings)."""
    if output_format == "json":
        return json_findings(findings)
    if output_format == "github":
        return github(findings, errors)
    if output_format == "sarif":
        return sarif(findings, errors)
    if output_format == "junit":
        return junit(findings, files, errors)
    raise ValueError(f"output format is one of {', '.join(FORMATS[1:])}, not {output_format!r}")
