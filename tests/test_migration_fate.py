"""What migration answers of one kind or attribute (``targetlang.migration.kind_fate``,
``modern_attribute``, ``attribute_fate``): the facts ``targetlang explain`` prints beside each
value. The removals and renamings are TVM's (docs/migration.md's tables)."""

from __future__ import annotations

from typing import Any

import pytest

from targetlang.migration import Origin, attribute_fate, kind_fate, modern_attribute

KINDS = [
    ("llvm", "0.27", "kept"),
    ("webgpu", "0.24", "kept"),
    ("hybrid", "0.27", "removed in TVM v0.22; no replacement"),
    ("sdaccel", "0.25", "removed in TVM v0.20 with the SDAccel/Vitis flow; no replacement"),
    ("ethos-u", "0.27", "a BYOC (external codegen) kind of the Relay era; partition with relax BYOC instead"),
    ("my-kind", "0.24", "unknown to TVM 0.24 (a kind of a registry file)"),
]


@pytest.mark.parametrize(("kind", "to", "fate"), KINDS)
def test_kind_fate(kind: str, to: str, fate: str) -> None:
    assert kind_fate(kind, to) == fate


ATTRIBUTES = [
    ("llvm", "mcpu", "mcpu"),
    ("cuda", "max_num_threads", "max_num_threads"),
    # renamed by TVM: the old name is read as the new one
    ("cuda", "shared_memory_per_block", "max_shared_memory_per_block"),
    ("llvm", "target", "mtriple"),
    ("cuda", "target_host", "host"),
    # removed, or renamed to a name the kind does not have
    ("llvm", "system-lib", None),
    ("llvm", "link-params", None),
    ("cuda", "target", None),
    ("hybrid", "x", None),
]


@pytest.mark.parametrize(("kind", "name", "modern"), ATTRIBUTES)
def test_modern_attribute(kind: str, name: str, modern: str | None) -> None:
    assert modern_attribute(kind, name, "0.27") == modern


FATES: list[tuple[str, str, Any, Origin, str | None, tuple[str, ...], str]] = [
    ("llvm", "mcpu", "skylake", "written", "mcpu", ("cpu",), "kept"),
    (
        "cuda",
        "shared_memory_per_block",
        49152,
        "written",
        "max_shared_memory_per_block",
        ("cuda", "gpu"),
        "renamed 'max_shared_memory_per_block'",
    ),
    (
        "llvm",
        "system-lib",
        True,
        "written",
        None,
        ("cpu",),
        "removed; moved to the runtime: relay.backend.Runtime('cpp', {'system-lib': True}), or system_lib=True in "
        "tvm.relax.build",
    ),
    ("hybrid", "x", 1, "written", None, (), "its kind is not in TVM 0.27"),
    ("cuda", "max_num_threads", 1024, "default", "max_num_threads", ("cuda", "gpu"), "the same default"),
    ("cuda", "keys", ("cuda", "gpu"), "default", "keys", ("cuda", "gpu"), "the same keys"),
    (
        "llvm",
        "mtriple",
        "x86_64-linux-gnu",
        "canonicaliser",
        "mtriple",
        ("cpu",),
        "set by its canonicaliser, from the machine",
    ),
]


@pytest.mark.parametrize(("kind", "name", "value", "origin", "modern", "default_keys", "fate"), FATES)
def test_attribute_fate(
    kind: str, name: str, value: Any, origin: Origin, modern: str | None, default_keys: tuple[str, ...], fate: str
) -> None:
    assert attribute_fate(kind, name, value, origin, modern, default_keys, "0.27") == fate
