"""``targetlang logs migrate``: only target values change, byte for byte; atomic, idempotent, nothing dropped."""

from __future__ import annotations

import difflib
import io
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import targetlang
from targetlang._atomic_file import AtomicFile, clean_up_unfinished
from targetlang._cli import logs_migrate
from targetlang.logs import Format, Record, parse_line, read_file, read_lines
from targetlang.logs.migration import LogMigrator
from targetlang.migration import migrate

from .conftest import Run, examples
from .newest import NEWEST
from .test_logs import ALL_LOGS, ARM, AS_V08, LLVM, LOGS, MS_RECORDS, MS_WORKLOADS, VTA, generated_records


def copy_logs(tmp_path: Path, *names: str) -> list[Path]:
    copies = []
    for name in names:
        copy = tmp_path / name.replace("/", "_")
        shutil.copyfile(LOGS / name, copy)
        copies.append(copy)
    return copies


def assert_only_targets_changed(before: list[Record], after: list[Record]) -> None:
    """Line for line: putting the old target values back into the new line gives the old line,
    byte for byte, and the line breaks are the same."""
    assert len(after) == len(before)
    for old, new in zip(before, after, strict=True):
        assert new.newline == old.newline
        if new.text == old.text:
            continue
        assert [f.name for f in new.fields] == [f.name for f in old.fields], old.line
        text = new.text
        for new_field, old_field in sorted(zip(new.fields, old.fields, strict=True), key=lambda p: -p[0].start):
            text = text[: new_field.start] + old.text[old_field.start : old_field.end] + text[new_field.end :]
        assert text == old.text, old.line


def lines_of(path: Path) -> list[Record]:
    return list(read_file(path, path.name))


# ------------------------------------------------------------------ the real logs


@pytest.mark.parametrize("to", ["json", "canonical"])
@pytest.mark.parametrize("name", ALL_LOGS)
def test_real_logs_change_only_their_targets(run: Run, tmp_path: Path, name: str, to: str) -> None:
    out = tmp_path / "out.log"
    status, stdout, _ = run("logs", "migrate", "--policy", "drop", "--to", to, str(LOGS / name), "-o", str(out))
    assert (status, stdout) == (0, "")
    before, after = lines_of(LOGS / name), lines_of(out)
    assert_only_targets_changed(before, after)
    host_of = {r.line: r.host for r in before}
    for old, new in zip(before, after, strict=True):
        for old_field, new_field in zip(old.fields, new.fields, strict=True):
            if not old_field.spec:
                assert new_field.spec == ""  # auto_scheduler's "no host" stays
                continue
            host = host_of[old.line] if old_field.name == "target" else None
            era = "0.7" if old.tvm_version == "0.7.dev0" else None
            expected = migrate(old_field.spec, policy="drop", era=era, host=host or None)
            assert expected.json is not None and expected.target is not None
            if new_field.spec == old_field.spec:
                # Kept as written: already in the wanted form and nothing to change.
                assert targetlang.parse(old_field.spec) == expected.target or not expected.changes
            elif to == "json" or new_field.encoding == "object":
                assert json.loads(new_field.spec) == expected.json
            else:
                assert new_field.spec == expected.target.canonical()


@pytest.mark.parametrize("to", ["json", "canonical"])
@pytest.mark.parametrize("name", ALL_LOGS)
def test_a_second_run_changes_nothing(run: Run, tmp_path: Path, name: str, to: str) -> None:
    (log,) = copy_logs(tmp_path, name)
    status, _, _ = run("logs", "migrate", "--policy", "drop", "--to", to, "--in-place", "--no-backup", str(log))
    assert status == 0
    migrated = log.read_bytes()
    status, out, err = run("logs", "migrate", "--policy", "drop", "--to", to, "--check", str(log))
    assert (status, out) == (0, "")
    assert " 0 would change, " in err
    assert log.read_bytes() == migrated


def test_json_strings_are_what_modern_tvm_reads(tmp_path: Path) -> None:
    migrator = LogMigrator()
    record = next(r for r in read_file(LOGS / ARM) if r.target and "-target=" in r.target)
    result = migrator.migrate(record)
    new = parse_line(result.text)
    assert new.format is Format.AUTOTVM_V01
    assert json.loads(new.target or "") == {
        "kind": "llvm",
        "device": "arm_cpu",
        "model": "pynq",
        "mtriple": "armv7a-linux-eabi",
    }
    assert [c.rule for f in result.fields for c in f.changes] == ["target-to-mtriple"]


def test_meta_schedule_objects_stay_when_nothing_changes_and_workloads_are_untouched(run: Run, tmp_path: Path) -> None:
    status, _, err = run("logs", "migrate", str(LOGS / MS_RECORDS), str(LOGS / MS_WORKLOADS), "-o", str(tmp_path))
    assert status == 0
    assert (tmp_path / Path(MS_RECORDS).name).read_bytes() == (LOGS / MS_RECORDS).read_bytes()
    assert (tmp_path / Path(MS_WORKLOADS).name).read_bytes() == (LOGS / MS_WORKLOADS).read_bytes()
    assert err.splitlines()[-1] == "total: 44 records, 0 changed, 44 unchanged, 0 kept as written"


