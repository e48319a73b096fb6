"""A legacy target whose text holds values known only at run time (the ``{cpu}`` of an
f-string, the ``%s`` of a template): which of them TVM's reader would have converted, and how to
write that conversion in the dict.

A placeholder (:mod:`._literal`) that is a whole value of an option is the run-time value TVM
read there: a string as it is, an integer through ``int()`` (written ``int(n)``, or ``n`` when
the code already is an ``int(...)`` call), an array of strings split at its commas
(``mattr.split(",")``). A boolean is not written (TVM read ``1``, ``true`` and more: no one
expression says which the value holds), nor a placeholder in an option's name: those stay
report-only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .._registry import Registry
from ._convert import reading_registry
from ._literal import PLACEHOLDER, Code

__all__ = ["SENTINEL", "Typed", "shown", "typed", "written_values"]

# Integers no real target holds and every release reads (below 2**31): each stands for one
# placeholder of an integer attribute while the text is read.
SENTINEL = 2_000_000_000
_OPTION = re.compile(r"(-{1,2})([^=\s]+)(?:=(.*))?\Z", re.S)


@dataclass(frozen=True)
class Typed:
    """The text to read (an integer placeholder replaced by its sentinel), the expressions
    written as ``int(...)`` (by sentinel) and as split arrays (by placeholder index), or
    ``problem`` when a run-time part cannot be written."""

    text: str
    integers: dict[int, int]
    arrays: frozenset[int]
    problem: str | None = None


def typed(text: str, registry: Registry | None) -> Typed:
    """``text`` (a legacy target with placeholders for run-time values) made ready to read."""
    words = text.split()
    kind = reading_registry(registry).kinds.get(words[0]) if words else None
    integers: dict[int, int] = {}
    arrays: set[int] = set()
    out = [words[0]] if words else []
    index = 1
    while index < len(words):
        word = words[index]
        option = _OPTION.match(word)
        if option is None:
            if PLACEHOLDER.search(word):
                return Typed(text, {}, frozenset(), "a run-time part that is not the value of an option")
            out.append(word)
            index += 1
            continue
        dashes, key, value = option[1], option[2], option[3]
        if PLACEHOLDER.search(dashes + key):
            return Typed(text, {}, frozenset(), "an option whose name is known only at run time")
        if value is None and index + 1 < len(words) and not words[index + 1].startswith("-"):
            value, index = words[index + 1], index + 1  # "-key value"
        spec = kind.attrs.get(key) if kind is not None else None
        type_name = spec.type.name if spec is not None else "string"
        whole = PLACEHOLDER.fullmatch(value or "")
        if value is not None and PLACEHOLDER.search(value):
            if type_name == "int" and whole:
                sentinel = SENTINEL + len(integers)
                integers[sentinel] = int(whole[1])
                value = str(sentinel)
            elif type_name == "array" and whole:
                arrays.add(int(whole[1]))
            elif type_name != "string":
                what = "a boolean" if type_name == "bool" else f"a part of an {type_name} value"
                return Typed(text, {}, frozenset(), f"{what} known only at run time (-{key})")
        out.append(f"{dashes}{key}" + ("" if value is None else f"={value}"))
        index += 1
    return Typed(" ".join(out), integers, frozenset(arrays))


def written_values(config: Any, kept: Typed, exprs: Sequence[str], quote: str) -> Any:
    """``config`` with each sentinel written as ``int(code)`` and each split array as
    ``code.split(",")``."""
    if isinstance(config, dict):
        return {key: written_values(value, kept, exprs, quote) for key, value in config.items()}
    if isinstance(config, list):
        if len(config) == 1 and isinstance(config[0], str):
            whole = PLACEHOLDER.fullmatch(config[0])
            if whole and int(whole[1]) in kept.arrays:
                return Code(f"{_atom(exprs[int(whole[1])])}.split({quote},{quote})")
        return [written_values(value, kept, exprs, quote) for value in config]
    if isinstance(config, int) and not isinstance(config, bool) and config in kept.integers:
        code = exprs[kept.integers[config]]
        return Code(code if re.fullmatch(r"int\(.*\)", code, re.S) else f"int({code})")
    return config


def _atom(code: str) -> str:
    """``code`` as an operand of ``.``: a name, call or subscript as it is, else parenthesised."""
    return code if re.fullmatch(r"[\w.]+(?:\(.*\)|\[.*\])?", code, re.S) else f"({code})"


def shown(text: str, exprs: Sequence[str]) -> str:
    """``text`` with each placeholder shown as ``{code}``: no private character reaches a message."""
    return PLACEHOLDER.sub(lambda match: "{" + exprs[int(match[1])] + "}", text)
