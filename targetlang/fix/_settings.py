"""The configuration of ``targetlang fix``: ``[tool.targetlang]`` of a ``pyproject.toml``, or a
``targetlang.toml`` (its keys at the top level, as ``ruff.toml``), and the command line over it.

A path given on the command line takes the configuration found from it (a directory: from
itself; a file: from its directory; standard input: from the working directory): the nearest
folder above holding a ``targetlang.toml``, or a ``pyproject.toml`` with a ``[tool.targetlang]``
table (in one folder the ``targetlang.toml`` wins), searched up to the repository's root (the
folder holding ``.git``), as the project's line length is (:mod:`._layout`). Every file below
that path is fixed with those settings; a nested project's configuration is not read (give its
folder on the command line on its own to use it).
"""

from __future__ import annotations

import copy
import difflib
import fnmatch
import functools
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any, NoReturn

from ..errors import SettingsError
from ._apis import TargetApi, parse_api
from ._auto_version import auto_target_version
from ._project_files import find_config, line_of, shown_path
from ._rules import RULES

__all__ = [
    "CONFIG_NAMES",
    "DEFAULT_EXCLUDE",
    "KEYS",
    "Settings",
    "api_text",
    "ignored_for",
    "load_settings",
]

CONFIG_NAMES = ("targetlang.toml", "pyproject.toml")
"""The files a configuration is read from, the one that wins in a folder first."""

# Directories nobody wants rewritten: version control, environments, caches, build output.
DEFAULT_EXCLUDE = (
    ".git",
    ".hg",
    ".svn",
    ".venv",
    "venv",
    ".tox",
    ".nox",
    "__pycache__",
    "node_modules",
    "build",
    "dist",
    "site-packages",
    ".mypy_cache",
    ".ruff_cache",
    ".pytest_cache",
    ".eggs",
    ".ipynb_checkpoints",
)

KEYS = (
    "select",
    "ignore",
    "extend-select",
    "exclude",
    "extend-exclude",
    "per-file-ignores",
    "target-version",
    "registry",
    "docs",
    "line-length",
    "target-apis",
)
"""The keys of ``[tool.targetlang]``, in the order ``--show-settings`` prints them."""


@dataclass(frozen=True)
class Settings:
    """The settings in force for the files below one path.

    ``config`` is the file they were read from (``None``: none found), ``root`` the folder the
    globs of ``exclude``, ``extend-exclude`` and ``per-file-ignores`` are relative to (the
    config's, else the working directory). ``values`` holds every key of :data:`KEYS` with its
    value in force, ``sources`` where each came from (``default``, ``command line``, or the
    config file), ``notes`` what is worth saying (how ``target-version = "auto"`` decided)."""

    config: Path | None
    root: Path
    values: Mapping[str, Any]
    sources: Mapping[str, str]
    notes: tuple[str, ...] = field(default=())

    @property
    def select(self) -> tuple[str, ...] | None:
        """The rules to run (``None``: every rule), ``extend-select`` included."""
        chosen, extra = self.values["select"], self.values["extend-select"]
        if chosen is None and not extra:
            return None
        return tuple(dict.fromkeys([*(chosen if chosen is not None else RULES), *extra]))

    @property
    def ignore(self) -> tuple[str, ...]:
        return tuple(self.values["ignore"])

    @property
    def target_version(self) -> str:
        return str(self.values["target-version"])

    @property
    def registry(self) -> str | None:
        value = self.values["registry"]
        return None if value is None else str(value)

    @property
    def docs(self) -> bool:
        return bool(self.values["docs"])

    @property
    def line_length(self) -> int | None:
        value = self.values["line-length"]
        return None if value is None else int(value)

    @property
    def target_apis(self) -> tuple[TargetApi, ...]:
        return tuple(parse_api(text) for text in self.values["target-apis"])

    @property
    def exclude(self) -> tuple[str, ...]:
        """``exclude`` and ``extend-exclude``, the patterns that leave a file or folder out."""
        return (*self.values["exclude"], *self.values["extend-exclude"])

    @property
    def per_file_ignores(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        return tuple((glob, tuple(rules)) for glob, rules in self.values["per-file-ignores"].items())

    def excluded(self, path: str, below: str | None = None) -> bool:
        """Whether ``path`` (a file or folder met below a given path) is left out: one of its
        names matches a pattern of ``exclude`` or ``extend-exclude`` without a ``/``, or its
        path from :attr:`root` one with. With ``below`` (the path given, that ``path`` lies
        under) only the names below it count: a folder given is walked even inside an excluded
        one, as ruff walks it."""
        return _matches(path, self.root, list(self.exclude), below)

    def ignored_in(self, path: str) -> tuple[str, ...]:
        """The rules ``per-file-ignores`` turns off for ``path``."""
        return ignored_for(path, self.root, self.per_file_ignores)

    def shown(self) -> str:
        """What ``--show-settings`` prints: the file read, and each key, its value and source."""
        where = shown_path(self.config) if self.config is not None else "none (defaults)"
        lines = [f"config: {where}", f"root: {shown_path(self.root)}"]
        for key in KEYS:
            value = self.values[key]
            shown = _toml(value) if value is not None else _UNSET.get(key, "(none)")
            lines.append(f"{key} = {shown}  # {self.sources[key]}")
        lines += [f"note: {note}" for note in self.notes]
        return "\n".join(lines)


# what a key left unset means
_UNSET = {"select": "(every rule)", "line-length": "(the project's: [tool.ruff] or [tool.black], else 88)"}


def _toml(value: Any) -> str:
    if value is None:
        return "(none)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_toml(k)} = {_toml(v)}" for k, v in value.items()) + "}"
    return "[" + ", ".join(_toml(item) for item in value) + "]"


