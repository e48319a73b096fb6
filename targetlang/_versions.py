"""TVM releases, the eras of the target-string language, and where each release stands.

One table, read everywhere a TVM version matters: which releases targetlang has a schema of,
which era's rules read the strings a release wrote, the release :func:`targetlang.parse` reads
as by default, the last release that read legacy strings and the modern release that
:func:`targetlang.migrate` writes for. Modelled on ``packaging.version``: a :class:`Version` is
parsed once, compares as a version, and prints as ``major.minor`` (the only part of a TVM
version that changes what a target means).

>>> from targetlang._versions import Version, release
>>> Version.parse("v0.9.dev1092+g0123abc")
Version('0.9')
>>> release("0.19.0").era
'0.22'
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType
from typing import Final

__all__ = [
    "ATTRIBUTE_READS",
    "DATA",
    "DEFAULT",
    "DISTRIBUTIONS",
    "ERA_BOUNDS",
    "ERA_NAMES",
    "LAST_LEGACY",
    "MODERN",
    "MODERN_RELEASES",
    "NAMED_DISTRIBUTIONS",
    "RELEASES",
    "SCHEMA_RELEASES",
    "Release",
    "Version",
    "data_file",
    "distribution_release",
    "registry_release",
    "release",
]

# TVM's version strings: 0.7.dev0, 0.8.0, v0.9.0, 0.19.dev123, 0.9.dev1092+g0123abc, 0.22.0.post1.
_STRICT = re.compile(r"v?(\d+)\.(\d+)(?:\.\d+)*(?:[.\-_]?(?:dev|rc|a|b|post)\d*)*(?:\+[0-9A-Za-z._\-]+)?")
# What a tuning log's free-form version field starts with.
_LEADING = re.compile(r"\s*v?(\d+)\.(\d+)")


@dataclass(frozen=True, order=True)
class Version:
    """A TVM release line, ``major.minor``: ``0.8.0``, ``v0.8.0`` and ``0.8.dev0`` are all ``0.8``
    (a development version belongs to the release it leads to)."""

    major: int
    minor: int

    @classmethod
    def parse(cls, text: str | Version) -> Version:
        """Read a TVM version string. Raises :class:`ValueError` for anything that is not one."""
        if isinstance(text, Version):
            return text
        match = _STRICT.fullmatch(text) if isinstance(text, str) else None
        if match is None:
            raise ValueError(f"not a TVM version: {text!r} (expected something like '0.8.0' or '0.7.dev0')")
        return cls(int(match[1]), int(match[2]))

    @classmethod
    def find(cls, text: object) -> Version | None:
        """The version a free-form field starts with (a log record's ``tvm_version``), or ``None``."""
        match = _LEADING.match(text) if isinstance(text, str) else None
        return cls(int(match[1]), int(match[2])) if match else None

    @property
    def tag(self) -> str:
        """The release's tag in TVM's repository (``"v0.8.0"``)."""
        return f"v{self.major}.{self.minor}.0"

    def __str__(self) -> str:
        return f"{self.major}.{self.minor}"

    def __repr__(self) -> str:
        return f"Version('{self}')"


@dataclass(frozen=True)
class Release:
    """What targetlang knows of one TVM release line."""

    version: Version
    era: str  # the name of the era whose rules read the strings it wrote (targetlang._eras)
    has_schema: bool  # its kinds and tags ship with targetlang (builtin_registry(str(version)))
    reads_legacy: bool  # it read ``kind -key=val`` strings (v0.24 on read JSON and tags only)
    int_bits: int  # the width of an integer read from a string: a C ``int`` until v0.20, then int64
    # ``target.<attribute>`` reads the attribute (Target.__getattr__): the 16 properties v0.24
    # removed read again, without v0.23's defaults (apache/tvm#19581, v0.25 on)
    reads_attributes: bool = False
    # a named target distribution's name (``"tirx-0.1"``); its ``version`` is the TVM release
    # whose Target it carries on
    distribution: str = ""

    def __str__(self) -> str:
        return self.distribution or str(self.version)


# The eras, oldest first: (name, first release, last release). Each era's rules are an object
# in targetlang._eras; a release belongs to the era whose bounds hold it.
_ERA_BOUNDS: Final = (
    ("0.6", Version(0, 1), Version(0, 6)),
    ("0.7", Version(0, 7), Version(0, 7)),
    ("0.8", Version(0, 8), Version(0, 9)),
    ("0.22", Version(0, 10), Version(0, 23)),
)
ERA_NAMES: Final = tuple(name for name, _, _ in _ERA_BOUNDS)
ERA_BOUNDS: Final = MappingProxyType({name: (first, last) for name, first, last in _ERA_BOUNDS})
"""Each era's oldest and newest release, by the era's name."""

FIRST_SCHEMA: Final = Version(0, 7)  # the first release with a kind registry (TVM <= v0.6 had none)
LAST_LEGACY: Final = Version(0, 23)  # the last release that read legacy strings

DATA: Final = Path(os.environ.get("TARGETLANG_DATA_DIR") or Path(__file__).parent / "data")
"""The shipped data (schemas, tags, checks). ``TARGETLANG_DATA_DIR`` points it elsewhere, for the
tests that add a release to a copy of it: a release is known because its files are there."""

# A named target distribution (a TVM derivative with a Target of its own): "<name>-<major>.<minor>"
_NAMED: Final = re.compile(r"[a-z][a-z0-9]*-\d+\.\d+")


def data_file(stem: str, distribution: str) -> str:
    """The name of a target distribution's data file ``stem`` (``kinds``, ``tags``, ``checks``):
    a TVM release's carries a ``v`` (``kinds-v0.27.json``), a named distribution's its name
    (``kinds-tirx-0.1.json``)."""
    return f"{stem}-{distribution}.json" if _NAMED.fullmatch(distribution) else f"{stem}-v{distribution}.json"


_MODERN_FILE = re.compile(r"kinds-v(\d+\.\d+)\.json")


def _modern_releases() -> tuple[Version, ...]:
    found = (_MODERN_FILE.fullmatch(path.name) for path in DATA.glob("kinds-v*.json"))
    versions = (Version.parse(m[1]) for m in found if m is not None and (DATA / data_file("tags", m[1])).is_file())
    return tuple(sorted(v for v in versions if v > LAST_LEGACY))


def _schema_releases() -> frozenset[Version]:
    # the extraction of TVM's sources lists its releases on its third line: read that, not 256 kB
    with (DATA / "tvm-schemas.json").open(encoding="utf-8") as file:
        head = file.read(4096)
    match = re.search(r'"releases": (\[[^\]]*\])', head)
    return frozenset(Version.parse(name) for name in re.findall(r'"([^"]+)"', match[1] if match else ""))


MODERN_RELEASES: Final = _modern_releases()
"""The modern releases (v0.24 on) whose kinds, tags and checks ship (``kinds-v0.27.json``...):
what ``migrate`` and ``fix`` can write for, oldest first."""
MODERN: Final = MODERN_RELEASES[-1]  # the newest of them: what migrate writes for by default


def _named_distributions() -> tuple[str, ...]:
    names = (path.name[len("kinds-") : -len(".json")] for path in DATA.glob("kinds-*.json"))
    return tuple(sorted(n for n in names if _NAMED.fullmatch(n) and (DATA / data_file("tags", n)).is_file()))


NAMED_DISTRIBUTIONS: Final = _named_distributions()
"""The named target distributions whose kinds and tags ship (``"tirx-0.1"``: TVM TIRx)."""
DISTRIBUTIONS: Final = (*NAMED_DISTRIBUTIONS, *(str(v) for v in MODERN_RELEASES))
"""What ``migrate`` and ``fix`` can write for: the named distributions, then the modern TVM
releases oldest first (the last, :data:`MODERN`, is the default)."""

ATTRIBUTE_READS: Final = Version(0, 25)  # Target.__getattr__ again (apache/tvm#19581)
DEFAULT: Final = Version(0, 22)  # the release parse() reads as when given none


def _era_of(version: Version) -> str:
    for name, first, last in _ERA_BOUNDS:
        if first <= version <= last:
            return name
    if version > LAST_LEGACY:
        return "0.22"  # v0.24 on wrote only JSON and tag names, which the last era's reader reads
    raise ValueError(f"unknown TVM version '{version}': targetlang knows TVM v0.1 to v{MODERN}")


_SCHEMAS: Final = _schema_releases()

RELEASES: Final = MappingProxyType(
    {
        str(v): Release(
            v,
            _era_of(v),
            v in _SCHEMAS,
            v <= LAST_LEGACY,
            64 if v >= Version(0, 21) else 32,
            v >= ATTRIBUTE_READS,
        )
        for v in (*(Version(0, minor) for minor in range(1, LAST_LEGACY.minor + 1)), *MODERN_RELEASES)
    }
)
"""Every TVM release line targetlang knows, ``"0.1"`` to ``"0.27"``, by name: those that read
legacy strings, and each modern one whose data ships."""

SCHEMA_RELEASES: Final = tuple(name for name, r in RELEASES.items() if r.has_schema)
"""The releases whose own registry :func:`targetlang.builtin_registry` gives (``"0.7"`` on)."""


def registry_release(name: str) -> Release:
    """The release a registry's ``version`` names (``"0.19"``, an era's ``"0.8"``); a registry
    built from scratch (``""``) is read as the default release. A dictionary lookup: it is on
    the path of every parse and resolve."""
    return RELEASES.get(name) or RELEASES[str(DEFAULT)]


# The TVM release whose Target each named distribution carries on: TIRx's kinds, tags and checks
# are 0.27's but for what docs/migration.md lists, and, as 0.25 on, ``target.mcpu`` reads the
# attribute (measured on apache-tvm-tirx 0.1.0a4)
_CARRIES_ON: Final = MappingProxyType({"tirx": Version(0, 27)})


# How the documentation and messages name each named distribution's product
_TITLES: Final = MappingProxyType({"tirx": "TVM TIRx"})


def release_title(name: str) -> str:
    """A release or distribution as messages name it: ``"TVM 0.27"``, ``"TVM TIRx 0.1"``."""
    family, _, number = name.rpartition("-")
    if family in _TITLES:
        return f"{_TITLES[family]} {number}"
    return f"TVM {name}"


def distribution_release(name: str) -> Release:
    """What a Target of distribution ``name`` (one of :data:`DISTRIBUTIONS`) does, as a
    :class:`Release`: a TVM release's own, or for a named distribution that of the release it
    carries on (the newest if it is not recorded), named for the distribution. Raises
    :class:`ValueError` for any other name."""
    if name not in DISTRIBUTIONS:
        raise ValueError(f"targetlang writes for {', '.join(DISTRIBUTIONS)}, not {name!r}")
    if name in RELEASES:
        return RELEASES[name]
    base = RELEASES[str(_CARRIES_ON.get(name.rsplit("-", 1)[0], MODERN))]
    return replace(base, distribution=name)


def release(text: str | Version | Release) -> Release:
    """The release a TVM version string names (``"0.8.0"``, ``"v0.19.0"``, ``"0.7.dev0"``); a
    :class:`Release` is itself (a version read once travels as its object).

    Raises :class:`ValueError` for a text that is not a TVM version or a version targetlang does
    not know."""
    if isinstance(text, Release):
        return text
    version = Version.parse(text)
    found = RELEASES.get(str(version))
    if found is None:
        raise ValueError(f"unknown TVM version {str(text)!r}: targetlang knows TVM v0.1 to v{MODERN}")
    return found
