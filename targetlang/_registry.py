"""Registries of kinds and tags; the built-in one is read from TVM's own schema files."""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any

from ._registry_entries import (
    FILE_FIELDS,
    checked_kind,
    declared_kind,
    kind_from_dict,
    kind_to_dict,
    listed,
    names_field,
    table_field,
    tag_config,
)
from ._release_schemas import load_data, release_kinds, release_variant, tvm_schemas
from ._schema import KindSchema, thawed
from ._values import json_type
from ._versions import (
    DEFAULT,
    MODERN,
    MODERN_RELEASES,
    NAMED_DISTRIBUTIONS,
    SCHEMA_RELEASES,
    Release,
    Version,
    data_file,
    release,
)
from .errors import RegistryError, show

__all__ = [
    "MAX_CHECKED_TAG_TARGETS",
    "MAX_TAG_DEPTH",
    "MAX_TAG_TARGETS",
    "Registry",
    "builtin_registry",
    "tag_target_cache",
]

# The releases whose schema ships with targetlang; "none" is a registry built from scratch.
_BASES = SCHEMA_RELEASES
_NO_BASE = "none"


class Registry:
    """An immutable set of kinds and tags.

    A registry is a value: ``with_kind`` and ``with_tag`` return new registries, and two
    registries with the same contents are equal. ``builtin_registry()`` is TVM v0.22's.
    Tag configs are read-only all the way down (objects as read-only mappings, arrays as
    tuples); a :class:`Target` in one is kept as its JSON form. ``version`` is the built-in
    registry this one extends, ``""`` for one built from scratch. The constructor takes kinds
    as they are; ``register_kind`` and registry files check a user kind first.
    """

    __slots__ = ("_hash", "_kinds", "_modern_tags", "_tag_targets", "_tags", "kinds", "tags", "version")

    _hash: int
    # The target a tag reads as, by name, once read (by the parser), for a tag that reads no
    # other: one with its own kind, extending no tag, whose target nests none. The tags and the
    # kinds never change, so neither does it. As many as there are tags, whatever the input.
    _tag_targets: dict[str, Any]
    # The dicts that ``kinds`` and ``tags`` show read-only, for the parser: a read-only view costs
    # every lookup a method call.
    _kinds: dict[str, KindSchema]
    _tags: dict[str, Mapping[str, Any]]
    # The modern release whose added tags ``{"tag": NAME}`` reads (``modern_tag``), where it is not
    # the registry's own: migration reads an input as written for the release it writes for.
    _modern_tags: str
    kinds: Mapping[str, KindSchema]
    tags: Mapping[str, Mapping[str, Any]]
    version: str

    def __init__(
        self,
        kinds: Iterable[KindSchema] = (),
        tags: Mapping[str, Mapping[str, Any]] | None = None,
        version: str = "",
    ) -> None:
        found: dict[str, KindSchema] = {}
        for kind in kinds:
            if not isinstance(kind, KindSchema):
                raise RegistryError(f"a registry holds KindSchema objects, not {type(kind).__name__}")
            found[kind.name] = kind
        if not isinstance(tags, Mapping | None):
            raise RegistryError(f"a registry's tags are a mapping from names to configs, not {type(tags).__name__}")
        self._fill(found, {name: tag_config(name, config) for name, config in (tags or {}).items()}, version)

    def _fill(
        self, kinds: dict[str, KindSchema], tags: dict[str, Mapping[str, Any]], version: str, modern_tags: str = ""
    ) -> None:
        object.__setattr__(self, "kinds", MappingProxyType(kinds))
        object.__setattr__(self, "tags", MappingProxyType(tags))
        object.__setattr__(self, "_kinds", kinds)
        object.__setattr__(self, "_tags", tags)
        object.__setattr__(self, "version", version)
        object.__setattr__(self, "_modern_tags", modern_tags)
        object.__setattr__(self, "_hash", hash((version, modern_tags, frozenset(self.kinds), frozenset(self.tags))))
        object.__setattr__(self, "_tag_targets", {})

    def _derived(self, kinds: dict[str, KindSchema], tags: dict[str, Mapping[str, Any]]) -> Registry:
        # The tags are frozen already: a copy that adds one kind or tag need not freeze them again.
        registry = object.__new__(Registry)
        registry._fill(kinds, tags, self.version, self._modern_tags)
        return registry

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Registry is immutable; use with_kind() or with_tag()")

    def __reduce__(self) -> tuple[Any, ...]:
        # A built-in registry is unpickled as the same object as the unpickling process's own;
        # any other as its kinds, its tags as plain data, and its version.
        if self.version in SCHEMA_RELEASES and builtin_registry(self.version) is self:
            return (builtin_registry, (self.version,))
        tags = {name: thawed(config) for name, config in self.tags.items()}
        if self._modern_tags:
            return (_reading_tags_of, (Registry(tuple(self.kinds.values()), tags, self.version), self._modern_tags))
        return (Registry, (tuple(self.kinds.values()), tags, self.version))

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Registry):
            return NotImplemented
        return (
            self._hash == other._hash
            and self.version == other.version
            and self._modern_tags == other._modern_tags
            and dict(self.kinds) == dict(other.kinds)
            and dict(self.tags) == dict(other.tags)
        )

    def __repr__(self) -> str:
        return f"<Registry {self.version or 'custom'}: {len(self.kinds)} kinds, {len(self.tags)} tags>"

    @property
    def base(self) -> Registry | None:
        """The built-in registry this one extends (``builtin_registry(version)``), or ``None``."""
        return builtin_registry(self.version) if self.version else None

    def with_kind(self, kind: KindSchema) -> Registry:
        """A copy with ``kind`` added (or replacing the kind of the same name), once checked as
        ``register_kind`` checks a kind."""
        if not isinstance(kind, KindSchema):
            raise RegistryError(f"a kind is a KindSchema, not {type(kind).__name__}")
        return self._derived({**self.kinds, kind.name: checked_kind(kind)}, dict(self.tags))

    def with_tag(self, name: str, config: Mapping[str, Any]) -> Registry:
        """A copy with tag ``name`` standing for ``config`` (a target config dict)."""
        if not isinstance(name, str) or not name:
            raise RegistryError(f"a tag's name is a non-empty string, not {name!r}")
        return self._derived(dict(self.kinds), {**self.tags, name: tag_config(name, config)})

    def register_kind(
        self,
        name: str,
        attrs: Mapping[str, str | tuple[str, Any]] | None = None,
        *,
        default_keys: Iterable[str] = (),
        device_type: int = 1,
        leaf: bool = True,
        unordered: Iterable[str] = (),
        required: Iterable[str] = (),
        canonicalizer: str | None = None,
    ) -> Registry:
        """A copy with a user-defined kind.

        ``attrs`` maps each attribute to its type (``"int"``, ``"array<string>"``, ``"target"``,
        ``"map<string,int>"``, ...) or to ``(type, default)``. Arrays are ordered unless named in
        ``unordered``. A leaf kind is a code generator; a non-leaf kind may hold ``devices``,
        ``executor``, ``runtime``. ``kind`` and ``features`` are no attribute names, and the
        attributes every kind has (``keys``, ``host``, ``libs``, ...) keep their types.
        Raises :class:`RegistryError` for a kind that could not be used.
        """
        kind = declared_kind(
            name,
            attrs,
            default_keys=default_keys,
            device_type=device_type,
            leaf=leaf,
            unordered=unordered,
            required=required,
            canonicalizer=canonicalizer,
        )
        return self.with_kind(kind)

    def register_tag(self, name: str, config: Mapping[str, Any]) -> Registry:
        """A copy with a user tag: ``name`` stands for the target ``config`` (which may be
        composite and may name other tags). It is checked when used, or by ``check_registry``."""
        return self.with_tag(name, config)

    def to_dict(self) -> dict[str, Any]:
        """What this registry adds to the built-in one it extends, as plain JSON data.

        ``Registry.from_dict(r.to_dict()) == r``; this is the registry file format.
        """
        base = self.base
        base_kinds = base.kinds if base is not None else {}
        base_tags = base.tags if base is not None else {}
        out: dict[str, Any] = {
            "base": self.version or _NO_BASE,
            "kinds": {name: kind_to_dict(kind) for name, kind in self.kinds.items() if base_kinds.get(name) != kind},
            "tags": {name: thawed(config) for name, config in self.tags.items() if base_tags.get(name) != config},
        }
        removed_kinds = [name for name in base_kinds if name not in self.kinds]
        removed_tags = [name for name in base_tags if name not in self.tags]
        if removed_kinds:
            out["removed_kinds"] = removed_kinds
        if removed_tags:
            out["removed_tags"] = removed_tags
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Registry:
        """The registry a registry file describes: a built-in base (``"base"``, ``"0.22"`` when
        absent, ``"none"`` for none), less ``removed_kinds`` and ``removed_tags``, plus ``kinds``
        and ``tags``. Raises :class:`RegistryError` naming the kind or tag and field at fault."""
        if not isinstance(data, Mapping):
            raise RegistryError(f"a registry file holds a table (object), not {json_type(data)}")
        extra = sorted(set(data) - FILE_FIELDS)
        if extra:
            raise RegistryError(
                f"a registry file has no field {', '.join(map(repr, extra))}: it has {listed(FILE_FIELDS)}"
            )
        version = data.get("base", str(DEFAULT))
        if version not in (*_BASES, _NO_BASE):
            shown = json.dumps(version) if isinstance(version, str) else json_type(version)
            raise RegistryError(
                f'\'base\' must be a TVM version from "{_BASES[0]}" to "{_BASES[-1]}" or "none", not {shown}'
            )
        base = builtin_registry(version) if version != _NO_BASE else cls()
        kinds = dict(base.kinds)
        tags = dict(base.tags)
        for field, present in (("removed_kinds", kinds), ("removed_tags", tags)):
            for name in names_field(data.get(field, ()), f"'{field}'", array=True):
                if present.pop(name, None) is None:
                    raise RegistryError(f"'{field}' names {show(name)}, which the base registry does not have")
        for name, decl in table_field(data, "kinds", "'kinds' in a registry file").items():
            kinds[name] = checked_kind(kind_from_dict(name, decl))
        for name, config in table_field(data, "tags", "'tags' in a registry file").items():
            tags[name] = tag_config(name, config)
        registry = object.__new__(cls)
        registry._fill(kinds, tags, "" if version == _NO_BASE else version)
        return registry


