"""tvmc target lists and per-kind flags (targetlang._tvmc, spec section 11).

tvmc's own tokenizer is kept here as the oracle: on every text where it dropped nothing but
whitespace, targetlang's tokens must be its tokens.
"""

from __future__ import annotations

import argparse
import pickle
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from targetlang import (
    EmptyKeyOrValueError,
    KindSchema,
    MismatchedQuoteError,
    MissingDashError,
    Registry,
    TargetError,
    UnknownAttributeError,
    UnknownKindError,
    ValueConversionError,
    builtin_registry,
)
from targetlang._tvmc import (
    EmptyTargetError,
    EmptyValueError,
    InlineJSONError,
    TvmcEntry,
    TvmcError,
    TvmcTargets,
    add_target_args,
    options_from_flags,
    parse_target_list,
    parse_tvmc,
    scan,
    target_flags,
    tokenize,
)

from .conftest import examples, read_jsonl

# python/tvm/driver/tvmc/target.py@v0.19.0, tokenize_target.
TVMC_PATTERN = re.compile(
    r"(\-{0,2}[\w\-]+\=?"
    r"(?:[\w\+\-\.]+(?:,[\w\+\-\.])*"
    r"|[\'][\w\+\-,\s\.]+[\']"
    r"|[\"][\w\+\-,\s\.]+[\"])*"
    r"|,)"
)


def tvmc_tokens(text: str) -> list[str]:
    """tvmc's ``tokenize_target``."""
    return TVMC_PATTERN.findall(text)


def tvmc_dropped(text: str) -> str:
    """The characters other than whitespace that tvmc's tokenizer silently dropped."""
    covered = [False] * len(text)
    for match in TVMC_PATTERN.finditer(text):
        covered[match.start() : match.end()] = [True] * (match.end() - match.start())
    return "".join(c for c, kept in zip(text, covered, strict=True) if not kept and not c.isspace())


# ---------------------------------------------------------------- corpus


def _release(record: dict[str, Any]) -> str:
    # The last release a text is recorded in (tvmc ended with v0.19): its kinds decide.
    refs = record.get("refs", "v0.19.0")
    last = refs.split("..")[-1].lstrip("v").split(".")
    return f"{last[0]}.{min(int(last[1]), 19)}"


CORPUS = [r for r in read_jsonl("corpus", "strings.jsonl") if r["form"] == "tvmc-multi"]

# Corpus lists that tvmc rejected too, with the reason.
CORPUS_REJECTED = {
    "llvm, llvm": "a target given twice (the TVM test expects the error)",
    "ethos-u -accelerator_config=ethos-u55-256, c, cmsis-nn": "the last target is a codegen (a config-file key)",
    'foo -opt1="v, a, l, u, e", bar': "placeholder names of a tokenizer test",
    "foo -opt1='v, a, l, u, e', bar": "placeholder names of a tokenizer test",
    "foo -opt1=+value1 --flag, bar -opt2=test,+v": "placeholder names of a tokenizer test",
    "foo -opt1=value1 --flag, bar -opt2=value2": "placeholder names of a tokenizer test",
}


def test_corpus_has_tvmc_lists() -> None:
    assert len(CORPUS) >= 20
    assert set(CORPUS_REJECTED) <= {r["text"] for r in CORPUS}


@pytest.mark.parametrize("record", CORPUS, ids=[r["text"] for r in CORPUS])
def test_corpus_list_prints_back_exactly(record: dict[str, Any]) -> None:
    text = record["text"]
    # Real lists hold only characters tvmc knew: the tokens are tvmc's.
    assert tvmc_dropped(text) == ""
    assert tokenize(text) == tvmc_tokens(text)
    entries = parse_target_list(text)
    assert [e.text for e in entries] == [text[e.span[0] : e.span[1]] for e in entries]
    registry = builtin_registry(_release(record))
    if text in CORPUS_REJECTED:
        with pytest.raises(TvmcError):
            parse_tvmc(text, registry=registry)
        return
    result = parse_tvmc(text, registry=registry)
    assert str(result) == text
    assert result.targets == parse_target_list(text, registry=registry)


# ---------------------------------------------------------------- tokens


