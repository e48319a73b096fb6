"""The lossless syntax layer: ``grammar/target.lark`` turned into nodes that keep every character.

A :class:`LegacySyntax` is the kind word and the words after it, each with the separator spaces
that follow it; a :class:`JsonSyntax` is a tree of JSON nodes whose tokens carry their trailing
whitespace. Either prints back to its source exactly. Meaning is given one layer up.
"""

from __future__ import annotations

import contextvars
import functools
import json
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from .errors import (
    EmptyKeyOrValueError,
    InvalidJSONError,
    MismatchedQuoteError,
    MissingDashError,
    NestingTooDeepError,
    TargetError,
    TargetSyntaxError,
    show,
)

if TYPE_CHECKING:
    # lark is imported by the first parse (_get_parser), not with the module: it is most of what
    # importing targetlang used to cost.
    import lark

__all__ = [
    "SPLIT_BELOW",
    "JsonArray",
    "JsonNode",
    "JsonObject",
    "JsonScalar",
    "JsonSyntax",
    "LegacySyntax",
    "Word",
    "grammar_path",
    "grammar_syntax",
    "grammar_text",
    "json_member_spans",
    "json_objects",
    "json_string_offsets",
    "legacy_option",
    "legacy_parts",
    "legacy_spans",
    "legacy_words",
    "parse_syntax",
    "part_start",
    "word_parts",
]


def grammar_path() -> Path:
    """Where ``target.lark`` is: inside the installed package, or in the source tree."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "grammar" / "target.lark", here.parent / "grammar" / "target.lark"):
        if candidate.is_file():
            return candidate
    raise FileNotFoundError("target.lark is missing from the targetlang installation")


def grammar_text() -> str:
    """The grammar, the single source of truth for the syntax."""
    return grammar_path().read_text(encoding="utf-8")


class Word(NamedTuple):
    """One word of a legacy string: its raw text, where it starts, and the spaces after it.

    A named tuple: a legacy string is read word by word, and a tuple is the cheapest object to
    make."""

    text: str
    start: int
    trail: str

    @property
    def end(self) -> int:
        return self.start + len(self.text)


@dataclass(frozen=True, slots=True)
class LegacySyntax:
    """``KIND -opt=value -opt value -flag`` with every space kept."""

    lead: str
    kind: Word
    words: tuple[Word, ...]

    def render(self) -> str:
        parts = [self.lead, self.kind.text, self.kind.trail]
        for word in self.words:
            parts.append(word.text)
            parts.append(word.trail)
        return "".join(parts)


@dataclass(frozen=True, slots=True)
class JsonScalar:
    """A JSON string, number, ``true``, ``false`` or ``null``."""

    value: Any
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class JsonArray:
    items: tuple[JsonNode, ...]
    start: int
    end: int
    depth: int = 1

    @property
    def value(self) -> list[Any]:
        return [item.value for item in self.items]


@dataclass(frozen=True, slots=True)
class JsonObject:
    """An object; ``members`` keeps duplicates and order, ``value`` keeps the last of each key."""

    members: tuple[tuple[str, JsonScalar, JsonNode], ...]
    start: int
    end: int
    depth: int = 1

    @property
    def value(self) -> dict[str, Any]:
        return {key: node.value for key, _, node in self.members}

    def member(self, key: str) -> tuple[JsonScalar, JsonNode] | None:
        found = None
        for name, key_node, node in self.members:
            if name == key:
                found = (key_node, node)
        return found


JsonNode = JsonScalar | JsonArray | JsonObject
_NODES = (JsonScalar, JsonArray, JsonObject)


@dataclass(frozen=True, slots=True)
class JsonSyntax:
    """A JSON object text; ``text`` is the source, ``root`` its tree."""

    text: str
    root: JsonObject

    def render(self) -> str:
        return self.text


# JSON's literals, and Python's, since JSON-ish text is often a dict copied from Python code.
_LITERALS = {"true": True, "false": False, "null": None, "True": True, "False": False, "None": None}
_TRIVIA_START = re.compile(r"[ \t\n\r#]|//")
_SQ_ESCAPE = re.compile(r"""\\(.)|(")""", re.S)
# A string token's string, without the trivia after it (runs in one step, as in the grammar).
_DQ_BODY = re.compile(r'"(?:[^"\\]++|\\[\s\S])*+"')
_SQ_BODY = re.compile(r"'(?:[^'\\]++|\\[\s\S])*+'")

