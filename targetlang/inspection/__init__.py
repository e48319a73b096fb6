"""What targetlang knows, for people to read: TVM's kinds and tags release by release, where each
value of a target comes from and what becomes of it in TVM 0.27, and how two targets differ, for
the tuning dispatchers too.

The ``targetlang`` commands ``kinds``, ``tags``, ``explain`` and ``diff`` print what these
functions return (docs/inspection.md); every result has a ``to_json()``.

>>> from targetlang.inspection import diff, explain, kind_info
>>> kind_info("hybrid").releases[-1]
'0.21'
>>> [(row.name, row.value, row.origin) for row in explain("cuda -arch=sm_80").rows][:2]
[('keys', ['cuda', 'gpu'], 'default'), ('arch', 'sm_80', 'written')]
>>> diff("llvm -mcpu=skylake", "llvm -mcpu=icelake-server").same_autotvm_dispatch
True
"""

from __future__ import annotations

from ..migration import Origin
from ._diff import AttrChange, Dispatch, TargetDiff, diff, tophub_package
from ._explain import AttrExplanation, Explanation, explain
from ._tables import AttrInfo, KindInfo, TagInfo, kind_info, kind_table, release_ranges, tag_matches, tag_table

__all__ = [
    "AttrChange",
    "AttrExplanation",
    "AttrInfo",
    "Dispatch",
    "Explanation",
    "KindInfo",
    "Origin",
    "TagInfo",
    "TargetDiff",
    "diff",
    "explain",
    "kind_info",
    "kind_table",
    "release_ranges",
    "tag_matches",
    "tag_table",
    "tophub_package",
]
