"""Registry files that extend a built-in kind (``extend = true``), replace it (``replace = true``),
or redefine it by mistake (an error where it drops or retypes a built-in attribute); and the
registries of fork kinds under docs/registries/."""

from __future__ import annotations

import json
import tomllib
from dataclasses import replace
from pathlib import Path

import pytest

import targetlang
from targetlang import Registry, RegistryError, builtin_registry, parse

from .conftest import Run

DOCS = Path(__file__).resolve().parents[1] / "docs"
REGISTRIES = DOCS / "registries"
CUDA_CODE = REGISTRIES / "tile-ai-tvm-cuda-code.toml"


def load(tmp_path: Path, text: str, name: str = "registry.toml") -> Registry:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return targetlang.load_registry(path)


def error(tmp_path: Path, text: str, name: str = "registry.toml") -> str:
    """The message of the RegistryError loading ``text`` raises, less the file's name before it."""
    with pytest.raises(RegistryError) as info:
        load(tmp_path, text, name)
    prefix = f"{tmp_path / name}: "
    assert str(info.value).startswith(prefix)
    return str(info.value)[len(prefix) :]


# --------------------------------------------------------------------------- the documented fork registries


@pytest.mark.parametrize(
    ("name", "spec", "resolved"),
    [
        (
            "tile-ai-tvm-hip.toml",
            "{kind: hip, mcpu: gfx942}",
            "hip -keys=hip,gpu -max_num_threads=256 -max_shared_memory_per_block=65536 -max_threads_per_block=256 "
            "-mcpu=gfx942 -mtriple=amdgcn-amd-amdhsa-hcc -thread_warp_size=64",
        ),
        (
            "tile-ai-tvm-cuda-code.toml",
            "{kind: cuda, arch: sm_90a, code: [sm_90a, sm_100a]}",
            "cuda -keys=cuda,gpu -arch=sm_90a -code=sm_90a,sm_100a -max_num_threads=1024 -thread_warp_size=32",
        ),
        (
            "tile-ai-tvm-cuda-code.toml",
            "cuda -arch=sm_80 -code=sm_80,sm_86 -max_num_threads=512",
            "cuda -keys=cuda,gpu -arch=sm_80 -code=sm_80,sm_86 -max_num_threads=512 -thread_warp_size=32",
        ),
        (
            "tilelang-cutedsl.toml",
            "{kind: cutedsl, arch: sm_90a}",
            "cutedsl -keys=cuda,gpu,cutedsl -arch=sm_90a -max_num_threads=1024 -thread_warp_size=32",
        ),
        (
            "tilelang-cutedsl.toml",
            "{tag: tilelang/cutedsl-h100}",
            "cutedsl -keys=cuda,gpu,cutedsl -tag=tilelang/cutedsl-h100 -arch=sm_90a -max_num_threads=1024 "
            "-thread_warp_size=32",
        ),
    ],
)
def test_a_documented_registry_reads_a_target_of_its_kind(name: str, spec: str, resolved: str) -> None:
    registry = targetlang.load_registry(REGISTRIES / name)
    assert str(parse(spec, registry=registry).resolve()) == resolved


def test_every_documented_registry_is_read_and_each_of_its_kinds_parses() -> None:
    files = sorted(path.name for path in REGISTRIES.glob("*.toml"))
    assert files == ["tile-ai-tvm-cuda-code.toml", "tile-ai-tvm-hip.toml", "tilelang-cutedsl.toml"]
    for name in files:
        text = (REGISTRIES / name).read_text(encoding="utf-8")
        assert "Source: github.com/" in text and "commit " in text  # each names the fork it is from
        registry = targetlang.load_registry(REGISTRIES / name)
        for kind in tomllib.loads(text)["kinds"]:
            assert parse({"kind": kind}, registry=registry).resolve().kind == kind


def test_cuda_extended_keeps_every_built_in_attribute() -> None:
    builtin = builtin_registry()
    extended = targetlang.load_registry(CUDA_CODE)
    assert set(extended.kinds["cuda"].attrs) == {*builtin.kinds["cuda"].attrs, "code"}
    assert all(extended.kinds["cuda"].attrs[name] == spec for name, spec in builtin.kinds["cuda"].attrs.items())
    assert str(extended.kinds["cuda"].attrs["code"].type) == "array<string>"
    assert {name: kind for name, kind in extended.kinds.items() if name != "cuda"} == {
        name: kind for name, kind in builtin.kinds.items() if name != "cuda"
    }
    target = parse("cuda -code=sm_80 -max_num_threads=512", registry=extended).resolve()
    assert (target["max_num_threads"], target["code"], target["thread_warp_size"]) == (512, ("sm_80",), 32)


# --------------------------------------------------------------------------- extend, replace, redefine


