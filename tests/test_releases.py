"""Each release's registry against what that real TVM registered, and the table of releases.

``tests/data/oracle/schemas-v0.19.json`` and ``schemas-v0.21.json`` were recorded from real TVM
v0.19.0 and v0.21.0 (``tests/oracle/record_schemas.py``): every kind with its options and the
``export()`` of a bare ``Target({"kind": NAME})``, and every tag with its target's ``export()``.
``builtin_registry(version)`` must give the same kinds, the same attribute names, and the same
resolved target for each bare kind and each tag.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import targetlang
from targetlang import Environment, Target, builtin_registry, parse
from targetlang._eras import ERAS, era_registry, release_reading
from targetlang._versions import DEFAULT, LAST_LEGACY, MODERN, RELEASES, SCHEMA_RELEASES, Version, release

from .conftest import data_path
from .newest import NEWEST, NEWEST_MINOR, UNKNOWN

ORACLE_ENV = Environment(host_triple="x86_64-pc-linux-gnu")
# Kinds whose source files TVM compiled only with a build option (USE_CUTLASS, USE_TENSORRT, ...)
# that the oracle's wheel was built without: in the release's source, absent from its registry.
BUILD_OPTION_KINDS = {"0.19": {"clml", "cublas", "cudnn", "cutlass", "mrvl", "tensorrt"}, "0.21": set()}
# Kinds a bare config cannot build: composite needs devices.
NEEDS_MORE = {"composite"}


def _oracle(version: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(data_path(f"oracle/schemas-v{version}.json").read_text(encoding="utf-8"))
    return data


def _export(resolved: Target) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": resolved.kind, "tag": resolved.tag, "keys": list(resolved.keys)}
    if resolved.host is not None:
        out["host"] = _export(resolved.host)
    for name, value in resolved.attrs.items():
        out[name] = list(value) if isinstance(value, tuple) else value
    return out


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


@pytest.mark.parametrize("version", ["0.19", "0.21"])
def test_kinds_are_the_releases_own(version: str) -> None:
    oracle = _oracle(version)["kinds"]
    registry = builtin_registry(version)
    assert set(registry.kinds) == set(oracle) | BUILD_OPTION_KINDS[version]
    for name, kind in oracle.items():
        options = {option for option, _ in kind["options"]}
        assert set(registry.kinds[name].attrs) == options, name
        assert registry.kinds[name].default_keys == tuple(kind["default_keys"]), name
        assert registry.kinds[name].device_type == kind["device_type"], name


CASES = [
    (version, name)
    for version in ("0.19", "0.21")
    for name, kind in sorted(_oracle(version)["kinds"].items())
    if "export" in kind and name not in NEEDS_MORE
]


@pytest.mark.parametrize(("version", "name"), CASES, ids=[f"{v}:{n}" for v, n in CASES])
def test_a_bare_kind_resolves_as_that_release_built_it(version: str, name: str) -> None:
    expected = _oracle(version)["kinds"][name]["export"]
    resolved = parse({"kind": name}, registry=builtin_registry(version)).resolve(ORACLE_ENV)
    assert _export(resolved) == expected


TAGS = [(version, name) for version in ("0.19", "0.21") for name in sorted(_oracle(version)["tags"])]


@pytest.mark.parametrize(("version", "name"), TAGS, ids=[f"{v}:{n}" for v, n in TAGS])
def test_a_tag_is_what_that_release_registered(version: str, name: str) -> None:
    expected = _oracle(version)["tags"][name]
    resolved = parse(name, registry=builtin_registry(version)).resolve(ORACLE_ENV)
    got = _export(resolved)
    # TVM's export names the tag it was built from only where the config does: a tag's target
    # has tag "" in v0.19 - v0.21 (the name is not kept)
    assert _plain(got) == _plain(expected)


def test_the_cases_are_there() -> None:
    # fewer means a golden file was cut short, not that targetlang agrees
    assert len(CASES) > 30 and len(TAGS) > 500


# ------------------------------------------------------------------------------ what the issue names


def test_v07_llvm_had_six_attributes_of_its_own() -> None:
    attrs = builtin_registry("0.7").kinds["llvm"].attrs
    assert [a for a in attrs if a not in ("keys", "tag", "device", "model", "libs")] == [
        "mattr",
        "mcpu",
        "mtriple",
        "mfloat-abi",
        "system-lib",
        "runtime",
    ]
    with pytest.raises(targetlang.UnknownAttributeError, match=r"until TVM v0\.20 added it"):
        parse("llvm -vector-width=256", era="0.7")


def test_opencl_alignment_default_came_in_v020() -> None:
    for version, default in (("0.19", None), ("0.20", 64)):
        spec = builtin_registry(version).kinds["opencl"].attrs.get("image_base_address_alignment")
        assert (spec.default if spec is not None else None) == default


def test_v019_has_its_own_kinds_and_tags() -> None:
    registry = builtin_registry("0.19")
    assert {"hybrid", "sdaccel", "aocl", "stackvm", "example_target_hook"} <= set(registry.kinds)
    assert registry.kinds["example_target_hook"].attrs["example_attribute"].default == 0
    assert not {"nvidia/geforce-rtx-5060-ti", "nvidia/nvidia-b100"} & set(registry.tags)
    with pytest.raises(targetlang.UnknownAttributeError):
        parse("llvm -vector-width=256", registry=registry)
    assert parse("llvm -vector-width=256", registry=builtin_registry("0.20"))["vector-width"] == 256


def test_an_era_reads_what_its_releases_had() -> None:
    assert era_registry("0.7") == builtin_registry("0.7")
    union = era_registry("0.8")
    for version in ("0.8", "0.9"):
        for name, kind in builtin_registry(version).kinds.items():
            assert set(kind.attrs) <= set(union.kinds[name].attrs)
        assert set(builtin_registry(version).tags) <= set(union.tags)
    assert "vector-width" not in union.kinds["llvm"].attrs


def test_release_reading_is_the_releases_era_and_registry() -> None:
    rules, registry = release_reading("0.8.0")
    assert (rules.name, registry) == ("0.8", builtin_registry("0.8"))
    rules, registry = release_reading("v0.19.0")
    assert (rules.name, registry) == ("0.22", builtin_registry("0.19"))
    rules, registry = release_reading("0.6.1")
    assert (rules.name, registry) == ("0.6", era_registry("0.6"))


def test_no_schema_before_v07_or_after_the_modern_release() -> None:
    for version in ("0.6", UNKNOWN, "1.0"):
        with pytest.raises(ValueError):
            builtin_registry(version)


# ------------------------------------------------------------------------------ the table


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("0.8.0", Version(0, 8)),
        ("v0.9.0", Version(0, 9)),
        ("0.7.dev0", Version(0, 7)),
        ("0.19.dev123", Version(0, 19)),
        ("0.9.dev1092+g0123abc", Version(0, 9)),
        ("0.22.0.post1", Version(0, 22)),
        ("0.25.0rc1", Version(0, 25)),
        ("0.22", Version(0, 22)),
    ],
)
def test_version_parse(text: str, expected: Version) -> None:
    assert Version.parse(text) == expected
    assert repr(Version.parse(text)) == f"Version('{expected.major}.{expected.minor}')"


@pytest.mark.parametrize("text", ["", "0", "abc", " 0.8.0", "0.8.0 ", "0.x", "v", "0.8.0-foo"])
def test_version_parse_rejects(text: str) -> None:
    with pytest.raises(ValueError, match="not a TVM version"):
        Version.parse(text)


@pytest.mark.parametrize(
    ("field", "expected"),
    [(" 0.9.dev12", Version(0, 9)), ("0.8.0-foo", Version(0, 8)), ("unknown", None), (None, None), (7, None)],
)
def test_version_find_in_a_log_field(field: object, expected: Version | None) -> None:
    assert Version.find(field) == expected


@pytest.mark.parametrize(
    ("version", "era", "schema", "legacy"),
    [
        ("0.1", "0.6", False, True),
        ("0.6", "0.6", False, True),
        ("0.7", "0.7", True, True),
        ("0.8", "0.8", True, True),
        ("0.9", "0.8", True, True),
        ("0.10", "0.22", True, True),
        ("0.23", "0.22", True, True),
        ("0.24", "0.22", True, False),
        ("0.27", "0.22", True, False),
    ],
)
def test_release_table(version: str, era: str, schema: bool, legacy: bool) -> None:
    found = release(version)
    assert (found.era, found.has_schema, found.reads_legacy) == (era, schema, legacy)
    assert found.era in ERAS and ERAS[found.era].first <= found.version <= max(ERAS[found.era].last, MODERN)


def test_the_table_bounds() -> None:
    assert (str(DEFAULT), str(LAST_LEGACY), str(MODERN)) == ("0.22", "0.23", NEWEST)
    assert SCHEMA_RELEASES == tuple(f"0.{m}" for m in range(7, NEWEST_MINOR + 1))
    assert list(RELEASES) == [f"0.{m}" for m in range(1, NEWEST_MINOR + 1)]
    with pytest.raises(ValueError, match="unknown TVM version"):
        release(f"{UNKNOWN}.0")
    assert Version(0, 9) < Version(0, 10) < Version(1, 0)


@pytest.mark.parametrize(
    ("version", "value", "reads"),
    [
        ("0.19", "2147483647", True),
        ("0.19", "2147483648", False),  # v0.10 - v0.20 read into a C int (TVM v0.19: "Cannot parse integer")
        ("0.20", "-2147483649", False),
        ("0.21", "2147483648", True),  # int64_t from v0.21
        ("0.22", "9223372036854775807", True),
        ("0.22", "9223372036854775808", False),
    ],
)
def test_an_integer_of_a_string_is_as_wide_as_that_release_read_it(version: str, value: str, reads: bool) -> None:
    text = f"c -workspace-byte-alignment={value}"
    registry = builtin_registry(version)
    if reads:
        assert parse(text, registry=registry)["workspace-byte-alignment"] == int(value)
    else:
        with pytest.raises(targetlang.ValueConversionError, match="cannot parse"):
            parse(text, registry=registry)
    assert release(version).int_bits == (64 if Version.parse(version) >= Version(0, 21) else 32)
