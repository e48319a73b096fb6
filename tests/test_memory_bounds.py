"""Registries and specs that once took gigabytes: dotted TOML keys (tomllib's cost grows with the
square of a key's parts), tags naming tags twice at each level ("billion laughs"), and JSON
nesting millions of levels deep. Each attack is read in a child process whose address space is
capped at 500 MB, with a timeout against a hang: before, they took 1.6 GB (a key of 20,000
parts), over 1.3 GB and a minute (40 levels of tags), 3.9 GB and 84 s (2,000,000 hosts deep).
The bounds themselves (docs/reliability.md, "Limits") are checked exactly in this process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import targetlang
from targetlang import NestingTooDeepError, Registry, RegistryError, builtin_registry, parse
from targetlang import _reading as reading
from targetlang._json_text import json_objects
from targetlang._registry import MAX_CHECKED_TAG_TARGETS, MAX_TAG_DEPTH, MAX_TAG_TARGETS
from targetlang._registry_files import MAX_KEY_PARTS, MAX_TOML_BYTES
from targetlang._syntax import MAX_JSON_DEPTH

ROOT = Path(__file__).resolve().parents[1]
CAP = 500 * 1024 * 1024  # bytes of address space a child may take
TIMEOUT = 120  # seconds: a child still running then hangs (each takes a second or two)


def _capped(code: str, *argv: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a child whose address space is capped at CAP (this targetlang first on
    its path); its argv after the code is ``argv``."""
    cap = f"import resource\nresource.setrlimit(resource.RLIMIT_AS, ({CAP}, {CAP}))\n"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    done = subprocess.run(
        [sys.executable, "-c", cap + code, *argv],
        input=stdin,
        capture_output=True,
        timeout=TIMEOUT,
        env=env,
        check=False,
    )
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout.decode(), done.stderr.decode())


_CLI = (
    "import runpy, sys\nsys.argv = ['targetlang', *sys.argv[1:]]\nrunpy.run_module('targetlang', run_name='__main__')\n"
)
_LOAD = (
    "import sys, targetlang\n"
    "try:\n"
    "    targetlang.load_registry(sys.argv[1])\n"
    "except targetlang.RegistryError as err:\n"
    "    print(err.message)\n"
)


def dotted(parts: int) -> str:
    return ".".join(["a"] * parts)


def laughs(levels: int) -> dict[str, Any]:
    """A registry file's data: t0 is llvm, and each tag after it names the one before twice."""
    tags: dict[str, Any] = {"t0": {"kind": "llvm"}}
    for level in range(1, levels + 1):
        tags[f"t{level}"] = {"kind": "composite", "devices": [f"t{level - 1}", f"t{level - 1}"]}
    return {"tags": tags}


def nested_hosts(depth: int) -> str:
    return '{"kind": "llvm", "host": ' * depth + '{"kind": "llvm"}' + "}" * depth


# ------------------------------------------------------------------ the attacks, in capped children


def test_a_dotted_key_of_20000_parts_is_refused_in_little_memory(tmp_path: Path) -> None:
    path = tmp_path / "r.toml"
    path.write_text('base = "0.22"\n' + dotted(20_000) + " = 1\n")
    done = _capped(_LOAD, str(path))
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == (
        f"{path}: line 2: a dotted key of 20,000 parts is too deep: a key of the TOML targetlang reads has 64 parts at "
        "most, its table's included\n"
    )
    done = _capped(_CLI, "--registry", str(path), "parse", "llvm")
    assert done.returncode == 1
    assert done.stderr.startswith(f"error: {path}: line 2: a dotted key of 20,000 parts is too deep")


def test_tags_naming_tags_twice_at_each_level_are_refused_in_little_memory(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(laughs(40)))
    done = _capped(_LOAD, str(path))
    assert (done.returncode, done.stderr) == (0, "")
    # t9 stands for 2 ** 10 - 1 targets, the first tag over the bound
    assert done.stdout == (
        f"{path}: in tag 't9': it expands to more than 1,000 targets (a tag counts each time it is named)\n"
    )
    done = _capped(_CLI, "--registry", str(path), "parse", "llvm")
    assert done.returncode == 1
    assert done.stderr.startswith(f"error: {path}: in tag 't9': it expands to more than 1,000 targets")


def test_a_json_spec_two_million_hosts_deep_is_refused_in_little_memory() -> None:
    text = nested_hosts(2_000_000)  # 52 MB
    code = (
        "import sys, targetlang\n"
        "text = sys.stdin.read()\n"
        "try:\n"
        "    targetlang.parse(text)\n"
        "except targetlang.NestingTooDeepError as err:\n"
        "    print(err.message, err.start, err.end == len(text))\n"
    )
    done = _capped(code, stdin=text.encode())
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == "JSON nests more than 100 levels deep 0 True\n"
    for command in ("parse", "explain"):
        done = _capped(_CLI, command, "-", stdin=text.encode())
        assert done.returncode == 1
        assert done.stderr.splitlines()[0] == "error: JSON nests more than 100 levels deep"


