"""The entry of reading targets: text (tag, JSON object, legacy string) and config mappings.

``parse`` dispatches as TVM v0.22's ``Target(...)`` did (spec 2.1): a text that is exactly a
registered tag name is that tag; a text whose first character is ``{`` is JSON; anything else
is a legacy string. A mapping is a config dict. Values are typed by the kind's schema.

Parsed texts are cached, bounded by the text they hold as well as by their count, as every cache
of targetlang growing with the input is (``_cache``); a string of an older era is read by that
era's reader (``_eras``); a target pickles as its text. One reading itself is :mod:`._reading`'s.
"""

from __future__ import annotations

import copyreg
import functools
from collections.abc import Mapping
from typing import Any

from ._cache import COMMA_CHARGE, bounded_cache, make_room, text_cached
from ._diagnostics import LIMIT, MAX_DEPTH, STACK_EXHAUSTED, answers_recursion, depth_limit, on_large_stack
from ._eras import DEFAULT_ERA, ERAS, era_named
from ._json_decoding import check_int64
from ._lexical import MKLDNN
from ._reading import from_config, parse_text, retexted
from ._registry import Registry, builtin_registry
from ._tag_budget import tag_counted
from ._target import Target, TargetSpec, span_map, text_form
from ._versions import SCHEMA_RELEASES
from .errors import InvalidSpecError, NestingTooDeepError, TargetError, check_encodable

__all__ = ["MAX_DEPTH", "depth_limit", "parse", "parse_in_era"]


@answers_recursion
def parse(
    spec: TargetSpec, *, registry: Registry | None = None, era: str | None = None, max_depth: int | None = None
) -> Target:
    """Read a target from a legacy string, a tag name, JSON object text, or a config mapping.

    Nothing is resolved: ``keys`` are as written and no defaults are added (see
    :meth:`Target.resolve`). ``era`` reads a string as an older TVM wrote it (``"0.6"``,
    ``"0.7"``, ``"0.8"``; ``"0.22"``, the default, is TVM v0.10 - v0.23). ``max_depth`` bounds
    how deeply targets nest in targets (default :data:`MAX_DEPTH`, or the limit of the parse
    this one is called from); deeper input, like input too deep for Python's stack, is a
    :class:`NestingTooDeepError`. Raises a :class:`TargetError` subclass on bad input.
    """
    current = LIMIT.get()
    if (
        type(spec) is str
        and registry is None
        and era is None
        and max_depth is None
        and current == MAX_DEPTH
        and spec.isascii()  # (nothing to check for lone surrogates)
    ):
        # The commonest call, straight to the cached reading, without the dispatch below; a short
        # text straight to _read_default's short store, by text_cached's own rule, and read as
        # _parse_uncached reads it: three calls fewer (a text holding "mkldnn", for the rewrite
        # of it, goes through the wrapper).
        try:
            size = len(spec)
            if size <= _SHORT_COST and ("," not in spec or size + COMMA_CHARGE * spec.count(",") <= _SHORT_COST):
                held = _SHORT.get(spec)
                if held is None:
                    if MKLDNN in spec:
                        return _read_default(spec)
                    held = parse_text(spec, builtin_registry(), 0, ())
                    if len(_SHORT) >= _SHORT_ENTRIES:
                        make_room(_SHORT, _SHORT_ENTRIES)
                    _SHORT[spec] = held
                return held
            return _read_default(spec)
        except RecursionError:
            pass  # called with little stack left: read again below, on a large one
    if max_depth is None:
        max_depth = current
    elif isinstance(max_depth, bool) or not isinstance(max_depth, int) or max_depth < 0:
        raise ValueError(f"max_depth is a number of levels, 0 or more, not {max_depth!r}")
    token = LIMIT.set(max_depth) if max_depth != current else None
    try:
        try:
            if era is None and type(spec) is str:  # the common call, without _parse's dispatch
                if not spec.isascii():
                    check_encodable(spec)
                return _read_text(spec, builtin_registry() if registry is None else registry, max_depth)
            return _parse(spec, registry, era, max_depth)
        except RecursionError:
            pass
        # Only a large max_depth gets here: the default stays well inside Python's stack. (A
        # partial, not a lambda: a closure would make every call of parse() build four cells.)
        return on_large_stack(functools.partial(_parse, spec, registry, era, max_depth))
    except (RecursionError, NestingTooDeepError) as exc:
        if isinstance(exc, NestingTooDeepError) and exc.message != STACK_EXHAUSTED:
            raise
        # deeper than even the large stack holds (about 20,000 levels)
        raise NestingTooDeepError(
            f"{STACK_EXHAUSTED} (max_depth={max_depth})",
            spec if isinstance(spec, str) else "",
            0,
            len(spec) if isinstance(spec, str) else 0,
        ) from None
    finally:
        if token is not None:
            LIMIT.reset(token)


