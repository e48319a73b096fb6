"""A decoded JSON config whose values are all plain is read by ``_json_decoding.plain_config`` without
``_from_config``'s general steps: the same target (text, spans, printed forms, JSON) or the same
error as with that path turned off, and the rest left to ``_from_config``."""

from __future__ import annotations

import json

import pytest

import targetlang
from targetlang import _reading as reading
from targetlang._json_decoding import plain_config
from targetlang._registry import Registry, builtin_registry
from targetlang._target import Target
from targetlang.errors import TargetError

from .conftest import sample
from .test_json_reading import described
from .texts import data_texts


def _read(text: str, registry: Registry | None = None) -> tuple[object, ...]:
    targetlang.clear_caches()
    try:
        target = targetlang.parse(text, registry=registry)
    except TargetError as err:
        return ("error", type(err), err.message, err.source, err.start, err.end)
    return ("target", target, described(target))


def _both_ways(
    text: str, monkeypatch: pytest.MonkeyPatch, registry: Registry | None = None
) -> tuple[tuple[object, ...], tuple[object, ...]]:
    fast = _read(text, registry)
    with monkeypatch.context() as patch:
        patch.setattr(reading, "plain_config", lambda *args: None)
        slow = _read(text, registry)
    return fast, slow


def _taken(text: str) -> bool:
    """Whether the plain reading reads the decoded ``text`` (a text of one object)."""
    try:
        config = json.loads(text)
    except ValueError:
        return False  # (not strict JSON: the grammar reads it)
    return type(config) is dict and plain_config(config, builtin_registry(), 0, text, {}) is not None


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        ('{"kind": "llvm"}', True),
        ('{"kind": "llvm", "mcpu": "skylake", "num-cores": 4, "mattr": ["+avx2", "+fma"]}', True),
        ('{"kind": "c", "keys": ["cpu"]}', True),
        ('{"kind": "ext_dev", "keys": ["cpu"], "device": "vta", "model": "pynq"}', True),
        ('{"kind": "llvm", "fast-math": true}', True),
        ('{"kind": "llvm", "num-cores": -9223372036854775808}', True),
        ('{"kind": "llvm", "mcpu": "a", "mcpu": "b"}', True),  # the last of a repeated key
        ('{"kind": "llvm", "mattr": []}', True),
        ('{"kind": "llvm", "keys": []}', True),
        ('  {"kind": "llvm", "mcpu": "x"}\n', True),
        ('{"mcpu": "x", "kind": "llvm", "keys": ["k"], "mattr": ["+a"]}', True),  # attributes in written order
        # left to _from_config
        ('{"kind": "llvm", "num-cores": 9223372036854775808}', False),
        ('{"kind": "llvm", "num-cores": true}', False),  # a bool for an int
        ('{"kind": "llvm", "fast-math": 1}', False),  # an int for a bool
        ('{"kind": "llvm", "num-cores": 4.0}', False),
        ('{"kind": "llvm", "num-cores": "4"}', False),
        ('{"kind": "llvm", "mcpu": null}', False),
        ('{"kind": "llvm", "mcpu": "\\u00e9"}', False),  # not ASCII
        ('{"kind": "llvm", "mcpu": "\\ud800"}', False),  # a lone surrogate
        ('{"kind": "llvm", "mattr": ["+a", 1]}', False),
        ('{"kind": "llvm", "mattr": "+a"}', False),
        ('{"kind": "llvm", "-mcpu": "x"}', False),  # an option as written in a legacy string
        ('{"kind": "llvm", "--mcpu": "x"}', False),
        ('{"kind": "llvm", "nope": 1}', False),
        ('{"kind": "llvm", "features": {}}', False),
        ('{"kind": "llvm", "feature.has_sve": true}', False),
        ('{"kind": "nope"}', False),
        ('{"kind": 1}', False),
        ('{"tag": "nvidia/jetson-nano"}', False),
        ('{"kind": "cuda", "tag": "x"}', False),
        ('{"kind": "cuda", "host": "llvm"}', False),  # a host as text is read as text is
        ('{"kind": "llvm", "libs": ["mkldnn"]}', True),
        ('{"mcpu": "x"}', False),
    ],
)
def test_one_object(text: str, plain: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    assert _taken(text) is plain
    fast, slow = _both_ways(text, monkeypatch)
    assert fast == slow


@pytest.mark.parametrize(
    "text",
    [
        '{"kind": "composite", "host": {"kind": "llvm"}, "devices": [{"kind": "cuda"}, {"kind": "opencl"}]}',
        '{"kind": "cuda", "host": {"kind": "llvm", "mtriple": "}{\\"{"}, "arch": "sm_80"}',
        '{"kind": "cuda", "host": {"kind": "llvm"}, "host": {"kind": "llvm", "mcpu": "y"}}',
        '{"kind": "cuda", "host": {"kind": "llvm", "nope": 1}}',
        '{"kind": "cuda", "host": {"kind": "llvm", "num-cores": 9223372036854775808}}',
        '{"kind": "cuda", "host": {"tag": "nvidia/jetson-nano"}}',
        '{"kind": "cuda", "host": {}}',
        '{"kind": "composite", "devices": [{"kind": "cuda"}, "llvm -mcpu=b"]}',
        '{"kind": "composite", "devices": [{"kind": "cuda", "host": {"kind": "llvm"}}, {"kind": "nope"}]}',
        '{"kind": "composite", "devices": []}',
        '{"kind": "llvm", "mattr": [{}]}',
        # deeper than the plain reading goes, and deeper than the limit allows
        '{"kind": "cuda", "host": ' * 12 + '{"kind": "llvm"}' + "}" * 12,
        '{"kind": "cuda", "host": ' * 40 + '{"kind": "llvm"}' + "}" * 40,
    ],
)
def test_nested_objects(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    fast, slow = _both_ways(text, monkeypatch)
    assert fast == slow


def test_a_host_keeps_its_slice_of_the_text() -> None:
    text = '{"kind": "cuda", "host": {"kind": "llvm",  "mcpu": "x"}, "arch": "sm_80"}'
    targetlang.clear_caches()
    target = targetlang.parse(text)
    assert target.host is not None
    assert str(target.host) == '{"kind": "llvm",  "mcpu": "x"}'
    assert target.host.source_span("mcpu") == (18, 29)
    assert dict(target.attrs) == {"arch": "sm_80"}


def test_a_release_that_reads_feature_keys_is_left_to_from_config(monkeypatch: pytest.MonkeyPatch) -> None:
    text = '{"kind": "llvm", "mcpu": "x"}'
    registry = builtin_registry("0.27")
    assert plain_config(json.loads(text), registry, 0, text, {}) is None
    fast, slow = _both_ways(text, monkeypatch, registry)
    assert fast == slow


@pytest.mark.property
def test_every_json_text_of_the_test_data(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = [text for text in data_texts() if text.startswith("{")]
    compared = sample(texts)
    taken = 0
    for text in compared:
        fast, slow = _both_ways(text, monkeypatch)
        assert fast == slow, text
        taken += isinstance(fast[1], Target) and text.count("{") == 1 and _taken(text)
    assert taken > 300 * len(compared) / len(texts)  # (300 of all)