def ignored_for(path: str, root: Path, table: tuple[tuple[str, tuple[str, ...]], ...]) -> tuple[str, ...]:
    """The rules of ``table`` (``per-file-ignores``: glob, rule ids) turned off for ``path``."""
    found: list[str] = []
    for glob, rules in table:
        if _matches(path, root, [glob]):
            found += [rule for rule in rules if rule not in found]
    return tuple(found)


def api_text(api: TargetApi) -> str:
    """``api`` as ``--target-api`` and ``target-apis`` write it (``QUALNAME:ARG``)."""
    from ._apis import EVERY_POSITIONAL

    parts = ["*" if at == EVERY_POSITIONAL else str(at) for at in api.positions] + list(api.keywords)
    return f"{api.name}:{'='.join(parts)}"


def _matches(path: str, root: Path, patterns: list[str], below: str | None = None) -> bool:
    """gitignore's reading, in short: a pattern without ``/`` matches any name along the path; one
    with a ``/`` the path from ``root`` (a trailing ``/`` is dropped; ``*`` crosses folders). With
    ``below``, only the names of ``path`` below it, and its paths from ``root`` that end below it."""
    absolute = Path(os.path.abspath(path))
    try:
        relative: PurePosixPath | None = PurePosixPath(absolute.relative_to(root).as_posix())
    except ValueError:
        relative = None if below is not None else PurePosixPath(Path(path).as_posix())
    names = relative.parts if relative is not None else ()
    own = _parts_below(absolute, below) if below is not None else names
    if own is None:  # not below it after all: read as without it
        own = relative.parts if relative is not None else PurePosixPath(Path(path).as_posix()).parts
    first = max(1, len(names) - len(own) + 1)  # the shortest path from root that ends below it
    named, pathed = _globs(tuple(patterns))
    if named is not None and any(named.match(name) for name in own):
        return True
    return (
        pathed is not None
        and relative is not None
        and any(pathed.match("/".join(names[:end])) for end in range(first, len(names) + 1))
    )


@functools.lru_cache(maxsize=64)
def _globs(patterns: tuple[str, ...]) -> tuple[re.Pattern[str] | None, re.Pattern[str] | None]:
    """``patterns`` as two expressions, each matching what one of them matches as
    ``fnmatch.fnmatchcase`` does: those without a ``/`` (matched against a name), and those with
    one (against a path from the root; a trailing ``/`` dropped, and a leading one). (One match
    a name, where a call of ``fnmatchcase`` a name and a pattern was 146,000 calls over TVM's
    1,559 files.)"""
    named: list[str] = []
    pathed: list[str] = []
    for pattern in patterns:
        bare = pattern.rstrip("/")
        if "/" in bare:
            pathed.append(fnmatch.translate(bare.lstrip("/")))
        else:
            named.append(fnmatch.translate(bare))
    return _alternation(named), _alternation(pathed)


def _alternation(expressions: list[str]) -> re.Pattern[str] | None:
    return re.compile("|".join(f"(?:{each})" for each in expressions)) if expressions else None


def _parts_below(absolute: Path, below: str) -> tuple[str, ...] | None:
    try:
        return PurePosixPath(absolute.relative_to(os.path.abspath(below)).as_posix()).parts
    except ValueError:
        return None