@pytest.mark.parametrize(
    "text",
    [
        "llvm,c",
        "cmsis-nn, c -mcpu=cortex-m55",
        "a.b,c",  # tvmc's comma rule: after "." the comma is inside the token
        "foo -opt1=+value1 --flag, bar -opt2=test,+v",
        "x -a='x',y",
        "x -a='x'b,c",
        "x\t-a=1\n,\u00a0y",
    ],
)
def test_tokens_are_tvmcs_where_tvmc_dropped_nothing(text: str) -> None:
    assert tvmc_dropped(text) == ""
    assert tokenize(text) == tvmc_tokens(text)


def test_quotes_tvmc_dropped_are_kept() -> None:
    assert tvmc_dropped("'x' -a=1") == "''"
    assert tvmc_tokens("'x' -a=1") == ["x", "-a=1"]
    assert tokenize("'x' -a=1") == ["'x'", "-a=1"]


_TVMC_ALPHABET = st.sampled_from([*"ab1_-+.,= '\"\t", "é", "--", "/", ":"])


@settings(max_examples=examples(2000), deadline=None)
@given(st.lists(_TVMC_ALPHABET, min_size=1, max_size=16).map("".join))
def test_tokens_agree_with_tvmc_on_every_text_it_read_whole(text: str) -> None:
    if tvmc_dropped(text) == "":
        assert tokenize(text) == tvmc_tokens(text)


@settings(max_examples=examples(500), deadline=None)
@given(st.text(st.characters(blacklist_categories=["Cs"]), max_size=30))
def test_tokens_keep_every_character_but_whitespace(text: str) -> None:
    try:
        tokens = scan(text)
    except MismatchedQuoteError as err:
        assert text[err.start] in "'\""
        return
    covered = [False] * len(text)
    for token in tokens:
        assert text[token.start : token.end] == token.text
        covered[token.start : token.end] = [True] * (token.end - token.start)
    assert all(kept or re.match(r"\s", c) for c, kept in zip(text, covered, strict=True))


# Texts where tvmc dropped characters: the tokens targetlang gives instead, and what the
# target is then.
DROPPED_CASES: list[tuple[str, list[str], str, Any]] = [
    ("opencl -model=Mali-T860MP4@800Mhz", ["opencl", "-model=Mali-T860MP4@800Mhz"], "model", "Mali-T860MP4@800Mhz"),
    ("llvm -cl-opt='-a:uint=1'", ["llvm", "-cl-opt='-a:uint=1'"], "cl-opt", ("-a:uint=1",)),
    ("llvm -model=a=b", ["llvm", "-model=a=b"], "model", "a=b"),
    (
        "hexagon -llvm-options=-hexagon-small-data-threshold=0",
        ["hexagon", "-llvm-options=-hexagon-small-data-threshold=0"],
        "llvm-options",
        ("-hexagon-small-data-threshold=0",),
    ),
    ("llvm -mattr=x,'+a,+b'", ["llvm", "-mattr=x,'+a,+b'"], "mattr", ("x", "+a,+b")),
    ("cuda -libs=my/lib,cudnn", ["cuda", "-libs=my/lib,cudnn"], "libs", ("my/lib", "cudnn")),
    (
        "cuda -host='llvm -mtriple=x86_64-linux-gnu'",
        ["cuda", "-host='llvm -mtriple=x86_64-linux-gnu'"],
        "host",
        "llvm -mtriple=x86_64-linux-gnu",
    ),
]


@pytest.mark.parametrize(("text", "tokens", "attr", "value"), DROPPED_CASES)
def test_characters_tvmc_dropped_are_kept(text: str, tokens: list[str], attr: str, value: Any) -> None:
    assert tvmc_dropped(text) != ""
    assert tokenize(text) == tokens
    target = parse_tvmc(text).target
    if attr == "host":
        assert target.host is not None and str(target.host) == value
    else:
        assert target[attr] == value


@pytest.mark.parametrize("text", ["nvidia/jetson-nano, llvm", "nvidia/jetson-nano,llvm"])
def test_a_tag_is_a_tvm_target(text: str) -> None:
    assert tvmc_dropped(text) == "/"
    assert tokenize(text) == ["nvidia/jetson-nano", ",", "llvm"]
    result = parse_tvmc(text)
    assert result.target.kind == "cuda" and result.target["arch"] == "sm_53"
    assert result.host is not None and result.host.kind == "llvm"
    assert [e.is_tvm_target for e in result.targets] == [True, True]


