"""Migrating legacy targets to the modern JSON form, with every change explained.

TVM >= 0.24 reads only JSON/dict targets and rejects the attributes and kinds it removed over the
years. :func:`migrate` reads a target as old TVM did (any era, removed attributes included),
applies the migration rules, and returns the modern JSON with one :class:`Change` per rule
applied: a stable rule id, a message, and where the change is in the input.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from .eras import DEFAULT_ERA
from .errors import TargetError, pointed, show
from .lexical import MKLDNN
from .parsing import parse
from .registry import Registry, builtin_registry
from .resolution import Environment
from .schema import AttrSpec
from .target import Target
from .versions import DEFAULT, MODERN, SCHEMA_RELEASES, Version

__all__ = ["POLICIES", "RULES", "Change", "Migration", "equal_tags", "migrate"]

Policy = Literal["error", "drop", "keep"]
POLICIES: tuple[Policy, ...] = ("error", "drop", "keep")

# Attributes TVM removed, with what replaced them (spec 7.4, 9.2).
_REMOVED_ATTRS = {
    "system-lib": "the runtime: relay.backend.Runtime('cpp', {'system-lib': True}), or system_lib=True in "
    "tvm.relax.build",
    "link-params": "the executor: relay.backend.Executor('graph' or 'aot', {'link-params': True})",
    "runtime": "relay.backend.Runtime(...), passed to the build instead of the target",
    "executor": "relay.backend.Executor(...), passed to the build instead of the target",
    "unpacked-api": "an option of relay.backend.Executor('aot', {'unpacked-api': True})",
    "interface-api": "an option of relay.backend.Executor('aot', {'interface-api': ...})",
}
_REMOVED_KINDS = {
    "sdaccel": "removed in TVM v0.20 with the SDAccel/Vitis flow; no replacement",
    "aocl": "removed in TVM v0.20 with the Intel FPGA (AOCL) flow; no replacement",
    "aocl_sw_emu": "removed in TVM v0.20 with the Intel FPGA (AOCL) flow; no replacement",
    "stackvm": "removed in TVM v0.20; use llvm or c",
    "hybrid": "removed in TVM v0.22; no replacement",
}

RULES: dict[str, str] = {
    "target-to-mtriple": "-target= is the pre-v0.7 spelling of -mtriple= (renamed as an attribute)",
    "era-keys": f"TVM v0.6 - v0.9 appended the default keys to given keys; TVM {MODERN} does not",
    "mkldnn-to-dnnl": "the library mkldnn is called dnnl since TVM v0.10",
    "shared-memory-renamed": "cuda's shared_memory_per_block (v0.8) is max_shared_memory_per_block",
    "removed-attribute": "an attribute TVM removed; where its setting went instead",
    "removed-kind": "a kind TVM removed",
    "byoc-kind": "a BYOC (external codegen) kind of the Relay era; partition with relax BYOC instead",
    "unknown-in-0.27": f"a kind or attribute TVM {MODERN} does not know",
    "from-device": "from_device queries a device when the target is built; kept",
    "target-host-to-host": "composite's target_host (v0.7) is the host",
    "separate-host": "a host given separately (target_host=, auto_scheduler logs) folded into host",
    "tag-compressed": f"the configuration equals a registered TVM {MODERN} tag",
}


@dataclass(frozen=True)
class Change:
    """One migration rule applied: ``rule`` (a key of :data:`RULES`), a message, ``span`` in the
    input text (or ``None``), and ``severity``: ``info``, ``warning`` or ``error``."""

    rule: str
    message: str
    span: tuple[int, int] | None = None
    severity: Literal["info", "warning", "error"] = "info"

    def describe(self, source: str) -> str:
        """``SEVERITY: RULE: message``, with ``source`` (the migrated text) and a caret under the
        span when there is one."""
        head = f"{self.severity}: {self.rule}: {self.message}"
        if self.span is None:
            return head
        return pointed(head, source, *self.span)


@dataclass(frozen=True)
class Migration:
    """The result of :func:`migrate`.

    ``json`` is a dict TVM 0.27 accepts with ``Target(d)`` and that means what the input meant,
    or ``None`` when a change is an error (``ok`` is false); ``target`` is it as a
    :class:`Target`; ``changes`` lists every rule applied.
    """

    source: str
    target: Target | None
    json: dict[str, Any] | None
    changes: tuple[Change, ...] = field(default=())

    @property
    def ok(self) -> bool:
        """No change is an error."""
        return all(change.severity != "error" for change in self.changes)


@functools.cache
def _legacy_registry() -> Registry:
    """Every kind and attribute any TVM release from v0.7 on knew, so old targets read at all."""
    merged: dict[str, Any] = {}
    # Oldest first, so a later release's declaration of a kind wins; v0.22's last, as parse reads.
    for version in (v for v in SCHEMA_RELEASES if Version.parse(v) <= DEFAULT):
        for name, kind in builtin_registry(version).kinds.items():
            if name in merged:
                kind = type(kind)(**{**kind.__dict__, "attrs": {**merged[name].attrs, **kind.attrs}})
            merged[name] = kind
    return _with_target_option(Registry(merged.values(), builtin_registry().tags, str(DEFAULT)))


def _with_target_option(registry: Registry) -> Registry:
    """TVM <= v0.6's -target, which AutoTVM's log reader (v0.7 - v0.19) still rewrote to -mtriple:
    read as an attribute of its own, at any depth, and renamed by the rules."""
    kinds = dict(registry.kinds)
    for name, kind in kinds.items():
        if "mtriple" in kind.attrs and "target" not in kind.attrs:
            spec = AttrSpec("target", kind.attrs["mtriple"].type)
            kinds[name] = type(kind)(**{**kind.__dict__, "attrs": {**kind.attrs, "target": spec}})
    return Registry(kinds.values(), registry.tags, registry.version)


@functools.lru_cache(maxsize=8)
def _reading_registry(registry: Registry | None) -> Registry:
    """The registry a spec is read with: a built-in registry as it is (one release's own
    schema); else the legacy registry plus what ``registry`` adds to the built-in one it extends
    (its user kinds and tags, which win over any built-in ones of the same name)."""
    legacy = _legacy_registry()
    if registry is None:
        return legacy
    base = builtin_registry(registry.version) if registry.version in SCHEMA_RELEASES else None
    if base is not None and base == registry:
        return _with_target_option(registry)
    kinds = {**legacy.kinds}
    for name, kind in registry.kinds.items():
        if base is None or base.kinds.get(name) != kind:
            kinds[name] = kind
    tags = {name: config for name, config in registry.tags.items() if base is None or base.tags.get(name) != config}
    return Registry(kinds.values(), {**legacy.tags, **tags}, legacy.version)


@functools.cache
def _modern() -> tuple[dict[str, frozenset[str]], dict[str, Any]]:
    data = Path(__file__).parent / "data"
    kinds = json.loads((data / f"kinds-v{MODERN}.json").read_text(encoding="utf-8"))["kinds"]
    tags = json.loads((data / f"tags-v{MODERN}.json").read_text(encoding="utf-8"))["tags"]
    return {name: frozenset(k["options"]) for name, k in kinds.items()}, tags


def _target_key(text: str, option: tuple[int, int]) -> tuple[int, int]:
    """Where the key ``target`` of the option at ``option`` in ``text`` stands, past its dashes."""
    written = text[option[0] : option[1]]
    start = option[0] + len(written) - len(written.lstrip("-"))
    return (start, start + len("target"))


def _report_mkldnn_rewrite(source: str, target: Target, changes: list[Change]) -> None:
    """``parse`` read ``source`` as TVM's ``Target()`` did: every ``mkldnn`` became ``dnnl``
    because the text holds ``-libs=mkldnn``; TVM >= 0.24 does not, so the JSON says ``dnnl``."""
    span = target.source_span("libs")
    in_libs = source[span[0] : span[1]].count("mkldnn") if span is not None else 0
    others = source.count("mkldnn") - in_libs
    message = "libs: mkldnn renamed to dnnl"
    if others:
        message += (
            f", and {others} more 'mkldnn' in the text, as TVM's Target() replaced every one of a text"
            " holding -libs=mkldnn"
        )
    changes.append(Change("mkldnn-to-dnnl", message, span))


def _report_e0_target_option(target: Target, changes: list[Change]) -> None:
    """TVM <= v0.6 spelled the triple ``-target``; its reader gives ``mtriple`` already."""
    span = target.source_span("mtriple")
    if span is None:
        return
    if str(target)[span[0] : span[1]].lstrip("-").startswith("target"):
        changes.append(Change("target-to-mtriple", "-target renamed to -mtriple", _target_key(str(target), span)))


def _span(target: Target, name: str) -> tuple[int, int] | None:
    text = str(target)
    if name == "kind" and text.lstrip(" ").startswith(target.kind):
        start = len(text) - len(text.lstrip(" "))
        return (start, start + len(target.kind))
    return target.source_span(name)


def _era_keys(target: Target) -> list[str] | None:
    """The keys an older TVM gave a target with ``-keys``: TVM v0.6 - v0.9 appended the device
    and the kind's default keys to them (v0.10 on, given keys replace the defaults)."""
    if target.era not in ("0.6", "0.7", "0.8") or target.declared_keys is None:
        return None
    device = target.attrs.get("device")
    keys = [*target.declared_keys, *([device] if isinstance(device, str) else []), *target.schema.default_keys]
    return list(dict.fromkeys(keys))


