"""Which error, for inputs with a fault TVM named otherwise before (issue 28, section 1).

Each row's expected class was taken from what real TVM said of the input (v0.21's and v0.19's
``Target()``, tvmc v0.19's ``target_from_cli``, through the shared oracle), the message quoted in
the row's comment where it helps; the differential goldens (tests/test_differential_goldens.py)
check the same on many more inputs.
"""

from __future__ import annotations

from typing import Any

import pytest

import targetlang
from targetlang import Environment
from targetlang._tvmc import parse_tvmc
from targetlang.errors import (
    CanonicalizationError,
    EmptyKeyOrValueError,
    InvalidJSONError,
    MismatchedQuoteError,
    MissingDashError,
    TargetError,
    UnknownAttributeError,
    UnknownKindError,
    ValueConversionError,
)

ENV = Environment(host_triple="x86_64-pc-linux-gnu")


def error_of(spec: Any, version: str) -> TargetError | None:
    try:
        targetlang.parse(spec, registry=targetlang.builtin_registry(version)).resolve(ENV)
    except TargetError as err:
        return err
    return None


@pytest.mark.parametrize(
    ("spec", "error", "span"),
    [
        # Target kind "-llvm" is not defined
        ("-llvm", UnknownKindError, (0, 5)),
        (" -llvm -mcpu=x", UnknownKindError, (1, 6)),
        ("--", UnknownKindError, (0, 2)),
        ("-'a b'", UnknownKindError, (0, 6)),
        # Target kind "-x" is not defined, during parsing target["host"]
        ("llvm -host=-x", UnknownKindError, (11, 13)),
        ("cuda -host='-llvm -mcpu=a'", UnknownKindError, (12, 17)),
        # Mismatched quotes '' in string
        (" -keys=a'", MismatchedQuoteError, (8, 9)),
        ("-llvm'", MismatchedQuoteError, (5, 6)),
    ],
)
def test_a_kind_word_starting_with_a_dash_is_an_unknown_kind(
    spec: str, error: type[TargetError], span: tuple[int, int]
) -> None:
    err = error_of(spec, "0.21")
    assert type(err) is error
    assert err.span == span


@pytest.mark.parametrize(
    ("spec", "version", "error"),
    [
        # v0.21: Cannot load config dict with python JSON loader, whatever else is wrong
        ('{"kind": "llvm", "num-cores": 99999999999999999999}', "0.21", InvalidJSONError),
        ('{"kind": "llvmx", "num-cores": 99999999999999999999}', "0.21", InvalidJSONError),
        ('{"a": 99999999999999999999, "kind": "llvm"}', "0.21", InvalidJSONError),
        ('{"kind": "llvm", "libs": [-9223372036854775809]}', "0.21", InvalidJSONError),
        ('cuda -host={"kind":"llvm","num-cores":99999999999999999999}', "0.21", InvalidJSONError),
        # the smallest int64 fits; a float is read as a float
        ('{"kind": "llvm", "num-cores": -9223372036854775808}', "0.21", None),
        ('{"kind": "llvm", "num-cores": 99999999999999999999.5}', "0.21", ValueConversionError),
        # a string of digits is a string
        ('{"kind": "llvm", "mcpu": "99999999999999999999"}', "0.21", None),
        # v0.19 wrapped the integer and went on: the unknown kind is what it said
        ('{"kind": "llvmx", "num-cores": 99999999999999999999}', "0.19", UnknownKindError),
    ],
)
def test_an_integer_beyond_64_bits_refuses_json_text_first(
    spec: str, version: str, error: type[TargetError] | None
) -> None:
    err = error_of(spec, version)
    assert (type(err) if err is not None else None) is error


