"""targetlang fix on the files TVM's maintainers migrated by hand (apache/tvm 2030db36e4, 283fd19683).

The parent commit's version of each file (``tests/data/fix/<commit>/*.before``) is fixed with
``--unsafe-fixes``; the result must compile, hold no legacy target literal where a target stands
(but those reported for a hand), and write, target by target, what ``targetlang.migrate`` makes of
the legacy text. ``pairs.jsonl`` records, from TVM 0.27's ``export()`` of both sides
(``tests/fixproof/record_tvm027.py``, ``compare.py``), whether that equals the maintainers'
hand-written target; every pair that is not equal is a row of ``FINDINGS.md``.
"""

from __future__ import annotations

import ast
import functools
import json
import os
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from targetlang.fix import FixResult, fix_source
from targetlang.fix._convert import known_kind, options_of

from .conftest import sample
from .fixproof.targets_in_source import targets_in_source

DATA = Path(__file__).resolve().parent / "data" / "fix"
BEFORE = sorted(p for p in DATA.glob("*/*.py.before"))
PAIRS: list[dict[str, Any]] = [json.loads(line) for line in (DATA / "pairs.jsonl").read_text().splitlines()]
_CODE_ROLES_EXCLUDED = {"comment", "docstring", "text"}


def _fix(name: str) -> FixResult:
    path = DATA / name
    return fix_source(path.read_text(encoding="utf-8"), path=name.removesuffix(".before"), unsafe=True)


Fixed = Callable[[str], FixResult]


@pytest.fixture(scope="session")
def fixed(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Fixed:
    """``fixed(name)``: the file fixed with ``--unsafe-fixes``, made once in a run. The tests of a
    file may run in both workers: the first that needs it fixes it, under a lock, and leaves it
    in the run's temporary folder for the other (a tenth of the suite's time, made twice)."""
    made: dict[str, FixResult] = {}
    if worker_id == "master" or os.name != "posix":  # one process (or no flock): nothing shared
        return functools.cache(_fix)
    shared = tmp_path_factory.getbasetemp().parent / "tvm-files-fixed"  # (the run's, not a worker's)
    shared.mkdir(exist_ok=True)

    def get(name: str) -> FixResult:
        if name not in made:
            stored = shared / name.replace("/", "__")
            import fcntl

            with open(f"{stored}.lock", "wb") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)
                if stored.exists():
                    made[name] = pickle.loads(stored.read_bytes())
                else:
                    made[name] = _fix(name)
                    temporary = stored.with_name(f"{stored.name}.{worker_id}")
                    temporary.write_bytes(pickle.dumps(made[name]))
                    temporary.replace(stored)
        return made[name]

    return get


