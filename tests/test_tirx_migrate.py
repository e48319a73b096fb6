"""``tirx-0.1`` (TVM TIRx) as what migrate, logs migrate and fix write for: the distribution's name
and data files, the migration (TIRx's kinds, tags and checks), and the commands' --target-version.
What TIRx itself does with the migrated targets is tests/test_tirx_goldens.py's."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from targetlang._versions import DISTRIBUTIONS, NAMED_DISTRIBUTIONS, RELEASES, data_file, distribution_release
from targetlang.fix import TARGET_VERSIONS
from targetlang.migration import migrate, modern_release
from targetlang.migration._checks import checks_file, null_targets, option_types

from .conftest import Run
from .newest import MODERN_LIST, MODERN_NAMES

TIRX = "tirx-0.1"


def test_the_distributions_come_from_the_data() -> None:
    assert NAMED_DISTRIBUTIONS == ("tirx-0.1",)
    assert DISTRIBUTIONS == ("tirx-0.1", *MODERN_NAMES)
    assert TARGET_VERSIONS == DISTRIBUTIONS
    assert TIRX not in RELEASES  # not a TVM release: parse never reads as it


@pytest.mark.parametrize(
    ("stem", "name", "file"),
    [
        ("kinds", "0.27", "kinds-v0.27.json"),
        ("tags", "0.24", "tags-v0.24.json"),
        ("checks", "0.99", "checks-v0.99.json"),
        ("kinds", "tirx-0.1", "kinds-tirx-0.1.json"),
        ("checks", "tirx-0.1", "checks-tirx-0.1.json"),
        ("tags", "fork2-1.12", "tags-fork2-1.12.json"),
    ],
)
def test_data_file(stem: str, name: str, file: str) -> None:
    assert data_file(stem, name) == file


@pytest.mark.parametrize(
    ("text", "name"), [("tirx-0.1", "tirx-0.1"), ("0.25", "0.25"), ("v0.27.0", "0.27"), ("0.26.dev3", "0.26")]
)
def test_modern_release_names(text: str, name: str) -> None:
    assert modern_release(text) == name


@pytest.mark.parametrize("text", ["tirx-0.2", "tirx", "TIRX-0.1", "tirx-0.1.0", "0.23"])
def test_an_unknown_distribution_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match=rf"writes for TVM {re.escape(MODERN_LIST)}, not '.*' \(and for tirx-0\.1\)"):
        modern_release(text)


def test_tirx_has_its_own_checks_and_kinds() -> None:
    assert checks_file(TIRX).name == "checks-tirx-0.1.json"
    assert checks_file("0.25").name == "checks-v0.27.json"
    assert (null_targets(TIRX), null_targets("0.27")) == (False, True)
    assert "jit" not in option_types(TIRX)["llvm"] and "jit" in option_types("0.27")["llvm"]
    assert option_types(TIRX)["cuda"]["backend_config"] == "Map<str, Any>"


def test_a_tirx_target_reads_its_attributes() -> None:
    # measured: tvm_tirx's Target({"kind": "llvm", "mcpu": "skylake"}).mcpu is "skylake", and a
    # target without the attribute raises AttributeError, as TVM 0.25 on
    release = distribution_release(TIRX)
    assert (str(release), release.reads_attributes, str(release.version)) == ("tirx-0.1", True, "0.27")
    assert distribution_release("0.24") is RELEASES["0.24"]
    with pytest.raises(ValueError, match=r"not '0\.23'"):
        distribution_release("0.23")


def _errors(spec: Any, to: str, **options: Any) -> list[tuple[str, str]]:
    return [(c.rule, c.message) for c in migrate(spec, to=to, **options).changes if c.severity == "error"]


@pytest.mark.parametrize(
    ("spec", "written_027", "written_tirx"),
    [
        ("cuda -arch=sm_80", {"kind": "cuda", "arch": "sm_80"}, {"kind": "cuda", "arch": "sm_80"}),
        ("llvm -jit=orcjit -mcpu=skylake", {"kind": "llvm", "jit": "orcjit", "mcpu": "skylake"}, None),
        # a null host is none to 0.27 and an error to TIRx: migrate writes none for both
        ({"kind": "cuda", "host": None}, {"kind": "cuda"}, {"kind": "cuda"}),
        (
            {"kind": "composite", "devices": ["cuda", None]},
            {"kind": "composite", "devices": [{"kind": "cuda"}, None]},
            None,
        ),
    ],
)
def test_migrate_writes_what_each_accepts(spec: Any, written_027: Any, written_tirx: Any) -> None:
    assert migrate(spec, to="0.27").json == written_027
    assert migrate(spec, to=TIRX).json == written_tirx


@pytest.mark.parametrize(
    ("spec", "errors"),
    [
        (
            "llvm -jit=orcjit -mcpu=skylake",
            [("unknown-attribute", "attribute 'jit' cannot migrate: TVM TIRx 0.1 does not know it")],
        ),
        (
            {"kind": "composite", "devices": ["cuda", None]},
            [
                (
                    "rejected-by-target",
                    """attribute 'devices' is [{"kind": "cuda"}, null], which TVM TIRx 0.1 rejects: """
                    "Expected Target, string, or dict in 'devices' array, got 'None'",
                )
            ],
        ),
    ],
)
def test_migrate_says_why_tirx_would_reject(spec: Any, errors: list[tuple[str, str]]) -> None:
    assert _errors(spec, TIRX) == errors


def test_jit_is_dropped_under_policy_drop() -> None:
    result = migrate("llvm -jit=orcjit -mcpu=skylake", to=TIRX, policy="drop")
    assert result.json == {"kind": "llvm", "mcpu": "skylake"}
    assert [(c.rule, c.severity) for c in result.changes] == [("unknown-attribute", "warning")]


@pytest.mark.parametrize(
    ("tag", "compressed_tirx"),
    [
        # registered by every TIRx build: compressed as for 0.27
        ("nvidia/nvidia-a100", True),
        # registered only by a TIRx whose LLVM has an Arm backend: its expansion is written
        ("arm/rasp4b", False),
        ("arm/thunderx", False),
    ],
)
def test_tags_only_some_tirx_builds_register_are_not_written(tag: str, compressed_tirx: bool) -> None:
    assert migrate({"tag": tag}, to="0.27", compress_tags=True).json == {"tag": tag}
    written = migrate({"tag": tag}, to=TIRX, compress_tags=True).json
    assert written is not None
    assert (written == {"tag": tag}) is compressed_tirx
    if not compressed_tirx:
        assert written["kind"] == "llvm" and "mtriple" in written


def test_cli_migrate(run: Run) -> None:
    assert run("migrate", "--target-version", TIRX, "cuda -arch=sm_80") == (
        0,
        '{\n  "kind": "cuda",\n  "arch": "sm_80"\n}\n',
        "",
    )
    status, out, err = run("migrate", "--target-version", TIRX, "llvm -jit=orcjit")
    assert (status, out) == (1, "")
    assert (
        err.splitlines()[0] == "error: unknown-attribute: attribute 'jit' cannot migrate: TVM TIRx 0.1 does not know it"
    )
    status, out, err = run("migrate", "--target-version", "tirx-0.2", "llvm")
    assert status == 2
    assert f"argument --target-version: targetlang writes for TVM {MODERN_LIST}, not 'tirx-0.2'" in err


_RECORD = (
    '{{"input": ["{target}", "dense.cuda", [[1, 2]], {{}}], "config": {{"index": 0, "code_hash": null, '
    '"entity": []}}, "result": [[0.1], 0, 1.0, 1], "version": 0.2, "tvm_version": "0.9.dev0"}}\n'
)


def test_cli_logs_migrate(run: Run, tmp_path: Path) -> None:
    log = tmp_path / "tune.log"
    log.write_text(_RECORD.format(target="llvm -jit=orcjit -mcpu=skylake") + _RECORD.format(target="cuda -arch=sm_80"))
    out_file = tmp_path / "out.log"
    status, _, err = run("logs", "migrate", "--target-version", TIRX, str(log), "-o", str(out_file))
    assert status == 1
    assert err.splitlines()[0] == (
        f"{log}:1: target: migrate: unknown-attribute: attribute 'jit' cannot migrate: TVM TIRx 0.1 does not know it"
    )
    status, _, _ = run("logs", "migrate", "--target-version", TIRX, "--policy", "drop", str(log), "-o", str(out_file))
    assert status == 0
    targets = [json.loads(line)["input"][0] for line in out_file.read_text().splitlines()]
    assert targets == ['{"kind": "llvm", "mcpu": "skylake"}', '{"kind": "cuda", "arch": "sm_80"}']


_SOURCE = """import tvm
t = tvm.target.Target("llvm -jit=orcjit -mcpu=skylake")
u = tvm.target.Target({"kind": "llvm", "jit": "orcjit"})
c = tvm.target.Target({"kind": "cuda", "backend_config": {"a": 1}})
print(t.mcpu)
"""


def test_fix_judges_by_tirx() -> None:
    pytest.importorskip("libcst")
    from targetlang.fix import fix_source

    findings = {
        version: [(f.line, f.rule, f.message) for f in fix_source(_SOURCE, target_version=version).findings]
        for version in ("0.27", TIRX)
    }
    assert findings[TIRX] == [
        (
            2,
            "target-string",
            "cannot migrate: unknown-attribute: attribute 'jit' cannot migrate: TVM TIRx 0.1 does not know it",
        ),
        (
            3,
            "target-unknown-attr",
            "kind 'llvm' has no attribute 'jit': TVM TIRx 0.1 rejects it ('Unknown config option')",
        ),
        (
            5,
            "target-property",
            "Target.mcpu: on TVM >= 0.25 it reads the attribute, and raises AttributeError where the target has "
            "none; v0.23's property: '' when absent",
        ),
    ]
    assert [(line, rule) for line, rule, _ in findings["0.27"]] == [
        (2, "target-string"),
        (4, "target-unknown-attr"),
        (5, "target-property"),
    ]


def test_fix_writes_for_tirx() -> None:
    pytest.importorskip("libcst")
    from targetlang.fix import fix_source

    source = 't = tvm.target.Target("cuda -arch=sm_80 -max_num_threads=1024")\n'
    result = fix_source(source, target_version=TIRX)
    assert result.text == 't = tvm.target.Target({"kind": "cuda", "arch": "sm_80", "max_num_threads": 1024})\n'


def test_cli_fix(run: Run, tmp_path: Path) -> None:
    pytest.importorskip("libcst")
    path = tmp_path / "m.py"
    path.write_text(_SOURCE)
    status, out, _ = run("fix", "--target-version", TIRX, "--check", str(path))
    assert status == 1
    assert f"{path}:3:40: target-unknown-attr [report-only] kind 'llvm' has no attribute 'jit'" in out
    assert "backend_config" not in out
