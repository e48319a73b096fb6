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

A table of a built-in kind says what it does to it: ``extend = true`` adds the attributes of its
``attrs`` and keeps the kind's own; ``replace = true`` redefines the kind as the table declares
it. A table with neither is a redefinition too, and an error where it drops (or retypes) one of
the built-in kind's attributes: a fork that adds ``code`` to ``cuda`` must not lose
``max_num_threads`` by accident.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ._parsing import parse
from ._registry import Registry
from ._schema import KindSchema
from ._tag_budget import checking_registry_tags
from .errors import RegistryError, TargetError, show

__all__ = ["MAX_KEY_PARTS", "MAX_TOML_BYTES", "check_registry", "dump_registry", "load_registry"]


def load_registry(path: str | Path) -> Registry:
    """Read a registry file (``.json`` or ``.toml``) and check every tag it defines.

    A table of a kind the base has extends it (``extend = true``), replaces it (``replace =
    true``), or else redefines it, which is an error if it drops or retypes one of the built-in
    kind's attributes. Raises :class:`RegistryError` (or the error of a tag that does not parse),
    its message starting with the file's name, and pointing at the kind's key for those errors."""
    path = Path(path)
    fmt = "toml" if path.suffix.lower() == ".toml" else "json"
    try:
        with path.open("rb") as file:
            # (one byte past the bound is enough to tell a TOML file too large)
            data = file.read(MAX_TOML_BYTES + 1) if fmt == "toml" else file.read()
    except OSError as exc:
        raise RegistryError(f"cannot read registry file {path}: {exc.strerror or exc}") from None
    try:
        text = _text(data, fmt)
        return check_registry(_registry_of(_decode(text, fmt), text, fmt))
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


def _text(data: bytes, fmt: str) -> str:
    if fmt == "toml" and len(data) > MAX_TOML_BYTES:
        raise RegistryError(
            f"the TOML is more than {MAX_TOML_BYTES:,} bytes, too large: a TOML registry file holds "
            f"{MAX_TOML_BYTES:,} bytes at most (a JSON one has no such bound)"
        )
    try:
        # utf-8-sig: a byte-order mark written by a Windows editor is not part of the data.
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise RegistryError(f"not UTF-8 text ({err.reason} at byte {err.start})") from None


def _decode(text: str, fmt: str) -> Any:
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
    base = registry.base
    if base is not None:
        for name, table in data["kinds"].items():
            if name in base.kinds:
                added = _added_attrs(base.kinds[name], registry.kinds[name], table)
                data["kinds"][name] = {_REPLACE: True, **table} if added is None else {_EXTEND: True, "attrs": added}
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
_EXTEND = "extend"
_REPLACE = "replace"
_SHOWN_ATTRS = 6  # dropped attributes named in an error; the rest counted


def _registry_of(data: Any, text: str, fmt: str) -> Registry:
    """The registry of a decoded registry file: ``Registry.from_dict`` of its plain tables, then
    each ``extend = true`` table added to its built-in kind; a redefinition of a built-in kind
    that drops or retypes one of its attributes, without ``replace = true``, is an error pointing
    at the kind's key in ``text``."""
    kinds = data.get("kinds") if isinstance(data, Mapping) else None
    if not isinstance(kinds, Mapping):
        return Registry.from_dict(data)  # (which says what is wrong with it, if anything)
    plain: dict[str, Any] = {}
    extensions: dict[str, Mapping[str, Any]] = {}
    replaced: set[str] = set()
    for name, table in kinds.items():
        if not isinstance(table, Mapping) or not (_EXTEND in table or _REPLACE in table):
            plain[name] = table
            continue
        extend, replace = (_flag(table, key, name, text, fmt) for key in (_EXTEND, _REPLACE))
        rest = {key: value for key, value in table.items() if key not in (_EXTEND, _REPLACE)}
        if extend and replace:
            raise _at(
                f"kind {show(name)} says both 'extend = true' and 'replace = true': an extension keeps the "
                "built-in kind's attributes, a replacement does not",
                name,
                text,
                fmt,
            )
        if extend:
            extensions[name] = rest
        else:
            plain[name] = rest
            if replace:
                replaced.add(name)
    registry = Registry.from_dict({**data, "kinds": plain})
    base = registry.base
    base_kinds: Mapping[str, KindSchema] = base.kinds if base is not None else {}
    removed = set(data.get("removed_kinds", ()))
    for name, table in extensions.items():
        kind = _extended(name, table, base_kinds.get(name), name in removed, registry, text, fmt)
        registry = registry.with_kind(kind)
    for name in plain:
        old = base_kinds.get(name)
        if old is not None and name not in replaced and name not in removed:
            _check_redefinition(old, registry.kinds[name], registry.version, text, fmt)
    return registry


