"""The command-line tool: whole outputs, exit statuses, and the examples of its help and docs replayed."""

from __future__ import annotations

import gzip
import json
import shlex
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import targetlang
from targetlang import _checking as checking
from targetlang._cli import target as cli

from .conftest import Run, read_jsonl
from .doc_refresh import shown
from .newest import NEWEST

DOCS = Path(__file__).resolve().parents[1] / "docs" / "cli.md"
SAMPLE = Path(targetlang.__file__).parent / "data" / "sample-targets.txt"
SAMPLE_NAME = "<package data targetlang/data/sample-targets.txt>"


def summary(name: str, checked: int, good: int, resolved: int | None = None, failed: str = "0 failed") -> str:
    resolved = good if resolved is None else resolved
    return (
        f"checked {checked} target{'' if checked == 1 else 's'} in {name}: {good} parsed, {good} round-trip exactly, "
        f"{good} read back from canonical form, {resolved} resolve; {failed}\n"
    )


# ------------------------------------------------------------------ legacy, fmt, parse


@pytest.mark.parametrize(
    ("spec", "printed"),
    [
        # The table of printed examples in spec section 6.1 (TVM v0.22, no GPU).
        ("llvm -mcpu=cortex-m3", "llvm -keys=arm_cpu,cpu -mcpu=cortex-m3"),
        (
            "cuda -model=unknown -libs=cublas,cudnn",
            "cuda -keys=cuda,gpu -arch=sm_50 -libs=cublas,cudnn -max_num_threads=1024 -model=unknown"
            " -thread_warp_size=32",
        ),
        (
            "opencl -device=mali",
            "opencl -keys=mali,opencl,gpu -device=mali -image_base_address_alignment=64 -max_function_args=128"
            " -max_num_threads=256 -max_shared_memory_per_block=16384 -max_threads_per_block=256"
            " -texture_spatial_limit=16384 -thread_warp_size=1",
        ),
        (
            "vulkan -device_name='Name of GPU with spaces' -device_type=discrete",
            "vulkan -keys=vulkan,gpu -device_name='Name of GPU with spaces' -device_type=discrete -max_num_threads=256"
            " -max_threads_per_block=256 -supports_float32=1 -supports_int32=1 -thread_warp_size=1",
        ),
        ("llvm -mcpu=it\\'s", "llvm -keys=cpu -mcpu=it\\'s"),
        ("c", "c -keys=cpu "),
        ("test", "test "),
        (
            "nvidia/geforce-rtx-3070",
            "cuda -keys=cuda,gpu -arch=sm_86 -max_num_threads=1024 -max_shared_memory_per_block=49152"
            " -max_threads_per_block=1024 -registers_per_block=65536 -thread_warp_size=32",
        ),
    ],
)
def test_legacy_prints_tvm_v022_str_exactly(run: Run, spec: str, printed: str) -> None:
    assert run("legacy", spec) == (0, printed + "\n", "")


def test_legacy_keeps_the_trailing_space(run: Run) -> None:
    assert run("legacy", "c") == (0, "c -keys=cpu \n", "")


@pytest.mark.parametrize(
    ("spec", "canonical"),
    [
        ("llvm --mcpu skylake", "llvm -mcpu=skylake"),
        ("opencl -model=rk3399 -device=mali", "opencl -device=mali -model=rk3399"),
        ("cuda --host llvm", "cuda -host=llvm"),
        ('{"kind": "llvm", "mcpu": "skylake"}', "llvm -mcpu=skylake"),
        ("llvm -keys=cpu ", "llvm -keys=cpu"),
    ],
)
def test_fmt_prints_the_canonical_string(run: Run, spec: str, canonical: str) -> None:
    assert run("fmt", spec) == (0, canonical + "\n", "")


def test_parse_prints_modern_json_indented(run: Run) -> None:
    expected = """\
{
  "kind": "llvm",
  "mcpu": "skylake",
  "mattr": [
    "+avx2",
    "+fma"
  ]
}
"""
    assert run("parse", "llvm -mcpu=skylake -mattr=+avx2,+fma") == (0, expected, "")


def test_parse_nests_the_host(run: Run) -> None:
    status, out, err = run("parse", "cuda --host llvm")
    assert (status, err) == (0, "")
    assert out == '{\n  "kind": "cuda",\n  "host": {\n    "kind": "llvm"\n  }\n}\n'
    assert json.loads(out) == {"kind": "cuda", "host": {"kind": "llvm"}}


# ------------------------------------------------------------------ errors of one spec


