"""The ``logs`` commands over blocks of lines: the lines of AutoTVM's common shapes, read at once,
give what the general path gives, and ``-j N`` gives what one process gives, byte for byte."""

from __future__ import annotations

import itertools
import json
import os
import pickle
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from targetlang._cache import LruCache
from targetlang._cli import logs as logs_cli
from targetlang._cli import logs_common, logs_migrate, main
from targetlang.logs import TargetReader, read_lines
from targetlang.logs import _jobs as jobs_module
from targetlang.logs._chunk_jobs import CheckJob, run_chunk
from targetlang.logs._fast_check import CheckLines
from targetlang.logs._fast_migrate import MigrateLines
from targetlang.logs._fast_stats import StatsLines
from targetlang.logs._jobs import Source, blocks
from targetlang.logs.records import line_record
from targetlang.logs.report import Digest
from targetlang.logs.stats import LONG, PLANS, Stats, StatsPlan

from .conftest import Run, examples, read_jsonl, sample
from .test_logs import ALL_LOGS, ARM, AS_RESNET, LLVM, LOGS, VTA

# ------------------------------------------------------------------ inputs

# Targets of every sort a log holds: ones that read, ones `logs migrate` fixes (-target), ones
# that fail, JSON text an earlier `logs migrate` wrote, non-ASCII, quotes, an empty one.
TARGETS = [
    "llvm -mcpu=skylake-avx512",
    "llvm -device=arm_cpu -model=pynq -target=armv7a-linux-eabi",
    "llvm -device=arm_cpu -target=aarch64-linux-gnu -mattr=+neon",
    "cuda -model=tx2",
    "opencl -device=mali -model=rk3399",
    "ext_dev -device=vta -keys=cpu -model=pynq_1x16_i8w8a32_15_15_18_17",
    "llvm -mcpux=cortex-a72",
    "llvm -keys=cpu -link-params=0",
    "nosuchkind -mcpu=x",
    '{"kind": "llvm", "mcpu": "skylake"}',
    '{"kind": "llvm", "device": "arm_cpu", "mtriple": "aarch64-linux-gnu"}',
    "llvm -mcpu=ñandú",
    'llvm -libs="a b"',
    "",
    "llvm -mcpu=skylake -mattr=+avx2,+fma",
]
TVM_VERSIONS = ["0.7.dev0", "0.8.0", "0.9.dev0", "0.10.0", "0.19.0", "0.22.0"]
ARGS = [
    [["TENSOR", [1, 3, 224, 224], "float32"], ["TENSOR", [64, 3, 7, 7], "float32"], [2, 2], [3, 3], "NCHW", "float32"],
    [["TENSOR", [1, 64], "float32"], ["TENSOR", [32, 64], "float32"]],
    [1, 2.5, None, True, "x{y"],
    [{"nested": "object"}],
    [],
]
ENTITIES = [
    [["tile_co", "sp", [8, 8]], ["reorder_0", "re", [0, 1, 2]], ["ann", "an", ["none", "vec"]], ["u", "ot", False]],
    [],
    [["tile_x", "sp", [-1, 4]]],
    [["bad", "xx", 1]],
    [["short", "sp"]],
    [["long", "sp", 1, 2]],
    [{"a": 1}],
    [{"a": 1, "sp": 2, "c": 3}],  # unpacks as [name, knob, value] would
    ["abc"],
    [["deep", "ot", {"k": [1]}]],
    [[1, ["sp"], 2]],
]
COSTS = [[0.001], [9.593498664366054e-05, 0.0001], [], [1, 2], ["x"], [True], [[1], [2]], [None], 0.5]


def _dumps(value: Any, rng: random.Random) -> str:
    """``value`` as one of TVM's writers (or an odd one) wrote it."""
    choice = rng.random()
    if choice < 0.8:
        return json.dumps(value)
    if choice < 0.9:
        return json.dumps(value, separators=(",", ":"))
    return json.dumps(value, ensure_ascii=False)


def _token(target: str, rng: random.Random) -> str:
    """A JSON string token for ``target``: as ``json.dumps`` writes it, mostly."""
    choice = rng.random()
    if choice < 0.85:
        return json.dumps(target)
    if choice < 0.9:
        return json.dumps(target, ensure_ascii=False)
    if choice < 0.95:
        return json.dumps(target).replace("/", "\\/").replace("l", "\\u006c", 1)
    return json.dumps(target).replace("a", "\\u0061")


