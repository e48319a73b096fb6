"""The shortcuts of the ``logs`` commands over auto_scheduler's records (and ``stats``'s over every
format) give what the general path gives, on records at every edge of what auto_scheduler's reader
takes: ints at 32 bits, bools other than 0 and 1, floats where ints go, digits in a step's name,
results it refuses, repeated and unknown members, escapes, non-ASCII, and every other sort of line."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from targetlang.logs._fast_check import CheckLines
from targetlang.logs._fast_migrate import MigrateLines
from targetlang.logs._fast_stats import StatsLines
from targetlang.logs.records import line_record

from .conftest import Run, examples
from .test_logs import ALL_LOGS, LOGS
from .test_logs_jobs import TARGETS, VARIANTS, _small_chunks, generated_log, odd_line, outcome

SCHEDULER_TARGETS = [*TARGETS, "cuda -arch=sm_70", "cuda -arch=sm_80", "llvm -mcpu=core-avx2 -keys=cpu"]
HOSTS = ["", "", "", "llvm -mtriple=aarch64-linux-gnu", "llvm -mcpu=cortex-a53", "llvm -target=aarch64-linux-gnu"]

# The steps a record's state holds, one of each sort, as auto_scheduler writes them.
STEPS: list[list[Any]] = [
    ["SP", 2, 0, 1024, [2, 1, 4], 1],
    ["RE", 2, [0, 4, 1, 5]],
    ["FSP", 4, 0, 0, 2],
    ["AN", 1, 0, 3],
    ["PR", 1, 0, "auto_unroll_max_step$16"],
    ["FU", 3, [0, 1]],
    ["CA", 5, 6, 1],
    ["CR", 6],
    ["CI", 2],
    ["RF", 3, 2, 1],
    ["SA", 1, 2, 3, 4],
    ["CHR", 1, "local", [2]],
    ["CHW", 1, "shared"],
    ["FFSP", 1, 2, [3], 4, 1],
    ["SP", 3, 1, 512, [8], 0],
]
# A few states, so that records share their shapes.
STATES = [STEPS[:8], STEPS[:1] + STEPS[3:7], STEPS, STEPS[11:14], [STEPS[0], STEPS[14], STEPS[4]], []]
NUMBERS = [0, 1, 2, 7, 16, 64, 1024, 99999, 123456789]
# What a record's numbers may be replaced by, now and then: each at an edge of dmlc's reading.
ODD_NUMBERS: list[Any] = [2147483647, 2147483648, -2147483648, -2147483649, 10**20, -1, 1.0, 1e5, True, None, "1"]


def _numbers(value: Any, rng: random.Random, odd: float) -> Any:
    """``value`` with its ints replaced by others (the bools of split steps kept 0 or 1, mostly)."""
    if isinstance(value, list):
        return [_numbers(item, rng, odd) for item in value]
    if type(value) is int:
        return rng.choice(ODD_NUMBERS) if rng.random() < odd else rng.choice(NUMBERS)
    return value


def scheduler_record(rng: random.Random) -> str:
    """An auto_scheduler record, as TVM wrote it mostly, at an edge now and then."""
    odd = 0.01 if rng.random() < 0.3 else 0.0
    state = _numbers(rng.choice(STATES), rng, odd)
    for step in state:
        if step[0] in ("SP", "FFSP") and rng.random() < 0.9:
            step[-1] = rng.choice([0, 1])
    task: list[Any] = [
        json.dumps(["matmul", rng.choice([128, 1024]), "float32"]),
        rng.choice(SCHEDULER_TARGETS) if rng.random() < 0.2 else rng.choice(SCHEDULER_TARGETS[-6:]),
        _numbers([18, 64, 64, 0, 0, 0, 0, 0], rng, odd),
        rng.choice(HOSTS) if rng.random() < 0.2 else "",
        rng.choice([1, 2]),
        ["input0", "input1"],
    ][: rng.choice([2, 3, 5, 5, 5, 5, 5, 5, 6])]
    costs: list[Any] = [rng.random() / 1000 for _ in range(rng.choice([1, 3, 10]))]
    result: list[Any] = [costs, 0, rng.random(), 1607112214]
    shape = rng.random()
    if shape < 0.03:
        result[1] = rng.choice([1.0, 2**31, "0", None, True, 10**20])
    elif shape < 0.06:
        costs.append(rng.choice([1, "x", None, True, [1.0], 10**25]))
    elif shape < 0.08:
        result[2] = rng.choice([3, "x", None, 10**400 // 10**100])
    elif shape < 0.1:
        result[3] = 1607112214.25
    elif shape < 0.12:
        result = result[:3]
    version = "v0.6" if rng.random() < 0.9 else rng.choice(["v0.5", "v0.10"])
    record: dict[str, Any] = {"i": [task, [[], state]], "r": result, "v": version}
    shape = rng.random()
    if shape < 0.02:
        record["v"] = rng.choice([0.6, None, 6])
    elif shape < 0.04:
        record["x"] = 1
    elif shape < 0.06:
        del record["r"]
    elif shape < 0.07:
        del record["v"]
    text = json.dumps(record) if rng.random() < 0.9 else json.dumps(record, separators=(",", ":"))
    if rng.random() < 0.05:
        text = json.dumps(record, ensure_ascii=False).replace("local", "lócal")
    return _edited(text, rng)


def _edited(text: str, rng: random.Random) -> str:
    """``text`` with a change now and then that only the text shows."""
    edit = rng.random()
    if edit < 0.02:
        return text.replace('"SP"', '"S5P"', 1)
    if edit < 0.04:
        return text.replace('"AN"', '"A1N"', 1).replace('"CR"', '"CR7"', 1)
    if edit < 0.05:
        return text.replace('"PR"', '"QQ"', 1)
    if edit < 0.06:
        return text.replace('"local"', '"loc\\u0061l"', 1).replace("auto_unroll", "auto\\/unroll", 1)
    if edit < 0.07:
        return text.replace("auto_unroll", "auto\\\\unroll", 1).replace('"shared"', '"sh\\"ared"', 1)
    if edit < 0.08:
        return text.replace('"r": [[', '"r": [[0.5], 0, 1, 1], "r": [[', 1)
    if edit < 0.09:
        return text.replace('{"i": ', '{"i": [], "i": ', 1)
    if edit < 0.1:
        return text.replace('"v": "v0', '"v": "v:0', 1)
    if edit < 0.11:
        return text.replace(", 0, 1024, [", ", 00, 1024, [", 1)
    if edit < 0.12:
        return text[:-1] + ', "v": "v0.6"}'
    if edit < 0.13:
        return text.replace('{"i": [[', '{"i" : [[', 1)
    if edit < 0.14:
        return text.replace('"i": [[', '"\\u0069": [[', 1)
    if edit < 0.15:
        return text.replace(']], "r"', ']] , "r"', 1)
    if edit < 0.16:  # a colon in the workload key, or in the target
        return text.replace("matmul", "mat:mul", 1) if rng.random() < 0.5 else text.replace('", "', ':", "', 2)
    if edit < 0.17:  # an escape dmlc knows after the workload key; one it does not, in the key
        known = rng.random() < 0.5
        return text.replace('"local"', '"lo\\tcal"', 1) if known else text.replace("matmul", "mat\\/mul", 1)
    if edit < 0.18:  # a search task of 4 or 7 members, 7 hardware params, stages not empty
        return rng.choice(
            [
                text.replace(', 1, ["input0", "input1"]]', "]", 1).replace(', 2, ["input0", "input1"]]', "]", 1),
                text.replace('["input0", "input1"]]', '["input0", "input1"], 0]', 1),
                text.replace("[18, ", "[", 1),
                text.replace("[[], [[", "[[1], [[", 1),
            ]
        )
    if edit < 0.19:  # a step with a member more or less
        return text.replace('["CR", 6]', '["CR", 6, 7]', 1).replace('["CI", 2]', '["CI"]', 1)
    if edit < 0.2:  # white space where TVM writes none, or a space first (a comment line)
        return text.replace('{"i": [["', '{"i": [[ "', 1) if rng.random() < 0.5 else text + "  "
    return text


def scheduler_log(seed: int, lines: int) -> bytes:
    """A log of auto_scheduler's records, mostly, with CRLF, comments and odd lines here and there."""
    rng = random.Random(seed)
    out = [b"# tuned with auto_scheduler", scheduler_record(random.Random(0)).encode()]
    for _ in range(lines):
        kind = rng.random()
        line = scheduler_record(rng).encode("utf-8") if kind < 0.95 else odd_line(rng)
        if rng.random() < 0.03:
            line += b"\r"
        if rng.random() < 0.01:
            line = b" " + line
        out.append(line)
    data = b"\n".join(out)
    return data if rng.random() < 0.5 else data + b"\n"


