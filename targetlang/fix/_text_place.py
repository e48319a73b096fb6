"""A place a text file holds a target, as the readers of shell scripts and configuration files
find it, and how the JSON to write there is quoted for where it stands."""

from __future__ import annotations

import bisect
import json
import re
from dataclasses import dataclass
from typing import Literal

__all__ = ["Lines", "Place", "Quoting", "quoted", "shell_quote"]

Quoting = Literal["shell", "yaml", "toml", "json", "bare", "like"]
"""How the JSON is written where the value stood: in single quotes for a shell or a YAML value,
a TOML literal string, a JSON string, as it is (an INI value), or in the value's own quotes."""


@dataclass(frozen=True)
class Place:
    """A value read as a target: ``text[start:end]`` is what was found (``before``), ``head`` the
    part of it kept before the written value (``--target ``, ``TARGET=``, ``target: ``; ``""`` for
    a list item), ``value`` the target text (unquoted, unescaped) and ``stood`` the value as it
    stood, quotes and all. A place is ``named`` when its key or option says it holds a target
    (``--target``, ``target:``): there a text that cannot be read is reported too; elsewhere only a
    text that reads as a legacy target of a known kind is one. ``many`` values are ``;``-separated
    (``TVM_TEST_TARGETS``)."""

    start: int
    end: int
    head: str
    value: str
    stood: str
    quoting: Quoting
    named: bool = True
    many: bool = False


def shell_quote(text: str) -> str:
    """``text`` as one word of a POSIX shell, in single quotes."""
    return "'" + text.replace("'", "'\"'\"'") + "'"


def quoted(text: str, place: Place) -> str:
    """``text`` (JSON, a tag) written where ``place``'s value stood."""
    if place.quoting == "shell":
        return shell_quote(text)
    if place.quoting == "json":
        return json.dumps(text)
    if place.quoting == "yaml":
        return "'" + text.replace("'", "''") + "'"  # unquoted, YAML would read the JSON as a mapping
    if place.quoting == "toml":
        return f"'{text}'" if "'" not in text and "\n" not in text else json.dumps(text)
    if place.quoting == "bare":
        return text
    if place.stood[:1] == "'" and "'" not in text:
        return f"'{text}'"
    if place.stood[:1] == '"':
        return "'" + text + "'" if "'" not in text else json.dumps(text)
    return text


class Lines:
    """Where the lines of a text start, found once, for the line and column of any offset: not
    counted from the start of the text for each one, which cost the square of its length (a
    shell script of 40,000 findings took 20 s)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts: list[int] | None = None  # (found on the first question: most texts are asked none)

    def line_col(self, offset: int) -> tuple[int, int]:
        """The line (from 1) and the column (from 1) of ``offset``; lines end at each ``\\n``."""
        if self.starts is None:
            self.starts = [0, *(found.end() for found in re.finditer("\n", self.text))]
        line = bisect.bisect_right(self.starts, offset)
        return line, offset - self.starts[line - 1] + 1

    def offset(self, line: int, column: int) -> int:
        """The offset of ``line`` and ``column`` (both from 1)."""
        self.line_col(0)
        assert self.starts is not None
        return self.starts[min(line, len(self.starts)) - 1] + column - 1
