"""Where the grammar is, and its text: ``grammar/target.lark``, the single source of truth of the
syntax, inside the installed package or in the source tree."""

from __future__ import annotations

from pathlib import Path

__all__ = ["grammar_path", "grammar_text"]


def grammar_path() -> Path:
    """Where ``target.lark`` is: inside the installed package, or in the source tree."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "grammar" / "target.lark", here.parent / "grammar" / "target.lark"):
        if candidate.is_file():
            return candidate
    raise FileNotFoundError("target.lark is missing from the targetlang installation")


def grammar_text() -> str:
    """The grammar, the single source of truth for the syntax."""
    return grammar_path().read_text(encoding="utf-8")
