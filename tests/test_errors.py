"""Error messages, asserted whole: class, message, span, source line and caret line."""

from __future__ import annotations

import pickle
from dataclasses import dataclass
from typing import Any, Literal

import pytest

import targetlang
from targetlang import (
    CanonicalizationError,
    DuplicateAttributeError,
    EmptyKeyOrValueError,
    IntegerOverflowError,
    InvalidJSONError,
    InvalidSpecError,
    LeafKindError,
    MismatchedQuoteError,
    MissingDashError,
    NestingTooDeepError,
    TargetError,
    TargetSyntaxError,
    UnencodableTextError,
    UnknownAttributeError,
    UnknownKindError,
    ValueConversionError,
)


@dataclass(frozen=True)
class ErrorCase:
    """``targetlang.parse(spec, **options)`` (then ``.resolve()``, when ``raised_by`` says so)
    raises exactly ``cls`` with ``message`` about ``spec[span[0]:span[1]]``.

    ``shown`` is what ``str(error)`` adds after the message: the source line and the caret
    ("" when the spec is not text). ``suggestions``, when given, are the names the error offers.
    """

    spec: Any  # of any type: the first cases are no spec at all
    options: dict[str, Any]
    cls: type[TargetError]
    message: str
    span: tuple[int, int]
    shown: str
    raised_by: Literal["parse", "resolve"] = "parse"
    suggestions: tuple[str, ...] | None = None


_SPEC_TYPE = "a target spec is a str, a mapping or a Target, not"
_LONG_LINE = "llvm -mcpu=" + "a" * 300 + " -mcpux=1"
_TAG_MESSAGE = (
    "'nvidia/jetson-nano' is a tag, and a tag takes no options: TVM v0.22 read a tag only as the whole text; "
    'to change its fields write {"tag": "nvidia/jetson-nano", ...}'
)

