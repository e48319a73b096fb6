"""Every docstring example in targetlang/ runs as written, module by module."""

from __future__ import annotations

import doctest
import importlib
import io
import pkgutil
from pathlib import Path

import pytest

import targetlang

PACKAGE = Path(targetlang.__file__).resolve().parent
# Every module of the package (targetlang.fix needs libcst, which the test extra installs).
MODULES = sorted(["targetlang", *(info.name for info in pkgutil.walk_packages(targetlang.__path__, "targetlang."))])


def _examples(name: str) -> tuple[int, int, str]:
    """(examples run, failures, the runner's report) of module ``name``'s docstrings."""
    module = importlib.import_module(name)
    report = io.StringIO()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for test in doctest.DocTestFinder().find(module, name):
        runner.run(test, out=report.write)
    return runner.tries, runner.failures, report.getvalue()


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run_as_written(name: str) -> None:
    _, failures, report = _examples(name)
    assert failures == 0, report


def test_every_file_with_an_example_is_a_module_that_runs_it() -> None:
    # a file holding ">>>" that the walk above misses, or whose examples the finder does not see
    # (not in a docstring), would have examples that never run
    files = {path for path in PACKAGE.rglob("*.py") if ">>>" in path.read_text(encoding="utf-8")}
    assert len(files) >= 7
    for path in sorted(files):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        assert name in MODULES, path
        tries, _, _ = _examples(name)
        assert tries > 0, f"{path}: '>>>' outside the docstrings doctest reads"