@pytest.mark.parametrize(
    ("text", "spec", "resolved"),
    [
        # extend: a new attribute, the built-in ones kept
        (
            '[kinds.c]\nextend = true\nattrs = { opt = "int" }\n',
            "c -opt=3 -march=x86-64",
            "c -keys=cpu -march=x86-64 -opt=3",
        ),
        # extend, in JSON
        (
            '{"kinds": {"c": {"extend": true, "attrs": {"opt": "int"}}}}',
            "c -opt=3 -mcpu=x",
            "c -keys=cpu -mcpu=x -opt=3",
        ),
        # extend with a default, and extend = false: a redefinition that keeps every attribute
        (
            '[kinds.c]\nextend = true\nattrs = { opt = { type = "int", default = 2 } }\n',
            "c",
            "c -keys=cpu -opt=2",
        ),
        (
            '[kinds.c]\nextend = false\nattrs = { mcpu = "string", march = "string", workspace-byte-alignment = "int", '
            'constants-byte-alignment = "int", opt = "int" }\ndefault_keys = ["cpu"]\n',
            "c -opt=3 -march=x86-64",
            "c -keys=cpu -march=x86-64 -opt=3",
        ),
        # replace: the kind as declared, its built-in attributes gone
        (
            '[kinds.c]\nreplace = true\nattrs = { opt = "int" }\ndefault_keys = ["cpu"]\n',
            "c -opt=3",
            "c -keys=cpu -opt=3",
        ),
    ],
)
def test_a_registry_file_extends_or_replaces_a_built_in_kind(
    tmp_path: Path, text: str, spec: str, resolved: str
) -> None:
    name = "registry.json" if text.startswith("{") else "registry.toml"
    assert str(parse(spec, registry=load(tmp_path, text, name)).resolve()) == resolved


def test_a_tag_of_the_file_may_use_what_it_adds_to_a_built_in_kind(tmp_path: Path) -> None:
    text = '[kinds.cuda]\nextend = true\nattrs = { code = "array<string>" }\n\n[tags."fork/h100"]\nkind = "cuda"\n'
    registry = load(tmp_path, text + 'arch = "sm_90a"\ncode = ["sm_90a"]\n')
    assert str(parse("fork/h100", registry=registry).resolve()) == (
        "cuda -keys=cuda,gpu -arch=sm_90a -code=sm_90a -max_num_threads=1024 -thread_warp_size=32"
    )
    # A tag is checked against the extended kind: an attribute the file does not add is still unknown.
    with pytest.raises(targetlang.UnknownAttributeError) as info:
        load(tmp_path, text + "cores = 4\n")
    assert info.value.message == (
        f"{tmp_path / 'registry.toml'}: in tag 'fork/h100': kind 'cuda' has no attribute 'cores'; did you mean 'code'?"
    )


def test_a_replaced_kind_has_only_what_the_file_declares(tmp_path: Path) -> None:
    registry = load(tmp_path, '[kinds.c]\nreplace = true\nattrs = { opt = "int" }\n')
    with pytest.raises(targetlang.UnknownAttributeError):
        parse("c -march=x86-64", registry=registry)


