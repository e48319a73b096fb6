"""What the ``logs`` commands read: gzip-compressed logs, directories of logs, files that cannot be
read; and the points where ``check`` and ``migrate`` must agree (blank lines)."""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import Run
from .test_logs import LOGS

# One AutoTVM v0.2 record of TVM v0.19 whose target needs no change but its form.
_RECORD = (
    '{"input": ["llvm -mcpu=skylake", "dense", [], {}], "config": {"index": 1, "code_hash": null, "entity": []}, '
    '"result": [[0.1], 0, 1, 1], "version": 0.2, "tvm_version": "0.19.0"}'
)
_MIGRATED = _RECORD.replace('"llvm -mcpu=skylake"', '"{\\"kind\\": \\"llvm\\", \\"mcpu\\": \\"skylake\\"}"')


def _log(path: Path, *lines: str, compressed: bool = False) -> Path:
    data = "".join(line + "\n" for line in lines).encode()
    path.write_bytes(gzip.compress(data) if compressed else data)
    return path


# ---------------------------------------------------------------------------------- gzip


@pytest.mark.parametrize(
    ("argv", "stdout"),
    [
        (["check"], "{log}: 2 records (2 autotvm-v0.2), 1 comment line, 1 distinct target; 0 failed\n"),
        (
            ["check", "-q", "-j", "2"],
            "{log}: 2 records (2 autotvm-v0.2), 1 comment line, 1 distinct target; 0 failed\n",
        ),
        (["stats", "--json"], None),
    ],
)
def test_gzipped_logs_are_read_directly(run: Run, tmp_path: Path, argv: list[str], stdout: str | None) -> None:
    log = _log(tmp_path / "tune.log.gz", "# c", _RECORD, _RECORD, compressed=True)
    status, out, err = run("logs", argv[0], str(log), *argv[1:])
    assert (status, err) == (0, "")
    if stdout is not None:
        assert out == stdout.format(log=log)
    else:
        assert '"records": 2' in out and '"files": 1' in out


@pytest.mark.parametrize(
    ("command", "stdout", "stderr"),
    [
        (["check", "-"], "<stdin>: 2 records (2 autotvm-v0.2), 1 comment line, 1 distinct target; 0 failed\n", ""),
        (
            ["migrate", "-q", "-o", "-", "-"],
            "# c\n" + _MIGRATED + "\n" + _MIGRATED + "\n",
            "<stdin>: 2 records, 2 changed, 0 unchanged, 0 kept as written\n",
        ),
    ],
)
def test_a_gzip_stream_on_standard_input_is_read_decompressed(
    run: Run, command: list[str], stdout: str, stderr: str
) -> None:
    data = gzip.compress("".join(line + "\n" for line in ("# c", _RECORD, _RECORD)).encode())
    assert run("logs", *command, stdin=data) == (0, stdout, stderr)


def test_migrate_writes_a_gz_name_compressed_and_any_other_plain(run: Run, tmp_path: Path) -> None:
    log = _log(tmp_path / "tune.log.gz", "# c", _RECORD, compressed=True)
    assert run("logs", "migrate", "-q", str(log), "-o", str(tmp_path / "out.log"))[0] == 0
    assert (tmp_path / "out.log").read_text() == "# c\n" + _MIGRATED + "\n"
    assert run("logs", "migrate", "-q", str(log), "-o", str(tmp_path / "out.log.gz"))[0] == 0
    assert gzip.decompress((tmp_path / "out.log.gz").read_bytes()).decode() == "# c\n" + _MIGRATED + "\n"
    status, out, _ = run("logs", "migrate", "-q", str(log), "-o", "-")
    assert (status, out) == (0, "# c\n" + _MIGRATED + "\n")


