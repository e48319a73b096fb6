"""JSON text read by the standard library's decoder gives the target the grammar's reading gives.

``reading._read_plain_json`` reads strict JSON of one object with the standard decoder, gives each
nested object's target its slice of the text (``_json_text.json_objects``), and lets each
target find its members' spans in its text later. Whenever it returns a target, the grammar's
reading (the LALR parser's syntax tree, then the config) must give an equal target with the same
text, spans, printed forms and JSON; whenever the grammar's reading fails, it must return ``None``
(so the grammar's error is the one raised). Checked on every JSON text of the test data, on
grammar-generated texts and on generated configs written in several layouts.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import targetlang
from targetlang import _reading as reading
from targetlang._json_decoding import check_json_int64
from targetlang._registry import builtin_registry
from targetlang._syntax import JsonSyntax, grammar_syntax
from targetlang._target import Target
from targetlang.errors import TargetError

from .conftest import examples, sample
from .strategies import grammar_texts, target_configs
from .texts import data_texts

REGISTRY = builtin_registry()


def by_grammar(text: str) -> Target | TargetError:
    try:
        tree = grammar_syntax(text)
        assert isinstance(tree, JsonSyntax)
        check_json_int64(tree.root, text)  # (the default registry's release refuses them)
        return reading.from_config(tree.root.value, REGISTRY, 0, tree.root, text, own_text=text)
    except TargetError as err:
        return err


def _inner(value: Any) -> Any:
    # the targets inside a value, each described as well (their texts are slices of the outer)
    if isinstance(value, Target):
        return described(value)
    if isinstance(value, tuple):
        return [_inner(item) for item in value]
    return None


def described(target: Target) -> tuple[Any, ...]:
    names = [*target.attrs, "keys", "tag", "host", "kind"]
    return (
        _inner(target.host),
        [_inner(value) for value in target.attrs.values()],
        str(target),
        repr(target),
        target.to_json(),
        target.canonical(),
        target._text_form,
        dict(target._span_map()),
        [target.source_span(name) for name in names],
    )


def reads_as_the_grammar(text: str) -> bool:
    """Check ``text``; True when the decoder's reading was taken (not left to the grammar)."""
    fast = reading._read_plain_json(text, REGISTRY, 0, ())
    slow = by_grammar(text)
    if fast is None:
        return False
    assert isinstance(slow, Target), (text, slow)
    assert fast == slow and hash(fast) == hash(slow)
    assert fast._spans is None  # found later, from the text
    assert described(fast) == described(slow), text
    return True


@pytest.mark.property
def test_every_json_text_of_the_test_data_reads_as_the_grammar_reads_it() -> None:
    texts = [text for text in data_texts() if text.startswith("{")]
    assert len(texts) > 1_000
    compared = sample(texts)
    taken = sum(reads_as_the_grammar(text) for text in compared)
    # the decoder read many of them (500 of all), and the grammar the rest
    assert taken > 500 * len(compared) / len(texts)


@pytest.mark.parametrize(
    "text",
    [
        '{"kind": "llvm", "mcpu": "skylake"}',
        '{"kind": "llvm", "mcpu": "a", "mcpu": "b"}',  # the last of a repeated key
        '{"kind": "cuda", "arch": "sm_80", "host": "llvm -mcpu=x"}',
        '{"kind": "llvm", "mattr": ["+avx2", "+fma"], "num-cores": 4}',
        '  {"kind": "llvm"}  ',
        '{"kind": "llvm"}\n',
        '{"kind": "llvm", "mcpu": "\\u00e9\\n"}',
        '{"kind": "llvm", "num-cores": 1e400}',
        '{"kind": "llvm", "num-cores": 9223372036854775808}',
        '{"kind": "llvm", "num-cores": NaN}',
        '{"kind": "llvm", "num-cores": -Infinity}',
        '{"kind": "llvm", "mcpu": "x",}',
        '{"kind": "llvm"} x',
        '{"kind": "llvm", "mtriple": "{"}',
        '{"kind": "nope"}',
        '{"kind": "llvm", "nope": 1}',
        '{"kind": "llvm", "mattr": ' + "[" * 120 + "]" * 120 + "}",
        '{"kind": "llvm", "mcpu": "' + "9" * 5000 + '"}',
        '{"kind": "llvm", "num-cores": ' + "9" * 5000 + "}",
        # nested objects: each nested target prints back as its own slice of the text
        '{"kind": "cuda", "host": {"kind": "llvm", "mcpu": "x"}}',
        '{"kind": "cuda", "host": {"kind": "llvm", "mtriple": "}{\\"{"}, "arch": "sm_80"}',
        '{"kind":"cuda","host":{"kind":"llvm","host":{"kind":"llvm","mcpu":"z"}}}',
        '{"kind": "composite", "devices": [{"kind": "cuda"}, {"kind": "llvm", "mcpu": "a"}], "host": {"kind": "llvm"}}',
        '{"kind": "composite", "devices": [{"kind": "cuda", "host": {"kind": "llvm"}}, "llvm -mcpu=b"]}',
        '{"kind": "cuda", "host": {"kind": "llvm"}, "host": {"kind": "llvm", "mcpu": "y"}}',
        '{"tag": "nvidia/jetson-nano", "host": {"kind": "llvm", "mcpu": "cortex-a57"}}',
        '{"kind": "cuda", "host": {"tag": "nvidia/jetson-nano"}}',
        '{"kind": "cuda", "host": {"kind": "llvm", "nope": 1}}',
        '{"kind": "cuda", "host": {}}',
        '{"kind": "cuda", "host": {"kind": "llvm"}} {"kind": "llvm"}',
        '{"kind": "llvm", "mattr": [{}]}',
        '{"kind": "cuda", "h\\u006fst": {"kind": "llvm"}}',
        '{"kind": "cuda", "host": ' * 60 + '{"kind": "llvm"}' + "}" * 60,
    ],
)
def test_edges(text: str) -> None:
    reads_as_the_grammar(text)
    # and what parse() gives is the grammar's reading, or its error
    slow = by_grammar(text)
    try:
        read = targetlang.parse(text)
    except TargetError as err:
        assert isinstance(slow, TargetError) and (type(err), err.message) == (type(slow), slow.message)
    else:
        assert isinstance(slow, Target) and read == slow


_LAYOUTS = [
    {},
    {"indent": 1},
    {"separators": (",", ":")},
    {"indent": "\t", "ensure_ascii": False},
    {"separators": (" ,  ", " : ")},
]


@settings(max_examples=examples(300), deadline=None)
@given(target_configs(), st.sampled_from(_LAYOUTS))
def test_generated_configs_read_as_the_grammar_reads_them(config: dict[str, Any], layout: dict[str, Any]) -> None:
    try:
        text = json.dumps(config, **layout)
    except (TypeError, ValueError):
        return  # a value JSON cannot hold
    reads_as_the_grammar(text)


@settings(max_examples=examples(300), deadline=None)
@given(grammar_texts().filter(lambda text: text.startswith("{")))
def test_grammar_generated_json_reads_as_the_grammar_reads_it(text: str) -> None:
    reads_as_the_grammar(text)
