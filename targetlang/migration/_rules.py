"""The migration rules: one :class:`Rule` object per rule id, applied in order to each target.

A rule's ``apply(level, config)`` reads the target being migrated (``level.target``, the input or
a target nested in it) and edits ``config``, its modern JSON, in place, reporting each change with
``level.report``. :func:`convert` migrates the targets nested in a config first, then runs every
rule on it, so the recursion over hosts and devices is in one place. The rule table of
docs/migration.md is :func:`docs_table`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .._resolution import feature_name
from .._target import Target, locate
from .._versions import MODERN, release_title
from ..errors import show
from ._checks import rejections
from ._model import (
    REMOVED_ATTRS,
    REMOVED_KINDS,
    RENAMED_ATTRS,
    Change,
    Run,
    Severity,
    Span,
    legacy_registry,
)
from ._tag_compression import equal_tags, tag_compressed
from ._written import misread

__all__ = [
    "RULES",
    "RULE_ALIASES",
    "Level",
    "Rule",
    "convert",
    "docs_table",
    "equal_tags",
    "legacy_kind",
    "rule_id",
]


# ------------------------------------------------------------------------------ the model


@dataclass
class Level:
    """One target being migrated: the input (``top``) or a target nested in it at ``path``
    (``host``, ``devices[1]``, ``host.host``). ``written`` is the mapping it was given as (for a
    dict input), if any. A rule sets ``ok`` false when the target cannot migrate, and ``stop``
    when no later rule is to run on it."""

    run: Run
    target: Target
    top: bool
    path: str = ""
    written: Mapping[str, Any] | None = None
    ok: bool = True
    stop: bool = False

    def span(self, name: str) -> Span | None:
        """Where attribute ``name`` (its key and value) stands in the input, at the top only."""
        if not self.top:
            return None
        target = self.target
        text = str(target)
        if name == "kind" and text.lstrip(" ").startswith(target.kind):
            start = len(text) - len(text.lstrip(" "))
            return (start, start + len(target.kind))
        return target.source_span(name)

    def value_span(self, name: str) -> Span | None:
        """Where the value of attribute ``name`` stands in the input (its option, when empty)."""
        span = self.span(name)
        if span is None:
            return None
        _, start, end = locate(self.target, name)
        return (start, end) if end > start else span

    def where(self) -> str:
        """``in host: `` for a nested target, nothing for the input."""
        return f"in {self.path}: " if self.path else ""

    def report(self, rule: str, message: str, span: Span | None = None, severity: Severity = "info") -> None:
        self.run.changes.append(Change(rule, message, span, severity))

    def convert(self, target: Target, name: str, written: Any = None) -> dict[str, Any] | None:
        """The modern config of a target nested in this one as ``name``."""
        path = f"{self.path}.{name}" if self.path else name
        return convert(self.run, target, False, path, written if isinstance(written, Mapping) else None)


def convert(
    run: Run, target: Target, top: bool = True, path: str = "", written: Mapping[str, Any] | None = None
) -> dict[str, Any] | None:
    """The modern config of ``target``, its nested targets migrated first, then every rule of
    :data:`RULES` applied in order; ``None`` when it cannot migrate."""
    level = Level(run, target, top, path, written)
    config: dict[str, Any] = target.to_json()
    for name, spec in target.schema.attrs.items():
        value = target.host if name == "host" else target.attrs.get(name)
        if value is None or not spec.type.holds_targets:
            continue
        given = written.get(name) if written is not None else None
        if isinstance(value, Target):
            sub = level.convert(value, name, given)
            level.ok = level.ok and sub is not None
            config[name] = sub
        else:  # a None item is a null target, kept as it is
            items = given if isinstance(given, list | tuple) and len(given) == len(value) else [None] * len(value)
            subs = [
                None if v is None else level.convert(v, f"{name}[{i}]", w)
                for i, (v, w) in enumerate(zip(value, items, strict=True))
            ]
            level.ok = level.ok and all(s is not None for s, v in zip(subs, value, strict=True) if v is not None)
            config[name] = subs
    for rule in RULES.values():
        rule.apply(level, config)
        if level.stop:
            return None
    return config if level.ok else None


@dataclass(frozen=True)
class Rule:
    """One migration rule: a stable ``id`` (what a :class:`Change` names), a one-line
    ``summary``, ``apply(level, config)`` (see the module), and ``details``: what the rule does,
    the row of the rule table in docs/migration.md (Markdown)."""

    id: str
    summary: str
    apply: Callable[[Level, dict[str, Any]], None]
    details: str


# ------------------------------------------------------------------------------ the rules


def _kind_gone(level: Level, rule: str, what: str) -> None:
    """A kind TVM 0.27 does not have: an error (the target cannot migrate), a warning under
    policy ``keep``."""
    keep = level.run.policy == "keep"
    level.report(rule, f"kind {show(level.target.kind)}: {what}", level.span("kind"), "warning" if keep else "error")
    if not keep:
        level.ok, level.stop = False, True


def _removed_kind(level: Level, config: dict[str, Any]) -> None:
    what = REMOVED_KINDS.get(level.target.kind)
    if what is not None:
        _kind_gone(level, "removed-kind", what)


def legacy_kind(kind: str) -> bool:
    """Whether some release that read legacy strings had ``kind`` (not a kind only a modern one
    added, such as ``trn``, which a release written for may yet lack)."""
    found = legacy_registry().kinds.get(kind)
    return found is not None and not found.modern_only


def _byoc_kind(level: Level, config: dict[str, Any]) -> None:
    kind = level.target.kind
    if kind not in REMOVED_KINDS and kind not in level.run.kinds and legacy_kind(kind):
        _kind_gone(level, "byoc-kind", RULES["byoc-kind"].summary)


def _target_key(text: str, option: Span) -> Span:
    """Where the key ``target`` of the option at ``option`` in ``text`` stands, past its dashes."""
    written = text[option[0] : option[1]]
    start = option[0] + len(written) - len(written.lstrip("-"))
    return (start, start + len("target"))


def _target_to_mtriple(level: Level, config: dict[str, Any]) -> None:
    if "target" not in config:
        if level.top and level.target.era == "0.6":  # TVM <= v0.6's reader gave mtriple already
            span = level.target.source_span("mtriple")
            if span is not None and str(level.target)[span[0] : span[1]].lstrip("-").startswith("target"):
                level.report("target-to-mtriple", "-target renamed to -mtriple", _target_key(str(level.target), span))
        return
    option = level.span("target")
    if option is not None:  # the caret goes under the key
        option = _target_key(str(level.target), option)
    if "mtriple" in config:
        del config["target"]
        message = "both -target and -mtriple are given: -target is the old spelling of -mtriple"
        level.report("target-to-mtriple", message, option, "error")
        level.ok = False
        return
    renamed = {("mtriple" if k == "target" else k): v for k, v in config.items()}
    config.clear()
    config.update(renamed)
    level.report("target-to-mtriple", "-target renamed to -mtriple", option)


def _era_keys(level: Level, config: dict[str, Any]) -> None:
    # TVM v0.6 - v0.9 appended the device and the kind's default keys to given keys (v0.10 on,
    # given keys replace the defaults)
    target = level.target
    if target.era not in ("0.6", "0.7", "0.8") or target.declared_keys is None:
        return
    device = target.attrs.get("device")
    keys = [*target.declared_keys, *([device] if isinstance(device, str) else []), *target.schema.default_keys]
    keys = list(dict.fromkeys(keys))
    if keys != config["keys"]:
        config["keys"] = keys
        message = f"keys written out in full as TVM v{target.era} made them: {','.join(keys)}"
        level.report("era-keys", message, level.span("keys"))


def _mkldnn_to_dnnl(level: Level, config: dict[str, Any]) -> None:
    if "mkldnn" in config.get("libs", ()):
        config["libs"] = ["dnnl" if lib == "mkldnn" else lib for lib in config["libs"]]
        level.report("mkldnn-to-dnnl", "libs: mkldnn renamed to dnnl", level.span("libs"))
        return
    source = level.run.rewritten
    if not level.top or source is None:
        return
    # parse read the text as TVM's Target() did: every mkldnn became dnnl because the text holds
    # -libs=mkldnn; TVM >= 0.24 does not, so the JSON says dnnl
    span = level.target.source_span("libs")
    in_libs = source[span[0] : span[1]].count("mkldnn") if span is not None else 0
    others = source.count("mkldnn") - in_libs
    message = "libs: mkldnn renamed to dnnl"
    if others:
        message += (
            f", and {others} more 'mkldnn' in the text, as TVM's Target() replaced every one of a text"
            " holding -libs=mkldnn"
        )
    level.report("mkldnn-to-dnnl", message, span)


def _shared_memory_renamed(level: Level, config: dict[str, Any]) -> None:
    if level.target.kind == "cuda" and "shared_memory_per_block" in config:
        config.setdefault("max_shared_memory_per_block", config.pop("shared_memory_per_block"))
        message = RULES["shared-memory-renamed"].summary
        level.report("shared-memory-renamed", message, level.span("shared_memory_per_block"))


def _target_host_to_host(level: Level, config: dict[str, Any]) -> None:
    if "target_host" in config:
        config.setdefault("host", config.pop("target_host"))
        level.report("target-host-to-host", RULES["target-host-to-host"].summary, level.span("target_host"))


def _from_device(level: Level, config: dict[str, Any]) -> None:
    if "from_device" in config:
        message = "from_device queries the device when TVM builds the target; kept as is"
        level.report("from-device", message, level.span("from_device"), "warning")


def _unknown_attributes(level: Level, config: dict[str, Any], removed: bool) -> None:
    """The attributes of ``config`` TVM 0.27 does not know: those it removed (``removed``) or
    the others, under the policy."""
    kind = level.target.kind
    known = level.run.kinds.get(kind, level.run.common)
    policy = level.run.policy
    for name in list(config):
        if name in ("kind", "tag", "keys", "host") or name in known or (name in REMOVED_ATTRS) != removed:
            continue
        if feature_name(name) is not None:
            continue  # every modern release reads feature.* keys, whatever the kind (apache/tvm#18883)
        if kind not in legacy_registry().kinds and name in level.target.schema.attrs:
            continue  # a user kind's own attribute (its executor too): the kind is reported
        replaced = REMOVED_ATTRS.get(name)
        rule = "removed-attribute" if removed else "unknown-attribute"
        default = _default_of_replacement(name, config) if removed and policy != "keep" else None
        if default is not None:
            del config[name]
            message = f"attribute {show(name)} dropped: false is {default}'s default, so it sets nothing"
            level.report(rule, message, level.span(name), "info")
            continue
        what = f"moved to {replaced}" if replaced else f"{release_title(level.run.to)} does not know it"
        severity: Severity = "warning"
        if policy == "drop":
            del config[name]
            message = f"attribute {show(name)} dropped: {what}"
        elif policy == "keep":
            message = f"attribute {show(name)} kept though {what} ({release_title(level.run.to)} rejects it)"
        else:
            message, severity = f"attribute {show(name)} cannot migrate: {what}", "error"
        level.report(rule, message, level.span(name), severity)


# Removed boolean attributes whose false is what their replacement does when not told: false
# carries no setting, and dropping it loses nothing. (link-params is false by default for the
# graph executor only: the AOT executor, v0.10 on, links parameters unless told not to.)
_FALSE_BY_DEFAULT = {
    "system-lib": "the runtime",
    "unpacked-api": "the AOT executor",
    "link-params": "the graph executor",
}


def _default_of_replacement(name: str, config: Mapping[str, Any]) -> str | None:
    """What ``name``'s replacement is when its false value is its default there, else ``None``."""
    if config.get(name) is not False or name not in _FALSE_BY_DEFAULT:
        return None
    if name == "link-params" and config.get("executor", "graph") != "graph":
        return None
    return _FALSE_BY_DEFAULT[name]


