"""Checking (``fix_source(check=True)``, what ``fix --check`` and the data formats run) finds what
fixing finds and says whether the fixes would change the text, without making the fixed text."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import targetlang.fix._python
from targetlang.fix import FixResult, fix_source

from .conftest import Run, examples, sample
from .test_fix_fixed_point import _NESTED, TREES
from .test_fix_sparse import _text_fixtures


def _compared(source: str, name: str, unsafe: bool) -> tuple[FixResult, FixResult]:
    fixed = fix_source(source, path=name, unsafe=unsafe, line_length=0, docs=True)
    checked = fix_source(source, path=name, unsafe=unsafe, line_length=0, docs=True, check=True)
    assert checked.text == source
    assert [asdict(f) for f in checked.findings] == [asdict(f) for f in fixed.findings]
    assert checked.errors == fixed.errors
    assert checked.changed == fixed.changed
    return fixed, checked


def _name(path: Path) -> str:
    """The name the file had (its suffix says its language)."""
    name = path.name.removesuffix(".before").removesuffix(".txt").split("__")[-1]
    return name if "." in name else name + ".py"


# The fixtures of the fixer's tests: real files of TVM and of downstream projects, and documents.
FILES = sorted({*TREES, *_text_fixtures()})


def test_the_fixtures_are_there() -> None:
    assert len(FILES) >= 150


# With every pass followed by another (what it wrote read again), the text of each pass before
# the last is made, and checking goes on from it as fixing does.
RUNS = sample([(path, unsafe, again) for path in FILES for unsafe in (False, True) for again in (False, True)])


@pytest.mark.parametrize(
    ("path", "unsafe", "again"),
    RUNS,
    ids=[f"{p.parent.name}/{p.name}{' unsafe' * u}{' read-again' * a}" for p, u, a in RUNS],
)
def test_the_fixtures_are_checked_as_they_are_fixed(
    path: Path, unsafe: bool, again: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if again:
        monkeypatch.setattr(targetlang.fix._python, "worth_parsing", lambda *args, **kwargs: True)
    _compared(path.read_text(encoding="utf-8"), _name(path), unsafe)


def test_most_fixtures_change() -> None:
    changed = sum(fix_source(p.read_text(encoding="utf-8"), path=_name(p), check=True).changed for p in FILES[::3])
    assert changed >= 20


@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(_NESTED), min_size=1, max_size=4), st.booleans(), st.booleans())
def test_code_where_a_fix_holds_another_is_checked_as_it_is_fixed(
    statements: list[str], unsafe: bool, bom: bool
) -> None:
    source = "\ufeff" * bom + "import tvm\nfrom tvm.target import Target\n" + "\n".join(statements) + "\n"
    _compared(source, "m.py", unsafe)


def test_a_check_that_changes_nothing_says_so() -> None:
    for source in ("import tvm\nt = tvm.target.Target({'kind': 'llvm'})\n", "x = 1\n"):
        checked = fix_source(source, path="m.py", check=True)
        assert not checked.changed and checked.text == source
    unsafe_only = "t = 'llvm -mcpu=a'\nprint(t.split())\ntvm.build(m, target=t)\n"
    checked = fix_source("import tvm\n" + unsafe_only, path="m.py", check=True)
    assert checked.findings and not checked.changed  # reported, not applied


def test_the_command_says_what_would_change_without_making_it(run: Run, tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("import tvm\ntvm.build(m, target='llvm -mcpu=a')\n")
    (tmp_path / "b.py").write_text("import tvm\ntvm.build(m, target={'kind': 'llvm'})\n")
    status, out, err = run("fix", "--check", str(tmp_path))
    assert status == 1
    assert "a.py:2:" in out and "b.py" not in out
    assert "1 file would change" in err
    status, out, _ = run("fix", "--statistics", str(tmp_path))
    assert status == 1 and "target-string" in out