MAX_JSON_DEPTH = 100
"""How deeply JSON arrays and objects may nest by default (``parse_syntax``'s ``json_depth``);
deeper text is a NestingTooDeepError, never a RecursionError (the parser itself keeps an
explicit stack; later stages recurse)."""

# The limit of the parse under way, read by the node builders inside the shared parser.
_JSON_DEPTH: contextvars.ContextVar[int] = contextvars.ContextVar("targetlang_json_depth", default=MAX_JSON_DEPTH)
# The arrays and objects open at the token the grammar's parser reads now, counted by the lexer
# (one counter a parse, in a list: the lexer's callbacks return the token and keep no state).
_OPEN: contextvars.ContextVar[list[int]] = contextvars.ContextVar("targetlang_json_open")


def _opened(token: lark.Token) -> lark.Token:
    # An LALR parser makes a node when its closing bracket comes: text 2,000,000 levels deep
    # held every level's tokens and states before the first node could be found too deep (over
    # a minute and 3.8 GB for 52 MB). Counted as each opening bracket is read, the error comes at
    # the first one too deep, in time and memory of what comes before it. (The nodes' own count
    # below then never finds a node too deep: a node deeper than the limit has a bracket that
    # deep, read before the node is made.)
    open_now = _OPEN.get()
    open_now[0] += 1
    limit = _JSON_DEPTH.get()
    if open_now[0] > limit:
        raise NestingTooDeepError(f"JSON nests more than {limit} levels deep")
    return token


def _closed(token: lark.Token) -> lark.Token:
    _OPEN.get()[0] -= 1
    return token


def _depth(children: Any) -> int:
    depth = 1 + max((getattr(c, "depth", 0) for c in children), default=0)
    limit = _JSON_DEPTH.get()
    if depth > limit:
        raise NestingTooDeepError(f"JSON nests more than {limit} levels deep")
    return depth


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


# A JSON string (as _DQ_BODY reads it), or a bracket, colon or comma outside strings.
_JSON_PUNCTUATION = re.compile(_DQ_BODY.pattern + r"|[{}\[\]:,]")
_JSON_SPACE = " \t\n\r"


def json_member_spans(text: str) -> dict[str, tuple[int, int, int, int]]:
    """For each member of the strict JSON object ``text`` (the last of a repeated key): where its
    key starts and ends and where its value starts and ends, as the grammar's syntax tree has
    them. One pass over the text, however deeply it nests (tests/test_json_reading.py compares
    it with the tree)."""
    spans: dict[str, tuple[int, int, int, int]] = {}
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


def _split_trail(text: str) -> tuple[str, str]:
    body = text.rstrip(" ")
    if len(body) != len(text) and body.endswith("\\"):
        run = len(body) - len(body.rstrip("\\"))
        if run % 2:
            body = text[: len(body) + 1]
    return body, text[len(body) :]


def _word(token: lark.Token) -> Word:
    body, trail = _split_trail(str(token))
    return Word(body, token.start_pos or 0, trail)


def _body(token: lark.Token) -> str:
    """The token without the whitespace and comments it carries."""
    text = str(token)
    if text[0] == '"' or text[0] == "'":
        found = (_DQ_BODY if text[0] == '"' else _SQ_BODY).match(text)
        assert found is not None  # the token is a STRING or SQSTRING
        end = found.end()
        return text if end == len(text) else text[:end]
    found = _TRIVIA_START.search(text)
    return text if found is None else text[: found.start()]


def _sq_to_json(text: str) -> str:
    # A single-quoted string as the double-quoted JSON string with the same characters.
    def swap(m: re.Match[str]) -> str:
        if m.group(2):
            return '\\"'
        return "'" if m.group(1) == "'" else m.group(0)

    return '"' + _SQ_ESCAPE.sub(swap, text[1:-1]) + '"'


