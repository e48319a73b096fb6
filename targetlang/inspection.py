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

import fnmatch
import functools
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal

from ._diagnostics import hint, suggest
from ._eras import DEFAULT_ERA, release_reading
from ._parsing import parse
from ._registry import Registry, attribute_releases, builtin_registry, load_data, tvm_schemas
from ._resolution import DEFAULT_ENVIRONMENT, Environment, resolve_parts
from ._target import Target
from ._versions import MODERN, SCHEMA_RELEASES, data_file, registry_release, release, release_title
from .errors import UnknownKindError, show

if TYPE_CHECKING:
    from .migration import Change

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

Origin = Literal["written", "default", "canonicaliser", "tag"]
"""Where a value of a resolved target comes from: the text (``written``), a tag the text names
(``tag``), the kind's default (``default``), or the kind's canonicaliser, TVM's target parser
(``canonicaliser``)."""


# ---------------------------------------------------------------------------------- releases


def release_ranges(releases: Iterable[str]) -> str:
    """``"v0.7 - v0.21"``, ``"v0.8"``, ``"v0.9 - v0.16, v0.24 - v0.27"``: releases (of
    :data:`~targetlang._versions.SCHEMA_RELEASES`) as runs of consecutive ones; ``"none"`` for none."""
    index = {name: i for i, name in enumerate(SCHEMA_RELEASES)}
    ordered = sorted(set(releases), key=lambda name: index[name])
    runs: list[list[str]] = []
    for name in ordered:
        if runs and index[runs[-1][-1]] + 1 == index[name]:
            runs[-1].append(name)
        else:
            runs.append([name])
    shown = [f"v{run[0]}" if len(run) == 1 else f"v{run[0]} - v{run[-1]}" for run in runs]
    return ", ".join(shown) or "none"


def _schema_release(version: str) -> str:
    """``version`` as the release line whose schema targetlang has (``"0.19.0"`` is ``"0.19"``).
    Raises :class:`ValueError` for a version without one (before v0.7, or unknown)."""
    return builtin_registry(version).version


def _releases(variants: Iterable[Mapping[str, Any]]) -> tuple[str, ...]:
    found = {name for variant in variants for name in variant["releases"]}
    return tuple(name for name in SCHEMA_RELEASES if name in found)


