"""Error messages, asserted whole: message, source line, caret line."""

from __future__ import annotations

from typing import Any

import pytest

import targetlang


def message(spec: object) -> str:
    with pytest.raises(targetlang.TargetError) as info:
        targetlang.parse(spec).resolve()
    return str(info.value)


def test_error_unknown_attribute_suggests_the_closest_name() -> None:
    assert message("llvm -mcpux=skylake") == (
        "kind 'llvm' has no attribute 'mcpux'; did you mean 'mcpu'?\n  llvm -mcpux=skylake\n        ^^^^^"
    )


def test_error_unknown_attribute_carries_suggestions() -> None:
    with pytest.raises(targetlang.UnknownAttributeError) as info:
        targetlang.parse("cuda -max_threads=4")
    assert info.value.suggestions[0] == "max_num_threads"
    assert info.value.span == (6, 17)
    assert (info.value.line, info.value.column) == (1, 7)


def test_error_unknown_kind() -> None:
    assert message("lvm -mcpu=x") == "unknown target kind 'lvm'; did you mean 'llvm'?\n  lvm -mcpu=x\n  ^^^"


def test_error_unbalanced_quote_points_at_the_quote() -> None:
    assert message("vulkan -device_name='GPU one") == (
        "mismatched quote: this quote is never closed\n  vulkan -device_name='GPU one\n                      ^"
    )


def test_error_missing_dash() -> None:
    assert message("llvm mcpu=skylake") == (
        "expected an option starting with '-', found 'mcpu=skylake'\n  llvm mcpu=skylake\n       ^^^^^^^^^^^^"
    )


def test_error_dashes_only() -> None:
    assert message("llvm -- -mcpu=a") == (
        "'--' is not an option: dashes need a key after them\n  llvm -- -mcpu=a\n       ^^"
    )


def test_error_empty_value() -> None:
    assert message("llvm -mcpu=") == "empty attribute key or value in '-mcpu='\n  llvm -mcpu=\n       ^^^^^^"


def test_error_empty_key() -> None:
    assert message("llvm -=skylake") == (
        "empty attribute key or value in '-=skylake'\n  llvm -=skylake\n       ^^^^^^^^^"
    )


def test_error_repeated_attribute_points_at_the_second() -> None:
    assert message("llvm -mcpu=a --mcpu b") == (
        "attribute 'mcpu' is given more than once\n  llvm -mcpu=a --mcpu b\n                 ^^^^"
    )


def test_error_kind_given_as_an_option_is_a_repeat() -> None:
    with pytest.raises(targetlang.DuplicateAttributeError):
        targetlang.parse("llvm -kind=cuda")


def test_error_integer_conversion() -> None:
    assert message("llvm -num-cores=four") == (
        "attribute 'num-cores' is int: cannot parse an integer from 'four'\n"
        "  llvm -num-cores=four\n"
        "                  ^^^^"
    )


def test_error_inside_a_quoted_value_points_into_the_outer_text() -> None:
    assert message("llvm -num-cores='x'") == (
        "attribute 'num-cores' is int: cannot parse an integer from 'x'\n  llvm -num-cores='x'\n                   ^"
    )


def test_error_inside_a_nested_host_points_into_the_outer_text() -> None:
    assert message("cuda -host='llvm -mcpu=a -mcpu=b'") == (
        "attribute 'mcpu' is given more than once\n"
        "  cuda -host='llvm -mcpu=a -mcpu=b'\n"
        "                            ^^^^"
    )


def test_error_nested_flag_host() -> None:
    # "-host" alone means host "1", an unknown kind; the caret covers the option.
    assert message("cuda -host") == "unknown target kind '1'\n  cuda -host\n       ^^^^^"


def test_error_inside_an_escaped_nested_host() -> None:
    assert message("cuda -host=llvm\\ -mcpux=a") == (
        "kind 'llvm' has no attribute 'mcpux'; did you mean 'mcpu'?\n"
        "  cuda -host=llvm\\ -mcpux=a\n"
        "                    ^^^^^"
    )


def test_error_array_item_points_at_the_item() -> None:
    with pytest.raises(targetlang.ValueConversionError) as info:
        targetlang.parse("composite -devices=cuda,'llvm -num-cores=x'")
    assert info.value.span == (41, 42)


