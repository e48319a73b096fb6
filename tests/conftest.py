"""Shared test helpers: the test data (tests/data, see its SOURCES.md) and the ``run`` fixture."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from targetlang._cli import main

DATA = Path(__file__).resolve().parent / "data"


def data_path(*parts: str) -> Path:
    """A path under tests/data; fails loudly when the file is missing."""
    path = DATA.joinpath(*parts)
    if not path.exists():
        raise FileNotFoundError(f"test data missing: {path}")
    return path


def read_jsonl(*parts: str) -> list[dict[str, Any]]:
    """The records of a JSON-lines file under tests/data."""
    with data_path(*parts).open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Run:
    """``run(*argv, stdin=None)``: the ``targetlang`` command in this process; returns (status,
    stdout, stderr)."""

    def invoke(*argv: str, stdin: bytes | None = None) -> tuple[int, str, str]:
        if stdin is not None:
            # A text stream over bytes, like the real sys.stdin: the CLI reads its .buffer.
            monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
        status = main(list(argv))
        out, err = capsys.readouterr()
        return status, out, err

    return invoke
