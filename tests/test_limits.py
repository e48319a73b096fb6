"""Deep nesting, large and random inputs: a result or a TargetError, never a crash."""

from __future__ import annotations

import tracemalloc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import targetlang
from targetlang import _printing
from targetlang._parsing import MAX_DEPTH

from .conftest import examples


def nested_json(depth: int) -> str:
    return '{"kind":"llvm","host":' * depth + '{"kind":"llvm"}' + "}" * depth


def test_deep_json_hosts_are_a_nesting_error() -> None:
    with pytest.raises(targetlang.NestingTooDeepError):
        targetlang.parse(nested_json(5000))
    with pytest.raises(targetlang.NestingTooDeepError):
        targetlang.parse(nested_json(MAX_DEPTH + 1))


def test_deep_json_arrays_are_a_nesting_error() -> None:
    with pytest.raises(targetlang.NestingTooDeepError):
        targetlang.parse('{"kind":"llvm","mattr":' + "[" * 100_000 + "]" * 100_000 + "}")


def test_deep_dicts_are_a_nesting_error() -> None:
    config: dict[str, object] = {"kind": "llvm"}
    for _ in range(5000):
        config = {"kind": "llvm", "host": config}
    with pytest.raises(targetlang.NestingTooDeepError):
        targetlang.parse(config)


def test_canonical_of_deep_nesting_stays_linear() -> None:
    # Legacy text escapes every level again; canonical() switches nested targets to JSON.
    text = nested_json(MAX_DEPTH - 1)
    target = targetlang.parse(text)
    canonical = target.canonical()
    assert len(canonical) < 2 * len(text)
    assert targetlang.parse(canonical) == target


def test_huge_value_parses() -> None:
    text = "llvm -mcpu=" + "a" * 2_000_000
    assert str(targetlang.parse(text)) == text


@settings(max_examples=examples(300), deadline=None)
@given(st.binary(max_size=200))
def test_random_bytes_give_a_target_or_a_target_error(data: bytes) -> None:
    text = data.decode("latin-1")
    try:
        target = targetlang.parse(text)
    except targetlang.TargetError:
        return
    assert str(target) == text


@settings(max_examples=examples(300), deadline=None)
@given(st.text(alphabet="-=' \\,{}\"abc[]:", max_size=60))
def test_punctuation_soup_gives_a_target_or_a_target_error(tail: str) -> None:
    for text in ("llvm " + tail, "{" + tail):
        try:
            target = targetlang.parse(text)
        except targetlang.TargetError:
            continue
        assert str(target) == text


# ----------------------------------------------------------------------------- the depth limit


def nested_legacy(depth: int) -> str:
    # Each level quotes the one inside it: -host='llvm -host=\'...\''.
    text = "llvm"
    for _ in range(depth):
        text = "llvm -host=" + targetlang._lexical.encode_scalar(text)
    return text


def test_default_depth_limit_is_documented_and_exact() -> None:
    assert targetlang.MAX_DEPTH == MAX_DEPTH == 32
    assert targetlang.parse(nested_json(MAX_DEPTH)).host is not None
    with pytest.raises(targetlang.NestingTooDeepError, match="more than 32 levels"):
        targetlang.parse(nested_json(MAX_DEPTH + 1))


def test_max_depth_changes_the_limit_for_text_dicts_and_legacy_strings() -> None:
    with pytest.raises(targetlang.NestingTooDeepError, match="more than 2 levels"):
        targetlang.parse(nested_json(3), max_depth=2)
    assert targetlang.parse(nested_json(40), max_depth=40).kind == "llvm"
    with pytest.raises(targetlang.NestingTooDeepError):
        targetlang.parse(nested_legacy(3), max_depth=2)
    assert targetlang.parse(nested_legacy(3), max_depth=3).host is not None
    config: dict[str, object] = {"kind": "llvm"}
    for _ in range(3):
        config = {"kind": "llvm", "host": config}
    with pytest.raises(targetlang.NestingTooDeepError):
        targetlang.parse(config, max_depth=2)
    with pytest.raises(targetlang.NestingTooDeepError):
        targetlang.parse("llvm -host=llvm", max_depth=0)
    # The limit of one call does not leak into the next.
    assert targetlang.parse(nested_json(MAX_DEPTH)).kind == "llvm"


