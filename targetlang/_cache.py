"""Least-recently-used caches bounded by the size of what they hold, not only by their count.

Every cache of targetlang whose entries come from the input (the parse caches, a log reader's
readings, a log migrator's migrations) is an `LruCache`, or, for the texts most parses read,
`text_cached`'s pair: short texts in a dict whose count bounds their cost (first in, first out),
and the others in an `LruCache`. A count alone does not bound memory: 1,000 distinct 130 KB specs
held 250 MB (one long value each) to 880 MB (long `-mattr` lists) after their targets were
dropped. So each cache also bounds the summed *cost* of its entries and drops the least
recently used entries to stay within both bounds; an entry whose cost alone is over the bound is
not stored at all.

The cost of an entry is the text of its key in characters (`text_cost`), with two charges
for what text alone does not show: each comma costs `COMMA_CHARGE` (16) more, since it
separates items that are objects of their own, a string or a whole target (an array of
2-character items, `-mattr=ab,ab,...`, holds a 59-byte string for every 3 characters; a
composite's `-devices=c,c,...` a 270-byte target for every 2), and each entry costs
`ENTRY_CHARGE` (64) more for its fixed part (900 bytes for `llvm -mcpu=c1`).

Measured with `tracemalloc` (CPython 3.11, 64-bit), what the entries of a full cache hold
after the caller dropped its results, in bytes per unit of cost, over 13 shapes of spec (one
long value, arrays of 1-, 2- and 8-character items, `-keys`, JSON, composites of legacy and
JSON devices, short and 100-character specs): a parse cache at most 20 (a composite of JSON
devices; 7 for a typical 100-character spec, 1 - 3 for long values and arrays), a log reader's
readings at most 39 (a composite again: the target and its resolved copy), a migrator's
migrations at most 22. `TEXT_BUDGET`, 256 K characters a cache, is then at most 5.3 MB a
parse cache, 10 MB a reader and 6 MB a migrator, whatever the input: all of them together
(parse, era, reader, migrator, in a `logs migrate` run) stay under 30 MB. Real logs repeat a
few dozen distinct targets of a few hundred characters, far inside the bound; 256 K characters
still hold 1,300 distinct targets of 100 characters.

The caches are safe to share between threads. Every change of an `LruCache` is made under a
lock, and a hit on a text, the path a repeated parse takes, only looks the key up and moves it to
the recent end, two operations of the `OrderedDict` that the GIL makes atomic, as a `str` runs no
Python code in them (a hit on another key, a tuple holding a registry whose `__eq__` is Python
code, takes the lock, as every hit does where there is no GIL). A short store of `text_cached`
takes no lock: a lookup, a store and the dropping of one key are one dict operation each, which a
dict makes atomic with or without a GIL. Threads storing at once can put it a few entries over
its count, one for each (`make_room`), never more. `clear_all_caches` empties every cache
(`targetlang.clear_caches`), at any time: it reads what it drops without the iteration of an
`OrderedDict`, which a hit meanwhile would break.
"""

from __future__ import annotations

import functools
import sys
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Generic, ParamSpec, Protocol, TypeVar, cast

__all__ = [
    "COMMA_CHARGE",
    "ENTRY_CHARGE",
    "TEXT_BUDGET",
    "CachedFunction",
    "LruCache",
    "TextCached",
    "bounded_cache",
    "clear_all_caches",
    "make_room",
    "text_cached",
    "text_cost",
]

_K = TypeVar("_K", bound=Hashable)
_V = TypeVar("_V")
_P = ParamSpec("_P")
_R = TypeVar("_R")
_R_co = TypeVar("_R_co", covariant=True)

# Characters of key text one cache holds at most (what that costs in memory: above).
TEXT_BUDGET = 1 << 18
# What an entry costs besides its text, in characters: 900 bytes - 2 KB at about 20 bytes a character.
ENTRY_CHARGE = 64
# What a comma costs besides itself: it separates items, each a string or a whole target of its own.
COMMA_CHARGE = 16

# The type of the keys whose hits take no lock: str with a GIL (see LruCache.find); none without
# one (a free-threaded build), where an OrderedDict's operations are not atomic.
_UNLOCKED_KEY: type = str if getattr(sys, "_is_gil_enabled", lambda: True)() else type("_NoKey", (), {})

