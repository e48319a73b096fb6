"""What a modern TVM's ``Target(config)`` rejects in a config of known kinds and attributes, read
from each release's data: the type of each attribute (``data/kinds-v0.27.json``, 0.27's own list
of each kind's options) and the checks of its canonicalisers (``data/checks-v0.27.json``: kind,
attribute, the condition the value must meet and when the check applies, the message and the
source line it comes from). tests/oracle/record_checks.py verifies the checks against apache-tvm
0.27.

A release without a checks file of its own has the checks of the next release that has one:
0.24 - 0.26 have 0.27's (their canonicalisers check the same conditions with the same messages;
only where the code stands and how it casts changed).

Unknown kinds and attributes are not this module's: the migration reports them by their own rule.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .._lexical import INT64_MAX, INT64_MIN
from .._versions import DATA, DISTRIBUTIONS, MODERN, MODERN_RELEASES, NAMED_DISTRIBUTIONS, Version, data_file

__all__ = ["Check", "Rejection", "checks", "checks_file", "null_targets", "option_types", "rejections"]

CHECKS_FILE = DATA / data_file("checks", str(MODERN))
KINDS_FILE = DATA / data_file("kinds", str(MODERN))

_MISSING: Any = object()  # an attribute the config does not set
_CONDITIONS = frozenset({"prefix", "equals", "one_of", "regex", "int64_groups", "min", "max", "items", "not"})
_C_SPACE = " \t\n\v\f\r"


@dataclass(frozen=True)
class Check:
    """One check of a 0.27 canonicaliser: ``attribute`` of a ``kind`` target must meet
    ``condition`` whenever one alternative of ``when`` holds (always, when there is none); else
    0.27 rejects the config with ``message`` (``{value}`` filled in). ``source``: where in TVM's
    source the check is."""

    id: str
    kind: str
    attribute: str
    condition: Mapping[str, Any]
    message: str
    source: str
    when: tuple[Mapping[str, Mapping[str, Any]], ...] = ()

    def applies(self, config: Mapping[str, Any]) -> bool:
        """Whether the check runs on ``config`` (a config of its kind)."""
        if config.get("kind") != self.kind or self.attribute not in config:
            return False
        return not self.when or any(
            all(_holds(config.get(name, _MISSING), cond) for name, cond in alternative.items())
            for alternative in self.when
        )

    def holds(self, value: Any) -> bool:
        """Whether ``value`` meets the condition."""
        return _holds(value, self.condition)

    def failing(self, value: Any) -> Any:
        """What in ``value`` (which fails the condition) 0.27's message names: the value, or its
        first item that fails."""
        items = self.condition.get("items")
        if len(self.condition) == 1 and items is not None and isinstance(value, list | tuple):
            return next((item for item in value if not _holds(item, items)), value)
        return value


@dataclass(frozen=True)
class Rejection:
    """Why 0.27 rejects one attribute of a config: ``check`` failed (``None``: its type is not the
    schema's), on ``value``; ``reason`` is 0.27's message."""

    attribute: str
    value: Any
    reason: str
    check: Check | None = None


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _equals(value: Any, expected: Any) -> bool:
    if isinstance(expected, bool):  # what a bool option holds: 0.27 reads an integer as a bool
        return isinstance(value, int) and bool(value) is expected
    return type(value) is type(expected) and bool(value == expected)


def _holds(value: Any, condition: Mapping[str, Any]) -> bool:
    for name, arg in condition.items():
        if name == "not":
            if _holds(value, arg):
                return False
            continue
        if value is _MISSING:
            return False
        if name == "prefix":
            ok = isinstance(value, str) and value.startswith(arg if isinstance(arg, str) else tuple(arg))
        elif name == "equals":
            ok = _equals(value, arg)
        elif name == "one_of":
            ok = any(_equals(value, option) for option in arg)
        elif name == "regex":
            ok = isinstance(value, str) and _matches(value, arg, condition.get("int64_groups", ()))
        elif name == "int64_groups":
            continue  # read with regex
        elif name == "min":
            ok = isinstance(value, int) and value >= arg
        elif name == "max":
            ok = isinstance(value, int) and value <= arg
        elif name == "items":
            ok = isinstance(value, list | tuple) and all(_holds(item, arg) for item in value)
        else:  # pragma: no cover - the data is checked when read
            raise ValueError(f"unknown condition {name!r}")
        if not ok:
            return False
    return True


@functools.lru_cache(maxsize=64)
def _pattern(regex: str) -> re.Pattern[str]:
    return re.compile(regex)


def _matches(value: str, regex: str, int64_groups: Sequence[str]) -> bool:
    match = _pattern(regex).fullmatch(value)
    if match is None:
        return False
    for group in int64_groups:
        digits = match.group(group)
        if digits is not None and not INT64_MIN <= int(digits.lstrip(_C_SPACE)) <= INT64_MAX:
            return False
    return True


def _valid_condition(condition: Any) -> bool:
    if not isinstance(condition, Mapping) or not condition or not set(condition) <= _CONDITIONS:
        return False
    if "regex" in condition:
        _pattern(condition["regex"])  # a bad pattern raises here, when the data is read
    return all(_valid_condition(condition[k]) for k in ("items", "not") if k in condition)


def _modern(release: str) -> str:
    """The name of distribution ``release``'s data files (``"0.27"`` for ``"v0.27.0"``)."""
    if release in NAMED_DISTRIBUTIONS:
        return release
    try:
        version: Version | None = Version.parse(release)
    except ValueError:
        version = None
    if version not in MODERN_RELEASES:
        raise ValueError(f"targetlang has no data of TVM {release}: it writes for {', '.join(DISTRIBUTIONS)}")
    return str(version)


@functools.cache
def checks_file(release: str = str(MODERN)) -> Path:
    """The checks file of modern release ``release``: its own, else the next release's that has
    one. A named distribution (``"tirx-0.1"``) has its own."""
    name = _modern(release)
    if name in NAMED_DISTRIBUTIONS:
        path = DATA / data_file("checks", name)
        if path.is_file():
            return path
        raise ValueError(f"targetlang has no checks of {release}")
    for later in MODERN_RELEASES:
        path = DATA / data_file("checks", str(later))
        if later >= Version.parse(name) and path.is_file():
            return path
    raise ValueError(f"targetlang has no checks of TVM {release} or a later release")


@functools.cache
def checks(release: str = str(MODERN)) -> tuple[Check, ...]:
    """The checks of release ``release``'s canonicalisers (``data/checks-v0.27.json``), in order."""
    path = checks_file(release)
    data = json.loads(path.read_text(encoding="utf-8"))
    found = []
    for entry in data["checks"]:
        when = tuple(entry.get("when", ()))
        conditions = [entry["condition"], *(c for alternative in when for c in alternative.values())]
        if not all(_valid_condition(c) for c in conditions):
            raise ValueError(f"{path.name}: check {entry['id']!r} has a condition this reader does not know")
        found.append(
            Check(
                entry["id"],
                entry["kind"],
                entry["attribute"],
                entry["condition"],
                entry["message"],
                entry["source"],
                when,
            )
        )
    return tuple(found)


@functools.cache
def null_targets(release: str = str(MODERN)) -> bool:
    """Whether ``Target(config)`` of ``release`` takes a null ``host`` and a null among a
    composite's ``devices`` (as none): 0.27 does; a checks file with ``"null_targets": false``
    says its release rejects them (TIRx)."""
    return bool(json.loads(checks_file(release).read_text(encoding="utf-8")).get("null_targets", True))


@functools.cache
def _checks_of(kind: str, release: str) -> tuple[Check, ...]:
    return tuple(check for check in checks(release) if check.kind == kind)


@functools.cache
def option_types(release: str = str(MODERN)) -> dict[str, dict[str, str]]:
    """Each kind's options and their types, as release ``release`` lists them (``int``,
    ``Array<str>``...)."""
    kinds = json.loads((DATA / data_file("kinds", _modern(release))).read_text(encoding="utf-8"))["kinds"]
    return {name: dict(kind["options"]) for name, kind in kinds.items()}


def _is_target(value: Any) -> bool:
    return value is None or isinstance(value, str | Mapping)


# What 0.27's conversion to each option type takes (ffi try_cast): a bool is an integer and an
# integer a bool; a nested target is a config (a null one is none); arrays are JSON arrays.
_TYPES: dict[str, Callable[[Any], bool]] = {
    "str": lambda v: isinstance(v, str),
    "int": lambda v: isinstance(v, int),
    "bool": lambda v: isinstance(v, int),
    "Array<str>": lambda v: isinstance(v, list | tuple) and all(isinstance(i, str) for i in v),
    "target.Target": _is_target,
    "Array<target.Target>": lambda v: isinstance(v, list | tuple) and all(_is_target(i) for i in v),
}


def rejections(config: Mapping[str, Any], release: str = str(MODERN)) -> list[Rejection]:
    """Why TVM ``release``'s ``Target(config)`` rejects ``config``, one level of it (a nested
    target is checked on its own): each attribute whose value is not of the schema's type, then
    each check that fails. Kinds and attributes the release does not know are left out."""
    kind = config.get("kind")
    types = option_types(release).get(kind) if isinstance(kind, str) else None
    if types is None:
        return []
    found: list[Rejection] = []
    if not null_targets(release):
        if "host" in config and config["host"] is None:
            found.append(Rejection("host", None, "Cannot create target with type: None"))
        devices = config.get("devices")
        if isinstance(devices, list | tuple) and any(device is None for device in devices):
            reason = "Expected Target, string, or dict in 'devices' array, got 'None'"
            found.append(Rejection("devices", devices, reason))
    for name, value in config.items():
        typ = types.get(name)
        accepts = _TYPES.get(typ) if typ is not None else None
        if accepts is not None and not accepts(value):
            found.append(Rejection(name, value, f"Option '{name}': expected type '{typ}'"))
    if found:
        return found  # 0.27 converts every option before its canonicaliser runs
    for check in _checks_of(str(kind), release):
        value = config.get(check.attribute)
        if check.applies(config) and not check.holds(value):
            bad = check.failing(value)
            found.append(Rejection(check.attribute, bad, check.message.format(value=_text(bad)), check))
    return found