def test_a_tag_with_a_comma_is_written_in_quotes() -> None:
    assert tokenize("nvidia/geforce-gt-730-ddr3,128bit") == ["nvidia/geforce-gt-730-ddr3", ",", "128bit"]
    result = parse_tvmc("'nvidia/geforce-gt-730-ddr3,128bit', llvm")
    assert result.targets[0].name == "nvidia/geforce-gt-730-ddr3,128bit"
    assert result.target.kind == "cuda"


def test_quoted_values_with_spaces_arrive_whole() -> None:
    # tvmc removed the quotes and rebuilt "-device_name=Name of GPU", which TVM rejected.
    assert tvmc_dropped("vulkan -device_name='Name of GPU'") == ""
    assert parse_tvmc("vulkan -device_name='Name of GPU'").target["device_name"] == "Name of GPU"
    assert parse_tvmc('llvm -mattr="+a, +b"').target["mattr"] == ("+a", "+b")


# ---------------------------------------------------------------- tvmc's reading


def test_options_as_tvmc_read_them() -> None:
    (entry,) = parse_target_list("foo  -a=1   --flag -b='x y' c=2 --host=llvm -a=3 -q='p'r")
    # A repeated option keeps its first place and its last value; --flag is True, even with
    # "=" in it; a token without a dash is an option too; 'p'r loses its first and last character.
    assert dict(entry.opts) == {"a": "3", "flag": True, "b": "x y", "c": "2", "host=llvm": True, "q": "p'"}
    assert entry.raw == "foo -a=1 --flag -b='x y' c=2 --host=llvm -a=3 -q='p'r"
    assert entry.text == "foo  -a=1   --flag -b='x y' c=2 --host=llvm -a=3 -q='p'r"
    assert entry.is_tvm_target is False


def test_inline_repeated_option_keeps_the_last_value() -> None:
    target = parse_tvmc("llvm -mcpu=a -mattr=+x -mcpu=b").target
    assert str(target) == "llvm -mcpu=b -mattr=+x"


def test_flag_options_become_true() -> None:
    assert parse_tvmc("llvm --fast-math").target["fast-math"] is True
    assert str(parse_tvmc("llvm --fast-math").target) == "llvm -fast-math=True"


def test_codegens_are_extra_targets_even_when_registered_kinds() -> None:
    registry = builtin_registry("0.18")
    assert "cmsis-nn" in registry.kinds
    result = parse_tvmc("ethos-u -accelerator_config=ethos-u55-256, cmsis-nn, c -mcpu=cortex-m55", registry=registry)
    assert [e.name for e in result.extra_targets] == ["ethos-u", "cmsis-nn"]
    assert result.extra_targets[0].opts == {"accelerator_config": "ethos-u55-256"}
    assert result.host is None and str(result.target) == "c -mcpu=cortex-m55"


def test_second_tvm_target_is_the_host_and_replaces_an_inline_one() -> None:
    assert str(parse_tvmc("cuda -host=c").host) == "c"
    result = parse_tvmc("cuda -host=c, llvm -mcpu=skylake")
    assert result.host is not None and str(result.host) == "llvm -mcpu=skylake"
    assert result.target.host == result.host


def test_per_kind_options_override_and_extend() -> None:
    options: dict[str, dict[str, Any]] = {
        "llvm": {"mcpu": "cortex-m3"},
        "opencl": {"max_num_threads": 404},
        "cmsis-nn": {"mcpu": "m55"},
    }
    result = parse_tvmc("cmsis-nn, opencl -device=mali, llvm -mcpu=x -mtriple=aarch64-linux-gnu", options=options)
    assert "-max_num_threads=404" in result.target.to_legacy_str()
    assert "-device=mali" in result.target.to_legacy_str()
    assert result.host is not None
    assert str(result.host) == "llvm -mcpu=cortex-m3 -mtriple=aarch64-linux-gnu"
    assert result.extra_targets[0].opts == {"mcpu": "m55"}
    assert result.targets[2].opts == {"mcpu": "cortex-m3", "mtriple": "aarch64-linux-gnu"}
    assert result.options == options


