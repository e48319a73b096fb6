"""What is cheap to look at first: whether a file may hold anything the rules look for, read
in its text, before LibCST is imported or run (:mod:`._candidates` asks the same of a node)."""

from __future__ import annotations

import functools
import re

from .._registry import Registry
from ._convert import reading_registry
from ._properties import REMOVED_PROPERTIES

__all__ = ["helper_names", "worth_parsing"]


def helper_names() -> frozenset[str]:
    """The names of the helper constructors TVM 0.24 removed (``cuda``, ``arm_cpu``, ...)."""
    from ..helpers import HELPERS

    return frozenset(HELPERS)


def worth_parsing(text: str, registry: Registry | None = None) -> bool:
    """Whether ``text`` has anything the rules look for at all: most files of a tree have not,
    and reading them with LibCST is most of the time a run takes."""
    looks, properties = _prefilter(registry)
    return bool(looks.search(text) or (properties.search(text) and _TARGET_WORD.search(text)))


_TARGET_WORD = re.compile(r"target|tgt", re.IGNORECASE)


@functools.lru_cache(maxsize=8)
def _prefilter(registry: Registry | None) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """What may hold a legacy target: a string that starts like one (a kind, or a template's
    field, and an option later in it), the parts of a built one (a kind and a space, then a field
    or the end of the string; a space and an option alone), a string with options where a target
    must stand, a string written with escapes, a join of a literal list, a helper or ``canon_*``
    call; and a removed property (in a file that speaks of targets)."""
    kinds = "|".join(sorted(map(re.escape, reading_registry(registry).kinds), key=len, reverse=True))
    helpers = "|".join(sorted(helper_names() | {"create"}))
    head = rf"""(?:{kinds}|%[-#0 +\d.]*[a-z]|\{{[^{{}}\n]*\}})"""
    looks = re.compile(
        "|".join(
            (
                rf"""["']\s*{head}[^"'\n]*?\s-""",
                rf"""["']\s*(?:{kinds})\s+["'{{%]""",
                r"""["']\s+-\w""",
                r"""(?:Target\(|\b(?:target|target_host|host)\s*=)[^)]{0,400}?["'][^"'\n]*?-""",
                r"""["'][^"'\n]*\\[xuUN0-7]""",
                r"""["']\.join\(\s*[\[(]""",
                rf"""\b(?:{helpers})\s*\(|canon_""",
                # a helper imported or named without a call (removed: the import fails)
                rf"""\btarget\.(?:{helpers}|vta|micro)\b""",
                rf"""\bfrom\s+tvm\.target(?:\.target)?\s+import\b[^;]{{0,300}}?\b(?:{helpers}|vta|micro)\b""",
                # a modern target (a dict or JSON with a kind or tag, a tag), and str() of one tested
                r"""\bkind\\?["']\s*:|\btag\\?["']\s*:|Target\(\s*["'][\w.-]+/""",
                r"""\bstr\([^()\n]{1,80}\)\s*(?:[=!]=|\.(?:starts|ends)with\b)|\bin\s+str\(""",
            )
        )
    )
    return looks, re.compile(rf"\.(?:{'|'.join(sorted(REMOVED_PROPERTIES))})\b")
