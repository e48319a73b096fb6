"""A project's folders and configuration files as ``targetlang fix`` reads them: the folders from a
path up to the project's root, the nearest ``targetlang.toml`` or ``pyproject.toml`` with a
``[tool.targetlang]`` table, a TOML file read (its errors with their line), where a key is written,
a path shown relative to where the command runs."""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..errors import RegistryError, SettingsError

__all__ = ["find_config", "line_of", "project_folders", "read_toml", "shown_path"]


def shown_path(path: Path) -> str:
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive
        return str(path)
    return str(path) if relative.startswith("..") else relative


def project_folders(directory: Path) -> Iterator[Path]:
    """``directory`` and the folders above it, up to the repository's root (the first that holds
    ``.git``), or up to the file system's root outside a repository."""
    for folder in (directory, *directory.parents):
        yield folder
        if (folder / ".git").exists():
            return


def read_toml(path: Path) -> tuple[str, dict[str, Any]]:
    from .._registry_files import MAX_TOML_BYTES, check_toml_keys

    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_TOML_BYTES + 1)
    except OSError as err:
        raise SettingsError(f"{shown_path(path)}: cannot read it: {err.strerror or err}") from None
    if len(data) > MAX_TOML_BYTES:
        raise SettingsError(f"{shown_path(path)}: more than {MAX_TOML_BYTES} bytes, more than fix reads")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise SettingsError(f"{shown_path(path)}: not UTF-8 text ({err.reason} at byte {err.start})") from None
    try:
        check_toml_keys(text)  # tomllib's time and memory on a key of many parts: bounded first
        return text, tomllib.loads(text)
    except RegistryError as err:
        raise SettingsError(f"{shown_path(path)}: {err.message}", text, err.start, err.end) from None
    except tomllib.TOMLDecodeError as err:
        raise SettingsError(f"{shown_path(path)}: not TOML: {err}") from None


def _config_in(folder: Path) -> tuple[Path, str, dict[str, Any]] | None:
    """The configuration of ``folder`` itself: its file, text and table, if it has one."""
    own = folder / "targetlang.toml"
    if own.is_file():
        text, data = read_toml(own)
        return own, text, data
    project = folder / "pyproject.toml"
    if project.is_file():
        text, data = read_toml(project)
        tool = data.get("tool")
        if isinstance(tool, dict) and "targetlang" in tool:
            table = tool["targetlang"]
            if not isinstance(table, dict):
                found = re.search(r"^[ \t]*(?:tool[ \t]*\.[ \t]*)?targetlang[ \t]*=", text, re.MULTILINE)
                line = text.count("\n", 0, found.start()) + 1 if found else 1
                raise SettingsError(f"{shown_path(project)}: line {line}: tool.targetlang is a table")
            return project, text, table
    return None


def find_config(start: Path) -> tuple[Path, str, dict[str, Any]] | None:
    """The configuration found from the folder ``start``: its file, text and table."""
    for folder in project_folders(start.resolve()):
        found = _config_in(folder)
        if found is not None:
            return found
    return None


def line_of(text: str, key: str, table: str = "tool.targetlang") -> int:
    """The line of ``text`` where ``key`` is set: its first ``key =`` in the table ``table`` (a
    dotted name; ``""`` the top level) if the text has that table, else at the top level, else
    the line of a ``[table.key]`` table, else where the table starts."""

    def header(name: str) -> re.Match[str] | None:
        parts = r"[ \t]*\.[ \t]*".join(rf"[\"']?{re.escape(part)}[\"']?" for part in name.split("."))
        return re.search(rf"^[ \t]*\[[ \t]*{parts}[ \t]*\]", text, re.MULTILINE)

    found = header(table) if table else None
    start = found.end() if found else 0
    following = re.compile(r"^[ \t]*\[", re.MULTILINE).search(text, start)
    end = following.start() if following else len(text)
    match = re.compile(rf"^[ \t]*[\"']?{re.escape(key)}[\"']?[ \t]*=", re.MULTILINE).search(text, start, end)
    own = header(f"{table}.{key}") if table and not match else None
    at = match.start() if match else own.start() if own else found.start() if found else 0
    return text.count("\n", 0, at) + 1