def autotvm_v02(rng: random.Random) -> str:
    target = rng.choice(TARGETS)
    args = rng.choice(ARGS)
    kwargs = rng.choice([{}, {}, {}, [], {"k": 1}])
    config = {"index": rng.randrange(100000), "code_hash": None, "entity": rng.choice(ENTITIES)}
    if rng.random() < 0.05:
        del config[rng.choice(["index", "code_hash", "entity"])]
    result = [rng.choice(COSTS), rng.choice([0, 0, 0, 1, "0"]), 1.5, 1539972731.352305]
    if rng.random() < 0.03:
        result = result[:3]
    members: dict[str, Any] = {"input": None, "config": config, "result": result, "version": 0.2}
    tvm = rng.random()
    if tvm < 0.8:
        members["tvm_version"] = rng.choice(TVM_VERSIONS)
    elif tvm < 0.85:
        members["tvm_version"] = 0.19
    if rng.random() < 0.03:
        members["result"] = [[1 + 10**25], 0, 1.5, 1.0]  # an integer beyond 64 bits
    body = ", ".join(f"{json.dumps(k)}: {_dumps(v, rng)}" for k, v in members.items() if k != "input")
    task = rng.choice(["conv2d_NCHWc.x86", "dense_nopack.x86", "conv2d_packed.vta"])
    inp = f"[{_token(target, rng)}, {json.dumps(task)}, {_dumps(args, rng)}, {_dumps(kwargs, rng)}]"
    shape = rng.random()
    if shape < 0.85:
        return f'{{"input": {inp}, {body}}}'
    if shape < 0.9:
        return f'{{{body}, "input": {inp}}}'  # another order
    if shape < 0.94:
        other = f'[{_token(rng.choice(TARGETS), rng)}, "t", [], {{}}]'
        return f'{{"input": {inp}, {body}, "input": {other}}}'  # the key twice: the last counts
    if shape < 0.97:
        return f'{{"input": {inp}, {body}, "\\u0069nput": {inp}}}'
    return f'{{"input":{inp},{body}}}'


def autotvm_v01(rng: random.Random) -> str:
    target = rng.choice(TARGETS)
    config = {"e": [["tile_co", "sp", [8, 8]]], "t": "direct", "c": None, "i": rng.randrange(20000)}
    if rng.random() < 0.1:
        config = {"e": [], "t": "direct"}
    args = _dumps(rng.choice(ARGS), rng)
    i = f'[{_token(target, rng)}, "topi_nn_conv2d", {args}, {{}}, ["conv2d", [1, 3]], {json.dumps(config)}]'
    r = f"[[{rng.random()}], 0, 0.7610819339752197, 1533118978.762497]"
    shape = rng.random()
    if shape < 0.6:
        return f'{{"r": {r}, "v": 0.1, "i": {i}}}'
    if shape < 0.8:
        return f'{{"v": 0.1, "r": {r}, "i": {i}}}'
    if shape < 0.85:
        return f'{{"i": {i}, "r": {r}, "v": 0.1}}'
    if shape < 0.9:
        other = f'[{_token(rng.choice(TARGETS), rng)}, "t"]'
        return f'{{"r": {r}, "v": 0.1, "i": {i}, "i": {other}}}'
    if shape < 0.93:
        return f'{{"r": {r}, "v": 0.1, "\\u0069": {i}}}'
    if shape < 0.96:
        return f'{{"v": 0.1, "input": {i}}}'
    return f'{{"r": {r}, "v": 0.1, "i": {i}, "x": "\\"i\\""}}'


def odd_line(rng: random.Random) -> bytes:
    return rng.choice(
        [
            b"# a comment",
            b"",
            b"   ",
            b"not json",
            b"\xff\xfe not UTF-8",
            b'{"input": ["llvm\xc3", "t", [], {}]}',
            b'\xef\xbb\xbf{"input": ["llvm", "t", [], {}], "config": {"index": 0, "code_hash": null, "entity": []}, '
            b'"result": [[0.1], 0, 1, 1], "version": 0.2}',
            b"llvm -mcpu=skylake\tYWJj\tZGVm\tZ2hp\t0.2\t0.8.0",
            b'{"input": ["llvm", "t", [], {}], "result": [[NaN], 0, 1, 1], "version": 0.2}',
            b'{"input": ["llvm \\ud800", "t", [], {}], "config": {"index": 0, "code_hash": null, "entity": []}, '
            b'"result": [[0.1], 0, 1, 1], "version": 0.2}',
            b'[0, [[], [1.0], {"kind": "llvm", "keys": ["cpu"]}, []]]',
            b'{"i": [["[\\"matmul\\", 1]", "llvm -keys=cpu", [18, 64, 64, 0, 0, 0, 0, 0]], [[], []]], '
            b'"r": [[0.1], 0, 0.3, 1607112214], "v": "v0.3"}',
        ]
    )


