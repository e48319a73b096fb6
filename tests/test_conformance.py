"""Conformance with TVM's own tests: every case of tests/data/conformance/tvm-cases.jsonl (spec section 13).

Each case records what one TVM test asserted. A case is replayed according to its ``api`` (how
the TVM test built the target; absent means plain ``Target(input)``), and its ``expect`` /
``error`` / ``printed`` fields are checked against targetlang. ``via`` names the TVM helper
(``tvm.target.cuda()``, ...) that built ``input``; ``input`` already is the string it built, so
nothing needs replaying for it.

TVM ran its construction pipeline inside ``Target(...)``, so expectations about keys,
attributes, features and hosts are checked on ``parse(...).resolve(env)``; ``printed*`` checks
use ``to_legacy_str`` (TVM v0.22's ``str()``).
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import pytest

import targetlang
from targetlang import (
    Environment,
    KindSchema,
    Registry,
    Target,
    TargetError,
    UnknownKindError,
    ValueConversionError,
    builtin_registry,
    compat,
)
from targetlang import _tvmc as tvmc
from targetlang._resolution import is_mprofile, mprofile_parse

from .conftest import read_jsonl

Case = dict[str, Any]

CASE_LIST: list[Case] = read_jsonl("conformance", "tvm-cases.jsonl")
CASES: dict[str, Case] = {case["id"]: case for case in CASE_LIST}

# Cases not run, with the reason. None at present: every case has a runner.
WAITING: dict[str, str] = {}

TESTED: list[str] = [case_id for case_id in CASES if case_id not in WAITING]

# Single expectations of tested cases that the API cannot express; the rest of the case runs.
UNCHECKED: dict[tuple[str, str], str] = {
    ("c091", "llvm_command_line_options_empty"): (
        "the LLVM backend's parsed command-line options (LLVMTargetInfo) are outside a target parser"
    ),
}

# Cases about kinds or attributes that only older TVM releases had.
LEGACY_REGISTRY: dict[str, str] = {
    "c105": "0.19",  # hybrid
    "c106": "0.19",  # stackvm
    "c110": "0.19",  # sdaccel
    "c112": "0.19",  # aocl_sw_emu
    "c121": "0.8",  # link-params
    "c123": "0.8",
    "c124": "0.8",
    "c125": "0.8",  # system-lib
    "c126": "0.8",
    "c127": "0.7",  # composite target_host
    "c131": "0.8",  # link-params default
}

# Where real TVM disagrees with a case's expectation, real TVM wins: (the fields it gives, how it
# was seen). The case file keeps what the spec said.
REAL_TVM: dict[str, tuple[dict[str, Any], str]] = {
    "c112": (
        {"device_type_id": 32},
        "TVM v0.19 (tvm-oracle): Target('aocl_sw_emu').get_target_device_type() is 32, kDLAOCL of TVM's "
        "own TVMDeviceExtType (include/tvm/runtime/c_runtime_api.h), not DLPack's 5",
    ),
}

# Expected exception per error case; TargetError unless listed. TVM raised ValueError for
# every target-creation failure, and TargetError is one.
ERRORS: dict[str, type[Exception]] = {
    "c019": ValueConversionError,  # a map given for the array<string> attribute libs
    "c037": ValueError,  # canon_target_and_host: host without target (TVM: AssertionError)
    "c040": TypeError,  # canon_multi_target_and_host(None) (TVM: AssertionError)
    "c066": ValueConversionError,  # the string "true" given for a bool attribute
}


# ---------------------------------------------------------------- test-only kinds of target_test.cc


def _test_target_parser(cfg: dict[str, Any], keys: list[str] | None, features: dict[str, Any]) -> list[str]:
    """``TestTargetParser`` of tests/cpp/target_test.cc: prefixes mcpu, replaces keys, sets a feature."""
    cfg["mcpu"] = "super_" + cfg["mcpu"]
    features["test"] = True
    return ["super"]


def _test_attrs_preprocessor(attrs: dict[str, Any]) -> None:
    """``TestAttrsPreProcessor`` of tests/cpp/target_test.cc."""
    attrs["mattr"] = "woof"


TEST_KINDS: tuple[KindSchema, ...] = (
    KindSchema.build(
        "TestTargetKind", {"my_bool": "bool", "your_names": "array<string>", "her_maps": "map<string,int>"}
    ),
    KindSchema.build(
        "TestTargetParser",
        {"mattr": "string", "mcpu": "string"},
        default_keys=("cpu",),
        canonicalizer=_test_target_parser,
    ),
    KindSchema.build(
        "TestAttrsPreprocessor", {"mattr": "string"}, default_keys=("cpu",), preprocessor=_test_attrs_preprocessor
    ),
    KindSchema.build(
        "TestClashingPreprocessor",
        {"mattr": "string", "mcpu": "string"},
        default_keys=("cpu",),
        canonicalizer=_test_target_parser,
        preprocessor=_test_attrs_preprocessor,
    ),
    KindSchema.build(
        "TestStringKind",
        {
            "single": "string",
            "array": "array<string>",
            "nested-array": "array<array<string>>",
            "nested2-array": "array<array<array<string>>>",
        },
    ),
)


def _with_test_kinds() -> Registry:
    registry = builtin_registry()
    for kind in TEST_KINDS:
        registry = registry.with_kind(kind)
    return registry


TEST_REGISTRY = _with_test_kinds()


def _kind_name(spec: Any) -> Any:
    if isinstance(spec, str):
        return spec.split(" ")[0]
    if isinstance(spec, Mapping):
        return spec.get("kind")
    return None


def _registry(case: Case) -> Registry:
    version = LEGACY_REGISTRY.get(case["id"])
    if version is not None:
        return builtin_registry(version)
    if _kind_name(case["input"]) in {kind.name for kind in TEST_KINDS}:
        return TEST_REGISTRY
    return builtin_registry()


def _env(case: Case) -> Environment:
    requires = case.get("requires")
    if requires is None:
        return Environment()
    if requires == "LLVM":
        return Environment(check_cl_opt=True)
    pytest.fail(f"{case['id']}: no Environment models the requirement {requires!r}")


# ---------------------------------------------------------------- expectations


@dataclass(frozen=True)
class Subject:
    """A target as the case built it, the same target resolved, and the environment used."""

    target: Target
    resolved: Target
    env: Environment

    def nested(self, target: Target, resolved: Target) -> Subject:
        return Subject(target, resolved, self.env)


def _plain(value: Any) -> Any:
    """A typed value in the JSON shapes the cases are written in (tuples become lists)."""
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _attr(s: Subject, name: str) -> Any:
    attrs = s.resolved.attrs
    assert name in attrs, f"attribute {name!r} missing; resolved attrs are {dict(attrs)}"
    return attrs[name]


def _check_attrs(expected: Mapping[str, Any], s: Subject) -> None:
    for name, value in expected.items():
        assert _plain(_attr(s, name)) == value, name


def _check_attrs_unordered(expected: Mapping[str, list[Any]], s: Subject) -> None:
    for name, values in expected.items():
        assert Counter(_plain(_attr(s, name))) == Counter(values), name


def _check_attrs_include(expected: Mapping[str, list[Any]], s: Subject) -> None:
    for name, values in expected.items():
        actual = _plain(_attr(s, name))
        assert all(v in actual for v in values), (name, actual)


def _check_attrs_targets(expected: Mapping[str, Any], s: Subject) -> None:
    for name, want in expected.items():
        given, resolved = s.target.attrs[name], _attr(s, name)
        if isinstance(want, list):
            assert isinstance(resolved, tuple) and len(resolved) == len(want), (name, resolved)
            for w, t, r in zip(want, given, resolved, strict=True):
                _check(None, w, s.nested(t, r))
        else:
            _check(None, want, s.nested(given, resolved))


def _check_host(expected: Mapping[str, Any] | None, s: Subject) -> None:
    if expected is None:
        assert s.target.host is None and s.resolved.host is None
        return
    assert s.target.host is not None and s.resolved.host is not None, "expected a host"
    _check(None, expected, s.nested(s.target.host, s.resolved.host))


def _check_features(expected: Mapping[str, Any], s: Subject) -> None:
    features = s.resolved.features
    for name, value in expected.items():
        assert name in features and features[name] == value, (name, dict(features))


def _check_features_falsy(expected: list[str], s: Subject) -> None:
    for name in expected:
        assert not s.resolved.features.get(name), (name, dict(s.resolved.features))


def _check_printed_equals_printed_of(other: str, s: Subject) -> None:
    # Both sides are printed: that they agree is what the TVM test asserted.
    assert s.target.to_legacy_str(s.env) == targetlang.parse(other, registry=s.target.registry).to_legacy_str(s.env)


def _check_roundtrip_preserves_attrs(names: list[str], s: Subject) -> None:
    again = targetlang.parse(s.target.to_legacy_str(s.env), registry=s.target.registry).resolve(s.env)
    for name in names:
        assert again.attrs[name] == _attr(s, name), name


def _check_str_roundtrip_stable(expected: bool, s: Subject) -> None:
    assert expected is True, "only a stable round trip is ever asserted"
    printed = s.target.to_legacy_str(s.env)
    assert targetlang.parse(printed, registry=s.target.registry).to_legacy_str(s.env) == printed


def _check_keys_first_match(expected: Mapping[str, Any], s: Subject) -> None:
    # Generic-function dispatch: the first key, in keys order, that has a registration.
    registered = expected["registered"]
    chosen = next((key for key in s.resolved.keys if key in registered), None)
    assert chosen == expected["selected"], s.resolved.keys


def _check_constructs(expected: bool, s: Subject) -> None:
    assert expected is True and isinstance(s.resolved, Target)


CHECKS: dict[str, Callable[[Any, Subject], None]] = {
    "kind": lambda e, s: _assert_equal(s.resolved.kind, e),
    "tag": lambda e, s: _assert_equal(s.resolved.tag, e),
    "keys": lambda e, s: _assert_equal(list(s.resolved.keys), e),
    "keys_set": lambda e, s: _assert_equal(set(s.resolved.keys), set(e)),
    "keys_include": lambda e, s: _assert_equal(set(e) - set(s.resolved.keys), set()),
    "attrs": _check_attrs,
    "attrs_unordered": _check_attrs_unordered,
    "attrs_include": _check_attrs_include,
    "attrs_targets": _check_attrs_targets,
    "attrs_count": lambda e, s: _assert_equal(len(s.resolved.attrs), e),
    "libs_set": lambda e, s: _assert_equal(set(_attr(s, "libs")), set(e)),
    "host": _check_host,
    "features": _check_features,
    "features_falsy": _check_features_falsy,
    "printed_contains": lambda e, s: _assert_equal([p for p in e if p not in s.target.to_legacy_str(s.env)], []),
    "printed_equals_printed_of": _check_printed_equals_printed_of,
    "roundtrip_preserves_attrs": _check_roundtrip_preserves_attrs,
    "str_roundtrip_stable": _check_str_roundtrip_stable,
    "constructs": _check_constructs,
    "device_type_id": lambda e, s: _assert_equal(s.resolved.device_type, e),
    "keys_first_match": _check_keys_first_match,
}


def _assert_equal(actual: Any, expected: Any) -> None:
    assert actual == expected


def _check(case_id: str | None, expect: Mapping[str, Any], s: Subject) -> None:
    for name, expected in expect.items():
        if (case_id, name) in UNCHECKED:
            continue
        check = CHECKS.get(name)
        assert check is not None, f"no check implements the expectation {name!r}"
        try:
            check(expected, s)
        except AssertionError as err:
            # Name the expectation: the lambdas above make poor tracebacks.
            raise AssertionError(f"expectation {name}={expected!r} on {s.resolved!r}: {err}") from err


# ---------------------------------------------------------------- target-building cases


Builder = Callable[[Case, Registry], Target]


def _parse_input(case: Case, registry: Registry) -> Target:
    assert case.get("host") is None, "a case with a host needs an api that passes it"
    return targetlang.parse(case["input"], registry=registry)


def _own_host(case: Case, registry: Registry) -> Target:
    target = Target(case["input"], registry=registry)
    return Target(target, target.host)


def _with_two_hosts(case: Case, registry: Registry) -> Target:
    first = Target(case["input"], registry=registry).with_host(Target("llvm", registry=registry))
    return first.with_host(Target(case["host"], registry=registry))


def _from_search_task_log(case: Case, registry: Registry) -> Target:
    # The v0.5 record's target_host slot is empty; CheckAndUpdateHostConsistency sets the
    # target's host to that null host.
    return targetlang.parse(case["input"], registry=registry).with_host(None)


TARGET_BUILDERS: dict[str | None, Builder] = {
    None: _parse_input,
    "Target(Map)": _parse_input,
    "Target(dict)": _parse_input,
    "Target(json string)": _parse_input,
    "Target(target, host)": lambda c, r: Target(c["input"], c["host"], registry=r),
    "Target(target=String(input), host=String(host))": lambda c, r: Target(c["input"], c["host"], registry=r),
    "Target(Target(input), None)": lambda c, r: Target(Target(c["input"], registry=r), None),
    "t=Target(input); Target(t, t.host)": _own_host,
    "Target(Target(input), Target(host))": lambda c, r: Target(
        Target(c["input"], registry=r), Target(c["host"], registry=r)
    ),
    "Target(input).with_host(Target(host))": lambda c, r: Target(c["input"], registry=r).with_host(
        Target(c["host"], registry=r)
    ),
    "Target(input).with_host(Target('llvm')).with_host(Target(host))": _with_two_hosts,
    (
        "auto_scheduler DeserializeSearchTask (v0.5 log: target string in slot 1, empty target_host string in slot 3)"
    ): _from_search_task_log,
}


def _run_target_case(case: Case) -> None:
    build = TARGET_BUILDERS[case.get("api")]
    registry, env = _registry(case), _env(case)
    if "error" in case:
        assert "expect" not in case and "printed" not in case
        with pytest.raises(ERRORS.get(case["id"], TargetError)) as info:
            build(case, registry).resolve(env)
        # No case is about an unknown kind: one here means a missing registration, not a pass.
        assert not isinstance(info.value, UnknownKindError), info.value
        if case.get("requires") == "LLVM":
            # The target grammar accepts the value; only TVM built with LLVM rejects it.
            build(case, registry).resolve(Environment(check_cl_opt=False))
        return
    target = build(case, registry)
    resolved = target.resolve(env)
    _check(case["id"], case["expect"], Subject(target, resolved, env))
    if "printed" in case:
        assert target.to_legacy_str(env) == case["printed"]


# ---------------------------------------------------------------- Target.canon_* helpers (targetlang.compat)


def _expect_targets(expected: list[Mapping[str, Any]], targets: tuple[Target, ...]) -> None:
    assert len(targets) == len(expected), targets
    for want, target in zip(expected, targets, strict=True):
        _check(None, want, Subject(target, target.resolve(), Environment()))


def _device_map(raw: Mapping[str, Any]) -> dict[int, Any]:
    # The cases write TVM's {device_type_int: target} maps with JSON's string keys.
    return {int(key): value for key, value in raw.items()}


def _run_canon_target_and_host_raw(case: Case) -> None:
    # Target.canon_target_and_host(target, host), with the raw values of the case.
    if "error" in case:
        with pytest.raises(ERRORS[case["id"]], match="host"):
            compat.canon_target_and_host(case["input"], case["host"])
        return
    target, host = compat.canon_target_and_host(case["input"], case["host"])
    assert set(case["expect"]) == {"target", "host"}
    for want, got in ((case["expect"]["target"], target), (case["expect"]["host"], host)):
        if want is None:
            assert got is None
        else:
            assert got is not None
            _check(None, want, Subject(got, got.resolve(), Environment()))


def _run_canon_target_and_host_targets(case: Case) -> None:
    # Target.canon_target_and_host(Target(input), Target(host)).
    target, host = compat.canon_target_and_host(Target(case["input"]), Target(case["host"]))
    assert target is not None
    assert host == target.host  # the second result is the final target's host
    _check(case["id"], case["expect"], Subject(target, target.resolve(), Environment()))


def _multi_target_arg(raw: Any) -> Any:
    # A mapping without "kind" is the legacy {device_type: target} map.
    if isinstance(raw, Mapping) and "kind" not in raw:
        return _device_map(raw)
    return raw


def _run_canon_multi(case: Case, target_arg: Any, host_arg: Any) -> None:
    if "error" in case:
        with pytest.raises(ERRORS[case["id"]]):
            compat.canon_multi_target_and_host(target_arg, host_arg)
        return
    assert set(case["expect"]) == {"targets"}
    _expect_targets(case["expect"]["targets"], compat.canon_multi_target_and_host(target_arg, host_arg))


def _run_canon_target_map_and_host(case: Case) -> None:
    # Target.canon_target_map_and_host(input, host); the case's map keys are bare kind names.
    new_map, host = compat.canon_target_map_and_host(case["input"], case["host"])
    expect = case["expect"]
    assert set(expect) == {"returned_host", "every_key_target_host", "values_preserved"}
    assert host is not None
    _check(None, expect["returned_host"], Subject(host, host.resolve(), Environment()))
    for target in new_map:
        assert target.host is not None
        _check(None, expect["every_key_target_host"], Subject(target.host, target.host.resolve(), Environment()))
    assert expect["values_preserved"] is True
    assert [(t.kind, v) for t, v in new_map.items()] == list(case["input"].items())


CANON_RUNNERS: dict[str | None, Callable[[Case], None]] = {
    "Target.canon_target_and_host(target, host)": _run_canon_target_and_host_raw,
    "Target.canon_target_and_host(Target(input), Target(host))": _run_canon_target_and_host_targets,
    "Target.canon_multi_target_and_host(input)": lambda c: _run_canon_multi(c, _multi_target_arg(c["input"]), None),
    "Target.canon_multi_target_and_host(input, host)": lambda c: _run_canon_multi(
        c, _multi_target_arg(c["input"]), c["host"]
    ),
    "Target.canon_multi_target_and_host({cuda_device_type: Target(target='cuda', host='llvm')}, None)": (
        lambda c: _run_canon_multi(
            c, {k: Target(v["target"], v["host"]) for k, v in _device_map(c["input"]).items()}, None
        )
    ),
    (
        "Target.canon_multi_target_and_host(tvm.runtime.convert({cuda_device_type: Target('cuda')}), Target(host))"
    ): lambda c: _run_canon_multi(c, {k: Target(v) for k, v in _device_map(c["input"]).items()}, Target(c["host"])),
    "Target.canon_target_map_and_host(input, host)": _run_canon_target_map_and_host,
}


# ---------------------------------------------------------------- kind registry and the M-profile parser


def _run_registry_case(case: Case) -> None:
    kinds = builtin_registry().kinds
    for name, expected in case["expect"].items():
        if name == "list_kinds_contains":
            assert set(expected) <= set(kinds)
        elif name == "list_kinds_contains_once":
            assert all(list(kinds).count(kind) == 1 for kind in expected)
        elif name == "kind_options_nonempty":
            options = kinds[case["input"]].attrs
            assert bool(options) is expected
            # Every kind has the 8 common attributes; the kind's own options must be there too.
            assert {"mcpu", "mattr", "mtriple"} <= set(options)
        else:
            pytest.fail(f"no check implements the expectation {name!r}")


def _run_is_arch(case: Case) -> None:
    assert set(case["expect"]) == {"is_arch"}
    assert is_mprofile(case["input"]) is case["expect"]["is_arch"]


def _run_mprofile_parse(case: Case) -> None:
    keys, features = mprofile_parse(case["input"])
    for name, expected in case["expect"].items():
        if name == "keys":
            assert list(keys) == expected
        elif name == "features":
            for feature, value in expected.items():
                assert feature in features and features[feature] == value, (feature, features)
        else:
            pytest.fail(f"no check implements the expectation {name!r}")


# ---------------------------------------------------------------- tvmc (targetlang._tvmc, spec section 11)


def _tvmc_registry(case: Case) -> Registry:
    # tvmc's answers depended on the release's kinds and attribute types (int flags up to
    # v0.17, cmsis-nn a kind up to v0.18): each case runs with the registry of its test's release.
    release = case["source"].rsplit("@v", 1)[1]
    return builtin_registry(".".join(release.split(".")[:2]))


# The build features the cases require, and the codegen whose config flags stand for them.
_TVMC_BUILDS = {"USE_CMSISNN build": "cmsis-nn", "USE_ETHOSU build": "ethos-u"}

# What the TVMCException of an error case was about; the message must say so.
TVMC_ERRORS: dict[str, str] = {
    "c134": "at most two TVM targets (a target and its host) can be given; found 3: cuda, opencl, llvm",
    "c135": "the last target must be a TVM target, and 'invalidtarget' is not a registered target kind or tag",
}


def _check_tvmc_build(case: Case, registry: Registry) -> None:
    requires = case.get("requires")
    if requires is None:
        return
    assert requires in _TVMC_BUILDS, f"no codegen table models the requirement {requires!r}"
    codegen = _TVMC_BUILDS[requires]
    assert any(kind == codegen for kind, _ in tvmc.target_flags(registry).values()), codegen


def _check_tvmc_entries(expected: list[Mapping[str, Any]], entries: tuple[tvmc.TvmcEntry, ...]) -> None:
    assert len(entries) == len(expected), entries
    for want, entry in zip(expected, entries, strict=True):
        for name, value in want.items():
            if name == "name":
                assert entry.name == value
            elif name == "opts":
                assert dict(entry.opts) == value
            elif name == "opts_has":
                assert set(value) <= set(entry.opts), entry
            elif name == "is_tvm_target":
                assert entry.is_tvm_target is value, entry
            else:
                pytest.fail(f"no check implements the target expectation {name!r}")


def _run_tvmc_tokenize(case: Case) -> None:
    assert set(case["expect"]) == {"tokens"}
    assert tvmc.tokenize(case["input"]) == case["expect"]["tokens"]


def _run_tvmc_parse_target(case: Case) -> None:
    expect = case["expect"]
    assert set(expect) == {"targets_count", "targets"}
    entries = tvmc.parse_target_list(case["input"], registry=_tvmc_registry(case))
    assert len(entries) == expect["targets_count"]
    _check_tvmc_entries(expect["targets"], entries)
    # A list whose last target is a TVM target reads whole, with the same entries.
    if entries[-1].is_tvm_target:
        assert tvmc.parse_tvmc(case["input"], registry=_tvmc_registry(case)).targets == entries


def _run_tvmc_target_from_cli(case: Case) -> None:
    registry = _tvmc_registry(case)
    expect = dict(case.get("expect", {}))
    options = expect.pop("additional_target_options", None)
    if "error" in case:
        assert not expect and "printed" not in case
        with pytest.raises(tvmc.TvmcError) as info:
            tvmc.parse_tvmc(case["input"], registry=registry, options=options)
        quoted = case["error"].removeprefix("TVMCException: ")
        wanted = TVMC_ERRORS.get(case["id"], quoted)
        assert info.value.message.startswith(wanted), info.value.message
        return
    result = tvmc.parse_tvmc(case["input"], registry=registry, options=options)
    printed = result.target.to_legacy_str()
    for name, value in expect.items():
        if name == "printed_contains":
            assert [p for p in value if p not in printed] == [], printed
        elif name == "host_printed_contains":
            assert result.host is not None and result.target.host == result.host
            host_printed = result.host.to_legacy_str()
            assert [p for p in value if p not in host_printed] == [], host_printed
        elif name == "extra_targets_count":
            assert len(result.extra_targets) == value
        elif name == "extra_targets":
            _check_tvmc_entries(value, result.extra_targets)
        else:
            pytest.fail(f"no check implements the expectation {name!r}")
    if "printed" in case:
        assert printed == case["printed"]


def _parse_tvmc_flags(case: Case, registry: Registry) -> tuple[argparse.Namespace, list[str]]:
    # tvmc's tests: generate_target_args on a fresh parser, then parse_known_args.
    parser = argparse.ArgumentParser()
    tvmc.add_target_args(parser, registry)
    return parser.parse_known_args(case["input"])


def _run_tvmc_argparse(case: Case) -> None:
    registry = _tvmc_registry(case)
    _check_tvmc_build(case, registry)
    assert set(case["expect"]) == {"parsed"}
    parsed, _ = _parse_tvmc_flags(case, registry)
    assert {dest: getattr(parsed, dest, None) for dest in case["expect"]["parsed"]} == case["expect"]["parsed"]


def _run_tvmc_reconstruct(case: Case) -> None:
    registry = _tvmc_registry(case)
    _check_tvmc_build(case, registry)
    expect = case["expect"]
    assert set(expect) <= {"reconstructed", "unparsed_args"}
    parsed, unparsed = _parse_tvmc_flags(case, registry)
    assert tvmc.options_from_flags(vars(parsed), registry) == expect["reconstructed"]
    # The command line itself gives the same options.
    assert tvmc.options_from_flags(case["input"], registry) == expect["reconstructed"]
    if "unparsed_args" in expect:
        assert unparsed == expect["unparsed_args"]


TVMC_RUNNERS: dict[str | None, Callable[[Case], None]] = {
    "tvmc.tokenize_target": _run_tvmc_tokenize,
    "tvmc.parse_target": _run_tvmc_parse_target,
    "tvmc.target_from_cli": _run_tvmc_target_from_cli,
    "tvmc.target_from_cli(input, additional_target_options)": _run_tvmc_target_from_cli,
    "tvmc.generate_target_args + argparse.parse_known_args": _run_tvmc_argparse,
    "tvmc.generate_target_args + reconstruct_target_args": _run_tvmc_reconstruct,
}


RUNNERS: dict[str | None, Callable[[Case], None]] = {
    **{api: _run_target_case for api in TARGET_BUILDERS},
    **CANON_RUNNERS,
    **TVMC_RUNNERS,
    "Target.list_kinds()": _run_registry_case,
    "TargetKindRegEntry::ListTargetKinds()": _run_registry_case,
    "TargetKindRegEntry::ListTargetKindOptions(kind)": _run_registry_case,
    "parsers::mprofile::IsArch(config) (internal canonicaliser predicate)": _run_is_arch,
    "parsers::mprofile::ParseTarget(config) (internal canonicaliser, called directly without kind)": (
        _run_mprofile_parse
    ),
}

# Fields of a case (spec section 13); "via" and "notes" need no replay.
_CASE_FIELDS = frozenset(
    ("id", "source", "test", "api", "via", "input", "host", "expect", "error", "printed", "requires", "notes")
)


# ---------------------------------------------------------------- tests


@pytest.mark.filterwarnings("ignore:target_host parameter is going to be deprecated:DeprecationWarning")
@pytest.mark.parametrize("case_id", TESTED)
def test_tvm_case(case_id: str) -> None:
    case = CASES[case_id]
    if case_id in REAL_TVM:
        case = {**case, "expect": {**case["expect"], **REAL_TVM[case_id][0]}}
    assert set(case) <= _CASE_FIELDS, f"unknown case fields {set(case) - _CASE_FIELDS}"
    assert "expect" in case or "error" in case
    runner = RUNNERS.get(case.get("api"))
    assert runner is not None, f"no runner for api {case.get('api')!r}"
    runner(case)


def test_every_case_is_tested_or_waiting() -> None:
    ids = [case["id"] for case in CASE_LIST]
    assert ids, "the conformance file holds no cases"
    assert len(ids) == len(set(ids)), "duplicate case ids"
    assert set(WAITING) <= set(ids), f"WAITING names unknown cases {set(WAITING) - set(ids)}"
    tvmc_cases = {case["id"] for case in CASE_LIST if str(case.get("api") or "").startswith("tvmc.")}
    assert tvmc_cases and tvmc_cases <= set(TESTED), f"untested tvmc cases: {tvmc_cases - set(TESTED)}"
    assert set(TESTED) | set(WAITING) == set(ids) and not set(TESTED) & set(WAITING)
    # Every tested case has a runner, so none of them can pass without being checked.
    assert [case_id for case_id in TESTED if CASES[case_id].get("api") not in RUNNERS] == []
    # The per-case tables name real cases.
    for table in (LEGACY_REGISTRY, ERRORS, TVMC_ERRORS, REAL_TVM, {case_id for case_id, _ in UNCHECKED}):
        assert set(table) <= set(ids)
