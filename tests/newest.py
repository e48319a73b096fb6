"""The newest TVM release targetlang has the data of, written once for the tests, and the lists
they name that follow from it: the default of ``--target-version``, the last of a range of
releases, the releases a message lists. Adding a release is its data and this constant
(CONTRIBUTING.md, "A TVM release"): ``tests/test_releases.py`` checks it against the data; a test
about one release names that release."""

from __future__ import annotations

NEWEST_MINOR = 27
NEWEST = f"0.{NEWEST_MINOR}"
"""What ``migrate`` and ``fix`` write for by default, and the last release of every range."""
MODERN_NAMES = tuple(f"0.{minor}" for minor in range(24, NEWEST_MINOR + 1))
"""The modern releases, v0.24 (the first that read JSON only) to the newest."""
MODERN_LIST = ", ".join(MODERN_NAMES)
"""The modern releases as messages list them: ``0.24, 0.25, 0.26, 0.27``."""
DISTRIBUTION_LIST = ", ".join(("tirx-0.1", *MODERN_NAMES))
"""What ``--target-version`` takes, as messages list it: the named distributions, then the releases."""
UNKNOWN = f"0.{NEWEST_MINOR + 1}"
"""A release after the newest: one targetlang has no data of."""


def to_newest(first: str) -> str:
    """The releases from ``first`` to the newest as messages write a run of them: ``TVM v0.27``,
    ``TVM v0.25 - v0.27``."""
    return f"TVM v{first}" if first == NEWEST else f"TVM v{first} - v{NEWEST}"
