"""Property tests: lossless identity on grammar-generated text, round trips on generated targets."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import targetlang
from targetlang._syntax import parse_syntax

from .conftest import examples
from .strategies import grammar_texts, targets

_SETTINGS = settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_SETTINGS
@given(grammar_texts())
def test_grammar_text_prints_back_exactly(text: str) -> None:
    # The syntax layer keeps every character of anything the grammar accepts...
    assert parse_syntax(text).render() == text
    # ...and whenever the text is also a valid target, the Target prints it back too.
    try:
        target = targetlang.parse(text)
    except targetlang.TargetError:
        return
    assert str(target) == text


@_SETTINGS
@given(grammar_texts("legacy"))
def test_legacy_grammar_text_prints_back_exactly(text: str) -> None:
    assert parse_syntax(text).render() == text
    try:
        target = targetlang.parse(text)
    except targetlang.TargetError as err:
        assert str(err)  # every rejection explains itself
        return
    assert str(target) == text
    assert targetlang.parse(target.canonical()) == target


@_SETTINGS
@given(targets())
def test_canonical_parses_back_to_an_equal_target(target: targetlang.Target) -> None:
    again = targetlang.parse(target.canonical())
    assert again == target
    assert hash(again) == hash(target)


@_SETTINGS
@given(targets())
def test_canonical_is_idempotent(target: targetlang.Target) -> None:
    text = target.canonical()
    assert targetlang.parse(text).canonical() == text


@_SETTINGS
@given(targets())
def test_json_round_trip(target: targetlang.Target) -> None:
    data = target.to_json()
    assert json.loads(json.dumps(data)) == data
    assert targetlang.parse(data) == target
    # TVM reads "-libs=mkldnn" as "-libs=dnnl" anywhere in a target's text, inside a JSON
    # string too (test_mkldnn_is_read_as_dnnl_in_json_text): the text of such a target is another
    if "-libs=mkldnn" not in json.dumps(data):
        assert targetlang.parse(json.dumps(data)) == target


def test_mkldnn_is_read_as_dnnl_in_json_text() -> None:
    # as TVM v0.21 read them (run.sh --tvm 021: keys ['-libs=dnnl'], mcpu 'x-libs=dnnl'; a mapping's
    # keys ['-libs=mkldnn'], as given)
    assert targetlang.parse('{"kind": "c", "keys": ["-libs=mkldnn"]}').keys == ("-libs=dnnl",)
    assert targetlang.parse('{"kind": "c", "mcpu": "x-libs=mkldnn"}')["mcpu"] == "x-libs=dnnl"
    assert targetlang.parse({"kind": "c", "keys": ["-libs=mkldnn"]}).keys == ("-libs=mkldnn",)  # a mapping: no text


@_SETTINGS
@given(targets())
def test_resolve_is_idempotent(target: targetlang.Target) -> None:
    try:
        once = target.resolve()
    except targetlang.TargetError:
        assume(False)
        raise
    assert once.resolve() == once


@_SETTINGS
@given(targets(), st.sampled_from([None, 0, 2, 4]), st.booleans())
def test_json_text_prints_back_exactly(target: targetlang.Target, indent: int | None, ascii_only: bool) -> None:
    text = json.dumps(target.to_json(), indent=indent, ensure_ascii=ascii_only)
    parsed = targetlang.parse(text)
    assert str(parsed) == text
    assert parsed == target


@_SETTINGS
@given(targets())
def test_lossless_text_of_a_canonical_target(target: targetlang.Target) -> None:
    text = target.canonical()
    assert str(targetlang.parse(text)) == text