def test_error_json_wrong_type() -> None:
    assert message('{"kind": "llvm", "num-cores": "4"}') == (
        "attribute 'num-cores' must be an integer, not a string\n"
        '  {"kind": "llvm", "num-cores": "4"}\n'
        "                                ^^^"
    )


def test_error_json_nested_string_points_into_the_json_text() -> None:
    assert message('{"kind": "cuda", "host": "llvm -mcpuy=1"}') == (
        "kind 'llvm' has no attribute 'mcpuy'; did you mean 'mcpu'?\n"
        '  {"kind": "cuda", "host": "llvm -mcpuy=1"}\n'
        "                                  ^^^^^"
    )


def test_error_invalid_json() -> None:
    assert (
        message('{"kind": "llvm",,}')
        == 'invalid JSON: unexpected token \',\'\n  {"kind": "llvm",,}\n                  ^'
    )


def test_error_json_multiline_shows_line_and_column() -> None:
    assert message('{\n  "kind": "llvm",\n  "mcpu": 3\n}') == (
        "attribute 'mcpu' must be a string, not an integer (line 3, column 11)\n    \"mcpu\": 3\n            ^"
    )


def test_error_config_without_kind() -> None:
    assert message({"mcpu": "skylake"}) == "a target config needs a 'kind' or a 'tag'"


def test_error_features_cannot_be_given() -> None:
    with pytest.raises(targetlang.UnknownAttributeError, match="'features' cannot be given"):
        targetlang.parse({"kind": "llvm", "features": {"a": True}})


def test_error_empty_string() -> None:
    assert message("") == "cannot parse an empty target string"


def test_error_canonicaliser_rejects_cuda_arch() -> None:
    assert message("cuda -arch=80") == (
        "CUDA target gets an invalid CUDA arch: -arch=80\n  cuda -arch=80\n             ^^"
    )


def test_error_composite_cannot_print_in_tvm_v022() -> None:
    target = targetlang.parse("composite --host=llvm --devices=cuda,opencl")
    with pytest.raises(targetlang.UnprintableTargetError, match="cannot print attribute 'devices'"):
        target.to_legacy_str()


def test_errors_are_value_errors_with_one_base() -> None:
    for cls in (
        targetlang.TargetSyntaxError,
        targetlang.MismatchedQuoteError,
        targetlang.MissingDashError,
        targetlang.EmptyKeyOrValueError,
        targetlang.InvalidJSONError,
        targetlang.UnknownKindError,
        targetlang.UnknownAttributeError,
        targetlang.ValueConversionError,
        targetlang.DuplicateAttributeError,
        targetlang.CanonicalizationError,
        targetlang.UnprintableTargetError,
        targetlang.NestingTooDeepError,
    ):
        assert issubclass(cls, targetlang.TargetError)
    assert issubclass(targetlang.TargetError, ValueError)


def test_error_survives_pickling() -> None:
    import pickle

    with pytest.raises(targetlang.UnknownAttributeError) as info:
        targetlang.parse("llvm -mcpux=1")
    again = pickle.loads(pickle.dumps(info.value))
    assert str(again) == str(info.value)
    assert isinstance(again, targetlang.UnknownAttributeError)
    assert again.suggestions == info.value.suggestions


def test_error_resolving_a_nested_host_points_into_the_outer_text() -> None:
    assert message("llvm -host='cuda -arch=80'") == (
        "CUDA target gets an invalid CUDA arch: -arch=80\n  llvm -host='cuda -arch=80'\n                         ^^"
    )
    assert message('{"kind":"llvm","host":{"kind":"cuda","arch":"80"}}') == (
        "CUDA target gets an invalid CUDA arch: -arch=80\n"
        '  {"kind":"llvm","host":{"kind":"cuda","arch":"80"}}\n'
        "                                              ^^^^"
    )


def test_error_unclosed_json_points_at_the_end() -> None:
    assert message('{"kind": "llvm"') == 'invalid JSON: the object is not closed\n  {"kind": "llvm"\n                 ^'


def test_error_control_characters_are_shown_visibly() -> None:
    assert message("llvm\r") == "unknown target kind 'llvm\u240d'; did you mean 'llvm'?\n  llvm\u240d\n  ^^^^^"


def test_error_tag_with_options_says_a_tag_stands_alone() -> None:
    assert message("nvidia/jetson-nano -arch=sm_80") == (
        "'nvidia/jetson-nano' is a tag, and a tag takes no options: TVM v0.22 read a tag only as the whole text; "
        'to change its fields write {"tag": "nvidia/jetson-nano", ...}\n'
        "  nvidia/jetson-nano -arch=sm_80\n"
        "  ^^^^^^^^^^^^^^^^^^"
    )


