"""``targetlang.clear_caches()`` looks at the caches only when one was given an entry since it last
did, and at a cache made since through a new list of them: every entry is still dropped."""

from __future__ import annotations

import targetlang
from targetlang import _cache
from targetlang import _parsing as parsing
from targetlang._cache import LruCache

LONG = "llvm -mcpu=" + "a" * 400  # past the short store: held by an LruCache


def test_a_long_text_is_dropped_after_clears_that_found_nothing() -> None:
    targetlang.clear_caches()
    targetlang.clear_caches()  # nothing given since: nothing looked at
    assert not _cache._caches_stored
    targetlang.parse(LONG)
    assert len(parsing._read_default.long_cache) == 1
    targetlang.clear_caches()
    assert len(parsing._read_default.long_cache) == 0


def test_a_cache_made_after_a_clear_is_emptied_by_the_next() -> None:
    targetlang.clear_caches()
    cache: LruCache[str, int] = LruCache(8)
    cache.put("a", 1)
    targetlang.clear_caches()
    assert len(cache) == 0
    cache.put("b", 2)
    targetlang.clear_caches()
    assert len(cache) == 0


def test_the_short_store_is_emptied_every_time() -> None:
    targetlang.clear_caches()
    targetlang.parse("llvm -mcpu=x")
    assert "llvm -mcpu=x" in parsing._SHORT
    targetlang.clear_caches()
    assert "llvm -mcpu=x" not in parsing._SHORT
