"""Where each value of a target comes from and what becomes of it in TVM 0.27 (``targetlang
explain``)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from .._eras import DEFAULT_ERA, release_reading
from .._parsing import parse
from .._registry import Registry, builtin_registry
from .._resolution import DEFAULT_ENVIRONMENT, Environment, resolve_parts
from .._target import Target
from .._versions import MODERN, Release, registry_release, release
from ..errors import show
from ..migration import Origin, attribute_fate, kind_fate, migrate, modern_attribute, modern_release

if TYPE_CHECKING:
    from ..migration import Change

__all__ = ["AttrExplanation", "Explanation", "Spec", "explain", "reading", "spec_text"]


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


def spec_text(spec: Spec) -> str:
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


def reading(tvm_version: str | Release | None, registry: Registry | None) -> tuple[Registry, str | None, str]:
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
    tvm_version: str | Release | None = None,
    registry: Registry | None = None,
    env: Environment | None = None,
    target_version: str | None = None,
) -> Explanation:
    """Each value of ``spec``'s resolved target with where it came from, its name and fate in
    TVM ``target_version`` (a modern release; the newest, 0.27, by default), and what
    :func:`targetlang.migrate` does with it for that release.

    ``spec`` is read as :func:`targetlang.parse` reads it: by TVM v0.22 by default, as release
    ``tvm_version`` did when given (its era's rules and its own kinds: ``"0.8"`` for a target
    with ``-system-lib``; a version text, or the release the command line read), with
    ``registry``'s kinds and tags when given; ``env`` is the machine it is resolved for. A
    mapping is explained as its JSON text. Raises :class:`~targetlang.TargetError` when the spec
    does not read or does not resolve.
    """
    to = modern_release(target_version or str(MODERN))
    env = env or DEFAULT_ENVIRONMENT
    reader, era, version = reading(tvm_version, registry)
    text = spec_text(spec)
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
        modern = modern_attribute(kind, name, to) if name not in ("keys", "tag", "host") else name
        if kind_fate(kind, to) != "kept":
            modern = None
        fate = attribute_fate(kind, name, value, origin, modern, schema.default_keys, to)
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
        kind_fate(kind, to),
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