# ------------------------------------------------------------------ the bounds of a TOML registry file


def _load_toml(tmp_path: Path, text: str) -> Registry:
    path = tmp_path / "r.toml"
    path.write_text(text)
    return targetlang.load_registry(path)


def _refused(tmp_path: Path, text: str) -> str:
    with pytest.raises(RegistryError) as info:
        _load_toml(tmp_path, text)
    prefix = f"{tmp_path / 'r.toml'}: "
    assert info.value.message.startswith(prefix)
    return info.value.message[len(prefix) :]


def test_the_key_bound_is_documented() -> None:
    assert MAX_KEY_PARTS == 64 and MAX_TOML_BYTES == 512 * 1024


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (f"[{dotted(65)}]\n", "line 1: a table header of 65 parts"),
        (f"[[{dotted(65)}]]\n", "line 1: a table header of 65 parts"),
        (f'base = "0.22"\n{dotted(65)} = 1\n', "line 2: a dotted key of 65 parts"),
        (f"k = {{{' . '.join(['a'] * 65)} = 1}}\n", "line 1: a dotted key of 65 parts"),
        ('["' + '"."'.join(["a.b"] * 65) + '"]\n', "line 1: a table header of 65 parts"),
        (f"[{dotted(32)}]\n{dotted(33)} = 1\n", "line 2: a dotted key of 65 parts (32 of them its table's)"),
        (f"[[{dotted(60)}]]\nk = 1\n{dotted(5)} = 1\n", "line 3: a dotted key of 65 parts (60 of them its table's)"),
    ],
)
def test_a_key_of_more_than_64_parts_is_refused(tmp_path: Path, text: str, message: str) -> None:
    assert _refused(tmp_path, text) == (
        f"{message} is too deep: a key of the TOML targetlang reads has 64 parts at most, its table's included"
    )


@pytest.mark.parametrize(
    "text",
    [
        f"[{dotted(64)}]\n",
        f"[[{dotted(64)}]]\n",
        f"{dotted(64)} = 1\n",
        f"[{dotted(32)}]\n{dotted(32)} = 1\n",
        f"[{dotted(60)}]\nk = {{{dotted(33)} = 1}}\n",  # an inline table's keys are its own
        f"k = '{dotted(100)}'\n",  # not keys: strings and comments
        f'k = """\n{dotted(100)} = 1\n"""\n',
        f"# {dotted(100)} = 1\nk = 1\n",
        f"[{dotted(63)}]\nx = 1.5\ny = 1979-05-27T07:32:00.999\n",  # a value's dots
    ],
)
def test_a_key_of_64_parts_is_read(tmp_path: Path, text: str) -> None:
    # read by tomllib: the registry then finds no field 'a' (or 'k')
    assert _refused(tmp_path, text).startswith("a registry file has no field")


def test_a_toml_file_beyond_512_kib_is_refused_and_one_of_512_kib_is_read(tmp_path: Path) -> None:
    head = '[tags.t]\nkind = "llvm"\n'
    text = head + "#" * (MAX_TOML_BYTES - len(head) - 1) + "\n"
    assert len(text) == MAX_TOML_BYTES
    assert set(_load_toml(tmp_path, text).tags) >= {"t"}
    assert _refused(tmp_path, text + "\n") == (
        "the TOML is more than 524,288 bytes, too large: a TOML registry file holds 524,288 bytes at most "
        "(a JSON one has no such bound)"
    )
    path = tmp_path / "r.json"  # a JSON file of the same size is read
    path.write_text('{"tags": {"t": {"kind": "llvm"}}}' + " " * MAX_TOML_BYTES)
    assert "t" in targetlang.load_registry(path).tags


def test_tvm_s_own_tables_as_a_toml_file_are_within_the_bounds(tmp_path: Path) -> None:
    base = builtin_registry()
    everything = Registry(tuple(base.kinds.values()), dict(base.tags))
    text = targetlang.dump_registry(everything, "toml")
    assert len(text.encode()) < MAX_TOML_BYTES // 4
    assert _load_toml(tmp_path, text) == everything


# ------------------------------------------------------------------ how far tags expand


def fan(width: int) -> Registry:
    """Tag 'fan' is a composite of ``width`` devices, each the tag 'leaf': 1 + width targets."""
    return (
        builtin_registry()
        .with_tag("leaf", {"kind": "llvm"})
        .with_tag("fan", {"kind": "composite", "devices": ["leaf"] * width})
    )