class _LongNumber(Exception):
    """A JSON number too long to read, at ``start:end``; :func:`parse_syntax` says so."""

    def __init__(self, start: int, end: int) -> None:
        super().__init__(start, end)
        self.start, self.end = start, end


def _scalar(token: lark.Token, *, key: bool = False) -> JsonScalar:
    text = _body(token)
    start = token.start_pos or 0
    kind = token.type
    value: Any
    if kind == "STRING" or kind == "SQSTRING":
        inner = text[1:-1]
        if "\\" not in inner and '"' not in inner:
            value = inner
        else:
            value = json.loads(text if kind == "STRING" else _sq_to_json(text))
    elif kind == "NUMBER":
        try:
            value = json.loads(text)
        except ValueError:  # more digits than Python's int() takes: more than any target holds
            raise _LongNumber(start, start + len(text)) from None
    elif key:
        value = text
    else:
        value = _LITERALS.get(text, text)
    return JsonScalar(value, start, start + len(text))


def _node(child: Any) -> JsonNode:
    if isinstance(child, _NODES):
        node: JsonNode = child
        return node
    return _scalar(child)  # a token


def _closing_end(token: lark.Token) -> int:
    return (token.start_pos or 0) + 1


def _builder() -> Any:
    """The node builders, applied inside the LALR parser, so no generic parse tree is ever built.

    The class is made on the first parse, when lark is imported."""
    import lark

    class _Build(lark.Transformer[lark.Token, Any]):
        def start(self, children: list[Any]) -> Any:
            return children[0]

        def legacy(self, children: list[lark.Token]) -> LegacySyntax:
            lead = ""
            if children[0].type == "SEP":
                lead = str(children[0])
                children = children[1:]
            return LegacySyntax(lead, _word(children[0]), tuple(_word(t) for t in children[1:]))

        def json(self, children: list[JsonObject]) -> JsonObject:
            return children[0]

        def object(self, children: list[Any]) -> JsonObject:
            members = tuple(c for c in children if isinstance(c, tuple))
            depth = _depth(node for _, _, node in members)
            return JsonObject(members, children[0].start_pos or 0, _closing_end(children[-1]), depth)

        def member(self, children: list[Any]) -> tuple[str, JsonScalar, JsonNode]:
            key = _scalar(children[0], key=True)
            return (key.value, key, _node(children[2]))

        def array(self, children: list[Any]) -> JsonArray:
            # the children between the brackets: nodes, tokens of scalars, and COMMA tokens
            items = tuple(_node(c) for c in children[1:-1] if isinstance(c, _NODES) or c.type != "COMMA")
            return JsonArray(items, children[0].start_pos or 0, _closing_end(children[-1]), _depth(items))

    return _Build()


_parser: lark.Lark | None = None
_lock = threading.Lock()


def _get_parser() -> lark.Lark:
    global _parser
    if _parser is None:
        with _lock:
            if _parser is None:
                # Where interegular happens to be installed, lark checks every pair of terminals
                # for collisions on each build: 300 ms of a first parse. tests/test_grammar.py
                # builds the grammar with strict=True, which makes that check an error; at run
                # time it would only repeat it.
                import lark
                import lark.lexer

                checks = lark.lexer.has_interegular
                lark.lexer.has_interegular = False
                try:
                    _parser = lark.Lark(
                        grammar_text(),
                        parser="lalr",
                        lexer="contextual",
                        transformer=_builder(),
                        lexer_callbacks={
                            "LBRACE": _opened,
                            "LBRACKET": _opened,
                            "RBRACE": _closed,
                            "RBRACKET": _closed,
                        },
                    )
                finally:
                    lark.lexer.has_interegular = checks
    return _parser


def build_strict_parser() -> lark.Lark:
    """The grammar built with ``strict=True`` (needs ``interegular``): conflicts and terminal
    collisions fail loudly. The runtime parser is the same grammar without that check."""
    import lark

    return lark.Lark(grammar_text(), parser="lalr", lexer="contextual", strict=True)


