"""tests/doc_refresh.py: a transcript that differs fails, or under --refresh-docs is written anew."""

from __future__ import annotations

from pathlib import Path

import pytest

from .doc_refresh import REFRESH, shown

PAGE = "# Page\n\n```console\n$ targetlang fmt llvm\nold\n```\n"


@pytest.fixture
def refreshing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(REFRESH, "docs", True)


def test_a_transcript_that_differs_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(REFRESH, "docs", False)
    page = tmp_path / "page.md"
    page.write_text(PAGE, encoding="utf-8")
    shown(page, "$ targetlang fmt llvm\nold\n", "$ targetlang fmt llvm\nold\n", "same")
    with pytest.raises(AssertionError, match="here"):
        shown(page, "$ targetlang fmt llvm\nold\n", "$ targetlang fmt llvm\nnew\n", "here")
    assert page.read_text(encoding="utf-8") == PAGE


@pytest.mark.usefixtures("refreshing")
def test_refresh_writes_what_is_printed_in_place_of_what_was_shown(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(PAGE, encoding="utf-8")
    shown(page, "$ targetlang fmt llvm\nold\n", "$ targetlang fmt llvm\nnew\nlines\n", "here")
    assert page.read_text(encoding="utf-8") == "# Page\n\n```console\n$ targetlang fmt llvm\nnew\nlines\n```\n"


@pytest.mark.usefixtures("refreshing")
def test_refresh_writes_nothing_where_the_text_shown_is_not_once(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(PAGE + PAGE, encoding="utf-8")
    with pytest.raises(AssertionError, match="stands 2 times"):
        shown(page, "$ targetlang fmt llvm\nold\n", "$ targetlang fmt llvm\nnew\n", "here")
    assert page.read_text(encoding="utf-8") == PAGE + PAGE