def generated_log(seed: int, lines: int, start: str = "autotvm") -> bytes:
    """A log of ``lines`` lines of every shape, mostly AutoTVM's, with CRLF and odd lines here
    and there; ``start``: what its first record is (``"autotvm"``, ``"auto_scheduler"``, or
    ``"space"``: lines starting with a space before it)."""
    rng = random.Random(seed)
    out: list[bytes] = []
    if start == "auto_scheduler":
        out.append(
            b'{"i": [["[\\"matmul\\", 1]", "llvm -keys=cpu", [18, 64, 64, 0, 0, 0, 0, 0]], [[], []]], '
            b'"r": [[0.1], 0, 0.3, 1607112214], "v": "v0.6"}'
        )
    elif start == "space":
        out += [b" a line starting with a space", b"  "]
    else:
        out.append(b"# " + start.encode())  # then AutoTVM's record, whose file it is
        out.append(autotvm_v01(random.Random(0)).encode())
    for _ in range(lines):
        kind = rng.random()
        if kind < 0.55:
            line = autotvm_v01(rng).encode("utf-8")
        elif kind < 0.95:
            line = autotvm_v02(rng).encode("utf-8")
        else:
            line = odd_line(rng)
        if rng.random() < 0.03:
            line += b"\r"
        if rng.random() < 0.02:
            line = rng.choice([b" ", b"\t", b"  "]) + line
        out.append(line)
    data = b"\n".join(out)
    return data if rng.random() < 0.5 else data + b"\n"


def oracle_logs() -> list[tuple[str, str]]:
    """The logs of TVM's own loaders' cases (tests/data/oracle/logs-*.jsonl): ``(loader, text)``."""
    found = []
    for path in sorted((LOGS.parents[1] / "oracle").glob("logs-*.jsonl")):
        for case in read_jsonl("oracle", path.name):
            if "log" in case:  # (the others are of a log of the corpus)
                found.append((case["loader"], case["log"]))
    return found


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """The real logs of tests/data (the corpus, and the logs of the loader oracle: a sample of
    them, all under ``TARGETLANG_EXAMPLES=all``), and generated logs of each start. The tests
    that take them are marked ``property``."""
    root = tmp_path_factory.mktemp("inputs")
    paths = []
    for name in ALL_LOGS:
        copy = root / name.replace("/", "_")
        shutil.copyfile(LOGS / name, copy)
        paths.append(copy)
    for n, (loader, text) in enumerate(sample(oracle_logs())):
        path = root / f"oracle-{n:04d}-{loader}.log"
        path.write_bytes(text.encode("utf-8", "surrogatepass"))
        paths.append(path)
    for seed, start in enumerate(["autotvm", "auto_scheduler", "space", "autotvm"]):
        path = root / f"generated-{seed}-{start}.log"
        path.write_bytes(generated_log(seed, examples(1500), start))
        paths.append(path)
    return paths


# ------------------------------------------------------------------ running the commands

VARIANTS: list[list[str]] = [
    ["check"],
    ["check", "--json"],
    ["check", "--quiet"],
    ["check", "--tvm-version", "0.8"],
    ["stats"],
    ["stats", "--json"],
    # (writing a FILE with -o takes longer than migrating a small one: two variants write the
    # FILEs a pool takes, the lines of every FILE are compared in the others' --diff)
    ["migrate", "-o", "{out}"],
    ["migrate", "--quiet", "-o", "{out}"],
    ["migrate", "--json", "--diff"],
    ["migrate", "--diff", "--quiet"],
    ["migrate", "--check"],
    ["migrate", "--to", "canonical", "--diff", "--quiet"],
    ["migrate", "--policy", "keep", "--diff", "-o", "{out}"],
    ["migrate", "--policy", "drop", "--compress-tags", "--json", "--diff"],
]