def test_error_attribute_tvm_removed_says_when() -> None:
    assert message("llvm -keys=cpu -link-params=0") == (
        "kind 'llvm' has no attribute 'link-params' since TVM v0.10 (TVM v0.8 - v0.9 had it)\n"
        "  llvm -keys=cpu -link-params=0\n"
        "                  ^^^^^^^^^^^"
    )
    assert message("cuda -shared_memory_per_block=49152") == (
        "kind 'cuda' has no attribute 'shared_memory_per_block' since TVM v0.9 (TVM v0.8 had it); did you mean "
        "'max_shared_memory_per_block' or 'registers_per_block' or 'max_threads_per_block'?\n"
        "  cuda -shared_memory_per_block=49152\n"
        "        ^^^^^^^^^^^^^^^^^^^^^^^"
    )


def test_error_old_target_option_names_mtriple_not_tag() -> None:
    with pytest.raises(targetlang.UnknownAttributeError) as info:
        targetlang.parse("llvm -target=aarch64-linux-gnu")
    assert str(info.value) == (
        "kind 'llvm' has no attribute 'target' since TVM v0.7: it is TVM <= v0.6's 'mtriple'\n"
        "  llvm -target=aarch64-linux-gnu\n"
        "        ^^^^^^"
    )
    assert info.value.suggestions == ("mtriple",)


def test_error_runtime_on_a_leaf_kind_that_once_had_it() -> None:
    with pytest.raises(targetlang.LeafKindError) as info:
        targetlang.parse("c -runtime=c")
    assert str(info.value) == (
        "kind 'c' has no attribute 'runtime' since TVM v0.10 (TVM v0.7 - v0.9 had it): it is a leaf target, and "
        "'runtime' belongs on a composite target that contains it\n"
        "  c -runtime=c\n"
        "     ^^^^^^^"
    )


def test_error_integer_beyond_int64_in_a_config() -> None:
    # TVM 0.27: "Option 'num-cores': expected type 'int' but got 'ffi.BigInt'"; the string form's
    # stream extraction fails on overflow alike.
    assert message('{"kind": "llvm", "num-cores": 9223372036854775808}') == (
        "attribute 'num-cores' is int: 9223372036854775808 is beyond the 64-bit integers TVM holds\n"
        '  {"kind": "llvm", "num-cores": 9223372036854775808}\n'
        "                                ^^^^^^^^^^^^^^^^^^^"
    )
    assert targetlang.parse({"kind": "llvm", "num-cores": -(2**63)})["num-cores"] == -(2**63)
    with pytest.raises(targetlang.ValueConversionError):
        targetlang.parse({"kind": "llvm", "fast-math": 2**63})


def test_error_on_a_huge_input_shows_only_the_fault() -> None:
    # A 1 MB value: the message quotes the start of the line and puts the caret at the quote.
    assert message("llvm -mcpu='" + "a" * 1_000_000) == (
        "mismatched quote: this quote is never closed\n  llvm -mcpu='" + "a" * 108 + "…\n             ^"
    )


def test_error_far_along_a_long_line_keeps_the_caret_under_the_fault() -> None:
    text = "llvm -mcpu=" + "a" * 300 + " -mcpux=1"
    shown = message(text).split("\n")
    assert shown[0] == "kind 'llvm' has no attribute 'mcpux'; did you mean 'mcpu'?"
    assert shown[1].startswith("  …") and shown[1].endswith("-mcpux=1")
    caret = shown[2].index("^")
    assert shown[1][caret : caret + 5] == "mcpux" and shown[2][caret:] == "^^^^^"


def test_error_quotes_a_long_value_cut_in_the_middle() -> None:
    value = "x" * 61 + "y" * 100 + "z" * 19
    assert message("llvm " + value).split("\n")[0] == (
        f"expected an option starting with '-', found '{'x' * 60}…{'y' * 0}{'z' * 19}'"
    )


def test_error_lone_surrogate_in_a_nested_target_string() -> None:
    # JSON's "\ud800" escape decodes to a lone surrogate, which no UTF-8 text (nor TVM) can hold.
    text = '{"kind": "cuda", "host": "llvm -mcpu=\\ud800"}'
    with pytest.raises(targetlang.UnencodableTextError) as info:
        targetlang.parse(text)
    assert info.value.start == text.index("\\ud800")  # the caret stands on the escape


