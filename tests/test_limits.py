"""Deep nesting, large and random inputs: a result or a TargetError, never a crash."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import targetlang
from targetlang.parsing import MAX_DEPTH


def nested_json(depth: int) -> str:
    return '{"kind":"llvm","host":' * depth + '{"kind":"llvm"}' + "}" * depth


def test_deep_json_hosts_are_a_nesting_error() -> None:
    with pytest.raises(targetlang.NestingTooDeepError):
        targetlang.parse(nested_json(5000))
    with pytest.raises(targetlang.NestingTooDeepError):
        targetlang.parse(nested_json(MAX_DEPTH + 1))


def test_deep_json_arrays_are_a_nesting_error() -> None:
    with pytest.raises(targetlang.NestingTooDeepError):
        targetlang.parse('{"kind":"llvm","mattr":' + "[" * 100_000 + "]" * 100_000 + "}")


def test_deep_dicts_are_a_nesting_error() -> None:
    config: dict[str, object] = {"kind": "llvm"}
    for _ in range(5000):
        config = {"kind": "llvm", "host": config}
    with pytest.raises(targetlang.NestingTooDeepError):
        targetlang.parse(config)


def test_canonical_of_deep_nesting_stays_linear() -> None:
    # Legacy text escapes every level again; canonical() switches nested targets to JSON.
    text = nested_json(MAX_DEPTH - 1)
    target = targetlang.parse(text)
    canonical = target.canonical()
    assert len(canonical) < 2 * len(text)
    assert targetlang.parse(canonical) == target


def test_huge_value_parses() -> None:
    text = "llvm -mcpu=" + "a" * 2_000_000
    assert str(targetlang.parse(text)) == text


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_random_bytes_give_a_target_or_a_target_error(data: bytes) -> None:
    text = data.decode("latin-1")
    try:
        target = targetlang.parse(text)
    except targetlang.TargetError:
        return
    assert str(target) == text


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="-=' \\,{}\"abc[]:", max_size=60))
def test_punctuation_soup_gives_a_target_or_a_target_error(tail: str) -> None:
    for text in ("llvm " + tail, "{" + tail):
        try:
            target = targetlang.parse(text)
        except targetlang.TargetError:
            continue
        assert str(target) == text
