"""TVM's ``Interpret`` and ``IsQuoted`` read a value in whole runs (str.replace and counts) where
they can: the tricky cases of escapes and quotes, by hand, each way the reading goes."""

from __future__ import annotations

import pytest

from targetlang._lexical import interpret, interpret_offsets, is_quoted

# Every character the readers use to stand for an escaped backslash: a text holding them all is
# read the slow way.
ALL_MARKS = "\x00\x01\ufffe\uffff\U0010fffe\U0010ffff"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("plain", "plain"),
        ("", ""),
        ("''", ""),
        ("'a b'", "a b"),
        # quotes alone: a region is kept with its quotes, only the enclosing pair goes
        ("''''", "''''"),  # two regions, neither enclosing the whole
        ("a'b'c", "a'b'c"),
        ("'a'b'", "'a'b'"),
        ("'''", "'''"),
        ("'unclosed", "'unclosed"),
        # escapes outside any region
        ("a\\ b", "a b"),
        ("\\\\", "\\"),
        ("\\\\\\", "\\"),
        ("\\\\\\\\", "\\\\"),
        ("\\\\\\a", "\\a"),
        ("a\\", "a"),
        ("\\", ""),
        ("\\'", "'"),
        ("\\'\\'", "''"),
        ("'\\'\\''", "''"),
        ("\\\\'", "\\'"),
        # inside a region escapes and quotes are kept as written
        ("x'a\\'b'y", "x'a\\'b'y"),
        ("\\\\'a\\\\b'\\\\", "\\'a\\\\b'\\"),
        ("'a\\", "'a\\"),
        ("x'a\\", "x'a\\"),
        ("a\\''b\\'c'", "a''b\\'c'"),
        ("\\''\\'", "''\\'"),
        # a text that holds every mark: the escapes are taken one at a time
        (ALL_MARKS + "\\\\a\\b", ALL_MARKS + "\\ab"),
        (ALL_MARKS + "\\\\'\\\\'\\'", ALL_MARKS + "\\'\\\\''"),
        (ALL_MARKS + "\\'\\\\", ALL_MARKS + "'\\"),
    ],
)
def test_interpret(value: str, expected: str) -> None:
    assert interpret(value) == expected
    assert "".join(value[i] for i in interpret_offsets(value)) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("''", True),
        ("'a'", True),
        ("'", False),
        ("'a", False),
        ("a'", False),
        ("'a'b'", False),
        ("'a\\'b'", True),
        ("'a\\'", False),  # the escape takes the closing quote
        ("'a\\\\'", True),
        ("'a\\\\\\'", False),
        ("'\\\\\\\\'", True),
        ("'\\''", True),  # the escaped quote is inside
        ("'\\'\\''", True),
        ("''''", False),
        ("'a b\\ c'", True),
    ],
)
def test_is_quoted(value: str, expected: bool) -> None:
    assert is_quoted(value) is expected