def test_empty_options_for_a_missing_target_are_no_flag() -> None:
    assert str(parse_tvmc("llvm", options={"opencl": {}}).target) == "llvm"


# ---------------------------------------------------------------- errors

_JSON_MESSAGE = (
    "tvmc read this as inline JSON, a path on which v0.8 - v0.19 failed (UnboundLocalError);"
    " read JSON targets with targetlang.parse"
)

SMALL = Registry([KindSchema.build("llvm", {"mcpu": "string"}), KindSchema.build("c"), KindSchema.build("cmsis-nn")])

ERROR_CASES: list[tuple[str, Registry | None, type[TargetError], str, tuple[int, int]]] = [
    ("", None, EmptyTargetError, "no target given", (0, 0)),
    ("  ", None, EmptyTargetError, "no target given", (0, 2)),
    ("llvm,", None, EmptyTargetError, "empty target: there is no target after this comma", (4, 5)),
    (",llvm", None, EmptyTargetError, "empty target: there is no target before this comma", (0, 1)),
    ("cmsis-nn,, llvm", None, EmptyTargetError, "empty target: there is no target before this comma", (9, 10)),
    (
        "llvm -mcpu",
        None,
        TvmcError,
        "cannot read the option '-mcpu': an option is -NAME=VALUE, or --NAME for a flag",
        (5, 10),
    ),
    (
        "llvm mcpu",
        None,
        TvmcError,
        "cannot read the option 'mcpu': an option is -NAME=VALUE, or --NAME for a flag",
        (5, 9),
    ),
    ("llvm -mcpu=", None, EmptyValueError, "empty option value in '-mcpu='", (5, 11)),
    ("llvm -mcpu=''", None, EmptyValueError, "empty option value in '-mcpu='''", (5, 13)),
    ("llvm -=x", None, EmptyKeyOrValueError, "empty option name or value in '-=x'", (5, 8)),
    ("llvm --", None, EmptyKeyOrValueError, "empty option name in '--'", (5, 7)),
    ("llvm -mattr='+a", None, MismatchedQuoteError, "mismatched quote: this quote is never closed", (12, 13)),
    ("llvm, llvm", None, TvmcError, "target 'llvm' is given twice: each target may appear once", (6, 10)),
    (
        "llvm, x",
        SMALL,
        TvmcError,
        "the last target must be a TVM target, and 'x' is not a registered target kind or tag; kinds: llvm, c",
        (6, 7),
    ),
    (
        "llvm, cmsis-nn",
        SMALL,
        TvmcError,
        "the last target must be a TVM target, and 'cmsis-nn' is a BYOC codegen; kinds: llvm, c",
        (6, 14),
    ),
    (
        "cuda, opencl, llvm",
        None,
        TvmcError,
        "at most two TVM targets (a target and its host) can be given; found 3: cuda, opencl, llvm",
        (14, 18),
    ),
    (
        '{"kind": "llvm"}',
        None,
        InlineJSONError,
        "tvmc read this as inline JSON, a path on which v0.8 - v0.19 failed (UnboundLocalError);"
        " read JSON targets with targetlang.parse",
        (0, 16),
    ),
    (
        "nvidia/jetson-nano -arch=sm_80, llvm",
        None,
        TvmcError,
        "the tag 'nvidia/jetson-nano' is a whole target: it takes no options",
        (19, 30),
    ),
    ("x, llvm -mcpu=a -foo=1", None, UnknownAttributeError, "kind 'llvm' has no attribute 'foo'", (17, 20)),
    (
        "llvm -num-cores=four",
        None,
        ValueConversionError,
        "attribute 'num-cores' is int: cannot parse a 32-bit integer from 'four'",
        (16, 20),
    ),
    (
        "llvm -num-cores='fo ur'",
        None,
        ValueConversionError,
        "attribute 'num-cores' is int: cannot parse a 32-bit integer from 'fo ur'",
        (17, 22),
    ),
    # tvmc's reading of --host=llvm: an option named "host=llvm", rebuilt as -host=llvm=True.
    (
        "cuda --host=llvm",
        None,
        UnknownKindError,
        "unknown target kind 'llvm=True'; did you mean 'llvm'?",
        (12, 16),
    ),
]


