"""Registry files: user kinds and tags in JSON or TOML, read, checked and written back.

A file holds what a registry adds to a built-in one (``Registry.to_dict``)::

    base = "0.22"

    [kinds.my-accelerator]
    attrs = { cores = { type = "int", default = 4 }, features = { type = "array<string>", ordered = false } }
    default_keys = ["accel"]
    leaf = true

    [tags."example/edge-box"]
    kind = "composite"
    host = "llvm -mtriple=aarch64-linux-gnu"
    devices = [{ kind = "my-accelerator", cores = 8 }]

``dump_registry`` writes the same data back, so a target text plus its registry file regenerate
the same object.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

from .errors import RegistryError, TargetError
from .parsing import parse
from .registry import Registry, builtin_registry

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

__all__ = ["check_registry", "dump_registry", "load_registry"]


def load_registry(path: str | Path) -> Registry:
    """Read a registry file (``.json`` or ``.toml``) and check every tag it defines."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RegistryError(f"cannot read registry file {path}: {exc.strerror or exc}") from None
    fmt = "toml" if path.suffix.lower() == ".toml" else "json"
    return check_registry(Registry.from_dict(_decode(text, fmt, str(path))))


def _decode(text: str, fmt: str, name: str) -> Any:
    try:
        if fmt == "toml":
            return tomllib.loads(text)
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RegistryError(f"{name}: not valid JSON: {exc.msg}", text, exc.pos, exc.pos + 1) from None
    except tomllib.TOMLDecodeError as exc:
        raise RegistryError(f"{name}: not valid TOML: {exc}") from None


def check_registry(registry: Registry) -> Registry:
    """Parse every tag the registry adds to its built-in base; raise the first error, naming the
    tag (unknown kinds or attributes in its config, a cycle of tags, ...)."""
    base = builtin_registry(registry.version or "0.22")
    for name, config in registry.tags.items():
        if base.tags.get(name) == config:
            continue
        try:
            parse(name, registry=registry).resolve()
        except TargetError as err:
            raise err.in_context(f"in tag {name!r}") from None
    return registry


def dump_registry(registry: Registry, fmt: str = "json") -> str:
    """The registry file text (``fmt`` is ``"json"`` or ``"toml"``) of what ``registry`` adds."""
    data = registry.to_dict()
    if fmt == "json":
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    if fmt != "toml":
        raise ValueError(f"unknown registry file format {fmt!r} (json or toml)")
    lines = [f"base = {_toml(data['base'])}"]
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