def tag_target_cache(registry: Registry) -> dict[str, Any]:
    """The targets made from ``registry``'s tags so far, by tag name: the reader keeps each one it
    makes here (the registry is immutable, so a tag's target never changes)."""
    return registry._tag_targets


# How far tags that name tags may take a reading. A tag naming another twice, which names another
# twice, ... doubles the targets at each level: 40 such tags (2.2 KB of JSON) stood for 2 ** 40
# targets, and loading them still ran after 60 s at 1.3 GB. So a reading (of a text, a config or
# a tag's name) makes at most MAX_TAG_TARGETS targets out of tags' configs, a tag counting each
# time it is named, and tags name tags at most MAX_TAG_DEPTH deep; checking all the tags of a
# registry (check_registry, load_registry) makes at most MAX_CHECKED_TAG_TARGETS in all, or a
# registry of many tags each naming a large one would take as many times as long. TVM's tags
# stand for 1 or 2 targets each, and name no tag; its 257 make some 400 targets checked.
MAX_TAG_TARGETS = 1_000
MAX_TAG_DEPTH = 32
MAX_CHECKED_TAG_TARGETS = 50_000


@functools.cache
def _tags_added_in_modern(release: str) -> Mapping[str, Mapping[str, Any]]:
    old = builtin_registry(str(DEFAULT)).tags
    added = {}
    for name, config in load_data(data_file("tags", release))["tags"].items():
        if name not in old:
            added[name] = tag_config(name, _unexported(config))
    return MappingProxyType(added)


