"""A user registry laid on another built-in registry than the one it was written against.

A registry file says what it adds to its ``base`` (``"0.22"`` unless it names another); reading
with every release's kinds (``migrate``) or as another release wrote (``--tvm-version 0.27``)
takes those additions onto that other registry. An extended kind (the base's kind with
attributes added) adds those attributes to the other registry's kind of the same name, which
keeps its own: an extension of v0.22's ``cuda`` must not take back the attributes other
releases had, nor lose the ones they add.
"""

from __future__ import annotations

from dataclasses import replace

from ._registry import Registry

__all__ = ["layered"]


def layered(registry: Registry, onto: Registry, *, removals: bool = True) -> Registry:
    """``onto`` plus what ``registry`` adds to its base (``registry.base``; every kind and tag
    when it has none): its new and redefined kinds as they are, the attributes an extended kind
    adds to ``onto``'s kind of that name, its new and changed tags; less the kinds and tags it
    removes from its base when ``removals``. The result has ``onto``'s version."""
    base = registry.base
    kinds = dict(onto.kinds)
    tags = dict(onto.tags)
    for name, kind in registry.kinds.items():
        old = base.kinds.get(name) if base is not None else None
        if old == kind:
            continue
        added = kind.added_to(old) if old is not None else None
        under = kinds.get(name)
        if added is not None and under is not None:
            kinds[name] = replace(under, attrs={**under.attrs, **added})
        else:
            kinds[name] = kind
    for name, config in registry.tags.items():
        if base is None or base.tags.get(name) != config:
            tags[name] = config
    if removals and base is not None:
        for name in base.kinds:
            if name not in registry.kinds:
                kinds.pop(name, None)
        for name in base.tags:
            if name not in registry.tags:
                tags.pop(name, None)
    return Registry(kinds.values(), tags, onto.version)