ERROR_CASES: list[ErrorCase] = [
    # ---- unknown names
    ErrorCase(
        "llvm -mcpux=skylake",
        {},
        UnknownAttributeError,
        "kind 'llvm' has no attribute 'mcpux'; did you mean 'mcpu'?",
        (6, 11),
        "\n  llvm -mcpux=skylake\n        ^^^^^",
        suggestions=("mcpu",),
    ),
    ErrorCase(
        "cuda -max_threads=4",
        {},
        UnknownAttributeError,
        "kind 'cuda' has no attribute 'max_threads'; did you mean 'max_num_threads' or 'max_threads_per_block'?",
        (6, 17),
        "\n  cuda -max_threads=4\n        ^^^^^^^^^^^",
        suggestions=("max_num_threads", "max_threads_per_block"),
    ),
    ErrorCase(
        "lvm -mcpu=x",
        {},
        UnknownKindError,
        "unknown target kind 'lvm'; did you mean 'llvm'?",
        (0, 3),
        "\n  lvm -mcpu=x\n  ^^^",
    ),
    # "-host" alone means host "1", an unknown kind; the caret covers the option.
    ErrorCase("cuda -host", {}, UnknownKindError, "unknown target kind '1'", (5, 10), "\n  cuda -host\n       ^^^^^"),
    ErrorCase(  # a control character is shown visibly
        "llvm\r",
        {},
        UnknownKindError,
        "unknown target kind 'llvm\u240d'; did you mean 'llvm'?",
        (0, 5),
        "\n  llvm\u240d\n  ^^^^^",
    ),
    ErrorCase({"mcpu": "skylake"}, {}, UnknownKindError, "a target config needs a 'kind' or a 'tag'", (0, 0), ""),
    ErrorCase(
        {"kind": "llvm", "features": {"a": True}},
        {},
        UnknownAttributeError,
        "'features' cannot be given: the kind's canonicaliser derives them",
        (0, 0),
        "",
    ),
    ErrorCase(  # a tag stands alone
        "nvidia/jetson-nano -arch=sm_80",
        {},
        UnknownKindError,
        _TAG_MESSAGE,
        (0, 18),
        "\n  nvidia/jetson-nano -arch=sm_80\n  ^^^^^^^^^^^^^^^^^^",
    ),
    # ---- attributes TVM removed or added: the message says when
    ErrorCase(
        "llvm -keys=cpu -link-params=0",
        {},
        UnknownAttributeError,
        "kind 'llvm' has no attribute 'link-params' since TVM v0.10 (TVM v0.8 - v0.9 had it)",
        (16, 27),
        "\n  llvm -keys=cpu -link-params=0\n                  ^^^^^^^^^^^",
        suggestions=(),
    ),
    ErrorCase(
        "llvm -keys=x -link-params=1",
        {"era": "0.7"},
        UnknownAttributeError,
        "kind 'llvm' has no attribute 'link-params' until TVM v0.8 added it",
        (14, 25),
        "\n  llvm -keys=x -link-params=1\n                ^^^^^^^^^^^",
    ),
    ErrorCase(
        "cuda -shared_memory_per_block=49152",
        {},
        UnknownAttributeError,
        "kind 'cuda' has no attribute 'shared_memory_per_block' since TVM v0.9 (TVM v0.8 had it); did you mean "
        "'max_shared_memory_per_block' or 'registers_per_block' or 'max_threads_per_block'?",
        (6, 29),
        "\n  cuda -shared_memory_per_block=49152\n        ^^^^^^^^^^^^^^^^^^^^^^^",
        suggestions=("max_shared_memory_per_block", "registers_per_block", "max_threads_per_block"),
    ),
    ErrorCase(  # the old -target option names mtriple, not a tag
        "llvm -target=aarch64-linux-gnu",
        {},
        UnknownAttributeError,
        "kind 'llvm' has no attribute 'target' since TVM v0.7: it is TVM <= v0.6's 'mtriple'",
        (6, 12),
        "\n  llvm -target=aarch64-linux-gnu\n        ^^^^^^",
        suggestions=("mtriple",),
    ),
    ErrorCase(  # runtime on a leaf kind that once had it
        "c -runtime=c",
        {},
        LeafKindError,
        "kind 'c' has no attribute 'runtime' since TVM v0.10 (TVM v0.7 - v0.9 had it): it is a leaf target, and "
        "'runtime' belongs on a composite target that contains it",
        (3, 10),
        "\n  c -runtime=c\n     ^^^^^^^",
    ),
    # ---- the syntax of target strings
    ErrorCase(  # the caret stands on the quote
        "vulkan -device_name='GPU one",
        {},
        MismatchedQuoteError,
        "mismatched quote: this quote is never closed",
        (20, 21),
        "\n  vulkan -device_name='GPU one\n                      ^",
    ),
    ErrorCase(  # a 1 MB value: the message quotes the start of the line and puts the caret at the quote
        "llvm -mcpu='" + "a" * 1_000_000,
        {},
        MismatchedQuoteError,
        "mismatched quote: this quote is never closed",
        (11, 12),
        "\n  llvm -mcpu='" + "a" * 108 + "…\n             ^",
    ),
    ErrorCase(
        "llvm mcpu=skylake",
        {},
        MissingDashError,
        "expected an option starting with '-', found 'mcpu=skylake'",
        (5, 17),
        "\n  llvm mcpu=skylake\n       ^^^^^^^^^^^^",
    ),
    ErrorCase(  # a long value is quoted cut in the middle
        "llvm " + "x" * 61 + "y" * 100 + "z" * 19,
        {},
        MissingDashError,
        f"expected an option starting with '-', found '{'x' * 60}…{'z' * 19}'",
        (5, 185),
        "\n  llvm " + "x" * 61 + "y" * 94 + "…\n       " + "^" * 155,
    ),
    ErrorCase(
        "llvm -- -mcpu=a",
        {},
        MissingDashError,
        "'--' is not an option: dashes need a key after them",
        (5, 7),
        "\n  llvm -- -mcpu=a\n       ^^",
    ),
    ErrorCase(
        "llvm -mcpu=",
        {},
        EmptyKeyOrValueError,
        "empty attribute key or value in '-mcpu='",
        (5, 11),
        "\n  llvm -mcpu=\n       ^^^^^^",
    ),
    ErrorCase(
        "llvm -=skylake",
        {},
        EmptyKeyOrValueError,
        "empty attribute key or value in '-=skylake'",
        (5, 14),
        "\n  llvm -=skylake\n       ^^^^^^^^^",
    ),
    ErrorCase("", {}, TargetSyntaxError, "cannot parse an empty target string", (0, 0), ""),
    # ---- repeats: the caret is on the second
    ErrorCase(
        "llvm -mcpu=a --mcpu b",
        {},
        DuplicateAttributeError,
        "attribute 'mcpu' is given more than once",
        (15, 19),
        "\n  llvm -mcpu=a --mcpu b\n                 ^^^^",
    ),
    ErrorCase(  # the kind given as an option is a repeat
        "llvm -kind=cuda",
        {},
        DuplicateAttributeError,
        "attribute 'kind' is given more than once",
        (6, 10),
        "\n  llvm -kind=cuda\n        ^^^^",
    ),
    # ---- values
    ErrorCase(
        "llvm -num-cores=four",
        {},
        ValueConversionError,
        "attribute 'num-cores' is int: cannot parse an integer from 'four'",
        (16, 20),
        "\n  llvm -num-cores=four\n                  ^^^^",
    ),
    ErrorCase(  # an integer of a target string is 32 bits wide for TVM v0.10 - v0.20
        "llvm -num-cores=4294967296",
        {"registry": targetlang.builtin_registry("0.19")},
        ValueConversionError,
        "attribute 'num-cores' is int: cannot parse a 32-bit integer from '4294967296'",
        (16, 26),
        "\n  llvm -num-cores=4294967296\n                  ^^^^^^^^^^",
    ),
    ErrorCase(  # inside a quoted value: the caret points into the outer text
        "llvm -num-cores='x'",
        {},
        ValueConversionError,
        "attribute 'num-cores' is int: cannot parse an integer from 'x'",
        (17, 18),
        "\n  llvm -num-cores='x'\n                   ^",
    ),
    ErrorCase(  # an array item: the caret is on the item
        "composite -devices=cuda,'llvm -num-cores=x'",
        {},
        ValueConversionError,
        "attribute 'num-cores' is int: cannot parse an integer from 'x'",
        (41, 42),
        "\n  composite -devices=cuda,'llvm -num-cores=x'\n                                           ^",
    ),
    # ---- nested hosts: the caret points into the outer text
    ErrorCase(
        "cuda -host='llvm -mcpu=a -mcpu=b'",
        {},
        DuplicateAttributeError,
        "attribute 'mcpu' is given more than once",
        (26, 30),
        "\n  cuda -host='llvm -mcpu=a -mcpu=b'\n                            ^^^^",
    ),
    ErrorCase(
        "cuda -host=llvm\\ -mcpux=a",
        {},
        UnknownAttributeError,
        "kind 'llvm' has no attribute 'mcpux'; did you mean 'mcpu'?",
        (18, 23),
        "\n  cuda -host=llvm\\ -mcpux=a\n                    ^^^^^",
        suggestions=("mcpu",),
    ),
    ErrorCase(
        "cuda -host='llvm -host=c'",
        {"max_depth": 1},
        NestingTooDeepError,
        "targets nest more than 1 levels deep",
        (23, 24),
        "\n  cuda -host='llvm -host=c'\n                         ^",
    ),
    ErrorCase(  # the object too deep, in the JSON text
        '{"kind": "cuda", "host": {"kind": "llvm", "host": {"kind": "c"}}}',
        {"max_depth": 1},
        NestingTooDeepError,
        "targets nest more than 1 levels deep",
        (50, 63),
        '\n  {"kind": "cuda", "host": {"kind": "llvm", "host": {"kind": "c"}}}\n'
        "                                                    ^^^^^^^^^^^^^",
    ),
    # ---- JSON text
    ErrorCase(
        '{"kind": "llvm", "num-cores": "4"}',
        {},
        ValueConversionError,
        "attribute 'num-cores' must be an integer, not a string",
        (30, 33),
        '\n  {"kind": "llvm", "num-cores": "4"}\n                                ^^^',
    ),
    ErrorCase(  # a target string nested in JSON: the caret points into the JSON text
        '{"kind": "cuda", "host": "llvm -mcpuy=1"}',
        {},
        UnknownAttributeError,
        "kind 'llvm' has no attribute 'mcpuy'; did you mean 'mcpu'?",
        (32, 37),
        '\n  {"kind": "cuda", "host": "llvm -mcpuy=1"}\n                                  ^^^^^',
        suggestions=("mcpu",),
    ),
    ErrorCase(
        '{"kind": "llvm",,}',
        {},
        InvalidJSONError,
        "invalid JSON: unexpected token ','",
        (16, 17),
        '\n  {"kind": "llvm",,}\n                  ^',
    ),
    ErrorCase(  # unclosed: the caret is at the end
        '{"kind": "llvm"',
        {},
        InvalidJSONError,
        "invalid JSON: the object is not closed",
        (15, 15),
        '\n  {"kind": "llvm"\n                 ^',
    ),
    ErrorCase(  # a text of several lines: the line and column, and only the line at fault
        '{\n  "kind": "llvm",\n  "mcpu": 3\n}',
        {},
        ValueConversionError,
        "attribute 'mcpu' must be a string, not an integer",
        (30, 31),
        ' (line 3, column 11)\n    "mcpu": 3\n            ^',
    ),
    ErrorCase(  # JSON's "\ud800" escape decodes to a lone surrogate, which no UTF-8 text (nor TVM) can hold
        '{"kind": "cuda", "host": "llvm -mcpu=\\ud800"}',
        {},
        UnencodableTextError,
        "U+D800 is a lone surrogate, not a character: the text is not valid Unicode",
        (37, 38),
        '\n  {"kind": "cuda", "host": "llvm -mcpu=\\ud800"}\n                                       ^',
    ),
    # ---- integers beyond 64 bits. In JSON text, TVM v0.21 - v0.23 refused the whole text ("Cannot
    # load config dict with python JSON loader"); the string form's stream extraction fails alike.
    ErrorCase(
        '{"kind": "llvm", "num-cores": 9223372036854775808}',
        {},
        InvalidJSONError,
        "9223372036854775808 does not fit 64 bits: TVM's JSON loader refused the whole text",
        (30, 49),
        '\n  {"kind": "llvm", "num-cores": 9223372036854775808}\n                                ^^^^^^^^^^^^^^^^^^^',
    ),
    ErrorCase(
        {"kind": "llvm", "fast-math": 2**63},
        {},
        IntegerOverflowError,
        "config['fast-math'] is 9223372036854775808, which does not fit 64 bits",
        (0, 0),
        "",
    ),
    ErrorCase(
        {"kind": "rocm", "max_num_threads": 2**63},
        {},
        IntegerOverflowError,
        "config['max_num_threads'] is 9223372036854775808, which does not fit 64 bits",
        (0, 0),
        "",
    ),
    ErrorCase(
        {"kind": "llvm", "host": {"kind": "c", "target_device_type": -(2**63) - 1}},
        {},
        IntegerOverflowError,
        "config['host']['target_device_type'] is -9223372036854775809, which does not fit 64 bits",
        (0, 0),
        "",
    ),
    ErrorCase(  # before the kind is looked at, as TVM's FFI
        {"kind": "no-such-kind", "libs": [1, 2**64]},
        {},
        IntegerOverflowError,
        "config['libs'][1] is 18446744073709551616, which does not fit 64 bits",
        (0, 0),
        "",
    ),
    # ---- a spec of the wrong type. TVM raised ValueError for the wrong type and TypeError for a
    # top-level key that is not a string: InvalidSpecError is both, and a TargetError.
    ErrorCase(None, {}, InvalidSpecError, f"{_SPEC_TYPE} None", (0, 0), ""),
    ErrorCase(1, {}, InvalidSpecError, f"{_SPEC_TYPE} int", (0, 0), ""),
    ErrorCase(b"llvm", {}, InvalidSpecError, f"{_SPEC_TYPE} bytes", (0, 0), ""),
    ErrorCase(["llvm"], {}, InvalidSpecError, f"{_SPEC_TYPE} list", (0, 0), ""),
    ErrorCase(
        {"kind": "llvm", 1: "a"}, {}, InvalidSpecError, "a target config's keys are strings, not int: 1", (0, 0), ""
    ),
    ErrorCase(
        {"kind": "cuda", "host": {(1, 2): "llvm"}},
        {},
        InvalidSpecError,
        "a target config's keys are strings, not tuple: (1, 2)",
        (0, 0),
        "",
    ),
    # ---- a text read with mkldnn renamed (TVM's Target() replaced every mkldnn of a text holding
    # -libs=mkldnn): the caret points at what was written
    ErrorCase(
        "llvm -mkldnn -libs=mkldnn",
        {},
        UnknownAttributeError,
        "kind 'llvm' has no attribute 'dnnl'",
        (6, 12),
        "\n  llvm -mkldnn -libs=mkldnn\n        ^^^^^^",
        suggestions=(),
    ),
    ErrorCase(
        "llvm -libs=mkldnn -num-cores=four",
        {},
        ValueConversionError,
        "attribute 'num-cores' is int: cannot parse an integer from 'four'",
        (29, 33),
        "\n  llvm -libs=mkldnn -num-cores=four\n                               ^^^^",
    ),
    # ---- what the kinds' canonicalisers reject, when the target is resolved
    ErrorCase(
        "cuda -arch=80",
        {},
        CanonicalizationError,
        "CUDA target gets an invalid CUDA arch: -arch=80",
        (11, 13),
        "\n  cuda -arch=80\n             ^^",
        "resolve",
    ),
    ErrorCase(  # in a nested host: the caret points into the outer text
        "llvm -host='cuda -arch=80'",
        {},
        CanonicalizationError,
        "CUDA target gets an invalid CUDA arch: -arch=80",
        (23, 25),
        "\n  llvm -host='cuda -arch=80'\n                         ^^",
        "resolve",
    ),
    ErrorCase(
        '{"kind":"llvm","host":{"kind":"cuda","arch":"80"}}',
        {},
        CanonicalizationError,
        "CUDA target gets an invalid CUDA arch: -arch=80",
        (44, 48),
        '\n  {"kind":"llvm","host":{"kind":"cuda","arch":"80"}}\n                                              ^^^^',
        "resolve",
    ),
    # LLVM checks the options of an Arm A-profile target
    ErrorCase(
        "llvm -mtriple=aarch64-linux-gnu -mfloat-abi=softfp",
        {},
        CanonicalizationError,
        "LLVM rejects -mfloat-abi=softfp of an Arm A-profile target: it is 'hard' or 'soft'",
        (44, 50),
        "\n  llvm -mtriple=aarch64-linux-gnu -mfloat-abi=softfp\n                                              ^^^^^^",
        "resolve",
    ),
    ErrorCase(
        "llvm -mtriple=arm-linux-gnueabihf -jit=x",
        {},
        CanonicalizationError,
        "LLVM rejects -jit=x of an Arm A-profile target: it is 'mcjit' or 'orcjit'",
        (39, 40),
        "\n  llvm -mtriple=arm-linux-gnueabihf -jit=x\n                                         ^",
        "resolve",
    ),
    ErrorCase(
        '{"kind": "llvm", "mtriple": "aarch64", "vector-width": 0}',
        {},
        CanonicalizationError,
        "LLVM rejects -vector-width=0 of an Arm A-profile target: it is 1 to 65536",
        (55, 56),
        '\n  {"kind": "llvm", "mtriple": "aarch64", "vector-width": 0}\n'
        "                                                         ^",
        "resolve",
    ),
    ErrorCase(
        "cuda -host='llvm -mtriple=aarch64 -cl-opt=-option=2'",
        {},
        ValueConversionError,
        "LLVM rejects cl-opt entry '-option=2': '2' is not a valid bool value",
        (42, 51),
        "\n  cuda -host='llvm -mtriple=aarch64 -cl-opt=-option=2'\n"
        "                                            ^^^^^^^^^",
        "resolve",
    ),
    ErrorCase(  # far along a long line: the line is cut before, the caret stays under the fault
        _LONG_LINE,
        {},
        UnknownAttributeError,
        "kind 'llvm' has no attribute 'mcpux'; did you mean 'mcpu'?",
        (313, 318),
        "\n  …" + "a" * 38 + " -mcpux=1\n" + " " * 43 + "^^^^^",
        suggestions=("mcpu",),
    ),
]


