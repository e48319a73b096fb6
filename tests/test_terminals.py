"""The grammar's run-length terminals read exactly the language of the old one-character terminals.

``grammar/target.lark`` matches runs of ordinary characters in one step with possessive
repetitions (``*+``, ``++``), so that the regular expression engine keeps no state per character.
``tests/data/grammar/target-before-run-length.lark`` is the grammar before that change, frozen.
Every text of the test data, grammar-generated texts and random mixes of the characters the
terminals treat specially must give the same syntax nodes, spans and errors under both.
"""

from __future__ import annotations

import json
import re
import tracemalloc
from collections.abc import Iterator
from functools import cache
from typing import Any

import lark
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import targetlang
from targetlang import _syntax as syntax
from targetlang._grammar_file import grammar_text
from targetlang._lexical import interpret, interpret_offsets
from targetlang._syntax import grammar_syntax, parse_syntax
from targetlang.errors import TargetError

from .conftest import examples, sample
from .strategies import grammar_texts
from .texts import DATA, data_texts

OLD_GRAMMAR = DATA / "grammar" / "target-before-run-length.lark"


@cache
def _parser(text: str) -> lark.Lark:
    # The runtime parser's node builders, so that both grammars build the same nodes.
    transformer = syntax._get_parser().options.transformer
    return lark.Lark(text, parser="lalr", lexer="contextual", transformer=transformer)


def outcome(text: str, grammar: str) -> tuple[Any, ...]:
    """What the LALR parser of ``grammar`` makes of ``text``: the nodes, or the error."""
    saved = syntax._parser
    syntax._parser = _parser(grammar)
    try:
        if not text.strip(" "):
            return ("ok", parse_syntax(text))  # the empty-text error, before any parser
        return ("ok", grammar_syntax(text))
    except TargetError as err:
        return ("error", type(err).__name__, err.message, err.start, err.end)
    finally:
        syntax._parser = saved


def same_language(text: str) -> None:
    assert outcome(text, grammar_text()) == outcome(text, OLD_GRAMMAR.read_text(encoding="utf-8")), text


def test_the_frozen_grammar_differs_only_in_terminals() -> None:
    old = OLD_GRAMMAR.read_text(encoding="utf-8")
    assert "35ba7f9" in old.splitlines()[0]

    def rules(text: str) -> list[str]:
        return [line for line in text.splitlines() if re.match(r"^\??[a-z_]+:|^\s+\|", line)]

    assert rules(old) == rules(grammar_text())


@pytest.mark.property
def test_every_text_of_the_test_data_reads_the_same() -> None:
    texts = data_texts()
    assert len(texts) > 10_000
    corpus = [json.loads(line)["text"] for line in (DATA / "corpus" / "strings.jsonl").read_text().splitlines()]
    assert set(corpus) <= set(texts)
    new, old = grammar_text(), OLD_GRAMMAR.read_text(encoding="utf-8")
    differ = [text for text in sample(texts) if outcome(text, new) != outcome(text, old)]
    assert differ == []


@settings(max_examples=examples(300), deadline=None)
@given(grammar_texts())
def test_grammar_generated_texts_read_the_same(text: str) -> None:
    same_language(text)


_TRICKY = st.sampled_from([*" '\\,=-{}[]\":#/\n\t.+0a", "\\'", "''", "//", "\\\\", "é", "\x01"])
_PREFIX = st.sampled_from(
    ["", "llvm ", "llvm -mcpu=", "llvm -mattr=", " ", "-", "{", '{"kind": "', "{kind: ", "{'k': '"]
)


@settings(max_examples=examples(1000), deadline=None)
@given(_PREFIX, st.lists(_TRICKY, max_size=30).map("".join))
def test_random_mixes_of_special_characters_read_the_same(prefix: str, body: str) -> None:
    same_language(prefix + body)


@pytest.mark.parametrize(
    "text",
    [
        "llvm -mcpu='abc",
        "llvm -mcpu='abc\\'",
        "llvm -mcpu=abc\\",
        "llvm -mcpu='abc\\",
        "llvm x'a b'y\\ \\",
        '{"kind": "ab\\uZZZZ"}',
        '{"kind": "ab\\',
        '{"kind": "llvm", "n": 1.}',
        '{"kind": "llvm", "n": 1e}',
        "{kind: a//b}",
        "{kind: a/b/ # c\n}",
        "{'kind': 'a\\'b'}",
    ],
)
def test_edges_of_the_repetitions_read_the_same(text: str) -> None:
    same_language(text)


def _greedy(grammar: str) -> str:
    # The possessive repetitions made plain greedy ones: the same language (as tested above).
    return grammar.replace("*+", "*").replace("++", "+")


def test_greedy_terminals_have_no_collisions() -> None:
    # interegular, which lark's strict mode uses to find terminals that collide, cannot read
    # possessive repetitions and skips such terminals with a warning; check their greedy twins.
    # It cannot read \\Z either (the backslash that ends a word), so the word terminals were
    # never checked by it, before or after the change.
    import interegular

    greedy = _greedy(grammar_text())
    assert "*+" not in greedy and "++" not in greedy
    parser = lark.Lark(greedy, parser="lalr", lexer="contextual", strict=True)
    read = []
    for terminal in parser.terminals:
        regexp = terminal.pattern.to_regexp()
        if "\\Z" not in regexp:
            interegular.parse_pattern(regexp)  # raises if it cannot read it
            read.append(terminal.name)
    assert {"STRING", "SQSTRING", "NUMBER", "BARE", "LBRACE", "COMMA"} <= set(read)
    assert outcome("llvm -mcpu='a b'\\ c", greedy) == outcome("llvm -mcpu='a b'\\ c", grammar_text())


# ------------------------------------------------------------------ memory on long inputs

_SIZE = 1_000_000


def _long_inputs() -> Iterator[tuple[str, str]]:
    yield "long value", "llvm -mcpu=" + "a" * _SIZE
    yield "long array", "llvm -mattr=" + "+avx512f," * (_SIZE // 9)
    yield "long JSON string", '{"kind": "llvm", "mcpu": "' + "a" * _SIZE + '"}'
    yield "long quoted value with escapes", "llvm -model='" + "ab\\'c" * (_SIZE // 5) + "'"
    yield "long value with escapes", "llvm -model=" + "a\\ b" * (_SIZE // 4)
    yield "long JSON string with escapes", '{"kind": "llvm", "mcpu": "' + 'a\\"b' * (_SIZE // 4) + '"}'


@pytest.mark.parametrize(("name", "text"), list(_long_inputs()))
def test_a_long_input_parses_in_bounded_memory(name: str, text: str) -> None:
    # A loose bound (40 bytes per input byte); benchmarks/bench_limits.py measures the figures.
    targetlang.parse("llvm")  # the parser is built outside the measurement
    targetlang.clear_caches()
    tracemalloc.start()
    try:
        targetlang.parse(text)
    except TargetError:
        pass
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak <= 40 * _SIZE, f"{name}: {peak / len(text):.1f} bytes per input byte"


# ------------------------------------------------------------------ the text of one value

_VALUE_CHARS = st.lists(st.sampled_from([*"'\\ ,a=", "\\'", "''", "é"]), max_size=20).map("".join)


@settings(max_examples=examples(2000), deadline=None)
@given(_VALUE_CHARS)
def test_interpret_keeps_the_characters_its_offsets_name(value: str) -> None:
    # interpret() works on runs; interpret_offsets() character by character, as TVM's loop.
    assert interpret(value) == "".join(value[i] for i in interpret_offsets(value))