@pytest.mark.parametrize(("text", "registry", "cls", "message", "span"), ERROR_CASES)
def test_errors_have_class_message_and_span(
    text: str, registry: Registry | None, cls: type[TargetError], message: str, span: tuple[int, int]
) -> None:
    with pytest.raises(cls) as info:
        parse_tvmc(text, registry=registry)
    err = info.value
    assert type(err) is cls  # pytest.raises(cls) lets a subclass through
    assert err.message == message
    assert err.source == text
    assert err.span == span


# What tvmc v0.19 raised (tests/data/oracle/tvmc-lists.jsonl, recorded by
# tests/oracle/record_tvmc_lists.py): target_from_cli turned only a ValueError of parse_target into
# a TVMCException (no built-in base but Exception: None here), so an empty target (codegen_def[0])
# or an empty value (opt_value[0]) escaped as an IndexError, and a text json.loads reads left
# target_host unset (UnboundLocalError). parse_target failed at the first bad target or option, in
# order; an empty option name passed it and failed when TVM built the target (ValueError), after
# tvmc's checks. targetlang's error (its class, exactly) must be an instance of tvmc's.
TVMC_V019_RAISED: list[tuple[str, list[str], type[BaseException] | None, type[TargetError], str]] = [
    ("", [], IndexError, EmptyTargetError, "no target given"),
    ("\t\n", [], IndexError, EmptyTargetError, "no target given"),
    ("llvm, ,", [], IndexError, EmptyTargetError, "empty target: there is no target before this comma"),
    (", llvm -mcpu", [], IndexError, EmptyTargetError, "empty target: there is no target before this comma"),
    ("", ["--target-cuda-arch=x"], IndexError, EmptyTargetError, "no target given"),
    (
        "llvm,",
        ["--target-cuda-arch=x"],
        IndexError,
        EmptyTargetError,
        "empty target: there is no target after this comma",
    ),
    ("llvm -mcpu=", [], IndexError, EmptyValueError, "empty option value in '-mcpu='"),
    ('llvm -mcpu=""', [], IndexError, EmptyValueError, "empty option value in '-mcpu=\"\"'"),
    ("cuda -arch=", [], IndexError, EmptyValueError, "empty option value in '-arch='"),
    ("llvm -mtriple= -mcpu=alderlake", [], IndexError, EmptyValueError, "empty option value in '-mtriple='"),
    ("compute-library -x=, llvm", [], IndexError, EmptyValueError, "empty option value in '-x='"),
    ("llvm -mcpu=, ,", [], IndexError, EmptyValueError, "empty option value in '-mcpu='"),
    ("llvm -mcpu=, x -a", [], IndexError, EmptyValueError, "empty option value in '-mcpu='"),
    ("llvm -mcpu=", ["--target-llvm-mcpu=x"], IndexError, EmptyValueError, "empty option value in '-mcpu='"),
    (
        "llvm -mcpu, ",
        [],
        None,
        TvmcError,
        "cannot read the option '-mcpu': an option is -NAME=VALUE, or --NAME for a flag",
    ),
    (
        "x -a, llvm -b=",
        [],
        None,
        TvmcError,
        "cannot read the option '-a': an option is -NAME=VALUE, or --NAME for a flag",
    ),
    ("llvm --, ,", [], IndexError, EmptyTargetError, "empty target: there is no target before this comma"),
    ("llvm -=x, ,", [], IndexError, EmptyTargetError, "empty target: there is no target before this comma"),
    ("llvm -=x, llvm -b=", [], IndexError, EmptyValueError, "empty option value in '-b='"),
    ("llvm -=x", [], ValueError, EmptyKeyOrValueError, "empty option name or value in '-=x'"),
    ("llvm --", [], ValueError, EmptyKeyOrValueError, "empty option name in '--'"),
    ("llvm -=x, llvm", [], None, TvmcError, "target 'llvm' is given twice: each target may appear once"),
    (
        "llvm -=x",
        ["--target-cuda-arch=x"],
        None,
        TvmcError,
        "Passed --target-cuda-arch but did not specify cuda target",
    ),
    *(
        (text, flags, UnboundLocalError, InlineJSONError, _JSON_MESSAGE)
        for text, flags in [
            ("9", []),
            (" 1 ", []),
            ("null", []),
            ("NaN", []),
            ("-Infinity", []),
            ('"llvm"', []),
            ("[1, 2]", []),
            ("[" * 5000 + "]" * 5000, []),
            ("9", ["--target-llvm-mcpu=x"]),
        ]
    ),
]


