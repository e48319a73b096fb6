"""Shared test helpers: where the reference data (../shared beside the checkout) lives."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

SHARED = Path(__file__).resolve().parents[1].parent / "shared"


def shared_path(*parts: str) -> Path:
    """A path under ../shared; fails loudly when the reference data is missing."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        raise FileNotFoundError(f"reference data missing: {path} (check out shared/ beside the repository)")
    return path


def read_jsonl(*parts: str) -> list[dict[str, Any]]:
    """The records of a JSON-lines file under ../shared."""
    with shared_path(*parts).open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]