def _unexported(config: Mapping[str, Any]) -> dict[str, Any]:
    """A tag's config as recorded from TVM 0.27's export less what is no part of the config: what
    its canonicaliser derives (``feature.*``) and the empty tag label, at every level (a Jetson's
    ``host`` carries its own features)."""
    kept: dict[str, Any] = {}
    for key, value in config.items():
        if key.startswith("feature.") or (key, value) == ("tag", ""):
            continue
        kept[key] = _unexported(value) if isinstance(value, Mapping) else value
    return kept


def modern_tag(registry: Registry, name: str) -> Mapping[str, Any] | None:
    """The config of tag ``name`` as the modern ``{"tag": NAME, ...}`` form reads it: the
    registry's own, else one of the tags added since TVM v0.22, for a registry built on TVM v0.22
    or later (TVM v0.22 itself never read those names): those of the release
    :func:`reading_tags_of` named, else of the registry's release if it is a modern one (a 0.24
    registry reads no tag 0.27 added), else of the newest."""
    config = registry.tags.get(name)
    if config is None and registry.version in SCHEMA_RELEASES and Version.parse(registry.version) >= DEFAULT:
        config = _tags_added_in_modern(modern_tags_release(registry)).get(name)
    return config


def modern_tags_release(registry: Registry) -> str:
    """The modern release (or distribution) whose added tags ``registry`` reads in the
    ``{"tag": NAME}`` form: see :func:`modern_tag`."""
    if registry._modern_tags:
        return registry._modern_tags
    own = Version.parse(registry.version) if registry.version in SCHEMA_RELEASES else None
    return str(own if own is not None and own in MODERN_RELEASES else MODERN)