# Weak references to every cache, each removing itself as its cache goes (a WeakSet's iteration
# guard costs more than clearing the caches: benchmarks call clear_caches before every cold parse).
_caches: set[weakref.ref[LruCache[Any, Any]]] = set()
_caches_lock = threading.Lock()
# The same references as a tuple, for clear_all_caches to read without the lock (a reference
# whose cache has gone gives None), made again by it (under the lock) after a cache is made.
_cache_refs: tuple[weakref.ref[LruCache[Any, Any]], ...] = ()
_caches_added = False
# Whether any cache may have been given an entry since clear_all_caches last looked at them all
# (set by each put, reset before the look: a put meanwhile sets it again for the next).
_caches_stored = True
# What empties the short stores of text_cached functions (module-level functions: never dropped).
_clearers: list[Callable[[], None]] = []


def text_cost(key: object) -> int:
    """The cost of an entry under ``key``, in characters of the text in it (a string, or the
    strings of a tuple): their length, :data:`COMMA_CHARGE` more for each comma, and
    :data:`ENTRY_CHARGE`."""
    if type(key) is str:
        return ENTRY_CHARGE + len(key) + COMMA_CHARGE * key.count(",")
    texts = (key,) if isinstance(key, str) else key if isinstance(key, tuple) else ()
    cost = ENTRY_CHARGE
    for text in texts:
        if isinstance(text, str):
            cost += len(text) + COMMA_CHARGE * text.count(",")
    return cost


class LruCache(Generic[_K, _V]):
    """A mapping of at most ``max_entries`` entries whose costs add up to at most ``max_cost``;
    the least recently used entries make way. A value of ``None`` cannot be told from a miss by
    :meth:`get` (:meth:`find` tells them apart)."""

    __slots__ = ("__weakref__", "_cost", "_data", "_lock", "max_cost", "max_entries")

    def __init__(self, max_entries: int, max_cost: int = TEXT_BUDGET) -> None:
        if max_entries < 0 or max_cost < 0:
            raise ValueError("a cache holds 0 entries or more, of a cost of 0 or more")
        self.max_entries = max_entries
        self.max_cost = max_cost
        # Least recently used first; never replaced (bounded_cache's wrappers hold its methods).
        self._data: OrderedDict[_K, tuple[_V, int]] = OrderedDict()
        self._cost = 0
        self._lock = threading.RLock()  # re-entrant: a finalizer run by a collection may parse
        global _caches_added
        with _caches_lock:
            _caches.add(weakref.ref(self, _caches.discard))
            _caches_added = True

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def keys(self) -> list[_K]:
        """The keys held, least recently used first."""
        with self._lock:
            # The OrderedDict's iteration hashes each key; a key's __hash__ may be Python code,
            # during which a hit that takes no lock (on a str) may move a key: the iteration then
            # raises RuntimeError, or ends early if the key it was at went to the end. Nothing
            # else can change the count meanwhile: read the order again until all of it is read.
            while True:
                try:
                    keys = list(self._data)
                except RuntimeError:
                    continue
                if len(keys) == len(self._data):
                    return keys

    @property
    def cost(self) -> int:
        """The summed cost of the entries held."""
        return self._cost

    @property
    def peek(self) -> Callable[[_K], tuple[_V, int] | None]:
        """A lookup that leaves the order of use as it is: ``(value, cost)`` under a key, or
        ``None``. (The mapping's own ``get``, bound: a loop over many lines binds it once.)"""
        return self._data.get

    def get(self, key: _K) -> _V | None:
        """The value under ``key``, now the most recently used, or ``None``."""
        found = self.find(key)
        return found[0] if found is not None else None

    def find(self, key: _K) -> tuple[_V] | None:
        """``(value,)`` for the value under ``key``, now the most recently used, or ``None``."""
        # One call, not three: a parse that misses the cache pays for this lookup. A str key
        # runs no Python code in the OrderedDict's operations, which the GIL then makes atomic;
        # any other key may (a registry's __eq__, for one in a tuple equal to but not the one
        # held), letting another thread clear or fill the cache in the middle of move_to_end,
        # which then reads freed memory (CPython gh-142637): its hit takes the lock.
        if type(key) is not _UNLOCKED_KEY:
            with self._lock:
                entry = self._data.get(key)
                if entry is not None:
                    self._data.move_to_end(key)
                    return (entry[0],)
                return None
        data = self._data
        entry = data.get(key)
        if entry is None:
            return None
        try:
            data.move_to_end(key)
        except KeyError:  # dropped by another thread since: the value is still the right one
            pass
        return (entry[0],)

    def put(self, key: _K, value: _V, cost: int | None = None) -> None:
        """Hold ``value`` under ``key`` (``cost``: :func:`text_cost` of the key), dropping the least
        recently used entries to stay within the bounds; not at all if ``cost`` alone is over."""
        global _caches_stored
        if cost is None:
            if isinstance(key, str):  # text_cost's commonest case, inline
                cost = ENTRY_CHARGE + len(key) + COMMA_CHARGE * key.count(",")
            else:
                cost = text_cost(key)
        # acquire and release, not ``with``: every cold parse puts, and this halves the lock's cost
        lock = self._lock
        lock.acquire()
        try:
            data = self._data
            # What is dropped stays referenced until the lock is released: a finalizer it runs
            # may use the cache.
            old = data.pop(key) if key in data else None
            if old is not None:
                self._cost -= old[1]
            if cost > self.max_cost or self.max_entries == 0:
                return
            data[key] = (value, cost)
            _caches_stored = True
            total = self._cost = self._cost + cost
            if total > self.max_cost or len(data) > self.max_entries:
                dropped: list[tuple[_V, int]] = []
                while self._cost > self.max_cost or len(data) > self.max_entries:
                    entry = data.popitem(last=False)[1]
                    self._cost -= entry[1]
                    dropped.append(entry)
        finally:
            lock.release()

    def clear(self) -> None:
        """Drop every entry."""
        if not self._data:
            return  # (a put racing with this one is as if it came after)
        with self._lock:
            data = self._data
            # Read through dict's own views, not the OrderedDict's: an OrderedDict's iteration
            # hashes every key (a registry's __hash__ is Python code, during which another
            # thread runs) and fails if a hit that takes no lock reorders it meanwhile; a dict's
            # runs no code, and a hit changes no part of it. Keys and values are held until the
            # lock is released, so that clearing runs no finalizer either.
            dropped = (list(dict.keys(data)), list(dict.values(data)))
            data.clear()
            self._cost = 0
        del dropped