@pytest.mark.parametrize(
    ("spec", "error", "says"),
    [
        # CUDA target gets an invalid CUDA arch, during parsing target["host"]: before -keys=
        ("c -host='cuda -arch=cortex-m55' -keys=", CanonicalizationError, "invalid CUDA arch"),
        ("cuda -host='rocm -mtriple=aarch64-linux-gnu' -libs=", CanonicalizationError, "mtriple"),
        ("cuda -host='rocm -mtriple=aarch64-linux-gnu' -bogus=1", CanonicalizationError, "mtriple"),
        # an option read before the host is reported first
        ("cuda -libs= -host='rocm -mtriple=aarch64-linux-gnu'", EmptyKeyOrValueError, "-libs="),
        # Not an attribute key: ----
        ("composite ----", MissingDashError, "'----'"),
    ],
)
def test_a_nested_target_is_read_whole_before_the_next_option(spec: str, error: type[TargetError], says: str) -> None:
    err = error_of(spec, "0.21")
    assert type(err) is error
    assert says in err.message


def test_the_json_error_points_at_the_integer() -> None:
    err = error_of('{"kind": "llvmx", "num-cores": 99999999999999999999}', "0.21")
    assert isinstance(err, InvalidJSONError)
    assert err.span == (31, 51)
    assert "does not fit 64 bits" in err.message


@pytest.mark.parametrize(
    ("config", "error", "says"),
    [
        # the kind's target parser, before the tag, keys, host and attributes
        ({"kind": "cuda", "arch": "x", "bogus": 1}, CanonicalizationError, "invalid CUDA arch"),
        ({"kind": "cuda", "bogus": 1, "arch": "x"}, CanonicalizationError, "invalid CUDA arch"),
        ({"kind": "cuda", "arch": "x", "keys": 1}, CanonicalizationError, "invalid CUDA arch"),
        ({"kind": "cuda", "arch": "x", "tag": 1}, CanonicalizationError, "invalid CUDA arch"),
        ({"kind": "rocm", "mcpu": "x", "bogus": 1}, CanonicalizationError, "GFX version"),
        ({"kind": "nvptx", "mtriple": "x", "bogus": 1}, CanonicalizationError, '"mtriple" to be'),
        ({"kind": "nvptx", "mtriple": None}, CanonicalizationError, '"mtriple" to be'),
        # Expects "mtriple" to be "amdgcn-amd-amdhsa-hcc", but gets: "x,y": compared before mcpu was read
        ({"kind": "rocm", "mtriple": "x,y", "mcpu": 32}, CanonicalizationError, '"mtriple" to be'),
        ({"kind": "nvptx", "mtriple": "x", "mcpu": 32}, CanonicalizationError, '"mtriple" to be'),
        ({"kind": "llvm", "mtriple": "aarch64-linux-gnu", "jit": "x", "bogus": 1}, CanonicalizationError, "jit"),
        # Cannot convert from type `int` to `Optional<ffi.String>`: the CPU parser read mcpu first
        ({"kind": "llvm", "bogus": 1, "mcpu": 1}, ValueConversionError, "'mcpu'"),
        # then the tag, the keys, the host
        ({"kind": "llvm", "bogus": 1, "tag": 1}, ValueConversionError, "'tag'"),
        ({"kind": "llvm", "bogus": 1, "keys": 1}, ValueConversionError, "'keys'"),
        ({"kind": "llvm", "host": "bad", "keys": 1}, ValueConversionError, "'keys'"),
        ({"kind": "llvm", "keys": [1], "tag": 2}, ValueConversionError, "'tag'"),
        ({"kind": "llvm", "bogus": 1, "host": "bad"}, UnknownKindError, "'bad'"),
        # then the attributes, in the config's order
        ({"kind": "llvm", "bogus": 1, "num-cores": "x"}, UnknownAttributeError, "'bogus'"),
        ({"kind": "llvm", "num-cores": "x", "bogus": 1}, ValueConversionError, "'num-cores'"),
        # Expect type of field "kind" is String, but get type: None
        ({"kind": None}, ValueConversionError, "'kind'"),
        # Cannot convert from type `None` to `ffi.String`: the NVPTX parser read mcpu first
        ({"kind": "nvptx", "mcpu": None, "host": "hybrid -libs=a,''a b''"}, ValueConversionError, "'mcpu'"),
        # Check failed: kind == "llvm" (c vs. llvm): the A-profile parser, before the attributes
        ({"kind": "c", "mtriple": "aarch64-linux-gnu"}, CanonicalizationError, "'llvm'"),
        # Cannot convert from type `ffi.Array` to `Optional<ffi.String>`
        ({"kind": "c", "mtriple": ["aarch64-linux-android"]}, ValueConversionError, "'mtriple'"),
        # a host read whole, its parser included, before what comes after it
        (
            {"kind": "hexagon", "host": "nvptx -mtriple=cortex-a53", "from_device": None},
            CanonicalizationError,
            "mtriple",
        ),
        ({"kind": "composite", "host": {"kind": "nvptx", "mcpu": ""}, "bogus": 1}, CanonicalizationError, "-mcpu="),
    ],
)
def test_config_checks_come_in_tvm_order(config: dict[str, Any], error: type[TargetError], says: str) -> None:
    err = error_of(config, "0.21")
    assert type(err) is error
    assert says in err.message


