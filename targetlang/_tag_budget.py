"""What one reading of a target may make of tags: the targets made from tags' configs counted
(MAX_TAG_TARGETS for a reading, MAX_CHECKED_TAG_TARGETS for a check of a registry's tags), tags
that name themselves, nesting beyond the limit, and a tag's config expanded under the config that
names it."""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from ._diagnostics import LIMIT, hint, suggest
from ._registry import MAX_CHECKED_TAG_TARGETS, MAX_TAG_DEPTH, MAX_TAG_TARGETS, Registry, modern_tag
from ._target import Target
from .errors import NestingTooDeepError, RegistryError, TagCycleError, TargetError, UnknownTagError, show

__all__ = [
    "check_cycle",
    "check_depth",
    "checking_registry_tags",
    "counts_now",
    "expand_tag",
    "in_tag",
    "outermost_tag_begins",
    "rewind",
    "spend",
    "tag_counted",
]


def check_depth(depth: int, source: str = "", start: int = 0, end: int = 0) -> None:
    """Raise :class:`NestingTooDeepError` at ``source[start:end]`` (the target too deep) when
    ``depth`` is beyond the limit of the parse under way."""
    limit = LIMIT.get()
    if depth > limit:
        raise NestingTooDeepError(f"targets nest more than {limit} levels deep", source, start, end)


def check_cycle(tag: str, chain: tuple[str, ...], source: str = "", start: int = 0, end: int = 0) -> tuple[str, ...]:
    if tag in chain:
        loop = " -> ".join((*chain[chain.index(tag) :], tag))
        raise TagCycleError(f"tag {show(tag)} refers to itself: {loop}", source, start, end)
    if len(chain) > MAX_TAG_DEPTH:  # (the outermost tag is named by the text, not by a tag)
        path = f"{show(chain[0])} -> {show(chain[1])} -> ... -> {show(tag)}"
        raise _tag_limit(f"tags name tags more than {MAX_TAG_DEPTH} deep ({path})", chain, source, start, end)
    return (*chain, tag)


class _TagCount:
    """The targets made from tags' configs (and taken from the cache of tags) by one reading, or
    by one check of a registry's tags (``whole_registry``): see MAX_TAG_TARGETS."""

    __slots__ = ("began", "limit", "outer", "spent", "whole_registry")

    def __init__(self, limit: int, whole_registry: bool, outer: _TagCount | None) -> None:
        self.limit = limit
        self.whole_registry = whole_registry
        self.outer = outer  # the check of a registry this reading is part of
        self.spent = 0
        self.began = 0  # what was spent when the outermost tag under way began


_TAG_COUNT: contextvars.ContextVar[_TagCount | None] = contextvars.ContextVar("targetlang_tag_targets", default=None)


def tag_counted(read: Callable[..., Target], *args: Any) -> Target:
    """``read(*args)`` with the targets it makes from tags counted. A reading inside a reading (an
    older era's reading of a nested text) goes on with the count of the one it is part of."""
    current = _TAG_COUNT.get()
    if current is not None and not current.whole_registry:
        return read(*args)
    token = _TAG_COUNT.set(_TagCount(MAX_TAG_TARGETS, False, current))
    try:
        return read(*args)
    finally:
        _TAG_COUNT.reset(token)


@contextlib.contextmanager
def checking_registry_tags() -> Iterator[None]:
    """Count the targets that the readings inside make from tags together as well, within
    MAX_CHECKED_TAG_TARGETS (check_registry reads every tag of a registry inside this)."""
    token = _TAG_COUNT.set(_TagCount(MAX_CHECKED_TAG_TARGETS, True, None))
    try:
        yield
    finally:
        _TAG_COUNT.reset(token)


def outermost_tag_begins() -> None:
    count = _TAG_COUNT.get()
    if count is not None:
        count.began = count.spent


def spend(chain: tuple[str, ...], source: str = "", start: int = 0, end: int = 0) -> None:
    """Count one target made from a tag's config (``chain``: the tags read, outermost first)."""
    count = _TAG_COUNT.get()
    while count is not None:
        count.spent += 1
        if count.spent > count.limit:
            if count.whole_registry:
                what = f"the registry's tags expand to more than {count.limit:,} targets in all"
            elif count.began:
                what = f"with the tags named before it, it expands to more than {count.limit:,} targets"
            else:
                what = f"it expands to more than {count.limit:,} targets"
            raise _tag_limit(f"{what} (a tag counts each time it is named)", chain, source, start, end)
        count = count.outer


def counts_now() -> list[int]:
    """What the counts under way have spent: a reading that fails and is read again another way
    (``_parsing``'s readings of plain JSON and of plain legacy options) puts them back (:func:`rewind`)."""
    spent = []
    count = _TAG_COUNT.get()
    while count is not None:
        spent.append(count.spent)
        count = count.outer
    return spent


def rewind(spent: list[int]) -> None:
    count = _TAG_COUNT.get()
    for value in spent:
        assert count is not None
        count.spent = value
        count = count.outer


def _tag_limit(what: str, chain: tuple[str, ...], source: str, start: int, end: int) -> RegistryError:
    # Said of the outermost tag, in the form the reader gives its tags' errors; about the tag's
    # name when there is no text to point into, so that no tag around it adds its own name.
    outer = chain[0]
    if not source:
        source, start, end = outer, 0, len(outer)
    return RegistryError(f"in tag {show(outer)}: {what}", source, start, end)


def in_tag(err: TargetError, tag: str) -> TargetError:
    # A cycle's message names every tag in it already, a limit of tags the outermost tag.
    return err if isinstance(err, (TagCycleError, RegistryError)) else err.in_context(f"in tag {show(tag)}")


def expand_tag(
    config: Mapping[str, Any], registry: Registry, chain: tuple[str, ...], source: str, span: tuple[int, int]
) -> tuple[dict[str, Any], tuple[str, ...]]:
    """``config`` (``{"tag": NAME, ...}``) over the config of tag NAME, over the configs of the tags
    that one extends in turn; and the chain of tags read."""
    layers = [config]
    name = config["tag"]
    while True:
        base = modern_tag(registry, name)
        if base is None:
            close = suggest(name, registry.tags)
            raise UnknownTagError(f"unknown target tag {show(name)}{hint(close)}", source, *span)
        chain = check_cycle(name, chain, source, *span)
        layers.append(base)
        name = base.get("tag")
        if base.get("kind") is not None or not isinstance(name, str):
            break
    merged: dict[str, Any] = {}
    for layer in reversed(layers):
        merged.update(layer)
    return merged, chain