class CachedFunction(Protocol[_P, _R_co]):
    """A function whose results are cached by its arguments in :attr:`cache` (see :func:`bounded_cache`)."""

    __name__: str
    cache: LruCache[tuple[Any, ...], Any]
    cache_clear: Callable[[], None]

    def __call__(self, *args: _P.args, **kwargs: _P.kwargs) -> _R_co: ...


_KEYWORDS = object()  # parts the positional arguments from the keyword ones in a key


def bounded_cache(
    max_entries: int, max_cost: int = TEXT_BUDGET
) -> Callable[[Callable[_P, _R]], CachedFunction[_P, _R]]:
    """:func:`functools.lru_cache` with an :class:`LruCache`: the function's results cached by its
    (hashable) arguments, bounded by ``max_entries`` and by ``max_cost`` (the text of the
    arguments, :func:`text_cost`). Exceptions are not cached; ``.cache_clear()`` empties it."""

    def decorate(function: Callable[_P, _R]) -> CachedFunction[_P, _R]:
        cache: LruCache[tuple[Any, ...], _R] = LruCache(max_entries, max_cost)
        find, put = cache.find, cache.put

        @functools.wraps(function)
        def cached(*args: _P.args, **kwargs: _P.kwargs) -> _R:
            key = (*args, _KEYWORDS, *sorted(kwargs.items())) if kwargs else args
            found = find(key)
            if found is not None:
                return found[0]
            result = function(*args, **kwargs)
            put(key, result)
            return result

        wrapper = cast("CachedFunction[_P, _R]", cached)
        wrapper.cache = cache
        wrapper.cache_clear = cache.clear
        return wrapper

    return decorate


class TextCached(Protocol[_R_co]):
    """A function of one text whose results are cached by it (see :func:`text_cached`)."""

    __name__: str
    short_cost: int
    short_entries: int
    short_store: dict[str, Any]
    long_cache: LruCache[str, Any]
    cache_clear: Callable[[], None]

    def __call__(self, text: str, /) -> _R_co: ...