def test_meta_schedule_objects_migrate_with_their_separators() -> None:
    line = '[0,[[],[1.0],{"kind":"llvm","libs":["mkldnn"],"tag":""},null]]'
    result = LogMigrator().migrate(parse_line(line))
    assert result.text == '[0,[[],[1.0],{"kind":"llvm","libs":["dnnl"]},null]]'


def test_auto_scheduler_host_is_folded_into_the_target_and_migrated_in_place() -> None:
    line = (
        '{"i": [["[\\"k\\"]", "cuda -arch=sm_72", [8, 64, 64, 0, 0, 0, 0, 0], '
        '"llvm -mtriple=aarch64-linux-gnu", 2], []], "r": [[1e-05], 0, 0.1, 1606960872], "v": "v0.6"}'
    )
    migrator = LogMigrator()
    result = migrator.migrate(parse_line(line))
    new = parse_line(result.text)
    host = {"kind": "llvm", "mtriple": "aarch64-linux-gnu"}
    assert json.loads(new.target or "") == {"kind": "cuda", "arch": "sm_72", "host": host}
    assert json.loads(new.host or "") == host
    assert migrator.migrate(new).text == new.text


def test_pickle_rows_get_a_new_first_column_only() -> None:
    line = "llvm -libs=mkldnn\tgANYAQ==\tgANYAg==\tgANYAw==\t0.2\t0.8.0"
    result = LogMigrator().migrate(parse_line(line))
    assert result.text == '{"kind": "llvm", "libs": ["dnnl"]}\tgANYAQ==\tgANYAg==\tgANYAw==\t0.2\t0.8.0'


def test_records_are_read_in_the_era_of_their_tvm_version() -> None:
    # TVM v0.8 took the quotes out in its split; v0.22 would keep them inside the value.
    line = '{"input": ["cuda -model=\'tx 2\'", "dense", [], {}], "result": [[0.1], 0, 1, 1], "version": 0.2, '
    old = parse_line(line + '"tvm_version": "0.8.0"}')
    result = LogMigrator().migrate(old)
    assert json.loads(parse_line(result.text).target or "") == {"kind": "cuda", "model": "tx 2"}
    assert result.fields[0].era == "0.8"


def test_canonical_form_of_targets() -> None:
    line = '{"input": ["llvm  --mcpu skylake -libs=mkldnn", "dense", [], {}], "version": 0.2, "tvm_version": "0.19.0"}'
    result = LogMigrator(to="canonical").migrate(parse_line(line))
    assert parse_line(result.text).target == "llvm -libs=dnnl -mcpu=skylake"


# ------------------------------------------------------------------ nothing is lost


def test_records_that_cannot_migrate_are_kept_and_reported(run: Run, tmp_path: Path) -> None:
    log = tmp_path / "tune.log"
    lines = [
        "# tuned on the board",
        '{"input": ["llvm -mcpu=skylake -libs=mkldnn", "dense", [], {}], "version": 0.2, "tvm_version": "0.19.0"}',
        '{"input": ["llvm -mcpu=skylake -system-lib", "dense", [], {}], "version": 0.2, "tvm_version": "0.19.0"}',
        '{"input": ["llvm -mcpux=skylake", "dense", [], {}], "version": 0.2, "tvm_version": "0.19.0"}',
        "not a record",
        '{"input": ["sdaccel", "dense", [], {}], "version": 0.2, "tvm_version": "0.19.0"}',
    ]
    log.write_text("\r\n".join(lines), encoding="utf-8")  # CRLF, and no line break at the end
    out = tmp_path / "out.log"
    status, stdout, err = run("logs", "migrate", str(log), "-o", str(out))
    assert (status, stdout) == (1, "")
    written = out.read_bytes().split(b"\r\n")
    assert len(written) == len(lines)
    assert [w.decode() for i, w in enumerate(written) if i != 1] == [line for i, line in enumerate(lines) if i != 1]
    assert b'"{\\"kind\\": \\"llvm\\", \\"mcpu\\": \\"skylake\\", \\"libs\\": [\\"dnnl\\"]}"' in written[1]
    name = str(log)
    assert err.split("\n") == [
        f"{name}:2: target: info: mkldnn-to-dnnl: libs: mkldnn renamed to dnnl",
        "  llvm -mcpu=skylake -libs=mkldnn",
        "                     ^^^^^^^^^^^^",
        f"{name}:3: target: migrate: removed-attribute: attribute 'system-lib' cannot migrate: moved to the runtime: "
        "relay.backend.Runtime('cpp', {'system-lib': True}), or system_lib=True in tvm.relax.build",
        "  llvm -mcpu=skylake -system-lib",
        "                     ^^^^^^^^^^^",
        f"{name}:4: target: parse: UnknownAttributeError: kind 'llvm' has no attribute 'mcpux'; did you mean 'mcpu'?",
        "  llvm -mcpux=skylake",
        "        ^^^^^",
        f"{name}:5: record: UnknownRecord: not JSON: Expecting value: line 1 column 1 (char 0)",
        f"{name}:6: target: migrate: removed-kind: kind 'sdaccel': removed in TVM v0.20 with the SDAccel/Vitis flow; "
        "no replacement",
        "  sdaccel",
        "  ^^^^^^^",
        f"{name}: 5 records, 1 changed, 0 unchanged, 4 kept as written (1 migrate: removed-attribute, "
        "1 migrate: removed-kind, 1 parse: UnknownAttributeError, 1 record: UnknownRecord); changes: 1 mkldnn-to-dnnl",
        "",
    ]