def _parse(spec: Any, registry: Registry | None, era: str | None, max_depth: int) -> Target:
    if era is not None and era != DEFAULT_ERA:
        if not isinstance(spec, str):
            raise InvalidSpecError(f"an era applies to target strings only, not to {type(spec).__name__}")
        check_encodable(spec)
        return parse_in_era(spec, era, registry=registry)
    reg = registry if registry is not None else builtin_registry()
    if isinstance(spec, str):
        check_encodable(spec)
        return _read_text(spec, reg, max_depth)
    if isinstance(spec, Target):
        return spec
    if isinstance(spec, Mapping):
        check_int64(spec)
        return tag_counted(from_config, spec, reg, 0, None, "")
    what = "None" if spec is None else type(spec).__name__
    raise InvalidSpecError(f"a target spec is a str, a mapping or a Target, not {what}")


def parse_in_era(text: str, era: str, *, registry: Registry | None = None) -> Target:
    """Read ``text`` as the TVM of ``era`` read it (``"0.6"``, ``"0.7"``, ``"0.8"`` or ``"0.22"``).

    ``str()`` of the result is ``text``, exactly. ``registry`` defaults to the era's
    (:func:`targetlang.era_registry`). Nothing is resolved. Raises :class:`ValueError` for an
    unknown era and a :class:`~targetlang.TargetError` subclass, with ``text`` and a span, for bad
    input.
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_in_era reads a target string, not {type(text).__name__}")
    found = era_named(era)
    return _era_cached(text, found.name, registry if registry is not None else found.registry(), depth_limit())


# Every cache of parsed text is bounded by its count and by the text it holds (_cache.TEXT_BUDGET).
@bounded_cache(4096)
def _era_cached(text: str, era: str, registry: Registry, max_depth: int) -> Target:
    return ERAS[era].read(text, registry, 0, _default_reader)


def _default_reader(text: str, registry: Registry) -> Target:
    return parse(text, registry=registry)


def _read_text(text: str, registry: Registry, max_depth: int) -> Target:
    """``text`` read, from the cache when it holds it."""
    if max_depth == MAX_DEPTH and (registry is (default := builtin_registry()) or registry == default):
        return _read_default(text)
    return _parse_cached(text, registry, max_depth)


@text_cached(512)
def _read_default(text: str) -> Target:
    """``text`` read as most texts are: with the built-in registry, at the default depth."""
    return _parse_uncached(text, builtin_registry())


_SHORT: dict[str, Target] = _read_default.short_store
_SHORT_COST = _read_default.short_cost
_SHORT_ENTRIES = _read_default.short_entries


@bounded_cache(16384)
def _parse_cached(text: str, registry: Registry, max_depth: int) -> Target:
    return tag_counted(_parse_uncached, text, registry)


def _parse_uncached(text: str, registry: Registry) -> Target:
    if MKLDNN in text:
        return _parse_mkldnn(text, registry)
    return parse_text(text, registry, 0, ())


def _parse_mkldnn(text: str, registry: Registry) -> Target:
    """``text`` read as TVM's Python ``Target()`` read a string holding ``-libs=mkldnn``: with
    every ``mkldnn`` in it replaced by ``dnnl`` first. The target keeps ``text`` as its text, and
    spans and errors point into it."""
    rewritten = text.replace("mkldnn", "dnnl")
    # offsets[i]: where character i of the rewritten text stands in ``text``. The four
    # characters of a "dnnl" stand for the six of "mkldnn": first on first, last on last.
    offsets: list[int] = []
    at = 0
    while True:
        found = text.find("mkldnn", at)
        stop = len(text) if found < 0 else found
        offsets.extend(range(at, stop))
        if found < 0:
            break
        offsets.extend((found, found + 1, found + 2, found + 5))
        at = found + 6
    try:
        target = parse_text(rewritten, registry, 0, ())
    except TargetError as err:
        if err.source != rewritten:
            raise
        raise err.relocated(text, offsets, len(text)) from None

    def start(i: int) -> int:
        return offsets[i] if i < len(offsets) else len(text)

    def end(i: int) -> int:
        return offsets[i - 1] + 1 if i > 0 else 0

    spans = {name: (start(a), end(b), start(c), end(d)) for name, (a, b, c, d) in span_map(target).items()}
    return retexted(target, registry, text, text_form(target), spans)


# ------------------------------------------------------------------------------------ pickling


def _reduce_target(target: Target) -> tuple[Any, ...]:
    # Pickled as its text, the era that reads that text back, and which built-in or era registry
    # it uses; a target reads back equal (features, which only resolve() sets, are recomputed by
    # resolving again). Registered here, by the reader, so that Target need not know the parser.
    era = target.era
    registry = target.registry
    version = registry.version
    if version and version in SCHEMA_RELEASES and builtin_registry(version) == registry:
        return (_unpickle, (str(target), version, era, False))
    # an era's registry; an edited target of one has lost its era's text, not its registry
    for name, rules in ERAS.items():
        if rules.registry() == registry:
            return (_unpickle, (str(target), name, era, True))
    # A user's registry travels with the target (as its kinds and tags: Registry pickles itself).
    return (_unpickle_with, (str(target), registry, era))


def _unpickle(text: str, version: str, era: str = "", era_registry: bool = False) -> Target:
    registry = era_named(version).registry() if era_registry else builtin_registry(version)
    return parse(text, registry=registry, era=era or None)


def _unpickle_with(text: str, registry: Registry, era: str) -> Target:
    return parse(text, registry=registry, era=era or None)


copyreg.pickle(Target, _reduce_target)
