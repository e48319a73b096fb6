"""What the migration rules work on: the policies, the attributes and kinds TVM removed or renamed,
a :class:`Change` reported, the registries a legacy target is read with, the modern release's
kinds and tags, and :class:`Run`, the options and state of one migration. The rules, and the
level of a target they apply to, are :mod:`._rules`'s."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from .._layering import layered
from .._registry import Registry, builtin_registry
from .._release_schemas import load_data, release_kinds
from .._resolution import Environment
from .._schema import AttrSpec
from .._target import Target
from .._versions import DEFAULT, MODERN, SCHEMA_RELEASES, Version, data_file
from ..errors import pointed

__all__ = [
    "POLICIES",
    "REMOVED_ATTRS",
    "REMOVED_KINDS",
    "RENAMED_ATTRS",
    "Change",
    "Policy",
    "Run",
    "Severity",
    "Span",
    "legacy_registry",
    "modern_names",
    "reading_registry",
]


Policy = Literal["error", "drop", "keep"]


POLICIES: tuple[Policy, ...] = ("error", "drop", "keep")


# Attributes TVM removed, with what replaced them (spec 7.4, 9.2).
REMOVED_ATTRS = {
    "system-lib": "the runtime: relay.backend.Runtime('cpp', {'system-lib': True}), or system_lib=True in "
    "tvm.relax.build",
    "link-params": "the executor: relay.backend.Executor('graph' or 'aot', {'link-params': True})",
    "runtime": "relay.backend.Runtime(...), passed to the build instead of the target",
    "executor": "relay.backend.Executor(...), passed to the build instead of the target",
    "unpacked-api": "an option of relay.backend.Executor('aot', {'unpacked-api': True})",
    "interface-api": "an option of relay.backend.Executor('aot', {'interface-api': ...})",
}


REMOVED_KINDS = {
    "sdaccel": "removed in TVM v0.20 with the SDAccel/Vitis flow; no replacement",
    "aocl": "removed in TVM v0.20 with the Intel FPGA (AOCL) flow; no replacement",
    "aocl_sw_emu": "removed in TVM v0.20 with the Intel FPGA (AOCL) flow; no replacement",
    "stackvm": "removed in TVM v0.20; use llvm or c",
    "hybrid": "removed in TVM v0.22; no replacement",
}


# Attributes a rule renames: what a value's change is reported under when the config has the new name.
RENAMED_ATTRS = {"target": "mtriple", "shared_memory_per_block": "max_shared_memory_per_block", "target_host": "host"}


Severity = Literal["info", "warning", "error"]


Span = tuple[int, int]


@dataclass(frozen=True)
class Change:
    """One migration rule applied: ``rule`` (a key of :data:`RULES`), a message, ``span`` in the
    input text (or ``None``), and ``severity``: ``info``, ``warning`` or ``error``."""

    rule: str
    message: str
    span: Span | None = None
    severity: Severity = "info"

    def describe(self, source: str) -> str:
        """``SEVERITY: RULE: message``, with ``source`` (the migrated text) and a caret under the
        span when there is one."""
        head = f"{self.severity}: {self.rule}: {self.message}"
        if self.span is None:
            return head
        return pointed(head, source, *self.span)

    def to_json(self) -> dict[str, Any]:
        """The change as JSON: ``rule``, ``severity``, ``message``, ``span`` (``[start, end]`` in the
        input text, or ``null``)."""
        span = list(self.span) if self.span is not None else None
        return {"rule": self.rule, "severity": self.severity, "message": self.message, "span": span}


@functools.cache
def legacy_registry() -> Registry:
    """Every kind and attribute any TVM release from v0.7 on knew, so old targets read at all."""
    merged: dict[str, Any] = {}
    # Oldest first, so a later release's declaration of a kind wins; v0.22's last, as parse reads.
    for version in (v for v in SCHEMA_RELEASES if Version.parse(v) <= DEFAULT):
        for kind in release_kinds(version):
            name = kind.name
            if name in merged:
                kind = replace(kind, attrs={**merged[name].attrs, **kind.attrs})
            merged[name] = kind
    return _with_target_option(Registry(merged.values(), builtin_registry().tags, str(DEFAULT)))


def _with_target_option(registry: Registry) -> Registry:
    """TVM <= v0.6's -target, which AutoTVM's log reader (v0.7 - v0.19) still rewrote to -mtriple:
    read as an attribute of its own, at any depth, and renamed by the rules."""
    kinds = dict(registry.kinds)
    for name, kind in kinds.items():
        if "mtriple" in kind.attrs and "target" not in kind.attrs:
            spec = AttrSpec("target", kind.attrs["mtriple"].type)
            kinds[name] = replace(kind, attrs={**kind.attrs, "target": spec})
    return Registry(kinds.values(), registry.tags, registry.version)


@functools.lru_cache(maxsize=8)
def reading_registry(registry: Registry | None) -> Registry:
    """The registry a spec is read with: a built-in registry as it is (one release's own
    schema); else the legacy registry plus what ``registry`` adds to the built-in one it extends
    (its user kinds and tags, which win over any built-in ones of the same name; the attributes
    it adds to a built-in kind, added to the legacy kind, so the kind's removed and renamed
    attributes still read). A registry laid on a release after v0.22 (``--tvm-version
    0.27`` with a file) reads as that release's schema plus what it adds."""
    legacy = legacy_registry()
    if registry is None:
        return legacy
    base = builtin_registry(registry.version) if registry.version in SCHEMA_RELEASES else None
    if base is not None and base == registry:
        return _with_target_option(registry)
    # (a release v0.22 or older is one the legacy registry reads already)
    onto = legacy if base is None or Version.parse(registry.version) <= DEFAULT else _with_target_option(base)
    return layered(registry, onto, removals=False)


@functools.cache
def modern_names(release: str = str(MODERN)) -> tuple[dict[str, frozenset[str]], dict[str, Any]]:
    """The kinds (each with its options) and tags of modern release ``release`` (or named
    distribution: ``"tirx-0.1"``). A tag the distribution registers only when its LLVM has a
    backend (TIRx's Arm, Apple and Jetson tags, its tags file's ``conditional``) is left out: the
    default wheel rejects its name, and its expansion, which both builds accept, is written."""
    kinds = load_data(data_file("kinds", release))["kinds"]
    data = load_data(data_file("tags", release))
    conditional = data.get("conditional", {})
    tags = {name: config for name, config in data["tags"].items() if name not in conditional}
    return {name: frozenset(k["options"]) for name, k in kinds.items()}, tags


@dataclass
class Run:
    """One call of ``migrate``: its options, and the changes reported so far."""

    policy: Policy
    source: str
    changes: list[Change] = field(default_factory=list)
    rewritten: str | None = None  # a text parse read with mkldnn replaced by dnnl
    read_host: Callable[[], Target] | None = None  # the host given separately, read when needed
    compress_tags: bool = False
    env: Environment = field(default_factory=Environment)
    validate: bool = True
    to: str = str(MODERN)  # the modern release written for (a name of MODERN_RELEASES)

    @functools.cached_property
    def kinds(self) -> dict[str, frozenset[str]]:
        return modern_names(self.to)[0]

    @functools.cached_property
    def common(self) -> frozenset[str]:
        """The options every kind has: what an unknown (kept) kind is checked against."""
        return frozenset.intersection(*self.kinds.values())

    def failed(self) -> bool:
        return any(change.severity == "error" for change in self.changes)
