"""One reading of a target, uncached: a text (a tag, JSON, a legacy string) or a config mapping
made a :class:`Target` by the registry's schemas, as TVM v0.22's constructor read it.

A text is read the quick way where it can be (JSON the standard decoder reads as the grammar
does, a legacy string cut into plain parts), else by the grammar, which says what is wrong and
where. A config's targets nest: reading a config reads the texts and configs inside it.
:mod:`._parsing` holds the entry, the caches and the eras around this."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from ._config_values import boxes_scalars, nested_fault, nulls_read, parser_fault, parser_first, typed_value
from ._diagnostics import LIMIT, check_required, unknown_kind
from ._json_decoding import (
    FINISHED,
    LONG_DIGITS,
    NO_SPANS,
    SCAN,
    SCAN_NOTED,
    check_json_int64,
    plain_config,
    refuses_long_json_ints,
)
from ._json_text import json_objects, json_string_offsets
from ._legacy_reading import REREADING, read_legacy, rereading
from ._legacy_words import SPLIT_BELOW, legacy_parts, word_parts
from ._registry import Registry, tag_target_cache
from ._resolution import feature_name, frozen_feature, reads_feature_keys
from ._schema import KindSchema
from ._syntax import MAX_JSON_DEPTH, JsonObject, JsonScalar, LegacySyntax, parse_syntax
from ._tag_budget import check_cycle, check_depth, counts_now, expand_tag, in_tag, outermost_tag_begins, rewind, spend
from ._target import Target, build_target, make_target
from ._versions import registry_release
from .errors import (
    InvalidSpecError,
    TargetError,
    UnknownAttributeError,
    UnknownKindError,
    ValueConversionError,
    check_encodable,
)

__all__ = ["from_config", "parse_text", "retexted"]


_STRUCTURAL = ("keys", "tag", "host")


_STRUCTURAL_ORDER = ("tag", "keys", "host")  # the order TVM's FromConfig read them in


def retexted(
    target: Target, registry: Registry, text: str, text_form: str, spans: Mapping[str, Any] = NO_SPANS
) -> Target:
    """``target`` as read from ``text`` (a tag's name, the text before a rewrite)."""
    return make_target(
        target.schema,
        registry,
        tag=target.tag,
        keys=target.declared_keys,
        host=target.host,
        attrs=dict(target.attrs),
        text=text,
        text_form=text_form,
        spans=spans,
    )


def parse_text(text: str, registry: Registry, depth: int, chain: tuple[str, ...]) -> Target:
    if depth:  # the limit is never below 0
        check_depth(depth, text, 0, len(text))
    config = registry.tags.get(text)
    if config is not None:
        if not chain:
            outermost_tag_begins()
        chain = check_cycle(text, chain)
        kept: Target | None = tag_target_cache(registry).get(text)
        if kept is not None:
            spend(chain)
            return kept  # (it reads no other tag: only its own cycle can be, and is checked)
        try:
            target = from_config(config, registry, depth, None, "", chain=chain)
        except TargetError as err:
            if err.source:
                raise
            # The tag's own config has no text: point at the tag's name.
            raise in_tag(err, text).at(text, 0, len(text)) from None
        target = retexted(target, registry, text, "tag")
        if config.get("kind") is not None and _nests_none(target):
            # A tag of its own kind, extending none, and nesting no target reads no other tag:
            # read again, in any chain of tags and at any depth, it gives this or the errors
            # checked above (a tag that extends one can close a cycle through a tag around it).
            tag_target_cache(registry)[text] = target
        return target
    if text[:1] != "{":
        schema = registry.kinds.get(text)
        if schema is not None and not schema.modern_only and not schema.required_names and _one_word(text):
            # A kind alone ("llvm", "cuda"), as read_legacy would read it, in a third of the time.
            if chain:
                spend(chain)
            return build_target(schema, registry, "", None, None, {}, NO_SPANS, text, "legacy", None)
        if len(text) < SPLIT_BELOW and "'" not in text and "\\" not in text:
            parts = text.split(" ")
            if parts[0] and parts[0][0] != "-":
                # legacy_parts' cut of a plain text whose kind comes first, without its call
                return read_legacy(parts, True, text, registry, depth, chain, parse_text)
        cut = legacy_parts(text)
        if cut is not None:
            return read_legacy(cut[0], cut[1], text, registry, depth, chain, parse_text)
    else:
        read = _plain_json(text, registry, depth, chain)
        if read is True:  # not a valid target: the grammar's reading reports why
            return rereading(_read_by_grammar, text, registry, depth, chain)
        if read is not False:
            return read
    return _read_by_grammar(text, registry, depth, chain)


def _read_by_grammar(text: str, registry: Registry, depth: int, chain: tuple[str, ...]) -> Target:
    # A target nests in a target one JSON level deep, two inside an array (devices): deep
    # targets that max_depth allows are never cut short by the JSON limit.
    syntax = parse_syntax(text, max(MAX_JSON_DEPTH, 2 * LIMIT.get() + 4))
    if isinstance(syntax, LegacySyntax):
        words = [(word.text, word.start) for word in (syntax.kind, *syntax.words)]
        return read_legacy(word_parts(words, len(text)), False, text, registry, depth, chain, parse_text)
    if refuses_long_json_ints(registry.version):
        check_json_int64(syntax.root, text)
    return from_config(syntax.root.value, registry, depth, syntax.root, text, own_text=text, chain=chain)


def _nests_none(target: Target) -> bool:
    attrs = target.schema.attrs
    return target.host is None and not any(attrs[name].type.holds_targets for name in target.attrs)


def _one_word(text: str) -> bool:
    # A user's kind may have any name; one the grammar reads as a kind alone has no spaces or
    # quotes and does not start with a dash.
    return " " not in text and "'" not in text and "\\" not in text and text[0] != "-"


def _read_plain_json(text: str, registry: Registry, depth: int, chain: tuple[str, ...]) -> Target | None:
    """The target of a JSON text that the standard library's decoder reads as the grammar does,
    or ``None`` for any other text, and for one that is not a valid target (the grammar's reading
    reports what is wrong, and where): :func:`_plain_json`'s reading."""
    read = _plain_json(text, registry, depth, chain)
    return None if isinstance(read, bool) else read


def _plain_json(text: str, registry: Registry, depth: int, chain: tuple[str, ...]) -> Target | bool:
    """The target of a JSON text that the standard library's decoder reads as the grammar does;
    ``False`` for any other text, ``True`` for one that is not a valid target.

    That is strict JSON (no comments, single quotes or bare words; ``NaN`` and ``Infinity`` are
    bare words to the grammar) of one object, nesting its arrays and objects less deeply than the
    grammar's JSON limit (at the limit or near it, the grammar decides). A nested object's target
    prints back as its own slice of the text, found by :func:`json_objects`; each target finds its
    members' spans in its text when something asks for them. tests/test_json_reading.py proves it
    identical to the grammar's reading.
    """
    if text[:1] != "{" or REREADING.get():
        return False
    slices: dict[int, tuple[int, int]] = {}
    if text.count("{") == 1 and text.count("[") < MAX_JSON_DEPTH - 1:  # too few brackets to nest too deep
        # JSONDecoder.decode's steps without its calls: the object at 0, then only whitespace
        try:
            config, end = SCAN(text, 0)
        except (StopIteration, ValueError, RecursionError):
            return False
        if end != len(text) and text[end:].strip(" \t\n\r"):
            return False
    else:
        # At the grammar's limit or near it, the grammar decides (parse_syntax's json_depth).
        near = max(MAX_JSON_DEPTH, 2 * LIMIT.get() + 4) - 1
        # A text of fewer brackets than that cannot nest so deep: the decoder first (a text it
        # refuses needs no spans), else the depth first (the decoder would recurse as deep).
        few = text.count("{") + text.count("[") < near
        if not few:
            spans, deepest = json_objects(text, near)
            if deepest >= near:
                return False
        # Each object the decoder finishes, in the order its closing brace comes.
        finished: list[dict[str, Any]] = []
        token = FINISHED.set(finished)
        try:
            config, end = SCAN_NOTED(text, 0)
        except (StopIteration, ValueError):
            return False
        # (A RecursionError goes up: parse reads the text again on a large stack, where the
        # targets it nests can be read too.)
        finally:
            FINISHED.reset(token)
        if end != len(text) and text[end:].strip(" \t\n\r"):
            return False
        if few:
            spans, _ = json_objects(text)
        if len(spans) != len(finished):
            return False
        # The objects stay alive in ``finished``, so their ids stay theirs while this reads.
        slices = {id(made): span for made, span in zip(finished, spans, strict=True)}
    if type(config) is not dict:
        return False
    if not chain and not depth:
        # (before the search for long integers: a plain config holds none beyond 64 bits, and
        # the grammar's reading of its text, which looks at each, gives the same target)
        plain = plain_config(config, registry, 0, text, slices)
        if plain is not None:
            return plain
    if LONG_DIGITS.search(text) and refuses_long_json_ints(registry.version):
        return True  # the grammar's reading looks at each integer (check_json_int64)
    spent = counts_now()
    try:
        return from_config(config, registry, depth, None, text, own_text=text, chain=chain, slices=slices)
    except TargetError:
        rewind(spent)  # (the grammar's reading counts them again)
        return True


def from_config(
    config: Mapping[str, Any],
    registry: Registry,
    depth: int,
    node: JsonObject | None,
    source: str,
    own_text: str | tuple[str, int, int] | None = None,
    chain: tuple[str, ...] = (),
    slices: Mapping[int, tuple[int, int]] | None = None,
) -> Target:
    """A target from a config mapping; ``node`` is its JSON object in ``source`` when it was text.

    ``slices``: the config was decoded from ``source`` without a syntax tree, and this gives,
    by ``id``, where each object decoded stands in it; each target finds where its members are in
    its own text when something asks.

    ``own_text`` is the text the target prints back as: the whole JSON text, or, for a nested
    object, where it stands in that text (``(text, start, end)``, sliced when asked).
    """
    if depth:  # the limit is never below 0
        check_depth(depth, *((source, node.start, node.end) if node is not None else ("", 0, 0)))
    for key in config:
        if type(key) is not str and not isinstance(key, str):
            raise InvalidSpecError(f"a target config's keys are strings, not {type(key).__name__}: {key!r}", source)
    members = {name: (k, v) for name, k, v in node.members} if node is not None else {}

    def where(name: str) -> tuple[int, int]:
        found = members.get(name)
        return (found[0].start, found[0].end) if found else (0, 0)

    def value_span(name: str) -> tuple[int, int]:
        found = members.get(name)
        return (found[1].start, found[1].end) if found else (0, 0)

    if "features" in config:
        raise UnknownAttributeError(
            "'features' cannot be given: the kind's canonicaliser derives them", source, *where("features")
        )
    config, schema, tag_chain, from_tag = _config_kind(config, registry, chain, source, node, where, value_span)
    reading = _Members(registry, depth, source, own_text, slices)
    nested, nested_in_tag = reading.nested_in(chain), reading.nested_in(tag_chain)
    attrs: dict[str, Any] = {}
    fields: dict[str, Any] = {}
    features: dict[str, Any] | None = {} if reads_feature_keys(registry_release(registry.version).version) else None
    order: Any = config
    if "tag" in config or "keys" in config or "host" in config:
        # TVM's FromConfig read the tag, then the keys, then the host, then the attributes
        order = [*(key for key in _STRUCTURAL_ORDER if key in config), *(k for k in config if k not in _STRUCTURAL)]
    try:
        for key in order:
            if key == "kind":
                continue
            value = config[key]
            if features is not None:
                feature = feature_name(key)
                if feature is not None:
                    # TVM v0.24 on sets these aside before the schema reads the config and puts them
                    # back, any value, unless the canonicaliser sets them itself (resolve does that).
                    features[feature] = frozen_feature(value)
                    continue
            if key in from_tag:
                try:
                    typed = typed_value(key, value, schema, registry, nested_in_tag, None, "")
                except TargetError as err:
                    # The tag's own config has no text here: point at the tag's name.
                    raise in_tag(err, config["tag"]).at(source, *value_span("tag")) from None
            else:
                typed = typed_value(
                    key, value, schema, registry, nested, members[key][1] if key in members else None, source, where
                )
            (fields if key in _STRUCTURAL else attrs)[key] = typed
    except TargetError:
        # TVM's FromConfig ran the kind's target parser before it read any of these, and built
        # each target it read (its parser included) before it read what follows
        first = parser_fault(config, schema, registry, source, value_span) if parser_first(registry.version) else None
        fault = first or nested_fault([*fields.values(), *attrs.values()])
        if fault is not None:
            raise fault from None
        raise
    if schema.required_names:
        check_required(schema, config, source, *(value_span("kind") if "kind" in members else value_span("tag")))
    if features:
        fields["features"] = MappingProxyType(features)
    return _made(schema, registry, attrs, fields, node, own_text, slices, members)


def _config_kind(
    config: Mapping[str, Any],
    registry: Registry,
    chain: tuple[str, ...],
    source: str,
    node: JsonObject | None,
    where: Callable[[str], tuple[int, int]],
    value_span: Callable[[str], tuple[int, int]],
) -> tuple[Mapping[str, Any], KindSchema, tuple[str, ...], frozenset[str]]:
    """The config as its kind reads it (a tag's expanded under it, nulls read), the kind's schema,
    the chain of tags the tag's values are read in, and the keys that came from the tag."""
    kind = config.get("kind")
    # Values the user wrote are read in the chain of tags around this config; values that come
    # from a tag's own config are read inside that tag too, so that a tag that refers to itself
    # is a cycle while a user who names one tag twice is not.
    tag_chain = chain
    from_tag: frozenset[str] = frozenset()
    if kind is None and config.get("tag") is not None:
        # TVM 0.27: {"tag": NAME, ...} without a kind loads the tag and overlays the rest.
        tag = config["tag"]
        if not isinstance(tag, str):
            raise ValueConversionError("'tag' must be a string, the name of a tag", source, *value_span("tag"))
        if not chain:
            outermost_tag_begins()
        expanded, tag_chain = expand_tag(config, registry, chain, source, value_span("tag"))
        spend(tag_chain, source, *value_span("tag"))
        from_tag = frozenset(expanded.keys() - config.keys())
        config = expanded
        kind = config.get("kind")
    elif chain:
        spend(chain)
    if kind is None and "kind" in config:
        raise ValueConversionError("'kind' must be a string, not null", source, *value_span("kind"))
    if kind is None:
        start = node.start if node is not None else 0
        raise UnknownKindError("a target config needs a 'kind' or a 'tag'", source, start, start + 1 if node else 0)
    if not isinstance(kind, str):
        raise ValueConversionError("'kind' must be a string", source, *where("kind"))
    schema = registry.kinds.get(kind)
    if schema is None:
        raise unknown_kind(kind, registry, source, *value_span("kind"))
    if any(value is None for value in config.values()):
        null_host = "host" in config and config["host"] is None and boxes_scalars(registry.version)
        config = nulls_read(config, schema)
        if null_host:  # (an error where the host is read: see typed_value)
            config = {**config, "host": None}
    return config, schema, tag_chain, from_tag


class _Members:
    """How the members of one config that are targets are read: a target as it is, a string as
    a target's text, a mapping as a config nested one level deeper."""

    __slots__ = ("depth", "own_text", "registry", "slices", "source")

    def __init__(
        self,
        registry: Registry,
        depth: int,
        source: str,
        own_text: str | tuple[str, int, int] | None,
        slices: Mapping[int, tuple[int, int]] | None,
    ) -> None:
        self.registry = registry
        self.depth = depth
        self.source = source
        self.own_text = own_text
        self.slices = slices

    def nested_in(self, chain: tuple[str, ...]) -> Callable[..., Target]:
        """``nested(value, at=None)``: the member ``value`` (at the JSON node ``at``) as a target
        read in the chain of tags ``chain``."""

        def nested(value: Any, at: Any = None) -> Target:
            if isinstance(value, Target):
                return value
            if isinstance(value, str):
                return self._text(value, at, chain)
            return self._config(value, at, chain)

        return nested

    def _text(self, value: str, at: Any, chain: tuple[str, ...]) -> Target:
        source = self.source
        try:
            if not value.isascii():  # a JSON "\ud800" escape decodes to a lone surrogate
                check_encodable(value)
            return parse_text(value, self.registry, self.depth + 1, chain)
        except TargetError as err:
            if not isinstance(at, JsonScalar):
                raise
            if source[at.start] in "\"'":
                offsets = json_string_offsets(source, at.start, at.end)
                raise err.relocated(source, offsets, at.end - 1) from None
            raise err.relocated(source, range(at.start, at.end), at.end) from None

    def _config(self, value: Any, at: Any, chain: tuple[str, ...]) -> Target:
        source, slices = self.source, self.slices
        if slices is not None:
            found = slices.get(id(value))  # none for a value from a tag's config
            within = (source, *found) if found is not None else None
            return from_config(
                value, self.registry, self.depth + 1, None, source, own_text=within, chain=chain, slices=slices
            )
        sub = at if isinstance(at, JsonObject) else None
        # where the nested object stands in the text, not a copy of it: see Target._text
        within = (source, sub.start, sub.end) if sub is not None and self.own_text is not None else None
        return from_config(value, self.registry, self.depth + 1, sub, source, own_text=within, chain=chain)


def _made(
    schema: KindSchema,
    registry: Registry,
    attrs: dict[str, Any],
    fields: dict[str, Any],
    node: JsonObject | None,
    own_text: str | tuple[str, int, int] | None,
    slices: Mapping[int, tuple[int, int]] | None,
    members: Mapping[str, tuple[Any, Any]],
) -> Target:
    """The target a config read made, with the text it prints back as and where its members
    stand in it."""
    if slices is not None and own_text is not None:
        return make_target(schema, registry, attrs=attrs, text=own_text, text_form="json", spans=None, **fields)
    if own_text is None or node is None:
        return make_target(schema, registry, attrs=attrs, **fields)
    offset = node.start
    spans = {
        name: (k.start - offset, k.end - offset, v.start - offset, v.end - offset) for name, (k, v) in members.items()
    }
    return make_target(schema, registry, attrs=attrs, text=own_text, text_form="json", spans=spans, **fields)