@pytest.mark.parametrize(
    ("text", "flags", "raised", "cls", "message"), TVMC_V019_RAISED, ids=[repr(c[:2])[:60] for c in TVMC_V019_RAISED]
)
def test_errors_are_instances_of_what_tvmc_v0_19_raised(
    text: str, flags: list[str], raised: type[BaseException] | None, cls: type[TargetError], message: str
) -> None:
    with pytest.raises(TargetError) as info:
        parse_tvmc(text, options=options_from_flags(flags))
    err = info.value
    assert type(err) is cls
    assert err.message == message
    if raised is not None:
        assert isinstance(err, raised)
    else:  # a TVMCException: not an IndexError or UnboundLocalError, which tvmc did not raise
        assert not isinstance(err, IndexError | UnboundLocalError)


def test_an_empty_option_name_is_reported_after_the_whole_list_is_read() -> None:
    with pytest.raises(EmptyKeyOrValueError) as info:
        parse_target_list("llvm -=x, c --")
    assert info.value.span == (5, 8)
    with pytest.raises(EmptyTargetError):
        parse_target_list("llvm -=x,")


def test_error_message_shows_the_text_and_a_caret() -> None:
    with pytest.raises(TvmcError) as info:
        parse_tvmc("llvm, llvm")
    assert str(info.value) == "target 'llvm' is given twice: each target may appear once\n  llvm, llvm\n        ^^^^"


def test_error_for_options_of_a_target_not_listed() -> None:
    with pytest.raises(TvmcError) as info:
        parse_tvmc("llvm", options={"opencl": {"max_num_threads": 404}})
    assert str(info.value) == (
        "Passed --target-opencl-max_num_threads but did not specify opencl target\n  llvm\n  ^^^^"
    )


def test_error_in_a_flag_value_points_at_its_target() -> None:
    with pytest.raises(ValueConversionError) as info:
        parse_tvmc("x, llvm -mcpu=a", options={"llvm": {"num-cores": "four"}})
    assert info.value.span == (3, 7)
    with pytest.raises(ValueConversionError) as info:
        parse_tvmc("llvm -num-cores=2", options={"llvm": {"num-cores": "four"}})
    assert info.value.span == (5, 17)


@pytest.mark.parametrize(
    ("text", "flag", "error", "message", "span"),
    [
        # tvmc wrote a flag's value as it was: TVM rejected "llvm -mcpu=" and "llvm -mcpu=a b". The
        # error stands on the target the flag is for, or on the option the flag replaced.
        ("llvm", "--target-llvm-mcpu=", EmptyKeyOrValueError, "empty attribute key or value in '-mcpu='", (0, 4)),
        (
            "cuda, llvm",
            "--target-llvm-mcpu= ",
            EmptyKeyOrValueError,
            "empty attribute key or value in '-mcpu='",
            (6, 10),
        ),
        (
            "llvm -mcpu=x",
            "--target-llvm-mcpu=",
            EmptyKeyOrValueError,
            "empty attribute key or value in '-mcpu='",
            (5, 12),
        ),
        (
            "llvm",
            "--target-llvm-mattr=+a, +b",
            MissingDashError,
            "expected an option starting with '-', found '+b'",
            (0, 4),
        ),
        ("c", "--target-c-mcpu=a b", MissingDashError, "expected an option starting with '-', found 'b'", (0, 1)),
    ],
)
def test_error_flag_value_tvm_could_not_read(
    text: str, flag: str, error: type[TargetError], message: str, span: tuple[int, int]
) -> None:
    with pytest.raises(error) as info:
        parse_tvmc(text, options=options_from_flags([flag]))
    assert info.value.message == message
    assert info.value.span == span


@pytest.mark.parametrize(
    ("flag", "value"),
    [("--target-llvm-mcpu='q'", "q"), ("--target-llvm-mcpu=a=b", "a=b"), ("--target-llvm-mcpu=-x", "-x")],
)
def test_flag_value_read_as_tvm_read_it(flag: str, value: str) -> None:
    assert parse_tvmc("llvm", options=options_from_flags([flag])).target["mcpu"] == value


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.sampled_from([*"ab-=,'\" /:", "llvm", "cuda", "cmsis-nn", "--"]), max_size=12).map("".join))
def test_any_text_reads_or_raises_a_target_error(text: str) -> None:
    try:
        result = parse_tvmc(text)
    except TargetError as err:
        assert err.source == text and 0 <= err.start <= err.end <= len(text)
        return
    assert str(result) == text


