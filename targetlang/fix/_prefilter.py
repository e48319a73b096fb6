"""What is cheap to look at first: whether a file may hold anything the rules look for, read
in its text, before LibCST is imported or run (:mod:`._candidates` asks the same of a node)."""

from __future__ import annotations

import functools
import re

from .._registry import Registry
from ._convert import reading_registry
from ._properties import REMOVED_PROPERTIES

__all__ = ["helper_names", "hits", "worth_parsing"]


def helper_names() -> frozenset[str]:
    """The names of the helper constructors TVM 0.24 removed (``cuda``, ``arm_cpu``, ...)."""
    from ..helpers import HELPERS

    return frozenset(HELPERS)


def worth_parsing(text: str, registry: Registry | None = None, *, modern: bool = True) -> bool:
    """Whether ``text`` has anything the rules look for at all: most files of a tree have not,
    and reading them with LibCST is most of the time a run takes. Without ``modern``, a modern
    target alone (a dict with a kind) does not count: the code a fix wrote (is written so)."""
    looks, properties = _prefilter(registry)
    if not modern:
        looks = looks[:_MODERN_AT]
    return any(pattern.search(text) for pattern in looks) or bool(
        properties.search(text) and _TARGET_WORD.search(text)
    )


def hits(text: str, registry: Registry | None = None) -> list[tuple[int, int]]:
    """The spans of ``text`` that may hold what the rules look for (empty where
    :func:`worth_parsing` says no): the statements they are in are the ones LibCST reads
    (:mod:`._sparse`)."""
    looks, properties = _prefilter(registry)
    found = [match.span() for pattern in looks for match in pattern.finditer(text)]
    if _TARGET_WORD.search(text):
        found += [match.span() for match in properties.finditer(text)]
    if found:
        # in a file that has any, what the survey looks at is broader than what gates the file:
        # any text with an option (of a kind no registry knows), and every call where a target
        # is read (a text built there is read whole)
        found += [match.span() for match in _ANY_OPTION.finditer(text)]
        found += [match.span() for match in _api_call().finditer(text)]
    return found


_TARGET_WORD = re.compile(r"target|tgt", re.IGNORECASE)
_MODERN_AT = -2  # the last patterns of _prefilter's: a modern target
_ANY_OPTION = re.compile(r"\s-[^\W\d]")


@functools.cache
def _api_call() -> re.Pattern[str]:
    from ._apis import DEFAULT_TABLE

    names = sorted({row.name.rsplit(".", 1)[-1] for row in DEFAULT_TABLE.rows}, key=len, reverse=True)
    return re.compile(rf"(?:{'|'.join(map(re.escape, names))})\s*\(")


@functools.lru_cache(maxsize=8)
def _prefilter(registry: Registry | None) -> tuple[tuple[re.Pattern[str], ...], re.Pattern[str]]:
    """What may hold a legacy target: a string that starts like one (a kind, or a template's
    field, and an option later in it), the parts of a built one (a kind and a space, then a field
    or the end of the string; a space and an option alone), a string with options where a target
    must stand, a string written with escapes, a join of a literal list, a helper or ``canon_*``
    call; and a removed property (in a file that speaks of targets).

    Each pattern starts with a literal or one class of characters, so that the regular
    expression engine skips to where it may match (one alternation of them all tries every
    position: eight times as slow); none asks for a word boundary first, for the same reason (a
    pattern may find a little more, never less)."""
    kinds = "|".join(sorted(map(re.escape, reading_registry(registry).kinds), key=len, reverse=True))
    helpers = "|".join(sorted(helper_names() | {"create"}))
    head = rf"""(?:{kinds}|%[-#0 +\d.]*[a-z]|\{{[^{{}}\n]*\}})"""
    looks = (
        rf"""["'](?:\s*{head}[^"'\n]*?\s-|\s*(?:{kinds})\s+["'{{%]|\s+-\w|[^"'\n]*\\[xuUN0-7]|\.join\(\s*[\[(])""",
        # where a target must stand; a tag (a modern target)
        r"""Target\((?:[^)]{0,400}?["'][^"'\n]*?-|\s*["'][\w.-]+/)""",
        r"""target(?:_host)?\s*=[^)]{0,400}?["'][^"'\n]*?-""",
        r"""host\s*=[^)]{0,400}?["'][^"'\n]*?-""",
        rf"""(?:{helpers})\s*\(""",
        r"canon_",
        # a helper imported or named without a call (removed: the import fails)
        rf"""target\.(?:{helpers}|vta|micro)\b""",
        rf"""from\s+tvm\.target(?:\.target)?\s+import\b[^;]{{0,300}}?\b(?:{helpers}|vta|micro)\b""",
        # str() of a target tested
        r"""str\([^()\n]{1,80}\)\s*(?:[=!]=|\.(?:starts|ends)with\b)""",
        r"""in\s+str\(""",
        # (last:) a modern target, a dict or JSON with a kind or tag
        r"""kind\\?["']\s*:""",
        r"""tag\\?["']\s*:""",
    )
    return tuple(map(re.compile, looks)), re.compile(rf"\.(?:{'|'.join(sorted(REMOVED_PROPERTIES))})\b")
