"""The CPU and feature names each recorded LLVM knows, per architecture, and the check of a
target's ``mcpu`` and ``mattr`` against them (``targetlang check --llvm``).

TVM hands ``-mcpu`` and ``-mattr`` to LLVM unread: a misspelt name passes every target check and
shows at code generation, where LLVM ignores it (``'skylakee' is not a recognized processor``) and
TVM falls back to the generic CPU. The tables are ``llc-N -mtriple=ARCH -mcpu=help`` of Debian's
``llvm-N`` packages, with the processor aliases ``-mcpu=help`` leaves out, recorded by
``tests/oracle/record_llvm_cpus.py`` into ``data/llvm-names.json`` (docs/llvm-names.md).

>>> from targetlang import parse
>>> [f.message for f in check_llvm_names(parse("llvm -mtriple=x86_64-linux-gnu -mcpu=skylakee"), "19")]
["LLVM 19 has no CPU 'skylakee' for x86_64; did you mean 'skylake' or 'skylake_avx512' or 'skylake-avx512'?"]
"""

from __future__ import annotations

import json
import platform
from dataclasses import dataclass
from functools import cache
from typing import Any

from ._diagnostics import hint, suggest
from ._target import Target
from ._versions import DATA
from .errors import TargetError

__all__ = [
    "LlvmNameFinding",
    "LlvmRelease",
    "NameTable",
    "check_llvm_names",
    "host_triple",
    "llvm_release",
    "name_table",
    "recorded_llvm",
    "target_triple",
    "triple_arch",
]

# The kinds whose mcpu and mattr go to LLVM, each with the triple TVM gives it when none is
# written (llvm's is the host's: LLVM's default triple of the machine that compiles).
_LLVM_KINDS = {
    "llvm": None,
    "nvptx": "nvptx64-nvidia-cuda",
    "rocm": "amdgcn-amd-amdhsa-hcc",
    "hexagon": "hexagon",
}

# A triple's architecture as LLVM's Triple::parseArch reads it, for the names TVM users write;
# each maps to an architecture of the tables.
_ARCH_NAMES = {
    "amd64": "x86_64",
    "x86_64h": "x86_64",
    "x86": "i686",
    "i386": "i686",
    "i486": "i686",
    "i586": "i686",
    "arm64": "aarch64",
    "arm64_32": "aarch64",
    "aarch64_32": "aarch64",
    "aarch64_be": "aarch64",
    "ppc64le": "powerpc64le",
    "ppc64": "powerpc64",
    "s390x": "systemz",
}


@dataclass(frozen=True, slots=True)
class LlvmRelease:
    """One recorded LLVM: its major version (the key ``--llvm`` takes), llc's full version, the
    Debian package and its version, and the architectures that llc has."""

    major: str
    llc: str
    package: str
    package_version: str
    arches: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class NameTable:
    """The names one LLVM knows for one architecture: the CPUs ``-mcpu=help`` lists, the CPU
    aliases it accepts without listing them, and the features (``-mattr`` names, without the
    sign)."""

    llvm: str
    arch: str
    cpus: tuple[str, ...]
    aliases: tuple[str, ...]
    features: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class LlvmNameFinding:
    """A name of ``mcpu`` or ``mattr`` the LLVM does not list (``what``: ``"cpu"``, ``"alias"``,
    ``"feature"``), or ``"no-table"``: an architecture the tables do not hold, so nothing was
    checked. ``severity`` is ``"warning"``, or ``"note"`` for ``no-table``."""

    what: str
    name: str
    message: str
    severity: str


@cache
def _data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / "llvm-names.json").read_text(encoding="utf-8"))
    return data


def recorded_llvm() -> tuple[LlvmRelease, ...]:
    """The recorded LLVM releases, oldest first."""
    return tuple(
        LlvmRelease(major, r["llc"], r["package"], r["package_version"], tuple(r["arches"]))
        for major, r in sorted(_data()["versions"].items(), key=lambda item: int(item[0]))
    )


def llvm_release(version: str) -> LlvmRelease:
    """The recorded release of ``version`` (``19``, ``19.1`` or ``19.1.7``: its major version
    counts); a :class:`TargetError` naming the recorded ones when there is none."""
    major = version.strip().split(".", 1)[0]
    for release in recorded_llvm():
        if release.major == major:
            return release
    known = ", ".join(r.major for r in recorded_llvm())
    raise TargetError(f"no tables of LLVM {version!r}: the recorded LLVM versions are {known}")


def triple_arch(triple: str) -> str:
    """The architecture of the tables that ``triple``'s first part names (``arm64-apple-macos``:
    ``aarch64``; ``armv7a-linux-gnueabihf``: ``arm``); a name the tables do not know comes back
    as it is."""
    arch = triple.split("-", 1)[0].lower()
    if arch.startswith(("armv", "armeb")):
        return "arm"
    if arch.startswith("thumb"):
        return "thumb"
    if arch in ("i686", "i786", "i886", "i986"):
        return "i686"
    return _ARCH_NAMES.get(arch, arch)


