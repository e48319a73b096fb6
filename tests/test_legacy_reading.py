"""The legacy reader's two ways of reading an option, and where it finds the options afterwards.

``_legacy_reading.read_legacy`` reads the commonest option, ``-key=value`` with a plain value (no quotes
or backslashes in the word), in a few lines of its own; every other option goes through
``_legacy_words.legacy_option`` and ``from_text``, which read any option. Both must give the same
target and the same error. The reader records no spans: ``legacy_spans`` finds them in the text
when something asks, and they must be where the options stand.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import targetlang
from targetlang import _reading as reading
from targetlang._diagnostics import LIMIT, MAX_DEPTH
from targetlang._legacy_reading import read_legacy
from targetlang._legacy_words import SPLIT_BELOW, legacy_parts, legacy_spans
from targetlang._registry import Registry, builtin_registry
from targetlang._schema import KindSchema
from targetlang._syntax import grammar_syntax
from targetlang._target import Target

from .conftest import examples
from .strategies import REGISTRY, grammar_texts
from .texts import data_texts


@functools.cache
def _registry(version: str, quick: bool) -> Registry:
    """TVM ``version``'s registry; without ``quick``, its kinds have no plain codes, and every
    option they read goes the general way."""
    registry = builtin_registry(version)
    return registry if quick else _without_codes(registry)


def _without_codes(registry: Registry) -> Registry:
    kinds = []
    for schema in registry.kinds.values():
        general = dataclasses.replace(schema)
        object.__setattr__(general, "_plain_codes", {})
        kinds.append(general)
    return Registry(kinds, registry.tags, registry.version)


def _reading(text: str, quick: bool, version: str = "0.22", max_depth: int = MAX_DEPTH) -> tuple[Any, ...]:
    """What the reader makes of ``text``, a legacy string, with its quick path or without, with
    the registry of TVM ``version``: read by ``read_legacy`` itself, past the parse caches (which
    take a registry without the quick path for the same registry, as they should)."""
    cut = legacy_parts(text)
    assert cut is not None
    token = LIMIT.set(max_depth)
    try:
        return _outcome(lambda: read_legacy(*cut, text, _registry(version, quick), 0, (), reading.parse_text))
    finally:
        LIMIT.reset(token)


def _outcome(read: Callable[[], Target]) -> tuple[Any, ...]:
    """The target ``read()`` gives, field by field, or its error with where it points."""
    try:
        target = read()
    except targetlang.TargetError as err:
        return (type(err).__name__, str(err), err.source, err.start, err.end)
    host = None if target.host is None else str(target.host)
    return (target.kind, dict(target.attrs), target.keys, target.tag, host, str(target), target.canonical())


def _legacy(text: str) -> bool:
    return legacy_parts(text) is not None


def _of_a_kind(text: str) -> bool:
    """A legacy string whose kind is one (the options of any other are not read: both readings
    report the kind, and finding the closest names for it costs 10 ms a text)."""
    cut = legacy_parts(text)
    # the kind is the first part that is a word: not empty, not a run of spaces
    return cut is not None and next(part for part in cut[0] if part and part[0] != " ") in REGISTRY.kinds


def _parsed(text: str) -> tuple[Any, ...]:
    """``_reading(text, True)`` by the whole reading of a text, which cuts a plain one itself."""
    return _outcome(lambda: reading.parse_text(text, _registry("0.22", True), 0, ()))


_LONG = "x" * (SPLIT_BELOW - len("llvm -mcpu="))  # llvm -mcpu=xxx... of SPLIT_BELOW characters


@pytest.mark.parametrize(
    "text",
    [
        "llvm -mcpu=x",
        "llvm -mcpu=x ",
        " llvm -mcpu=x",
        "llvm  -mcpu=x",
        "llvm -mcpu='x y'",
        "llvm -mcpu=x\\ y",
        "-llvm",
        "llvm -mcpu=" + _LONG[:-1],
        "llvm -mcpu=" + _LONG,
        "llvm -mcpu=" + _LONG + "x",
        "cuda -host=llvm",
    ],
)
def test_the_whole_reading_cuts_a_text_as_legacy_parts_does(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # _parse_text splits a plain text itself, without calling legacy_parts: into the same parts,
    # with the same flag, and only where legacy_parts would split it.
    given: list[tuple[list[str], bool]] = []

    def reader(parts: list[str], plain: bool, *rest: Any) -> Any:
        given.append((list(parts), plain))
        return read_legacy(parts, plain, *rest)

    monkeypatch.setattr(reading, "read_legacy", reader)
    try:
        reading.parse_text(text, builtin_registry(), 0, ())
    except targetlang.TargetError:
        pass
    cut = legacy_parts(text)
    assert given[:1] == ([] if cut is None else [cut])


def test_the_quick_reading_is_the_general_one_on_every_text_of_the_test_data() -> None:
    texts = [text for text in data_texts() if _of_a_kind(text)]
    differ = [text for text in texts if _reading(text, True) != _reading(text, False)]
    assert differ == []
    assert [text for text in texts if _parsed(text) != _reading(text, True)] == []
    accepted = [text for text in texts if not _reading(text, True)[0].endswith("Error")]
    assert len(texts) > 1000 and len(accepted) > 500  # (the test data has both, in numbers)


# Each kind of plain value at the edges of the quick path: every type, the values it leaves to
# from_text, and options it must not take (no dash, no value, twice, a modern or unknown key).
_EDGES = [
    "vulkan -supports_float16=00 -supports_int64=0 -supports_int8=007",
    "vulkan -supports_float16=true -supports_int64=FALSE -supports_int8=2",
    "llvm -opt-level=0100 -num-cores=999999999",
    "llvm -num-cores=tRuE -opt-level=truex",
    "llvm -num-cores=true5",
    "vulkan -device_name='a b' -device_type=discrete -supports_int8=True",
    "llvm -mcpu=' x ' -mtriple=''",
    "llvm -model='a'b -mcpu=x",
    "llvm -device='a\\'b' -mcpu=x",
    "llvm -mattr='+a,+b' -num-cores='4'",
    "llvm -mcpu='x'y -mtriple='' -tag=''",
    "llvm -mcpu='a\\b' -mtriple='a'b'c'",
    "  vulkan   -device_name='a b'   -supports_int8=1  ",
    "   vulkan   --device_name   'a b'   -supports_int8   ",
    "llvm -mcpu=a\\ b -mattr=+x,+y -num-cores='1'",
    "llvm -num-cores=1000000000",
    "llvm -num-cores=2147483648",
    "llvm -num-cores=4294967296",
    "llvm -num-cores=-1",
    "llvm -num-cores=+1",
    "llvm -num-cores=١٢",
    "cuda -keys=,a,,b, -libs=, -model=-",
    "cuda -keys=a -keys=b",
    "cuda -model=a --model=b",
    "cuda model=a",
    "cuda -model",
    "cuda -model x",
    "cuda -kind=cuda",
    "cuda -arch=sm_80 -nothing=1",
    "llvm -mcpu=x -host=llvm",
    "llvm -tag=x -keys=cpu,arm_cpu -mattr=+a,-b",
    "composite --host=llvm --devices=cuda,opencl",
    "composite -devices=cuda,,opencl, -host=nvidia/jetson-nano",
    "composite -devices=,",
    "composite -devices=cuda,nope",
    "composite -devices=cuda,llvm=x",
    "opencl -host=nope",
    "opencl -host=cuda -host=llvm",
    "cuda -host=llvm -mcpu=x",
    "cuda -host=nvidia/jetson-nano",
    "cuda -host='llvm -mcpu=x' -libs=cudnn",
    # one dash, two or three, before each type of plain value
    "llvm --mcpu=x ---mtriple=y --num-cores=2 ---opt-level=3",
    "vulkan ---supports_float16=true --supports_int64=0 ---device_name=x",
    "cuda ---keys=a,b --libs=x ---host=llvm",
    "composite ---devices=cuda,llvm --host=llvm",
    "cuda --model=a ---model=b",
    "cuda ---model=a -model=b",
    "cuda --=x",
    "cuda ---",
]


def _read_with(text: str, registry: Registry) -> tuple[Any, ...]:
    cut = legacy_parts(text)
    assert cut is not None
    try:
        target = read_legacy(*cut, text, registry, 0, (), reading.parse_text)
    except targetlang.TargetError as err:
        return (type(err).__name__, err.start, err.end)
    return (target.kind, dict(target.attrs))


@pytest.mark.parametrize(
    ("attrs", "text", "expected"),
    [
        # A user's attribute whose name starts with a dash is never an option: the reader strips
        # every dash of a key, so "--x" is the attribute "x", however the kind names its others.
        ({"-x": "string"}, "foo --x=1", ("UnknownAttributeError", 6, 7)),
        ({"-x": "string"}, "foo -x=1", ("UnknownAttributeError", 5, 6)),
        ({"x": "string", "-x": "string"}, "foo --x=1", ("foo", {"x": "1"})),
        ({"-x": "string", "x": "string"}, "foo --x=1", ("foo", {"x": "1"})),
        ({"x": "string", "-x": "string"}, "foo -x=1 --x=2", ("DuplicateAttributeError", 11, 12)),
        ({"--x": "int", "x": "string"}, "foo ---x=1", ("foo", {"x": "1"})),
        ({"x": "int", "--x": "string"}, "foo --x=1", ("foo", {"x": 1})),
    ],
)
def test_an_attribute_named_with_a_dash_is_no_option(attrs: dict[str, str], text: str, expected: Any) -> None:
    registry = builtin_registry().register_kind("foo", attrs)
    assert _read_with(text, registry) == _read_with(text, _without_codes(registry)) == expected


@pytest.mark.parametrize("max_depth", [0, 1])
@pytest.mark.parametrize(
    "text", ["cuda -host=llvm", "composite -devices=cuda,llvm -host=llvm", "cuda -host=nvidia/jetson-nano"]
)
def test_the_quick_reading_is_the_general_one_at_the_depth_limit(text: str, max_depth: int) -> None:
    assert _reading(text, True, max_depth=max_depth) == _reading(text, False, max_depth=max_depth)


@pytest.mark.parametrize("version", ["0.22", "0.19"])  # integers of 64 bits, and of 32
@pytest.mark.parametrize("text", _EDGES)
def test_the_quick_reading_is_the_general_one_at_the_edges(text: str, version: str) -> None:
    assert _reading(text, True, version) == _reading(text, False, version)
    if version == "0.22":
        assert _parsed(text) == _reading(text, True)


# Keys of every type and none; values plain, empty, signed, too long for 32 bits, boolean words.
_KEYS = st.one_of(
    st.sampled_from(["keys", "tag", "libs", "model", "device", "host", "kind", "from_device"]),
    st.sampled_from(sorted({name for kind in REGISTRY.kinds.values() for name in kind.attrs})),
    st.text(alphabet="abz_=-", max_size=4),
)
_VALUES = st.one_of(
    st.sampled_from(["", "1", "0", "00", "-1", "+2", "999999999", "1000000000", "4294967296", "true", "False"]),
    st.sampled_from(
        ["TRUE", "x", "a,b", ",a,,b,", ",", "0x10", "1e3", "١٢", "llvm", "sm_80", "-", "'a b'", "a\\ b", "'1'"]
    ),
    st.text(alphabet="0123ab,_-=+", max_size=6),
)
_OPTIONS = st.builds(
    lambda dashes, key, eq, value, gap: "-" * dashes + key + eq + value + gap,
    st.integers(0, 3),
    _KEYS,
    st.sampled_from(["=", "=", "=", "", " "]),
    _VALUES,
    st.sampled_from([" ", " ", "  "]),
)


@settings(max_examples=examples(1000), deadline=None)
@given(
    st.sampled_from(["llvm", "cuda", "opencl", "c", "rocm", "vulkan", "composite", "hexagon", "ext_dev"]),
    st.lists(_OPTIONS, max_size=5),
)
def test_the_quick_reading_is_the_general_one_on_generated_options(kind: str, options: list[str]) -> None:
    text = (kind + " " + "".join(options)).rstrip(" ")
    if _legacy(text):
        assert _reading(text, True) == _reading(text, False)


@settings(max_examples=examples(300), deadline=None)
@given(grammar_texts())
def test_the_quick_reading_is_the_general_one_on_grammar_texts(text: str) -> None:
    if _legacy(text):
        assert _reading(text, True) == _reading(text, False)


_NAMES = ["llvm", "cuda", "hexagon", "composite", "-x", "a b", "a'b", "a\\b", "a=b", "a,b", "é", "llvm "]


@pytest.mark.parametrize("required", [(), ("x",)])
@pytest.mark.parametrize("name", _NAMES)
def test_a_kind_alone_reads_as_the_reader_reads_it(
    name: str, required: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``_parse_text`` reads a text that is a kind's name at once; any kind's, whatever its name
    (one with a required attribute is read by the reader, which reports it missing)."""
    registry = builtin_registry().with_kind(KindSchema.build(name.strip(), {"x": "int"}, required=required))

    def outcome() -> tuple[Any, ...]:
        targetlang.clear_caches()
        try:
            target = targetlang.parse(name, registry=registry)
        except targetlang.TargetError as err:
            return (type(err).__name__, str(err), err.start, err.end)
        return (target.kind, dict(target.attrs), str(target), target.canonical(), dict(target._span_map()))

    at_once = outcome()
    monkeypatch.setattr(reading, "_one_word", lambda text: False)
    assert at_once == outcome()


