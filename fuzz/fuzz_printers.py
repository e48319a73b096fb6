"""Fuzz the printers: canonical and JSON-ish forms, TVM v0.22's str() of the resolved target, edits."""

from __future__ import annotations

import json
import sys

import atheris

with atheris.instrument_imports():
    from common import check_target, expect, text_of

    import targetlang


def test_one_input(data: bytes) -> None:
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


if __name__ == "__main__":
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()
