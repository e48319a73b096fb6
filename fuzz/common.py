"""What every fuzz target checks, and where their seeds come from.

Each ``fuzz_*.py`` beside this file is an atheris harness for one entry point of targetlang. On
every input, only a :class:`targetlang.TargetError` may escape, and whatever is accepted must keep
the library's promises: ``str(parse(s)) == s``, ``parse(t.canonical()) == t``, ``canonical`` is
idempotent, ``to_json()`` survives ``json.dumps``/``json.loads`` and reads back equal. A broken
promise raises :class:`Broken`, which atheris reports as a crash with the input that caused it.
"""

from __future__ import annotations

import json
from typing import Any

import targetlang
import targetlang._eras
import targetlang._tvmc
import targetlang.logs.check
import targetlang.logs.migration
import targetlang.logs.records
import targetlang.migration


class Broken(AssertionError):
    """A promise of the library does not hold for this input."""


def expect(ok: bool, what: str, *context: Any) -> None:
    if not ok:
        raise Broken(what + "".join(f"\n  {item!r}" for item in context))


def check_target(target: targetlang.Target, text: str | None = None) -> None:
    """The promises every target keeps; ``text`` is what it was read from, when it was text."""
    if text is not None:
        expect(str(target) == text, "str(parse(s)) != s", text, str(target))
    canonical = target.canonical()
    again = targetlang.parse(canonical, registry=target.registry)
    expect(again == target, "parse(t.canonical()) != t", canonical, target, again)
    expect(again.canonical() == canonical, "canonical() is not idempotent", canonical, again.canonical())
    expect(hash(again) == hash(target), "equal targets hash differently", canonical)
    exported = json.loads(json.dumps(target.to_json()))
    back = targetlang.parse(exported, registry=target.registry)
    expect(back == target, "parse(to_json()) != t", exported, target, back)


def text_of(data: bytes) -> str:
    """Input bytes as text: UTF-8 where they are, one surrogate escape per other byte (so every
    byte string maps to a distinct text, lone surrogates included)."""
    return data.decode("utf-8", "surrogateescape")