# (text, {key: (start of the option, end of its key, start of its value, end of its value)})
_SPANS = [
    ("llvm", {}),
    ("llvm -mcpu=skylake", {"mcpu": (5, 10, 11, 18)}),
    ("  cuda --arch=sm_80  -libs=a,b ", {"arch": (7, 13, 14, 19), "libs": (21, 26, 27, 30)}),
    ("llvm -fast-math -mcpu=x", {"fast-math": (5, 15, 15, 15), "mcpu": (16, 21, 22, 23)}),
    ("llvm -mcpu   x -mattr=+a", {"mcpu": (5, 10, 13, 14), "mattr": (15, 21, 22, 24)}),
    ("llvm -mcpu='a b' -mtriple x", {"mcpu": (5, 10, 11, 16), "mtriple": (17, 25, 26, 27)}),
    ("llvm -mcpu=a\\ b", {"mcpu": (5, 10, 11, 15)}),
    ("cuda -keys=cuda,gpu -libs", {"keys": (5, 10, 11, 19), "libs": (20, 25, 25, 25)}),
    ("llvm -host='llvm -mcpu=x' -mcpu=y", {"host": (5, 10, 11, 25), "mcpu": (26, 31, 32, 33)}),
    # runs of spaces in a text with quotes: a part each
    ("  llvm   -mcpu   'x y'  -mattr=+a   ", {"mcpu": (9, 14, 17, 22), "mattr": (24, 30, 31, 33)}),
]


