"""The README's Python examples run as written."""

from __future__ import annotations

import doctest
from pathlib import Path


def test_readme_python_examples() -> None:
    text = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    block = text.split("```python\n", 1)[1].split("```", 1)[0]
    test = doctest.DocTestParser().get_doctest(block, {}, "README", "README.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.failures == 0 and runner.tries >= 8


def test_package_docstring_examples() -> None:
    import targetlang

    result = doctest.testmod(targetlang)
    assert result.failed == 0 and result.attempted >= 3


def test_migration_guide_examples() -> None:
    path = Path(__file__).resolve().parents[1] / "docs" / "migration.md"
    # a fence right after an expected output would read as part of it
    text = path.read_text(encoding="utf-8").replace("\n```", "\n\n```")
    test = doctest.DocTestParser().get_doctest(text, {}, "migration", str(path), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.failures == 0 and runner.tries >= 8


def test_reliability_page_examples() -> None:
    path = Path(__file__).resolve().parents[1] / "docs" / "reliability.md"
    test = doctest.DocTestParser().get_doctest(path.read_text(encoding="utf-8"), {}, "reliability", str(path), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0 and runner.tries >= 4
