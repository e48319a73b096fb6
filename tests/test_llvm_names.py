"""``check --llvm`` and ``kinds --cpus``: a target's LLVM CPU and feature names against the tables
recorded from Debian's llc (targetlang/data/llvm-names.json, tests/oracle/record_llvm_cpus.py).
Each expected message was read off ``llc-N -mtriple=T -mcpu=NAME`` on this machine and written
here by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from targetlang import TargetError, parse
from targetlang._llvm_names import (
    check_llvm_names,
    llvm_release,
    name_table,
    recorded_llvm,
    target_triple,
    triple_arch,
)
from targetlang._versions import DATA

from .conftest import Run
from .test_cli import console_lines, replay, transcript

_PAGE = Path(__file__).resolve().parents[1] / "docs" / "llvm-names.md"

# The did-you-mean lists of these tests are difflib's close matches (n=3, cutoff 0.6, as
# _diagnostics.suggest asks) over the names `llc-N -mtriple=T -mcpu=help` itself printed, worked
# out from llc's output (Debian llvm-13 and llvm-19), not from the shipped table.
_SKYLAKEE = "LLVM 19 has no CPU 'skylakee' for x86_64; did you mean 'skylake' or 'skylake_avx512' or 'skylake-avx512'?"
_APPLE_ALIAS = (
    "LLVM 19 knows CPU '{cpu}' for aarch64 only as an alias '-mcpu=help' does not list: "
    "TVM before v0.24 rejects it at code generation and compiles for the generic CPU"
)


@pytest.mark.parametrize(
    ("llvm", "spec", "host", "expected"),
    [
        ("19", "llvm -mtriple=x86_64-linux-gnu -mcpu=skylakee", None, [("cpu", "skylakee", _SKYLAKEE)]),
        (
            "19",
            "llvm -mcpu=skylakee",
            "x86_64",
            [("cpu", "skylakee", _SKYLAKEE.replace("x86_64", "x86_64 (no mtriple: the host's)"))],
        ),
        (
            "19",
            "llvm -mcpu=skylakee",
            "aarch64",
            [("cpu", "skylakee", "LLVM 19 has no CPU 'skylakee' for aarch64 (no mtriple: the host's)")],
        ),
        ("19", "llvm -mcpu=cortex-a72 -mattr=+neon", "aarch64", []),
        (
            "19",
            "llvm -mtriple=aarch64-linux-gnu -mcpu=apple-latest",
            None,
            [("alias", "apple-latest", _APPLE_ALIAS.format(cpu="apple-latest"))],
        ),
        ("13", "llvm -mtriple=aarch64-linux-gnu -mcpu=apple-latest", None, []),
        (
            "19",
            "llvm -mtriple=arm64-apple-macos -mcpu=apple-m1",
            None,
            [("alias", "apple-m1", _APPLE_ALIAS.format(cpu="apple-m1"))],
        ),
        ("22", "llvm -mtriple=arm64-apple-macos -mcpu=apple-m1", None, []),
        (
            "19",
            "llvm -mtriple=x86_64-linux-gnu -mattr=+avx9,-avx512f,+avx2",
            None,
            [
                (
                    "feature",
                    "+avx9",
                    "LLVM 19 has no feature 'avx9' for x86_64 (-mattr=+avx9); did you mean '+avx' or '+avx2'?",
                )
            ],
        ),
        (
            "19",
            "llvm -mtriple=aarch64-linux-gnu -mattr=+sve,-neno",
            None,
            [("feature", "-neno", "LLVM 19 has no feature 'neno' for aarch64 (-mattr=-neno); did you mean '-neon'?")],
        ),
        ("19", "llvm -mtriple=x86_64-linux-gnu -mcpu=skylake -mattr=+avx2,-avx512f", None, []),
        # TVM joins mattr's items with "," for LLVM: one item may hold several features
        ("13", '{"kind": "llvm", "mtriple": "x86_64-linux-gnu", "mattr": ["+avx2,+fma"]}', None, []),
        (
            "19",
            '{"kind": "llvm", "mtriple": "x86_64-linux-gnu", "mattr": ["+avx2,+avx9"]}',
            None,
            [
                (
                    "feature",
                    "+avx9",
                    "LLVM 19 has no feature 'avx9' for x86_64 (-mattr=+avx9); did you mean '+avx' or '+avx2'?",
                )
            ],
        ),
        # a composite's devices are checked as its host is
        (
            "19",
            '{"kind": "composite", "devices": [{"kind": "llvm", "mtriple": "x86_64-linux-gnu", "mcpu": "skylakee"}]}',
            None,
            [("cpu", "skylakee", _SKYLAKEE)],
        ),
        ("19", "llvm -mtriple=armv7a-linux-gnueabihf -mcpu=cortex-a53 -mattr=+neon,+vfp4", None, []),
        (
            "13",
            "llvm -mtriple=riscv64-unknown-linux-gnu -mcpu=sifive-u74 -mattr=+m,+v",
            None,
            [("feature", "+v", "LLVM 13 has no feature 'v' for riscv64 (-mattr=+v)")],
        ),
        ("19", "llvm -mtriple=riscv64-unknown-linux-gnu -mcpu=sifive-u74 -mattr=+m,+v", None, []),
        (
            "13",
            "nvptx -mcpu=sm_90",
            None,
            [("cpu", "sm_90", "LLVM 13 has no CPU 'sm_90' for nvptx64; did you mean 'sm_80' or 'sm_70' or 'sm_60'?")],
        ),
        ("19", "nvptx -mcpu=sm_90", None, []),
        ("19", "rocm -mcpu=gfx90a", None, []),
        ("13", "hexagon -mcpu=hexagonv68", None, []),
        # names that do not go to LLVM: the C backend's mcpu, cuda's arch
        ("19", "c -mcpu=whatever", None, []),
        ("19", "cuda -arch=sm_80", None, []),
        # a host's names are checked as the target's
        (
            "19",
            '{"kind": "cuda", "host": {"kind": "llvm", "mtriple": "x86_64-linux-gnu", "mcpu": "skylakee"}}',
            None,
            [("cpu", "skylakee", _SKYLAKEE)],
        ),
        # an architecture the tables do not hold: said so, and nothing is checked
        (
            "19",
            "llvm -mtriple=mips-linux-gnu -mcpu=nonsense",
            None,
            [
                (
                    "no-table",
                    "mips",
                    "LLVM 19's recorded tables have no architecture 'mips' (triple 'mips-linux-gnu'): "
                    "names not checked",
                )
            ],
        ),
    ],
)
def test_check_llvm_names(llvm: str, spec: str, host: str | None, expected: list[tuple[str, str, str]]) -> None:
    found = check_llvm_names(parse(spec), llvm, host=host)
    assert [(f.what, f.name, f.message) for f in found] == expected
    assert all(f.severity == ("note" if f.what == "no-table" else "warning") for f in found)


@pytest.mark.parametrize(
    ("triple", "arch"),
    [
        ("x86_64-linux-gnu", "x86_64"),
        ("amd64-pc-windows", "x86_64"),
        ("i386-linux-gnu", "i686"),
        ("arm64-apple-macos", "aarch64"),
        ("aarch64_be-linux-gnu", "aarch64"),
        ("armv7a-linux-gnueabihf", "arm"),
        ("thumbv7em-none-eabi", "thumb"),
        ("powerpc64le-linux-gnu", "powerpc64le"),
        ("s390x-ibm-linux", "systemz"),
        ("mips-linux-gnu", "mips"),
    ],
)
def test_triple_arch(triple: str, arch: str) -> None:
    assert triple_arch(triple) == arch


@pytest.mark.parametrize(
    ("spec", "triple"),
    [
        ("llvm -mtriple=aarch64-linux-gnu", "aarch64-linux-gnu"),
        ("llvm", "riscv64"),  # the host given
        ("nvptx", "nvptx64-nvidia-cuda"),
        ("rocm", "amdgcn-amd-amdhsa-hcc"),
        ("hexagon", "hexagon"),
        ("cuda", None),
    ],
)
def test_target_triple(spec: str, triple: str | None) -> None:
    assert target_triple(parse(spec), host="riscv64") == triple


@pytest.mark.parametrize("version", ["19", "19.1", "19.1.7", " 19 "])
def test_llvm_release_reads_the_major_version(version: str) -> None:
    assert llvm_release(version).llc == "19.1.7"


def test_unknown_llvm_release_lists_the_recorded_ones() -> None:
    with pytest.raises(
        TargetError, match=r"^no tables of LLVM '18': the recorded LLVM versions are 13, 14, 15, 16, 19, 22$"
    ):
        llvm_release("18")


# ------------------------------------------------------------------------ the data's integrity


def test_every_recorded_llvm_has_its_metadata_and_tables() -> None:
    assert [r.major for r in recorded_llvm()] == ["13", "14", "15", "16", "19", "22"]
    for release in recorded_llvm():
        assert release.llc.startswith(release.major + ".")
        assert release.package == f"llvm-{release.major}"
        assert release.package_version.startswith(f"1:{release.major}.")
        assert {"x86_64", "aarch64", "arm", "riscv64", "wasm32", "nvptx64", "amdgcn", "hexagon"} <= set(release.arches)
        for arch in release.arches:
            table = name_table(release.major, arch)
            assert table is not None and table.cpus and table.features, (release.major, arch)
            assert not set(table.aliases) & set(table.cpus)


def test_the_data_names_its_source_and_refers_to_tables_it_holds() -> None:
    data = json.loads((DATA / "llvm-names.json").read_text(encoding="utf-8"))
    assert "Debian's llvm-N packages" in data["source"] and "record_llvm_cpus.py" in data["source"]
    assert set(data["arches"].values()) == set(data["tables"])
    for table in data["tables"].values():
        assert set(table) == {"cpus", "aliases", "features"}
        for part in table.values():
            names = [n for group in part.values() for n in group]
            assert len(names) == len(set(names)), "a name is written once per table"
            assert all(set(versions.split()) <= set(data["versions"]) for versions in part)
    assert (DATA / "llvm-names.json").stat().st_size < 64_000


def test_loongarch_came_with_llvm_16() -> None:
    assert name_table("15", "loongarch64") is None
    table = name_table("16", "loongarch64")
    assert table is not None and "la464" in table.cpus


# ------------------------------------------------------------------------ the command line


def test_check_warns_and_keeps_the_exit_status(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "targets.txt"
    path.write_text(
        "llvm -mtriple=x86_64-linux-gnu -mcpu=skylakee\n"
        "llvm -mtriple=aarch64-linux-gnu -mcpu=cortex-a72 -mattr=+neon,+sve9\n"
        "cuda -arch=sm_80\n",
        encoding="utf-8",
    )
    status, out, err = run("check", "--llvm", "19", str(path))
    assert status == 0
    assert err.splitlines() == [
        f"{path}:1: llvm: warning: {_SKYLAKEE}",
        f"{path}:2: llvm: warning: LLVM 19 has no feature 'sve9' for aarch64 (-mattr=+sve9); "
        "did you mean '+sve' or '+sve2' or '+sve2p1'?",
    ]
    assert out == (
        f"checked 3 targets in {path}: 3 parsed, 3 round-trip exactly, 3 read back from canonical form, "
        "3 resolve; 0 failed\n"
    )


def test_check_json_records_each_warning(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "targets.txt"
    path.write_text("nvptx -mcpu=sm_90\n", encoding="utf-8")
    status, out, _ = run("check", "--json", "--llvm", "13", str(path))
    assert status == 0
    first = json.loads(out.splitlines()[0])
    assert first == {
        "record": "llvm",
        "file": str(path),
        "line": 1,
        "severity": "warning",
        "what": "cpu",
        "name": "sm_90",
        "message": "LLVM 13 has no CPU 'sm_90' for nvptx64; did you mean 'sm_80' or 'sm_70' or 'sm_60'?",
        "spec": "nvptx -mcpu=sm_90",
    }
    assert json.loads(out.splitlines()[1])["record"] == "summary"


def test_check_without_llvm_says_nothing_of_names(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "targets.txt"
    path.write_text("llvm -mtriple=x86_64-linux-gnu -mcpu=skylakee\n", encoding="utf-8")
    assert run("check", str(path))[2] == ""


@pytest.mark.parametrize("command", [("check", "--llvm", "18"), ("kinds", "llvm", "--cpus", "--llvm", "18")])
def test_an_unrecorded_llvm_is_a_usage_error(run: Run, command: tuple[str, ...]) -> None:
    status, out, err = run(*command)
    assert (status, out) == (2, "")
    assert err.endswith(
        "error: argument --llvm: no tables of LLVM '18': the recorded LLVM versions are 13, 14, 15, 16, 19, 22\n"
    )


def test_kinds_cpus_lists_as_llc_does(run: Run) -> None:
    status, out, err = run("kinds", "llvm", "--cpus", "--llvm", "19", "--mtriple", "wasm32-unknown-unknown")
    assert (status, err) == (0, "")
    assert out == (
        "LLVM 19.1.7 (llvm-19 1:19.1.7-3~deb12u1), wasm32\n"
        "\n"
        "Available CPUs for this target:\n"
        "\n"
        "  bleeding-edge\n"
        "  generic\n"
        "  mvp\n"
        "\n"
        "Available features for this target:\n"
        "\n"
        "  atomics\n"
        "  bulk-memory\n"
        "  exception-handling\n"
        "  extended-const\n"
        "  half-precision\n"
        "  multimemory\n"
        "  multivalue\n"
        "  mutable-globals\n"
        "  nontrapping-fptoint\n"
        "  reference-types\n"
        "  relaxed-simd\n"
        "  sign-ext\n"
        "  simd128\n"
        "  tail-call\n"
        "\n"
        "Use +feature to enable a feature, or -feature to disable it.\n"
    )


def test_kinds_cpus_shows_the_aliases_llc_does_not_list(run: Run) -> None:
    status, out, _ = run("kinds", "llvm", "--cpus", "--llvm", "19", "--mtriple", "aarch64-linux-gnu")
    assert status == 0
    aliases = out.split("CPU aliases llc accepts but does not list:\n\n", 1)[1].split("\n\n", 1)[0]
    assert aliases.split() == [
        "apple-a8", "apple-a9", "apple-latest", "apple-m1", "apple-m2", "apple-m3",
        "apple-s4", "apple-s5", "cobalt-100", "cyclone", "grace",
    ]  # fmt: skip


def test_kinds_cpus_of_a_kind_with_its_own_triple(run: Run) -> None:
    status, out, _ = run("kinds", "hexagon", "--cpus", "--llvm", "13")
    assert status == 0
    assert out.startswith(
        "LLVM 13.0.1 (llvm-13 1:13.0.1-11+b2), hexagon\n\nAvailable CPUs for this target:\n\n  generic\n"
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ("kinds", "cuda", "--cpus"),
            "error: --cpus lists LLVM's names for the kinds that hand mcpu to LLVM (llvm, nvptx, rocm, hexagon), "
            "not 'cuda'\n",
        ),
        (("kinds", "llvm", "--llvm", "19"), "error: --llvm and --mtriple go with --cpus\n"),
        (
            ("kinds", "llvm", "--cpus", "--llvm", "19", "--mtriple", "mips-linux-gnu"),
            "error: LLVM 19's recorded tables have no architecture 'mips' (triple 'mips-linux-gnu')\n",
        ),
    ],
)
def test_kinds_cpus_errors(run: Run, argv: tuple[str, ...], message: str) -> None:
    assert run(*argv) == (1, "", message)


def test_the_page_runs_as_written(run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    replay(transcript(console_lines(_PAGE)), run, "docs/llvm-names.md", [_PAGE])
