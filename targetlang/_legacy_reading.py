"""The quick reading of a legacy string: its kind and its options cut into plain parts, the
commonest option (``-key=value`` with a value that needs no interpreting) typed here, any other
read by the era's rules of a legacy option; the targets inside read by the reading this one is
part of (``read_text``, :func:`._reading.parse_text`). And the flag every quick reading consults:
a text a quick reading found no valid target in is read again the general way, to say why."""

from __future__ import annotations

import contextvars
import functools
from collections.abc import Callable
from typing import Any

from ._config_values import nested_fault
from ._diagnostics import check_required, modern_kind, unknown_attr, unknown_kind
from ._json_decoding import NO_SPANS
from ._legacy_words import SPLIT_BELOW, legacy_option, part_start
from ._registry import Registry
from ._schema import PLAIN_INT, PLAIN_STRING, PLAIN_STRINGS, PLAIN_TARGET, plain_codes
from ._tag_budget import counts_now, rewind, spend
from ._target import Target, build_target
from ._values import from_text
from ._versions import registry_release
from .errors import DuplicateAttributeError, TargetError, UnknownKindError, show

__all__ = ["REREADING", "ReadText", "read_legacy", "rereading"]

# How the targets inside a legacy string are read: (text, registry, depth, chain of tags) -> Target.
ReadText = Callable[[str, Registry, int, tuple[str, ...]], Target]


_BOOL_WORDS = {"true": 1, "false": 0}  # an int or a bool, in any case (parse_int)


# Set while a text that a quick reading (``_reading``'s of plain JSON, :func:`_plain_targets`) found no
# valid target in is read again the general way, to report why: the texts inside it are read
# the general way at once. A quick reading of each would fail too, inside one that fails, and
# every level of a nesting would then be read twice over, 2 ** n times in all: a tag whose
# devices name a tag in JSON text, 20 levels of them, took 214 s to reach the depth limit.
REREADING: contextvars.ContextVar[bool] = contextvars.ContextVar("targetlang_rereading", default=False)


def rereading(read: Callable[..., Target], *args: Any) -> Target:
    token = REREADING.set(True)
    try:
        return read(*args)
    finally:
        REREADING.reset(token)


def _nested_reread(
    value: str, *, read_text: ReadText, registry: Registry, depth: int, chain: tuple[str, ...]
) -> Target:
    return rereading(read_text, value, registry, depth, chain)


def _nested_text(value: str, *, read_text: ReadText, registry: Registry, depth: int, chain: tuple[str, ...]) -> Target:
    return read_text(value, registry, depth, chain)