@pytest.fixture(scope="module")
def scheduler_inputs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Logs of auto_scheduler's records, and (for ``stats``) AutoTVM's generated logs."""
    root = tmp_path_factory.mktemp("scheduler")
    paths = []
    # (each edge of a record is drawn once in a hundred records or more often: 36 of each, or
    # more, under TARGETLANG_EXAMPLES=all; 9 in a quarter of the records; the tests that take
    # them are marked ``property``)
    for seed in range(3):
        path = root / f"scheduler-{seed}.log"
        path.write_bytes(scheduler_log(seed, examples(1200)))
        paths.append(path)
    for seed, start in enumerate(["autotvm", "auto_scheduler", "space"]):
        path = root / f"generated-{seed}-{start}.log"
        path.write_bytes(generated_log(seed + 10, examples(800), start))
        paths.append(path)
    return paths


def _general(monkeypatch: pytest.MonkeyPatch, general: bool) -> None:
    for lines in (CheckLines, MigrateLines, StatsLines):
        monkeypatch.setattr(lines, "shortcut", not general)


@pytest.mark.property
@pytest.mark.parametrize("variant", VARIANTS, ids=" ".join)
def test_the_shortcuts_give_what_the_general_path_gives(
    run: Run, scheduler_inputs: list[Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variant: list[str]
) -> None:
    _general(monkeypatch, True)
    general = outcome(run, variant, scheduler_inputs, tmp_path / "out", "-j", "1")
    _general(monkeypatch, False)
    fast = outcome(run, variant, scheduler_inputs, tmp_path / "out", "-j", "1")
    assert fast[0] == general[0]
    assert fast[1] == general[1]
    assert fast[2] == general[2]
    assert fast[3] == general[3]
    _small_chunks(monkeypatch)
    two = outcome(run, variant, scheduler_inputs, tmp_path / "out", "-j", "2")
    assert two[0] == general[0]
    assert two[1] == general[1]
    assert two[2] == general[2]
    assert two[3] == general[3]


# ------------------------------------------------------------------ record by record

BASE = (
    '{"i": [["[\\"matmul\\", 128]", "llvm -mcpu=core-avx2", [8, 64, 64, 0, 0, 0, 0, 0], "", 1], [[], [["SP", 2, 0, '
    '1024, [2, 4], 1], ["AN", 1, 0, 3], ["PR", 1, 0, "auto_unroll_max_step$16"]]]], "r": [[0.001, 0.002], 0, 0.5, '
    '1607112214], "v": "v0.6"}'
)

# (what changes in BASE, what replaces it, whether auto_scheduler's reader reads the line): each
# line comes after BASE, whose target and host most of them share, so that the shortcut meets them.
SCHEDULER_CASES = [
    ("[2, 4], 1]", "[2, 4], 0]", True),
    ("[2, 4], 1]", "[2, 4], 2]", False),
    ("[2, 4], 1]", "[2, 4], 10]", False),
    ("[2, 4], 1]", "[2, 4], -0]", True),
    ("[2, 4], 1]", "[2, 4], true]", False),
    ("[2, 4], 1]", "[2, 4], 1.0]", False),
    ('["AN", 1, 0, 3]', '["AN", 1, 0, 2147483647]', True),
    ('["AN", 1, 0, 3]', '["AN", 1, 0, 2147483648]', False),
    ('["AN", 1, 0, 3]', '["AN", 1, 0, -2147483648]', True),
    ('["AN", 1, 0, 3]', '["AN", 1, 0, -2147483649]', False),
    ('["AN", 1, 0, 3]', '["AN", 1, 0, 123456789012345678901234]', False),
    ('["AN", 1, 0, 3]', '["AN", 1, 0, 3.0]', False),
    ('["AN", 1, 0, 3]', '["AN", 1, 0, 3e0]', False),
    ('["AN", 1, 0, 3]', '["A1N", 1, 0, 3]', False),
    ('["AN", 1, 0, 3]', '["AN1", 1, 0, 3]', False),
    ('["AN", 1, 0, 3]', '["2AN", 1, 0, 3]', False),
    ('"SP", 2', '"S5P", 2', False),
    ("[8, 64, 64,", "[8, 6400000000, 64,", False),
    ("[8, 64, 64,", "[8, 1000000000, 64,", True),
    ('"[\\"matmul\\", 128]"', '"[\\"matmul\\", 1234567890123]"', True),
    ('"[\\"matmul\\", 128]"', '"[\\"matmul\\", \\"ñ\\"]"', True),
    ("max_step$16", "max_step$1234567890123", True),
    ("max_step$16", "máx_step$16", True),
    ("max_step$16", "max_step$\\u0031", False),
    ("max_step$16", "max\\\\step$16", True),
    ("max_step$16", "max\\nstep$16", True),
    ("max_step$16", "max\\/step$16", False),
    ("core-avx2", "core-avx512", True),
    ("core-avx2", "core-avx2 -mattr=+avx512f", True),
    ('"", 1]', '"llvm -mcpu=cortex-a53", 1]', True),
    ('"", 1]', '"llvm -target=aarch64-linux-gnu", 1]', True),
    ("[[0.001, 0.002], 0,", "[[0.001, 2], 0,", True),
    ("[[0.001, 0.002], 0,", "[[], 0,", True),
    ("[[0.001, 0.002], 0,", '[[0.001, "x"], 0,', False),
    ("[[0.001, 0.002], 0,", "[[0.001, true], 0,", False),
    ("[[0.001, 0.002], 0,", "[[0.001, null], 0,", False),
    ("[[0.001, 0.002], 0,", "[[0.001, 1e400], 0,", False),
    ("[[0.001, 0.002], 0,", "[[0.001, 123456789012345678901234567890], 0,", True),
    ("0.002], 0, 0.5,", "0.002], 1.5, 0.5,", False),
    ("0.002], 0, 0.5,", "0.002], 2147483648, 0.5,", False),
    ("0.002], 0, 0.5,", "0.002], -1, 0.5,", True),
    ("0.002], 0, 0.5,", "0.002], 0, 5,", True),
    ("0.002], 0, 0.5,", '0.002], 0, "0.5",', False),
    ("1607112214]", "1607112214.5]", True),
    ("1607112214]", "1607112214, 1]", False),
    ('"v": "v0.6"}', '"v": 0.6}', False),
    ('"v": "v0.6"}', '"v": "v0:6"}', True),
    ('"v": "v0.6"}', '"v": "v0.6", "x": 1}', False),
    ('"v": "v0.6"}', '"v": "v0.6", "v": "v0.7"}', True),
    ('"v": "v0.6"}', '"v": "v0.6", "r": [[1], 0, 1, 1]}', True),
    ('"v": "v0.6"}', '"v": "v0.6", "r": [["x"], 0, 1, 1]}', False),
    ('{"i": ', '{"r": [["x"], 0, 1, 1], "i": ', False),
    ('{"i": ', '{"i": [], "i": ', False),
    ('{"i": ', '{"\\u0069": ', False),
    ("]]]], ", "]]]] , ", True),
    ("]]]], ", "]]]],\t", True),
    ('"[\\"matmul', '"[\\"mat:mul', True),
    ("core-avx2", "core-avx2 -mattr=a:b", True),
    ("core-avx2", "core\\tavx2", True),
    ("max_step$16", "max_step$16:", True),
    ('"[\\"matmul', '"[\\"m\\u0061tmul', False),
    ('"[\\"matmul', '"[\\"mat\\/mul', False),
    ('"[\\"matmul', '"[\\"mat\\\\mul', True),
    ('"", 1]', '""]', False),
    ('"", 1]', '"", 1, [], 0]', False),
    ('"", 1]', '"", 1, ["x"]]', True),
    ('"", 1]', '"", 1, [1]]', False),
    ("[8, 64, 64,", "[64, 64,", False),
    ("[8, 64, 64,", "[null, 64, 64,", False),
    ("[[], [[", "[[1], [[", False),
    ('["AN", 1, 0, 3]', '["AN", 1, 0, 3, 4]', False),
    ('["AN", 1, 0, 3]', '["AN", 1, 0]', False),
    ('["AN", 1, 0, 3]', '["XX", 1, 0, 3]', False),
    ('["AN", 1, 0, 3]', '["AN", 1, 0, "3"]', False),
    ('{"i": [["', '{"i": [[ "', True),
    ('{"i": [["', '{"i":[["', True),
    ('{"i": [["', ' {"i": [["', True),
    ('"v": "v0.6"}', '"v": "v0.6"}  ', True),
    ('"v": "v0.6"}', '"v": "v0.6"}\r', True),
]


def _checked(lines: list[bytes], shortcut: bool) -> tuple[list[str], dict[str, Any]]:
    """``logs check --json`` of ``lines`` (one block), with or without the shortcut."""
    from targetlang.logs import TargetReader
    from targetlang.logs.check import Checker, CheckSummary
    from targetlang.logs.migration import LogMigrator
    from targetlang.logs.report import Digest

    reader = TargetReader()
    checking = CheckLines(Checker(reader, LogMigrator(reader=reader, remember=True)), "json")
    checking.shortcut = shortcut
    summary = CheckSummary("x.log")
    out = checking.check(lines, 1, False, summary, Digest())
    out += [json.dumps(problem.to_json()) for problem in checking.checker.finish(summary)]
    return out, summary.to_json()


@pytest.mark.parametrize(("old", "new", "reads"), SCHEDULER_CASES)
def test_an_auto_scheduler_record_reads_as_the_general_path_reads_it(old: str, new: str, reads: bool) -> None:
    assert old in BASE
    line = BASE.replace(old, new, 1).encode("utf-8")
    lines = [BASE.encode(), line, BASE.encode(), line]
    fast = _checked(lines, True)
    assert fast == _checked(lines, False)
    failed = {json.loads(text)["line"] for text in fast[0] if json.loads(text)["error"] == "LoadError"}
    assert failed == (set() if reads else {2, 4})


@pytest.mark.parametrize("path", sorted((LOGS / "auto_scheduler").iterdir()), ids=lambda path: path.name)
def test_the_real_auto_scheduler_logs_read_alike_on_both_paths(path: Path) -> None:
    lines = path.read_bytes().split(b"\n")
    assert lines.pop() == b""
    assert _checked(lines, True) == _checked(lines, False)


def test_a_workload_key_not_in_utf8_takes_the_general_path() -> None:
    # msgspec does not decode the workload key (its token's end is all the shortcut asks): its
    # bytes are checked apart, or the line would go where orjson and json.loads refuse it.
    from targetlang.logs._scheduler_schema import scheduler_reader

    read = scheduler_reader()
    assert read is not None
    line = BASE.replace("llvm -mcpu=core-avx2", "llvm -target=aarch64-linux-gnu").encode()
    odd = line.replace(b"matmul", b"mat\xffmul", 1)
    assert read(line) == ("llvm -target=aarch64-linux-gnu", "") and read(odd) is None
    lines = [line, odd, line, odd]
    assert _checked(lines, True) == _checked(lines, False)


def _counting_token_checks(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """The workload keys' tokens the reader reads with its pattern of a string token from now on."""
    import targetlang.logs._scheduler_schema as schema

    searched: list[bytes] = []
    pattern = schema._TOKEN

    class Counted:
        def fullmatch(self, token: bytes) -> Any:
            searched.append(token)
            return pattern.fullmatch(token)

    monkeypatch.setattr(schema, "_TOKEN", Counted())
    return searched


