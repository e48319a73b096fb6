"""The fuzz targets of fuzz/ run without atheris here: on their stored corpus, on real seeds, and
against a deliberately broken library, which each must catch."""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import targetlang
import targetlang.fix
import targetlang.fix._python
import targetlang.fix._python_syntax
import targetlang.fix.rules.text_target

FUZZ = Path(__file__).resolve().parents[1] / "fuzz"
sys.path.insert(0, str(FUZZ))

import common  # noqa: E402 -- from fuzz/, on the path just above
import make_seeds  # noqa: E402
import targets  # noqa: E402

from .conftest import read_jsonl  # noqa: E402

NAMES = ["parse_text", "parse_dict", "printers", "migrate", "log_line", "fix"]
# the targets that read targets: a broken canonical form breaks what they check
READERS = [name for name in NAMES if name != "fix"]


def stored(name: str) -> Iterator[bytes]:
    for path in sorted((FUZZ / "corpus" / name).glob("*")):
        yield path.read_bytes()


@pytest.mark.parametrize("name", NAMES)
def test_every_target_keeps_its_promises_on_its_stored_corpus(name: str) -> None:
    run: Callable[[bytes], None] = getattr(targets, name)
    inputs = list(stored(name))
    assert inputs, f"fuzz/corpus/{name} is empty"
    for data in inputs:
        run(data)


SEEDS = {
    "parse_text": [b"llvm -mcpu=skylake -mattr=+avx2,+fma", b"nvidia/jetson-nano", b"{kind: cuda, host: llvm}"],
    "parse_dict": [b'{"kind": "cuda", "arch": "sm_80", "host": {"kind": "llvm"}}'],
    "printers": [b"cuda -arch=sm_80 -libs=cudnn", b"llvm -mcpu=cortex-m55"],
    "migrate": [b"\x00llvm -target=aarch64-linux-gnu -libs=mkldnn", b"\x05cuda -model='tx 2'"],
    "log_line": [b'{"input": ["llvm -libs=mkldnn", "dense", [], {}], "version": 0.2, "tvm_version": "0.19.0"}'],
}


