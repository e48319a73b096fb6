"""Registry files: user kinds and tags in JSON or TOML, read, checked and written back.

A file holds what a registry adds to a built-in one (``Registry.to_dict``)::

    base = "0.22"

    [kinds.my-accelerator]
    attrs = { cores = { type = "int", default = 4 }, extensions = { type = "array<string>", ordered = false } }
    default_keys = ["accel"]
    leaf = true

    [tags."example/edge-box"]
    kind = "composite"
    host = "llvm -mtriple=aarch64-linux-gnu"
    devices = [{ kind = "my-accelerator", cores = 8 }]

``base`` is the built-in registry extended (``"0.22"`` when absent, ``"none"`` for none);
``removed_kinds`` and ``removed_tags`` list what the registry drops from it. ``dump_registry``
writes the same data back, so a target text plus its registry file regenerate the same object.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

from ._parsing import parse
from ._registry import Registry
from .errors import RegistryError, TargetError, show

__all__ = ["check_registry", "dump_registry", "load_registry"]


def load_registry(path: str | Path) -> Registry:
    """Read a registry file (``.json`` or ``.toml``) and check every tag it defines.

    Raises :class:`RegistryError` (or the error of a tag that does not parse), its message
    starting with the file's name."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise RegistryError(f"cannot read registry file {path}: {exc.strerror or exc}") from None
    fmt = "toml" if path.suffix.lower() == ".toml" else "json"
    try:
        return check_registry(Registry.from_dict(_decode(data, fmt)))
    except TargetError as err:
        raise err.in_context(str(path)) from None


def _decode(data: bytes, fmt: str) -> Any:
    try:
        # utf-8-sig: a byte-order mark written by a Windows editor is not part of the data.
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise RegistryError(f"not UTF-8 text ({err.reason} at byte {err.start})") from None
    try:
        if fmt == "toml":
            return tomllib.loads(text)
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RegistryError(f"not valid JSON: {exc.msg}", text, exc.pos, exc.pos + 1) from None
    except tomllib.TOMLDecodeError as exc:
        raise RegistryError(f"not valid TOML: {exc}") from None
    except RecursionError:  # json and tomllib read nesting recursively
        raise RegistryError(f"the {fmt.upper()} nests too deeply to read") from None


def check_registry(registry: Registry) -> Registry:
    """Parse every tag the registry adds to its built-in base; raise the first error, naming the
    tag (unknown kinds or attributes in its config, a cycle of tags, ...)."""
    base_tags = registry.base.tags if registry.base is not None else {}
    for name, config in registry.tags.items():
        if base_tags.get(name) == config:
            continue
        try:
            parse(name, registry=registry).resolve()
        except TargetError as err:
            context = f"in tag {show(name)}"
            # The parser names the tag it expands for most errors already (not for a cycle).
            raise (err if err.message.startswith(f"{context}: ") else err.in_context(context)) from None
    return registry


def dump_registry(registry: Registry, fmt: str = "json") -> str:
    """The registry file text (``fmt`` is ``"json"`` or ``"toml"``) of what ``registry`` adds."""
    data = registry.to_dict()
    if fmt == "json":
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    if fmt != "toml":
        raise ValueError(f"unknown registry file format {fmt!r} (json or toml)")
    lines = [f"{key} = {_toml(data[key])}" for key in ("base", "removed_kinds", "removed_tags") if key in data]
    for section in ("kinds", "tags"):
        for name, table in data[section].items():
            lines.append("")
            lines.append(f"[{section}.{_toml_key(name)}]")
            lines.extend(f"{_toml_key(key)} = {_toml(value)}" for key, value in table.items())
    return "\n".join(lines) + "\n"


_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def _toml_key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else json.dumps(key, ensure_ascii=False)


def _toml(value: Any) -> str:
    # JSON's string escapes are a subset of TOML's basic strings; TOML has no null.
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return json.dumps(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_toml_key(k)} = {_toml(v)}" for k, v in value.items()) + " }"
    raise RegistryError(f"a registry file cannot hold {value!r} (TOML has no null)")