def test_migrate_in_place_keeps_a_gzipped_log_gzipped(run: Run, tmp_path: Path) -> None:
    log = _log(tmp_path / "tune.log.gz", _RECORD, compressed=True)
    before = log.read_bytes()
    assert run("logs", "migrate", "-q", "--in-place", str(log))[0] == 0
    assert gzip.decompress(log.read_bytes()).decode() == _MIGRATED + "\n"
    assert (tmp_path / "tune.log.gz.bak").read_bytes() == before
    status, _, err = run("logs", "migrate", "--check", str(log))
    assert (status, err) == (0, f"{log}: 1 record, 0 would change, 1 unchanged, 0 kept as written\n")


def test_a_cut_gzip_stream_is_an_error_naming_the_file(run: Run, tmp_path: Path) -> None:
    whole = gzip.compress(((_RECORD + "\n") * 50).encode())
    log = tmp_path / "cut.log.gz"
    log.write_bytes(whole[: len(whole) // 2])
    status, _, err = run("logs", "check", "-q", str(log))
    assert status == 1
    assert err.startswith(f"error: cannot read {log}: not a whole gzip stream (")


def test_a_big_gzipped_log_is_read_in_flat_memory(tmp_path: Path) -> None:
    if not os.path.exists("/proc/self/status"):
        pytest.skip("no /proc/self/status to read the peak from")
    # 40 MB of records compressed: read a block at a time, never whole (the peak stays far below
    # the log's size; a reader that decompressed the file at once would hold all of it)
    log = tmp_path / "big.log.gz"
    with gzip.open(log, "wb", compresslevel=1) as out:
        block = ((_RECORD + "\n") * 1000).encode()
        for _ in range(40 * (1 << 20) // len(block)):
            out.write(block)
    # VmHWM: the peak of this program's own memory (ru_maxrss would count the forking process's
    # too, which Linux carries over exec)
    code = (
        "import sys\n"
        "from targetlang._cli import main\n"
        "status = main(['logs', 'check', '-q', '-j', '1', sys.argv[1]])\n"
        "peak = [line.split()[1] for line in open('/proc/self/status') if line.startswith('VmHWM:')]\n"
        "print(status, peak[0])\n"
    )
    done = subprocess.run([sys.executable, "-c", code, str(log)], capture_output=True, text=True, check=True)
    status, peak_kib = map(int, done.stdout.split()[-2:])
    assert status == 0
    assert peak_kib < 100 * 1024, peak_kib  # the log holds 40 MB; a plain log of any size peaks near 35 MB


# ---------------------------------------------------------------------------------- directories


def _directory(tmp_path: Path) -> Path:
    logs = tmp_path / "logs"
    (logs / "sub").mkdir(parents=True)
    _log(logs / "b.log", _RECORD)
    _log(logs / "a.log.gz", _RECORD, _RECORD, compressed=True)
    _log(logs / "a.log.bak", "not a record")  # what --in-place leaves: not read
    _log(logs / ".a.log.x1_0.tmp", "not a record")  # hidden: not read
    _log(logs / "sub" / "c.log", "not a record")  # not read: a directory's own files only
    return logs


def test_check_reads_each_log_of_a_directory_in_name_order(run: Run, tmp_path: Path) -> None:
    logs = _directory(tmp_path)
    status, out, err = run("logs", "check", str(logs))
    assert (status, err) == (0, "")
    assert out == (
        f"{logs}/a.log.gz: 2 records (2 autotvm-v0.2), 0 comment lines, 1 distinct target; 0 failed\n"
        f"{logs}/b.log: 1 record (1 autotvm-v0.2), 0 comment lines, 1 distinct target; 0 failed\n"
        "total: 3 records (3 autotvm-v0.2), 0 comment lines, 1 distinct target; 0 failed\n"
    )


def test_stats_and_match_read_a_directory(run: Run, tmp_path: Path) -> None:
    logs = _directory(tmp_path)
    status, out, _ = run("logs", "stats", str(logs))
    assert (status, out.splitlines()[0]) == (
        0,
        "3 records in 2 files (3 autotvm-v0.2), 0 comment lines; 1 distinct target",
    )
    status, out, _ = run("logs", "match", "--target", "llvm", str(logs))
    assert status == 0
    assert "3 AutoTVM records in 2 files, 1 workload: 1 found" in out


def test_migrate_a_directory_into_a_directory_it_makes(run: Run, tmp_path: Path) -> None:
    logs = _directory(tmp_path)
    out = tmp_path / "new" / "migrated"
    status, _, err = run("logs", "migrate", "-q", str(logs), "-o", str(out))
    assert status == 0, err
    assert sorted(os.listdir(out)) == ["a.log.gz", "b.log"]
    assert gzip.decompress((out / "a.log.gz").read_bytes()).decode() == (_MIGRATED + "\n") * 2
    assert (out / "b.log").read_text() == _MIGRATED + "\n"


def test_a_directory_that_cannot_be_listed_is_reported_and_the_rest_read(run: Run, tmp_path: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root lists every directory")
    shut = tmp_path / "shut"
    shut.mkdir(mode=0)
    good = _log(tmp_path / "good.log", _RECORD)
    try:
        status, out, err = run("logs", "check", str(shut), str(good))
    finally:
        shut.chmod(0o700)
    assert status == 1
    assert err == f"error: cannot read {shut}: Permission denied\n"
    assert out.startswith(f"{good}: 1 record")


# ---------------------------------------------------------------------------------- files


def test_migrate_makes_the_output_directory_of_several_files(run: Run, tmp_path: Path) -> None:
    a = _log(tmp_path / "a.log", _RECORD)
    b = _log(tmp_path / "b.log", _RECORD)
    status, _, err = run("logs", "migrate", "-q", str(a), str(b), "-o", str(tmp_path / "outdir"))
    assert status == 0, err
    assert (tmp_path / "outdir" / "a.log").read_text() == _MIGRATED + "\n"
    assert (tmp_path / "outdir" / "b.log").read_text() == _MIGRATED + "\n"


def test_migrate_refuses_a_file_as_the_directory_of_several(run: Run, tmp_path: Path) -> None:
    a = _log(tmp_path / "a.log", _RECORD)
    b = _log(tmp_path / "b.log", _RECORD)
    status, _, err = run("logs", "migrate", str(a), str(b), "-o", str(a))
    assert status == 2
    assert err == (
        f"targetlang logs migrate: error: with several FILEs or a directory, -o names a directory, and {a} is not one\n"
    )


def test_migrate_names_the_two_files_of_one_name(run: Run, tmp_path: Path) -> None:
    (tmp_path / "d1").mkdir()
    (tmp_path / "d2").mkdir()
    one, two = _log(tmp_path / "d1" / "v.log", _RECORD), _log(tmp_path / "d2" / "v.log", _RECORD)
    status, _, err = run("logs", "migrate", str(tmp_path / "d1"), str(tmp_path / "d2"), "-o", str(tmp_path / "out"))
    assert status == 2
    assert err.endswith(
        f"error: {one} and {two} have the same name, and -o DIRECTORY would write both to "
        f"{tmp_path / 'out' / 'v.log'}: migrate them apart\n"
    )
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("command", ["check", "stats"])
def test_a_directory_without_logs_is_said(run: Run, tmp_path: Path, command: str) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / ".hidden.log").write_text(_RECORD + "\n")  # (migrate --in-place's temporaries: not logs)
    good = _log(tmp_path / "good.log", _RECORD)
    status, _, err = run("logs", command, str(empty), str(good))
    assert (status, err) == (0, f"warning: {empty} holds no logs (regular files not named .* or *.bak)\n")


def test_a_file_that_cannot_be_migrated_is_named_once(run: Run, tmp_path: Path) -> None:
    missing = tmp_path / "missing.log"
    status, _, err = run("logs", "migrate", "--check", str(missing))
    assert (status, err) == (1, f"error: cannot migrate {missing}: No such file or directory\n")


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (["stats"], "1 record in 1 file (1 autotvm-v0.2), 0 comment lines; 1 distinct target"),
        (
            ["match", "--target", "llvm"],
            "1 AutoTVM record in 1 file, 1 workload: 1 found (1 by key 'cpu'), 0 not found",
        ),
    ],
)
def test_a_file_that_cannot_be_read_is_not_counted(run: Run, tmp_path: Path, argv: list[str], line: str) -> None:
    missing = tmp_path / "missing.log"
    good = _log(tmp_path / "good.log", _RECORD)
    status, out, err = run("logs", argv[0], str(missing), str(good), *argv[1:])
    assert (status, err) == (1, f"error: cannot read {missing}: No such file or directory\n")
    assert line in out.splitlines()


# ---------------------------------------------------------------------------------- blank lines


# AutoTVM's load_from_file (TVM v0.19) raises JSONDecodeError on an empty line and on one of
# spaces (tried with the oracle): the line is one the loader reads as a record, and fails on.
@pytest.mark.parametrize("blank", ["", "   ", "\t"])
def test_check_migrate_and_stats_count_a_blank_line_alike(run: Run, tmp_path: Path, blank: str) -> None:
    log = _log(tmp_path / "tune.log", _RECORD, blank, _RECORD)
    status, out, _ = run("logs", "stats", str(log))
    assert (status, out.splitlines()[0]) == (
        0,
        "3 records in 1 file (2 autotvm-v0.2, 1 blank), 0 comment lines; 1 distinct target",
    )
    status, out, _ = run("logs", "check", "--json", str(log))
    assert status == 1
    assert out.splitlines()[-1] == (
        f'{{"record": "summary", "file": "{log}", "lines": 3, "records": 3, "comments": 0, "formats": '
        '{"autotvm-v0.2": 2, "blank": 1}, "distinct_targets": 1, "failed": 1, "needs_migration": 0, '
        '"problems": {"record: BlankLine": 1}}'
    )
    status, _, err = run("logs", "migrate", "--json", "--check", str(log))
    assert status == 1
    assert err.splitlines()[-1] == (
        f'{{"record": "summary", "file": "{log}", "lines": 3, "records": 3, "comments": 0, "formats": '
        '{"autotvm-v0.2": 2, "blank": 1}, "changed": 2, "failed": 1, "rules": {}, '
        '"problems": {"record: BlankLine": 1}}'
    )
    status, _, err = run("logs", "migrate", str(log), "-o", str(tmp_path / "out.log"))
    assert err.splitlines()[0] == (
        f"{log}:2: record: BlankLine: a blank line: AutoTVM's load_from_file (TVM v0.7 - v0.19) raises on it "
        "(json.loads: JSONDecodeError), and the whole log fails to load"
    )
    assert err.splitlines()[-1] == f"{log}: 3 records, 2 changed, 0 unchanged, 1 kept as written (1 record: BlankLine)"
    assert (tmp_path / "out.log").read_text() == f"{_MIGRATED}\n{blank}\n{_MIGRATED}\n"  # kept, as every line


def test_a_line_of_spaces_is_a_comment_to_auto_scheduler_in_every_command(run: Run, tmp_path: Path) -> None:
    record = (LOGS / "auto_scheduler/tvm-v0.8.0_matmul.json").read_text().splitlines()[1]
    log = _log(tmp_path / "as.json", record, "  ")
    _, out, _ = run("logs", "stats", "--tvm-version", "0.8", str(log))
    assert out.splitlines()[0] == "1 record in 1 file (1 auto_scheduler), 1 comment line; 1 distinct target"
    _, out, _ = run("logs", "check", "-q", "--tvm-version", "0.8", str(log))
    assert out == f"{log}: 1 record (1 auto_scheduler), 1 comment line, 1 distinct target; 0 failed\n"
    status, _, err = run("logs", "migrate", "--json", "--check", "--tvm-version", "0.8", str(log))
    assert status == 1  # (its record would change)
    assert '"records": 1, "comments": 1' in err.splitlines()[-1]
    assert "BlankLine" not in err