def test_max_depth_applies_to_older_eras() -> None:
    with pytest.raises(targetlang.NestingTooDeepError):
        targetlang.parse(nested_json(3), era="0.8", max_depth=2)


@pytest.mark.parametrize("bad", [-1, 1.5, True, "3"])
def test_max_depth_must_be_a_count(bad: object) -> None:
    with pytest.raises(ValueError, match="max_depth"):
        targetlang.parse("llvm", max_depth=bad)  # type: ignore[arg-type]


def nested_dict(depth: int) -> dict[str, object]:
    config: dict[str, object] = {"kind": "llvm"}
    for _ in range(depth):
        config = {"kind": "llvm", "host": config}
    return config


@pytest.mark.parametrize("depth", [257, 1000, 10_000])
@pytest.mark.parametrize("form", ["json", "dict"])
def test_max_depth_is_reached_however_deep(form: str, depth: int) -> None:
    # A nesting max_depth allows reads, prints, compares and resolves: a call that runs out of
    # Python's stack is run again on a large one, never a RecursionError.
    spec: targetlang.TargetSpec = nested_json(depth) if form == "json" else nested_dict(depth)
    target = targetlang.parse(spec, max_depth=depth)
    again = targetlang.parse(target.to_json(), max_depth=depth)
    assert again == target and hash(again) == hash(target)
    if form == "json":  # str() of a target read from a dict is canonical(), see below
        assert str(targetlang.parse(str(target), max_depth=depth)) == str(target)
    resolved = target.resolve()
    assert resolved.resolve() == resolved
    host, levels = resolved, 0
    while host.host is not None:
        host, levels = host.host, levels + 1
    assert levels == depth
    assert targetlang.parse(target.canonical(), max_depth=depth) == target
    if depth <= 1000:  # the error is moved into each enclosing text on its way out: quadratic in size
        with pytest.raises(targetlang.NestingTooDeepError, match=f"more than {depth - 1} levels"):
            targetlang.parse(spec, max_depth=depth - 1)


def test_the_canonical_text_of_a_deep_chain_is_made_level_by_level(monkeypatch: pytest.MonkeyPatch) -> None:
    # Each level of a chain of hosts whose legacy text would quote the one inside it is JSON
    # text, made of its host's: one dict per level, where encoding every level inside each
    # again took 9 s at 4,000 levels (a repr() of such a target too).
    depth = 1500
    target = targetlang.parse(nested_dict(depth), max_depth=depth)
    made: list[object] = []
    real = _printing._to_json

    def counted(t: object, sort_unordered: bool, **kwargs: bool) -> dict[str, object]:
        made.append(t)
        return real(t, sort_unordered, **kwargs)

    monkeypatch.setattr(_printing, "_to_json", counted)
    text = target.canonical()
    assert len(made) <= depth + 1
    assert text.count('"kind":"llvm"') > depth // 2  # (the chain is JSON text, level after level)
    assert targetlang.parse(text, max_depth=depth) == target


def test_deep_json_holds_its_text_once() -> None:
    # Each nested target prints back as its own slice of the text, cut when asked: 1,000 levels
    # of 23 KB hold the text once (about 4.4 MB at the peak, the reading included), where a copy
    # per level held 11.5 MB more (and 1.2 GB for 10,000 levels).
    text = nested_json(1000)
    tracemalloc.start()
    try:
        target = targetlang.parse(text, max_depth=1000)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 9 * 1024 * 1024
    host = target.host
    assert host is not None and str(host) == text[len('{"kind":"llvm","host":') : -1]
    # its "host" member: from its key, after '{"kind":"llvm",', to the end of its value
    assert host.source_span("host") == (15, len(str(host)) - 1)