@pytest.mark.parametrize(
    ("config", "version", "says"),
    [
        # v0.10 on: the kind's target parser first (FromConfig: set_target_parser)
        ({"kind": "cuda", "arch": "80", "bogus": 1}, "0.10", "invalid CUDA arch"),
        ({"kind": "rocm", "mtriple": "x", "bogus": 1}, "0.10", '"mtriple" to be'),
        # v0.7 - v0.9: the attributes first, the kind's preprocessor last (src/target/target.cc at
        # v0.9.0: kind->preprocessor after the attributes are read; UpdateCUDAAttrs a preprocessor)
        ({"kind": "cuda", "arch": "80", "bogus": 1}, "0.9", "no attribute 'bogus'"),
        ({"kind": "rocm", "mtriple": "x", "bogus": 1}, "0.8", "no attribute 'bogus'"),
        ({"kind": "cuda", "arch": "80", "bogus": 1}, "0.7", "no attribute 'bogus'"),
    ],
)
def test_the_kind_s_check_comes_first_from_010(config: dict[str, Any], version: str, says: str) -> None:
    err = error_of(config, version)
    assert err is not None and says in err.message


@pytest.mark.parametrize(
    ("config", "v019", "v021"),
    [
        # Expects type "runtime.BoxInt", but gets "runtime.BoxBool"
        ({"kind": "c", "from_device": True}, ValueConversionError, None),
        ({"kind": "llvm", "num-cores": False}, ValueConversionError, None),
        # Parsing type "runtime.BoxBool" is not supported for the given object of type "runtime.BoxInt"
        ({"kind": "llvm", "fast-math": 0}, ValueConversionError, None),
        ({"kind": "llvm", "fast-math": True}, None, None),
        ({"kind": "llvm", "num-cores": 4}, None, None),
        # Cannot create target with type: NULL (v0.19); no host (v0.21)
        ({"kind": "llvm", "host": None}, ValueConversionError, None),
        ('{"kind": "c", "from_device": true}', ValueConversionError, None),
    ],
)
def test_config_types_per_release(config: Any, v019: type[TargetError] | None, v021: type[TargetError] | None) -> None:
    for version, expected in (("0.19", v019), ("0.21", v021)):
        err = error_of(config, version)
        assert (type(err) if err is not None else None) is expected, version


@pytest.mark.parametrize(
    ("text", "error", "extra"),
    [
        # tvmc kept {"": "x"} / {"": True} for an extra target and built the TVM target alone
        ("mrvl -=x, c", None, {"": "x"}),
        ("ethos-u --, c", None, {"": True}),
        ("cmsis-nn --, llvm", None, {"": True}),
        # in a TVM target: Empty attribute key or value in "=True"
        ("llvm --", EmptyKeyOrValueError, None),
        ("ethos-u -=x, llvm --", EmptyKeyOrValueError, None),
        # tvmc rebuilt c -model=a' and TVM found the quote mismatched
        ("test, c -model='a'b", MismatchedQuoteError, None),
        ("llvm -mcpu='a'b", MismatchedQuoteError, None),
        ("c -model='a'", None, None),
        ("c -model='a b'", None, None),
    ],
)
def test_tvmc_lists_as_tvmc_read_them(text: str, error: type[TargetError] | None, extra: dict[str, Any] | None) -> None:
    try:
        read = parse_tvmc(text)
        read.target.resolve(ENV)
    except TargetError as err:
        assert type(err) is error
        return
    assert error is None
    if extra is not None:
        assert dict(read.extra_targets[0].opts) == extra
