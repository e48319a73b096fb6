"""``target-version = "auto"``: the modern release a project is migrated for, read from the TVM
its requirements name (``pyproject.toml``'s dependencies, ``requirements*.txt``, ``setup.cfg``)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import NoReturn

from .._signals import signals_held
from .._versions import RELEASES
from ..errors import SettingsError
from ._project_files import line_of, project_folders, read_toml, shown_path

__all__ = ["auto_target_version"]


_REQUIREMENTS = re.compile(r"requirements.*\.txt\Z")


# pip's reading of a requirements file: a comment starts a line or follows white space; a line
# ending in a backslash goes on on the next; --hash and other options follow a requirement
_COMMENT = re.compile(r"(?:^|\s)#.*")


_OPTION = re.compile(r"\s--?[A-Za-z].*")


_SHAPES = {
    "dependencies": "a list of requirement strings",
    "optional-dependencies": "a table of lists of requirement strings",
}


def _project_requirements(project: Path) -> list[str]:
    """The ``[project]`` dependencies and optional-dependencies of the ``pyproject.toml``
    ``project``; :class:`SettingsError` naming the file, the line and the key for a table
    the packaging specification does not allow."""
    text, data = read_toml(project)
    table = data.get("project", {})

    def complain(key: str, what: str) -> NoReturn:
        line = line_of(text, key, "project") if key != "project" else line_of(text, "project", "")
        name = f"project.{key}" if key != "project" else key
        raise SettingsError(f"{shown_path(project)}: line {line}: {name} is {what}")

    if not isinstance(table, dict):
        complain("project", "a table")
    lists = [("dependencies", table.get("dependencies", []))]
    extras = table.get("optional-dependencies", {})
    if not isinstance(extras, dict) or not all(isinstance(extra, list) for extra in extras.values()):
        complain("optional-dependencies", _SHAPES["optional-dependencies"])
    lists += [("optional-dependencies", extra) for extra in extras.values()]
    found: list[str] = []
    for key, deps in lists:
        if not isinstance(deps, list) or not all(isinstance(dep, str) for dep in deps):
            complain(key, _SHAPES[key])
        found += deps
    return found


def _requirement_lines(text: str) -> Iterator[str]:
    """The requirements of a ``requirements*.txt`` text, each without its comment, options
    (``--hash``) and environment markers; option lines (``-r``, ``-c``, ``--index-url``) are
    left out, as files fix does not follow."""
    joined: list[str] = []
    for line in text.splitlines():
        line = _COMMENT.sub("", line)
        if line.endswith("\\"):
            joined.append(line[:-1])
            continue
        joined.append(line)
        whole, joined = " ".join(joined), []
        yield from _requirement(whole)
    if joined:  # a backslash on the last line
        yield from _requirement(" ".join(joined))


def _requirement(line: str) -> Iterator[str]:
    line = _OPTION.sub("", " " + line).split(";", 1)[0].strip()
    if line and not line.startswith("-"):
        yield line


def _tvm_requirements(folder: Path) -> list[tuple[str, str]]:
    """The requirements of the project in ``folder``: ``(where, requirement)``, from its
    ``pyproject.toml`` (``[project]`` dependencies and optional-dependencies) and the
    ``requirements*.txt`` files beside it."""
    texts: list[tuple[str, str]] = []
    project = folder / "pyproject.toml"
    if project.is_file():
        texts += [(shown_path(project), dep) for dep in _project_requirements(project)]
    try:
        names = sorted(name for name in os.listdir(folder) if _REQUIREMENTS.match(name))
    except OSError:
        names = []
    for name in names:
        try:
            text = (folder / name).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        texts += [(shown_path(folder / name), line) for line in _requirement_lines(text)]
    return texts


def auto_target_version(folder: Path) -> tuple[str, str]:
    """``target-version = "auto"``: the lowest of ``TARGET_VERSIONS`` the project's requirement on
    ``apache-tvm`` allows (as django-upgrade's ``--target-version auto``), with a note saying
    how; with no requirement, or one that allows none of them, the newest, with a note. The
    project is the nearest folder, from ``folder`` up to the repository's root, whose
    ``pyproject.toml`` or ``requirements*.txt`` names ``apache-tvm``. Raises
    :class:`SettingsError` for a ``pyproject.toml`` whose ``[project]`` table is malformed."""
    from . import TARGET_VERSIONS

    default = TARGET_VERSIONS[-1]
    try:
        with signals_held():  # (as every module a command imports as it runs: see _signals)
            from packaging.requirements import InvalidRequirement, Requirement
            from packaging.utils import canonicalize_name
            from packaging.version import Version
    except ImportError:
        return default, f"target-version auto: the packaging library is not installed; {default}, the default"
    found = []
    for project in project_folders(folder):  # the nearest project that names apache-tvm
        for where, text in _tvm_requirements(project):
            try:
                requirement = Requirement(text)
            except InvalidRequirement:
                continue  # another tool's line (a URL, an editable path): not ours to judge
            if canonicalize_name(requirement.name) == "apache-tvm":
                found.append((where, requirement))
        if found:
            break
    if not found:
        return default, f"target-version auto: no requirement on apache-tvm found; {default}, the default"
    said = ", ".join(f"{requirement} ({where})" for where, requirement in found)
    releases = [name for name in TARGET_VERSIONS if name in RELEASES]  # apache-tvm's, not TIRx's
    for release in releases:
        # a release is allowed when one of its patch releases is (>=0.25.1 allows 0.25)
        patches = [Version(f"{release}.{patch}") for patch in range(100)]
        if any(all(r.specifier.contains(v, prereleases=True) for _, r in found) for v in patches):
            return release, f"target-version auto: {release}, the lowest release allowed by {said}"
    return default, f"target-version auto: {said} allows none of {', '.join(releases)}; {default}, the default"