def test_max_depth_is_reached_in_legacy_strings() -> None:
    # quoting doubles the backslashes at each level, so a legacy string cannot nest very deep
    text = nested_legacy(14)
    target = targetlang.parse(text, max_depth=10_000)
    assert str(target) == text and targetlang.parse(target.canonical(), max_depth=14) == target
    with pytest.raises(targetlang.NestingTooDeepError):
        targetlang.parse(text, max_depth=13)


def test_a_limit_beyond_the_stack_gives_the_nesting_error_not_recursion_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    import targetlang._diagnostics as diagnostics

    limit = sys.getrecursionlimit()
    # a large stack of 20,000 frames holds about 2,000 levels
    monkeypatch.setattr(diagnostics, "LARGE_STACK_FRAMES", 20_000)
    with pytest.raises(targetlang.NestingTooDeepError, match="stack allows"):
        targetlang.parse(nested_json(5000), max_depth=100_000)
    assert sys.getrecursionlimit() == limit  # put back


# ----------------------------------------------------------------------------- adversarial runs

# Long runs of what each terminal of the grammar treats specially. Each must be answered (a
# target or a TargetError); how the time grows with the length is measured by
# benchmarks/bench_limits.py, not here.
RUNS = {
    "quotes": "'",
    "escaped quotes": "\\'",
    "backslashes": "\\",
    "dashes": "-",
    "commas": ",",
    "equals": "=",
    "spaces": " ",
    "double quotes": '"',
    "braces": "{",
    "brackets": "[",
    "colons": ":",
    "comment": "#",
    "slashes": "/",
    "digits": "9",
    "letters": "a",
}


@pytest.mark.parametrize("name", sorted(RUNS))
def test_long_runs_of_each_special_character_are_answered(name: str) -> None:
    run = RUNS[name] * 200_000
    contexts = (
        "",
        "llvm ",
        "llvm -mcpu=",
        "llvm -mattr=",
        "llvm -host=",
        "{kind: llvm, mcpu: ",
        '{"kind": "llvm", "mcpu": ',
    )
    for text in (prefix + run for prefix in contexts):
        try:
            target = targetlang.parse(text)
        except targetlang.TargetError as err:
            assert err.source and 0 <= err.start <= err.end <= len(err.source)
            continue
        assert str(target) == text


# ----------------------------------------------------------------------------- text


# What TVM v0.22 did with each, and what targetlang does (docs/reliability.md).
def test_non_ascii_values_round_trip() -> None:
    for value in ("ñandú", "日本語", "🙂", "\u00a0x"):
        text = f"llvm -mcpu={value}"
        target = targetlang.parse(text)
        assert (str(target), target["mcpu"]) == (text, value)
        assert targetlang.parse(target.canonical()) == target
        assert targetlang.parse(target.to_json())["mcpu"] == value


def test_only_the_space_separates() -> None:
    # TVM split at U+0020 only: a tab, a newline or a carriage return is part of the word.
    with pytest.raises(targetlang.UnknownKindError):
        targetlang.parse("llvm\t-mcpu=x")
    for value in ("a\tb", "a\nb", "a\r\nb", "x\n"):
        target = targetlang.parse("llvm -mcpu=" + value)
        assert target["mcpu"] == value
        assert targetlang.parse(target.canonical()) == target


def test_nul_is_an_ordinary_character() -> None:
    # TVM v0.22's FFI passes strings with their length, so a NUL does not end them.
    target = targetlang.parse("llvm -mcpu=a\x00b")
    assert target["mcpu"] == "a\x00b"
    assert targetlang.parse(target.canonical()) == target


def test_error_lone_surrogate_in_text() -> None:
    with pytest.raises(targetlang.UnencodableTextError) as caught:
        targetlang.parse("llvm -mcpu=\ud800x")
    assert str(caught.value) == (
        "U+D800 is a lone surrogate, not a character: the text is not valid Unicode\n"
        "  llvm -mcpu=\ufffdx\n"
        "             ^"
    )