def outcome(run: Run, variant: list[str], files: list[Path], out: Path, *more: str) -> tuple[Any, ...]:
    """Status, stdout, stderr and the files written of ``logs VARIANT FILES``."""
    if out.exists():
        shutil.rmtree(out)
    out.mkdir()
    argv = [arg.replace("{out}", str(out)) for arg in variant]
    status, stdout, stderr = run("logs", *argv, *map(str, files), *more)
    written = {path.name: path.read_bytes() for path in sorted(out.iterdir())}
    return status, stdout, stderr, written


def _names(files: list[Path]) -> list[Path]:
    """Several FILEs with -o write into a directory by their names: they must differ (they do)."""
    assert len({path.name for path in files}) == len(files)
    return files


_SMALL_POOL_FROM = 512


def _small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Blocks of 64 bytes, chunks of 256, and a pool for any file of 512 bytes or more."""
    monkeypatch.setattr(jobs_module, "BLOCK", 64)
    monkeypatch.setattr(jobs_module, "CHUNK", 256)
    monkeypatch.setattr(jobs_module, "POOL_FROM", _SMALL_POOL_FROM)


def _pooled(files: list[Path]) -> list[Path]:
    """The files that small chunks give to a pool (the others are read as one process reads them,
    which the tests above compare): 193 of the 875 under ``TARGETLANG_EXAMPLES=all``."""
    return [path for path in _names(files) if path.stat().st_size >= _SMALL_POOL_FROM]


@pytest.fixture
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    _small_chunks(monkeypatch)


@pytest.mark.property
@pytest.mark.parametrize("variant", VARIANTS, ids=" ".join)
def test_the_shortcut_and_two_processes_give_what_the_general_path_gives(
    run: Run, inputs: list[Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variant: list[str]
) -> None:
    # One process on the general path, then the shortcut in one process, then two processes cut
    # the logs into small chunks of small blocks (a line read in many pieces, lines split
    # between chunks): each gives what the first gave, byte for byte.
    files = _pooled(inputs) if "{out}" in variant else _names(inputs)
    monkeypatch.setattr(CheckLines, "shortcut", False)
    monkeypatch.setattr(MigrateLines, "shortcut", False)
    general = outcome(run, variant, files, tmp_path / "out", "-j", "1")
    monkeypatch.setattr(CheckLines, "shortcut", True)
    monkeypatch.setattr(MigrateLines, "shortcut", True)
    fast = outcome(run, variant, files, tmp_path / "out", "-j", "1")
    assert fast[0] == general[0]
    assert fast[1] == general[1]
    assert fast[2] == general[2]
    assert fast[3] == general[3]
    _small_chunks(monkeypatch)
    two = outcome(run, variant, files, tmp_path / "out", "-j", "2")
    assert two[0] == general[0]
    assert two[1] == general[1]
    assert two[2] == general[2]
    assert two[3] == general[3]


def test_the_shortcut_takes_the_lines_of_the_common_shapes(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # (else the test above would compare the general path with itself): nearly every line of
    # TopHub's logs, and a good part of the generated ones, odd as they are.
    from targetlang.logs import _fast_check, _fast_migrate

    tophub = b"".join((LOGS / name).read_bytes() for name in ALL_LOGS[:3]) * 10
    shares = {"tophub": (tophub, 0.05), "generated": (generated_log(7, 3000), 0.75)}
    general: list[int] = []
    real = _fast_check.line_record  # type: ignore[attr-defined]  # the name the shortcuts call, replaced below

    def counting(*args: Any) -> Any:
        general.append(args[3])
        return real(*args)

    monkeypatch.setattr(_fast_check, "line_record", counting)
    monkeypatch.setattr(_fast_migrate, "line_record", counting)
    for name, (data, most) in shares.items():
        log = tmp_path / f"{name}.log"
        log.write_bytes(data)
        lines = data.count(b"\n")
        for argv in (["check", "--quiet"], ["migrate", "--quiet", "-o", str(tmp_path / "out.log")]):
            general.clear()
            main(["logs", *argv, str(log), "-j", "1"])
            assert len(general) < lines * most, (name, argv, len(general), lines)


@pytest.mark.property
def test_migrated_lines_come_back_in_shared_memory_or_not(
    run: Run, inputs: list[Path], tmp_path: Path, small_chunks: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A chunk's migrated lines longer than the shared memory come back through the pipe.
    monkeypatch.setattr(jobs_module, "SHARED_SIZE", 300)
    files = _pooled(inputs)
    for variant in (["migrate", "-o", "{out}"], ["migrate", "--diff", "--quiet", "-o", "{out}"]):
        one = outcome(run, variant, files, tmp_path / "out", "-j", "1")
        two = outcome(run, variant, files, tmp_path / "out", "-j", "2")
        assert two == one


@pytest.mark.property
@pytest.mark.parametrize("variant", [["check"], ["migrate", "-o", "{out}"], ["migrate", "--diff"]], ids=" ".join)
def test_a_digest_that_fills_up_midway_is_made_record_by_record(
    run: Run,
    inputs: list[Path],
    tmp_path: Path,
    small_chunks: None,
    monkeypatch: pytest.MonkeyPatch,
    variant: list[str],
) -> None:
    # A digest full at 2 reports gives them out midway: a chunk's reports cannot be counted in
    # at once, and the command reads the chunk again itself.
    monkeypatch.setattr(Digest.__init__, "__defaults__", (2,))
    again = []
    real = logs_common.read_again

    def counting(*args: Any) -> None:
        again.append(args[1:4])
        real(*args)

    monkeypatch.setattr(logs_cli, "read_again", counting)
    monkeypatch.setattr(logs_migrate, "read_again", counting)
    files = _pooled(inputs)
    one = outcome(run, variant, files, tmp_path / "out", "-j", "1")
    two = outcome(run, variant, files, tmp_path / "out", "-j", "2")
    assert again, "no chunk was read again"
    assert two == one


def _cli(*argv: str, cwd: Path) -> tuple[int, bytes, bytes]:
    done = subprocess.run(
        [sys.executable, "-m", "targetlang", *argv],
        cwd=cwd,
        capture_output=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])},
        timeout=600,
    )
    return done.returncode, done.stdout, done.stderr


@pytest.fixture(scope="module")
def big_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A generated log of about 10 MB: over the size from which the commands use a pool, in three
    chunks of the real size (the tests above cut small logs into small chunks)."""
    path = tmp_path_factory.mktemp("big") / "big.log"
    with open(path, "wb") as out:
        seed = 0
        while out.tell() < jobs_module.POOL_FROM * 1.25:
            out.write(generated_log(seed, 2000) + b"\n")
            seed += 1
    return path