def test_workload_keys_found_fine_are_kept_within_bounds(monkeypatch: pytest.MonkeyPatch) -> None:
    # A token found fine is not read again (a log repeats its keys) until the caches are
    # cleared; past the keys kept, the oldest is dropped to make room; a token that is not fine,
    # or too long, is read each time.
    import targetlang
    from targetlang.logs._scheduler_schema import _FINE_KEYS, _FINE_LENGTH, scheduler_reader

    read = scheduler_reader()
    assert read is not None
    targetlang.clear_caches()
    searched = _counting_token_checks(monkeypatch)

    def key(token: str) -> bytes:
        return BASE.replace("matmul", token, 1).encode()

    fine = ("llvm -mcpu=core-avx2", "")
    steps = [  # (line read, what it reads as, how many reads of the pattern so far)
        (key("first"), fine, 1),
        (key("first"), fine, 1),
        (key("m\\u0061tmul"), None, 2),
        (key("m\\u0061tmul"), None, 3),
        (key("m" * _FINE_LENGTH), fine, 4),
        (key("m" * _FINE_LENGTH), fine, 5),
    ]
    for line, reads_as, count in steps:
        assert read(line) == reads_as
        assert len(searched) == count
    targetlang.clear_caches()
    assert read(key("first")) == fine and len(searched) == 6
    for n in range(_FINE_KEYS):
        assert read(key(f"matmul{n}")) == fine
    assert len(searched) == 6 + _FINE_KEYS
    assert read(key("first")) == fine  # the oldest, dropped to make room
    assert len(searched) == 7 + _FINE_KEYS


