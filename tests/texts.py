"""Every text of the test data, for tests that compare two readings of the language."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data"


def _walk(value: Any, texts: set[str]) -> None:
    if isinstance(value, str):
        texts.add(value)
    elif isinstance(value, dict):
        if "kind" in value:  # a target as a JSON object
            texts.add(json.dumps(value))
            texts.add(json.dumps(value, indent=1))
        for item in value.values():
            _walk(item, texts)
    elif isinstance(value, list):
        for item in value:
            _walk(item, texts)


@cache
def data_texts() -> tuple[str, ...]:
    """Every string in the JSON and JSON Lines files of the test data (the corpus, the
    conformance cases, the oracle records, tuning logs), and every JSON target object there."""
    texts: set[str] = set()
    for path in sorted(DATA.rglob("*")):
        if path.suffix not in (".json", ".jsonl", ".log", ".txt"):
            continue
        content = path.read_text(encoding="utf-8", errors="replace")
        chunks = [content] if path.suffix == ".json" else content.splitlines()
        for chunk in chunks:
            try:
                _walk(json.loads(chunk), texts)
            except ValueError:
                texts.add(chunk)
    return tuple(sorted(texts))
