"""Fuzz ``targetlang.migrate`` in every era and under every policy."""

from __future__ import annotations

import json
import sys

import atheris

with atheris.instrument_imports():
    from common import check_target, expect

    import targetlang

_ERAS = (None, "0.6", "0.7", "0.8")
_POLICIES = ("error", "drop", "keep")


def test_one_input(data: bytes) -> None:
    provider = atheris.FuzzedDataProvider(data)
    era = _ERAS[provider.ConsumeIntInRange(0, len(_ERAS) - 1)]
    policy = _POLICIES[provider.ConsumeIntInRange(0, len(_POLICIES) - 1)]
    text = provider.ConsumeUnicode(provider.remaining_bytes())
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


if __name__ == "__main__":
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()
