"""The memory of ``logs stats`` and ``explain -`` over long targets: bounded, whatever their number.

``logs stats`` kept every distinct target read, and a long ``-mattr`` list read holds several
bytes per byte of it: 500 distinct 200 KB targets took 520 MB of address space. ``explain`` built
its text whole, every row of its table padded to a long value's width, then joined it, then
encoded it. Each runs here in a child whose address space is capped (``RLIMIT_AS``, before
targetlang is imported) at 40 - 70 % of what it took then, and at 1.7 - 5 times what
it takes now. The rest checks in this process that the texts the counts keep in a file come back
as they went: the same report, in the same order, whichever process counted them.
"""

from __future__ import annotations

import json
import pickle
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from targetlang.logs import _held_texts, parse_line, stats
from targetlang.logs.stats import LONG, Stats
from targetlang.logs.targets import TargetReader

from .attacks import _env
from .attacks.memory import CAPPED, explain_report, explain_spec, stats_log, stats_report
from .newest import NEWEST

MB = 1 << 20

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS as measured on Linux")


def _capped(cap: int, argv: list[str], out: Path, stdin: Path | None = None) -> subprocess.CompletedProcess[bytes]:
    with open(out, "wb") as written, open(stdin or "/dev/null", "rb") as given:
        return subprocess.run(
            [sys.executable, "-c", CAPPED, str(cap), *argv],
            stdin=given,
            stdout=written,
            stderr=subprocess.PIPE,
            env=_env(),
            timeout=300,
            check=False,
        )


# ------------------------------------------------------------------ logs stats under a cap

RECORDS = 300
SIZE = 200_000
STATS_CAP = 200 * MB  # 310 MB before (a record of 200 KB held a MB); 43 MB now


@pytest.fixture(scope="module")
def long_log(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[bytes]]:
    """300 AutoTVM records, each a distinct 200 KB target: a -mattr list of 1 KB items."""
    path = tmp_path_factory.mktemp("long") / "tune.log"
    return path, stats_log(path, RECORDS, SIZE, lambda n: "mattr")


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_stats_of_distinct_long_targets_stays_under_a_cap(
    long_log: tuple[Path, list[bytes]], tmp_path: Path, as_json: bool
) -> None:
    log, digests = long_log
    argv = ["logs", "stats", "-j", "1", *(["--json"] if as_json else []), str(log)]
    done = _capped(STATS_CAP, argv, tmp_path / "out")
    assert (done.returncode, done.stderr) == (0, b"")
    # every target shown whole, in the order of the log (each is held by one record)
    assert stats_report(tmp_path / "out", RECORDS, digests, as_json) is None


# ------------------------------------------------------------------ explain - under a cap

_OTHERS = (
    '"mtriple": "x86_64-linux-gnu", "device": "arm_cpu", "model": "m1", "libs": ["cblas"], "opt-level": 3, '
    '"num-cores": 4, "mabi": "lp64", "mfloat-abi": "hard"'
)


def test_explain_of_a_long_array_stays_under_a_cap(tmp_path: Path) -> None:
    # 8 MB, 333,333 items of 24 characters and 8 other attributes: 330 MB before, 143 MB now
    spec = tmp_path / "spec.json"
    items = explain_spec(spec, 8_000_000, 24, 8)
    done = _capped(240 * MB, ["explain", "-"], tmp_path / "out", stdin=spec)
    assert (done.returncode, done.stderr) == (0, b"")
    assert explain_report(tmp_path / "out", items, as_json=False) is None