_Complain = Callable[[str], NoReturn]


def _rule_list(value: Any, complain: _Complain) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        complain("a list of rule ids")
    unknown = [rule for rule in value if rule not in RULES]
    if unknown:
        guess = difflib.get_close_matches(unknown[0], RULES, n=1)
        hint = f" (did you mean {guess[0]!r}?)" if guess else f" (the rules: {', '.join(RULES)})"
        complain(f"rule ids; {unknown[0]!r} is none{hint}")
    return list(value)


def _checked(key: str, value: Any, complain: _Complain, folder: Path) -> Any:
    """``value`` of ``key`` as the settings hold it; ``complain(what)`` raises for a bad one."""
    from . import TARGET_VERSIONS

    if key in ("select", "ignore", "extend-select"):
        return _rule_list(value, complain)
    if key in ("exclude", "extend-exclude"):
        if not isinstance(value, list) or not all(isinstance(item, str) and item for item in value):
            complain("a list of glob patterns")
        return list(value)
    if key == "per-file-ignores":
        if not isinstance(value, dict):
            complain("a table of glob = [rule ids]")
        return {str(glob): _rule_list(rules, complain) for glob, rules in value.items()}
    if key == "target-version":
        if value != "auto" and value not in TARGET_VERSIONS:
            complain(f'"auto" or one of {", ".join(TARGET_VERSIONS)} (a string)')
        return value
    if key == "registry":
        if not isinstance(value, str) or not value:
            complain("the path of a registry file")
        return os.path.normpath(folder / value)
    if key == "docs":
        if not isinstance(value, bool):
            complain("true or false")
        return value
    if key == "line-length":
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            complain("a whole number from 1")
        return value
    if key == "target-apis":
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            complain('a list of "QUALNAME:ARG" strings')
        for text in value:
            try:
                parse_api(text)
            except ValueError as err:
                complain(f'"QUALNAME:ARG" strings; {text!r}: {err}')
        return list(value)
    raise AssertionError(key)


_DEFAULTS: dict[str, Any] = {
    "select": None,
    "ignore": [],
    "extend-select": [],
    "exclude": list(DEFAULT_EXCLUDE),
    "extend-exclude": [],
    "per-file-ignores": {},
    "target-version": None,  # the newest of TARGET_VERSIONS
    "registry": None,
    "docs": False,
    "line-length": None,  # the project's formatter's
    "target-apis": [],
}


def load_settings(start: str, given: Mapping[str, Any] | None = None) -> Settings:
    """The settings for the files below ``start`` (a path; ``-`` for standard input: the
    working directory's): its configuration's, with ``given`` (the command line's values, by
    key of :data:`KEYS`, each one given) over them. Raises :class:`SettingsError` for a
    configuration that cannot be read or holds a bad key or value."""
    from . import TARGET_VERSIONS

    folder = Path(os.getcwd() if start == "-" else (start if os.path.isdir(start) else os.path.dirname(start) or "."))
    found = find_config(folder)
    values = {key: copy.copy(value) for key, value in _DEFAULTS.items()}
    sources = dict.fromkeys(KEYS, "default")
    config: Path | None = None
    root = Path(os.getcwd())
    if found is not None:
        config, text, table = found
        root = config.parent
        label = shown_path(config) + (" [tool.targetlang]" if config.name == "pyproject.toml" else "")
        for key, value in table.items():
            if key not in KEYS:
                guess = difflib.get_close_matches(str(key), KEYS, n=1)
                hint = f"; did you mean {guess[0]!r}?" if guess else f"; the keys: {', '.join(KEYS)}"
                raise SettingsError(f"{shown_path(config)}: line {line_of(text, str(key))}: unknown key {key!r}{hint}")

            def complain(what: str, key: str = key, config: Path = config) -> NoReturn:
                raise SettingsError(f"{shown_path(config)}: line {line_of(text, key)}: {key} is {what}")

            values[key] = _checked(key, value, complain, root)
            sources[key] = label
    for key, value in (given or {}).items():
        values[key] = value
        sources[key] = "command line"
    notes: list[str] = []
    if values["target-version"] == "auto":
        version, note = auto_target_version(folder.resolve())
        values["target-version"] = version
        sources["target-version"] += " (auto)"
        notes.append(note)
    elif values["target-version"] is None:
        values["target-version"] = TARGET_VERSIONS[-1]
    return Settings(config, root, values, sources, tuple(notes))


