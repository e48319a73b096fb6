"""The grammar file itself: strict LALR, shipped with the package, lossless on its own."""

from __future__ import annotations

import pytest

from targetlang._grammar_file import grammar_path
from targetlang._syntax import LegacySyntax, build_strict_parser, parse_syntax


def test_grammar_builds_with_lalr_strict() -> None:
    # strict=True fails on any shift/reduce conflict or terminal collision.
    parser = build_strict_parser()
    assert parser.options.parser == "lalr"


def test_grammar_ships_inside_the_package_or_the_checkout() -> None:
    path = grammar_path()
    assert path.name == "target.lark"
    assert path.parent.name == "grammar"


@pytest.mark.parametrize(
    "text",
    [
        "llvm",
        "  llvm  -mcpu  skylake  ",
        "vulkan -device_name='Name of GPU with spaces' -x",
        "llvm -mcpu=a\\ b\\",
        "x'a b'y -z=''",
        '{"kind": "llvm", "a": [1, -2.5e3, true, false, null, {}], "b": "\\u00e9\\n"}',
        '{\n\t"kind" :"llvm" }\n',
    ],
)
def test_syntax_renders_back_exactly(text: str) -> None:
    assert parse_syntax(text).render() == text


def test_words_split_from_their_separators() -> None:
    syntax = parse_syntax(" llvm  -mcpu skylake\\  -x ")
    assert isinstance(syntax, LegacySyntax)
    assert syntax.lead == " "
    assert (syntax.kind.text, syntax.kind.trail) == ("llvm", "  ")
    assert [(w.text, w.trail) for w in syntax.words] == [("-mcpu", " "), ("skylake\\ ", " "), ("-x", " ")]


def test_language_reference_embeds_the_grammar_verbatim() -> None:
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[1] / "docs" / "language.md").read_text(encoding="utf-8")
    embedded = doc.split("<!-- grammar:begin -->\n```lark\n", 1)[1].split("```\n<!-- grammar:end -->", 1)[0]
    assert embedded == grammar_path().read_text(encoding="utf-8")
