"""The public API's types, checked by ``mypy --strict`` over the tests (CI runs it): each
``# type: ignore[...]`` below is an error mypy must report in a user's code, since strict mode
reports an ignore that silences nothing (``warn_unused_ignores``); and each call runs, so the
types promise what the code does."""

from __future__ import annotations

from typing import assert_type

import pytest

import targetlang
from targetlang import InvalidSpecError, Target, TargetSpec, parse


@pytest.mark.parametrize(
    "spec", ["llvm -mcpu=skylake", '{"kind": "llvm"}', {"kind": "llvm", "mcpu": "skylake"}, parse("llvm")]
)
def test_parse_reads_each_kind_of_spec(spec: TargetSpec) -> None:
    assert_type(parse(spec), Target)
    assert parse(spec).kind == "llvm"


def test_a_value_of_another_type_is_a_type_error_and_an_invalid_spec() -> None:
    with pytest.raises(InvalidSpecError, match="a target spec is a str, a mapping or a Target, not int"):
        parse(42)  # type: ignore[arg-type]
    with pytest.raises(InvalidSpecError):
        Target(b"llvm")  # type: ignore[arg-type]
    with pytest.raises(targetlang.ValueConversionError, match="'host' must be a target"):
        parse("llvm").with_host(3.5)  # type: ignore[arg-type]


def test_a_config_s_values_may_be_targets() -> None:
    config: dict[str, object] = {"kind": "cuda", "host": parse("llvm")}
    assert parse(config).host == parse("llvm")


def test_the_attribute_mapping_is_typed() -> None:
    t = parse("llvm -mcpu=skylake -num-cores=4")
    assert_type(t["mcpu"], str)
    assert_type(t["num-cores"], int)
    assert_type(t.keys, tuple[str, ...])
    assert (t["mcpu"], t["num-cores"]) == ("skylake", 4)
    with pytest.raises(TypeError):
        len(t)  # type: ignore[arg-type]
    assert targetlang.TargetSpec is TargetSpec