def test_error_lone_surrogate_from_a_json_escape() -> None:
    with pytest.raises(targetlang.UnencodableTextError) as caught:
        targetlang.parse('{"kind": "llvm", "mcpu": "\\udc80"}')
    assert str(caught.value) == (
        "U+DC80 is a lone surrogate, not a character: the text is not valid Unicode\n"
        '  {"kind": "llvm", "mcpu": "\\udc80"}\n'
        "                           ^^^^^^^^"
    )
    with pytest.raises(targetlang.UnencodableTextError):
        targetlang.parse({"kind": "llvm", "mcpu": "\udc80"})


# ----------------------------------------------------------------------------- threads


def test_eight_threads_read_the_corpus_as_one_does() -> None:
    import concurrent.futures

    from .conftest import read_jsonl

    texts = list(dict.fromkeys(r["text"] for r in read_jsonl("corpus", "strings.jsonl")))

    def read_all(chunk: list[str]) -> list[tuple[str, object]]:
        out: list[tuple[str, object]] = []
        for text in chunk:
            try:
                target = targetlang.parse(text, max_depth=MAX_DEPTH if len(out) % 2 else 31)
                try:
                    resolved: object = target.resolve().to_legacy_str()
                except targetlang.TargetError as err:
                    resolved = type(err).__name__
                out.append((text, (str(target), target.canonical(), hash(target), resolved)))
            except targetlang.TargetError as err:
                out.append((text, str(err)))
        return out

    targetlang.clear_caches()
    alone = dict(read_all(texts))
    targetlang.clear_caches()
    with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
        # Every thread reads every text, in its own order, all sharing the parser and the caches.
        orders = [texts[i::8] + texts[:i] + texts[i:][::-1] for i in range(8)]
        results = list(pool.map(read_all, orders))
    for result in results:
        for text, seen in result:
            assert seen == alone[text], text


_HUGE = "1" + "0" * 5000  # past Python's 4300-digit limit on int(): its ValueError must not escape


@pytest.mark.parametrize(
    ("spec", "era"),
    [
        ("llvm -num-cores=" + _HUGE, None),
        ("llvm -fast-math=" + _HUGE, None),
        ("llvm -num-cores=" + _HUGE, "0.7"),
        ("llvm -num-cores=" + _HUGE, "0.8"),
        ('{"kind": "llvm", "num-cores": ' + _HUGE + "}", None),
        ("{kind: llvm, mcpu: " + _HUGE + "}", None),
        ('{"kind": ' + _HUGE + "}", None),
        ('{"kind": "llvm", "libs": [' + _HUGE + "]}", None),
        ('cuda -host=\'{"kind": "llvm", "num-cores": ' + _HUGE + "}'", None),
    ],
)
def test_numbers_of_thousands_of_digits_are_a_target_error(spec: str, era: str | None) -> None:
    with pytest.raises(targetlang.TargetError) as info:
        targetlang.parse(spec, era=era)
    assert len(str(info.value)) < 1000
    for policy in ("error", "drop", "keep"):
        try:
            targetlang.migrate(spec, era=era, policy=policy)
        except targetlang.TargetError:
            pass


def test_a_long_string_of_digits_is_still_a_string() -> None:
    assert targetlang.parse("llvm -mcpu=" + _HUGE)["mcpu"] == _HUGE


def test_a_raised_max_depth_raises_the_json_limit_with_it() -> None:
    # canonical() writes a deep host chain as one JSON text: more than 100 JSON levels once
    # max_depth allows more than 100 targets, and it must still read back.
    config: dict[str, object] = {"kind": "llvm"}
    for _ in range(150):
        config = {"kind": "llvm", "host": config}
    target = targetlang.parse(config, max_depth=200)
    assert targetlang.parse(target.canonical(), max_depth=200) == target
    with pytest.raises(targetlang.NestingTooDeepError):
        targetlang.parse(target.canonical())