@pytest.mark.parametrize(
    "argv",
    # one of each worker and output at the real sizes; every variant runs above on small chunks
    [
        ["check", "--json"],
        ["stats", "--json"],
        ["migrate", "--json", "--diff", "-o", "out.log"],
        ["migrate", "--quiet", "-o", "-"],
    ],
    ids=" ".join,
)
def test_a_big_log_gives_the_same_output_on_every_core(big_log: Path, tmp_path: Path, argv: list[str]) -> None:
    results = []
    for jobs in ("1", "2"):
        status, stdout, stderr = _cli("logs", *argv, str(big_log), "-j", jobs, cwd=tmp_path)
        written = (tmp_path / "out.log").read_bytes() if "out.log" in argv else None
        results.append((status, stdout, stderr, written))
    assert results[0][0] in (0, 1, 3)
    assert results[1] == results[0]


def test_migrate_in_place_on_every_core(big_log: Path, tmp_path: Path) -> None:
    logs = []
    for jobs in ("1", "2"):
        log = tmp_path / f"j{jobs}" / "tune.log"
        log.parent.mkdir()
        shutil.copyfile(big_log, log)
        logs.append((log, _cli("logs", "migrate", "--in-place", str(log.name), "-j", jobs, cwd=log.parent)))
    (one, done_one), (two, done_two) = logs
    assert done_two == done_one
    assert two.read_bytes() == one.read_bytes() != big_log.read_bytes()
    assert Path(f"{two}.bak").read_bytes() == big_log.read_bytes()
    assert sorted(p.name for p in two.parent.iterdir()) == ["tune.log", "tune.log.bak"]