def test_the_tag_bounds_are_documented() -> None:
    assert (MAX_TAG_TARGETS, MAX_TAG_DEPTH, MAX_CHECKED_TAG_TARGETS) == (1_000, 32, 50_000)


def test_a_tag_expanding_to_1000_targets_is_read_and_to_1001_is_not() -> None:
    assert len(parse("fan", registry=fan(999))["devices"]) == 999
    with pytest.raises(RegistryError) as info:
        parse("fan", registry=fan(1000))
    assert str(info.value) == (
        "in tag 'fan': it expands to more than 1,000 targets (a tag counts each time it is named)\n  fan\n  ^^^"
    )


def test_tags_named_in_a_text_count_together() -> None:
    registry = fan(400)  # 401 targets each
    assert len(parse("composite -devices=fan,fan", registry=registry)["devices"]) == 2
    for text in ("composite -devices=fan,fan,fan", '{"kind": "composite", "devices": ["fan", "fan", "fan"]}'):
        with pytest.raises(RegistryError) as info:
            parse(text, registry=registry)
        assert info.value.message == (
            "in tag 'fan': with the tags named before it, it expands to more than 1,000 targets "
            "(a tag counts each time it is named)"
        )
        # at the third: a reading that failed and was read again another way counted once
        assert info.value.span == (text.rindex("fan"), text.rindex("fan") + 3)


@pytest.mark.parametrize(
    "spec",
    [
        '{"kind": "cuda", "host": "fan"}',
        "cuda -host=fan",
        "{kind: cuda, host: fan}",
        '{"tag": "fan"}',
        {"kind": "cuda", "host": "fan"},
        {"kind": "composite", "devices": [{"tag": "fan"}]},
    ],
)
def test_a_host_or_device_naming_a_large_tag_is_refused(spec: Any) -> None:
    with pytest.raises(RegistryError) as info:
        parse(spec, registry=fan(1000))
    assert info.value.message.startswith("in tag 'fan': it expands to more than 1,000 targets")
    if isinstance(spec, str):
        assert spec[info.value.start : info.value.end].strip('"') == "fan"


def extending(count: int) -> Registry:
    """t0 is llvm; each tag after it is the one before with a CPU of its own."""
    registry = builtin_registry().with_tag("t0", {"kind": "llvm"})
    for level in range(1, count + 1):
        registry = registry.with_tag(f"t{level}", {"tag": f"t{level - 1}", "mcpu": f"c{level}"})
    return registry


def test_tags_name_tags_32_deep_and_no_deeper() -> None:
    registry = extending(40)
    assert parse("t32", registry=registry)["mcpu"] == "c32"
    for spec in ("t33", '{"tag": "t40"}', "cuda -host=t33"):
        with pytest.raises(RegistryError) as info:
            parse(spec, registry=registry)
        outer = "t40" if "t40" in spec else "t33"
        assert info.value.message == (
            f"in tag '{outer}': tags name tags more than 32 deep ('{outer}' -> "
            f"'t{int(outer[1:]) - 1}' -> ... -> 't{int(outer[1:]) - 33}')"
        )


def test_a_long_chain_of_tags_extending_tags_is_refused_at_once(tmp_path: Path) -> None:
    # 3,000 tags each extending the one before: each check walked the whole chain (more than two
    # minutes before)
    tags: dict[str, Any] = {"t0": {"kind": "llvm"}}
    for level in range(1, 3001):
        tags[f"t{level}"] = {"tag": f"t{level - 1}", "mcpu": "x"}
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"tags": tags}))
    done = _capped(_LOAD, str(path))
    assert done.stdout == f"{path}: in tag 't33': tags name tags more than 32 deep ('t33' -> 't32' -> ... -> 't0')\n"


def test_checking_a_registry_makes_at_most_50000_targets_of_its_tags(tmp_path: Path) -> None:
    # 'leaf' and 'fan' are 1,000 targets, each tag naming 'fan' 1,000 more: 49 of them are
    # checked, 50 are not (each within its own bound of 1,000)
    tags: dict[str, Any] = {"leaf": {"kind": "llvm"}, "fan": {"kind": "composite", "devices": ["leaf"] * 998}}
    naming = {f"a{i}": {"kind": "composite", "devices": ["fan"]} for i in range(50)}
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"tags": {**tags, **dict(list(naming.items())[:49])}}))
    registry = targetlang.load_registry(path)
    assert len(parse("a0", registry=registry)["devices"][0]["devices"]) == 998  # a reading of its own
    path.write_text(json.dumps({"tags": {**tags, **naming}}))
    with pytest.raises(RegistryError) as info:
        targetlang.load_registry(path)
    assert info.value.message == (
        f"{path}: in tag 'a49': the registry's tags expand to more than 50,000 targets in all "
        "(a tag counts each time it is named)"
    )