_AARCH64 = "llvm -target=aarch64-linux-gnu"


@pytest.mark.parametrize(
    ("key", "first"),
    [
        # the same member again
        ("mm", None),
        # a shorter one first: the last "i"'s workload key is longer than the text from the first
        # workload key through the second "i"'s colon, so what the reader would take for the key's
        # token reaches past that colon, and only "r" and "v" are left after it to count
        ("k" * 300, f'[["a", "{_AARCH64}"], [[], []]]'),
    ],
    ids=["the same", "a shorter one first"],
)
def test_a_member_written_twice_takes_the_general_path(key: str, first: str | None) -> None:
    # With "i" written twice, the general path splices the migrated target into the first one's
    # token, and the line read back still holds the old one: migration does not fix it there, as
    # it fixes the same record written once (a shortcut keyed by the decoded record alone, or
    # that took the line, would give the second line what the first found).
    from targetlang.logs._scheduler_schema import scheduler_reader

    read = scheduler_reader()
    assert read is not None
    line = BASE.replace("llvm -mcpu=core-avx2", _AARCH64).replace('[\\"matmul\\", 128]', key)
    member = line[len('{"i": ') : line.index(', "r": ')]
    assert "\\" not in line
    twice = '{"i": ' + (first or member) + ', "i": ' + member + line[line.index(', "r": ') :]
    assert read(line.encode()) == (_AARCH64, "")
    assert read(twice.encode()) is None
    lines = [line.encode(), twice.encode(), line.encode(), twice.encode()]
    fast = _checked(lines, True)
    assert fast == _checked(lines, False)
    marked = {json.loads(text)["line"]: json.loads(text)["needs_migration"] for text in fast[0]}
    assert marked == {1: True, 2: False, 3: True, 4: False}