def test_explain_of_a_long_value_stays_under_a_cap(tmp_path: Path) -> None:
    # a 10 MB value and 8 other attributes, each a row padded to the value's width: 357 MB
    # before, 106 MB now
    spec = tmp_path / "spec.json"
    value = "a" * 10_000_000
    spec.write_text('{"kind": "llvm", ' + _OTHERS + ', "mcpu": "' + value + '"}')
    done = _capped(200 * MB, ["explain", "-"], tmp_path / "out", stdin=spec)
    assert (done.returncode, done.stderr) == (0, b"")
    with open(tmp_path / "out", encoding="utf-8") as lines:
        head = next(lines)
        rows = {line.split(" ", 1)[0]: line for line in lines}
    assert head.startswith('{"kind": "llvm", "mtriple"') and head.endswith(f"in TVM {NEWEST}: kept\n")
    # the value's 10,000,000 characters as a count: a pattern holding them took 10 s to compile
    assert re.fullmatch(f'mcpu +"a{{{len(value)}}}"  string +written +written +kept\n', rows["mcpu"])
    # the value column as wide as the value, in every row
    assert rows["device"].index('"arm_cpu"') == rows["mcpu"].index('"a')
    assert rows["device"].index("  string ") == rows["mcpu"].index("  string ") == rows["mcpu"].index('"a') + 10_000_002
    assert rows["migrated:"].endswith(f'"mcpu": "{value}"}}\n')


# ------------------------------------------------------------------ long texts, in this process

_PREFIX = "llvm -device=arm_cpu -model=" + "p" * LONG


def _autotvm(spec: str, version: str = "0.19.0") -> str:
    record = {"input": [spec, "dense", [], {}], "result": [[0.1], 0, 1, 1], "version": 0.2, "tvm_version": version}
    return json.dumps(record)


def _auto_scheduler(spec: str, host: str = "") -> str:
    record = {"i": [['["matmul", 1]', spec, [18, 64, 64, 0, 0, 0, 0, 0], host], [[], []]], "r": [[0.1], 0], "v": "v0.6"}
    return json.dumps(record)


def _lines() -> Iterator[str]:
    """Records of long and short targets: models that differ only past their first 4,096
    characters, a long -keys list, a long TVM version, a long host, a target that fails, and the
    -target that AutoTVM's JSON reader rewrote, in records of two formats."""
    for suffix in ("c", "a", "b", "a"):
        yield _autotvm(_PREFIX + suffix)
    yield _autotvm("llvm -keys=" + ",".join(f"key{n}" for n in range(1500)))
    yield _autotvm("llvm -mcpu=skylake", "0.19." + "9" * LONG)
    yield _auto_scheduler("llvm -mcpu=skylake", "llvm -mcpu=" + "h" * LONG)
    yield _autotvm("llvm -mcpux=" + "q" * LONG)
    yield _auto_scheduler("llvm -target=aarch64-linux-gnu -model=" + "t" * (LONG + 1))
    yield _autotvm("llvm -target=aarch64-linux-gnu -model=" + "t" * (LONG + 1))
    yield _autotvm("llvm -mcpu=skylake")


def _counted(lines: list[str]) -> Stats:
    counts = Stats(TargetReader())
    counts.files = 1
    for number, line in enumerate(lines, 1):
        counts.add(parse_line(line, line=number))
    return counts


def test_long_texts_come_back_as_they_went() -> None:
    counts = _counted(list(_lines()))
    long = _PREFIX[len("llvm -device=arm_cpu -model=") :]
    # by count, then by name as strings compare: the long models differ past their first 4,096
    # characters only, and the one of "-target" (one record's, rewritten) comes last
    models = {"unknown": 4, "?": 2, long + "a": 2, long + "b": 1, long + "c": 1, "t" * (LONG + 1): 1}
    shown = ", ".join(f"{name} {n}" for name, n in sorted(models.items(), key=lambda item: (-item[1], item[0])))
    assert shown.startswith(f"unknown 4, ? 2, {long}a 2, {long}b 1, {long}c 1, ttt")
    report = counts.table().splitlines()
    assert report[-3] == f"models: {shown}"
    rows = {row["spec"]: row for row in (entry.to_json() for entry in counts.rows())}
    assert rows[_PREFIX + "a"]["records"] == 2 and rows[_PREFIX + "a"]["model"] == long + "a"
    keys = rows["llvm -keys=" + ",".join(f"key{n}" for n in range(1500))]["keys"]
    assert keys == [f"key{n}" for n in range(1500)]  # (keys given: none of the kind's added)
    assert rows["llvm -mcpu=skylake"]["tvm_versions"] == {"0.19." + "9" * LONG: 1, "-": 1, "0.19.0": 1}
    assert rows["llvm -mcpu=" + "h" * LONG]["field"] == "host"
    assert rows["llvm -mcpux=" + "q" * LONG]["check"] == "UnknownAttributeError"
    # the targets of 8 records of v0.19.0, 2 of auto_scheduler (no version) and 1 of the long one
    assert counts.to_json()["tvm_versions"] == {"0.19.0": 8, "-": 2, "0.19." + "9" * LONG: 1}