# ---------------------------------------------------------------- generated lists

_PLAIN = st.characters(blacklist_categories=["Cs", "Cc", "Zs", "Zl", "Zp"], blacklist_characters=",'\"")
_NAMES = st.text(_PLAIN, min_size=1, max_size=8).filter(lambda s: not re.search(r"\s", s))
_KEYS = _NAMES.filter(lambda s: "=" not in s and not s.startswith("-"))
_VALUES = st.one_of(st.just(True), st.text(st.characters(blacklist_categories=["Cs"]), max_size=8))


def _render_option(key: str, value: Any) -> str | None:
    if value is True:
        return f"--{key}"
    if value == "":
        return None  # an empty value, quoted or not, is an error (tvmc's IndexError)
    if value and not re.search(r"[\s,'\"]", value):
        return f"-{key}={value}"
    quote = "'" if "'" not in value else '"'
    return None if quote in value else f"-{key}={quote}{value}{quote}"


@settings(max_examples=examples(300), deadline=None)
@given(
    st.lists(
        st.tuples(_NAMES, st.lists(st.tuples(_KEYS, _VALUES), max_size=4)),
        min_size=1,
        max_size=4,
        unique_by=lambda t: t[0],
    ),
    st.sampled_from([" ", "  ", "\t"]),
    st.sampled_from([", ", " , ", ",\n"]),
)
def test_generated_lists_read_back(targets: list[tuple[str, list[tuple[str, Any]]]], space: str, comma: str) -> None:
    parts = []
    expected = []
    for name, options in targets:
        rendered = [_render_option(key, value) for key, value in options]
        kept = [(key, value) for (key, value), r in zip(options, rendered, strict=True) if r is not None]
        parts.append(space.join([name, *(r for r in rendered if r is not None)]))
        expected.append((name, dict(kept)))
    text = comma.join(parts)
    entries = parse_target_list(text)
    assert [(e.name, dict(e.opts)) for e in entries] == expected
    assert [e.text for e in entries] == parts


@settings(max_examples=examples(200), deadline=None)
@given(
    st.lists(st.sampled_from(["mcpu", "mtriple", "mattr", "num-cores"]), max_size=3),
    st.sampled_from(["", "cmsis-nn, ", "compute-library -x=1, "]),
    st.sampled_from(["", ", c"]),
)
def test_generated_tvm_lists_print_back(attrs: list[str], prefix: str, host: str) -> None:
    values = {"mcpu": "cortex-a72", "mtriple": "aarch64-linux-gnu", "mattr": "+neon,+v8.2a", "num-cores": "4"}
    text = prefix + " ".join(["llvm", *(f"-{a}={values[a]}" for a in attrs)]) + host
    result = parse_tvmc(text)
    assert str(result) == text
    assert result.target.kind == "llvm" and set(result.target.attrs) == set(attrs)
    assert (result.host is not None) == bool(host)


# ---------------------------------------------------------------- the object


def test_result_is_immutable_and_read_only() -> None:
    result = parse_tvmc("cmsis-nn -a=1, llvm")
    with pytest.raises(AttributeError):
        result._text = "c"
    with pytest.raises(TypeError):
        result.targets[0].opts["a"] = "2"  # type: ignore[index]
    with pytest.raises(AttributeError):
        result.targets[0].name = "x"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("text", "kwargs"),
    [
        ("cmsis-nn, c -mcpu=cortex-m55", {}),
        ("llvm", {"options": {"llvm": {"mcpu": "cortex-m3"}}}),
        ("cmsis-nn,llvm", {"registry": builtin_registry("0.18")}),
    ],
)
def test_repr_evaluates_to_an_equal_object(text: str, kwargs: dict[str, Any]) -> None:
    result = parse_tvmc(text, **kwargs)
    scope = {"parse_tvmc": parse_tvmc, "builtin_registry": builtin_registry, "TvmcEntry": TvmcEntry}
    assert eval(repr(result), scope) == result
    assert hash(eval(repr(result), scope)) == hash(result)
    for entry in result.targets:
        assert eval(repr(entry), scope) == entry
        assert hash(entry) == hash(eval(repr(entry), scope))
    assert pickle.loads(pickle.dumps(result)) == result
    assert TvmcTargets(text, **kwargs) == result


