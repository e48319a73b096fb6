"""The legacy scanner reads exactly the legacy strings of the grammar, as the LALR parser does.

``_legacy_words.legacy_words`` reads a legacy string without lark: split at its spaces when it has no
quotes and backslashes, at the spaces outside its quotes when it has quotes but no backslashes
or double spaces, else scanned with the grammar's ``_UNITS`` terminal. Whatever it returns must
be what the grammar's parser makes of the text (the same words, starts and separators), and it
must return ``None`` exactly for the texts the parser rejects as legacy strings (JSON aside).
Each reading is checked on every text of the test data, on grammar-generated texts and on
random mixes of the characters the grammar treats specially.
"""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from targetlang import _legacy_words as legacy_words_module
from targetlang._grammar_file import grammar_text
from targetlang._legacy_words import legacy_words
from targetlang._syntax import LegacySyntax, grammar_syntax, parse_syntax
from targetlang.errors import TargetError

from .conftest import examples, sample
from .strategies import grammar_texts
from .texts import data_texts

Reading = list[tuple[str, int]] | None


def by_grammar(text: str) -> Reading:
    """The words the LALR parser reads in ``text``, or ``None`` when it reads no legacy string."""
    if not text.strip(" ") or text.startswith("{"):
        return None
    try:
        tree = grammar_syntax(text)
    except TargetError:
        return None
    assert isinstance(tree, LegacySyntax)
    words = [(word.text, word.start) for word in (tree.kind, *tree.words)]
    # the spaces between are what the words do not cover, and the lead is before the kind
    assert tree.lead == text[: tree.kind.start] and not tree.lead.strip(" ")
    return words


def readings(text: str) -> dict[str, Reading]:
    """Each of the scanner's ways of reading ``text``, and the one it chooses."""
    found: dict[str, Reading] = {"chosen": legacy_words(text)}
    if text.startswith("{") or not text.strip(" "):
        return found
    parts = legacy_words_module._scanned_parts(text)
    scanned = None if parts is None else legacy_words_module._words(parts)
    found["scanned"] = _checked_kind(scanned)
    if "'" not in text and "\\" not in text:
        found["split"] = _checked_kind(legacy_words_module._words(text.split(" ")))
    elif "\\" not in text and "  " not in text:
        parts = legacy_words_module._quoted_parts(text)
        found["quoted"] = None if parts is None else _checked_kind(legacy_words_module._words(parts))
    return found


def _checked_kind(words: Reading) -> Reading:
    # legacy_words's check of the first word, applied to one reading
    if not words or words[0][0][0] == "{":
        return None
    return words


def reads_as_the_grammar(text: str) -> None:
    expected = by_grammar(text)
    for name, words in readings(text).items():
        assert words == expected, (name, text)
    if expected is not None:  # and the whole syntax node, trails included
        assert parse_syntax(text) == grammar_syntax(text)


@pytest.mark.property
def test_every_text_of_the_test_data_reads_as_the_grammar_reads_it() -> None:
    texts = data_texts()
    assert len(texts) > 10_000
    compared = sample(texts)
    differ = [text for text in compared if text.strip(" ") and not _same(text)]
    assert differ == []
    read = sum(1 for text in compared if legacy_words(text) is not None)
    # the comparison covered many legacy strings (a thousand of all), not only rejections
    assert read > 1_000 * len(compared) / len(texts)


def _same(text: str) -> bool:
    try:
        reads_as_the_grammar(text)
    except AssertionError:
        return False
    return True


@settings(max_examples=examples(500), deadline=None)
@given(grammar_texts("legacy"))
def test_grammar_generated_legacy_strings_read_as_the_grammar_reads_them(text: str) -> None:
    reads_as_the_grammar(text)


_SPECIAL = st.sampled_from([*" '\\-={,\n\t\x00a", "\\'", "''", "\\ ", "\\\\", "é", " -", "'a b'"])
_PREFIX = st.sampled_from(["", "llvm", "llvm ", " llvm ", "llvm -mcpu=", "-", "{", " {", "'", "\\", "' '"])


@settings(max_examples=examples(2000), deadline=None)
@given(_PREFIX, st.lists(_SPECIAL, max_size=25).map("".join))
@example("", "")
@example(" ", "")
def test_random_mixes_of_special_characters_read_as_the_grammar_reads_them(prefix: str, body: str) -> None:
    reads_as_the_grammar(prefix + body)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("llvm", [("llvm", 0)]),
        ("  llvm  -mcpu=x  y ", [("llvm", 2), ("-mcpu=x", 8), ("y", 17)]),
        ("llvm -model='a b'  -x", [("llvm", 0), ("-model='a b'", 5), ("-x", 19)]),
        ("llvm -model=a\\ b", [("llvm", 0), ("-model=a\\ b", 5)]),
        ("llvm -model=a\\", [("llvm", 0), ("-model=a\\", 5)]),
        ("'my kind' -x", [("'my kind'", 0), ("-x", 10)]),
        ("\\-kind", [("\\-kind", 0)]),
        ("-llvm", [("-llvm", 0)]),  # an unknown kind to TVM, not a syntax error
        (" {kind: llvm}", None),
        ("{kind: llvm}", None),
        ("llvm -model='a b", None),
        ("llvm -model=a'b", None),
        # cut at the spaces outside quotes: regions of several spaces, side by side, in a word
        ("llvm -a='x y z' -b=u'v w'x'y z'", [("llvm", 0), ("-a='x y z'", 5), ("-b=u'v w'x'y z'", 16)]),
        ("llvm -a='' ' ' -b", [("llvm", 0), ("-a=''", 5), ("' '", 11), ("-b", 15)]),
        ("llvm -a=' ' ", [("llvm", 0), ("-a=' '", 5)]),
        ("llvm -a=' '\x00 -b", [("llvm", 0), ("-a=' '\x00", 5), ("-b", 13)]),  # no mark to use: scanned
        ("llvm -a=' ' -b='", None),
    ],
)
def test_words_and_where_they_start(text: str, words: Reading) -> None:
    assert legacy_words(text) == words
    reads_as_the_grammar(text)


def test_a_long_text_is_scanned_not_split() -> None:
    # A text past the split bound is scanned whatever it holds, and its words checked one by one.
    text = "llvm" + " " * legacy_words_module.SPLIT_BELOW + "-mcpu=x"
    assert legacy_words(text) == [("llvm", 0), ("-mcpu=x", 4 + legacy_words_module.SPLIT_BELOW)]
    reads_as_the_grammar(text)


def test_the_scanner_uses_the_grammar_terminal() -> None:
    units = legacy_words_module._scanners()[1].pattern
    assert units.endswith(grammar_text().split("\n_UNITS: /", 1)[1].split("/\n", 1)[0])
