"""The one error tree of targetlang.

Every failure on bad input is a :class:`TargetError` (a :class:`ValueError`, as in TVM) that
carries the source text and the span it is about; ``str(err)`` shows the line of the source with
a caret under the span.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = [
    "CanonicalizationError",
    "DuplicateAttributeError",
    "EmptyKeyOrValueError",
    "IntegerOverflowError",
    "InvalidJSONError",
    "InvalidSpecError",
    "LeafKindError",
    "MismatchedQuoteError",
    "MissingAttributeError",
    "MissingDashError",
    "NestingTooDeepError",
    "RegistryError",
    "SettingsError",
    "SourceSyntaxError",
    "SourceTooLargeError",
    "TagCycleError",
    "TargetError",
    "TargetSyntaxError",
    "UnencodableTextError",
    "UnknownAttributeError",
    "UnknownKindError",
    "UnknownTagError",
    "UnprintableTargetError",
    "ValueConversionError",
]


# Control characters shown as their Unicode control pictures (one column each, so the caret
# stays aligned and a carriage return cannot garble the terminal line), and lone surrogates, which
# no terminal or UTF-8 stream can take, as the replacement character.
_VISIBLE = {c: 0x2400 + c for c in range(32)} | {0x7F: 0x2421} | {c: 0xFFFD for c in range(0xD800, 0xE000)}


def pointed(message: str, source: str, start: int, end: int) -> str:
    """``message``, then the line of ``source`` that holds ``start`` with a caret under
    ``start:end`` (what ``str()`` of a :class:`TargetError` shows); ``message`` alone when
    ``source`` is empty."""
    if not source:
        return message
    line_start = source.rfind("\n", 0, start) + 1
    line_end = source.find("\n", start)
    if line_end < 0:
        line_end = len(source)
    where = ""
    if "\n" in source:
        where = f" (line {source.count(chr(10), 0, start) + 1}, column {start - line_start + 1})"
    # A long line is shown around the fault only, so that a 10 MB input gives a short message.
    low, high = line_start, line_end
    if high - low > _EXCERPT:
        low = max(line_start, start - _EXCERPT // 3)
        high = min(line_end, max(low + _EXCERPT, end))
        high = min(high, low + _EXCERPT + _EXCERPT // 3)
    before = "…" if low > line_start else ""
    after = "…" if high < line_end else ""
    text = before + source[low:high].translate(_VISIBLE) + after
    width = max(1, min(end, high) - start)
    caret = " " * (start - low + len(before)) + "^" * width
    return f"{message}{where}\n  {text}\n  {caret}"


_EXCERPT = 120  # columns of a long source line shown in a message
_SHOWN = 80  # characters of a value shown in a message


def show(text: str) -> str:
    """``text`` in single quotes, control characters made visible, for error messages; a long
    text is cut in the middle."""
    if len(text) > _SHOWN:
        text = text[: _SHOWN - 20] + "…" + text[-19:]
    return "'" + text.translate(_VISIBLE) + "'"


class TargetError(ValueError):
    """Base class of every error targetlang raises for bad input.

    Attributes:
        message: what is wrong, without the source excerpt.
        source: the whole text the error is about ("" when the input was not text).
        start, end: the span of ``source`` at fault (``end`` exclusive; equal when it is a point).
        line, column: 1-based position of ``start``.
    """

    def __init__(self, message: str, source: str = "", start: int = 0, end: int | None = None):
        self.message = message
        self.source = source
        self.start = max(0, min(start, len(source)))
        self.end = max(self.start, min(len(source), self.start if end is None else end))
        self.line = source.count("\n", 0, self.start) + 1
        self.column = self.start - (source.rfind("\n", 0, self.start) + 1) + 1
        super().__init__(self.__str__())

    @property
    def span(self) -> tuple[int, int]:
        """``(start, end)`` offsets into :attr:`source`."""
        return (self.start, self.end)

    def relocated(self, source: str, offsets: Sequence[int], end_offset: int) -> TargetError:
        """The same error, moved into an enclosing text.

        ``offsets[i]`` is where character ``i`` of this error's source stands in ``source``;
        ``end_offset`` is where its end stands.
        """

        def place(i: int) -> int:
            return offsets[i] if i < len(offsets) else end_offset

        start = place(self.start)
        end = place(self.end - 1) + 1 if self.end > self.start else start
        return self.at(source, start, end)

    def in_context(self, prefix: str) -> TargetError:
        """The same error with ``prefix`` before its message (``in tag 'x': ...``)."""
        moved = self.at(self.source, self.start, self.end)
        TargetError.__init__(moved, f"{prefix}: {self.message}", self.source, self.start, self.end)
        return moved

    def at(self, source: str, start: int, end: int) -> TargetError:
        """The same error (class, message, extra fields) about ``source[start:end]``."""
        moved = type(self).__new__(type(self))
        moved.__dict__.update(self.__dict__)
        TargetError.__init__(moved, self.message, source, start, end)
        return moved

    def __str__(self) -> str:
        return pointed(self.message, self.source, self.start, self.end)

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild, (type(self), self.__dict__))


def _rebuild(cls: type[TargetError], state: dict[str, object]) -> TargetError:
    err = cls.__new__(cls)
    err.__dict__.update(state)
    ValueError.__init__(err, str(err))
    return err


class TargetSyntaxError(TargetError):
    """The text is not a well-formed target (legacy string or JSON)."""


class MismatchedQuoteError(TargetSyntaxError):
    """A single quote opens a region that is never closed."""


class MissingDashError(TargetSyntaxError):
    """An option does not start with ``-``, or consists of dashes only."""


class EmptyKeyOrValueError(TargetSyntaxError):
    """``-key=`` or ``-=value``: an empty key or value around ``=``."""


class InvalidJSONError(TargetSyntaxError):
    """Text that starts with ``{`` is not a JSON object with string keys."""


class InvalidSpecError(TargetError, TypeError):
    """What was given is not a target spec: not a str, mapping or :class:`Target`, or a mapping
    with a key that is not a string.

    TVM raised ``ValueError`` for the first (its Python ``Target()``) and for a nested mapping
    with such a key, ``TypeError`` for a top-level one (its FFI); this error is both, so that
    code catching either of them still catches it.
    """


class UnencodableTextError(TargetSyntaxError):
    """Text holding a lone surrogate (``"\\ud800"``), which is not Unicode text: TVM could not
    pass it to C++ (Python's UTF-8 encoder refused it), so no target holds one."""


def check_encodable(text: str, source: str = "", offset: int = 0) -> None:
    """Raise :class:`UnencodableTextError` if ``text`` holds a lone surrogate, pointing at it in
    ``source`` (where ``text`` starts at ``offset``), or in ``text`` when no source is given."""
    if text.isascii():
        return
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as err:
        code = ord(text[err.start])
        where, at = (source, offset + err.start) if source else (text, err.start)
        raise UnencodableTextError(
            f"U+{code:04X} is a lone surrogate, not a character: the text is not valid Unicode", where, at, at + 1
        ) from None


class NestingTooDeepError(TargetSyntaxError):
    """Targets nested inside targets deeper than the limit."""


class UnknownKindError(TargetError):
    """The kind (first word, or ``"kind"``) is not registered, nor is the text a tag."""


class UnknownTagError(UnknownKindError):
    """``{"tag": NAME}`` names no registered tag."""


class TagCycleError(TargetError):
    """A tag whose configuration refers back to itself through other tags."""


class UnknownAttributeError(TargetError):
    """An attribute the kind does not have.

    Attributes:
        suggestions: the closest valid names, best first.
    """

    suggestions: tuple[str, ...] = ()


class LeafKindError(UnknownAttributeError):
    """A leaf kind (a codegen target such as ``llvm``) given ``executor``, ``runtime`` or
    ``devices``, which belong on the composite target that contains it."""


class MissingAttributeError(TargetError):
    """A required attribute of a (user-defined) kind is not given."""


class ValueConversionError(TargetError):
    """A value that does not convert to its attribute's type."""


class IntegerOverflowError(ValueConversionError, OverflowError):
    """An integer in a config mapping that does not fit 64 bits. TVM's FFI raised
    ``OverflowError`` converting the mapping before reading any of it; this error is that too."""


class DuplicateAttributeError(TargetError):
    """The same attribute given twice."""


class CanonicalizationError(TargetError):
    """A value the kind's canonicaliser rejects (for instance a CUDA arch not starting ``sm_``)."""


class RegistryError(TargetError):
    """A registry file (or registry data) that does not describe kinds and tags."""


class SettingsError(TargetError):
    """A ``targetlang fix`` configuration (``[tool.targetlang]`` of a ``pyproject.toml``, or a
    ``targetlang.toml``) that cannot be read or holds a bad key or value; the message names the
    file, the line and the key."""


class UnprintableTargetError(TargetError):
    """The target cannot be written in the requested form (TVM's printer could not either)."""


class SourceSyntaxError(TargetSyntaxError):
    """A source file that ``targetlang fix`` was given does not parse (as Python, for a ``.py``
    file); the position is where its parser stopped."""


class SourceTooLargeError(TargetError):
    """A source file larger than ``targetlang fix`` rewrites (its tree would take hundreds of
    bytes of memory per byte of source); the position is where the limit falls."""