def test_error_parse_unknown_attribute_shows_line_and_caret(run: Run) -> None:
    assert run("parse", "llvm -mcpux=a") == (
        1,
        "",
        "error: kind 'llvm' has no attribute 'mcpux'; did you mean 'mcpu'?\n  llvm -mcpux=a\n        ^^^^^\n",
    )


def test_error_legacy_reports_what_resolution_rejects(run: Run) -> None:
    # Spec 7.2: a CUDA arch must start with sm_; legacy resolves, so it is the one to say so.
    assert run("legacy", "cuda -arch=80") == (
        1,
        "",
        "error: CUDA target gets an invalid CUDA arch: -arch=80\n  cuda -arch=80\n             ^^\n",
    )
    assert run("fmt", "cuda -arch=80") == (0, "cuda -arch=80\n", "")


def test_error_legacy_of_a_composite_target(run: Run) -> None:
    # Spec 6.1: TVM v0.22's printer could not print a Target-valued attribute.
    status, out, err = run("legacy", "composite --host=llvm --devices=cuda,opencl")
    assert (status, out) == (1, "")
    assert err.startswith("error: ") and "devices" in err and "Traceback" not in err


def test_error_empty_spec(run: Run) -> None:
    status, out, err = run("fmt", "")
    assert (status, out) == (1, "")
    assert err.startswith("error: ")