@pytest.mark.parametrize("case", ERROR_CASES, ids=[repr(case.spec)[:60] for case in ERROR_CASES])
def test_errors_have_class_message_span_and_caret(case: ErrorCase) -> None:
    if case.raised_by == "resolve":
        target = targetlang.parse(case.spec, **case.options)  # reads; the canonicaliser rejects it
        with pytest.raises(TargetError) as info:
            target.resolve()
    else:
        with pytest.raises(TargetError) as info:
            targetlang.parse(case.spec, **case.options)
    err = info.value
    assert type(err) is case.cls
    assert err.message == case.message
    assert err.span == case.span
    assert err.source == (case.spec if isinstance(case.spec, str) else "")
    lines_before = err.source[: case.span[0]].split("\n")
    assert (err.line, err.column) == (len(lines_before), len(lines_before[-1]) + 1)
    assert str(err) == case.message + case.shown
    if case.suggestions is not None:
        assert isinstance(err, UnknownAttributeError) and err.suggestions == case.suggestions


def test_error_far_along_a_long_line_keeps_the_caret_under_the_fault() -> None:
    with pytest.raises(UnknownAttributeError) as info:
        targetlang.parse(_LONG_LINE)
    shown = str(info.value).split("\n")
    assert shown[0] == "kind 'llvm' has no attribute 'mcpux'; did you mean 'mcpu'?"
    assert shown[1].startswith("  …") and shown[1].endswith("-mcpux=1")
    caret = shown[2].index("^")
    assert shown[1][caret : caret + 5] == "mcpux" and shown[2][caret:] == "^^^^^"


def test_the_smallest_int64_in_a_config_is_read() -> None:
    assert targetlang.parse({"kind": "llvm", "num-cores": -(2**63)})["num-cores"] == -(2**63)


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
    # TVM raised ValueError for a spec of the wrong type and TypeError for a top-level key that
    # is not a string; an integer beyond 64 bits is an OverflowError as well
    assert issubclass(InvalidSpecError, ValueError) and issubclass(InvalidSpecError, TypeError)
    assert issubclass(IntegerOverflowError, OverflowError) and issubclass(IntegerOverflowError, ValueError)


def test_error_survives_pickling() -> None:
    with pytest.raises(targetlang.UnknownAttributeError) as info:
        targetlang.parse("llvm -mcpux=1")
    again = pickle.loads(pickle.dumps(info.value))
    assert str(again) == str(info.value)
    assert isinstance(again, targetlang.UnknownAttributeError)
    assert again.suggestions == info.value.suggestions


def test_migrate_reports_a_bad_key_as_the_reader_does() -> None:
    with pytest.raises(targetlang.InvalidSpecError):
        targetlang.migrate({"kind": "llvm", (1, 2): "a"})  # type: ignore[dict-item]