def _flag(table: Mapping[str, Any], key: str, name: str, text: str, fmt: str) -> bool:
    value = table.get(key, False)
    if not isinstance(value, bool):
        got = "a string" if isinstance(value, str) else type(value).__name__
        raise _at(f"kind {show(name)}: {key!r} must be true or false, not {got}", name, text, fmt, key)
    return value


def _extended(
    name: str,
    table: Mapping[str, Any],
    old: KindSchema | None,
    removed: bool,
    registry: Registry,
    text: str,
    fmt: str,
) -> KindSchema:
    """Built-in kind ``old`` with the attributes an ``extend = true`` table adds."""
    where = f"kind {show(name)}"
    if old is None or removed:
        base = f"TVM v{registry.version}" if registry.version else '"none"'
        why = "the file removes it ('removed_kinds')" if removed else f"the file's base, {base}, has no such kind"
        message = f"{where} says 'extend = true', but {why}: declare the kind without 'extend'"
        raise _at(message, name, text, fmt)
    extra = sorted(set(table) - {"attrs"})
    if extra:
        raise _at(
            f"{where}: an extension adds attributes ('attrs') only, not {', '.join(map(repr, extra))}: to change "
            "the kind itself, redefine it with 'replace = true'",
            name,
            text,
            fmt,
        )
    attrs = table.get("attrs", {})
    # Read the new attributes as a kind of their own would have them (types, defaults, checks).
    alone = Registry.from_dict({"base": "none", "kinds": {name: {"attrs": attrs, "leaf": old.leaf}}}).kinds[name]
    clashing = [attr for attr in attrs if attr in old.attrs]
    if clashing:
        raise _at(
            f"{where}: {show(clashing[0])} is an attribute of the built-in kind already; an extension adds "
            "attributes: to change one, redefine the kind with 'replace = true'",
            name,
            text,
            fmt,
            clashing[0],
        )
    return KindSchema(
        old.name,
        {**old.attrs, **{attr: alone.attrs[attr] for attr in attrs}},
        old.default_keys,
        old.device_type,
        old.canonicalizer,
        old.preprocessor,
        leaf=old.leaf,
        modern_only=old.modern_only,
        common=old.common,
    )


def _check_redefinition(old: KindSchema, new: KindSchema, version: str, text: str, fmt: str) -> None:
    dropped = [attr for attr in old.attrs if attr not in new.attrs]
    retyped = [attr for attr in old.attrs if attr in new.attrs and new.attrs[attr].type != old.attrs[attr].type]
    if not dropped and not retyped:
        return
    if dropped:
        shown = ", ".join(map(show, dropped[:_SHOWN_ATTRS]))
        more = f" and {len(dropped) - _SHOWN_ATTRS} more" if len(dropped) > _SHOWN_ATTRS else ""
        what = f"drops its attribute{'s' if len(dropped) > 1 else ''} {shown}{more}"
    else:
        attr = retyped[0]
        what = f"changes the type of {show(attr)} from {old.attrs[attr].type} to {new.attrs[attr].type}"
    raise _at(
        f"kind {show(new.name)} redefines TVM v{version}'s built-in kind and {what}: to add attributes to it, "
        "write 'extend = true' and the new attributes only; to redefine it, write 'replace = true'",
        new.name,
        text,
        fmt,
    )


