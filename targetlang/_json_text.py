"""JSON text read where it stands, without a tree: the offsets of a string token's characters,
the spans of an object's members, and the objects of a text in the order they end (what a
reading that decoded the text with the standard library needs to place its errors)."""

from __future__ import annotations

import json
import re

from ._lexical import Span

__all__ = ["DQ_BODY", "json_member_spans", "json_objects", "json_string_offsets"]


# A string token's string, without the trivia after it (runs in one step, as in the grammar).
DQ_BODY = re.compile(r'"(?:[^"\\]++|\\[\s\S])*+"')


def json_string_offsets(source: str, start: int, end: int) -> list[int]:
    """For each character a JSON string token decodes to, where it stands in ``source``."""
    offsets = []
    i = start + 1
    stop = end - 1
    while i < stop:
        offsets.append(i)
        if source[i] != "\\":
            i += 1
        elif source[i + 1] != "u":
            i += 2
        else:
            high = int(source[i + 2 : i + 6], 16)
            i += 6
            if (
                0xD800 <= high < 0xDC00
                and source.startswith("\\u", i)
                and 0xDC00 <= int(source[i + 2 : i + 6], 16) < 0xE000
            ):
                i += 6
    return offsets


# A JSON string (as DQ_BODY reads it), or a bracket, colon or comma outside strings.
_JSON_PUNCTUATION = re.compile(DQ_BODY.pattern + r"|[{}\[\]:,]")


_JSON_SPACE = " \t\n\r"


def json_member_spans(text: str) -> dict[str, Span]:
    """For each member of the strict JSON object ``text`` (the last of a repeated key): where its
    key starts and ends and where its value starts and ends, as the grammar's syntax tree has
    them. One pass over the text, however deeply it nests (tests/test_json_reading.py compares
    it with the tree)."""
    spans: dict[str, Span] = {}
    level = 0
    key: tuple[str, int, int] | None = None  # the member's key, once read
    value_start = -1  # where its value starts, once its colon is read
    for found in _JSON_PUNCTUATION.finditer(text):
        token = found.group()
        if token == "{" or token == "[":
            level += 1
            continue
        if token == "}" or token == "]":
            level -= 1
            if level:
                continue
        elif level != 1:
            continue
        elif token[0] == '"':
            if key is None:
                key = (json.loads(token), found.start(), found.end())
            continue
        elif token == ":":
            value_start = found.end()
            while text[value_start] in _JSON_SPACE:
                value_start += 1
            continue
        # a comma, or the object's closing brace: the member before it ends
        if key is not None:
            end = found.start()
            while text[end - 1] in _JSON_SPACE:
                end -= 1
            spans[key[0]] = (key[1], key[2], value_start, end)
            key = None
        if not level:
            break
    return spans


# Up to the next brace or bracket outside strings, or to the end: what lies before it (strings
# whole) is skipped inside the expression. A string never closed runs to the end, so that the
# text is scanned once: a search for the next string at each quote after it scanned the rest of
# the text again from each (80 kB of escaped quotes took 21 s).
_JSON_BRACKET_RUNS = re.compile(r'(?:[^"{}\[\]]++|"(?:[^"\\]++|\\[\s\S])*+(?:"|\\?\Z))*+([{}\[\]]|\Z)')


def json_objects(text: str, deepest_wanted: int | None = None) -> tuple[list[tuple[int, int]], int]:
    """Where each object of the JSON text ``text`` starts and ends, in the order their closing
    braces come (the order in which a decoder finishes them); and how deeply its arrays and
    objects nest. (Of a text that is not JSON, something meaningless, but no error.)

    The scan stops as soon as ``deepest_wanted`` levels are open (the spans found are then
    incomplete): a caller that reads no text nesting that deep needs no more, and 52 MB of text
    2,000,000 levels deep held 2,000,000 spans."""
    spans: list[tuple[int, int]] = []
    opened: list[int] = []  # where the objects open now start
    level = deepest = 0  # the arrays and objects open now, and the most ever open
    for found in _JSON_BRACKET_RUNS.finditer(text):
        char = found.group(1)
        if char == "{" or char == "[":
            level += 1
            if level > deepest:
                deepest = level
                if deepest == deepest_wanted:
                    break
            if char == "{":
                opened.append(found.end() - 1)
        elif char == "}":
            level -= 1
            if opened:  # (in text that is not JSON, it may not be)
                spans.append((opened.pop(), found.end()))
        elif char == "]":
            level -= 1
        else:
            break  # the end
    return spans, deepest