class _Rules:
    def __init__(self, policy: Policy, modern_kinds: dict[str, frozenset[str]]) -> None:
        self.policy = policy
        self.kinds = modern_kinds
        # the options every kind has: what an unknown (kept) kind is checked against
        self.common = frozenset.intersection(*modern_kinds.values())
        self.changes: list[Change] = []
        self.rewritten: str | None = None

    def config(self, target: Target, where: Any, top: bool) -> dict[str, Any] | None:
        """The modern config of ``target`` (recursively), or ``None`` when it cannot migrate."""

        def span(name: str) -> tuple[int, int] | None:
            return where(target, name) if top else None

        config: dict[str, Any] = target.to_json()
        ok = True
        for name, spec in target.schema.attrs.items():
            value = target.host if name == "host" else target.attrs.get(name)
            if value is None or not spec.type.holds_targets:
                continue
            if isinstance(value, Target):
                sub = self.config(value, where, False)
                ok = ok and sub is not None
                config[name] = sub
            else:  # a None item is a null target, kept as it is
                subs = [None if v is None else self.config(v, where, False) for v in value]
                ok = ok and all(s is not None for s, v in zip(subs, value, strict=True) if v is not None)
                config[name] = subs
        kind = target.kind
        if kind in _REMOVED_KINDS or kind not in self.kinds:
            byoc = kind not in _REMOVED_KINDS and kind in _legacy_registry().kinds
            rule = "byoc-kind" if byoc else ("removed-kind" if kind in _REMOVED_KINDS else "unknown-in-0.27")
            keep = self.policy == "keep"
            message = f"kind {show(kind)}: {_REMOVED_KINDS.get(kind, RULES[rule])}"
            self.changes.append(Change(rule, message, span("kind"), "warning" if keep else "error"))
            if not keep:
                return None
        if "target" in config:
            option = span("target")
            if option is not None:  # the caret goes under the key
                option = _target_key(str(target), option)
            if "mtriple" in config:
                del config["target"]
                message = "both -target and -mtriple are given: -target is the old spelling of -mtriple"
                self.changes.append(Change("target-to-mtriple", message, option, "error"))
                ok = False
            else:
                config = {("mtriple" if k == "target" else k): v for k, v in config.items()}
                self.changes.append(Change("target-to-mtriple", "-target renamed to -mtriple", option))
        keys = _era_keys(target)
        if keys is not None and keys != config["keys"]:
            config["keys"] = keys
            message = f"keys written out in full as TVM v{target.era} made them: {','.join(keys)}"
            self.changes.append(Change("era-keys", message, span("keys")))
        if "mkldnn" in config.get("libs", ()):
            config["libs"] = ["dnnl" if lib == "mkldnn" else lib for lib in config["libs"]]
            self.changes.append(Change("mkldnn-to-dnnl", "libs: mkldnn renamed to dnnl", span("libs")))
        elif top and self.rewritten is not None:
            _report_mkldnn_rewrite(self.rewritten, target, self.changes)
        if kind == "cuda" and "shared_memory_per_block" in config:
            config.setdefault("max_shared_memory_per_block", config.pop("shared_memory_per_block"))
            message = RULES["shared-memory-renamed"]
            self.changes.append(Change("shared-memory-renamed", message, span("shared_memory_per_block")))
        if "target_host" in config:
            config.setdefault("host", config.pop("target_host"))
            self.changes.append(Change("target-host-to-host", RULES["target-host-to-host"], span("target_host")))
        if "from_device" in config:
            message = "from_device queries the device when TVM builds the target; kept as is"
            self.changes.append(Change("from-device", message, span("from_device"), "warning"))
        for name in list(config):
            if name in ("kind", "tag", "keys", "host") or name in self.kinds.get(kind, self.common):
                continue
            if kind not in _legacy_registry().kinds and name in target.schema.attrs:
                continue  # a user kind's own attribute (its executor too): the kind is reported
            replaced = _REMOVED_ATTRS.get(name)
            rule = "removed-attribute" if replaced else "unknown-in-0.27"
            what = f"moved to {replaced}" if replaced else f"TVM {MODERN} does not know it"
            severity: Literal["warning", "error"] = "warning"
            if self.policy == "drop":
                del config[name]
                message = f"attribute {show(name)} dropped: {what}"
            elif self.policy == "keep":
                message = f"attribute {show(name)} kept though {what} (TVM {MODERN} rejects it)"
            else:
                message, severity = f"attribute {show(name)} cannot migrate: {what}", "error"
            self.changes.append(Change(rule, message, span(name), severity))
        return config if ok else None


