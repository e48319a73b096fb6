"""TVM's kinds and tags release by release, as tables for people to read (``targetlang kinds``,
``tags``)."""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .._diagnostics import hint, suggest
from .._registry import builtin_registry
from .._release_schemas import attribute_releases, tvm_schemas
from .._versions import SCHEMA_RELEASES
from ..errors import UnknownKindError, show

if TYPE_CHECKING:
    pass

__all__ = ["AttrInfo", "KindInfo", "TagInfo", "kind_info", "kind_table", "release_ranges", "tag_matches", "tag_table"]


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
