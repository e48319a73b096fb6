"""Where a configuration file (YAML, TOML, JSON, INI) or a configuration block of a document holds
a target: the value of any key (``tvm_target:``, ``host_target =``, ``"target":``), and the
items of a list (``targets: ["llvm -mcpu=a", "cuda"]``, YAML's ``- llvm -mcpu=a``).

A key named ``target`` or ``target_host`` says its value is a target; under any other key only a
value that reads as a legacy target of a known kind with options is one (the caller decides).
In JSON the JSON to write is a JSON string, not a nested object: the program that reads the file
then gets the type it read before (a string, which TVM >= 0.24 reads as JSON), and passes it on
as it did (to ``Target``, a ``--target`` option, a log line) unchanged.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

from ._text_place import Place, Quoting

__all__ = ["FORMATS", "places"]

FORMATS = {
    ".yaml": "yaml",
    ".yml": "yaml",
    ".toml": "toml",
    ".json": "json",
    ".cfg": "ini",
    ".ini": "ini",
    "yaml": "yaml",
    "yml": "yaml",
    "toml": "toml",
    "json": "json",
    "jsonc": "json",
    "json5": "json",
    "ini": "ini",
    "cfg": "ini",
}
"""The configuration format of a suffix or a code block's language."""

_NAMED = frozenset({"target", "target_host", "target-host"})
_DOUBLE = r"\"(?:[^\"\\\n]|\\.)*\""
_SINGLE = r"'[^'\n]*'"
_KEY = {
    "yaml": re.compile(rf"^[ \t]*(?:-[ \t]+)?(?P<key>[\w.-]+|{_DOUBLE}|{_SINGLE})(?P<sep>[ \t]*:[ \t]+)", re.M),
    "toml": re.compile(rf"^[ \t]*(?P<key>[\w.-]+|{_DOUBLE}|{_SINGLE})(?P<sep>[ \t]*=[ \t]*)", re.M),
    "ini": re.compile(r"^[ \t]*(?P<key>[\w.-]+)(?P<sep>[ \t]*[=:][ \t]*)", re.M),
    "json": re.compile(rf"(?P<key>{_DOUBLE})(?P<sep>\s*:\s*)"),
}
_QUOTED = re.compile(rf"{_DOUBLE}|{_SINGLE}")
_ITEM = re.compile(r"^[ \t]*-[ \t]+(?=\S)", re.M)  # a YAML block list's item
_COMMENT = {"yaml": re.compile(r"\s+#"), "ini": re.compile(r"\s+[#;]"), "toml": re.compile(r"\s+#")}


def _read(quoted: str) -> str:
    """The text of a quoted value."""
    if quoted[0] == '"':
        try:
            text = json.loads(quoted)
        except ValueError:
            return quoted[1:-1]
        return text if isinstance(text, str) else quoted[1:-1]
    return quoted[1:-1]


def _quoting(form: str, quoted: bool) -> Quoting:
    if form == "json":
        return "json"
    if form == "yaml" and not quoted:
        return "yaml"
    return "like"


def places(text: str, form: str) -> Iterator[Place]:
    """Every value of ``text`` (in the format ``form``: ``yaml``, ``toml``, ``json``, ``ini``)
    that may be a target, in no particular order."""
    for match in _KEY[form].finditer(text):
        key = match["key"].strip("\"'")
        named = key in _NAMED
        at = match.end()
        if text.startswith("[", at):
            yield from _items(text, at, form)
            continue
        found = _QUOTED.match(text, at)
        if found is not None:
            value = found[0]
            head = text[match.start("key") : at]
            yield Place(match.start("key"), found.end(), head, _read(value), value, _quoting(form, True), named)
        elif form in _COMMENT:
            bare = _bare(text, at, form)
            if bare:
                head = text[match.start("key") : at]
                quoting: Quoting = _quoting(form, False)
                yield Place(match.start("key"), at + len(bare), head, bare, bare, quoting, named)
    if form == "yaml":
        for match in _ITEM.finditer(text):
            at = match.end()
            found = _QUOTED.match(text, at)
            value = found[0] if found is not None else _bare(text, at, form)
            if value and not _KEY["yaml"].match(text, match.start()):
                read = _read(value) if found is not None else value
                yield Place(at, at + len(value), "", read, value, _quoting(form, found is not None), False)


def _bare(text: str, at: int, form: str) -> str:
    """An unquoted value from ``at``: the rest of its line, less a comment."""
    line_end = text.find("\n", at)
    rest = text[at : len(text) if line_end < 0 else line_end]
    cut = _COMMENT[form].search(rest)
    value = (rest if cut is None else rest[: cut.start()]).rstrip()
    return "" if value[:1] in "[{&*|>!%@`" else value


def _items(text: str, at: int, form: str) -> Iterator[Place]:
    """The quoted strings that are items of the list opened at ``at`` (not of a list in it)."""
    depth = 0
    index = at
    while index < len(text):
        char = text[index]
        if char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
            if depth == 0:
                return
        elif char in "\"'":
            found = _QUOTED.match(text, index)
            if found is None:
                return
            if depth == 1:
                value = found[0]
                yield Place(index, found.end(), "", _read(value), value, _quoting(form, True), False)
            index = found.end()
            continue
        elif char == "#" and form != "json":
            line_end = text.find("\n", index)
            index = len(text) if line_end < 0 else line_end
            continue
        index += 1