def _removed_attribute(level: Level, config: dict[str, Any]) -> None:
    _unknown_attributes(level, config, removed=True)


def _unknown_attribute(level: Level, config: dict[str, Any]) -> None:
    kind = level.target.kind
    if kind not in REMOVED_KINDS and kind not in level.run.kinds and not legacy_kind(kind):
        summary = f"a kind or attribute {release_title(level.run.to)} does not know"
        _kind_gone(level, "unknown-attribute", summary)
        if level.stop:
            return
    _unknown_attributes(level, config, removed=False)


def _value_changed(level: Level, config: dict[str, Any]) -> None:
    for name in level.target.attrs:
        if name not in config and RENAMED_ATTRS.get(name) not in config:
            continue  # dropped: reported as such
        for why in misread(level.target, name, level.written):
            level.report(
                "value-changed", f"{level.where()}attribute {show(name)}: {why}", level.value_span(name), "warning"
            )


def _rejected_by_target(level: Level, config: dict[str, Any]) -> None:
    if not level.run.validate:
        return
    for found in rejections(config, level.run.to):
        value = show(found.value) if isinstance(found.value, str) else json.dumps(found.value, ensure_ascii=False)
        verb = "holds" if found.value is not config[found.attribute] else "is"
        what = f"attribute {show(found.attribute)} {verb} {value}"
        message = f"{level.where()}{what}, which {release_title(level.run.to)} rejects: {found.reason}"
        level.report("rejected-by-target", message, level.span(found.attribute), "error")