def _name(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


def test_the_data_is_there() -> None:
    assert len(BEFORE) >= 90
    assert len(PAIRS) >= 400


# The files the README's run fixes: a quarter of them (all under TARGETLANG_EXAMPLES=all, in CI);
# the tests over their targets take those files' pairs.
FILES = sample([_name(p) for p in BEFORE])


@pytest.mark.property
@pytest.mark.parametrize("name", FILES)
def test_fixed_file_compiles_and_keeps_no_legacy_target(fixed: Fixed, name: str) -> None:
    result = fixed(name)
    compile(result.text, name, "exec")
    # the findings' lines are the source's; a fix of two statements moves the lines after it
    by_hand = {f.before for f in result.findings if not f.applied}
    for site in targets_in_source(result.text):
        value = site.value
        if site.role in _CODE_ROLES_EXCLUDED or not isinstance(value, str):
            continue
        words = options_of(value)
        if words is not None and known_kind(words[0], None):
            assert site.source in by_hand, f"{name}:{site.line}: legacy target left unreported: {value!r}"


@pytest.mark.property
@pytest.mark.parametrize("name", FILES)
def test_a_second_run_changes_nothing(fixed: Fixed, name: str) -> None:
    # (the fixed point of the safe fixes: tests/test_fix_fixed_point.py)
    result = fixed(name)
    again = fix_source(result.text, path=name.removesuffix(".before"), unsafe=True)
    assert again.text == result.text


def _code_pairs() -> list[dict[str, Any]]:
    chosen = []
    for pair in PAIRS:
        before = pair.get("before")
        if not before or before.get("role") in _CODE_ROLES_EXCLUDED or pair["class"] in ("unpaired", "unchanged"):
            continue
        try:
            value = ast.literal_eval(before["expr"])
        except (ValueError, SyntaxError):
            continue
        if isinstance(value, str) and options_of(value) is not None:
            chosen.append(pair)
    return chosen


CODE_PAIRS = _code_pairs()


def test_many_literal_pairs() -> None:
    assert len(CODE_PAIRS) >= 200


def _before_of(pair: dict[str, Any]) -> str:
    file = str(pair["file"])
    return file + ".py.before" if not file.endswith(".py") else file + ".before"


_SAMPLED_PAIRS = [pair for pair in CODE_PAIRS if _before_of(pair) in FILES]


@pytest.mark.property
@pytest.mark.parametrize("pair", _SAMPLED_PAIRS, ids=[f"{p['file']}:{p['before']['line']}" for p in _SAMPLED_PAIRS])
def test_written_target_is_the_migrated_one(fixed: Fixed, pair: dict[str, Any]) -> None:
    result = fixed(_before_of(pair))
    line, column = pair["before"]["line"], pair["before"]["column"] + 1
    found = [f for f in result.findings if (f.line, f.column) == (line, column)]
    assert found, f"no finding at {line}:{column}"
    finding = found[0]
    if finding.after is None:
        assert finding.safety == "report-only"
        return
    written = ast.literal_eval(finding.after)
    if isinstance(written, str):  # a tag
        assert pair["class"] in ("equal", "equal-but-tag")
        return
    assert written == pair["ours"]


def test_every_difference_from_the_maintainers_is_documented() -> None:
    findings = (DATA / "FINDINGS.md").read_text(encoding="utf-8")
    for pair in PAIRS:
        if pair["class"] in ("differ", "maintainers-rejected", "differ-model-only", "equal-but-tag"):
            where = f"{pair['file']}:{pair['before']['line'] if pair.get('before') else '?'}"
            assert where in findings, where


# The targets the maintainers built of run-time values by hand ("equal-symbolic": equal once the
# values are filled in), and what the unsafe fix writes where it does not write their code.
SYMBOLIC = [pair for pair in PAIRS if pair["class"] == "equal-symbolic"]
_OURS_DIFFER = {
    # the maintainers stripped the triple (TVM's reader split the string at spaces), and kept the
    # value JSON text with json.dumps, as the fix does: the value is read as text by a C function
    "2030db36e4/python__tvm__runtime__module.py:267": ('triple.strip()', "triple"),
    # the helper took a number: the fix writes the conversion it went through, int(...)
    "283fd19683/tests__python__s_tir__meta_schedule__test_meta_schedule_postproc_verify_vtcm_limit.py:114": (
        '"vtcm-capacity": vtcm_cap',
        '"vtcm-capacity": int(vtcm_cap)',
    ),
}


def _code(text: str) -> object:
    """The code of a dict, its entries in any order."""
    node = ast.parse(text.replace("'", '"').strip(), mode="eval").body
    if isinstance(node, ast.Dict):
        return sorted((ast.dump(k) if k else "**", ast.dump(v)) for k, v in zip(node.keys, node.values, strict=True))
    return ast.dump(node)


@pytest.mark.parametrize("pair", SYMBOLIC, ids=[f"{p['file']}:{p['before']['line']}" for p in SYMBOLIC])
def test_targets_of_run_time_values_are_written_as_the_maintainers_wrote_them(
    fixed: Fixed, pair: dict[str, Any]
) -> None:
    result = fixed(pair["file"] + ".py.before" if not pair["file"].endswith(".py") else pair["file"] + ".before")
    line, column = pair["before"]["line"], pair["before"]["column"] + 1
    [finding] = [f for f in result.findings if (f.line, f.column) == (line, column)]
    assert finding.safety == "unsafe" and finding.applied and finding.after is not None
    theirs = pair["after"]["expr"]
    where = f"{pair['file']}:{line}"
    if where in _OURS_DIFFER:
        old, new = _OURS_DIFFER[where]
        theirs = " ".join(theirs.split()).replace("{ ", "{").replace(", }", "}").replace(old, new)
    ours = finding.after
    if ours.startswith("json.dumps("):
        ours = ours.removeprefix("json.dumps(").removesuffix(")")
    if ours.startswith("tvm.target.Target("):  # a helper's call: the Target of the dict
        ours = ours.removeprefix("tvm.target.Target(").removesuffix(")")
    assert _code(ours) == _code(theirs), (ours, theirs)


def test_most_targets_of_run_time_values_are_written_to_the_letter() -> None:
    assert len(SYMBOLIC) == 13 and len(_OURS_DIFFER) == 2