@pytest.mark.parametrize("name", READERS)
def test_every_target_catches_a_broken_canonical_form(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    run: Callable[[bytes], None] = getattr(targets, name)
    for data in SEEDS[name]:
        run(data)  # the real library keeps its promises
    # A canonical form that drops the last attribute breaks parse(t.canonical()) == t.
    real = targetlang.Target.canonical

    def broken(self: targetlang.Target) -> str:
        text = real(self)
        return text.rsplit(" -", 1)[0] if " -" in text else text

    monkeypatch.setattr(targetlang.Target, "canonical", broken)
    if name == "log_line":
        # The log target checks splicing and migration: break migration's written form instead.
        import targetlang.logs.migration as log_migration

        monkeypatch.setattr(log_migration, "json_text", lambda value, *a, **k: "broken -x=1")
    with pytest.raises(common.Broken):
        for data in SEEDS[name]:
            run(data)


def test_only_target_errors_escape_from_odd_inputs() -> None:
    for data in (
        b"",
        b"\xff\xfe",
        b"{",
        b"llvm -host='",
        b"\x00" * 10,
        "llvm -mcpu=\udcff".encode("utf-8", "surrogateescape"),
    ):
        for name in NAMES:
            getattr(targets, name)(data)


def test_seeds_are_the_real_texts_and_log_lines_of_tests_data(tmp_path: Path) -> None:
    assert make_seeds.main([str(tmp_path), "--generated", "1"]) == 0
    seeds = {name: {p.read_bytes() for p in (tmp_path / name).iterdir()} for name in NAMES}
    corpus = {r["text"].encode("utf-8", "surrogateescape") for r in read_jsonl("corpus", "strings.jsonl")}
    assert corpus <= seeds["parse_text"] and corpus <= seeds["printers"]
    assert len(seeds["log_line"]) > 100
    for data in sorted(seeds["log_line"]):
        targets.log_line(data)
    # fix: excerpts of the real Python of tests/data/fix, and files of every language it reads
    fixes = seeds["fix"]
    assert len(fixes) > 150
    assert {data[0] & 7 for data in fixes} == set(range(8))
    real = FUZZ.parent / "tests" / "data" / "fix" / "flow" / "target-api-1.py.txt"
    excerpts = make_seeds.python_excerpts(real)
    assert excerpts
    for excerpt in excerpts:  # whole lines of the file, as they are there
        assert excerpt.encode() in {data[1:] for data in fixes if data[0] & 7 < 3}
        assert set(excerpt.splitlines()) <= set(real.read_text(encoding="utf-8").splitlines())


# fix inputs: the first byte picks the file (0 Python, 3 a shell script, 4 Markdown with its
# blocks fixed, 6 reStructuredText), unsafe fixes (8) and the line length (0x40: 40, 0x80: none).
FIX_SEEDS = [
    b"\x00import tvm\nt = tvm.target.Target('cuda -arch=sm_80')\nlib = tvm.compile(mod, target=t)\n",
    b"\x08def f(target):\n    return target.arch, tvm.target.cuda(model='a100').model\n",
    b"\x40x = Target(\n    ('llvm -mcpu=skylake -mattr=+avx2,+fma -num-cores=8')\n)\n",
    b"\x03tvmc compile --target \"llvm -mcpu=skylake\" model.onnx\n",
    b"\x04Build:\n\n```python\nimport tvm\nt = tvm.target.Target('llvm -mcpu=a53')\n```\n",
    b"\x06.. code-block:: python\n\n   t = Target('cuda -arch=sm_80')\n",
]


def test_the_fix_target_keeps_its_promises_on_python_and_text() -> None:
    for data in FIX_SEEDS:
        targets.fix(data)
    options = targets.fix_options(0x08 | 0x40)
    assert (options["path"], options["unsafe"], options["line_length"]) == ("fuzz.py", True, 40)
    assert {targets.fix_options(choice)["path"] for choice in range(8)} >= {"fuzz.py", "run.sh", "README.md"}


Fault = Callable[[str, str, list[Any]], tuple[str, list[Any]]]
_real_python_fixer = targetlang.fix._python_fixer
_real_fix_text = targetlang.fix.rules.text_target.fix_text


def _python_broken(how: Fault) -> Callable[[], Any]:
    """The Python fixer, its answer for each text changed by ``how(text, fixed, findings)``."""

    def fixer() -> Callable[..., tuple[str | None, list[Any]]]:
        real = _real_python_fixer()

        def broken(text: str, **options: Any) -> tuple[str | None, list[Any]]:
            fixed, findings = real(text, **options)
            if fixed is None:  # checking: the text is not made, the findings are broken alike
                return None, how(text, text, findings)[1]
            return how(text, fixed, findings)

        return broken

    return fixer


def _refuses(text: str, fixed: str, findings: list[Any]) -> tuple[str, list[Any]]:
    raise targetlang.SourceSyntaxError("cannot parse Python", text, 0, 0)


def _misplaces(findings: list[Any]) -> list[Any]:
    return [dataclasses.replace(f, column=f.column + 1) for f in findings]


# nothing to fix, though the fixer reads it (a modern target: the file is worth parsing)
_UNCHANGED = b"\x00import tvm\nt = tvm.target.Target({'kind': 'cuda'})\n"

# Each a fault the fix target must catch: the input that shows it, and what the target reports.
FIX_FAULTS: dict[str, tuple[Fault, bytes, str]] = {
    # a fix that leaves a bracket open
    "invalid": (lambda text, fixed, found: (fixed + ")", found), FIX_SEEDS[0], "valid Python became invalid"),
    # a text changed where nothing was applied (as LibCST's printing drops a last lone \r)
    "unasked": (lambda text, fixed, found: (fixed + "\n", found), _UNCHANGED, "the text changed though no fix"),
    # findings one column off
    "misplaced": (lambda text, fixed, found: (fixed, _misplaces(found)), FIX_SEEDS[0], "the text at a finding's"),
    # an unsafe finding applied without unsafe fixes
    "unsafe": (
        lambda text, fixed, found: (fixed, [dataclasses.replace(f, safety="unsafe") for f in found]),
        FIX_SEEDS[0],
        "an unsafe fix applied",
    ),
    # a fix loop that stops short of the fixed point: a second run finds a target again
    "loop": (
        lambda text, fixed, found: (fixed.replace("{", "Target('llvm -mcpu=x') or {", 1), found),
        FIX_SEEDS[0],
        "not a fixed point",
    ),
    # valid Python refused
    "refused": (_refuses, FIX_SEEDS[0], "valid Python refused"),
}


@pytest.mark.parametrize("fault", list(FIX_FAULTS))
def test_the_fix_target_catches_a_broken_fixer(fault: str, monkeypatch: pytest.MonkeyPatch) -> None:
    how, data, reported = FIX_FAULTS[fault]
    targets.fix(data)  # the real fixer keeps its promises
    monkeypatch.setattr(targetlang.fix, "_python_fixer", _python_broken(how))
    with pytest.raises(common.Broken, match=reported):
        targets.fix(data)


def test_the_fix_target_catches_checking_that_finds_otherwise(monkeypatch: pytest.MonkeyPatch) -> None:
    data = FIX_SEEDS[0]
    targets.fix(data)

    def fixer() -> Callable[..., tuple[str | None, list[Any]]]:
        real = _real_python_fixer()

        def forgetful(text: str, **options: Any) -> tuple[str | None, list[Any]]:
            fixed, findings = real(text, **options)
            return (fixed, findings[:-1]) if options.get("check") else (fixed, findings)

        return forgetful

    monkeypatch.setattr(targetlang.fix, "_python_fixer", fixer)
    with pytest.raises(common.Broken, match="checking is not fixing"):
        targets.fix(data)


def test_the_fix_target_catches_a_misplaced_finding_in_a_shell_script(monkeypatch: pytest.MonkeyPatch) -> None:
    data = FIX_SEEDS[3]
    targets.fix(data)

    def misplaced(text: str, **options: Any) -> tuple[str, list[Any]]:
        fixed, findings = _real_fix_text(text, **options)
        return fixed, _misplaces(findings)

    monkeypatch.setattr(targetlang.fix.rules.text_target, "fix_text", misplaced)
    with pytest.raises(common.Broken, match="the text at a finding's place"):
        targets.fix(data)


def test_the_fix_target_catches_python_accepted_that_does_not_parse(monkeypatch: pytest.MonkeyPatch) -> None:
    data = b"\x00import tvm\nt = tvm.target.Target('cuda -arch=sm_80'\n"  # a bracket left open
    targets.fix(data)  # refused: a TargetError
    monkeypatch.setattr(targetlang.fix._python_syntax, "check_syntax", lambda text, path: None)
    monkeypatch.setattr(targetlang.fix._python_syntax, "hits_of", lambda text, registry, table: ([], False))
    with pytest.raises(common.Broken, match="Python that does not parse was fixed"):
        targets.fix(data)