def _tag_config(tag: Mapping[str, Any]) -> dict[str, Any]:
    """A 0.27 tag's configuration as it compares with a resolved target's JSON: without the
    ``feature.*`` entries TVM computes and the empty ``tag``."""
    return {k: v for k, v in tag.items() if k != "tag" and not k.startswith("feature.")}


def equal_tags(config: Mapping[str, Any], env: Environment | None = None) -> tuple[str, ...]:
    """The TVM 0.27 tags whose expansion equals ``config`` (a modern config) exactly, once both
    are resolved; none when ``config`` does not read."""
    try:
        resolved = parse(dict(config)).resolve(env or Environment()).to_json()
    except TargetError:
        return ()
    resolved.pop("tag", None)
    return tuple(name for name, tag in _modern()[1].items() if _tag_config(tag) == resolved)


def _compress(config: dict[str, Any], changes: list[Change], env: Environment, named: str = "") -> dict[str, Any]:
    """``{"tag": name}`` (plus overrides) when the resolved config equals a 0.27 tag's.

    Many products share one config (a Jetson Nano is a Tegra X1 to TVM), so the tag must name the
    product the input does: the tag the input names (``named``) if it still fits; otherwise only
    a tag whose own ``model`` is the input's, or whose name, without its vendor, is the input's
    ``model`` or ``device``, or ends with ``-`` and it (``tesla-t4`` for ``t4``). No such tag, no
    compression.
    """
    _, tags = _modern()
    try:
        resolved = parse(config).resolve(env).to_json()
    except TargetError:
        return config
    mine = {k: v for k, v in resolved.items() if k != "tag"}
    products = {v for k, v in mine.items() if k in ("model", "device") and isinstance(v, str) and v}
    best: tuple[int, str, dict[str, Any]] | None = None
    for name, tag in tags.items():
        theirs = _tag_config(tag)
        short = name.rsplit("/", 1)[-1]
        about = (
            name == named
            or any(short == p or short.endswith("-" + p) for p in products)
            or ("model" in theirs and theirs["model"] == mine.get("model"))  # the tag's own model
        )
        if not about:
            continue
        if theirs.get("kind") != mine.get("kind") or set(theirs) - set(mine) or "host" in theirs:
            continue
        overrides = {k: v for k, v in mine.items() if theirs.get(k) != v}
        if len(overrides) <= 2 and (best is None or len(overrides) < best[0]):
            best = (len(overrides), name, overrides)
    if best is None:
        return config
    _, name, overrides = best
    compressed = {"tag": name, **overrides}
    expanded = {**_tag_config(tags[name]), **overrides}
    if expanded != mine:
        return config
    note = f"equals tag {show(name)}" + (f" with {', '.join(map(show, overrides))} overridden" if overrides else "")
    changes.append(Change("tag-compressed", note))
    return compressed