def test_results_compare_by_text_registry_and_options() -> None:
    assert parse_tvmc("llvm") != parse_tvmc("llvm ")
    assert parse_tvmc("llvm") != parse_tvmc("llvm", options={"llvm": {"mcpu": "x"}})
    assert parse_tvmc("llvm") != parse_tvmc("llvm", registry=builtin_registry("0.18"))


def test_deeply_nested_json_is_the_json_path() -> None:
    # json.loads gives up with a RecursionError; tvmc crashed there, targetlang reports it.
    with pytest.raises(TvmcError, match="inline JSON"):
        parse_tvmc("[" * 100_000 + "]" * 100_000)


def test_not_a_string() -> None:
    with pytest.raises(TypeError):
        parse_tvmc(["llvm"])  # type: ignore[arg-type]


# ---------------------------------------------------------------- flags


def test_flags_of_v0_19_have_no_ints_targets_or_codegens() -> None:
    flags = target_flags()
    assert flags["--target-llvm-mcpu"] == ("llvm", "mcpu")
    assert flags["--target-llvm-mattr"] == ("llvm", "mattr")
    assert flags["--target-llvm-mfloat-abi"] == ("llvm", "mfloat-abi")
    for absent in ("--target-llvm-num-cores", "--target-llvm-host", "--target-cmsis-nn-mcpu", "--target-mrvl-mcpu"):
        assert absent not in flags
    assert not any(kind in ("clml", "mrvl") for kind, _ in flags.values())


def test_flags_of_the_intimm_era_have_ints() -> None:
    flags = target_flags(builtin_registry("0.17"))
    assert flags["--target-llvm-num-cores"] == ("llvm", "num-cores")
    assert flags["--target-opencl-max_num_threads"] == ("opencl", "max_num_threads")
    parser = argparse.ArgumentParser()
    add_target_args(parser, builtin_registry("0.17"))
    parsed, unknown = parser.parse_known_args(["--target=llvm", "--target-llvm-num-cores=4", "--x"])
    assert parsed.target == "llvm" and parsed.target_llvm_num_cores == 4 and unknown == ["--x"]


def test_codegen_flags_up_to_v0_18() -> None:
    flags = target_flags(builtin_registry("0.18"))
    assert flags["--target-cmsis-nn-mcpu"] == ("cmsis-nn", "mcpu")
    assert flags["--target-ethos-u-enable_cascader"] == ("ethos-u", "enable_cascader")
    assert "--target-cmsis-nn-from_device" not in flags


def test_options_from_a_mapping() -> None:
    flags = {"target": "llvm", "target_llvm_mcpu": "x", "target_llvm_mattr": None, "--target-c-mcpu": "y"}
    assert options_from_flags(flags) == {"llvm": {"mcpu": "x"}, "c": {"mcpu": "y"}}


def test_options_from_a_command_line_end_to_end() -> None:
    registry = builtin_registry("0.17")
    argv = ["--target-llvm-mcpu=cortex-m3", "--target-opencl-max_num_threads", "404", "--other"]
    options = options_from_flags(argv, registry)
    assert options == {"llvm": {"mcpu": "cortex-m3"}, "opencl": {"max_num_threads": 404}}
    result = parse_tvmc("opencl -device=mali, llvm -mtriple=aarch64-linux-gnu", registry=registry, options=options)
    assert "-max_num_threads=404" in result.target.to_legacy_str()
    assert result.host is not None and "-mcpu=cortex-m3" in result.host.to_legacy_str()


def test_bad_flags() -> None:
    with pytest.raises(TvmcError) as info:
        options_from_flags(["--target-llvm-num-cores=four"], builtin_registry("0.17"))
    assert info.value.message == "bad tvmc flags: argument --target-llvm-num-cores: invalid int value: 'four'"
    assert info.value.source == "--target-llvm-num-cores=four"
    with pytest.raises(TypeError):
        options_from_flags("--target-llvm-mcpu=x")
