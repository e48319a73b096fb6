"""Reading a record's target as the TVM that wrote the record would have, once per distinct text.

A log repeats the same few targets thousands of times, so every reading (the checks of
:func:`targetlang._checking.check_spec`: parse, print back, canonical form, resolve) is cached
per ``(spec, era)``; a generated log may hold a new target on every line, so the cache holds the
4,096 most recently used readings at most, and at most 256 K characters of their specs' text
(10 MB at the very most, see :class:`targetlang._cache.LruCache`): memory stays flat.

The release comes from the record's TVM version (AutoTVM v0.2's ``tvm_version``, the last column
of a v0.2 pickle row) or, for records that do not say, from the version the caller assumes
(``None``: TVM v0.22). Records before v0.10 are read in their era (``"0.6"``, ``"0.7"`` or
``"0.8"``, see :mod:`targetlang._eras`) with the era's registry; later records with the rules of
:func:`targetlang.parse` and the registry of their own release (or the one given).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import targetlang

from .._cache import LruCache
from .._checking import CheckFinding, check_spec
from .._eras import DEFAULT_ERA, release_reading
from .._registry import Registry, builtin_registry
from .._target import Target
from .._versions import RELEASES, Release, Version

__all__ = ["DEFAULT_ERA", "CheckFinding", "Reading", "TargetReader", "autotvm_rewrite"]

# Readings kept at once, besides the bound on their specs' text (_cache.TEXT_BUDGET).
# A reading holds parsed and resolved targets (about 2.7 KB for a 100-character spec): both bounds
# are more than a real log's distinct targets, so only a generated log ever reads again.
_CACHE_SIZE = 4096


@dataclass(frozen=True, slots=True)
class Reading:
    """What reading one spec in one era gave."""

    spec: str
    era: str  # the era the spec was read in: "0.22", "0.8", ...
    target: Target | None  # None when the spec does not read
    resolved: Target | None  # None when it does not read or does not resolve
    findings: tuple[CheckFinding, ...]
    reads_as_v08: bool = False  # it fails in v0.22's rules but reads with TVM v0.8's kinds

    @property
    def ok(self) -> bool:
        """Whether the spec reads, prints back exactly and resolves."""
        return not self.findings

    @property
    def kind(self) -> str | None:
        """The target's kind, when it reads."""
        return self.target.kind if self.target is not None else None

    @property
    def keys(self) -> tuple[str, ...] | None:
        """The resolved target's keys (what AutoTVM dispatches on), when it resolves."""
        return self.resolved.keys if self.resolved is not None else None

    @property
    def model(self) -> str | None:
        """``target.model`` as TVM's Python API gave it: ``"unknown"`` when not set."""
        if self.target is None:
            return None
        model = self.target.attrs.get("model")
        return model if isinstance(model, str) else "unknown"


def autotvm_rewrite(spec: str) -> str:
    """What AutoTVM's JSON log reader (v0.7 - v0.19) parsed: every ``-target`` replaced by
    ``-mtriple``, textually (spec section 9.2; ``-target_device_type`` is caught too, as in TVM)."""
    return spec.replace("-target", "-mtriple") if "-target" in spec else spec


class TargetReader:
    """Reads, prints back and resolves record targets, caching each distinct ``(spec, era)``.

    ``registry`` replaces TVM v0.22's registry for records of v0.10 and later (user kinds and
    tags); ``assume`` is the TVM version assumed for records that do not record theirs (a text
    such as ``"0.8.0"``, or the version or release read from one).
    """

    def __init__(self, registry: Registry | None = None, assume: str | Version | Release | None = None) -> None:
        self.registry = registry
        self.assume = assume
        if isinstance(assume, Release):
            self._assumed: Version | None = assume.version
        else:
            self._assumed = assume if isinstance(assume, Version) or assume is None else Version.find(assume)
        self._cache: LruCache[tuple[str, str, Registry | None], Reading] = LruCache(_CACHE_SIZE)
        # The same readings, by TVM version.
        self._by_version: LruCache[tuple[str, str | None], Reading] = LruCache(_CACHE_SIZE)
        # By TVM version, as the log writes it: a generated log may write a new one on every line.
        self._contexts: LruCache[str | None, tuple[str, Registry | None]] = LruCache(1024)

    def era(self, tvm_version: str | None) -> str:
        """The era a record written by ``tvm_version`` (``None``: not recorded) is read in."""
        return self._context(tvm_version)[0]

    def _context(self, tvm_version: str | None) -> tuple[str, Registry | None]:
        """The era and the registry (``None``: the default) of records written by ``tvm_version``."""
        context = self._contexts.get(tvm_version)
        if context is None:
            version = Version.find(tvm_version) if tvm_version is not None else self._assumed
            found = RELEASES.get(str(version)) if version is not None else None
            if found is None:
                context = (DEFAULT_ERA, self.registry)
            else:
                rules, registry = release_reading(found)
                # A user registry stands in for the built-in ones of the releases parse reads as.
                context = (rules.name, self.registry if self.registry and rules.name == DEFAULT_ERA else registry)
            self._contexts.put(tvm_version, context)
        return context

    def read(self, spec: str, tvm_version: str | None = None) -> Reading:
        """The reading of ``spec`` as TVM ``tvm_version`` read it (cached)."""
        reading = self._by_version.get((spec, tvm_version))
        if reading is not None:
            return reading
        if spec.startswith("{"):
            # No TVM before v0.24 wrote a record's target as a JSON object: one in an older record
            # is what `logs migrate` wrote there, in the modern form, read as parse reads it.
            era, registry = DEFAULT_ERA, self.registry
        else:
            era, registry = self._context(tvm_version)
        key = (spec, era, registry)
        reading = self._cache.get(key)
        if reading is None:
            reading = self._read(spec, era, registry)
            self._cache.put(key, reading)
        self._by_version.put((spec, tvm_version), reading)
        return reading

    def _read(self, spec: str, era: str, registry: Registry | None) -> Reading:
        # the checks of `targetlang check`, with what a log's reader adds to their findings
        checked = check_spec(spec, registry=registry, era=era)
        findings = tuple(_in_logs(spec, found) for found in checked.findings)
        older = (
            checked.target is None
            and era == DEFAULT_ERA
            and findings[0].error in ("UnknownAttributeError", "UnknownKindError")
            and _reads(spec)
        )
        return Reading(spec, era, checked.target, checked.resolved, findings, older)


def _reads(spec: str) -> bool:
    try:
        targetlang.parse(spec, registry=builtin_registry("0.8"))
    except Exception:
        return False
    return True


def _in_logs(spec: str, found: CheckFinding) -> CheckFinding:
    """``found``, saying so when the option it is about is one AutoTVM's log reader rewrote."""
    if found.rule != "parse" or found.error != "UnknownAttributeError" or found.span is None:
        return found
    if spec[found.span[0] : found.span[1]] != "target" or "-target" not in spec:
        return found
    hint = ", which AutoTVM's JSON log reader (v0.7 - v0.19) rewrote"
    detail = found.message + hint + found.detail[len(found.message) :]
    return replace(found, message=found.message + hint, detail=detail)
