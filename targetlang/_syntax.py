"""The lossless syntax layer: ``grammar/target.lark`` turned into nodes that keep every character.

A :class:`LegacySyntax` is the kind word and the words after it, each with the separator spaces
that follow it; a :class:`JsonSyntax` is a tree of JSON nodes whose tokens carry their trailing
whitespace. Either prints back to its source exactly. Meaning is given one layer up.
"""

from __future__ import annotations

import contextvars
import json
import re
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from ._grammar_file import grammar_text
from ._json_text import DQ_BODY
from ._legacy_words import legacy_words
from ._signals import signals_held
from .errors import InvalidJSONError, MismatchedQuoteError, NestingTooDeepError, TargetError, TargetSyntaxError

if TYPE_CHECKING:
    # lark is imported by the first parse (_get_parser), not with the module: it is most of what
    # importing targetlang used to cost.
    import lark

__all__ = [
    "JsonArray",
    "JsonNode",
    "JsonObject",
    "JsonScalar",
    "JsonSyntax",
    "LegacySyntax",
    "Word",
    "grammar_syntax",
    "parse_syntax",
]


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
        found = (DQ_BODY if text[0] == '"' else _SQ_BODY).match(text)
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
        # (the stops held while lark, and the regex module it may import, are imported and the
        # parser is made: a handler that raised there could crash an extension module's
        # initialisation, or leave a class half made; see _signals)
        with _lock, signals_held():
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
