"""A registry file that extends a built-in kind, read with other releases' kinds than its base's:
every release's (``migrate``, whose removed and renamed attributes still read) and the one
``--tvm-version`` names (the file's additions laid on that release's registry); and where an
extension's errors point."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import targetlang
from targetlang import RegistryError, builtin_registry
from targetlang._layering import layered

from .conftest import Run
from .newest import NEWEST

CUDA_CODE = Path(__file__).resolve().parents[1] / "docs" / "registries" / "tile-ai-tvm-cuda-code.toml"
LLVM_EXTENDED = 'base = "0.22"\n\n[kinds.llvm]\nextend = true\nattrs = { fork-opt = "int" }\n'


def _registry_file(tmp_path: Path, text: str, name: str = "fork.toml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


# --------------------------------------------------------------------------- migrate with an extended kind


@pytest.mark.parametrize(
    ("registry", "spec", "written", "said"),
    [
        # 'system-lib', which cuda lost in v0.10, is dropped as it is without the registry
        (
            None,
            "cuda -arch=sm_80 -system-lib",
            {"kind": "cuda", "arch": "sm_80"},
            "warning: removed-attribute: attribute 'system-lib' dropped",
        ),
        # -target, renamed -mtriple, is renamed as it is without the registry
        (
            LLVM_EXTENDED,
            "llvm -target=aarch64-linux-gnu",
            {"kind": "llvm", "mtriple": "aarch64-linux-gnu"},
            "info: target-to-mtriple: -target renamed to -mtriple",
        ),
        (
            LLVM_EXTENDED,
            "llvm -system-lib -mcpu=cortex-a72",
            {"kind": "llvm", "mcpu": "cortex-a72"},
            "warning: removed-attribute: attribute 'system-lib' dropped",
        ),
    ],
)
def test_migrate_reads_an_extended_kinds_removed_and_renamed_attributes(
    run: Run, tmp_path: Path, registry: str | None, spec: str, written: dict[str, object], said: str
) -> None:
    path = str(CUDA_CODE) if registry is None else _registry_file(tmp_path, registry)
    status, out, err = run("--registry", path, "migrate", "--policy", "drop", spec)
    assert (status, json.loads(out)) == (0, written)
    assert err.startswith(said)


# --------------------------------------------------------------------------- --tvm-version with a registry file


def test_tvm_version_reads_with_that_release_plus_the_files_additions(run: Run) -> None:
    # v0.27 reads feature.* keys (v0.22, the file's base, does not) and the file adds 'code'.
    spec = '{"kind":"cuda","code":["sm_90"],"feature.x":1}'
    status, out, err = run("--registry", str(CUDA_CODE), "migrate", "--tvm-version", "0.27", "--policy", "keep", spec)
    assert (status, json.loads(out)) == (0, {"kind": "cuda", "code": ["sm_90"], "feature.x": 1})
    assert err.startswith(f"warning: unknown-attribute: attribute 'code' kept though TVM {NEWEST} does not know it")
    status, out, err = run("--registry", str(CUDA_CODE), "parse", "--tvm-version", "0.27", spec)
    assert status == 0, err


def test_tvm_version_of_an_older_era_reads_the_files_additions(run: Run) -> None:
    status, out, _ = run(
        "--registry", str(CUDA_CODE), "migrate", "--tvm-version", "0.9", "--policy", "keep", "cuda -code=sm_90"
    )
    assert (status, json.loads(out)) == (0, {"kind": "cuda", "code": ["sm_90"]})


def test_layered_adds_an_extensions_attributes_to_the_other_releases_kind() -> None:
    extended = targetlang.load_registry(CUDA_CODE)
    onto = builtin_registry("0.19")
    result = layered(extended, onto)
    assert result.version == "0.19"
    assert set(result.kinds["cuda"].attrs) == set(onto.kinds["cuda"].attrs) | {"code"}
    assert {name: kind for name, kind in result.kinds.items() if name != "cuda"} == {
        name: kind for name, kind in onto.kinds.items() if name != "cuda"
    }
    assert dict(result.tags) == dict(onto.tags)


def test_layered_drops_what_the_file_removes_and_keeps_a_redefinition(tmp_path: Path) -> None:
    path = _registry_file(
        tmp_path, 'removed_kinds = ["hexagon"]\n\n[kinds.c]\nreplace = true\nattrs = { opt = "int" }\n'
    )
    result = layered(targetlang.load_registry(path), builtin_registry("0.19"))
    assert "hexagon" not in result.kinds
    assert set(result.kinds["c"].attrs) >= {"opt"}
    assert "mcpu" not in result.kinds["c"].attrs


# --------------------------------------------------------------------------- where an extension's errors point


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            'base = "0.22"\n\n[kinds.cuda]\nextend = true\nattrs = { arch = "int" }\n',
            "kind 'cuda': 'arch' is an attribute of the built-in kind already; an extension adds attributes: to "
            "change one, redefine the kind with 'replace = true' (line 5, column 11)\n"
            '  attrs = { arch = "int" }\n'
            "            ^^^^",
        ),
        (
            'base = "0.22"\n\n[kinds.cuda]\nextend = "yes"\nattrs = { code = "int" }\n',
            "kind 'cuda': 'extend' must be true or false, not a string (line 4, column 1)\n"
            '  extend = "yes"\n'
            "  ^^^^^^",
        ),
        (
            '[kinds.cuda]\nextend = true\n\n[kinds.cuda.attrs]\ncode = "int"\n"max_num_threads" = "int"\n',
            "kind 'cuda': 'max_num_threads' is an attribute of the built-in kind already; an extension adds "
            "attributes: to change one, redefine the kind with 'replace = true' (line 6, column 1)\n"
            '  "max_num_threads" = "int"\n'
            "  ^^^^^^^^^^^^^^^^^",
        ),
        (
            '{\n  "kinds": {\n    "cuda": {\n      "extend": true,\n      "replace": 1\n    }\n  }\n}\n',
            "kind 'cuda': 'replace' must be true or false, not int (line 5, column 7)\n"
            '        "replace": 1\n'
            "        ^^^^^^^^^",
        ),
    ],
)
def test_an_extension_error_points_at_the_offending_key(tmp_path: Path, text: str, message: str) -> None:
    name = "fork.json" if text.startswith("{") else "fork.toml"
    path = _registry_file(tmp_path, text, name)
    with pytest.raises(RegistryError) as info:
        targetlang.load_registry(path)
    assert str(info.value) == f"{path}: {message}"
