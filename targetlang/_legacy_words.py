"""A legacy target string cut into its parts without the grammar's parser: words, the runs of
spaces between them, quoted regions kept whole (the grammar's own terminals, compiled once),
and each option's key and value with where they stand. What the grammar's tree gives, at a
fraction of the cost; long texts cut by a scanner that never backtracks."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from ._grammar_file import grammar_text
from ._lexical import Span
from .errors import EmptyKeyOrValueError, MissingDashError, show

__all__ = ["SPLIT_BELOW", "legacy_option", "legacy_parts", "legacy_spans", "legacy_words", "part_start", "word_parts"]


# A text shorter than this is split with str methods when it can be (read as plain, each word a
# run of non-spaces, when it has no quotes or backslashes); a longer one is scanned with the
# grammar's terminal, and its words are checked one by one.
SPLIT_BELOW = 4096


def legacy_parts(text: str) -> tuple[list[str], bool] | None:
    """A legacy string cut at the spaces that separate its words, or ``None`` for a text the
    grammar does not read as a legacy string: JSON, and what is rejected (:func:`parse_syntax`
    has the grammar's parser report it).

    ``" ".join(parts)`` is ``text``: each part is a word, or spaces, the part's and the one
    after it (an empty part is one space). A text shorter than 4,096 characters without quotes
    or backslashes is cut by ``text.split(" ")`` (its runs of spaces are empty parts) and the flag
    is true: every word is a run of non-spaces. Any other text is cut with the flag false: one
    with quotes but no backslashes or two spaces in a row at the spaces outside its quotes
    (:func:`_quoted_parts`); the rest is scanned, by one ``findall`` when it has no two spaces in
    a row, else word by word, a run of spaces a part of its own.

    The grammar's legacy rule, ``SEP? KIND (OPTION | WORD)*``, reads words that are runs of its
    ``_UNITS`` terminal (escape pairs, quoted regions, runs of other characters) separated by
    spaces, the first of which, the kind, does not start with ``{``. A text without
    quotes and backslashes is split at its spaces, and one without backslashes at the spaces
    outside its quotes (it has no escape pairs); any other is scanned with ``_UNITS`` as
    target.lark spells it. tests/test_scanner.py proves each reading identical to the parser's.
    """
    if len(text) < SPLIT_BELOW and "\\" not in text:
        if "'" not in text:
            parts = text.split(" ")
            plain = True
        else:
            quoted = _quoted_parts(text) if "  " not in text else _scanned_parts(text)
            if quoted is None:
                return None
            parts, plain = quoted, False
    else:
        scanned = _scanned_parts(text)
        if scanned is None:
            return None
        parts, plain = scanned, False
    kind = parts[0]
    if not kind or kind[0] == " ":  # spaces before the kind
        kind = next((part for part in parts if part and part[0] != " "), "")
        if not kind:
            return None
    return None if kind[0] == "{" else (parts, plain)


def legacy_words(text: str) -> list[tuple[str, int]] | None:
    """The words of a legacy string, each with where it starts (the spaces are what lies
    between), or ``None`` for a text that is not one (:func:`legacy_parts`)."""
    cut = legacy_parts(text)
    return None if cut is None else _words(cut[0])


def word_parts(words: Sequence[tuple[str, int]], length: int) -> list[str]:
    """The parts (:func:`legacy_parts`) of a text of ``length`` characters whose words are
    ``words`` (each with its start) and the rest spaces: each run of spaces one part."""
    parts: list[str] = []
    pos = 0  # where the next part starts
    for run, start in words:
        if start > pos:
            parts.append(" " * (start - pos - 1))  # and the space after it
        parts.append(run)
        pos = start + len(run) + 1
    if pos <= length:
        parts.append(" " * (length - pos))
    return parts


def legacy_option(parts: list[str], i: int, start: int, text: str) -> tuple[str, int, str, int, int, int]:
    """The option of a legacy string whose first word is ``parts[i]`` (:func:`legacy_parts`),
    which starts at ``start`` in ``text``: its key and where the key starts, its raw value (``""``
    for a flag, ``-key`` alone) and where the value starts, where the option ends, and the index
    of the part after it. The value is after ``=`` in the word, or else the next word when that
    does not start with ``-``. Raises :class:`MissingDashError` and :class:`EmptyKeyOrValueError`.
    """
    raw = parts[i]
    word_end = start + len(raw)
    if raw[0] != "-":
        raise MissingDashError(f"expected an option starting with '-', found {show(raw)}", text, start, word_end)
    body = raw.lstrip("-")
    if not body:
        raise MissingDashError(f"{show(raw)} is not an option: dashes need a key after them", text, start, word_end)
    key_start = word_end - len(body)
    key, eq, value = body.partition("=")
    if eq:
        if not key or not value:
            raise EmptyKeyOrValueError(f"empty attribute key or value in {show(raw)}", text, start, word_end)
        return key, key_start, value, key_start + len(key) + 1, word_end, i + 1
    following = i + 1
    value_start = word_end + 1
    while following < len(parts) and (not parts[following] or parts[following][0] == " "):
        value_start += len(parts[following]) + 1
        following += 1
    if following < len(parts) and parts[following][0] != "-":
        value = parts[following]
        return key, key_start, value, value_start, value_start + len(value), following + 1
    return key, key_start, "", word_end, word_end, i + 1


def legacy_spans(text: str) -> dict[str, Span]:
    """Where each option of a legacy string that reads stands in it, by key: the start of the
    option, the end of its key, the start and the end of its value."""
    cut = legacy_parts(text)
    if cut is None:
        raise ValueError("not a legacy string")
    parts = cut[0]
    spans: dict[str, Span] = {}
    kind = None  # the first word; every word after it starts an option, or is a value of one
    after = 0  # the first part an option has not taken
    pos = 0  # where part i starts
    for i, part in enumerate(parts):
        if i >= after and part and part[0] != " ":
            if kind is None:
                kind = part
            else:
                key, key_start, _, value_start, end, after = legacy_option(parts, i, pos, text)
                spans.setdefault(key, (pos, key_start + len(key), value_start, end))
        pos += len(part) + 1
    return spans


def part_start(parts: list[str], i: int) -> int:
    """Where part ``i`` of a text's parts (:func:`legacy_parts`) starts: past each part before
    it and the space after that."""
    return i + sum(map(len, parts[:i]))


def _words(parts: list[str]) -> list[tuple[str, int]]:
    words: list[tuple[str, int]] = []
    append = words.append
    pos = 0
    for run in parts:
        if run and run[0] != " ":
            append((run, pos))
        pos += len(run) + 1
    return words


def _quoted_parts(text: str) -> list[str] | None:
    """The parts of a text with quotes but no backslashes and no two spaces in a row, or ``None``
    for one with a quote never closed. Its words are runs of non-spaces and whole quoted regions
    (``_UNITS`` without its escapes), so it is cut at the spaces outside its quotes: the pieces
    between quotes alternate outside and inside, and the spaces of those outside are marked with
    a character the text does not hold. (A ``findall`` of ``_UNITS`` took longer, and slowed the
    reading of the texts after it.)"""
    pieces = text.split("'")
    if not len(pieces) % 2:
        return None  # a quote never closed
    if _MARK in text:
        return _scanned_parts(text)
    for i in range(0, len(pieces), 2):
        pieces[i] = pieces[i].replace(" ", _MARK)
    return "'".join(pieces).split(_MARK)


_MARK = "\0"


def _scanned_parts(text: str) -> list[str] | None:
    legacy, word, part = _scanners()
    # First the whole text, possessively, in one pass: a text that is no legacy string (a quote
    # never closed) would make findall retry at each character, rescanning the word it is in.
    if legacy.fullmatch(text) is None:
        return None
    if "  " in text:
        # Runs of spaces: matched word by word, each run's parts made at once (a match per
        # space took a second for 10 MB of them).
        return word_parts([(m.group(), m.start()) for m in word.finditer(text)], len(text))
    # Each match is a word or nothing, then a space or the end: the parts, and after a last word
    # that the end closes, one empty match more.
    parts = part.findall(text)
    if " ".join(parts) != text:
        parts.pop()
        if " ".join(parts) != text:
            return None
    return parts


@functools.cache
def _scanners() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """The legacy rule as one expression over the grammar's ``_UNITS``; one word of it; and a
    word or none, then the space after it."""
    found = re.search(r"^_UNITS: /(.+)/$", grammar_text(), re.M)
    if found is None:
        raise RuntimeError("target.lark has no _UNITS terminal")
    word = f"(?=[^ ]){found.group(1)}"  # a word starts with a unit, not a space
    return re.compile(f" *+(?:{word} *+)*+"), re.compile(word), re.compile(f"((?:{word})?)(?: |\\Z)")