def test_a_line_not_started_as_tvm_wrote_it_takes_the_general_path() -> None:
    # Two spaces first (a comment to TVM's reader), then a string token where a well written line
    # has its workload key's, as long as the key msgspec reads and followed by two colons: only
    # the start of the line tells it from a record.
    from targetlang.logs._scheduler_schema import scheduler_reader

    read = scheduler_reader()
    assert read is not None
    odd = b'  {"v":"","i":[["a","llvm -mcpu=core-avx2",[8,64,64,0,0,0,0,0],"",1],[[],[]]],'
    odd += b'"r":[[0.001],0,0.5,1607112214]}'
    assert odd[8:11] == b'","'
    assert read(odd) is None
    lines = [BASE.encode(), odd, BASE.encode(), odd]
    checked = _checked(lines, True)
    assert checked == _checked(lines, False)
    assert checked[1]["comments"] == 2


def test_without_msgspec_every_auto_scheduler_record_takes_the_general_path(monkeypatch: pytest.MonkeyPatch) -> None:
    import targetlang.logs._fast_check as fast_module

    lines = [BASE.replace("core-avx2", cpu).encode() for cpu in ("core-avx2", "skylake", "core-avx2", "skylake") * 5]
    taken: list[int] = []

    def general(raw: bytes, newline: bool, file: str, line: int) -> Any:
        taken.append(line)
        return line_record(raw, newline, file, line)

    monkeypatch.setattr(fast_module, "line_record", general)
    with_msgspec = _checked(lines, True)
    assert taken == [1, 2, 3]  # the first of each target, and those before the file's reader is told
    taken.clear()
    monkeypatch.setattr(fast_module, "scheduler_reader", lambda: None)
    assert _checked(lines, True) == with_msgspec
    assert taken == list(range(1, 21))