@pytest.mark.parametrize("names", [1 << 16, 3], ids=["counts in memory", "counts in a database"])
def test_a_long_text_counts_as_a_short_one_would(monkeypatch: pytest.MonkeyPatch, names: int) -> None:
    lines = [*_lines(), _autotvm("llvm -keys=\udc80,\u00e9,e,f,\U0001f600")]
    monkeypatch.setattr(_held_texts, "_NAMES", names)  # past 3 distinct names, counted in SQLite
    held = _counted(lines)
    monkeypatch.setattr(stats, "LONG", 1 << 30)  # every text in memory, as before
    monkeypatch.setattr(_held_texts, "LONG", 1 << 30)
    monkeypatch.setattr(_held_texts, "_NAMES", 1 << 30)
    whole = _counted(lines)
    assert held.table() == whole.table()
    assert [row.to_json() for row in held.rows()] == [row.to_json() for row in whole.rows()]
    assert held.to_json() == whole.to_json()
    written: list[str] = []
    held.write_json(written.append)
    assert "".join(written).splitlines() == [
        *(json.dumps(row.to_json()) for row in whole.rows()),
        json.dumps(whole.to_json()),
    ]


@pytest.mark.parametrize("split", [1, 5, 9])
@pytest.mark.parametrize("names", [1 << 16, 3], ids=["counts in memory", "counts in a database"])
def test_counts_of_two_processes_merge_as_one_count(monkeypatch: pytest.MonkeyPatch, split: int, names: int) -> None:
    # what a worker counts travels pickled, its long texts as text, and is held again here
    monkeypatch.setattr(_held_texts, "_NAMES", names)
    lines = list(_lines())
    counts = _counted(lines[:split])
    worker = pickle.loads(pickle.dumps(_counted(lines[split:])))
    worker.files = 0
    counts.merge(worker)
    assert counts.table() == _counted(lines).table()
    assert counts.to_json() == _counted(lines).to_json()


def test_each_record_counts_as_the_dispatcher_read_it() -> None:
    # AutoTVM's JSON reader rewrote -target to -mtriple, auto_scheduler's did not: one row, whose
    # first record says what it shows, and per record a kind of each
    spec = "llvm -target=aarch64-linux-gnu -model=a"
    lines = [_auto_scheduler(spec), _autotvm(spec)]
    for order in (lines, lines[::-1]):
        report = _counted(order).table().splitlines()
        assert report[3:6] == ["kinds: ? 1, llvm 1", "keys: ? 1, arm_cpu 1, cpu 1", "models: ? 1, a 1"]
        counts = _counted(order[:1])
        counts.merge(pickle.loads(pickle.dumps(_counted(order[1:]))))
        assert counts.table().splitlines()[3:6] == report[3:6]


def test_a_long_spec_with_lone_surrogates_comes_back_whole() -> None:
    spec = "llvm -model=" + "\udc80x" * LONG
    counts = _counted([json.dumps({"input": [spec, "dense", [], {}], "result": [[0.1], 0, 1, 1], "version": 0.2})])
    written: list[str] = []
    counts.write_json(written.append)
    assert json.loads("".join(written).splitlines()[0])["spec"] == spec
    assert counts.rows()[0].spec == spec
