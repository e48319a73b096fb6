"""The fuzz targets of fuzz/ run without atheris here: on their stored corpus, on real seeds, and
against a deliberately broken library, which each must catch."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import targetlang

FUZZ = Path(__file__).resolve().parents[1] / "fuzz"
sys.path.insert(0, str(FUZZ))

import common  # noqa: E402 -- from fuzz/, on the path just above
import make_seeds  # noqa: E402
import targets  # noqa: E402

from .conftest import read_jsonl  # noqa: E402

NAMES = ["parse_text", "parse_dict", "printers", "migrate", "log_line"]


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


@pytest.mark.parametrize("name", NAMES)
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