def test_json_report(run: Run, tmp_path: Path) -> None:
    log = tmp_path / "tune.log"
    log.write_text('{"i": ["llvm -target=x", "t", [], {}, [], {}], "r": [[1], 0, 1, 1], "v": 0.1}\n', encoding="utf-8")
    status, out, err = run("logs", "migrate", "--json", "--check", str(log))
    assert (status, out) == (1, "")
    assert [json.loads(line) for line in err.splitlines()] == [
        {
            "record": "change",
            "file": str(log),
            "line": 1,
            "field": "target",
            "rule": "target-to-mtriple",
            "severity": "info",
            "message": "-target renamed to -mtriple",
            "spec": "llvm -target=x",
            "span": [6, 12],
            "era": "0.6",  # a v0.1 record: TVM v0.6 or older wrote it
        },
        {
            "record": "summary",
            "file": str(log),
            "lines": 1,
            "records": 1,
            "comments": 0,
            "formats": {"autotvm-v0.1": 1},
            "changed": 1,
            "failed": 0,
            "rules": {"target-to-mtriple": 1},
            "problems": {},
        },
    ]


def test_changes_of_a_repeated_target_are_shown_once(run: Run, tmp_path: Path) -> None:
    status, _, err = run("logs", "migrate", "--check", str(LOGS / ARM))
    assert status == 1
    shown = [line for line in err.splitlines() if ": target: info: target-to-mtriple:" in line]
    # six distinct targets spell -target, in 283 records: one report, with its count
    assert shown == [
        f"{LOGS / ARM}:3: target: info: target-to-mtriple: -target renamed to -mtriple "
        "[283 records, 6 distinct targets: lines 3, 4, 5, 6, 7, ...]"
    ]
    assert err.splitlines()[-1].endswith(
        "314 records, 314 would change, 0 unchanged, 0 kept as written; changes: 283 target-to-mtriple"
    )


# ------------------------------------------------------------------ files


def test_in_place_is_atomic_keeps_a_backup_and_leaves_an_unchanged_file_alone(run: Run, tmp_path: Path) -> None:
    (log,) = copy_logs(tmp_path, VTA)
    original = log.read_bytes()
    os.chmod(log, 0o640)
    status, out, _ = run("logs", "migrate", "--in-place", str(log))
    assert (status, out) == (0, "")
    backup = Path(str(log) + ".bak")
    assert backup.read_bytes() == original
    assert log.read_bytes() != original
    assert os.stat(log).st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == [log.name, backup.name]  # no temporary file left
    stamp = (os.stat(log).st_ino, os.stat(log).st_mtime_ns, os.stat(backup).st_mtime_ns)
    status, _, _ = run("logs", "migrate", "--in-place", str(log))
    assert status == 0
    assert (os.stat(log).st_ino, os.stat(log).st_mtime_ns, os.stat(backup).st_mtime_ns) == stamp
    assert backup.read_bytes() == original


def test_in_place_without_backup(run: Run, tmp_path: Path) -> None:
    (log,) = copy_logs(tmp_path, LLVM)
    status, _, _ = run("logs", "migrate", "--in-place", "--no-backup", str(log))
    assert status == 0
    assert [p.name for p in tmp_path.iterdir()] == [log.name]


