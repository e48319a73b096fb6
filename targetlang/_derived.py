"""The targets a target makes of itself: an edited copy (``Target.with_attr``, ``without_attr``,
``with_host``), whose text has only the edited option or member written anew, and the resolved
target (``Target.resolve``)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from . import _printing as printing
from ._diagnostics import hint, nested_error_in_text, suggest
from ._lexical import Span, encode_scalar
from ._resolution import Environment, reads_feature_keys, resolve_parts
from ._schema import AttrSpec
from ._target import Target, build_target, locate, own_text, parts, span_map, text_form
from ._values import from_json, is_representable, to_text
from ._versions import registry_release
from .errors import TargetError, UnknownAttributeError

__all__ = ["edited", "resolved", "with_value", "without"]

# A derived target has no text: no features given, and no members that stand anywhere
_NO_FEATURES: Mapping[str, Any] = MappingProxyType({})
_NO_SPANS: Mapping[str, Span] = _NO_FEATURES


def with_value(target: Target, name: str, value: Any) -> Target:
    """``Target.with_attr``: ``value`` checked against the schema and converted to the
    attribute's type (a nested target read with ``target``'s registry), then set."""
    spec = _spec(target, name)

    def nested(spec_value: Any, where: Any = None) -> Target:
        return spec_value if isinstance(spec_value, Target) else Target(spec_value, registry=target.registry)

    typed = from_json(list(value) if isinstance(value, tuple) else value, spec.type, name, nested)
    return edited(target, name, typed)


def without(target: Target, name: str) -> Target:
    """``Target.without_attr``: ``target`` itself when it has no ``name``."""
    _spec(target, name)
    if not _has(target, name):
        return target
    return edited(target, name, None)


def _spec(target: Target, name: str) -> AttrSpec:
    spec = target.schema.attrs.get(name)
    if spec is None:
        close = suggest(name, target.schema.attrs)
        err = UnknownAttributeError(f"kind '{target.kind}' has no attribute '{name}'{hint(close)}")
        err.suggestions = close
        raise err
    return spec


def _has(target: Target, name: str) -> bool:
    if name == "host":
        return target.host is not None
    if name == "tag":
        return bool(target.tag)
    if name == "keys":
        return target.declared_keys is not None
    return name in target.attrs


def edited(target: Target, name: str, value: Any) -> Target:
    """``target`` with attribute (or field) ``name`` set to ``value``, or removed for ``None``;
    its text spliced, every byte but the edited option's kept, when the spliced text reads as
    the edited target."""
    schema, registry, tag, keys, host, given_attrs, given_features = parts(target)
    attrs = dict(given_attrs)
    if name == "tag":
        tag = value if value is not None else ""
    elif name == "keys":
        keys = value
    elif name == "host":
        host = value
    elif value is None:
        attrs.pop(name, None)
    else:
        attrs[name] = value
    # as TVM v0.24 on reads an edited export: its features are given ones now
    features = (
        given_features
        if given_features and reads_feature_keys(registry_release(registry.version).version)
        else _NO_FEATURES
    )
    result = build_target(schema, registry, tag, keys, host, attrs, features, None, "", _NO_SPANS)
    # Splicing re-reads the text with v0.22's rules, so only text in that syntax is spliced;
    # a tag name or an older era's text gives way to a target without text.
    form = text_form(target)
    own = own_text(target)
    text = (
        _spliced(own, form, span_map(target), schema.attrs[name], name, value)
        if own is not None and form in ("legacy", "json")
        else None
    )
    if text is not None:
        try:
            spliced = Target(text, registry=registry)
        except TargetError:
            spliced = None  # the edit is valid but its text is not
        # A text that says a key twice (JSON reads the last) may mean something else once
        # one of them is spliced: the text is kept only when it means the edited target.
        if spliced == result:
            return spliced
    return result


def _spliced(text: str, form: str, spans: Mapping[str, Span], spec: AttrSpec, name: str, value: Any) -> str | None:
    """``text`` (of form ``form``, its members at ``spans``) with member ``name`` written as
    ``value`` (of ``spec``'s type), or dropped for ``None``; ``None`` when a legacy string cannot
    spell the value."""
    span = spans.get(name)
    if form == "json":
        if value is None:
            return _json_removed(text, spans, name) if span else text
        rendered = json.dumps(printing.json_value(value, spec.type, False), ensure_ascii=False)
        if span is not None:
            return text[: span[2]] + rendered + text[span[3] :]
        last = max(s[3] for s in spans.values()) if spans else text.index("{") + 1
        sep = ", " if spans else ""
        return f"{text[:last]}{sep}{json.dumps(name)}: {rendered}{text[last:]}"
    if value is not None and not is_representable(value, spec.type):
        return None
    if value is None:
        return _legacy_removed(text, span) if span else text
    raw = encode_scalar(to_text(value, spec.type, str))
    if span is not None:
        return f"{text[: span[1]]}={raw}{text[span[3] :]}"
    end = len(text.rstrip(" "))
    if text[:end].endswith("\\") and (len(text[:end]) - len(text[:end].rstrip("\\"))) % 2:
        end += 1
    return f"{text[:end]} -{name}={raw}{text[end:]}"


def _legacy_removed(text: str, span: Span) -> str:
    start, end = span[0], span[3]
    after = end
    while after < len(text) and text[after] == " ":
        after += 1
    if after < len(text):
        return text[:start] + text[after:]
    before = start
    while before > 0 and text[before - 1] == " ":
        before -= 1
    return text[:before] + text[end:]


def _json_removed(text: str, spans: Mapping[str, Span], name: str) -> str:
    order = sorted(spans.values())
    span = spans[name]
    i = order.index(span)
    if i > 0:
        return text[: order[i - 1][3]] + text[span[3] :]
    if i + 1 < len(order):
        return text[: span[0]] + text[order[i + 1][0] :]
    return text[: span[0]] + text[span[3] :]


def resolved(target: Target, env: Environment) -> Target:
    """``target`` through TVM's construction pipeline in ``env``, its nested targets too."""
    schema, registry, tag, given_keys, given_host, given_attrs, given_features = parts(target)
    version = registry_release(registry.version).version
    keys, attrs, features = resolve_parts(
        schema, given_keys, given_attrs, env, lambda name: locate(target, name), version, given_features
    )
    for name, value in attrs.items():
        spec = schema.attrs.get(name)
        if spec is not None and spec.type.holds_targets:
            attrs[name] = _map_targets(value, lambda t: t.resolve(env))
    host = None
    if given_host is not None:
        try:
            host = given_host.resolve(env)
        except TargetError as err:
            text = own_text(target)
            span = span_map(target).get("host") if text is not None else None
            raise nested_error_in_text(err, text, text_form(target), span) from None
    return build_target(schema, registry, tag, keys, host, attrs, MappingProxyType(features), None, "", _NO_SPANS)


def _map_targets(value: Any, fn: Any) -> Any:
    if isinstance(value, Target):
        return fn(value)
    if isinstance(value, tuple):
        return tuple(_map_targets(v, fn) for v in value)
    return value
