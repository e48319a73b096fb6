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

from ._parsing import checking_registry_tags, parse
from ._registry import Registry
from .errors import RegistryError, TargetError, show

__all__ = ["MAX_KEY_PARTS", "MAX_TOML_BYTES", "check_registry", "dump_registry", "load_registry"]


def load_registry(path: str | Path) -> Registry:
    """Read a registry file (``.json`` or ``.toml``) and check every tag it defines.

    Raises :class:`RegistryError` (or the error of a tag that does not parse), its message
    starting with the file's name."""
    path = Path(path)
    fmt = "toml" if path.suffix.lower() == ".toml" else "json"
    try:
        with path.open("rb") as file:
            # (one byte past the bound is enough to tell a TOML file too large)
            data = file.read(MAX_TOML_BYTES + 1) if fmt == "toml" else file.read()
    except OSError as exc:
        raise RegistryError(f"cannot read registry file {path}: {exc.strerror or exc}") from None
    try:
        return check_registry(Registry.from_dict(_decode(data, fmt)))
    except TargetError as err:
        raise err.in_context(str(path)) from None


# What a TOML registry file may hold, for tomllib's sake. For each key it reads, tomllib keeps
# every prefix of the key's path (its table's header, then its own dotted parts) as a tuple of
# its own: a key of n parts costs it n * n (one line of 20,000 parts, 40 KB, took 6.2 s and
# 2.4 GB; 40,000 parts 34 s and 9.4 GB). And it holds some 500 bytes for each part of the keys
# and headers it has read, so only the size of the file bounds its memory: the densest keys and
# headers these bounds let through peak near 270 MB for 512 KiB (docs/reliability.md). TVM's
# whole table of kinds and tags written as TOML is 56 KB; 64 parts are more than the deepest
# target the parser reads by default needs even as one dotted key (host.host. ... .kind, 32
# hosts), and past them a tag's config nests beyond its own limit (MAX_CONFIG_DEPTH) anyway. A
# JSON file has no such bound: json reads any size in time and memory linear in it, with a
# small constant.
MAX_TOML_BYTES = 512 * 1024
MAX_KEY_PARTS = 64

# A part of a dotted key: a bare key, or a one-line string.
_PART = r"""(?:[A-Za-z0-9_-]++|"(?:[^"\\\n]++|\\.)*+"|'[^'\n]*+')"""
_PART_RE = re.compile(_PART)
_DOTTED = rf"{_PART}(?:[ \t]*+\.[ \t]*+{_PART})*+"
# What the scan of a TOML text steps over at once: a multi-line string (never a key), a table's
# header, a key (with its "=") or a bare word, float or time of a value, a one-line string, an
# inline table's brace, a comment. Every repetition is possessive and nothing is matched twice,
# so the scan is linear.
_TOML_SCAN = re.compile(
    r'"""(?:[^"\\]++|\\[\s\S]|"(?!""))*+"""'
    r"|'''(?:[^']++|'(?!''))*+'''"
    rf"|^[ \t]*+\[\[?+[ \t]*+(?P<header>{_DOTTED})"
    rf"|(?P<key>{_DOTTED})(?P<equals>[ \t]*+=)?"
    r"|(?P<open>\{)|(?P<close>\})"
    r"|#[^\n]*+",
    re.MULTILINE,
)


def check_toml_keys(text: str) -> None:
    """Raise a RegistryError at the first key whose path has more than MAX_KEY_PARTS parts: a
    table header's, or a key's with its table's header (a key in an inline table: its own),
    before tomllib reads the text."""
    if text.count(".") < MAX_KEY_PARTS - 1:
        return  # (too few dots for a path that long)
    header = braces = 0  # the parts of the table's header; the inline tables open
    for found in _TOML_SCAN.finditer(text):
        group = found.lastgroup
        if group == "header":
            above, key = 0, found.group("header")
        elif group == "equals":
            above, key = (0 if braces else header), found.group("key")
            if len(key) <= 2 * (MAX_KEY_PARTS - above):
                continue  # (a key of n parts spans 2n - 1 characters at least: within the bound)
        else:
            if group == "open":
                braces += 1
            elif group == "close" and braces:
                braces -= 1
            continue
        parts = above + len(_PART_RE.findall(key))
        if parts > MAX_KEY_PARTS:
            line = text.count("\n", 0, found.start()) + 1
            what = "a table header" if group == "header" else "a dotted key"
            table = f" ({above} of them its table's)" if above else ""
            raise RegistryError(
                f"line {line}: {what} of {parts:,} parts{table} is too deep: a key of the TOML targetlang "
                f"reads has {MAX_KEY_PARTS} parts at most, its table's included"
            )
        if group == "header":
            header, braces = parts, 0


def _decode(data: bytes, fmt: str) -> Any:
    if fmt == "toml" and len(data) > MAX_TOML_BYTES:
        raise RegistryError(
            f"the TOML is more than {MAX_TOML_BYTES:,} bytes, too large: a TOML registry file holds "
            f"{MAX_TOML_BYTES:,} bytes at most (a JSON one has no such bound)"
        )
    try:
        # utf-8-sig: a byte-order mark written by a Windows editor is not part of the data.
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise RegistryError(f"not UTF-8 text ({err.reason} at byte {err.start})") from None
    try:
        if fmt == "toml":
            check_toml_keys(text)
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
    with checking_registry_tags():
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