def read_legacy(
    parts: list[str],
    plain: bool,
    text: str,
    registry: Registry,
    depth: int,
    chain: tuple[str, ...],
    read_text: ReadText,
) -> Target:
    """The target of a legacy string cut into its parts (:func:`legacy_parts`; ``plain``: no
    quotes or backslashes in it, so that no word needs checking for them), the targets inside it
    read by ``read_text``. Its spans are found
    when something asks for them (:func:`legacy_spans`): recording them took a fifth longer."""
    first = 0
    while not parts[first] or parts[first][0] == " ":
        first += 1
    kind = parts[first]
    schema = registry.kinds.get(kind)
    if schema is None or schema.modern_only:
        raise _kind_error(kind, part_start(parts, first), text, registry)
    codes = plain_codes(schema)
    attrs: dict[str, Any] = {}  # keys, tag and host too, until the end
    typed: Any
    after = first + 1  # the first part not read yet: past the kind, and what options took
    try:
        for i, raw in enumerate(parts):
            if i < after or not raw:
                continue
            retried = False  # a quick reading of the value's targets failed (see REREADING)
            # The commonest option, -key=value with a value that needs no interpreting, read here as
            # from_text reads it (tests/test_legacy_reading.py checks they agree); any other below.
            head, _, value = raw.partition("=")
            plain_code = codes.get(head)
            if plain_code is not None and value and plain_code[0] not in attrs:
                key, code = plain_code
                # (A word as long as the split bound goes the general way, which never holds an
                # array's items twice; a plain text is shorter.)
                if plain or (len(raw) < SPLIT_BELOW and "'" not in raw and "\\" not in raw):
                    if code == PLAIN_STRING:
                        attrs[key] = value
                        continue
                    if code == PLAIN_STRINGS:  # (iter_items skips empty items too)
                        typed = (value,) if "," not in value else tuple(filter(None, value.split(",")))
                    elif code >= PLAIN_TARGET:
                        typed = _plain_targets(code, value, registry, depth, chain, read_text)
                        retried = typed is None
                    else:
                        if len(value) < 10 and value.isdigit() and value.isascii():  # within 32 bits: any int_bits
                            typed = int(value)
                        else:
                            typed = _BOOL_WORDS.get(value.lower())
                        if typed is not None and code != PLAIN_INT:
                            typed = typed != 0
                elif (
                    code == PLAIN_STRING
                    and value[0] == "'" == value[-1]
                    and value.count("'") == 2
                    and "\\" not in value
                ):
                    typed = value[1:-1].strip(" ")  # one quoted region, nothing to interpret inside
                else:
                    typed = None
                if typed is not None:
                    attrs[key] = typed
                    continue
            if raw[0] == " ":
                continue  # a run of spaces
            start = part_start(parts, i)
            key, key_start, value, value_start, end, after = legacy_option(parts, i, start, text)
            if key == "kind" or key in attrs:
                raise DuplicateAttributeError(
                    f"attribute {show(key)} is given more than once", text, key_start, key_start + len(key)
                )
            spec = schema.attrs.get(key)
            if spec is None or spec.modern_only:
                raise unknown_attr(key, schema, text, key_start, key_start + len(key), registry.version)
            try:
                typed = from_text(
                    value or "1",  # a flag, "-key" alone, is "-key=1"
                    spec.type,
                    key,
                    functools.partial(
                        _nested_reread if retried else _nested_text,
                        read_text=read_text,
                        registry=registry,
                        depth=depth + 1,
                        chain=chain,
                    ),
                    registry_release(registry.version).int_bits,
                )
            except TargetError as err:
                if not value:
                    raise err.at(text, start, end) from None
                raise err.relocated(text, range(value_start, value_start + len(value)), end) from None
            attrs[key] = typed
    except TargetError:
        fault = nested_fault(attrs.values())
        if fault is not None:
            raise fault from None
        raise
    tag, keys, host = "", None, None
    if "keys" in attrs or "tag" in attrs or "host" in attrs:
        tag, keys, host = attrs.pop("tag", ""), attrs.pop("keys", None), attrs.pop("host", None)
    if schema.required_names:
        start = part_start(parts, first)
        check_required(schema, attrs, text, start, start + len(kind))
    if chain:
        spend(chain)
    return build_target(schema, registry, tag, keys, host, attrs, NO_SPANS, text, "legacy", None)


def _kind_error(kind: str, start: int, text: str, registry: Registry) -> TargetError:
    """What is wrong with ``kind``, at ``start`` in ``text``: not a kind of ``registry``, or one
    added after TVM v0.23, which no legacy string could name."""
    end = start + len(kind)
    schema = registry.kinds.get(kind)
    if schema is not None:
        return modern_kind(schema, text, start, end)
    if kind in registry.tags:
        return UnknownKindError(
            f"{show(kind)} is a tag, and a tag takes no options: TVM v0.22 read a tag only as the "
            f'whole text; to change its fields write {{"tag": "{kind}", ...}}',
            text,
            start,
            end,
        )
    return unknown_kind(kind, registry, text, start, end)


def _plain_targets(
    code: int, value: str, registry: Registry, depth: int, chain: tuple[str, ...], read_text: ReadText
) -> Any:
    """The target (``PLAIN_TARGET``) or targets of ``value``, plain (no quotes, backslashes or
    spaces), as from_text reads them; ``None`` for a value it rejects (the general reading then
    reports it, where it stands in the text)."""
    if REREADING.get():
        return None
    spent = counts_now()
    try:
        if code == PLAIN_TARGET:
            return read_text(value, registry, depth + 1, chain)
        targets = []  # (a loop: a comprehension would build three cells a call)
        for item in value.split(","):
            if item:  # iter_items skips empty items
                targets.append(read_text(item, registry, depth + 1, chain))
        return tuple(targets)
    except TargetError:
        rewind(spent)  # (the general reading counts them again)
        return None