@pytest.mark.parametrize("form", ["JSON text", "legacy string"])
def test_a_failing_reading_of_tags_in_texts_reads_each_level_a_few_times(
    form: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each tag's device is a text naming the tag before. A quick reading (the decoder's, or of a
    # plain legacy value) that fails is read again to say why; every level read twice over made
    # 2 ** n readings (65,536 for 16 levels, 214 s for 20 in JSON text), now about n * n / 2.
    levels = 16
    tags: dict[str, Any] = {"t0": {"kind": "llvm"}}
    for level in range(1, levels + 1):
        before = f"t{level - 1}"
        device = json.dumps({"tag": before}) if form == "JSON text" else f"composite -devices={before}"
        tags[f"t{level}"] = {"kind": "composite", "devices": [device]}
    registry = Registry.from_dict({"tags": tags})
    readings = [0]
    real = reading.parse_text

    def counted(*args: Any) -> Any:
        readings[0] += 1
        return real(*args)

    monkeypatch.setattr(reading, "parse_text", counted)
    # one target level short of what the tags nest (a legacy device nests a composite in each)
    depth = levels - 1 if form == "JSON text" else 2 * levels - 2
    with pytest.raises(NestingTooDeepError, match=f"more than {depth} levels"):
        parse(f"t{levels}", registry=registry, max_depth=depth)
    assert readings[0] < 2 * levels * levels


# ------------------------------------------------------------------ JSON depth, counted as it is read


@pytest.mark.parametrize(("max_depth", "limit"), [(None, MAX_JSON_DEPTH), (60, 124)])
@pytest.mark.parametrize("shape", ["arrays", "objects"])
def test_the_json_limit_is_exact_and_its_error_unchanged(max_depth: int | None, limit: int, shape: str) -> None:
    def text(levels: int) -> str:
        # the target's own object is one level
        if shape == "arrays":
            return '{"kind": "llvm", "mattr": ' + "[" * (levels - 1) + "]" * (levels - 1) + "}"
        return '{"kind": "llvm", "x": ' + '{"a": ' * (levels - 1) + "1" + "}" * (levels - 1) + "}"

    within, beyond = text(limit), text(limit + 1)
    try:
        parse(within, max_depth=max_depth)
    except targetlang.TargetError as err:  # read past the JSON: the target is what is wrong
        assert not isinstance(err, NestingTooDeepError), err
    with pytest.raises(NestingTooDeepError) as info:
        parse(beyond, max_depth=max_depth)
    assert (info.value.message, info.value.span) == (f"JSON nests more than {limit} levels deep", (0, len(beyond)))


def test_the_json_depth_error_comes_at_the_first_bracket_too_deep() -> None:
    # what follows the bracket too deep is not read: here, an error of syntax
    text = "{kind: llvm, mattr: " + "[" * 101 + "!" + "]" * 101 + "}"
    with pytest.raises(NestingTooDeepError, match="more than 100 levels"):
        parse(text)
    # an error before it is the error
    text = "{kind: llvm, !: " + "[" * 101 + "]" * 101 + "}"
    with pytest.raises(targetlang.InvalidJSONError) as info:
        parse(text)
    assert info.value.start == text.index("!")


def test_json_objects_stops_at_the_depth_asked() -> None:
    text = '{"a": {"b": [{"c": 1}]}, "d": {}}'
    assert json_objects(text) == ([(13, 21), (6, 23), (30, 32), (0, 33)], 4)
    assert json_objects(text, 4) == ([], 4)
    assert json_objects(text, 3) == ([], 3)
    assert json_objects(text, 5) == json_objects(text)


def test_fix_refuses_a_pyproject_with_a_long_dotted_key_within_the_bounds(tmp_path: Path) -> None:
    # fix reads the project's pyproject.toml for its settings and line length: a key of 40,000
    # parts took tomllib 25 s and then a MemoryError past 4 GB. Now the file is bounded as a
    # registry file is: one past the bounds is a bad configuration (as ruff says of a pyproject
    # it cannot read), said on one line, and nothing is written.
    pytest.importorskip("libcst")
    (tmp_path / "pyproject.toml").write_text(dotted(40_000) + " = 1\n[tool.ruff]\nline-length = 30\n")
    source = tmp_path / "a.py"
    before = 'import tvm\nt = tvm.target.Target("llvm -mcpu=skylake -mattr=+avx2")\n'
    source.write_text(before)
    done = _capped(_CLI, "fix", "--write", str(source))
    assert done.returncode == 2
    assert done.stderr.endswith(
        "pyproject.toml: line 1: a dotted key of 40,000 parts is too deep: a key of the TOML targetlang "
        "reads has 64 parts at most, its table's included\n"
    )
    assert done.stderr.startswith("error: ") and done.stderr.count("\n") == 1
    assert source.read_text() == before