def _by_age(variants: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """A kind's or tag's variants, the one with the newest release last."""
    index = {name: i for i, name in enumerate(SCHEMA_RELEASES)}
    return sorted(variants, key=lambda variant: max(index[name] for name in variant["releases"]))


def _shown(variants: Sequence[Mapping[str, Any]], version: str | None) -> list[Mapping[str, Any]]:
    """The variants a table shows: the one of release ``version``, else all of them, oldest first."""
    if version is None:
        return _by_age(variants)
    return [variant for variant in variants if version in variant["releases"]]


# ---------------------------------------------------------------------------------- kinds


@dataclass(frozen=True)
class AttrInfo:
    """One attribute of a kind: its type (``string``, ``int``, ``bool``, ``target``,
    ``array<string>`` ...), its default (JSON data; ``None`` for none) and the releases whose kind
    had it."""

    name: str
    type: str
    default: Any
    releases: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        """The attribute as JSON data."""
        return {"name": self.name, "type": self.type, "default": self.default, "releases": list(self.releases)}


@dataclass(frozen=True)
class KindInfo:
    """A target kind as TVM registered it (``targetlang/data/tvm-schemas.json``).

    ``version`` is the release shown, ``None`` for every release that had the kind: then the
    default keys, device type and canonicaliser are the newest release's, and the attributes are
    those of every release, each with the type and default of the newest release that had it.
    ``canonicaliser`` is the name of TVM's function (its target parser, or before v0.10 its
    attribute preprocessor), ``None`` for none.
    """

    name: str
    releases: tuple[str, ...]
    version: str | None
    default_keys: tuple[str, ...]
    device_type: int
    canonicaliser: str | None
    attrs: tuple[AttrInfo, ...]

    def to_json(self) -> dict[str, Any]:
        """The kind as JSON data."""
        return {
            "kind": self.name,
            "releases": list(self.releases),
            "version": self.version,
            "default_keys": list(self.default_keys),
            "device_type": self.device_type,
            "canonicaliser": self.canonicaliser,
            "attributes": [attr.to_json() for attr in self.attrs],
        }


def _kind(name: str, variants: Sequence[Mapping[str, Any]], version: str | None) -> KindInfo | None:
    shown = _shown(variants, version)
    if not shown:
        return None
    attrs: dict[str, AttrInfo] = {}
    # The newest variant first: its order, types and defaults, then what only older ones had.
    for variant in reversed(shown):
        for attr, type_text, default in variant["attrs"]:
            # v0.24 on lists "kind" among a kind's options: it is the kind itself, no attribute
            if attr == "kind" or attr in attrs:
                continue
            had = tuple(str(release) for release in attribute_releases(name, attr))
            attrs[attr] = AttrInfo(attr, type_text, default, had)
    newest = shown[-1]
    return KindInfo(
        name,
        _releases(variants),
        version,
        tuple(newest["default_keys"]),
        newest["device_type"],
        newest.get("target_parser") or newest.get("preprocessor"),
        tuple(attrs.values()),
    )


def kind_table(version: str | None = None) -> tuple[KindInfo, ...]:
    """TVM's kinds by name: those of release ``version`` (``"0.19"``, ``"0.8.0"``), or every kind
    any release from v0.7 on had (``None``). Raises :class:`ValueError` for a version targetlang
    has no schema of."""
    release = _schema_release(version) if version is not None else None
    found = (_kind(name, variants, release) for name, variants in sorted(tvm_schemas()["kinds"].items()))
    return tuple(kind for kind in found if kind is not None)


def kind_info(name: str, version: str | None = None) -> KindInfo:
    """Kind ``name`` as release ``version`` had it, or (``None``) with every release's attributes.

    Raises :class:`~targetlang.UnknownKindError` for a kind the release did not have, saying
    which releases had it, or naming the closest kinds; :class:`ValueError` for a version
    targetlang has no schema of.
    """
    release = _schema_release(version) if version is not None else None
    kinds = tvm_schemas()["kinds"]
    found = _kind(name, kinds.get(name, ()), release)
    if found is not None:
        return found
    if name in kinds:
        had = release_ranges(_releases(kinds[name]))
        raise UnknownKindError(f"TVM v{release} has no kind {show(name)}: TVM {had} had it")
    tag = tvm_schemas()["tags"].get(name)
    if tag is not None:
        kind = _by_age(tag)[-1]["config"].get("kind")
        raise UnknownKindError(f"{show(name)} is a tag (of kind {show(str(kind))}), not a kind")
    choices = kinds if release is None else [k for k, variants in kinds.items() if _shown(variants, release)]
    where = f" in TVM v{release}" if release is not None else ""
    raise UnknownKindError(f"unknown target kind {show(name)}{where}{hint(suggest(name, choices))}")


# ---------------------------------------------------------------------------------- tags


@dataclass(frozen=True)
class TagInfo:
    """A tag as TVM registered it: its config (JSON data, before the target is built: no
    defaults, no keys but those it names) and the releases that had it. ``version`` is the release
    whose config is shown, ``None`` for the newest release that had the tag."""

    name: str
    config: Mapping[str, Any]
    releases: tuple[str, ...]
    version: str | None

    @property
    def kind(self) -> str:
        """The kind of the tag's target."""
        return str(self.config.get("kind", ""))

    def to_json(self) -> dict[str, Any]:
        """The tag as JSON data."""
        return {"tag": self.name, "releases": list(self.releases), "version": self.version, "config": self.config}


def tag_matches(name: str, pattern: str) -> bool:
    """Whether tag ``name`` matches ``pattern``, ignoring case: a shell-style glob (``fnmatch``:
    ``*``, ``?``, ``[...]``) when the pattern holds one of ``*?[``, which must then match the whole
    name; else a substring of the name."""
    name, pattern = name.lower(), pattern.lower()
    if any(char in pattern for char in "*?["):
        return fnmatch.fnmatchcase(name, pattern)
    return pattern in name


def tag_table(pattern: str | None = None, version: str | None = None) -> tuple[TagInfo, ...]:
    """TVM's tags by name, those matching ``pattern`` (see :func:`tag_matches`; ``None``: all):
    those of release ``version``, or every tag any release from v0.7 on had (``None``), with the
    config of the newest release that had it. Raises :class:`ValueError` for a version targetlang
    has no schema of."""
    release = _schema_release(version) if version is not None else None
    found = []
    for name, variants in sorted(tvm_schemas()["tags"].items()):
        if pattern is not None and not tag_matches(name, pattern):
            continue
        shown = _shown(variants, release)
        if shown:
            found.append(TagInfo(name, shown[-1]["config"], _releases(variants), release))
    return tuple(found)


# ---------------------------------------------------------------------------------- TVM 0.27


@functools.cache
def _modern_exports(to: str = str(MODERN)) -> Mapping[str, Mapping[str, Any]]:
    """What TVM ``to`` exports for a bare target of each kind: its defaults and what its
    canonicaliser sets (``data/kinds-v0.27.json``, recorded on a machine without GPUs; for an
    older modern release, the defaults its source registers)."""
    kinds: Mapping[str, Mapping[str, Any]] = load_data(data_file("kinds", to))["kinds"]
    return {name: kind["bare_export"] for name, kind in kinds.items()}


def _kind_fate(kind: str, to: str = str(MODERN)) -> str:
    from .migration._checks import option_types
    from .migration._rules import REMOVED_KINDS, RULES, legacy_kind, legacy_registry

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


def _modern_name(kind: str, name: str, to: str = str(MODERN)) -> str | None:
    """The name TVM ``to`` gives attribute ``name`` of ``kind``, ``None`` when it has none."""
    from .migration._checks import option_types
    from .migration._rules import RENAMED_ATTRS

    options = option_types(to).get(kind)
    if options is None:
        return None
    if name in options:
        return name
    renamed = RENAMED_ATTRS.get(name)
    return renamed if renamed in options else None


def _fate(
    kind: str,
    name: str,
    value: Any,
    origin: Origin,
    modern: str | None,
    default_keys: tuple[str, ...],
    to: str = str(MODERN),
) -> str:
    """What TVM ``to`` does with value ``name`` (``value``, from ``origin``) of a ``kind`` target."""
    from .migration._checks import option_types
    from .migration._rules import REMOVED_ATTRS

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


# ---------------------------------------------------------------------------------- explain


@dataclass(frozen=True)
class AttrExplanation:
    """One value of a resolved target (an attribute, or its ``keys``, ``tag`` or ``host``).

    ``value`` is JSON data and ``type`` the attribute's type; ``origin`` says where it comes
    from; ``note`` how it was made, when that is more than its origin says. ``modern_name`` is its
    name in TVM 0.27 (``None``: 0.27 has none), ``fate`` what TVM 0.27 does with it, and
    ``migration`` what :func:`targetlang.migrate` does with it, by the ``rules`` named.
    """

    name: str
    value: Any
    type: str
    origin: Origin
    modern_name: str | None
    fate: str
    migration: str
    rules: tuple[str, ...] = ()
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        """The row as JSON data."""
        return {
            "name": self.name,
            "value": self.value,
            "type": self.type,
            "origin": self.origin,
            "note": self.note or None,
            "modern_name": self.modern_name,
            "fate": self.fate,
            "migration": self.migration,
            "rules": list(self.rules),
        }


@dataclass(frozen=True)
class Explanation:
    """What :func:`explain` found for a spec: one row per value of the resolved target (its keys,
    tag, attributes in the kind's order, host), the features its canonicaliser derived, and what
    :func:`targetlang.migrate` made of it (``migrated``: its JSON, ``None`` when it cannot
    migrate; ``changes``: every change it reported)."""

    spec: str
    version: str
    kind: str
    kind_fate: str
    rows: tuple[AttrExplanation, ...]
    features: Mapping[str, Any] = field(default_factory=dict)
    migrated: Mapping[str, Any] | None = None
    changes: tuple[Change, ...] = ()
    target_version: str = str(MODERN)  # the modern release the fates and the migration are of
    given_features: Mapping[str, Any] = field(default_factory=dict)  # feature.* keys of the config (v0.24 on)

    def row(self, name: str) -> AttrExplanation:
        """The row of ``name``. Raises :class:`KeyError` when the target has no such value."""
        for row in self.rows:
            if row.name == name:
                return row
        raise KeyError(name)

    def to_json(self) -> dict[str, Any]:
        """The explanation as JSON data."""
        return {
            "spec": self.spec,
            "version": self.version,
            "kind": self.kind,
            "kind_fate": self.kind_fate,
            "rows": [row.to_json() for row in self.rows],
            "features": dict(self.features),
            "given_features": dict(self.given_features),
            "migrated": self.migrated,
            "target_version": self.target_version,
            "changes": [
                {
                    "rule": change.rule,
                    "severity": change.severity,
                    "message": change.message,
                    "span": list(change.span) if change.span is not None else None,
                }
                for change in self.changes
            ],
        }


Spec = str | Mapping[str, Any] | Target


def _text(spec: Spec) -> str:
    """The text a spec is explained as: a string as it is, a mapping as its JSON text, a
    :class:`Target` as its own text (or canonical string)."""
    if isinstance(spec, str):
        return spec
    if isinstance(spec, Target):
        return str(spec)
    try:
        return json.dumps(spec, ensure_ascii=False)
    except (TypeError, ValueError):  # a Target inside, or a value of no JSON type: read it first
        return json.dumps(parse(spec).to_json(), ensure_ascii=False)


def _reading(tvm_version: str | None, registry: Registry | None) -> tuple[Registry, str | None, str]:
    """The registry and era a spec is read with, as the other commands read it, and the release
    that reads so: ``tvm_version``'s own (its era's rules and kinds), else ``registry``'s, else
    TVM v0.22's. A ``registry`` stands in for the built-in registry of a release that
    :func:`~targetlang.parse` reads as."""
    if tvm_version is None:
        reader = registry or builtin_registry()
        return reader, None, str(registry_release(reader.version).version)
    rules, own = release_reading(tvm_version)
    if registry is not None and rules.name == DEFAULT_ERA:
        own = registry
    return own, rules.name, str(release(tvm_version).version)


def _canonicalised(target: Target, env: Environment) -> tuple[tuple[str, ...], dict[str, Any]]:
    """The keys and attributes of ``target`` once its canonicaliser ran and before any default
    applied: the pipeline of :meth:`Target.resolve` with a schema that has neither defaults nor
    default keys, so that what it adds is the canonicaliser's (and ``device``'s key)."""
    schema = target.schema
    bare = replace(
        schema,
        attrs={name: replace(spec, default=None) for name, spec in schema.attrs.items()},
        default_keys=(),
    )
    version = registry_release(target.registry.version).version
    keys, attrs, _ = resolve_parts(bare, target.declared_keys, target.attrs, env, lambda name: ("", 0, 0), version)
    return keys, attrs


_FIELD_TYPES = {"keys": "array<string>", "tag": "string", "host": "target"}  # a target's own fields


def _overlaps(span: tuple[int, int] | None, change: Change) -> bool:
    return span is not None and change.span is not None and span[0] <= change.span[0] < max(span[1], span[0] + 1)


def explain(
    spec: Spec,
    *,
    tvm_version: str | None = None,
    registry: Registry | None = None,
    env: Environment | None = None,
    target_version: str | None = None,
) -> Explanation:
    """Each value of ``spec``'s resolved target with where it came from, its name and fate in
    TVM ``target_version`` (a modern release; the newest, 0.27, by default), and what
    :func:`targetlang.migrate` does with it for that release.

    ``spec`` is read as :func:`targetlang.parse` reads it: by TVM v0.22 by default, as release
    ``tvm_version`` did when given (its era's rules and its own kinds: ``"0.8"`` for a target
    with ``-system-lib``), with ``registry``'s kinds and tags when given; ``env`` is the machine
    it is resolved for. A mapping is explained as its JSON text. Raises
    :class:`~targetlang.TargetError` when the spec does not read or does not resolve.
    """
    from .migration import migrate, modern_release

    to = modern_release(target_version or str(MODERN))
    env = env or DEFAULT_ENVIRONMENT
    reader, era, version = _reading(tvm_version, registry)
    text = _text(spec)
    # The migration first, while nothing of the reading below is held: it reads the text again,
    # and at its peak it holds a long array several times over (24 of the 30 bytes per input byte
    # that explaining a 5,000,000-item array took). Of it, only its JSON and changes are shown.
    failed: Exception | None = None
    try:
        migration = migrate(text, era=era, registry=reader, env=env, to=to)
        migrated, migration_changes = migration.json, migration.changes
        del migration  # (its target, the JSON read again)
    except Exception as err:
        failed = err  # raised once the reading below has raised its own error, if it has one
    target = parse(text, registry=reader, era=era)
    resolved = target.resolve(env)
    exported = resolved.to_json()
    canon_keys, canon_attrs = _canonicalised(target, env)
    if failed is not None:
        raise failed
    kind = target.kind
    schema = target.schema

    def written(name: str) -> bool:
        return target.source_span(name) is not None

    def given(name: str) -> Origin:  # a value the target was read with: its text's, or its tag's
        return "written" if written(name) else "tag"

    rows: list[AttrExplanation] = []

    def add(name: str, value: Any, origin: Origin, note: str = "") -> None:
        modern = _modern_name(kind, name, to) if name not in ("keys", "tag", "host") else name
        if _kind_fate(kind, to) != "kept":
            modern = None
        fate = _fate(kind, name, value, origin, modern, schema.default_keys, to)
        span = target.source_span(name)
        changes = [change for change in migration_changes if _overlaps(span, change)]
        rules = tuple(dict.fromkeys(change.rule for change in changes))
        type_text = str(schema.attrs[name].type) if name in schema.attrs else _FIELD_TYPES[name]
        rows.append(
            AttrExplanation(
                name,
                value,
                type_text,
                origin,
                modern,
                fate,
                _migration(
                    name,
                    value,
                    origin,
                    modern,
                    migrated,
                    changes,
                    type_text.startswith(("target", "array<target")),
                ),
                rules,
                note,
            )
        )

    # keys: given ones as they are, else what the canonicaliser made, else the kind's defaults;
    # the device's key is added to any of them
    declared = target.declared_keys
    device = resolved.attrs.get("device")
    device_note = f", with the device {show(device)}" if isinstance(device, str) else ""
    unchanged = tuple(dict.fromkeys([*(declared or ()), *([device] if isinstance(device, str) else [])]))
    if canon_keys != unchanged:
        add("keys", list(resolved.keys), "canonicaliser", f"the canonicaliser's keys{device_note}")
    elif declared is None:
        add("keys", list(resolved.keys), "default", f"the kind's default keys{device_note}")
    else:
        add("keys", list(resolved.keys), given("keys"), device_note[2:])
    if resolved.tag:
        add("tag", resolved.tag, given("tag"))
    before = target.to_json()
    for name in schema.attrs:
        if name not in exported or name in ("keys", "tag", "host"):
            continue  # absent, or a null a device query left (which TVM printed nowhere)
        value = exported[name]
        if schema.attrs[name].type.holds_targets:  # targets in it (devices): resolved on their own
            add(name, value, given(name), "resolved; explain them on their own for their values")
        elif name in target.attrs:
            if before.get(name) != value:
                add(name, value, "canonicaliser", f"{json.dumps(before.get(name))} given, changed by the canonicaliser")
            else:
                add(name, value, given(name))
        elif name in canon_attrs:
            add(name, value, "canonicaliser")
        else:
            add(name, value, "default")
    if resolved.host is not None:
        add("host", exported["host"], given("host"), "resolved; explain it on its own for its values")
    return Explanation(
        text,
        version,
        kind,
        _kind_fate(kind, to),
        tuple(rows),
        dict(resolved.features),
        migrated,
        migration_changes,
        to,
        dict(target.features),
    )


def _migration(
    name: str,
    value: Any,
    origin: Origin,
    modern: str | None,
    config: Mapping[str, Any] | None,
    changes: list[Change],
    holds_targets: bool,
) -> str:
    """What the migration did with one value, in a few words (the value of one that holds
    targets is resolved, the JSON's is not: they are not compared)."""
    errors = [change for change in changes if change.severity == "error"]
    if errors:
        return f"stops the migration ({errors[0].rule})"
    if config is None:
        return "would be written, but the target does not migrate" if origin in ("written", "tag") else "not written"
    key = modern if modern is not None and modern in config else name if name in config else None
    if key is None:
        return "dropped" if origin in ("written", "tag") else "not written"
    if key != name:
        return f"written as {show(key)}"
    if not holds_targets and config[key] != value:
        return f"written as {json.dumps(config[key], ensure_ascii=False)}"
    return "written"


# ---------------------------------------------------------------------------------- diff


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
    tvm_version: str | None = None,
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
    from .logs.match import Query

    env = env or DEFAULT_ENVIRONMENT
    reader, era, version = _reading(tvm_version, registry)
    texts = (_text(a), _text(b))
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