_REDEFINE = (
    "to add attributes to it, write 'extend = true' and the new attributes only; to redefine it, write 'replace = true'"
)


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        (
            "registry.toml",
            'base = "0.22"\n\n[kinds.c]\nattrs = { mcpu = "string" }\n',
            "kind 'c' redefines TVM v0.22's built-in kind and drops its attributes 'march', "
            f"'workspace-byte-alignment', 'constants-byte-alignment': {_REDEFINE} (line 3, column 8)\n"
            "  [kinds.c]\n"
            "         ^",
        ),
        (
            "registry.toml",
            'base = "0.22"\n\n[kinds.cuda]\nattrs = { code = "string" }\n',
            "kind 'cuda' redefines TVM v0.22's built-in kind and drops its attributes 'mcpu', 'arch', "
            "'max_shared_memory_per_block', 'max_threads_per_block', 'thread_warp_size', 'registers_per_block' and 2 "
            f"more: {_REDEFINE} (line 3, column 8)\n"
            "  [kinds.cuda]\n"
            "         ^^^^",
        ),
        (
            "registry.toml",
            '[kinds.c.attrs]\nmcpu = "int"\nmarch = "string"\nworkspace-byte-alignment = "int"\n'
            'constants-byte-alignment = "int"\n',
            f"kind 'c' redefines TVM v0.22's built-in kind and changes the type of 'mcpu' from string to int: "
            f"{_REDEFINE} (line 1, column 8)\n"
            "  [kinds.c.attrs]\n"
            "         ^",
        ),
        (
            "registry.toml",
            '# a dotted key\nkinds.c.attrs = { opt = "int" }\n',
            f"kind 'c' redefines TVM v0.22's built-in kind and drops its attributes 'mcpu', 'march', "
            f"'workspace-byte-alignment', 'constants-byte-alignment': {_REDEFINE} (line 2, column 7)\n"
            '  kinds.c.attrs = { opt = "int" }\n'
            "        ^",
        ),
        (
            "registry.toml",
            '[kinds]\nnpu = {}\n"c" = { attrs = {} }\n',
            f"kind 'c' redefines TVM v0.22's built-in kind and drops its attributes 'mcpu', 'march', "
            f"'workspace-byte-alignment', 'constants-byte-alignment': {_REDEFINE} (line 3, column 1)\n"
            '  "c" = { attrs = {} }\n'
            "  ^^^",
        ),
        (
            "registry.json",
            '{\n  "kinds": {\n    "c": {"attrs": {"opt": "int"}}\n  }\n}\n',
            f"kind 'c' redefines TVM v0.22's built-in kind and drops its attributes 'mcpu', 'march', "
            f"'workspace-byte-alignment', 'constants-byte-alignment': {_REDEFINE} (line 3, column 5)\n"
            '      "c": {"attrs": {"opt": "int"}}\n'
            "      ^^^",
        ),
        (
            "registry.toml",
            "[kinds.c]\nextend = true\nreplace = true\n",
            "kind 'c' says both 'extend = true' and 'replace = true': an extension keeps the built-in kind's "
            "attributes, a replacement does not (line 1, column 8)\n"
            "  [kinds.c]\n"
            "         ^",
        ),
        (
            "registry.toml",
            '[kinds.c]\nextend = "yes"\n',
            "kind 'c': 'extend' must be true or false, not a string (line 2, column 1)\n  extend = \"yes\"\n  ^^^^^^",
        ),
        (
            "registry.toml",
            '[kinds.hip]\nextend = true\nattrs = { mcpu = "string" }\n',
            "kind 'hip' says 'extend = true', but the file's base, TVM v0.22, has no such kind: declare the kind "
            "without 'extend' (line 1, column 8)\n"
            "  [kinds.hip]\n"
            "         ^^^",
        ),
        (
            "registry.toml",
            'removed_kinds = ["c"]\n\n[kinds.c]\nextend = true\n',
            "kind 'c' says 'extend = true', but the file removes it ('removed_kinds'): declare the kind without "
            "'extend' (line 3, column 8)\n"
            "  [kinds.c]\n"
            "         ^",
        ),
        (
            "registry.toml",
            '[kinds.c]\nextend = true\ndefault_keys = ["cpu", "c"]\n',
            "kind 'c': an extension adds attributes ('attrs') only, not 'default_keys': to change the kind itself, "
            "redefine it with 'replace = true' (line 1, column 8)\n"
            "  [kinds.c]\n"
            "         ^",
        ),
        (
            "registry.toml",
            '[kinds.c]\nextend = true\nattrs = { mcpu = "int" }\n',
            "kind 'c': 'mcpu' is an attribute of the built-in kind already; an extension adds attributes: to change "
            "one, redefine the kind with 'replace = true' (line 3, column 11)\n"
            '  attrs = { mcpu = "int" }\n'
            "            ^^^^",
        ),
        # what a kind's own table says is checked as for any kind
        (
            "registry.toml",
            '[kinds.c]\nextend = true\nattrs = { opt = { type = "int", default = "two" } }\n',
            "kind 'c', attribute 'opt': the default \"two\" does not fit: attribute 'opt' must be an integer, not a "
            "string",
        ),
    ],
)
def test_error_extend_or_redefine(tmp_path: Path, name: str, text: str, message: str) -> None:
    assert error(tmp_path, text, name) == message


def test_a_kind_the_file_removed_then_declares_is_no_redefinition(tmp_path: Path) -> None:
    registry = load(tmp_path, 'removed_kinds = ["c"]\n\n[kinds.c]\nattrs = { opt = "int" }\ndefault_keys = ["c"]\n')
    assert str(parse("c -opt=1", registry=registry).resolve()) == "c -keys=c -opt=1"


# --------------------------------------------------------------------------- written back


def test_dump_writes_extend_for_an_extended_kind(tmp_path: Path) -> None:
    extended = targetlang.load_registry(CUDA_CODE)
    assert targetlang.dump_registry(extended, "toml") == (
        'base = "0.22"\n\n[kinds.cuda]\nextend = true\nattrs = { code = "array<string>" }\n'
    )
    assert json.loads(targetlang.dump_registry(extended, "json")) == {
        "base": "0.22",
        "kinds": {"cuda": {"extend": True, "attrs": {"code": "array<string>"}}},
        "tags": {},
    }
    for fmt in ("toml", "json"):
        assert load(tmp_path, targetlang.dump_registry(extended, fmt), f"again.{fmt}") == extended