def test_error_internal_is_one_line_not_a_traceback(run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(spec: str, *, registry: Any = None, era: str | None = None) -> targetlang.Target:
        raise RuntimeError("boom")

    monkeypatch.setattr(cli, "parse", broken)
    assert run("fmt", "llvm") == (1, "", "error: internal error (a bug in targetlang): RuntimeError: boom\n")


def test_keyboard_interrupt_exits_130_with_one_line(run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(spec: str, *, registry: Any = None, era: str | None = None) -> targetlang.Target:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "parse", interrupted)
    monkeypatch.setattr(checking, "parse", interrupted)
    stopped = "targetlang: stopped by Ctrl-C (SIGINT); no file was left half-written\n"
    assert run("legacy", "llvm") == (130, "", stopped)
    assert run("check") == (130, "", stopped)


# ------------------------------------------------------------------ standard input


def test_stdin_spec_loses_one_trailing_newline(run: Run) -> None:
    assert run("fmt", "-", stdin=b"llvm --mcpu skylake\n") == (0, "llvm -mcpu=skylake\n", "")
    assert run("legacy", "-", stdin=b"c\r\n") == (0, "c -keys=cpu \n", "")
    assert run("parse", "-", stdin=b"c") == (0, '{\n  "kind": "c"\n}\n', "")


def test_stdin_spec_loses_only_one_newline(run: Run) -> None:
    status, out, err = run("fmt", "-", stdin=b"c\n\n")
    assert (status, out) == (1, "")
    assert err.startswith("error: ")


def test_stdin_keeps_a_carriage_return_inside_a_spec(run: Run) -> None:
    # Read as bytes: universal newlines would have turned this '\r' into a line break.
    status, _, err = run("fmt", "-", stdin=b"llvm -mcpu=a\rb\n")
    assert (status, err) == (0, "")


def test_stdin_not_utf8(run: Run) -> None:
    assert run("fmt", "-", stdin=b"llvm -mcpu=\xff\n") == (
        1,
        "",
        "error: <stdin> is not UTF-8 text (invalid start byte at byte 11)\n",
    )


# ------------------------------------------------------------------ check


def sample_specs() -> list[str]:
    lines = SAMPLE.read_text(encoding="utf-8").split("\n")
    assert lines.pop() == ""  # the file ends in a newline
    return [line for line in lines if line and not line.startswith("#")]


def test_check_without_file_checks_the_bundled_sample(run: Run) -> None:
    n = len(sample_specs())
    assert n > 400
    assert run("check") == (0, summary(SAMPLE_NAME, n, n), "")


def test_sample_is_real_corpus_text_in_corpus_order() -> None:
    corpus = [r["text"] for r in read_jsonl("corpus", "strings.jsonl") if r["form"] in ("legacy-string", "tag", "json")]
    specs = sample_specs()
    assert len(set(specs)) == len(specs)
    assert all("\n" not in s and "\r" not in s for s in specs)
    order = {text: i for i, text in reversed(list(enumerate(corpus)))}  # first occurrence
    assert [order[s] for s in specs] == sorted(order[s] for s in specs)
    assert "llvm -keys=cpu " in specs  # trailing space and all
    assert SAMPLE.read_text(encoding="utf-8").startswith("# Real target strings")


TARGETS = b"# a comment, then a blank line\n\nllvm -mcpu=skylake\nllvm -mcpux=a\ncuda --host llvm\r\nllvm -keys=cpu \n"


def test_check_reports_file_and_line(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "targets.txt"
    path.write_bytes(TARGETS)
    assert run("check", str(path)) == (
        1,
        summary(str(path), 4, 3, failed="1 failed (1 UnknownAttributeError)"),
        f"{path}:4: UnknownAttributeError: kind 'llvm' has no attribute 'mcpux'; did you mean 'mcpu'?\n"
        "  llvm -mcpux=a\n"
        "        ^^^^^\n",
    )


def test_check_reads_stdin(run: Run) -> None:
    assert run("check", "-", stdin=b"c\nllvm --mcpu skylake\n") == (0, summary("<stdin>", 2, 2), "")
    status, out, err = run("check", "-", stdin=TARGETS)
    assert status == 1 and err.startswith("<stdin>:4: UnknownAttributeError: ")
    assert out == summary("<stdin>", 4, 3, failed="1 failed (1 UnknownAttributeError)")


def test_check_resolution_failure(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "t.txt"
    path.write_text("cuda -arch=80\n")
    assert run("check", str(path)) == (
        1,
        summary(str(path), 1, 1, resolved=0, failed="1 failed (1 CanonicalizationError)"),
        f"{path}:1: resolve: CanonicalizationError: CUDA target gets an invalid CUDA arch: -arch=80\n"
        "  cuda -arch=80\n"
        "             ^^\n",
    )


def test_check_json_records(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "targets.txt"
    path.write_bytes(TARGETS + b"cuda -arch=80\n")
    status, out, err = run("check", "--json", str(path))
    assert (status, err) == (1, "")
    assert [json.loads(line) for line in out.splitlines()] == [
        {
            "record": "failure",
            "file": str(path),
            "line": 4,
            "check": "parse",
            "error": "UnknownAttributeError",
            "message": "kind 'llvm' has no attribute 'mcpux'; did you mean 'mcpu'?",
            "span": [6, 11],
            "spec": "llvm -mcpux=a",
        },
        {
            "record": "failure",
            "file": str(path),
            "line": 7,
            "check": "resolve",
            "error": "CanonicalizationError",
            "message": "CUDA target gets an invalid CUDA arch: -arch=80",
            "span": [11, 13],
            "spec": "cuda -arch=80",
        },
        {
            "record": "summary",
            "file": str(path),
            "checked": 5,
            "parsed": 4,
            "exact_round_trips": 4,
            "canonical_round_trips": 4,
            "resolved": 3,
            "failed": 2,
            "errors": {"CanonicalizationError": 1, "UnknownAttributeError": 1},
        },
    ]


def test_check_json_clean_file_prints_only_the_summary(run: Run) -> None:
    status, out, err = run("check", "--json", "-", stdin=b"llvm\n")
    assert (status, err) == (0, "")
    assert json.loads(out)["record"] == "summary" and out.count("\n") == 1


def test_check_reports_comparisons_that_fail(run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    # The real parser passes both comparisons on every real target, so a wrong one stands in:
    # it drops outer spaces (str() no longer gives the line back) and misreads a canonical form.
    def wrong(spec: str, *, registry: Any = None, era: str | None = None) -> targetlang.Target:
        if spec == "cuda -host=llvm":
            return targetlang.parse("cuda")
        return targetlang.parse(spec.strip(), registry=registry)

    monkeypatch.setattr(checking, "parse", wrong)
    status, out, err = run("check", "-", stdin=b"llvm -keys=cpu \ncuda --host llvm\n")
    assert status == 1
    assert err == (
        "<stdin>:1: round-trip: RoundTripMismatch: str() gives 'llvm -keys=cpu', not the text as written\n"
        "<stdin>:2: canonical: CanonicalMismatch: the canonical form 'cuda -host=llvm' reads back as a different"
        " target\n"
    )
    assert out == (
        "checked 2 targets in <stdin>: 2 parsed, 1 round-trip exactly, 1 read back from canonical form,"
        " 2 resolve; 2 failed (1 CanonicalMismatch, 1 RoundTripMismatch)\n"
    )


def test_check_goes_on_after_an_internal_error(run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    real = targetlang.parse

    def flaky(spec: str, *, registry: Any = None, era: str | None = None) -> targetlang.Target:
        if spec == "c":
            raise IndexError("oops")
        return real(spec, registry=registry)

    monkeypatch.setattr(checking, "parse", flaky)
    status, out, err = run("check", "-", stdin=b"c\nllvm\n")
    assert status == 1
    assert err == "<stdin>:1: IndexError: internal error (a bug in targetlang): IndexError: oops\n"
    assert out == (
        "checked 2 targets in <stdin>: 1 parsed, 1 round-trip exactly, 1 read back from canonical form,"
        " 1 resolve; 1 failed (1 IndexError)\n"
    )


def test_check_unreadable_files(run: Run, tmp_path: Path) -> None:
    missing = tmp_path / "missing.txt"
    assert run("check", str(missing)) == (1, "", f"error: cannot read {missing}: No such file or directory\n")
    assert run("check", str(tmp_path)) == (1, "", f"error: cannot read {tmp_path}: Is a directory\n")
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"llvm\n\x80\n")
    assert run("check", str(binary)) == (1, "", f"error: {binary} is not UTF-8 text (invalid start byte at byte 5)\n")


def test_a_gzip_stream_on_standard_input_is_said_to_be_one(run: Run) -> None:
    for command in (("explain", "-"), ("fmt", "-"), ("check", "-")):
        status, out, err = run(*command, stdin=gzip.compress(b"llvm\n"))
        assert (status, out) == (1, ""), command
        assert err.startswith("error: <stdin> is gzip-compressed, not text: decompress it first"), command


@pytest.mark.parametrize("command", [("check",), ("parse", "--lines"), ("migrate", "--lines")])
def test_a_gzip_file_is_said_to_be_one(run: Run, tmp_path: Path, command: tuple[str, ...]) -> None:
    log = tmp_path / "x.log.gz"
    log.write_bytes(gzip.compress(b"llvm -mcpu=skylake\n"))
    assert run(*command, str(log)) == (
        1,
        "",
        f"error: {log} is gzip-compressed, not text: decompress it first (zcat FILE | targetlang ... -), "
        "or, for a tuning log, use 'targetlang logs', which reads .gz\n",
    )


def test_check_empty_file(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "empty.txt"
    path.write_text("# nothing here\n\n")
    assert run("check", str(path)) == (0, summary(str(path), 0, 0), "")


# ------------------------------------------------------------------ usage, version, help


@pytest.mark.parametrize(
    "argv",
    [[], ["fmt"], ["fmt", "--jsonx", "c"], ["frobnicate", "llvm"], ["check", "--bogus"], ["fmt", "--jso", "c"]],
)
def test_usage_errors_exit_2(run: Run, argv: list[str]) -> None:
    status, out, err = run(*argv)
    assert (status, out) == (2, "")
    assert err.startswith("usage: targetlang") and "Traceback" not in err


def test_version(run: Run) -> None:
    assert run("--version") == (0, f"targetlang {targetlang.__version__}\n", "")


def console_lines(page: Path) -> list[str]:
    """The lines of the ``console`` blocks of a Markdown page, in order."""
    lines: list[str] = []
    inside = False
    for line in page.read_text(encoding="utf-8").split("\n"):
        if line.startswith("```"):
            inside = line == "```console"
        elif inside:
            lines.append(line)
    return lines


def help_examples(out: str) -> list[str]:
    """The lines of the examples that end a command's ``--help``, unindented."""
    return [line[2:] for line in out[out.index("\nexamples:\n") :].split("\n") if line.startswith("  ")]


def transcript(lines: list[str]) -> list[tuple[str, list[str]]]:
    """``(command, expected output lines)`` for each ``$ `` line of a shell transcript."""
    steps: list[tuple[str, list[str]]] = []
    for line in lines:
        if line.startswith("$ "):
            steps.append((line[2:], []))
        elif steps:
            steps[-1][1].append(line)
    return steps


def replay(
    steps: list[tuple[str, list[str]]],
    run: Run,
    where: str,
    pages: Sequence[Path] = (),
    stdout_first: bool = False,
) -> None:
    """Run a transcript: ``cat FILE`` writes the lines shown, ``echo TEXT | targetlang ...`` feeds
    stdin, ``echo $?`` checks the last status; every targetlang command must print what is shown
    (stderr, then stdout, as a terminal shows a run that reports problems and then a summary; or
    ``stdout_first``). A transcript of ``pages`` is written anew in each of them under
    ``--refresh-docs`` (tests/doc_refresh.py)."""
    status = 0
    assert steps, f"no examples in {where}"
    for command, expected in steps:
        words = shlex.split(command)
        if words[0] == "cat":
            assert len(words) == 2, f"{where}: cannot replay {command!r}"
            Path(words[1]).parent.mkdir(parents=True, exist_ok=True)
            Path(words[1]).write_text("".join(line + "\n" for line in expected), encoding="utf-8")
            continue
        if words == ["echo", "$?"]:
            assert expected == [str(status)], f"{where}: {command}"
            continue
        stdin = None
        if "|" in words:
            bar = words.index("|")
            assert words[0] == "echo" and bar == 2, f"{where}: cannot replay {command!r}"
            stdin, words = (words[1] + "\n").encode(), words[bar + 1 :]
        assert words[0] == "targetlang", f"{where}: cannot replay {command!r}"
        status, out, err = run(*words[1:], stdin=stdin)
        printed = (out + err if stdout_first else err + out).split("\n")[:-1]
        if not pages:
            assert printed == expected, f"{where}: {command}"
        for page in pages:
            shown(page, session_text(command, expected), session_text(command, printed), f"{where}: {command}")


def session_text(command: str, lines: list[str]) -> str:
    """A command of a transcript and the lines it printed, as a page shows them."""
    return "".join(f"{line}\n" for line in [f"$ {command}", *lines])


@pytest.mark.parametrize("command", [None, "parse", "fmt", "legacy", "check", "migrate"])
def test_help_examples_are_real(run: Run, command: str | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, err = run(*([command] if command else []), "--help")
    assert (status, err) == (0, "")
    steps = transcript(help_examples(out))
    assert 2 <= sum(c.startswith(("targetlang", "echo")) for c, _ in steps) <= 3
    monkeypatch.chdir(tmp_path)
    replay(steps, run, f"help of {command or 'targetlang'}")


def test_docs_examples_are_real(run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert DOCS.is_file(), "docs/cli.md is not beside the tests"
    monkeypatch.chdir(tmp_path)
    replay(transcript(console_lines(DOCS)), run, "docs/cli.md", [DOCS])


# ------------------------------------------------------------------ as a program


def run_module(*args: str, stdin: str | None = None, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "targetlang", *args], input=stdin, cwd=cwd, capture_output=True, text=True, timeout=120
    )


def test_program_error_exit_1_without_traceback(tmp_path: Path) -> None:
    result = run_module("parse", "llvm -mcpux=a", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (
        "error: kind 'llvm' has no attribute 'mcpux'; did you mean 'mcpu'?\n  llvm -mcpux=a\n        ^^^^^\n"
    )


def test_program_statuses(tmp_path: Path) -> None:
    usage = run_module(cwd=tmp_path)
    assert usage.returncode == 2 and usage.stderr.startswith("usage: targetlang") and "Traceback" not in usage.stderr
    legacy = run_module("legacy", "-", stdin="c\n", cwd=tmp_path)
    assert (legacy.returncode, legacy.stdout, legacy.stderr) == (0, "c -keys=cpu \n", "")
    check = run_module("check", cwd=tmp_path)
    assert (check.returncode, check.stderr) == (0, "")
    assert check.stdout.startswith(f"checked {len(sample_specs())} targets in {SAMPLE_NAME}: ")
    missing = run_module("check", "missing.txt", cwd=tmp_path)
    assert (missing.returncode, missing.stderr) == (1, "error: cannot read missing.txt: No such file or directory\n")


def test_program_closed_pipe_is_quiet(tmp_path: Path) -> None:
    # Far more output than a pipe holds, into a pipe whose reader has gone (`targetlang check | head`).
    path = tmp_path / "bad.txt"
    path.write_text("llvm -mcpux=a\n" * 5000)
    with subprocess.Popen(
        [sys.executable, "-m", "targetlang", "check", "--json", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as process:
        assert process.stdout is not None and process.stderr is not None
        process.stdout.close()
        err = process.stderr.read()
        status = process.wait(timeout=120)
    assert (status, err) == (1, b"")


def test_registry_option_reads_user_kinds_and_tags(run: Run) -> None:
    examples = Path(__file__).resolve().parents[1] / "docs" / "examples"
    registry = str(examples / "composite-registry.toml")
    status, out, err = run("--registry", registry, "fmt", "{kind: my-accelerator, cores: 8}")
    assert (status, out, err) == (0, "my-accelerator -cores=8\n", "")
    status, out, _ = run("--registry", registry, "fmt", "--jsonish", "example/x86-cuda-vulkan")
    assert status == 0 and out.startswith("{\n  kind: system,\n  host: {\n    kind: llvm,\n")
    status, _, err = run("fmt", "{kind: my-accelerator}")
    assert status == 1 and "unknown target kind 'my-accelerator'" in err


def test_registry_option_for_migrate(run: Run) -> None:
    # TVM 0.27 knows no user kind: reported as an error, or kept with a warning; the kind's own
    # attributes (a composite's executor and runtime) are not TVM's removed ones.
    registry = str(Path(__file__).resolve().parents[1] / "docs" / "examples" / "composite-registry.toml")
    status, out, err = run("--registry", registry, "migrate", "{kind: my-accelerator, cores: 8}")
    assert (status, out) == (1, "")
    assert err.splitlines() == [
        f"error: unknown-attribute: kind 'my-accelerator': a kind or attribute TVM {NEWEST} does not know",
        "  {kind: my-accelerator, cores: 8}",
        "   ^^^^^^^^^^^^^^^^^^^^",
    ]
    status, out, err = run("--registry", registry, "migrate", "--policy", "keep", "example/x86-cuda-vulkan")
    assert status == 0
    assert err == f"warning: unknown-attribute: kind 'system': a kind or attribute TVM {NEWEST} does not know\n"
    migrated = json.loads(out)
    assert (migrated["kind"], migrated["executor"], migrated["runtime"]) == ("system", "vm", "cpp")
    # Legacy strings still read with every release's attributes beside the user's kinds.
    status, out, _ = run("--registry", registry, "migrate", "--policy", "drop", "llvm -system-lib")
    assert (status, json.loads(out)) == (0, {"kind": "llvm"})


def test_registry_option_with_a_bad_file(run: Run, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"kinds": {"npu": {"attrs": {"cores": "integer"}}}}', encoding="utf-8")
    status, out, err = run("--registry", str(bad), "fmt", "llvm")
    assert status == 1 and out == ""
    assert err == f"error: {bad}: kind 'npu', attribute 'cores': unknown attribute type 'integer'\n"


# ------------------------------------------------------------------ migrate


def test_migrate_prints_json_on_stdout_and_changes_on_stderr(run: Run) -> None:
    status, out, err = run("migrate", "llvm -libs=mkldnn -mcpu=skylake")
    assert status == 0
    assert json.loads(out) == {"kind": "llvm", "libs": ["dnnl"], "mcpu": "skylake"}
    assert err.split("\n") == [
        "info: mkldnn-to-dnnl: libs: mkldnn renamed to dnnl",
        "  llvm -libs=mkldnn -mcpu=skylake",
        "       ^^^^^^^^^^^^",
        "",
    ]


def test_migrate_stops_at_a_removed_attribute_unless_the_policy_says_otherwise(run: Run) -> None:
    status, out, err = run("migrate", "llvm -link-params=1")
    assert (status, out) == (1, "")
    assert err.startswith("error: removed-attribute: attribute 'link-params' cannot migrate: moved to the executor")
    status, out, err = run("migrate", "--policy", "keep", "llvm -link-params=1")
    assert status == 0
    assert json.loads(out) == {"kind": "llvm", "link-params": True}
    assert err.startswith("warning: removed-attribute: attribute 'link-params' kept")


def test_migrate_reads_in_the_era_of_a_tvm_version(run: Run) -> None:
    # TVM v0.8 removed the quotes when it split the string; v0.22 keeps them inside a value.
    status, out, _ = run("migrate", "--tvm-version", "0.8.0", "llvm -model='a b'")
    assert (status, json.loads(out)) == (0, {"kind": "llvm", "model": "a b"})
    status, out, _ = run("migrate", "--era", "0.8", "llvm -model='a b'")
    assert (status, json.loads(out)) == (0, {"kind": "llvm", "model": "a b"})


def test_migrate_folds_a_separate_host_and_reads_stdin(run: Run) -> None:
    status, out, err = run("migrate", "--host", "llvm -mtriple=aarch64-linux-gnu", "-", stdin=b"cuda -arch=sm_72\n")
    assert status == 0
    assert json.loads(out) == {
        "kind": "cuda",
        "arch": "sm_72",
        "host": {"kind": "llvm", "mtriple": "aarch64-linux-gnu"},
    }
    assert err.startswith("info: separate-host: ")


def test_error_migrate_unreadable_spec(run: Run) -> None:
    status, out, err = run("migrate", "llvm -mcpu='x")
    assert (status, out) == (1, "")
    assert err == "error: mismatched quote: this quote is never closed\n  llvm -mcpu='x\n             ^\n"


@pytest.mark.parametrize(
    "argv",
    [
        ["migrate", "--era", "0.5", "llvm"],
        ["migrate", "--tvm-version", "banana", "llvm"],
        ["migrate", "--era", "0.8", "--tvm-version", "0.8.0", "llvm"],
        ["migrate", "--policy", "ignore", "llvm"],
    ],
)
def test_migrate_usage_errors_exit_2(run: Run, argv: list[str]) -> None:
    status, out, err = run(*argv)
    assert (status, out) == (2, "")
    assert err


# (command, release, spec, status, what stdout or stderr holds): --tvm-version reads as that release
TVM_VERSION_ROWS = [
    ("parse", "0.20", "llvm -vector-width=256", 0, '"vector-width": 256'),
    ("parse", "0.19", "llvm -vector-width=256", 1, "'vector-width' until TVM v0.20 added it"),
    ("fmt", "0.8.0", "llvm -model='a b'", 0, "llvm -model='a b'"),
    ("legacy", "0.19", "opencl", 0, "opencl -keys=opencl,gpu -max_function_args=128"),
    ("legacy", "0.20", "opencl", 0, "-image_base_address_alignment=64"),
    ("parse", "0.19", "sdaccel", 0, '"kind": "sdaccel"'),
    ("parse", "0.22", "sdaccel", 1, "unknown target kind 'sdaccel'"),
    ("parse", "0.9", "llvm -link-params=1", 0, '"link-params": true'),
    ("parse", "0.7", "nvidia/jetson-nano", 1, "unknown target kind 'nvidia/jetson-nano'"),
    ("migrate", "0.19", "llvm -vector-width=256", 1, "'vector-width' until TVM v0.20 added it"),
    ("migrate", "0.20", "llvm -vector-width=256", 0, '"vector-width": 256'),
]


@pytest.mark.parametrize(("command", "version", "spec", "status", "said"), TVM_VERSION_ROWS)
def test_tvm_version_reads_as_that_release(
    run: Run, command: str, version: str, spec: str, status: int, said: str
) -> None:
    got, out, err = run(command, "--tvm-version", version, spec)
    assert got == status
    assert said in (out if status == 0 else err)


def test_check_takes_a_tvm_version(run: Run) -> None:
    status, _out, err = run("check", "--tvm-version", "0.19", "-", stdin=b"llvm -vector-width=256\nsdaccel\n")
    assert status == 1
    assert "<stdin>:1: UnknownAttributeError" in err and "<stdin>:2" not in err
    status, _out, err = run("check", "-", stdin=b"sdaccel\n")
    assert status == 1 and "UnknownKindError" in err


def test_tvm_version_must_be_one_targetlang_knows(run: Run) -> None:
    for command in ("parse", "fmt", "legacy", "check", "migrate"):
        status, out, err = run(command, "--tvm-version", "0.99", "llvm")
        assert (status, out) == (2, "")
        assert "unknown TVM version '0.99'" in err


# ------------------------------------------------------------------ a spec in words, batches, options

_LINES = b"llvm -mcpu=skylake\ncuda -arch=sm_80\n# a comment\nllvm -mcpux=1\n"
_MCPUX = "kind 'llvm' has no attribute 'mcpux'; did you mean 'mcpu'?"
_MIGRATED = '{\n  "kind": "llvm",\n  "mtriple": "x86_64-linux-gnu"\n}\n'

# (argv, stdin, status, stdout, stderr): each written out by hand from what the command must print
CLI_CASES: list[tuple[list[str], bytes | None, int, str, str]] = [
    # the words after the command are the spec, joined; a '--' before them is dropped
    (["fmt", "llvm", "-mcpu=skylake", "-mattr=+avx2"], None, 0, "llvm -mattr=+avx2 -mcpu=skylake\n", ""),
    (["fmt", "--", "llvm", "-mcpu=skylake"], None, 0, "llvm -mcpu=skylake\n", ""),
    (["fmt", "--jsonish", "--", "llvm"], None, 0, "{\n  kind: llvm\n}\n", ""),
    (
        ["legacy", "cuda", "-arch=sm_80"],
        None,
        0,
        "cuda -keys=cuda,gpu -arch=sm_80 -max_num_threads=1024 -thread_warp_size=32\n",
        "",
    ),
    # one spec per line, one result per line, errors with their line numbers
    (
        ["fmt", "--lines"],
        _LINES,
        1,
        "llvm -mcpu=skylake\ncuda -arch=sm_80\n",
        f"<stdin>:4: error: {_MCPUX}\n  llvm -mcpux=1\n        ^^^^^\n",
    ),
    (
        ["parse", "--lines", "-"],
        b"llvm -mcpu=skylake\ncuda -host=llvm\n",
        0,
        '{"kind": "llvm", "mcpu": "skylake"}\n{"kind": "cuda", "host": {"kind": "llvm"}}\n',
        "",
    ),
    (
        ["legacy", "--lines", "--json"],
        b"c\nqqq\n",
        1,
        '{"line": 1, "spec": "c", "output": "c -keys=cpu "}\n'
        '{"line": 2, "spec": "qqq", "error": {"type": "UnknownKindError", '
        '"message": "unknown target kind \'qqq\'", "start": 0, "end": 3}}\n',
        "",
    ),
    (
        ["migrate", "--lines"],
        b"llvm -target=x86_64-linux-gnu\n",
        0,
        '{"kind": "llvm", "mtriple": "x86_64-linux-gnu"}\n',
        "<stdin>:1: info: target-to-mtriple: -target renamed to -mtriple\n"
        "  llvm -target=x86_64-linux-gnu\n        ^^^^^^\n",
    ),
    # migrate's machine-readable report
    (
        ["migrate", "--json", "llvm", "-target=x86_64-linux-gnu"],
        None,
        0,
        '{"spec": "llvm -target=x86_64-linux-gnu", "json": {"kind": "llvm", "mtriple": "x86_64-linux-gnu"}, '
        '"changes": [{"rule": "target-to-mtriple", "severity": "info", '
        '"message": "-target renamed to -mtriple", "span": [6, 12]}]}\n',
        "",
    ),
    # --quiet drops the notes, before or after the command
    (
        ["-q", "migrate", "llvm -target=x86_64-linux-gnu"],
        None,
        0,
        '{\n  "kind": "llvm",\n  "mtriple": "x86_64-linux-gnu"\n}\n',
        "",
    ),
    (
        ["migrate", "-q", "llvm -target=x86_64-linux-gnu"],
        None,
        0,
        '{\n  "kind": "llvm",\n  "mtriple": "x86_64-linux-gnu"\n}\n',
        "",
    ),
    # no abbreviations: --json is --json, and --jso is an error
    (["fmt", "--json", "llvm"], None, 0, '{"spec": "llvm", "output": "llvm"}\n', ""),
    # messages that say what to write
    (
        ["parse", "cpu"],
        None,
        1,
        "",
        "error: unknown target kind 'cpu': 'cpu' is a dispatch key of kind 'llvm'; "
        "did you mean 'llvm -keys=cpu'?\n  cpu\n  ^^^\n",
    ),
    (
        ["fmt", '{"kind": "cuda", "target_host": "llvm"}'],
        None,
        1,
        "",
        "error: kind 'cuda' has no attribute 'target_host': TVM's separate target_host argument became the "
        "target's own 'host' (-host=... in a string, \"host\" in JSON)\n"
        '  {"kind": "cuda", "target_host": "llvm"}\n                   ^^^^^^^^^^^^^\n',
    ),
]


@pytest.mark.parametrize(("argv", "stdin", "status", "out", "err"), CLI_CASES, ids=lambda v: repr(v)[:40])
def test_command_lines(run: Run, argv: list[str], stdin: bytes | None, status: int, out: str, err: str) -> None:
    assert run(*argv, stdin=stdin) == (status, out, err)


def test_registry_and_quiet_after_the_command(run: Run, tmp_path: Path) -> None:
    registry = tmp_path / "registry.json"
    registry.write_text('{"tags": {"my/board": {"kind": "llvm", "mcpu": "cortex-a53"}}}')
    expected = (0, "llvm -mcpu=cortex-a53\n", "")
    assert run("--registry", str(registry), "legacy", "my/board")[0] == 0
    assert run("fmt", "--registry", str(registry), "my/board") == run("--registry", str(registry), "fmt", "my/board")
    assert run("fmt", "--registry", str(registry), "my/board") == expected


@pytest.mark.parametrize(
    ("redirect", "message"),
    [
        (">&-", "error: cannot write the output: standard output is closed\n"),
        ("> /dev/full", "error: cannot write the output: No space left on device\n"),
    ],
)
def test_output_that_cannot_be_written_is_an_error_not_a_bug(redirect: str, message: str) -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full on this system")
    command = f'"{sys.executable}" -m targetlang fmt llvm {redirect}'
    done = subprocess.run(command, shell=True, capture_output=True, text=True, check=False)
    assert (done.returncode, done.stderr) == (1, message)


def test_the_help_shown_in_the_docs_is_the_real_help(run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")  # argparse wraps at the terminal's width
    text = DOCS.read_text(encoding="utf-8")
    help_text = text.split("## Help", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    status, out, err = run("--help")
    assert (status, err) == (0, "")
    shown(DOCS, help_text, out, "docs/cli.md: ## Help")


def test_jsonish_text_is_several_lines_and_cannot_go_with_lines(run: Run) -> None:
    status, out, err = run("fmt", "--lines", "--jsonish", stdin=b"llvm -mcpu=x\n")
    assert (status, out) == (2, "")
    assert err.endswith(
        "targetlang fmt: error: --jsonish prints a target on several lines: it cannot go with --lines\n"
    )