def _at(message: str, name: str, text: str, fmt: str, key: str | None = None) -> RegistryError:
    """A RegistryError about kind ``name``, pointing at its key in the file's text when found, or
    at ``key`` within the kind's table (its ``extend``, an attribute of its ``attrs``)."""
    span = _kind_key(text, fmt, name)
    if span is not None and key is not None:
        span = _key_after(text, fmt, key, span[1]) or span
    return RegistryError(message, text, *span) if span else RegistryError(message)


def _key_after(text: str, fmt: str, key: str, start: int) -> tuple[int, int] | None:
    """Where ``key`` is first written as a key after ``start``, the end of its kind's key: the
    kind's table holds it (the error is about it), before any table written after it."""
    spellings = _spellings(key, fmt)
    if fmt == "toml":
        pattern = rf"(?:^|[{{,])[ \t]*(?P<key>{'|'.join(spellings)})[ \t]*="
    else:
        pattern = rf"(?P<key>{spellings[0]})[ \t\r\n]*:"
    found = re.compile(pattern, re.MULTILINE).search(text, start)
    return (found.start("key"), found.end("key")) if found is not None else None


def _spellings(key: str, fmt: str) -> list[str]:
    """The patterns ``key`` may be written as in a registry file of ``fmt``: quoted as JSON, and in
    TOML also in single quotes and bare where it may be."""
    spellings = [re.escape(json.dumps(key, ensure_ascii=False))]
    if fmt == "toml":
        spellings.append(re.escape(f"'{key}'"))
        if _BARE_KEY.fullmatch(key):
            spellings.append(re.escape(key))
    return spellings


def _kind_key(text: str, fmt: str, name: str) -> tuple[int, int] | None:
    """Where the key of kind ``name`` is written in a registry file's text: its table's header
    (``[kinds.cuda]``), a dotted key (``kinds.cuda.attrs``), or its key within ``kinds``."""
    key = rf"(?P<key>{'|'.join(_spellings(name, fmt))})"
    if fmt == "toml":
        for pattern in (
            rf"^[ \t]*\[[ \t]*kinds[ \t]*\.[ \t]*{key}[ \t]*[.\]]",
            rf"^[ \t]*kinds[ \t]*\.[ \t]*{key}[ \t]*[.=]",
        ):
            found = re.search(pattern, text, re.MULTILINE)
            if found is not None:
                return found.start("key"), found.end("key")
        # Else a key of the [kinds] table, between its header and the next one.
        table = re.search(r"^[ \t]*\[[ \t]*kinds[ \t]*\][^\n]*", text, re.MULTILINE)
        if table is None:
            return None
        after = re.compile(r"^[ \t]*\[", re.MULTILINE).search(text, table.end())
        found = re.compile(rf"(?:^|[{{,])[ \t]*{key}[ \t]*=", re.MULTILINE).search(
            text, table.end(), after.start() if after is not None else len(text)
        )
    else:
        # JSON: the key within "kinds" (a kind's name written with other escapes is not found).
        table = re.search(r'"kinds"[ \t\r\n]*:', text)
        found = re.compile(rf"{key}[ \t\r\n]*:").search(text, table.end()) if table is not None else None
    if found is not None:
        return found.start("key"), found.end("key")
    return None


def _added_attrs(old: KindSchema, new: KindSchema, table: Mapping[str, Any]) -> dict[str, Any] | None:
    """The ``attrs`` table of the extension of ``old`` that ``new`` is, or None when ``new``
    changes what ``old`` had (then the file says ``replace = true``)."""
    extension = new.added_to(old)
    declared = table.get("attrs", {})
    if extension is None or any(attr not in declared for attr in extension):
        return None  # (an added attribute every kind has, not written in the table: a redefinition)
    return {attr: declared[attr] for attr in extension}


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