def test_an_interrupted_run_leaves_the_original_intact(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (log,) = copy_logs(tmp_path, ARM)
    original = log.read_bytes()
    real = AtomicFile.write

    def interrupted(self: AtomicFile, data: bytes) -> None:
        real(self, data[: len(data) // 2])  # Ctrl-C halfway through writing the migrated lines
        raise KeyboardInterrupt

    monkeypatch.setattr(AtomicFile, "write", interrupted)
    status, _, _ = run("logs", "migrate", "--in-place", str(log))
    assert status == 130
    assert log.read_bytes() == original
    assert [p.name for p in tmp_path.iterdir()] == [log.name]


def test_output_through_a_symbolic_link_writes_the_file_it_names(tmp_path: Path) -> None:
    real = tmp_path / "real.log"
    real.write_bytes(b"old\n")
    link = tmp_path / "link.log"
    link.symlink_to(real)
    with AtomicFile(str(link)) as out:
        out.write(b"new\n")
    assert link.is_symlink()
    assert real.read_bytes() == b"new\n"


def test_a_failed_write_leaves_the_destination(tmp_path: Path) -> None:
    target = tmp_path / "out.log"
    target.write_bytes(b"old\n")
    with pytest.raises(RuntimeError), AtomicFile(str(target)) as out:
        out.write(b"half")
        raise RuntimeError
    assert target.read_bytes() == b"old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.log"]


# ------------------------------------------------------------------ attacks on the rewriting


def test_a_symbolic_link_at_the_backup_is_replaced_never_followed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Someone who can write the directory puts a link at FILE.bak, to another user's file, just
    # as hard linking fails (another file system, FAT, protected_hardlinks) and the backup is
    # copied instead: the copy must not go through the link.
    victim = tmp_path / "victim"
    victim.write_bytes(b"precious\n")
    log = tmp_path / "tune.log"
    log.write_bytes(b"old\n")
    backup = tmp_path / "tune.log.bak"

    def no_links(*args: Any, **kwargs: Any) -> None:
        if not backup.is_symlink():
            backup.unlink(missing_ok=True)
            backup.symlink_to(victim)  # the attacker's move, in the window
        raise OSError(18, "Invalid cross-device link")

    monkeypatch.setattr(os, "link", no_links)
    with AtomicFile(str(log), str(backup)) as out:
        out.write(b"new\n")
    assert victim.read_bytes() == b"precious\n"
    assert not backup.is_symlink() and backup.read_bytes() == b"old\n"
    assert log.read_bytes() == b"new\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tune.log", "tune.log.bak", "victim"]


def test_a_file_that_changes_meanwhile_is_not_replaced(tmp_path: Path) -> None:
    # a writer appends records while the log is rewritten: they must not vanish
    log = tmp_path / "tune.log"
    log.write_bytes(b"old\n")
    with pytest.raises(OSError, match="changed while it was rewritten") as info:
        with AtomicFile(str(log), str(tmp_path / "tune.log.bak")) as out:
            out.write(b"new\n")
            with open(log, "ab") as writer:
                writer.write(b"appended\n")
    assert info.value.filename == str(log)
    assert log.read_bytes() == b"old\nappended\n"
    assert [p.name for p in tmp_path.iterdir()] == ["tune.log"]


def test_two_runs_at_once_on_one_file(tmp_path: Path) -> None:
    log = tmp_path / "tune.log"
    log.write_bytes(b"old\n")
    with AtomicFile(str(log), str(tmp_path / "tune.log.bak")) as first:
        with pytest.raises(OSError, match="another run is rewriting it"):
            with AtomicFile(str(log), str(tmp_path / "tune.log.bak")):
                pass
        first.write(b"new\n")
    assert log.read_bytes() == b"new\n"
    assert (tmp_path / "tune.log.bak").read_bytes() == b"old\n"


def test_a_new_output_file_follows_the_umask(tmp_path: Path) -> None:
    before = os.umask(0o027)
    try:
        with AtomicFile(str(tmp_path / "new.log")) as out:
            out.write(b"x\n")
    finally:
        os.umask(before)
    assert stat.S_IMODE((tmp_path / "new.log").stat().st_mode) == 0o640


class _InterruptAt:
    """A profile function that raises KeyboardInterrupt at the ``n``-th Python call it sees, as a
    signal handler (Ctrl-C, or the command's SIGTERM and SIGHUP) may on entering any function."""

    def __init__(self, n: int) -> None:
        self.n, self.calls = n, 0

    def __call__(self, frame: Any, event: str, arg: Any) -> None:
        if event == "call":
            self.calls += 1
            if self.calls == self.n:
                sys.setprofile(None)
                raise KeyboardInterrupt


@pytest.mark.parametrize("backup", [False, True])
def test_an_interrupt_at_any_call_leaves_no_temporary_file(tmp_path: Path, backup: bool) -> None:
    # Every call of a rewrite in place, interrupted in turn: the log is the old one or the new
    # one, and nothing else is left beside it (the backup, once the new one is in place).
    log = tmp_path / "tune.log"
    keep = str(tmp_path / "tune.log.bak") if backup else None

    def rewrite(interrupt: _InterruptAt) -> list[str]:
        log.write_bytes(b"old\n")
        for leftover in tmp_path.iterdir():
            if leftover != log:
                leftover.unlink()
        try:
            sys.setprofile(interrupt)
            with AtomicFile(str(log), keep) as out:
                out.write(b"new\n")
        except KeyboardInterrupt:
            clean_up_unfinished()  # as the command does when it stops
        finally:
            sys.setprofile(None)
        return sorted(p.name for p in tmp_path.iterdir())

    rewrite(_InterruptAt(0))  # imports and compiled patterns made once, as in a real run
    whole = _InterruptAt(0)
    rewrite(whole)
    assert whole.calls > 20
    for n in range(1, whole.calls + 1):
        interrupt = _InterruptAt(n)
        names = rewrite(interrupt)
        assert interrupt.calls == n, "the rewrite made other calls than it did uninterrupted"
        if log.read_bytes() == b"old\n":
            assert names == ["tune.log"], (n, names)
        else:
            assert log.read_bytes() == b"new\n"
            assert names == (["tune.log", "tune.log.bak"] if backup else ["tune.log"]), (n, names)


def test_a_stop_on_entering_the_files_exit_leaves_no_temporary_file(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Where no handler of the file's own runs, the command removes what it began as it stops.
    log = tmp_path / "tune.log"
    log.write_text(_RECORD)

    def stopped(self: AtomicFile, *exc: object) -> None:
        raise KeyboardInterrupt  # as Ctrl-C's handler, run on entering __exit__

    monkeypatch.setattr(AtomicFile, "__exit__", stopped)
    status, _, _ = run("logs", "migrate", "--in-place", str(log))
    assert status == 130
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tune.log"]
    assert log.read_text() == _RECORD


def test_a_full_disk_leaves_no_temporary_file(tmp_path: Path) -> None:
    # RLIMIT_FSIZE stands in for a full disk: writes past it fail (EFBIG), closing the file too
    log = tmp_path / "tune.log"
    log.write_bytes(b"old\n")
    script = (
        "import resource, signal, sys\n"
        "from targetlang._atomic_file import AtomicFile\n"
        "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (65536, 65536))\n"
        "try:\n"
        "    with AtomicFile(sys.argv[1]) as out:\n"
        "        for _ in range(64):\n"
        "            out.write(b'x' * 4000)\n"
        "except OSError as err:\n"
        "    print(err.errno, err.filename)\n"
    )
    done = subprocess.run([sys.executable, "-c", script, str(log)], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["27", str(log)]  # EFBIG, naming the file given
    assert [p.name for p in tmp_path.iterdir()] == ["tune.log"]
    assert log.read_bytes() == b"old\n"


_RECORD = (
    '{"input": ["llvm -device=arm_cpu -target=aarch64-linux-gnu", "dense", [], {}], "config": {"index": 1, '
    '"code_hash": null, "entity": []}, "result": [[0.1], 0, 1, 1], "version": 0.2, "tvm_version": "0.8.0"}\n'
)


# The child of the tests below: `targetlang logs migrate`, which, once it has written its first
# migrated lines to the temporary file, says so on stdout and waits until its stdin is closed. The
# test's signal thus always lands in the middle of the run, however loaded the machine is; the
# command's own handling of the signal is untouched.
_PAUSED_MIGRATE = """\
import sys
from targetlang.__main__ import run
from targetlang._atomic_file import AtomicFile

_write = AtomicFile.write


def write(self, data):
    _write(self, data)
    if not getattr(AtomicFile, "paused", False):
        AtomicFile.paused = True
        print("writing", flush=True)
        sys.stdin.buffer.read()


AtomicFile.write = write
raise SystemExit(run())
"""


def _stopped_midway(tmp_path: Path, signum: int, ignored: bool = False) -> tuple[Path, bytes, int]:
    """A `logs migrate --in-place` of a log, sent ``signum`` while it writes its temporary file
    (``ignored``: with the signal ignored, as under nohup), then let go on."""
    log = tmp_path / "big.log"
    original = _RECORD.encode() * 6_000  # more than one block read: the first write is midway
    log.write_bytes(original)
    process = subprocess.Popen(
        [sys.executable, "-c", _PAUSED_MIGRATE, "logs", "migrate", "--quiet", "--in-place", str(log)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,  # (--quiet: a line or two)
        preexec_fn=(lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN)) if ignored else None,
    )
    assert process.stdin is not None and process.stdout is not None and process.stderr is not None
    if process.stdout.readline() != b"writing\n":
        process.stdin.close()
        pytest.fail(f"the run ended before it wrote: {process.stderr.read().decode(errors='replace')}")
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")], "no temporary file while it writes"
    process.send_signal(signum)
    process.stdin.close()
    try:
        return log, original, process.wait(timeout=120)
    finally:
        process.stdout.close()
        process.stderr.close()


@pytest.mark.parametrize(
    "signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT], ids=lambda signum: signal.Signals(signum).name
)
def test_sigterm_and_sighup_clean_up_as_ctrl_c_does(tmp_path: Path, signum: int) -> None:
    log, original, status = _stopped_midway(tmp_path, signum)
    assert status == (130 if signum == signal.SIGINT else 128 + signum)
    # stopped midway: the log is as it was, no backup was made, no temporary file is left
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.log"]
    assert log.read_bytes() == original


def test_a_later_run_removes_what_a_killed_one_left(run: Run, tmp_path: Path) -> None:
    log, original, status = _stopped_midway(tmp_path, signal.SIGKILL)
    assert status == -signal.SIGKILL
    stale = [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    assert len(stale) == 1 and stale[0].startswith(".big.log."), stale
    assert log.read_bytes() == original
    (tmp_path / ".big.log.notours.tmp").write_bytes(b"someone else's")  # not a name we make
    log.write_bytes(_RECORD.encode())
    status, _out, err = run("logs", "migrate", "--in-place", str(log))
    assert status == 0, err
    assert sorted(p.name for p in tmp_path.iterdir()) == [".big.log.notours.tmp", "big.log", "big.log.bak"]


def test_in_place_refuses_a_fifo(run: Run, tmp_path: Path) -> None:
    fifo = tmp_path / "tune.log"
    os.mkfifo(fifo)
    status, _out, err = run("logs", "migrate", "--in-place", str(fifo))
    assert status == 1
    assert "not a regular file, which --in-place cannot replace" in err


def test_stdin_to_stdout(run: Run) -> None:
    data = (LOGS / LLVM).read_bytes()
    status, out, err = run("logs", "migrate", "-", "-o", "-", stdin=data)
    assert status == 0
    before = list(read_lines(io.BytesIO(data)))
    after = list(read_lines(io.BytesIO(out.encode())))
    assert_only_targets_changed(before, after)
    assert err.splitlines()[-1] == "<stdin>: 35 records, 35 changed, 0 unchanged, 0 kept as written"


def test_diff_shows_changed_lines_as_zero_context_hunks(run: Run, tmp_path: Path) -> None:
    log = tmp_path / "tune.log"
    old = [
        '{"input": ["llvm -libs=mkldnn", "a", [], {}], "version": 0.2, "tvm_version": "0.19.0"}',
        '{"input": ["llvm -target=x", "b", [], {}], "version": 0.2, "tvm_version": "0.19.0"}',
        "# unchanged",
        '{"input": ["cuda -libs=mkldnn", "c", [], {}], "version": 0.2, "tvm_version": "0.19.0"}',
    ]
    log.write_text("\n".join(old), encoding="utf-8")
    status, out, _ = run("logs", "migrate", "--diff", str(log))
    assert status == 0
    new = [LogMigrator().migrate(parse_line(line)).text for line in old]
    assert out.split("\n") == [
        f"--- {log}",
        f"+++ {log}",
        "@@ -1,2 +1,2 @@",
        f"-{old[0]}",
        f"-{old[1]}",
        f"+{new[0]}",
        f"+{new[1]}",
        "@@ -4,1 +4,1 @@",
        f"-{old[3]}",
        "\\ No newline at end of file",
        f"+{new[3]}",
        "\\ No newline at end of file",
        "",
    ]
    assert log.read_text(encoding="utf-8") == "\n".join(old)  # --diff alone writes nothing


@pytest.mark.parametrize("end", ["\n", ""])
def test_diff_of_long_runs_of_changed_lines_is_a_unified_diff_whether_held_or_spooled(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, end: str
) -> None:
    line = '{"input": ["llvm -device=arm_cpu -target=aarch64-linux-gnu", "dense", [], {}], "version": 0.2}'
    data = "# head\n" + f"{line}\n" * 500 + "# gap\n" + f"{line}\r\n" * 3 + "# gap\n" + f"{line}\n{line}{end}"
    log = tmp_path / "tune.log"
    log.write_bytes(data.encode())
    out = tmp_path / "out.log"
    status, held, _ = run("logs", "migrate", "--diff", str(log), "-o", str(out))
    assert status == 0
    # Lines of over 64 bytes: every hunk goes to the temporary file at its first line.
    monkeypatch.setattr(logs_migrate, "_SPOOL_SIZE", 64)
    status, spooled, _ = run("logs", "migrate", "--diff", str(log))
    assert (status, spooled) == (0, held)
    old = data.splitlines(keepends=True)
    new = out.read_bytes().decode().splitlines(keepends=True)
    if not end:
        # difflib writes no marker: as part of the last line, it comes out where diff -U0 puts it.
        old[-1] += "\n\\ No newline at end of file\n"
        new[-1] += "\n\\ No newline at end of file\n"
    assert spooled == "".join(difflib.unified_diff(old, new, str(log), str(log), n=0))


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["x.log"], "say where the migrated log goes"),
        (["-", "--in-place"], "--in-place cannot replace standard input"),
        (["x.log", "-o", "-", "--diff"], "both write to standard output"),
        (["x.log", "y.log", "-o", os.devnull], "-o names a directory"),
        (["x.log", "--check", "--in-place"], "not allowed with argument"),
        (["x.log", "--to", "xml", "--check"], "invalid choice"),
    ],
)
def test_usage_errors(run: Run, argv: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    status, out, err = run("logs", "migrate", *argv)
    assert (status, out) == (2, "")
    assert message in err


@pytest.mark.parametrize("where", [["-o", "out.log"], ["-o", "-"], ["--check"], ["--diff"]])
def test_no_backup_without_in_place_is_a_usage_error(
    run: Run, where: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copyfile(LOGS / LLVM, "x.log")
    status, out, err = run("logs", "migrate", "x.log", "--no-backup", *where)
    assert (status, out) == (2, "")
    assert err == (
        "targetlang logs migrate: error: --no-backup goes with --in-place only: "
        "no other way of writing keeps a FILE.bak\n"
    )
    assert sorted(os.listdir(tmp_path)) == ["x.log"]


def test_an_output_that_cannot_be_written_is_named_as_given(run: Run, tmp_path: Path) -> None:
    log, missing = LOGS / LLVM, tmp_path / "no-such-dir" / "out.log"
    status, out, err = run("logs", "migrate", str(log), "-o", str(missing))
    assert (status, out) == (1, "")
    assert err == f"error: cannot migrate {log}: No such file or directory ({missing})\n"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
def test_a_failed_write_names_the_output(run: Run) -> None:
    status, _, err = run("logs", "migrate", str(LOGS / LLVM), "-o", "/dev/full")
    assert status == 1
    assert err.splitlines()[-1] == f"error: cannot migrate {LOGS / LLVM}: No space left on device (/dev/full)"


def test_json_report_goes_to_stderr_as_the_help_says(run: Run) -> None:
    status, out, _ = run("logs", "migrate", "--help")
    assert status == 0
    help_text = " ".join(out.split())
    assert "--json the report (changes, problems, summaries) as JSON lines on stderr instead of text " in help_text
    status, out, err = run("logs", "migrate", "--json", "--check", str(LOGS / LLVM))
    assert (status, out) == (1, "")
    assert json.loads(err.splitlines()[-1])["record"] == "summary"


def test_registry_gives_user_kinds_to_logs_migrate(run: Run, tmp_path: Path) -> None:
    registry = str(Path(__file__).resolve().parents[1] / "docs" / "examples" / "composite-registry.toml")
    log = tmp_path / "user.log"
    line = (
        '{"input": ["my-accelerator -cores=8", "dense", [], {}], "config": {}, "result": [[1.0], 0, 1.0, 1.0], '
        '"version": 0.2}'
    )
    log.write_text(line + "\n", encoding="utf-8")
    # Without the registry the kind is unknown; with it, TVM 0.27 still knows no user kind.
    status, _, err = run("logs", "migrate", "--check", str(log))
    assert status == 1 and "unknown target kind 'my-accelerator'" in err
    status, _, err = run("--registry", registry, "logs", "migrate", "--check", str(log))
    assert status == 1 and f"kind 'my-accelerator': a kind or attribute TVM {NEWEST} does not know" in err
    status, out, _ = run("--registry", registry, "logs", "migrate", "--policy", "keep", str(log), "-o", "-")
    assert status == 0
    migrated = json.dumps('{"kind": "my-accelerator", "cores": 8}')  # AutoTVM's target is a string
    assert out == line.replace('"my-accelerator -cores=8"', migrated) + "\n"
    status, _, err = run("--registry", str(tmp_path / "missing.toml"), "logs", "migrate", "--check", str(log))
    assert status == 1 and err.startswith("error: ")


def test_a_missing_file_is_reported_and_the_others_migrate(run: Run, tmp_path: Path) -> None:
    status, _, err = run("logs", "migrate", str(tmp_path / "missing.log"), str(LOGS / LLVM), "-o", str(tmp_path))
    assert status == 1
    assert f"error: cannot migrate {tmp_path / 'missing.log'}: No such file or directory" in err
    assert (tmp_path / Path(LLVM).name).exists()


def test_v08_log_with_link_params_under_each_policy(run: Run, tmp_path: Path) -> None:
    # -link-params=0 is false, the graph executor's default: it sets nothing, and goes under
    # policies error and drop; keep keeps it (and TVM 0.27 then refuses the target)
    out = tmp_path / "out.json"
    for policy, config in [
        ("error", {"kind": "llvm", "keys": ["cpu"]}),
        ("drop", {"kind": "llvm", "keys": ["cpu"]}),
        ("keep", {"kind": "llvm", "keys": ["cpu"], "link-params": False}),
    ]:
        status, _, err = run("logs", "migrate", "--policy", policy, str(LOGS / AS_V08), "-o", str(out))
        assert status == 0
        assert json.loads(lines_of(out)[1].target or "") == config
        severity = "warning" if policy == "keep" else "info"
        assert f"target: {severity}: removed-attribute: attribute 'link-params'" in err


# ------------------------------------------------------------------ generated logs


@settings(max_examples=examples(50), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(generated_records(), min_size=1, max_size=4), st.sampled_from(["json", "canonical"]))
def test_generated_logs_change_only_their_targets_and_settle(
    generated: list[tuple[str, Format, dict[str, tuple[int, int]]]], to: str
) -> None:
    data = "".join(line + "\n" for line, _, _ in generated).encode()
    migrator = LogMigrator(to="json" if to == "json" else "canonical", policy="drop")
    before = list(read_lines(io.BytesIO(data)))
    results = [migrator.migrate(record) for record in before]
    after = list(read_lines(io.BytesIO("".join(r.text + "\n" for r in results).encode())))
    assert_only_targets_changed(before, after)
    for result, again in zip(results, after, strict=True):
        if result.problems:
            assert result.text == result.record.text  # kept as written
        assert migrator.migrate(again).text == again.text  # a second run changes nothing


def test_canonical_strings_must_read_the_same_by_the_records_own_rules() -> None:
    # TVM v0.7 had no quoting: the key is the two quote characters. The canonical string escapes
    # them, which v0.7 would read as four characters: the record is kept, and says why.
    line = '{"input": ["c -keys=\'\'", "", [], {}], "version": 0.2, "tvm_version": "0.7.dev0"}'
    result = LogMigrator(to="canonical").migrate(parse_line(line))
    assert result.text == line
    (problem,) = result.problems
    assert (problem.rule, problem.error) == ("migrate", "NoCanonicalForm")
    assert "era 0.7" in problem.message
    json_result = LogMigrator(to="json").migrate(parse_line(line))
    # ...while its JSON keeps the two characters, and the default key v0.7 appended to them.
    assert json.loads(parse_line(json_result.text).target or "") == {"kind": "c", "keys": ["''", "cpu"]}


def test_a_record_migrates_whole_or_not_at_all() -> None:
    # The host would migrate, but the target does not read: neither changes.
    line = (
        '{"i": [["[\\"k\\"]", "cuda -arch=\'x", [8, 64, 64, 0, 0, 0, 0, 0], "llvm -libs=mkldnn", 2], []], "v": "v0.6"}'
    )
    result = LogMigrator().migrate(parse_line(line))
    assert result.text == line
    assert [f.written for f in result.fields] == [False, False]
    assert [p.field for p in result.problems] == ["target"]


def test_a_warning_about_a_record_kept_as_written_is_reported(run: Run, tmp_path: Path) -> None:
    # meta-schedule writes TVM's export, "tag": "" included: a from_device it holds is worth a
    # warning, but no reason to rewrite the object.
    log = tmp_path / "database_tuning_record.json"
    line = '[0,[[],[0.1],{"kind":"llvm","from_device":0,"tag":""},[]]]'
    log.write_text(line + "\n", encoding="utf-8")
    status, out, err = run("logs", "migrate", str(log), "-o", "-")
    assert (status, out) == (0, line + "\n")
    assert err.splitlines() == [
        f"{log}:1: target: warning: from-device: from_device queries the device when TVM builds the target; kept as is",
        '  {"kind":"llvm","from_device":0,"tag":""}',
        "                 ^^^^^^^^^^^^^^^",
        f"{log}: 1 record, 0 changed, 1 unchanged, 0 kept as written",
    ]


# Records that an older TVM wrote (its era reads no JSON): after `logs migrate`, their targets are
# JSON objects, which check, stats and match read as the modern form they are.
OLD_WRITERS = [
    (
        "AutoTVM log format v0.1",
        '{"i": ["cuda -model=tx2", "dense", [], {}, ["dense"], {"i": 0, "c": null, "e": [], "t": ""}], '
        '"r": [[0.1], 0, 1, 1], "v": 0.1}',
    ),
    (
        "tvm_version below 0.7",
        '{"input": ["llvm -device=arm_cpu -target=aarch64-linux-gnu", "dense", [], {}], '
        '"config": {"index": 1, "code_hash": null, "entity": []}, "result": [[0.1], 0, 1, 1], '
        '"version": 0.2, "tvm_version": "0.6.0"}',
    ),
]


@pytest.mark.parametrize(("case", "line"), OLD_WRITERS, ids=[c for c, _ in OLD_WRITERS])
def test_what_migrate_writes_check_stats_and_match_read(run: Run, tmp_path: Path, case: str, line: str) -> None:
    original, migrated = tmp_path / "in.log", tmp_path / "out.log"
    original.write_text(line + "\n")
    assert run("logs", "migrate", str(original), "-o", str(migrated))[0] == 0
    assert '{\\"kind\\"' in migrated.read_text()
    status, out, err = run("logs", "check", str(migrated))
    assert (status, err) == (0, ""), out
    assert out.endswith("1 distinct target; 0 failed\n")
    _, before, _ = run("logs", "stats", "--json", str(original))
    _, after, _ = run("logs", "stats", "--json", str(migrated))
    totals = [json.loads(text.splitlines()[-1]) for text in (before, after)]
    for field in ("kinds", "models", "keys"):
        assert totals[0][field] == totals[1][field], field
    target = "cuda -model=tx2" if "cuda" in line else "llvm -device=arm_cpu -mtriple=aarch64-linux-gnu"
    answers = [run("logs", "match", "--target", target, str(path))[1].splitlines()[0] for path in (original, migrated)]
    assert answers[0] == answers[1]


def test_what_migrate_writes_check_reads_clean_for_every_real_log(run: Run, tmp_path: Path) -> None:
    # Whatever `logs migrate` writes, `logs check` reads with no problem: every real log of the
    # repository, under the default policy, with the exit status of a clean log.
    out = tmp_path / "out"
    out.mkdir()
    for name in ALL_LOGS:
        written = out / Path(name).name
        status, _, err = run("logs", "migrate", "--quiet", str(LOGS / name), "-o", str(written))
        assert status == 0, err
        status, summary, err = run("logs", "check", str(written))
        assert (status, err) == (0, ""), name
        assert summary.endswith("; 0 failed\n")


def test_an_ignored_sighup_stays_ignored(tmp_path: Path) -> None:
    # `nohup targetlang logs migrate --in-place ...`: a hangup midway does not stop the run
    log, original, status = _stopped_midway(tmp_path, signal.SIGHUP, ignored=True)
    assert status == 0
    assert (tmp_path / "big.log.bak").read_bytes() == original
    assert log.read_bytes() != original