def test_small_logs_start_no_pool(run: Run, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    def no_pool(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a pool was started")

    monkeypatch.setattr(jobs_module, "ProcessPoolExecutor", no_pool)
    for variant in VARIANTS:
        outcome(run, variant, [LOGS / name for name in ALL_LOGS[:3]], tmp_path / "out", "-j", "4")


class _InProcess:
    """A pool of ``jobs`` that makes each call in this process (what drive gives it is asked)."""

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs

    def map(self, calls: Any) -> Any:
        return (function(*arguments) for function, arguments in calls)


@pytest.mark.parametrize(
    ("lines", "jobs", "summary", "sizes"),
    [
        # lines of 10 bytes; chunks of 64 bytes (60 of whole lines); the command reads the first
        # block (60 bytes) itself; a chunk is cut while 1.5 chunks are left, the rest is the last
        (100, 2, False, [60] * 15 + [40]),
        (100, 2, True, [60] * 15 + [40]),  # 940 bytes left: less than 4 double chunks a worker
        (150, 2, True, [120] * 11 + [120]),  # 1,440: 4 double chunks a worker, and more
        (150, 4, True, [60] * 24),  # four workers: 4 double chunks each would be 2,048 bytes
        (300, 2, True, [120] * 23 + [180]),
        (300, 2, False, [60] * 49),  # lines, not a summary: migrate's chunks stay as they are
    ],
)
def test_a_summary_s_chunks_are_bigger_where_each_worker_still_has_four(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lines: int, jobs: int, summary: bool, sizes: list[int]
) -> None:
    monkeypatch.setattr(jobs_module, "BLOCK", 64)
    monkeypatch.setattr(jobs_module, "CHUNK", 64)
    monkeypatch.setattr(jobs_module, "POOL_FROM", 128)
    log = tmp_path / "tune.log"
    log.write_bytes(b"# comment\n" * lines)
    taken: list[int] = []
    chunks: list[tuple[int, int | None]] = []

    def remote(start: int, end: int | None, first: int) -> tuple[Any, tuple[Any, ...]]:
        chunks.append((start, end))
        return (lambda: type("Part", (), {"size": (end or log.stat().st_size) - start})()), ()

    with Source.open(str(log), regular=True) as source:
        pool: Any = _InProcess(jobs)
        jobs_module.drive(source, pool, lambda *a: None, remote, lambda part: None, taken.append, summary=summary)
    assert [(end or log.stat().st_size) - start for start, end in chunks] == sizes
    assert sum(taken) == log.stat().st_size  # every byte, read by the command or in a chunk


def test_jobs_option(run: Run) -> None:
    for command in ("check", "stats", "migrate", "match"):
        status, _, err = run("logs", command, "-j", "0", "x.log")
        assert status == 2 and "at least one process" in err
        status, out, _ = run("logs", command, "--help")
        assert status == 0 and "-j N, --jobs N" in out


def test_a_replaced_file_is_not_read_for_the_one_opened(tmp_path: Path) -> None:
    log = tmp_path / "tune.log"
    log.write_bytes(b"# one\n")
    with Source.open(str(log)) as source:
        assert source.identity is not None
        other = tmp_path / "other.log"
        other.write_bytes(b"# two\n")
        other.replace(log)
        with pytest.raises(OSError, match="replaced while it was read"):
            run_chunk(CheckJob(None, None, "text"), "tune.log", str(log), source.identity, 0, None, 1, "autotvm")


@pytest.mark.parametrize("log", [ARM, LLVM, VTA, AS_RESNET])
def test_a_chunk_counts_with_the_plans_of_its_worker_s_earlier_chunks(
    log: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker's later chunk adopts the plans its earlier chunks made: it counts no target's
    first record through Stats.add again, and the command's counts are what one process's are."""
    raw = (LOGS / log).read_bytes().split(b"\n")
    lines = [line for line in raw if line and not line.startswith(b"#")] * 3
    half = len(lines) // 2
    reader = TargetReader()
    loader = "auto_scheduler" if log.startswith("auto_scheduler") else "autotvm"

    def counted(numbered: list[bytes], first: int, earlier: LruCache[Any, StatsPlan] | None = None) -> Stats:
        stats = Stats(reader)
        stats.loader, stats.earlier = loader, earlier
        StatsLines.count(stats, numbered, first, False, "tune.log")
        return stats

    whole = counted(lines, 1)
    earlier: LruCache[Any, StatsPlan] = LruCache(PLANS)
    first = counted(lines[:half], 1, earlier)
    assert len(earlier) > 0
    added: list[object] = []
    monkeypatch.setattr(Stats, "add", lambda self, record: added.append(record))
    second = counted(lines[half:], half + 1, earlier)
    monkeypatch.undo()
    assert added == []  # (the log's every shape is in both halves)
    command = Stats(reader)
    command.loader = loader
    for part in (first, second):
        command.merge(pickle.loads(pickle.dumps(part)))
    assert command.table() == whole.table()
    assert command.to_json() == whole.to_json()


def test_a_plan_that_holds_a_long_text_is_not_adopted() -> None:
    spec = "llvm -mcpu=" + "x" * LONG
    line = json.dumps({"input": [spec, "dense", [], {}], "config": {}, "result": [[1.0], 0, 1.0, 1.0], "version": 0.2})
    earlier: LruCache[Any, StatsPlan] = LruCache(PLANS)
    stats = Stats(TargetReader())
    stats.loader, stats.earlier = "autotvm", earlier
    StatsLines.count(stats, [line.encode()] * 2, 1, False, "tune.log")
    assert stats.records == 2 and len(earlier) == 1
    ((plan, _),) = earlier._data.values()
    assert Stats(TargetReader()).adopt(plan) is None


def test_stats_travel_without_their_reader() -> None:
    stats = Stats(TargetReader())
    back = pickle.loads(pickle.dumps(stats))
    assert back.reader is None and back.targets == {} and stats.reader is not None


# ------------------------------------------------------------------ the pieces


@settings(max_examples=examples(200), deadline=None)
@given(
    st.lists(st.sampled_from([b"a", b"bc", b"\r", b"\n", b"\n", b"xyz" * 30]), max_size=60),
    st.integers(1, 40),
    st.booleans(),
)
def test_blocks_are_whole_lines(pieces: list[bytes], size: int, limited: bool) -> None:
    data = b"".join(pieces)
    limit = data.rfind(b"\n") + 1 if limited else None
    wanted = data[:limit] if limit is not None else data
    position = 0

    def read(n: int) -> bytes:
        nonlocal position
        got = data[position : position + n]
        position += len(got)
        return got

    old = jobs_module.BLOCK
    jobs_module.BLOCK = size
    try:
        found = list(blocks(read, limit))
    finally:
        jobs_module.BLOCK = old
    lines = [line for numbered, _, _ in found for line in numbered]
    expected = wanted.split(b"\n")
    if not expected[-1]:
        expected.pop()
    assert lines == expected
    assert sum(taken for _, taken, _ in found) == len(wanted)
    assert [open_end for _, _, open_end in found] == [
        i == len(found) - 1 and not wanted.endswith(b"\n") for i in range(len(found))
    ]
    assert all(numbered for numbered, _, _ in found)


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(st.sampled_from([b"ab", b"\n", b"c" * 50, b"\r\n"]), max_size=80), st.integers(8, 64))
def test_chunks_start_at_line_starts_with_their_line_numbers(
    tmp_path_factory: pytest.TempPathFactory, pieces: list[bytes], chunk: int
) -> None:
    data = b"".join(pieces)
    path = tmp_path_factory.mktemp("ranges") / "log"
    path.write_bytes(data)
    old = jobs_module.CHUNK
    jobs_module.CHUNK = chunk
    try:
        with Source.open(str(path)) as source:
            found = list(source.ranges(0, 1))
            # unnumbered: the end of each chunk read first (here its last 4 bytes), else all of it
            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(jobs_module, "_TAIL", 4)
                unnumbered = list(source.ranges(0, 1, numbered=False))
    finally:
        jobs_module.CHUNK = old
    assert found[0][0] == 0 and found[-1][1] is None
    for (start, end, first), after in itertools.pairwise(found):
        assert end == after[0] and data[end - 1 : end] == b"\n"
        assert after[2] == first + data[start:end].count(b"\n")
    assert [(start, end) for start, end, _ in unnumbered] == [(start, end) for start, end, _ in found]
    assert {first for _, _, first in unnumbered} == {1}


@settings(max_examples=examples(300), deadline=None)
@given(
    st.binary(max_size=40).map(lambda b: b.replace(b"\n", b"")),
    st.sampled_from([b"", b"\r", b"\xc3", b"\xe2\x82", b'{"input": ["llvm", "t", [], {}], "version": 0.2}']),
    st.booleans(),
)
def test_a_line_of_bytes_is_the_record_read_lines_makes(start: bytes, end: bytes, newline: bool) -> None:
    raw = start + end
    expected = next(iter(read_lines([raw + b"\n" if newline else raw], "f")), None)
    if expected is None:  # an empty last line is no line
        assert not raw and not newline
        return
    assert line_record(raw, newline, "f", 1) == expected


_KEYS = st.sampled_from(["a", "b", "c", "d", "e"])
_EVENTS = st.lists(st.tuples(_KEYS, st.sampled_from(["x", "y", None]), st.integers(1, 3)), max_size=40)


@settings(max_examples=examples(300), deadline=None)
@given(_EVENTS, st.lists(st.integers(0, 40), max_size=4), st.integers(1, 6))
def test_digests_merged_are_the_digest_of_every_record(
    events: list[tuple[str, str | None, int]], cuts: list[int], limit: int
) -> None:
    def add(digest: Digest, at: int, event: tuple[str, str | None, int]) -> None:
        key, spec, copies = event
        for _ in range(copies):
            digest.add(key, at, spec, f"f:{at}: {key}\n  excerpt")

    whole = Digest(limit)
    for at, event in enumerate(events, 1):
        add(whole, at, event)
    merged = Digest(limit)
    bounds = sorted({0, len(events), *(c for c in cuts if c <= len(events))})
    for lo, hi in itertools.pairwise(bounds):
        part = Digest(sys.maxsize)
        for at in range(lo + 1, hi + 1):
            add(part, at, events[at - 1])
        if not merged.merge(part):
            for at in range(lo + 1, hi + 1):
                add(merged, at, events[at - 1])
    assert list(merged.drain()) == list(whole.drain())


def test_digest_specs_are_counted_to_a_hundred_and_one() -> None:
    whole, merged, part = Digest(), Digest(), Digest()
    for n in range(150):
        whole.add("k", n, f"s{n}", "f:1: k")
        (merged if n < 60 else part).add("k", n, f"s{n}", "f:1: k")
    assert merged.merge(part)
    assert (
        list(merged.drain())
        == list(whole.drain())
        == ["f:1: k [150 records, 100+ distinct targets: lines 0, 1, 2, 3, 4, ...]"]
    )


_RECORD = (
    '{"input": ["llvm -device=arm_cpu -target=aarch64-linux-gnu", "dense", [], {}], "config": {"index": 1, '
    '"code_hash": null, "entity": []}, "result": [[0.1], 0, 1, 1], "version": 0.2, "tvm_version": "0.8.0"}\n'
)


def _alive(group: int) -> bool:
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.parametrize(("signum", "whole_group"), [(signal.SIGINT, True), (signal.SIGTERM, False)])
def test_a_stop_midway_leaves_the_log_and_no_worker(tmp_path: Path, signum: int, whole_group: bool) -> None:
    # Ctrl-C (the whole process group) or SIGTERM (the command alone) while the workers migrate
    # a big log in place: the log is as it was, no temporary file is left, no worker lives on.
    log = tmp_path / "big.log"
    original = _RECORD.encode() * 400_000
    log.write_bytes(original)
    process = subprocess.Popen(
        [sys.executable, "-m", "targetlang", "logs", "migrate", "--quiet", "--in-place", "-j", "2", str(log)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])},
    )
    while process.poll() is None and not any(p.name.endswith(".tmp") for p in tmp_path.iterdir()):
        time.sleep(0.005)
    time.sleep(0.05)  # the workers at work
    if whole_group:
        os.killpg(process.pid, signum)
    else:
        process.send_signal(signum)
    status = process.wait(timeout=60)
    for _ in range(200):  # the workers end with the pool
        if not _alive(process.pid):
            break
        time.sleep(0.05)
    assert not _alive(process.pid)
    assert not any(p.name.endswith(".tmp") for p in tmp_path.iterdir())
    if status == 0:  # (the run was over before the signal came)
        assert log.read_bytes() != original
    else:
        assert process.stderr is not None
        said = process.stderr.read().decode(errors="replace")
        assert status == (130 if signum == signal.SIGINT else 128 + signum), (status, said)
        assert log.read_bytes() == original
        assert sorted(p.name for p in tmp_path.iterdir()) == ["big.log"]
