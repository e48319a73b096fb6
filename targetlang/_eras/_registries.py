"""The registries the eras before schemas read with: TVM v0.6's kinds, and the union of the
releases of an era."""

from __future__ import annotations

import functools
from dataclasses import replace

from .._registry import Registry, builtin_registry
from .._schema import KindSchema
from .._versions import FIRST_SCHEMA

__all__ = ["era06_registry", "union_registry"]


_E0_KINDS = (
    "llvm",
    "c",
    "cuda",
    "nvptx",
    "rocm",
    "opencl",
    "metal",
    "vulkan",
    "opengl",
    "sdaccel",
    "aocl",
    "aocl_sw_emu",
    "stackvm",
    "ext_dev",
    "hybrid",
    "hexagon",
)
_OPENGL_DEVICE_TYPE = 11  # kOpenGL in TVM <= v0.6


@functools.cache
def era06_registry() -> Registry:
    # TVM <= v0.6 had no schema: v0.7's first one gives the attribute types of the few options
    # E0 read (only its option table decides what is accepted), and v0.6's opengl is added.
    base = builtin_registry(str(FIRST_SCHEMA))
    opengl = KindSchema.build(
        "opengl", {"system-lib": "bool"}, default_keys=("opengl",), device_type=_OPENGL_DEVICE_TYPE
    )
    kinds = [base.kinds[name] if name != "opengl" else opengl for name in _E0_KINDS]
    return Registry(kinds, {}, "")


@functools.cache
def union_registry(name: str, releases: tuple[str, ...]) -> Registry:
    """What the releases had together: the newest one's kinds and tags, plus whatever the older
    ones had and it dropped (v0.8's cuda.shared_memory_per_block)."""
    registries = [builtin_registry(version) for version in releases]
    if len(registries) == 1:
        return registries[0]
    newest = registries[-1]
    merged = dict(newest.kinds)
    tags = dict(newest.tags)
    for older in registries[:-1]:
        for kind_name, kind in older.kinds.items():
            mine = merged.get(kind_name)
            if mine is None:
                merged[kind_name] = kind
            elif set(kind.attrs) - set(mine.attrs):
                merged[kind_name] = replace(mine, attrs={**kind.attrs, **mine.attrs})
        for tag, config in older.tags.items():
            tags.setdefault(tag, config)
    return Registry(merged.values(), tags, name)
