"""How two targets differ, for the tuning dispatchers too (``targetlang diff``)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .._parsing import parse
from .._registry import Registry
from .._resolution import DEFAULT_ENVIRONMENT, Environment
from .._target import Target
from .._versions import Release
from ..errors import show

if TYPE_CHECKING:
    pass
from ._explain import Spec, reading, spec_text

__all__ = ["AttrChange", "Dispatch", "TargetDiff", "diff", "tophub_package"]


@dataclass(frozen=True)
class AttrChange:
    """A value two targets do not share: ``a`` and ``b`` (JSON data; ``None`` where a target has
    none)."""

    name: str
    a: Any
    b: Any

    def to_json(self) -> dict[str, Any]:
        """The change as JSON data."""
        return {"name": self.name, "a": self.a, "b": self.b}


@dataclass(frozen=True)
class Dispatch:
    """Whether a tuning system's dispatch treats two targets as one (``same``), and why."""

    same: bool
    reasons: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        """The verdict as JSON data."""
        return {"same": self.same, "reasons": list(self.reasons)}


@dataclass(frozen=True)
class TargetDiff:
    """How two resolved targets differ (:func:`diff`): each value they do not share, in the order
    kind, tag, keys, attributes, host (``changes``; of them, those only ``b`` has are ``added``,
    those only ``a`` has ``removed``, those both have unequal ``changed``), and the verdicts of
    AutoTVM's dispatch and meta-schedule's database. ``version`` is the release that read them."""

    a: str
    b: str
    version: str
    changes: tuple[AttrChange, ...]
    autotvm: Dispatch
    meta_schedule: Dispatch

    @property
    def added(self) -> tuple[AttrChange, ...]:
        """The values only ``b`` has."""
        return tuple(change for change in self.changes if change.a is None)

    @property
    def removed(self) -> tuple[AttrChange, ...]:
        """The values only ``a`` has."""
        return tuple(change for change in self.changes if change.b is None)

    @property
    def changed(self) -> tuple[AttrChange, ...]:
        """The values both have, unequal."""
        return tuple(change for change in self.changes if change.a is not None and change.b is not None)

    @property
    def equal(self) -> bool:
        """The targets mean the same, once resolved."""
        return not self.changes

    @property
    def same_autotvm_dispatch(self) -> bool:
        """AutoTVM picks the same records for both (see :func:`diff`)."""
        return self.autotvm.same

    @property
    def same_meta_schedule_dispatch(self) -> bool:
        """Meta-schedule's database hands the same records to both (see :func:`diff`)."""
        return self.meta_schedule.same

    @property
    def reasons(self) -> tuple[str, ...]:
        """The reasons of both verdicts, AutoTVM's first."""
        return (*self.autotvm.reasons, *self.meta_schedule.reasons)

    def to_json(self) -> dict[str, Any]:
        """The difference as JSON data."""
        return {
            "a": self.a,
            "b": self.b,
            "version": self.version,
            "equal": self.equal,
            "changes": [change.to_json() for change in self.changes],
            "autotvm": self.autotvm.to_json(),
            "meta_schedule": self.meta_schedule.to_json(),
        }


# TopHub's packages and the aliases it reads names through, as in TVM v0.19, the last release
# with AutoTVM (python/tvm/autotvm/tophub.py: PACKAGE_VERSION, _alias and context()).
_TOPHUB_PACKAGES = frozenset(
    {"arm_cpu", "llvm", "cuda", "rocm", "opencl", "mali", "intel_graphics", "vta", "amd_apu", "adreno"}
)
_TOPHUB_ALIASES = {"vtacpu": "vta", "webgpu": "opencl", "vulkan": "opencl", "nvptx": "cuda"}


def tophub_package(target: Target) -> str | None:
    """The TopHub package ``autotvm.tophub.context(target)`` loads for a resolved target (TVM
    v0.19): the first of its ``device``, its keys in order and its kind that, once aliased
    (``nvptx`` is ``cuda``, ``vulkan`` and ``webgpu`` are ``opencl``, ``vtacpu`` is ``vta``), names
    a package; ``None`` for none."""
    device = target.attrs.get("device")
    names = [*([device] if isinstance(device, str) and device else []), *target.keys, target.kind]
    for name in names:
        package = _TOPHUB_ALIASES.get(name, name)
        if package in _TOPHUB_PACKAGES:
            return package
    return None