def _separate_host(level: Level, config: dict[str, Any]) -> None:
    read_host = level.run.read_host
    if not level.top or read_host is None or not level.ok:
        return
    host = level.convert(read_host(), "host")
    if host is None:
        level.ok = False
        return
    if "host" in config and config["host"] != host:
        level.report("separate-host", "the separate host replaces the target's own host", None, "warning")
    else:
        level.report("separate-host", RULES["separate-host"].summary)
    config["host"] = host


_REMOVED_ATTRS_DOC = ", ".join(f"`{name}`" for name in REMOVED_ATTRS)
_REMOVED_KINDS_DOC = ", ".join(f"`{name}`" for name in REMOVED_KINDS)

RULES: dict[str, Rule] = {
    rule.id: rule
    for rule in (
        Rule(
            "removed-kind",
            "a kind TVM removed",
            _removed_kind,
            f"{_REMOVED_KINDS_DOC}: reported; the target cannot migrate (policy `keep` keeps it, with a warning).",
        ),
        Rule(
            "byoc-kind",
            "a BYOC (external codegen) kind of the Relay era; partition with relax BYOC instead",
            _byoc_kind,
            "a Relay-era external codegen kind (`cmsis-nn`, `ethos-u`, `tensorrt`, ...): reported; partition with"
            " relax BYOC instead (policy `keep` keeps it, with a warning).",
        ),
        Rule(
            "target-to-mtriple",
            "-target= is the pre-v0.7 spelling of -mtriple= (renamed as an attribute)",
            _target_to_mtriple,
            "`-target=` (the pre-v0.7 spelling) becomes `mtriple`, renamed as an attribute. AutoTVM's log reader"
            " replaced the *substring* `-target` everywhere, which also turned `-target_device_type=` into"
            " `-mtriple_device_type=`; targetlang reads `-target` as an attribute of its own and renames that, at"
            " any depth (a host inside a target, a host given separately). With both `-target=` and `-mtriple=`"
            " the change is an error and nothing migrates.",
        ),
        Rule(
            "era-keys",
            f"TVM v0.6 - v0.9 appended the default keys to given keys; TVM {MODERN} does not",
            _era_keys,
            'read with `era="0.6"`, `"0.7"` or `"0.8"`, a target with `-keys=` gets the keys that TVM gave it'
            " written out in full: TVM v0.6 - v0.9 appended the device and the kind's default keys to the given"
            " ones (`opencl -keys=mali` was `mali,opencl,gpu`), while TVM 0.27, like v0.10 on, keeps given keys"
            " as they are.",
        ),
        Rule(
            "mkldnn-to-dnnl",
            "the library mkldnn is called dnnl since TVM v0.10",
            _mkldnn_to_dnnl,
            "`mkldnn` in `libs` becomes `dnnl`. TVM v0.9 - v0.23's `Target()` did this to a string holding the"
            " literal `-libs=mkldnn`, replacing every `mkldnn` in it (`-model=mkldnn_v1` too), and `parse` reads"
            " such a string the same way; the rule reports that, saying when more than `libs` changed, and also"
            " renames the library wherever else it is in `libs` (a dict, `-libs=cblas,mkldnn`, an older era),"
            " which TVM 0.27 no longer does.",
        ),
        Rule(
            "shared-memory-renamed",
            "cuda's shared_memory_per_block (v0.8) is max_shared_memory_per_block",
            _shared_memory_renamed,
            "cuda's `shared_memory_per_block` (v0.8 only) is `max_shared_memory_per_block`.",
        ),
        Rule(
            "target-host-to-host",
            "composite's target_host (v0.7) is the host",
            _target_host_to_host,
            "composite's `target_host` (v0.7) becomes `host`.",
        ),
        Rule(
            "from-device",
            "from_device queries a device when the target is built; kept",
            _from_device,
            "`from_device` is kept, with a warning: TVM queries the device when it builds the target.",
        ),
        Rule(
            "removed-attribute",
            "an attribute TVM removed; where its setting went instead",
            _removed_attribute,
            f"{_REMOVED_ATTRS_DOC}: reported with what replaced them (the Runtime or Executor passed to the"
            " build), under the policy; `system-lib`, `unpacked-api` and (without an AOT `executor`) `link-params`"
            " set to false are dropped with a note under policies `error` and `drop`, as false is what their"
            " replacement does without them.",
        ),
        Rule(
            "unknown-attribute",
            "a kind or attribute the TVM written for does not know",
            _unknown_attribute,
            "any other kind or attribute the release written for does not know (a user kind of a `registry=`),"
            " under the policy. Formerly `unknown-in-0.27`, which still names it.",
        ),
        Rule(
            "value-changed",
            "a value TVM's legacy parser read as other than what was written",
            _value_changed,
            "a warning on each value TVM read as other than what the text says, which the JSON holds as TVM read"
            " it: an integer followed by more (`-num-cores=4abc` is 4, `0x10` 0, `1.5` 1), a boolean written as"
            " an integer other than 0 or 1 (`-fast-math=2` is true, in a dict too), an integer option written as"
            " a flag (`-num-cores` is 1). See Changed values.",
        ),
        Rule(
            "rejected-by-target",
            "a value the TVM written for rejects in Target()",
            _rejected_by_target,
            "an error on each value that the release's `Target()` would reject: not of the type of its schema, or"
            " failing a check of its canonicalisers (`cuda -arch=80`: the arch must start with `sm_`), at any"
            " depth; see Validation against TVM 0.27. Formerly `rejected-by-0.27`, which still names it.",
        ),
        Rule(
            "separate-host",
            "a host given separately (target_host=, auto_scheduler logs) folded into host",
            _separate_host,
            "a host given separately (`host=`: auto_scheduler logs' `i[0][3]`, `target_host=` arguments) is"
            " folded into `host`; a warning when it replaces a different host.",
        ),
        Rule(
            "tag-compressed",
            f"the configuration equals a registered TVM {MODERN} tag",
            tag_compressed,
            'with `compress_tags=True`, a configuration equal to a registered TVM 0.27 tag\'s becomes `{"tag":'
            " ...}`, plus up to two overriding entries, when the tag names the input's own product (the tag it"
            " names, or its `model`/`device`; see Tags); accepted only when expanding the tag again gives the"
            " same resolved target.",
        ),
    )
}


RULE_ALIASES: dict[str, str] = {"unknown-in-0.27": "unknown-attribute", "rejected-by-0.27": "rejected-by-target"}
"""The ids rules had when 0.27 was the only release written for, and the ids they have now."""


def rule_id(name: str) -> str:
    """The id of the rule ``name`` names: itself, or what an old id (:data:`RULE_ALIASES`) became."""
    return RULE_ALIASES.get(name, name)


def docs_table() -> str:
    """The rule table of docs/migration.md: one row per rule of :data:`RULES`, in order."""
    rows = [f"| `{rule.id}` | {rule.details} |" for rule in RULES.values()]
    return "\n".join(["| rule | what it does |", "|---|---|", *rows]) + "\n"
