"""Identity over the real corpus: every accepted text prints back byte for byte."""

from __future__ import annotations

import json

import pytest

import targetlang

from .conftest import read_jsonl

RECORDS = [r for r in read_jsonl("corpus", "strings.jsonl") if r["form"] in ("legacy-string", "tag", "json")]
TEXTS = list(dict.fromkeys(r["text"] for r in RECORDS))
DICT_LITERALS = [r["text"] for r in read_jsonl("corpus", "strings.jsonl") if r["form"] == "dict-literal"]


@pytest.mark.parametrize("text", TEXTS)
def test_corpus_text_prints_back_exactly_or_is_rejected_cleanly(text: str) -> None:
    try:
        target = targetlang.parse(text)
    except targetlang.TargetError as err:
        # A rejection is a TargetError with a position inside the text, never another exception.
        assert 0 <= err.start <= err.end <= len(text)
        return
    assert str(target) == text
    assert targetlang.parse(target.canonical()) == target
    assert targetlang.parse(target.to_json()) == target


def test_most_of_the_corpus_is_accepted() -> None:
    # v0.22 rejects legacy attributes (-target=, -system-lib) and kinds it no longer had; the
    # rest must parse. The bound guards against a regression that rejects everything.
    accepted = 0
    for text in TEXTS:
        try:
            targetlang.parse(text)
            accepted += 1
        except targetlang.TargetError:
            pass
    assert accepted / len(TEXTS) > 0.75


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("llvm -device=arm_cpu -target=aarch64-linux-gnu", targetlang.UnknownAttributeError),
        ("llvm --system-lib", targetlang.UnknownAttributeError),
        ("hip -mcpu=gfx1100", targetlang.UnknownKindError),
        ("invalidtarget", targetlang.UnknownKindError),
        ("arm/rasp4b", targetlang.UnknownKindError),
        ("llvm -keys=cpu -link-params=0 -mcpu=core-avx2\u201c\uff09", targetlang.UnknownAttributeError),
    ],
)
def test_corpus_texts_tvm_v022_rejected(text: str, error: type[Exception]) -> None:
    assert text in TEXTS
    with pytest.raises(error):
        targetlang.parse(text)


def test_corpus_texts_accepted_by_older_tvm_parse_with_their_registry() -> None:
    legacy = targetlang.builtin_registry("0.8")
    for text in ("llvm --system-lib", "c -runtime=c --link-params --executor=aot", "c -keys=cpu -link-params=0"):
        assert str(targetlang.parse(text, registry=legacy)) == text


@pytest.mark.parametrize("text", DICT_LITERALS)
def test_strict_json_dict_literals_print_back_exactly(text: str) -> None:
    # dict literals copied from Python sources; those that are strict JSON are JSON targets.
    try:
        json.loads(text)
    except ValueError:
        return  # Python-only syntax (trailing commas): the JSON-ish form of a later issue
    try:
        target = targetlang.parse(text)
    except targetlang.TargetError:
        return
    assert str(target) == text


def test_whole_corpus_prints_back_exactly_or_is_rejected_with_a_target_error() -> None:
    # The whole corpus in one pass, every problem listed: an accepted text that does not print
    # back byte for byte, or a rejection by anything but a TargetError.
    problems: list[tuple[str, str]] = []
    for text in TEXTS:
        try:
            printed = str(targetlang.parse(text))
        except targetlang.TargetError:
            continue
        except Exception as err:
            problems.append((text, f"raised {err!r}"))
            continue
        if printed != text:
            problems.append((text, f"printed back as {printed!r}"))
    assert TEXTS and not problems, problems