def _shown_value(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _values(target: Target) -> dict[str, Any]:
    """A resolved target's values by name, as JSON data, in the order kind, tag, keys, attributes, host."""
    exported = target.to_json()
    values = {"kind": target.kind, "tag": exported.get("tag"), "keys": exported.get("keys")}
    values.update((name, value) for name, value in exported.items() if name not in ("kind", "tag", "keys", "host"))
    values["host"] = exported.get("host")
    return {name: value for name, value in values.items() if value is not None}


def _same_value(name: str, a: Any, b: Any, ta: Target, tb: Target) -> bool:
    """Equal values; an unordered array (``libs``) compares as a multiset."""
    if a == b:
        return True
    spec = ta.schema.attrs.get(name) or tb.schema.attrs.get(name)
    if spec is None or spec.ordered or not isinstance(a, list) or not isinstance(b, list):
        return False
    return sorted(map(_shown_value, a)) == sorted(map(_shown_value, b))


def diff(
    a: Spec,
    b: Spec,
    *,
    tvm_version: str | Release | None = None,
    registry: Registry | None = None,
    env: Environment | None = None,
) -> TargetDiff:
    """The semantic difference of two targets, read as :func:`explain` reads a spec and compared
    once resolved (so ``cuda`` and ``cuda -arch=sm_50`` are equal on a machine without GPU), and
    whether the tuning systems' dispatch tells them apart.

    AutoTVM (TVM v0.7 - v0.19) treats them as one when ``ApplyHistoryBest`` looks the same records
    up for both and TopHub loads the same package for both (python/tvm/autotvm/task/dispatcher.py,
    ``ApplyHistoryBest._query_inside``: by ``(model, workload)`` first, then by ``(key,
    workload)`` for each of the target's keys in order; python/tvm/autotvm/tophub.py, ``context``:
    see :func:`tophub_package`). So their ``model`` (``"unknown"`` when unset), their keys in
    order and their TopHub package must be equal; the kind and ``device`` count through the keys
    and the package only.

    Meta-schedule's database never tells two targets apart: ``QueryTuningRecord(mod, target,
    workload_name)`` returns the best record of the workload (the IRModule's structural hash) and
    does not read ``target`` (``DatabaseNode::QueryTuningRecord`` in
    src/meta_schedule/database/database.cc, TVM v0.10 - v0.23, src/s_tir/meta_schedule/ from
    v0.24; v0.9's ``ApplyHistoryBest`` in src/meta_schedule/apply_history_best.cc likewise). The
    target is stored with each record and not compared: ``same_meta_schedule_dispatch`` is
    always true, and its reasons say what the records ignore.
    """
    from ..logs.match import Query

    env = env or DEFAULT_ENVIRONMENT
    reader, era, version = reading(tvm_version, registry)
    texts = (spec_text(a), spec_text(b))
    ta, tb = (parse(text, registry=reader, era=era).resolve(env) for text in texts)
    va, vb = _values(ta), _values(tb)
    names = [*va, *(name for name in vb if name not in va)]
    changes = tuple(
        AttrChange(name, va.get(name), vb.get(name))
        for name in names
        if name not in va or name not in vb or not _same_value(name, va[name], vb[name], ta, tb)
    )
    differing = [change.name for change in changes]

    qa, qb = Query.of(ta), Query.of(tb)
    pa, pb = tophub_package(ta), tophub_package(tb)
    reasons = []
    if qa.model != qb.model:
        reasons.append(
            f"model {show(qa.model)} against {show(qb.model)}: ApplyHistoryBest looks records up by model first"
        )
    if qa.keys != qb.keys:
        reasons.append(
            f"keys {','.join(qa.keys) or 'none'} against {','.join(qb.keys) or 'none'}: ApplyHistoryBest then"
            " tries each key in order"
        )
    if pa != pb:
        reasons.append(
            f"TopHub package {show(pa) if pa else 'none'} against {show(pb) if pb else 'none'}: TopHub loads the"
            " package of the first of the device, the keys and the kind that has one"
        )
    if not reasons:
        package = show(pa) if pa else "none"
        seen = f"model {show(qa.model)}, keys {','.join(qa.keys) or 'none'} and TopHub package {package} for both"
        unseen = [name for name in differing if name not in ("model", "keys", "kind", "device")]
        reasons.append(seen + (f"; it does not look at {', '.join(unseen)}" if unseen else ""))
    autotvm = Dispatch(qa.model == qb.model and qa.keys == qb.keys and pa == pb, tuple(reasons))

    # Meta-schedule's DatabaseNode::QueryTuningRecord (src/meta_schedule/database/database.cc,
    # v0.10 - v0.23; src/s_tir/meta_schedule/database/database.cc from v0.24) is
    # GetTopK(CommitWorkload(mod), 1): the target it is given is never read.
    schedule = [
        "its database looks records up by workload alone: the target is stored with each record and never compared"
    ]
    if differing:
        schedule.append(
            f"records tuned for either are applied to the other, though they differ in {', '.join(differing)}"
        )
    return TargetDiff(texts[0], texts[1], version, changes, autotvm, Dispatch(True, tuple(schedule)))
