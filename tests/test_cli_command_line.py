"""The command line's rough edges: batches that keep going, specs the shell split, options out of
place, strings given to a release that read none, diff's exit status, help that cannot be written,
the usage lines, and the name of the bundled sample. Every expected output is written by hand."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import Run

# ------------------------------------------------------------------ batches and JSON that keep going

_TWO = b"lvm -mcpu=x\nllvm -mcpu=skylake\n"
_LVM = "unknown target kind 'lvm'; did you mean 'llvm'?"
_LVM_SHOWN = f"{_LVM}\n  lvm -mcpu=x\n  ^^^\n"
_LVM_RECORD = {"type": "UnknownKindError", "message": _LVM, "start": 0, "end": 3}


@pytest.mark.parametrize(
    ("command", "second"),
    [
        ("parse", '{"kind": "llvm", "mcpu": "skylake"}'),
        ("fmt", "llvm -mcpu=skylake"),
        ("legacy", "llvm -keys=cpu -mcpu=skylake"),
        ("migrate", '{"kind": "llvm", "mcpu": "skylake"}'),
    ],
)
def test_lines_report_a_spec_that_does_not_read_in_place_and_go_on(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str, second: str
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("s.txt").write_bytes(_TWO)
    assert run(command, "--lines", "s.txt") == (1, second + "\n", "s.txt:1: error: " + _LVM_SHOWN)


@pytest.mark.parametrize(
    ("command", "second"),
    [
        ("parse", {"output": {"kind": "llvm", "mcpu": "skylake"}}),
        ("fmt", {"output": "llvm -mcpu=skylake"}),
        ("legacy", {"output": "llvm -keys=cpu -mcpu=skylake"}),
        ("migrate", {"json": {"kind": "llvm", "mcpu": "skylake"}, "changes": []}),
    ],
)
def test_json_lines_give_one_record_per_line_errors_included(run: Run, command: str, second: dict[str, object]) -> None:
    status, out, err = run(command, "--lines", "--json", stdin=_TWO)
    assert (status, err) == (1, "")
    assert [json.loads(line) for line in out.splitlines()] == [
        {"line": 1, "spec": "lvm -mcpu=x", "error": _LVM_RECORD},
        {"line": 2, "spec": "llvm -mcpu=skylake", **second},
    ]


@pytest.mark.parametrize(
    ("argv", "record"),
    [
        (["parse", "--json", "lvm -mcpu=x"], {"spec": "lvm -mcpu=x", "error": _LVM_RECORD}),
        (["migrate", "--json", "lvm -mcpu=x"], {"spec": "lvm -mcpu=x", "error": _LVM_RECORD}),
        (["explain", "--json", "lvm -mcpu=x"], {"spec": "lvm -mcpu=x", "error": _LVM_RECORD}),
        (
            ["diff", "--json", "llvm", "lvm"],
            {
                "a": "llvm",
                "b": "lvm",
                "error": {"type": "UnknownKindError", "message": _LVM, "start": 0, "end": 3},
            },
        ),
    ],
)
def test_json_of_a_spec_that_does_not_read_is_an_error_record(run: Run, argv: list[str], record: object) -> None:
    status, out, err = run(*argv)
    assert (status, err, json.loads(out)) == (2 if argv[0] == "diff" else 1, "", record)


# ------------------------------------------------------------------ the spec's words


_HOST_SPLIT = (
    'SPEC is in 3 words and "-host=llvm -mcpu=skylake" holds a space: the shell removed the quotes around it, '
    "and the words joined would read as another target; quote the whole spec:\n"
)


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        # targetlang parse cuda -host='llvm -mcpu=skylake' -libs=cudnn, as the shell passes it
        (
            ["parse", "cuda", "-host=llvm -mcpu=skylake", "-libs=cudnn"],
            "targetlang parse: error: "
            + _HOST_SPLIT
            + "  targetlang parse \"cuda -host='llvm -mcpu=skylake' -libs=cudnn\"\n",
        ),
        (
            ["fmt", "--tvm-version", "0.19", "--", "cuda", "-host=llvm -mcpu=skylake", "-libs=cudnn"],
            "targetlang fmt: error: "
            + _HOST_SPLIT
            + "  targetlang fmt --tvm-version 0.19 \"cuda -host='llvm -mcpu=skylake' -libs=cudnn\"\n",
        ),
        (
            ["legacy", "cuda", "--host", "llvm -mcpu=skylake"],
            'targetlang legacy: error: SPEC is in 3 words and "llvm -mcpu=skylake" holds a space: the shell removed '
            "the quotes around it, and the words joined would read as another target; quote the whole spec:\n"
            "  targetlang legacy \"cuda --host 'llvm -mcpu=skylake'\"\n",
        ),
        (
            ["explain", "vulkan", "-device_name=GPU one"],
            'targetlang explain: error: SPEC is in 2 words and "-device_name=GPU one" holds a space: the shell '
            "removed the quotes around it, and the words joined would read as another target; quote the whole "
            "spec:\n  targetlang explain \"vulkan -device_name='GPU one'\"\n",
        ),
        (
            # a value whose quote is escaped (the shell passed "-device_name=it\\'s one"): no quoting can hold it
            ["migrate", "vulkan", "-device_name=it\\'s one"],
            "targetlang migrate: error: SPEC is in 2 words and '-device_name=it\\'\"'\"'s one' holds a space: the "
            "shell removed the quotes around it, and the words joined would read as another target; give the whole "
            "spec as one quoted word, or '-' to read it from standard input\n",
        ),
    ],
)
def test_a_spec_the_shell_split_inside_a_quoted_value_is_refused(run: Run, argv: list[str], said: str) -> None:
    status, out, err = run(*argv)
    assert (status, out) == (2, "")
    assert err.startswith(f"usage: targetlang {argv[0]} ")
    assert err.endswith(said)


@pytest.mark.parametrize(
    ("argv", "out"),
    [
        # one word, quoted as a whole: nothing was split
        (["fmt", "cuda -host='llvm -mcpu=skylake' -libs=cudnn"], "cuda -host='llvm -mcpu=skylake' -libs=cudnn\n"),
        # words without spaces join as they were typed
        (["fmt", "cuda", "-host=llvm", "-libs=cudnn"], "cuda -host=llvm -libs=cudnn\n"),
        (["fmt", "cuda", "-host='llvm", "-mcpu=skylake'"], "cuda -host='llvm -mcpu=skylake'\n"),
        # spaces the target language keeps in the word: inside its single quotes, escaped, or not a space
        (["fmt", "vulkan", "-device_name='GPU one'"], "vulkan -device_name='GPU one'\n"),
        (["fmt", "vulkan", "-device_name=GPU\\ one"], "vulkan -device_name='GPU one'\n"),
        (["fmt", "llvm", "-mcpu=a\tb"], "llvm -mcpu=a\tb\n"),
        # the first word quoted whole and more words after it: joined as typed
        (["fmt", "llvm -mcpu=x", "-mattr=+a"], "llvm -mattr=+a -mcpu=x\n"),
        # JSON text in several words
        (["fmt", '{"kind": "llvm",', '"mcpu": "x"}'], "llvm -mcpu=x\n"),
    ],
)
def test_specs_the_shell_did_not_split_read(run: Run, argv: list[str], out: str) -> None:
    assert run(*argv) == (0, out, "")


def _options_go_first(option: str, line: str) -> str:
    return (
        f"error: {option} is an option of this command, not of the target: targetlang's own options go before "
        f"SPEC (every word from SPEC on is the spec's):\n  {line}\n"
    )


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (
            ["fmt", "llvm", "-mcpu=skylake", "--json"],
            _options_go_first("--json", "targetlang fmt --json llvm -mcpu=skylake"),
        ),
        (
            ["legacy", "llvm", "--tvm-version", "0.19", "-mcpu=skylake"],
            _options_go_first("--tvm-version", "targetlang legacy --tvm-version 0.19 llvm -mcpu=skylake"),
        ),
        (
            ["parse", "--json", "llvm", "--tvm-version=0.19"],
            _options_go_first("--tvm-version", "targetlang parse --json --tvm-version=0.19 llvm"),
        ),
        (["migrate", "llvm", "-q"], _options_go_first("-q", "targetlang migrate -q llvm")),
        (["explain", "llvm", "--json"], _options_go_first("--json", "targetlang explain --json llvm")),
        # a spec quoted as one word, then an option: the option is what is out of place
        (
            ["fmt", '{"kind": "llvm"}', "--json"],
            _options_go_first("--json", """targetlang fmt --json '{"kind": "llvm"}'"""),
        ),
    ],
)
def test_an_option_after_the_spec_is_named_and_sent_before_it(run: Run, argv: list[str], said: str) -> None:
    status, out, err = run(*argv)
    assert (status, out) == (2, "")
    assert err.startswith(f"usage: targetlang {argv[0]} ")
    assert err.endswith(f"targetlang {argv[0]}: {said}")


@pytest.mark.parametrize(
    ("argv", "status", "out", "err"),
    [
        # an option of migrate's that is a target's option too: the spec's, as it reads
        (
            ["migrate", "cuda", "--host", "llvm"],
            0,
            '{\n  "kind": "cuda",\n  "host": {\n    "kind": "llvm"\n  }\n}\n',
            "",
        ),
        # after '--' every word is the spec's: the target has no such attribute
        (
            ["fmt", "--", "llvm", "--json"],
            1,
            "",
            "error: kind 'llvm' has no attribute 'json'\n  llvm --json\n         ^^^^\n",
        ),
        # an error elsewhere in the spec is the spec's
        (
            ["migrate", "cuda", "--host", "llvm", "-mcpux=1"],
            1,
            "",
            "error: kind 'cuda' has no attribute 'mcpux'; did you mean 'mcpu'?\n"
            "  cuda --host llvm -mcpux=1\n"
            "                    ^^^^^\n",
        ),
    ],
)
def test_an_option_word_that_is_the_specs_is_read(run: Run, argv: list[str], status: int, out: str, err: str) -> None:
    assert run(*argv) == (status, out, err)


def test_lines_takes_one_file_not_more_words(run: Run) -> None:
    status, out, err = run("fmt", "--lines", "s.txt", "--json")
    assert (status, out) == (2, "")
    assert err.endswith(
        "targetlang fmt: error: --lines reads the specs of one FILE, not 2 words; targetlang's own options go "
        "before it\n"
    )


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (
            ["--jsonish"],
            "--jsonish is an option of a command, not of targetlang: it goes after the command, as in "
            "'targetlang fmt --jsonish ...'",
        ),
        (
            ["--json", "parse", "llvm"],
            "--json is an option of a command, not of targetlang: it goes after the "
            "command, as in 'targetlang parse --json llvm'",
        ),
        (
            ["-q", "--jsonish", "fmt", "llvm"],
            "--jsonish is an option of a command, not of targetlang: it goes after "
            "the command, as in 'targetlang -q fmt --jsonish llvm'",
        ),
        # an option no command has
        (["--bogus"], "unrecognized arguments: --bogus"),
        (["--bogus", "fmt", "llvm"], "unrecognized arguments: --bogus"),
        (
            # an option's value goes with it
            ["--tvm-version", "0.19", "fmt", "llvm"],
            "--tvm-version is an option of a command, not of targetlang: it goes after the "
            "command, as in 'targetlang fmt --tvm-version 0.19 llvm'",
        ),
        (
            ["--policy", "drop", "migrate", "llvm"],
            "--policy is an option of a command, not of targetlang: it goes after the "
            "command, as in 'targetlang migrate --policy drop llvm'",
        ),
        (
            ["--registry", "r.json", "--lines"],
            "--lines is an option of a command, not of targetlang: it goes after "
            "the command, as in 'targetlang COMMAND --lines ...' (COMMAND: parse, fmt, legacy, migrate)",
        ),
    ],
)
def test_a_commands_option_before_the_command_says_where_it_goes(run: Run, argv: list[str], said: str) -> None:
    assert run(*argv) == (
        2,
        "",
        f"usage: targetlang [-h] [--version] [--registry FILE] [-q] COMMAND ...\ntargetlang: error: {said}\n",
    )


@pytest.mark.parametrize("command", ["parse", "fmt", "legacy", "migrate", "explain"])
def test_usage_names_the_spec(run: Run, command: str, monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, err = run(command, "--help")
    usage = " ".join(out.split("\n\n")[0].split())
    assert (status, err) == (0, "")
    assert usage.startswith(f"usage: targetlang {command} [-h] ")
    assert usage.endswith("] SPEC")
    assert "..." not in usage


# ------------------------------------------------------------------ reading as a release


_NO_STRINGS = (
    "TVM 0.27 reads no target strings, only JSON, a tag name or a bare kind name ('Cannot parse target "
    "string'): 'targetlang migrate --target-version 0.27' writes this target as the JSON it reads"
)


@pytest.mark.parametrize(
    ("argv", "status", "out", "err"),
    [
        (
            ["parse", "--tvm-version", "0.27", "cuda -arch=sm_80"],
            1,
            "",
            f"error: {_NO_STRINGS}\n  cuda -arch=sm_80\n      ^^^^^^^^^^^^\n",
        ),
        (
            ["fmt", "--tvm-version", "0.24", "llvm "],
            1,
            "",
            f"error: {_NO_STRINGS.replace('0.27', '0.24')}\n  llvm \n      ^\n",
        ),
        (
            ["explain", "--tvm-version", "0.27", "cuda -arch=sm_80"],
            1,
            "",
            f"error: {_NO_STRINGS}\n  cuda -arch=sm_80\n      ^^^^^^^^^^^^\n",
        ),
        (
            ["diff", "--tvm-version", "0.27", "cuda", "cuda -arch=sm_80"],
            2,
            "",
            f"error: {_NO_STRINGS}\n  cuda -arch=sm_80\n      ^^^^^^^^^^^^\n",
        ),
        # no space: TVM 0.27 takes the whole text for a kind's name
        (
            ["parse", "--tvm-version", "0.27", "llvm\t-mcpu=skylake"],
            1,
            "",
            "error: unknown target kind 'llvm\u2409-mcpu=skylake'\n  llvm\u2409-mcpu=skylake\n  ^^^^^^^^^^^^^^^^^^\n",
        ),
        # Target kind "llvm'" is not defined (apache-tvm 0.27): a quote is part of the name, not a syntax
        (
            ["fmt", "--tvm-version", "0.27", "llvm'"],
            1,
            "",
            "error: unknown target kind 'llvm''; did you mean 'llvm'?\n  llvm'\n  ^^^^^\n",
        ),
        # what TVM 0.27 reads: a bare kind name, a tag name, JSON text
        (["fmt", "--tvm-version", "0.27", "cuda"], 0, "cuda\n", ""),
        # a tag name: the tag's config, as 0.27 registered it
        (
            ["fmt", "--tvm-version", "0.27", "nvidia/jetson-nano"],
            0,
            "cuda -keys=cuda,gpu -arch=sm_53 -max_shared_memory_per_block=49152 -max_threads_per_block=1024 "
            "-registers_per_block=32768 -thread_warp_size=32\n",
            "",
        ),
        (["fmt", "--tvm-version", "0.27", '{"kind": "cuda", "arch": "sm_80"}'], 0, "cuda -arch=sm_80\n", ""),
        # a release that read strings reads it
        (["fmt", "--tvm-version", "0.22", "cuda -arch=sm_80"], 0, "cuda -arch=sm_80\n", ""),
    ],
)
def test_a_string_given_to_a_release_that_read_none(run: Run, argv: list[str], status: int, out: str, err: str) -> None:
    assert run(*argv) == (status, out, err)


def test_check_of_strings_as_a_release_that_read_none(run: Run) -> None:
    status, out, err = run("check", "--tvm-version", "0.27", "-", stdin=b"cuda\ncuda -arch=sm_80\n")
    assert status == 1
    assert err == f"<stdin>:2: TargetSyntaxError: {_NO_STRINGS}\n  cuda -arch=sm_80\n      ^^^^^^^^^^^^\n"
    assert out == (
        "checked 2 targets in <stdin>: 1 parsed, 1 round-trip exactly, 1 read back from canonical form, 1 resolve; "
        "1 failed (1 TargetSyntaxError)\n"
    )


@pytest.mark.parametrize(
    ("spec", "message", "version"),
    [
        (
            "llvm -device=arm_cpu -target=aarch64-linux-gnu",
            "kind 'llvm' has no attribute 'target' since TVM v0.7: it is TVM <= v0.6's 'mtriple'",
            "0.6",
        ),
        (
            "llvm -system-lib",
            "kind 'llvm' has no attribute 'system-lib' since TVM v0.10 (TVM v0.7 - v0.9 had it)",
            "0.9",
        ),
    ],
)
def test_explain_names_the_release_that_read_the_spec(run: Run, spec: str, message: str, version: str) -> None:
    status, out, err = run("explain", spec)
    hint = f"; TVM v{version} read this target: give --tvm-version {version} if that release wrote it"
    assert (status, out, err.split("\n")[0]) == (1, "", f"error: {message}{hint}")
    status, out, err = run("explain", "--tvm-version", version, spec)
    assert (status, err) == (0, "")
    assert out.startswith(f"{spec}: kind 'llvm', read as TVM v{version} read it")


def test_explain_of_a_spec_no_release_read_has_no_hint(run: Run) -> None:
    assert run("explain", "llvm -mcpux=a") == (
        1,
        "",
        "error: kind 'llvm' has no attribute 'mcpux'; did you mean 'mcpu'?\n  llvm -mcpux=a\n        ^^^^^\n",
    )


# ------------------------------------------------------------------ diff's exit status


@pytest.mark.parametrize(
    ("a", "b", "status"),
    [
        ("llvm -mcpu=skylake", "llvm -mcpu=skylake", 0),
        ("cuda -libs=cublas,cudnn", "cuda -arch=sm_50 -libs=cudnn,cublas", 0),  # equal once resolved
        ("llvm -mcpu=skylake", "llvm -mcpu=icelake-server", 1),
        ("llvm -device=arm_cpu", "llvm", 1),
        ("llvm", "lvm", 2),
    ],
)
@pytest.mark.parametrize("json_option", [[], ["--json"]])
def test_diff_exits_as_diff_does(run: Run, a: str, b: str, status: int, json_option: list[str]) -> None:
    assert run("diff", *json_option, a, b)[0] == status


# ------------------------------------------------------------------ output that cannot be written


@pytest.mark.parametrize("option", ["--help", "--version", "fmt --help"])
@pytest.mark.parametrize(
    ("redirect", "message"),
    [
        ("> /dev/full", "error: cannot write the output: No space left on device\n"),
        (">&-", "error: cannot write the output: standard output is closed\n"),
    ],
)
def test_help_and_version_that_cannot_be_written_fail(option: str, redirect: str, message: str) -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full on this system")
    command = f'"{sys.executable}" -m targetlang {option} {redirect}'
    done = subprocess.run(command, shell=True, capture_output=True, text=True, check=False)
    assert (done.returncode, done.stderr) == (1, message)


# ------------------------------------------------------------------ the bundled sample


def test_check_names_its_sample_as_package_data(run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # elsewhere than the source tree, as a user runs it
    status, out, err = run("check", "--json")
    assert (status, err) == (0, "")
    summary = json.loads(out)
    assert summary["file"] == "<package data targetlang/data/sample-targets.txt>"
    assert run("check")[1].startswith("checked 484 targets in <package data targetlang/data/sample-targets.txt>: ")
