"""The console sessions of the pages no other test replays run as written, from the repository root.

Each ``$ command`` line of a ``console`` block runs in a shell (so redirections such as
``< docs/examples/...`` work) with the installed ``targetlang`` command, and its standard output
and error, in that order, must be the lines that follow it up to the next ``$``. cli.md, fix.md,
logs.md and the README have their own replays (tests/test_cli.py, test_fix_docs.py, test_logs.py,
test_readme.py), which also check the files they create.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .doc_refresh import shown
from .test_cli import console_lines, session_text, transcript

ROOT = Path(__file__).resolve().parents[1]
PAGES = ["docs/index.md", "docs/composite.md"]


def sessions(page: str) -> list[tuple[str, list[str]]]:
    """``(command, expected lines)`` for each command of the page's console blocks."""
    lines = console_lines(ROOT / page)
    assert lines[:1] and lines[0].startswith("$ "), f"{page}: output before any command"
    return transcript(lines)


CASES = [(page, command, expected) for page in PAGES for command, expected in sessions(page)]


def test_every_page_has_a_session() -> None:
    assert {page for page, _, _ in CASES} == set(PAGES)


@pytest.mark.parametrize(("page", "command", "expected"), CASES, ids=[f"{p}:{c[:40]}" for p, c, _ in CASES])
def test_console_session(page: str, command: str, expected: list[str]) -> None:
    assert command.startswith("targetlang "), f"{page}: only targetlang commands are replayed: {command}"
    scripts = Path(sys.executable).parent
    env = {**os.environ, "PATH": f"{scripts}{os.pathsep}{os.environ.get('PATH', '')}", "COLUMNS": "80"}
    assert shutil.which("targetlang", path=env["PATH"]), "the targetlang command is not installed"
    done = subprocess.run(
        ["bash", "-c", f"{command} 2>&1"], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )
    shown(ROOT / page, session_text(command, expected), session_text(command, done.stdout.split("\n")[:-1]), page)