@pytest.mark.parametrize(
    ("text", "start"), [("   nope  -x='a b'", 3), ("   nope  -x=a", 3), ("  'x'  llvm", 2), ("   ", None)]
)
def test_a_kind_that_is_none_is_pointed_at_past_the_spaces_before_it(text: str, start: int | None) -> None:
    with pytest.raises(targetlang.TargetError) as info:
        targetlang.parse(text)
    if start is not None:
        assert (type(info.value), info.value.start) == (targetlang.UnknownKindError, start)


@pytest.mark.parametrize(("text", "spans"), _SPANS)
def test_options_are_found_where_they_stand(text: str, spans: dict[str, tuple[int, int, int, int]]) -> None:
    assert legacy_spans(text) == spans
    target = targetlang.parse(text)
    assert {name: target.source_span(name) for name in spans} == {
        name: (start, end) for name, (start, _, _, end) in spans.items()
    }


def test_the_spans_of_every_text_of_the_test_data_are_its_words() -> None:
    """Each option of a text that reads starts at a word the grammar reads, its key is its key,
    and its value is the rest of that word or the next word; no option is left out."""
    seen = 0
    for text in data_texts():
        if not _of_a_kind(text) or text[0] == " " or "mkldnn" in text:
            continue
        try:
            target = targetlang.parse(text)
        except targetlang.TargetError:
            continue
        if target.era or (target.tag and text == target.tag) or text in REGISTRY.tags:
            continue
        syntax = grammar_syntax(text)
        words = {word.start: word for word in syntax.words}  # type: ignore[union-attr]
        spans = target._span_map()
        written = {"keys": target.declared_keys is not None, "tag": bool(target.tag), "host": target.host is not None}
        assert set(spans) == set(target.attrs) | {name for name, given in written.items() if given}
        for key, (start, key_end, value_start, end) in spans.items():
            word = words[start]
            assert text[key_end - len(key) : key_end] == key and text[start:key_end].lstrip("-") == key
            if value_start == key_end + 1 and text[key_end] == "=":
                assert end == word.end
            elif value_start > key_end:
                assert words[value_start].end == end  # the next word
            else:
                assert value_start == end == word.end  # a flag
            seen += 1
    assert seen > 1000