def test_dump_writes_replace_for_a_redefined_kind(tmp_path: Path) -> None:
    replaced = load(tmp_path, '[kinds.c]\nreplace = true\nattrs = { opt = "int" }\n')
    assert targetlang.dump_registry(replaced, "toml") == (
        'base = "0.22"\n\n[kinds.c]\nreplace = true\nattrs = { opt = "int" }\ndefault_keys = []\ndevice_type = 1\n'
        "leaf = true\n"
    )
    # A redefinition made in Python, which keeps the attributes but changes the keys, is written as one too.
    rekeyed = builtin_registry().register_kind("c", {"mcpu": "string", "march": "string"}, default_keys=["c"])
    text = targetlang.dump_registry(rekeyed, "toml")
    assert "[kinds.c]\nreplace = true\n" in text
    for registry in (replaced, rekeyed):
        for fmt in ("toml", "json"):
            assert load(tmp_path, targetlang.dump_registry(registry, fmt), f"again.{fmt}") == registry


def test_dump_of_an_extension_made_in_python_is_an_extension(tmp_path: Path) -> None:
    builtin = builtin_registry()
    cuda = builtin.kinds["cuda"]
    attrs = {**cuda.attrs, "code": targetlang.AttrSpec("code", targetlang.TypeSpec.parse("array<string>"))}
    made = builtin.with_kind(replace(cuda, attrs=attrs))
    assert targetlang.dump_registry(made, "toml") == targetlang.dump_registry(
        targetlang.load_registry(CUDA_CODE), "toml"
    )


# --------------------------------------------------------------------------- the command line


def test_cli_commands_read_with_an_extending_registry(run: Run, tmp_path: Path) -> None:
    spec = "cuda -arch=sm_80 -code=sm_80,sm_86 -max_num_threads=512"
    status, out, _ = run("--registry", str(CUDA_CODE), "fmt", spec)
    assert (status, out) == (0, "cuda -arch=sm_80 -code=sm_80,sm_86 -max_num_threads=512\n")
    # migrate writes for upstream TVM, which lacks the fork's 'code': kept on request, beside the built-in attributes.
    status, out, _ = run("--registry", str(CUDA_CODE), "migrate", "--policy", "keep", spec)
    assert status == 0
    assert json.loads(out) == {"kind": "cuda", "arch": "sm_80", "code": ["sm_80", "sm_86"], "max_num_threads": 512}
    status, out, _ = run("--registry", str(CUDA_CODE), "migrate", "cuda -arch=sm_80 -max_num_threads=512")
    assert (status, json.loads(out)) == (0, {"kind": "cuda", "arch": "sm_80", "max_num_threads": 512})


def test_fix_reads_with_an_extending_registry(run: Run, tmp_path: Path) -> None:
    source = tmp_path / "build.py"
    source.write_text('import tvm\nt = tvm.target.Target("cuda -arch=sm_80 -max_num_threads=512")\n', encoding="utf-8")
    status, _, _ = run("fix", "--registry", str(CUDA_CODE), "--write", str(source))
    assert status == 0
    assert source.read_text(encoding="utf-8") == (
        'import tvm\nt = tvm.target.Target({"kind": "cuda", "arch": "sm_80", "max_num_threads": 512})\n'
    )


def test_cli_names_the_position_of_a_redefinition(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "fork.toml"
    path.write_text('base = "0.22"\n\n[kinds.c]\nattrs = { mcpu = "string" }\n', encoding="utf-8")
    status, out, err = run("--registry", str(path), "fmt", "c")
    assert (status, out) == (1, "")
    assert err == (
        f"error: {path}: kind 'c' redefines TVM v0.22's built-in kind and drops its attributes 'march', "
        f"'workspace-byte-alignment', 'constants-byte-alignment': {_REDEFINE} (line 3, column 8)\n"
        "  [kinds.c]\n"
        "         ^\n"
    )


def test_the_documented_redefinition_error_is_what_the_cli_prints(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    doc = (DOCS / "composite.md").read_text(encoding="utf-8")
    start = doc.index("```text\n$ targetlang --registry fork.toml fmt cuda\n")
    command, *shown = doc[start : doc.index("```\n", start + 3)].splitlines()[1:]
    (tmp_path / "fork.toml").write_text(
        'base = "0.22"\n\n[kinds.cuda]\nattrs = { code = "string" }\n', encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    status, out, err = run(*command.split()[2:])  # (less "$ targetlang")
    assert (status, out, err.splitlines()) == (1, "", shown)
    assert shown[1:] == ["  [kinds.cuda]", "         ^^^^"]
