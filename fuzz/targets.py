"""The fuzz targets: one function per entry point of targetlang, each taking the fuzzer's bytes.

``fuzz_NAME.py`` runs ``NAME`` under atheris; the tests (tests/test_fuzz_harnesses.py) run each on
its stored corpus and check that it does catch a broken promise. On every input only a
:class:`targetlang.TargetError` may escape, and what is accepted must keep the promises that
:mod:`common` checks; a broken promise raises :class:`common.Broken`.
"""

from __future__ import annotations

import json

from common import check_target, expect, text_of

import targetlang
from targetlang.logs import LogMigrator, parse_line, read_lines, splice

__all__ = ["log_line", "migrate", "parse_dict", "parse_text", "printers"]

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