def tag_added_in(registry: Registry, name: str) -> str:
    """The modern release that first registered tag ``name``, of those up to the one whose added
    tags ``registry`` reads (:func:`modern_tags_release`); that release itself for a named
    distribution's tag no release has."""
    reading = modern_tags_release(registry)
    if reading in NAMED_DISTRIBUTIONS and name not in _tags_added_in_modern(str(MODERN)):
        return reading
    for version in MODERN_RELEASES:
        if name in _tags_added_in_modern(str(version)):
            return str(version)
    return reading


def reading_tags_of(registry: Registry, release: str) -> Registry:
    """``registry`` reading the tags added by modern release ``release`` (``"0.25"``,
    ``"tirx-0.1"``) in the ``{"tag": NAME}`` form, not its own release's: a target migrated for
    0.25 means 0.25's tag by that name."""
    if release == modern_tags_release(registry) and not registry._modern_tags:
        return registry
    return _reading_tags_of(registry, release)


def _reading_tags_of(registry: Registry, release: str) -> Registry:
    copy = object.__new__(Registry)
    copy._fill(dict(registry.kinds), dict(registry.tags), registry.version, release)
    return copy


@functools.cache
def builtin_registry(version: str | Version | Release = str(DEFAULT)) -> Registry:
    """TVM's own kinds and tags as of release ``version`` (``"0.22"`` by default; ``"0.7"`` to
    ``"0.27"``), as TVM's source registered them (``targetlang/data/tvm-schemas.json``, extracted
    from each tagged release by ``tests/oracle/extract_schemas.py``).

    From v0.22 on the registry also reads what TVM 0.27's JSON form added, marked modern-only (a
    legacy string cannot use it; migration writes it). Raises :class:`ValueError` for a version
    targetlang has no schema of.
    """
    found = release(version)
    if not found.has_schema:
        shown = version if isinstance(version, str) else str(found.version)
        raise ValueError(
            f"targetlang has the schemas of TVM v{SCHEMA_RELEASES[0]} to v{SCHEMA_RELEASES[-1]}, not {shown!r}"
        )
    # One object per release, however the version is spelled ("0.22", "v0.22.0", a Version or none).
    return _release_registry(found.version)


@functools.cache
def _release_registry(want: Version) -> Registry:
    tags = {}
    for tag, variants in tvm_schemas()["tags"].items():
        variant = release_variant(variants, want)
        if variant is not None:
            tags[tag] = variant["config"]
    return Registry(release_kinds(want), tags, str(want))