def parse_syntax(text: str, json_depth: int = MAX_JSON_DEPTH) -> LegacySyntax | JsonSyntax:
    """Cut ``text`` into its lossless syntax; raise a :class:`TargetSyntaxError` if it has none.

    JSON text may nest arrays and objects ``json_depth`` levels deep.
    """
    if not text.strip(" "):
        raise TargetSyntaxError("cannot parse an empty target string", text, 0, len(text))
    token = _JSON_DEPTH.set(json_depth) if json_depth != MAX_JSON_DEPTH and text[0] == "{" else None
    try:
        return _parse_syntax(text)
    finally:
        if token is not None:
            _JSON_DEPTH.reset(token)


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


def legacy_spans(text: str) -> dict[str, tuple[int, int, int, int]]:
    """Where each option of a legacy string that reads stands in it, by key: the start of the
    option, the end of its key, the start and the end of its value."""
    cut = legacy_parts(text)
    if cut is None:
        raise ValueError("not a legacy string")
    parts = cut[0]
    spans: dict[str, tuple[int, int, int, int]] = {}
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


def _legacy_syntax(text: str) -> LegacySyntax | None:
    words = legacy_words(text)
    if words is None:
        return None
    follows = [start for _, start in words[1:]]
    follows.append(len(text))
    nodes = [
        Word(run, start, text[start + len(run) : follow]) for (run, start), follow in zip(words, follows, strict=True)
    ]
    return LegacySyntax(text[: words[0][1]], nodes[0], tuple(nodes[1:]))


def _parse_syntax(text: str) -> LegacySyntax | JsonSyntax:
    if text[0] != "{":
        legacy = _legacy_syntax(text)
        if legacy is not None:
            return legacy
    return grammar_syntax(text)


def grammar_syntax(text: str) -> LegacySyntax | JsonSyntax:
    """:func:`parse_syntax` by the grammar's LALR parser alone (the reference that
    :func:`legacy_words` is tested against); the text is not empty."""
    parser = _get_parser()
    import lark  # loaded by _get_parser; a lookup in sys.modules

    opened = _OPEN.set([0])
    try:
        tree = parser.parse(text)
    except lark.exceptions.UnexpectedInput as exc:
        raise _syntax_error(text, exc) from None
    except NestingTooDeepError as exc:
        raise exc.at(text, 0, len(text)) from None
    except _LongNumber as exc:
        digits = exc.end - exc.start
        message = f"invalid JSON: a number of {digits} characters, beyond any value a target holds"
        raise InvalidJSONError(message, text, exc.start, exc.end) from None
    except lark.exceptions.VisitError as exc:  # raised inside a node builder
        if isinstance(exc.orig_exc, NestingTooDeepError):
            raise exc.orig_exc.at(text, 0, len(text)) from None
        raise InvalidJSONError(f"invalid JSON: {exc.orig_exc}", text, 0, len(text)) from None
    finally:
        _OPEN.reset(opened)
    if isinstance(tree, JsonObject):
        return JsonSyntax(text, tree)
    if not isinstance(tree, LegacySyntax):
        raise TypeError("the grammar's transformer did not build a syntax node")
    return tree


def _syntax_error(text: str, exc: lark.exceptions.UnexpectedInput) -> TargetError:
    import lark

    pos = exc.pos_in_stream if exc.pos_in_stream is not None else len(text)
    if text.startswith("{"):
        at_end = isinstance(exc, lark.exceptions.UnexpectedToken) and exc.token.type == "$END"
        if at_end or isinstance(exc, lark.exceptions.UnexpectedEOF) or pos >= len(text):
            return InvalidJSONError("invalid JSON: the object is not closed", text, len(text), len(text))
        what = "character" if isinstance(exc, lark.exceptions.UnexpectedCharacters) else "token"
        return InvalidJSONError(f"invalid JSON: unexpected {what} {text[pos]!r}", text, pos, pos + 1)
    if pos < len(text) and text[pos] == "'":
        return MismatchedQuoteError("mismatched quote: this quote is never closed", text, pos, pos + 1)
    if pos < len(text) and text[pos] == "{":
        return TargetSyntaxError("a JSON target must start with '{' at the very first character", text, pos, pos + 1)
    return TargetSyntaxError(f"unexpected character {text[pos : pos + 1]!r}", text, pos, pos + 1)