def text_cached(short_entries: int, max_cost: int = TEXT_BUDGET) -> Callable[[Callable[[str], _R]], TextCached[_R]]:
    """A function of one text with its results cached by the text, within ``max_cost`` of text
    (:func:`text_cost`) in all. Exceptions are not cached, nor is ``None`` in the short store;
    ``.cache_clear()`` empties it.

    A short text, of a cost at most ``max_cost // (2 * short_entries)``, is held in a plain dict
    of at most ``short_entries`` entries (``.short_store``): bounded by its count alone, which
    bounds their cost to half of ``max_cost``, and dropped first in, first out
    (:func:`make_room`), as the ``re`` module's cache of patterns did in Python 3.11. A miss
    costs a lookup and a store, where an :class:`LruCache` cost 0.7 µs and
    ``functools.lru_cache`` 0.4 (its entry made and freed) of a cold parse of 2.7 µs; a hit
    reorders nothing. (Short is ``len(text) + COMMA_CHARGE * text.count(",")`` at most
    ``.short_cost``, and a ``str`` itself: an instance of a subclass is held apart from an equal
    ``str``, as ``functools.lru_cache`` kept them.) A longer text is held in an
    :class:`LruCache` of the other half (``.long_cache``). For module-level functions: the
    short store is registered for :func:`clear_all_caches` for good.
    """
    if short_entries < 1:
        raise ValueError(f"a short store holds one entry at least, not {short_entries}")
    short_cost = max_cost // (2 * short_entries) - ENTRY_CHARGE  # of text_cost's own part

    def decorate(function: Callable[[str], _R]) -> TextCached[_R]:
        short: dict[str, _R] = {}
        long_cache: LruCache[str, _R] = LruCache(short_entries * 16, max_cost - max_cost // 2)
        find, put = long_cache.find, long_cache.put

        @functools.wraps(function)
        def cached(text: str, /) -> _R:
            size = len(text)
            if (
                size <= short_cost
                and ("," not in text or size + COMMA_CHARGE * text.count(",") <= short_cost)
                and type(text) is str
            ):
                held = short.get(text)
                if held is None:
                    held = function(text)
                    if held is not None:
                        if len(short) >= short_entries:
                            make_room(short, short_entries)
                        short[text] = held
                return held
            found = find(text)
            if found is not None:
                return found[0]
            result = function(text)
            put(text, result)
            return result

        def cache_clear() -> None:
            short.clear()
            long_cache.clear()

        wrapper = cast("TextCached[_R]", cached)
        wrapper.short_cost = short_cost
        wrapper.short_entries = short_entries
        wrapper.short_store = short
        wrapper.long_cache = long_cache
        wrapper.cache_clear = cache_clear
        on_clear(short.clear)
        return wrapper

    return decorate


def on_clear(clear: Callable[[], None]) -> None:
    """Have :func:`clear_all_caches` call ``clear`` (a store of a module's own, bounded, that
    grows with the input), for good."""
    with _caches_lock:
        _clearers.append(clear)


def make_room(store: dict[Any, Any], max_entries: int) -> None:
    """Drop the oldest entries of ``store``, a dict bounded by its count, until one more fits in
    ``max_entries``. (A dict keeps its keys in the order they went in. Threads that make room at
    once and then store can put the store a few entries over, one for each; the next store
    brings it back.)"""
    while len(store) >= max_entries:
        try:
            del store[next(iter(store))]
        except RecursionError:
            raise
        except (StopIteration, RuntimeError, KeyError):
            pass  # another thread emptied or changed it meanwhile: look again


# The last definition of this module: targetlang.clear_caches takes its presence for the end of
# the module's import, before which no cache exists.
def clear_all_caches() -> None:
    """Empty every cache there is: the module-level ones and those of live readers."""
    global _cache_refs, _caches_added, _caches_stored
    for clear in _clearers:
        clear()
    if not _caches_stored:
        return  # (no cache was given an entry since every one was last emptied)
    _caches_stored = False
    if _caches_added:
        with _caches_lock:
            _cache_refs = tuple(_caches)
            _caches_added = False
    # (the lock taken only when caches were made, and no call for an empty cache: benchmarks
    # call this before every cold parse of a short text, whose figure it was a fifth of)
    for ref in _cache_refs:
        cache = ref()
        if cache is not None and cache._data:
            cache.clear()
