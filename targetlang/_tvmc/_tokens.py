"""tvmc's names (its release, its codegens, their config fields), the errors of a list it
rejected, and its tokens: tvmc's tokenizer, with every character kept."""

from __future__ import annotations

import re
from typing import NamedTuple

from .._versions import Version
from ..errors import EmptyKeyOrValueError, MismatchedQuoteError, TargetError

__all__ = [
    "CODEGENS",
    "CODEGEN_FIELDS",
    "CODEGEN_FIELDS_LAST",
    "QUOTES",
    "TVMC_VERSION",
    "EmptyTargetError",
    "EmptyValueError",
    "InlineJSONError",
    "Token",
    "TvmcError",
    "scan",
    "tokenize",
]

TVMC_VERSION = "0.19"
"""The last TVM release with tvmc; its registry is the default."""

CODEGENS: frozenset[str] = frozenset(
    # v0.19's REGISTERED_CODEGEN, plus the ones earlier releases had (spec 11.1 step 4). Some of
    # them were registered target kinds too (cmsis-nn, ethos-u, clml, mrvl); tvmc still treated
    # them as codegens, never as the target or the host.
    ("compute-library", "bnns", "vitis-ai", "clml", "mrvl", "cmsis-nn", "ethos-n", "ethos-n77", "ethos-n78", "ethos-u")
)
"""Names tvmc treated as BYOC codegens ("extra targets"), whether or not a kind has the name."""

# PassContext config fields that tvmc turned into --target-CODEGEN-FIELD flags. Only the fields
# the conformance cases use (c165-c167, tests of v0.18; the real config nodes had more, such as
# cmsis-nn's mattr and ethos-u's enable_striping), with tvmc's argparse types: String -> str,
# Bool (an IntImm then) -> int. No defaults: the cases show none reaching reconstruct_target_args.
CODEGEN_FIELDS: dict[str, tuple[tuple[str, type], ...]] = {
    "cmsis-nn": (("mcpu", str),),
    "ethos-u": (("accelerator_config", str), ("enable_cascader", int)),
}
# Both codegens left tvmc's list after v0.18 (spec 11.1 step 4).
CODEGEN_FIELDS_LAST = Version(0, 18)


class TvmcError(TargetError):
    """A target list or flag set that tvmc rejected, or crashed on (TVMCException's counterpart)."""


# tvmc v0.19 failed on some texts with a plain Python exception that escaped target_from_cli (it
# caught only ValueError): these errors are also instances of that exception's class.


class EmptyTargetError(TvmcError, IndexError):
    """No target at all, or none before or after a comma: tvmc read ``codegen_def[0]`` of an
    empty target, an ``IndexError``."""


class EmptyValueError(EmptyKeyOrValueError, IndexError):
    """An option with an empty value (``-mcpu=``, ``-mcpu=''``): tvmc read ``opt_value[0]`` of an
    empty string, an ``IndexError``."""


class InlineJSONError(TvmcError, UnboundLocalError):
    """A list that ``json.loads`` reads: tvmc took it for inline JSON and then used the unset
    ``target_host``, an ``UnboundLocalError``."""


# tvmc's regex, as character classes: a token is `-{0,2}[\w-]+` (the name part), an optional
# `=`, then pieces: unquoted `[\w+.-]+` runs (a comma inside one only before such a character)
# or quoted `'[\w+\-,\s.]+'` / `"..."` strings. `\w` and `\s` are Unicode-aware, as in tvmc.
_SPACE = re.compile(r"\s")
_NAME_CHAR = re.compile(r"[\w\-]")
_PIECE_CHAR = re.compile(r"[\w+.\-]")
_QUOTED_CONTENT = re.compile(r"[\w+\-,\s.]+")
QUOTES = "'\""

# Where tvmc's regex would be inside the token being scanned. DIRTY: the token holds a character
# tvmc dropped, so tvmc's tokens differ from ours anyway and only our own comma rule applies.
_NAME, _EQ, _PIECE, _QUOTED, _DIRTY = range(5)


class Token(NamedTuple):
    """A token of a target list: its text and where it stands, ``text == source[start:end]``."""

    text: str
    start: int
    end: int


def tokenize(text: str) -> list[str]:
    """The tokens of a tvmc target list: ``","`` between targets, names and options otherwise.

    Equal to tvmc's ``tokenize_target`` whenever tvmc dropped no character but whitespace;
    otherwise the characters tvmc dropped stay in the token they touch. Raises
    :class:`MismatchedQuoteError` for a quote that is never closed.
    """
    return [token.text for token in scan(text)]


def scan(text: str) -> list[Token]:
    """:func:`tokenize` with the position of every token."""
    tokens: list[Token] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if _SPACE.match(c):
            i += 1
        elif c == ",":
            tokens.append(Token(",", i, i + 1))
            i += 1
        else:
            end = _token_end(text, i)
            tokens.append(Token(text[i:end], i, end))
            i = end
    return tokens


def _token_end(text: str, start: int) -> int:
    """Where the token starting at ``start`` (not a space, not a comma) ends."""
    n = len(text)
    # A token that does not start with a name character is one tvmc dropped characters of.
    state = _NAME if _NAME_CHAR.match(text[start]) else _DIRTY
    has_eq = False
    after_quote = False
    i = start
    while i < n:
        c = text[i]
        if c in QUOTES:
            close = text.find(c, i + 1)
            if close < 0:
                raise MismatchedQuoteError("mismatched quote: this quote is never closed", text, i, i + 1)
            valid = state != _DIRTY and _QUOTED_CONTENT.fullmatch(text, i + 1, close) is not None
            state = _QUOTED if valid else _DIRTY
            after_quote = True
            i = close + 1
            continue
        if _SPACE.match(c):
            break
        if c == ",":
            following = text[i + 1] if i + 1 < n else ""
            if state == _PIECE and following and _PIECE_CHAR.match(following):
                i += 1  # tvmc's own rule: a comma between two value characters is in the value
                continue
            # Ours, for values with characters tvmc dropped (-libs=my/lib,cudnn): in a value
            # after "=", a comma followed by a non-space belongs to it. Never right after the
            # "=" or a closing quote, where tvmc separated targets in texts it read correctly.
            if (
                has_eq
                and not after_quote
                and text[i - 1] != "="
                and following
                and following != ","
                and not _SPACE.match(following)
            ):
                state = _DIRTY
                i += 1
                continue
            break
        after_quote = False
        if c == "=":
            has_eq = True
            state = _EQ if state == _NAME else _DIRTY
        elif _NAME_CHAR.match(c):
            if state in (_EQ, _PIECE, _QUOTED):
                state = _PIECE
        elif c in "+.":
            if state != _DIRTY:
                state = _PIECE
        else:
            state = _DIRTY
        i += 1
    return i