def host_triple() -> str:
    """This machine's architecture as a triple's first part: the triple an ``llvm`` target without
    ``mtriple`` compiles for."""
    return triple_arch(platform.machine() or "unknown")


def target_triple(target: Target, host: str | None = None) -> str | None:
    """The triple whose names ``target``'s ``mcpu`` and ``mattr`` are checked against: its
    ``mtriple``, else its kind's fixed one (``nvptx``, ``rocm``, ``hexagon``), else for ``llvm``
    ``host`` (default :func:`host_triple`); ``None`` for a kind whose names do not go to LLVM."""
    if target.kind not in _LLVM_KINDS:
        return None
    written = target.attrs.get("mtriple")
    if isinstance(written, str) and written:
        return written
    return _LLVM_KINDS[target.kind] or host or host_triple()


@cache
def name_table(version: str, arch: str) -> NameTable | None:
    """What LLVM ``version`` knows for the architecture ``arch`` (a name :func:`triple_arch`
    gives); ``None`` when that LLVM has no such backend or the tables do not hold it."""
    release = llvm_release(version)
    data = _data()
    if arch not in release.arches or arch not in data["arches"]:
        return None
    table = data["tables"][data["arches"][arch]]

    def names(part: str) -> tuple[str, ...]:
        groups = table[part].items()
        return tuple(sorted(n for versions, group in groups if release.major in versions.split() for n in group))

    return NameTable(release.major, arch, names("cpus"), names("aliases"), names("features"))


def check_llvm_names(target: Target, version: str, *, host: str | None = None) -> tuple[LlvmNameFinding, ...]:
    """The names of ``target``'s ``mcpu`` and ``mattr`` (and its host's) that LLVM ``version``
    does not know for the target's triple (:func:`target_triple`), with the closest it knows.
    A CPU known only as an alias is reported too: TVM before v0.24 checked ``mcpu`` against the
    listed CPUs alone and fell back to the generic CPU (mlc-llm#3036)."""
    found: list[LlvmNameFinding] = []
    release = llvm_release(version)
    for each in _within(target):
        found.extend(_check_one(each, release, host))
    return tuple(found)


def _within(target: Target) -> list[Target]:
    """``target`` and every target in it (its host, a composite's devices, theirs), in order."""
    found: list[Target] = []
    waiting = [target]
    while waiting:
        each = waiting.pop()
        found.append(each)
        inner: list[Target] = []
        if each.host is not None:
            inner.append(each.host)
        for value in each.attrs.values():
            items = value if isinstance(value, tuple | list) else (value,)
            inner.extend(item for item in items if isinstance(item, Target))
        waiting.extend(reversed(inner))
    return found


def _check_one(target: Target, release: LlvmRelease, host: str | None) -> list[LlvmNameFinding]:
    triple = target_triple(target, host)
    cpu = target.attrs.get("mcpu")
    features = target.attrs.get("mattr") or ()
    if triple is None or (not cpu and not features):
        return []
    arch = triple_arch(triple)
    table = name_table(release.major, arch)
    llvm = f"LLVM {release.major}"
    where = arch
    if not target.attrs.get("mtriple") and _LLVM_KINDS[target.kind] is None:
        # the same text can be right on the board it was written for: say which machine judged it
        where = f"{arch} (no mtriple: the host's)"
    if table is None:
        message = f"{llvm}'s recorded tables have no architecture {arch!r} (triple {triple!r}): names not checked"
        return [LlvmNameFinding("no-table", arch, message, "note")]
    found: list[LlvmNameFinding] = []
    if isinstance(cpu, str) and cpu and cpu not in table.cpus:
        if cpu in table.aliases:
            message = (
                f"{llvm} knows CPU {cpu!r} for {where} only as an alias '-mcpu=help' does not list: "
                "TVM before v0.24 rejects it at code generation and compiles for the generic CPU"
            )
            found.append(LlvmNameFinding("alias", cpu, message, "warning"))
        else:
            close = hint(suggest(cpu, table.cpus + table.aliases))
            found.append(LlvmNameFinding("cpu", cpu, f"{llvm} has no CPU {cpu!r} for {where}{close}", "warning"))
    # TVM joins mattr's items with "," for LLVM (GetTargetFeatureString): an item may hold several
    for feature in (part.strip() for item in features if isinstance(item, str) for part in item.split(",")):
        name = feature[1:] if feature[:1] in "+-" else feature
        if name and name not in table.features:
            close = hint(tuple(feature[: len(feature) - len(name)] + n for n in suggest(name, table.features)))
            message = f"{llvm} has no feature {name!r} for {where} (-mattr={feature}){close}"
            found.append(LlvmNameFinding("feature", feature, message, "warning"))
    return found
