"""The documentation's transcripts, checked against what the commands print, or written anew.

A page shows real output: a transcript's test fails when the output changes. After a change that
changes it everywhere on purpose (a TVM release: the newest release's name is in many messages),
``python -m pytest --refresh-docs`` writes what each command prints now in place of what the
page showed, then the tests pass; so is the prose that names the newest release, and a release's
row of docs/migration.md's table is added from its data (``tests/test_modern_releases.py``).
Read the diff before committing it: a refreshed transcript is whatever the code printed. Only
text a test compares is written, each change in one page at a time (a lock on the page: the
suite's workers may refresh the same page at once).
"""

from __future__ import annotations

import fcntl
from pathlib import Path

__all__ = ["REFRESH", "shown"]

REFRESH: dict[str, bool] = {"docs": False}
"""Whether this run writes the transcripts anew (``--refresh-docs``; set by conftest)."""


def shown(page: Path, old: str, new: str, where: str) -> None:
    """The text ``old`` of ``page`` is what was printed, ``new``: else the test fails or, under
    ``--refresh-docs``, ``new`` is written in its place. ``old`` must stand in the page once."""
    if old == new:
        return
    if not REFRESH["docs"]:
        assert new == old, where
    with page.open("r+", encoding="utf-8") as file:
        fcntl.flock(file, fcntl.LOCK_EX)
        text = file.read()
        count = text.count(old)
        assert count == 1, f"{where}: the text shown stands {count} times in {page}: refresh it by hand"
        file.seek(0)
        file.write(text.replace(old, new))
        file.truncate()