@pytest.mark.parametrize(
    ("spec", "text"),
    [
        (None, "a target spec is a str, a mapping or a Target, not None"),
        (1, "a target spec is a str, a mapping or a Target, not int"),
        (b"llvm", "a target spec is a str, a mapping or a Target, not bytes"),
        (["llvm"], "a target spec is a str, a mapping or a Target, not list"),
        ({"kind": "llvm", 1: "a"}, "a target config's keys are strings, not int: 1"),
        ({"kind": "cuda", "host": {(1, 2): "llvm"}}, "a target config's keys are strings, not tuple: (1, 2)"),
    ],
)
def test_error_spec_of_the_wrong_type(spec: object, text: str) -> None:
    # TVM raised ValueError for the wrong type and TypeError for a top-level key that is not a
    # string: InvalidSpecError is both, and a TargetError.
    with pytest.raises(targetlang.InvalidSpecError) as info:
        targetlang.parse(spec)
    assert str(info.value) == text
    assert isinstance(info.value, ValueError) and isinstance(info.value, TypeError)


@pytest.mark.parametrize(
    ("spec", "text"),
    [
        (
            "llvm -mtriple=aarch64-linux-gnu -mfloat-abi=softfp",
            "LLVM rejects -mfloat-abi=softfp of an Arm A-profile target: it is 'hard' or 'soft'\n"
            "  llvm -mtriple=aarch64-linux-gnu -mfloat-abi=softfp\n"
            "                                              ^^^^^^",
        ),
        (
            "llvm -mtriple=arm-linux-gnueabihf -jit=x",
            "LLVM rejects -jit=x of an Arm A-profile target: it is 'mcjit' or 'orcjit'\n"
            "  llvm -mtriple=arm-linux-gnueabihf -jit=x\n"
            "                                         ^",
        ),
        (
            '{"kind": "llvm", "mtriple": "aarch64", "vector-width": 0}',
            "LLVM rejects -vector-width=0 of an Arm A-profile target: it is 1 to 65536\n"
            '  {"kind": "llvm", "mtriple": "aarch64", "vector-width": 0}\n'
            "                                                         ^",
        ),
        (
            "cuda -host='llvm -mtriple=aarch64 -cl-opt=-option=2'",
            "LLVM rejects cl-opt entry '-option=2': '2' is not a valid bool value\n"
            "  cuda -host='llvm -mtriple=aarch64 -cl-opt=-option=2'\n"
            "                                            ^^^^^^^^^",
        ),
    ],
)
def test_error_llvm_checks_the_options_of_an_arm_a_profile_target(spec: str, text: str) -> None:
    assert message(spec) == text


def test_error_in_a_text_read_with_mkldnn_renamed_points_at_what_was_written() -> None:
    # TVM's Target() replaced every mkldnn of a text holding -libs=mkldnn: the option is 'dnnl'.
    assert message("llvm -mkldnn -libs=mkldnn") == (
        "kind 'llvm' has no attribute 'dnnl'\n  llvm -mkldnn -libs=mkldnn\n        ^^^^^^"
    )
    assert message("llvm -libs=mkldnn -num-cores=four") == (
        "attribute 'num-cores' is int: cannot parse an integer from 'four'\n"
        "  llvm -libs=mkldnn -num-cores=four\n"
        "                               ^^^^"
    )


@pytest.mark.parametrize(
    "config",
    [
        {"kind": "rocm", "max_num_threads": 2**63},
        {"kind": "llvm", "host": {"kind": "c", "target_device_type": -(2**63) - 1}},
        {"kind": "no-such-kind", "libs": [1, 2**64]},  # before the kind is looked at, as TVM's FFI
    ],
)
def test_an_integer_beyond_64_bits_in_a_config_is_an_overflow_error(config: dict[str, Any]) -> None:
    with pytest.raises(targetlang.IntegerOverflowError, match="does not fit 64 bits") as info:
        targetlang.parse(config)
    assert isinstance(info.value, OverflowError) and isinstance(info.value, ValueError)


def test_migrate_reports_a_bad_key_as_the_reader_does() -> None:
    with pytest.raises(targetlang.InvalidSpecError):
        targetlang.migrate({"kind": "llvm", (1, 2): "a"})  # type: ignore[dict-item]
