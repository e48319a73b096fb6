"""Shared test helpers: the test data (tests/data, see its SOURCES.md) and the ``run`` fixture."""

from __future__ import annotations

import gc
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


def pytest_collection_finish(session: pytest.Session) -> None:
    # What collection built (the modules, the test items with their parameters, the tables)
    # lives until the session ends, and so does much of what tests keep (parsers, fixtures of
    # module scope). The collector's full collections walked all of it again and again: 60-90 a
    # worker, 0.2 s each, a sixth of the suite's time. Frozen, and with full collections ten
    # times rarer, that is 3-4 s; young cycles are freed as often as before (the thresholds of
    # generations 0 and 1 are Python's).
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, 100)


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
