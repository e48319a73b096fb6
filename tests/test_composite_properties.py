"""Properties of composite targets (depth up to 4, user kinds included) and ordering semantics."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import targetlang

from .conftest import examples
from .strategies import USER_REGISTRY, composite_configs, composite_targets

_SETTINGS = settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def read(spec: Any) -> targetlang.Target:
    return targetlang.parse(spec, registry=USER_REGISTRY)


@_SETTINGS
@given(composite_targets(), st.sampled_from([None, 2]))
def test_lossless_identity_of_every_text_form(target: targetlang.Target, indent: int | None) -> None:
    for text in (target.canonical(), target.canonical_jsonish(), json.dumps(target.to_json(), indent=indent)):
        assert str(read(text)) == text


@_SETTINGS
@given(composite_targets())
def test_canonical_round_trip_and_idempotence(target: targetlang.Target) -> None:
    assert read(target.canonical()) == target
    assert read(target.canonical()).canonical() == target.canonical()
    assert read(target.canonical_jsonish()) == target
    assert read(target.canonical_jsonish()).canonical_jsonish() == target.canonical_jsonish()


@_SETTINGS
@given(composite_targets())
def test_json_round_trip(target: targetlang.Target) -> None:
    assert read(json.loads(json.dumps(target.to_json()))) == target


def _permuted(config: Any, data: st.DataObject) -> Any:
    """The same config with attribute order shuffled and unordered arrays (``libs``, ``labels``,
    ``exts``) shuffled, at every depth."""
    if not isinstance(config, dict):
        return config
    keys = data.draw(st.permutations(list(config)))
    out = {}
    for key in keys:
        value = config[key]
        if isinstance(value, list):
            value = [_permuted(v, data) for v in value]
            if key in ("libs", "labels", "exts"):
                value = data.draw(st.permutations(value))
        else:
            value = _permuted(value, data)
        out[key] = value
    return out


@_SETTINGS
@given(composite_configs(), st.data())
def test_equality_ignores_attribute_order_and_unordered_arrays(config: dict[str, Any], data: st.DataObject) -> None:
    target = read(config)
    shuffled = read(_permuted(config, data))
    assert shuffled == target
    assert hash(shuffled) == hash(target)
    assert shuffled.canonical() == target.canonical()
    assert shuffled.canonical_jsonish() == target.canonical_jsonish()


_ORDERED = ("passes", "devices", "keys", "mattr", "cl-opt")


def _ordered_arrays(config: dict[str, Any], path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Paths to every ordered array of ``config``, at any depth, whose items are not all equal."""
    found = []
    for key, value in config.items():
        if isinstance(value, dict):
            found += _ordered_arrays(value, (*path, key))
        elif isinstance(value, list):
            if key in _ORDERED and len({json.dumps(v, sort_keys=True) for v in value}) > 1:
                found.append((*path, key))
            for i, item in enumerate(value):
                if isinstance(item, dict):
                    found += _ordered_arrays(item, (*path, key, i))
    return found


@_SETTINGS
@given(composite_configs(), st.data())
def test_equality_respects_ordered_arrays_at_any_depth(config: dict[str, Any], data: st.DataObject) -> None:
    paths = _ordered_arrays(config)
    assume(paths)
    path = data.draw(st.sampled_from(paths))
    changed = json.loads(json.dumps(config))
    parent = changed
    for step in path[:-1]:
        parent = parent[step]
    original = parent[path[-1]]
    permuted = data.draw(st.permutations(original))
    assume(json.dumps(permuted, sort_keys=True) != json.dumps(original, sort_keys=True))
    parent[path[-1]] = permuted
    assert read(changed) != read(config)
    assert read(changed).canonical() != read(config).canonical()
    assert read(changed).canonical_jsonish() != read(config).canonical_jsonish()
