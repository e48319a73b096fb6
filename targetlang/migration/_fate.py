"""What becomes of a kind and of each of its attributes in the modern release a target is
migrated for: what migration decides, asked one kind or attribute at a time (``targetlang
explain`` prints it beside each value)."""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Any, Literal

from .._release_schemas import load_data
from .._versions import MODERN, data_file, release_title
from ..errors import show
from ._checks import option_types
from ._model import REMOVED_ATTRS, REMOVED_KINDS, RENAMED_ATTRS, legacy_registry
from ._rules import RULES, legacy_kind

__all__ = ["Origin", "attribute_fate", "kind_fate", "modern_attribute"]

Origin = Literal["written", "default", "canonicaliser", "tag"]
"""Where a value of a resolved target comes from: the text (``written``), a tag the text names
(``tag``), the kind's default (``default``), or the kind's canonicaliser, TVM's target parser
(``canonicaliser``)."""


@functools.cache
def _modern_exports(to: str = str(MODERN)) -> Mapping[str, Mapping[str, Any]]:
    """What TVM ``to`` exports for a bare target of each kind: its defaults and what its
    canonicaliser sets (``data/kinds-v0.27.json``, recorded on a machine without GPUs; for an
    older modern release, the defaults its source registers)."""
    kinds: Mapping[str, Mapping[str, Any]] = load_data(data_file("kinds", to))["kinds"]
    return {name: kind["bare_export"] for name, kind in kinds.items()}


def kind_fate(kind: str, to: str = str(MODERN)) -> str:
    """What TVM ``to`` does with a target of kind ``kind``: ``"kept"``, or why it has no such kind
    (removed, and what replaces it; a BYOC kind; one a later release or a registry file added)."""
    if kind in option_types(to):
        return "kept"
    removed = REMOVED_KINDS.get(kind)
    if removed is not None:
        return removed
    if legacy_kind(kind):
        return RULES["byoc-kind"].summary
    if kind in legacy_registry().kinds:
        return f"unknown to {release_title(to)} (a kind a later release added)"
    return f"unknown to {release_title(to)} (a kind of a registry file)"


def modern_attribute(kind: str, name: str, to: str = str(MODERN)) -> str | None:
    """The name TVM ``to`` gives attribute ``name`` of ``kind``, ``None`` when it has none."""
    options = option_types(to).get(kind)
    if options is None:
        return None
    if name in options:
        return name
    renamed = RENAMED_ATTRS.get(name)
    return renamed if renamed in options else None


def attribute_fate(
    kind: str,
    name: str,
    value: Any,
    origin: Origin,
    modern: str | None,
    default_keys: tuple[str, ...],
    to: str = str(MODERN),
) -> str:
    """What TVM ``to`` does with value ``name`` (``value``, from ``origin``) of a ``kind`` target."""
    if kind not in option_types(to):
        return f"its kind is not in {release_title(to)}"
    if name in REMOVED_ATTRS:
        return f"removed; moved to {REMOVED_ATTRS[name]}"
    if modern is None:
        return "no such attribute"
    if origin in ("written", "tag"):
        return "kept" if modern == name else f"renamed {show(modern)}"
    bare = _modern_exports(to).get(kind, {})
    if name == "keys":
        # TVM 0.27 assembles keys as v0.10 - v0.23 did (src/target/target.cc): the given keys,
        # or its canonicaliser's (the Arm ones of src/target/canonicalizer/llvm/), the device,
        # then the kind's default keys when none were given
        if origin == "canonicaliser":
            return "the same keys, from its canonicaliser"
        modern_keys = tuple(bare.get("keys", ()))
        return "the same keys" if modern_keys == default_keys else f"default keys {','.join(modern_keys) or 'none'}"
    if modern not in bare:
        return "left unset"
    if bare[modern] == value:
        return "the same default" if origin == "default" else "the same value, from its canonicaliser"
    if origin == "canonicaliser":
        return "set by its canonicaliser, from the machine"
    return f"default {json.dumps(bare[modern], ensure_ascii=False)}"