# ------------------------------------------------------------------ match

MATCH_VARIANTS = [
    ["match", "--target", "llvm"],
    ["match", "--json", "--target", "cuda -model=tx2"],
    ["match", "-v", "--target", "llvm -device=arm_cpu -mtriple=aarch64-linux-gnu"],
    ["match", "--json", "--target", "opencl -device=mali -model=rk3399"],
]


@pytest.mark.property
@pytest.mark.parametrize("variant", MATCH_VARIANTS, ids=" ".join)
def test_match_on_every_core_gives_what_one_process_gives(
    run: Run, scheduler_inputs: list[Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variant: list[str]
) -> None:
    files = [path for path in scheduler_inputs if path.name.startswith("generated")]
    if "--json" not in variant:  # (a lone surrogate in a generated target cannot be printed as text)
        files = [LOGS / name for name in ALL_LOGS if name.startswith("autotvm/")]
    one = outcome(run, variant, files, tmp_path / "out", "-j", "1")
    assert '"record": "summary"' in one[1] or "AutoTVM record" in one[1]
    _small_chunks(monkeypatch)
    two = outcome(run, variant, files, tmp_path / "out", "-j", "2")
    assert two == one


def test_match_keeps_no_record_unless_it_shows_them(tmp_path: Path) -> None:
    from targetlang import parse
    from targetlang.logs import Matcher, Query, TargetReader, read_lines

    lines = generated_log(3, 3000, "autotvm").splitlines(keepends=True)
    counts = Matcher(Query.of(parse("llvm")), TargetReader(), keep=False)
    every = Matcher(Query.of(parse("llvm")), TargetReader())
    for record in read_lines(lines, "x.log"):
        counts.add(record)
        every.add(record)
    counts.finish()
    every.finish()
    assert list(counts.each()) == []
    assert counts._rows.held == []
    assert len(every.records) == 3002 - sum(1 for line in lines if line.startswith(b"#"))
    assert counts.report() == every.report()
    summary = counts.summary()
    assert summary.pop("statuses") == every.summary()["statuses"]
    assert summary == {key: value for key, value in every.summary().items() if key != "statuses"}


def _autotvm(target: str, task: str, cost: list[float], index: int) -> str:
    record = {
        "input": [target, task, [], {}],
        "config": {"index": index, "code_hash": None, "entity": []},
        "result": [cost, 0, 1, 1],
        "version": 0.2,
        "tvm_version": "0.9.0",
    }
    return json.dumps(record)


# Records of one workload, their costs in order: a record of no costs (a NaN mean) is never
# replaced and replaces none, so where a log is cut changes what a merged index would keep.
COST_ORDERS = [
    [[1.0], [], [0.5]],
    [[], [0.5], [0.2]],
    [[1.0], [2.0], [], [0.5], [0.7]],
    [[], [], [1.0]],
    [[0.5], [0.5], [0.2], [0.2]],
    [[0.5], [], [], [0.6], [0.4]],
]


@pytest.mark.parametrize("costs", COST_ORDERS)
def test_matchers_merged_keep_what_one_matcher_keeps(costs: list[list[float]]) -> None:
    from targetlang import parse
    from targetlang.logs import Matcher, Query, TargetReader, read_lines

    lines = [
        _autotvm("cuda -model=tx2" if n % 2 else "cuda", "dense", cost, n).encode() + b"\n"
        for n, cost in enumerate(costs)
    ]
    records = list(read_lines(lines, "x.log"))
    query = Query.of(parse("cuda -model=tx2"))
    whole = Matcher(query, TargetReader())
    for record in records:
        whole.add(record)
    whole.finish()
    for cut in range(1, len(records)):
        first, second = Matcher(query, TargetReader()), Matcher(query, TargetReader())
        for record in records[:cut]:
            first.add(record)
        for record in records[cut:]:
            second.add(record)
        first.merge(second)
        first.finish()
        for by in ("key", "model"):
            assert [(n, w, e.line) for n, w, e in first.best(by)] == [(n, w, e.line) for n, w, e in whole.best(by)]
        assert [e.human() for e in first.each()] == [e.human() for e in whole.each()]