def migrate(
    spec: str | Mapping[str, Any] | Target,
    *,
    to: str = str(MODERN),
    era: str | None = None,
    policy: Policy = "error",
    host: str | Mapping[str, Any] | Target | None = None,
    compress_tags: bool = False,
    env: Environment | None = None,
    registry: Registry | None = None,
) -> Migration:
    """Migrate a target written for an older TVM to the modern JSON form of TVM ``to``.

    ``spec`` is read as TVM read it (``era`` for strings printed by TVM v0.6 - v0.9), with every
    attribute and kind any release had. Removed attributes (``system-lib``, ``link-params``,
    ``runtime``, ...) follow ``policy``: ``"error"`` (the default: reported, no JSON),
    ``"drop"`` (removed with a warning) or ``"keep"`` (kept with a warning; TVM 0.27 will reject
    the JSON). ``host`` is a host given separately, folded into the target's host.
    ``compress_tags`` writes ``{"tag": ...}`` (plus overrides) when the configuration equals a
    registered 0.27 tag's, checked by expanding it again. Raises :class:`TargetError` only when
    the input cannot be read at all. ``registry`` adds user kinds and tags (a
    :class:`Registry` built on a built-in one): TVM 0.27 knows no user kind, so a target of one
    migrates only under ``policy="keep"``, with a warning.
    """
    if to != str(MODERN):
        raise ValueError(f"targetlang migrates to TVM {MODERN}'s form only")
    if policy not in POLICIES:
        raise ValueError(f"policy must be one of {', '.join(POLICIES)}")
    changes: list[Change] = []
    rewritten: str | None = None  # a text parse read with mkldnn replaced by dnnl
    reader = _reading_registry(registry)
    if isinstance(spec, str):
        source = spec
        target = parse(spec, registry=reader, era=era)
        if era == "0.6":
            _report_e0_target_option(target, changes)
        if era in (None, DEFAULT_ERA) and MKLDNN in spec:
            rewritten = spec
    else:
        # read first: a mapping json.dumps cannot write (a key that is not a string, a value of
        # no JSON type) is the reader's error, with its class, not json's
        target = spec if isinstance(spec, Target) else parse(spec, registry=reader)
        source = json.dumps(target.to_json())
    rules = _Rules(policy, _modern()[0])
    rules.changes = changes
    rules.rewritten = rewritten
    config = rules.config(target, _span, True)
    if config is not None and host is not None:
        if isinstance(host, Target):
            host_target = host
        else:  # a host string was printed by the same TVM as the target: read it in the same era
            host_target = parse(host, registry=reader, era=era if isinstance(host, str) else None)
        host_config = rules.config(host_target, lambda t, name: None, False)
        if host_config is None:
            config = None
        else:
            if "host" in config and config["host"] != host_config:
                message = "the separate host replaces the target's own host"
                changes.append(Change("separate-host", message, None, "warning"))
            else:
                changes.append(Change("separate-host", RULES["separate-host"]))
            config["host"] = host_config
    if config is None or not all(c.severity != "error" for c in changes):
        return Migration(source, None, None, tuple(changes))
    if compress_tags:
        # the tag the input names: its whole text, as TVM read a tag, or its own tag field
        named = source if source in _modern()[1] else target.tag
        config = _compress(config, changes, env or Environment(), named)
    try:
        modern: Target | None = parse(config, registry=registry)
    except TargetError:
        modern = None  # policy "keep" kept what the modern registry rejects
    return Migration(source, modern, config, tuple(changes))
