"""Reading tuning logs line by line into :class:`Record` objects, and splicing new targets into them.

Reading streams: one line in memory at a time, whatever the file's size. Nothing is lost: every
line becomes a record (comments and blank lines as ``Format.COMMENT``, lines of no known format as
``Format.UNKNOWN``), ``record.text + record.newline`` is the line exactly, and each target field
knows the span of its JSON value in ``record.text``, so :func:`splice` can replace that value and
leave every other byte as it was.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from typing import Any, NamedTuple

from ._spans import COMPACT, PYTHON, STYLES, Style, locate
from .formats import FORMATS, ROWS, Format, Layout, Path, classify, classify_columns

__all__ = [
    "Field",
    "Record",
    "encode_value",
    "json_text",
    "line_record",
    "parse_line",
    "read_file",
    "read_lines",
    "splice",
    "writer_version",
]


class Field(NamedTuple):
    """One target inside a record: its name, where its value's text stands, and the spec it holds.

    ``encoding`` says what the text at ``start:end`` is: ``"string"`` (a JSON string token,
    quotes included), ``"object"`` (a JSON object: meta-schedule's exported target) or
    ``"column"`` (the raw first column of a pickle row). ``spec`` is what ``targetlang.parse``
    reads: the decoded string, or the object's own text (which reads as the JSON form and prints
    back byte for byte). (A named tuple: a log has millions of them, and a tuple is made fastest.)
    """

    name: str  # "target" or "host"
    start: int
    end: int
    spec: str
    encoding: str


class Record(NamedTuple):
    """One line of a tuning log.

    ``text`` is the line without its line break, ``newline`` the break itself (``"\\n"``,
    ``"\\r\\n"`` or ``""`` on a last line without one). ``value`` is the decoded JSON (``None``
    for comments, pickle rows and unreadable lines); ``problem`` says why a line is
    ``Format.UNKNOWN``. (A named tuple, as :class:`Field` is.)
    """

    file: str
    line: int
    text: str
    newline: str
    format: Format
    fields: tuple[Field, ...] = ()
    log_version: str | None = None
    tvm_version: str | None = None
    value: Any = None
    problem: str = ""

    def field(self, name: str) -> Field | None:
        """The target field ``name`` (``"target"``, ``"host"``), or ``None``."""
        for field in self.fields:
            if field.name == name:
                return field
        return None

    @property
    def target(self) -> str | None:
        """The spec of the record's target, or ``None`` when it has none."""
        field = self.field("target")
        return field.spec if field is not None else None

    @property
    def host(self) -> str | None:
        """The spec of the record's separately stored host (auto_scheduler), or ``None``."""
        field = self.field("host")
        return field.spec if field is not None else None


def writer_version(record: Record) -> str | None:
    """The TVM version that wrote ``record``: the one it records, else the one its format and log
    version imply (``LogFormat.writers``: AutoTVM's log format v0.1 means TVM v0.6 or older, since
    v0.7 on skipped such records), else ``None``."""
    if record.tvm_version is not None:
        return record.tvm_version
    row = ROWS.get(record.format)
    return row.writers.get(record.log_version) if row is not None and record.log_version is not None else None


def parse_line(text: str, newline: str = "\n", *, file: str = "<string>", line: int = 1) -> Record:
    """The record of one line (``text`` without its line break)."""
    return _parse_line(text, newline, file, line, None)


def _parse_line(text: str, newline: str, file: str, line: int, raw: bytes | None) -> Record:
    # raw: the line's bytes, when it was read as bytes (it saves encoding it again)
    if not text or text[0] == "#" or text.isspace():
        return Record(file, line, text, newline, Format.COMMENT)
    # A byte-order mark is not JSON, but it is part of the line as written: read past it.
    skip = 1 if text.startswith("\ufeff") else 0
    body = text[skip:] if skip else text
    try:
        value = _loads(body, raw)
    except (ValueError, RecursionError) as err:
        if "\t" in body:
            return _pickle_row(text, newline, file, line, skip)
        return Record(file, line, text, newline, Format.UNKNOWN, problem=f"not JSON: {err}")
    layout = classify(value)
    if layout.format is Format.UNKNOWN:
        # Tabs are JSON white space: a pickle row whose other columns are empty and whose target
        # column holds JSON (as `logs migrate --to json` writes it) decodes as that JSON alone.
        if "\t" in body:
            row = _pickle_row(text, newline, file, line, skip)
            if row.format is not Format.UNKNOWN:
                return row
        return Record(file, line, text, newline, Format.UNKNOWN, value=value, problem=layout.reason)
    try:
        fields = _fields(body, value, layout, skip)
    except LookupError as err:  # cannot happen for a line json.loads read; never end a whole log for it
        return Record(file, line, text, newline, Format.UNKNOWN, value=value, problem=f"target not found: {err}")
    return Record(file, line, text, newline, layout.format, fields, layout.log_version, layout.tvm_version, value)


def _json_loads(text: str, raw: bytes | None = None) -> Any:
    return json.loads(text)


def _fast_loads() -> Any:
    """orjson's decoder when it is installed (``pip install 'targetlang[fast]'``), else ``json.loads``.

    orjson decodes a log line three times as fast. What it refuses (``NaN``/``Infinity`` as
    Python's json writes them, lone surrogates) goes to ``json.loads``, which decides, and whose
    message an unreadable line reports; so does a line with a run of 19 digits or more, since
    orjson reads an integer beyond 64 bits as a float where json keeps it exact.
    """
    try:
        import orjson
    except ImportError:
        return _json_loads
    fast, error = orjson.loads, orjson.JSONDecodeError

    # Digits to "9"; what goes on in a number after its integer part ("." and an exponent's "e",
    # "E", "+") to "."; everything else to a space. " " and 19 nines is then an integer part of 19
    # digits or more, whose fractional digits do not count. (A regular expression takes ten times
    # as long on a log line.)
    def mapped(b: int) -> int:
        return 0x39 if 0x30 <= b <= 0x39 else 0x2E if b in b".eE+" else 0x20

    digits = bytes(mapped(b) for b in range(256))
    run = b" " + b"9" * 19

    def loads(text: str, raw: bytes | None = None) -> Any:
        data = raw if raw is not None else text.encode("utf-8", "surrogatepass")
        if run in data.translate(digits):
            return json.loads(text)
        try:
            return fast(text)
        except error:
            return json.loads(text)

    return loads


_loads = _fast_loads()

# Each format's pattern of how its tuner wrote a record (see LogFormat.line).
_SHAPES = {row.format: row.line for row in FORMATS if row.line is not None}


def _fields(body: str, value: Any, layout: Layout, skip: int) -> tuple[Field, ...]:
    shape = _SHAPES.get(layout.format)
    match = shape.match(body) if shape is not None else None
    fields = []
    for group, (name, path) in enumerate(layout.targets, 1):
        token = match.group(group) if match is not None else None
        spec = value
        for step in path:
            spec = spec[step]
        if match is None or token is None or (("\\" in token or token[1:-1] != spec) and json.loads(token) != spec):
            # (a token that does not hold the decoded value: a key given again later in the line)
            fields.append(_json_field(body, value, name, path, layout, skip))
            continue
        start, end = match.span(group)
        fields.append(Field(name, start + skip, end + skip, spec, "string"))
    return tuple(fields)


# Meta-schedule's C++ dumper writes compact JSON: try its style first.
_styles_compact: tuple[Style, ...] = (COMPACT, PYTHON, *(s for s in STYLES if s not in (COMPACT, PYTHON)))


def _json_field(body: str, value: Any, name: str, path: Path, layout: Layout, skip: int) -> Field:
    styles = _styles_compact if layout.compact else STYLES
    start, end = locate(body, value, path, styles, from_end=layout.near_end)
    if body[start] == "{":
        return Field(name, start + skip, end + skip, body[start:end], "object")
    spec = value
    for step in path:
        spec = spec[step]
    return Field(name, start + skip, end + skip, spec, "string")


def _pickle_row(text: str, newline: str, file: str, line: int, skip: int) -> Record:
    # Only the plain-text columns are looked at; the base64 pickles are never decoded.
    columns = text[skip:].split("\t")
    layout = classify_columns(columns)
    if layout.format is Format.UNKNOWN:
        return Record(file, line, text, newline, Format.UNKNOWN, problem=layout.reason)
    field = Field("target", skip, skip + len(columns[0]), columns[0], "column")
    return Record(file, line, text, newline, layout.format, (field,), layout.log_version, layout.tvm_version)


def read_lines(lines: Iterable[bytes | str], file: str = "<stdin>") -> Iterator[Record]:
    """Records of ``lines`` (each with its line break, as iterating a binary file gives them).

    Bytes are decoded as UTF-8; a line that is not UTF-8 is a ``Format.UNKNOWN`` record whose
    text keeps the undecodable bytes as surrogate escapes (``text.encode("utf-8",
    "surrogateescape")`` gives the bytes back).
    """
    for number, raw in enumerate(lines, 1):
        if isinstance(raw, bytes):
            try:
                decoded = raw.decode("utf-8")
            except UnicodeDecodeError as err:
                text, newline = _split_newline(raw.decode("utf-8", "surrogateescape"))
                problem = f"not UTF-8 ({err.reason} at byte {err.start})"
                yield Record(file, number, text, newline, Format.UNKNOWN, problem=problem)
                continue
        else:
            decoded = raw
        data = raw if isinstance(raw, bytes) else None
        if decoded.endswith("\n"):  # _split_newline, inline: this loop runs once per line of a log
            if decoded.endswith("\r\n"):
                yield _parse_line(decoded[:-2], "\r\n", file, number, data)
            else:
                yield _parse_line(decoded[:-1], "\n", file, number, data)
        else:
            yield _parse_line(decoded, "", file, number, data)


def line_record(raw: bytes, newline: bool, file: str, line: int) -> Record:
    """The record of one line's bytes ``raw``, without its ``"\\n"`` (``newline``: it had one;
    a ``"\\r"`` before it stays in ``raw``): the record :func:`read_lines` makes of that line."""
    try:
        decoded = raw.decode("utf-8")
    except UnicodeDecodeError as alone:
        whole = raw + b"\n" if newline else raw
        err = alone
        try:
            whole.decode("utf-8")
        except UnicodeDecodeError as found:
            err = found  # as read_lines meets it, the line break included (an unfinished character differs)
        text, ending = _split_newline(whole.decode("utf-8", "surrogateescape"))
        problem = f"not UTF-8 ({err.reason} at byte {err.start})"
        return Record(file, line, text, ending, Format.UNKNOWN, problem=problem)
    if not newline:
        return _parse_line(decoded, "", file, line, raw)
    if decoded.endswith("\r"):
        return _parse_line(decoded[:-1], "\r\n", file, line, raw)
    return _parse_line(decoded, "\n", file, line, raw)


def _split_newline(line: str) -> tuple[str, str]:
    if line.endswith("\r\n"):
        return line[:-2], "\r\n"
    if line.endswith("\n"):
        return line[:-1], "\n"
    return line, ""


def read_file(path: str | os.PathLike[str], name: str | None = None) -> Iterator[Record]:
    """Records of the file at ``path``, read lazily; ``name`` is the file name records carry.

    The file is opened on the first ``next()`` and closed when the iterator is exhausted or
    closed. Lines are split at ``\\n`` only, as the tuners wrote them.
    """
    with open(path, "rb") as handle:
        yield from read_lines(handle, os.fspath(path) if name is None else name)


def splice(record: Record, field: str | Field, new_text: str) -> str:
    """``record.text`` with the value of ``field`` replaced by ``new_text``; every other character is kept.

    ``new_text`` is JSON text of the same sort as the value it replaces (a string token for
    ``"string"`` fields, an object for ``"object"`` fields) or, for a pickle row's ``"column"``
    field, the raw target text; :func:`encode_value` writes it as the record's writer did. The
    line break (``record.newline``) is not part of the result.
    """
    found = record.field(field) if isinstance(field, str) else field
    if found is None or found not in record.fields:
        raise KeyError(f"line {record.line} has no target field {field if isinstance(field, str) else field.name!r}")
    if "\n" in new_text:
        raise ValueError("a record is one line: the new value must not contain a line break")
    if found.encoding == "column":
        if "\t" in new_text:
            raise ValueError("a pickle row's target column must not contain a tab")
    else:
        try:
            decoded = json.loads(new_text)
        except ValueError as err:
            raise ValueError(f"the new value is not JSON text: {err}") from None
        wanted = str if found.encoding == "string" else dict
        if not isinstance(decoded, wanted):
            raise ValueError(
                f"the {found.name} of this record is a JSON {found.encoding}, not {type(decoded).__name__}"
            )
    spliced = record.text[: found.start] + new_text + record.text[found.end :]
    if record.newline == "\n" and spliced.endswith("\r") and not record.text.endswith("\r"):
        # A carriage return inside a line is just a character; at its end, it would read back as
        # half of a "\r\n" line break.
        raise ValueError("the new value would end the line in a carriage return")
    return spliced


def encode_value(record: Record, field: str | Field, value: str | dict[str, Any]) -> str:
    """``value`` written the way ``record``'s writer wrote the field it replaces, for :func:`splice`.

    A string field gets a JSON string (non-ASCII escaped as ``\\uXXXX`` if the old token was pure
    ASCII, as Python's ``json.dumps`` writes it); an object field a JSON object with the old
    text's separators; a column the text itself.
    """
    found = record.field(field) if isinstance(field, str) else field
    if found is None:
        raise KeyError(f"line {record.line} has no target field {field!r}")
    old = record.text[found.start : found.end]
    if found.encoding == "column":
        if not isinstance(value, str):
            raise TypeError("a pickle row's target column holds a target string")
        return value
    ascii_only = old.isascii()
    if found.encoding == "string":
        if not isinstance(value, str):
            raise TypeError("this record stores its target as a string")
        return json_text(value, ascii_only)
    data = json.loads(value) if isinstance(value, str) else value
    compact = json.dumps(json.loads(old), separators=(",", ":"), ensure_ascii=ascii_only) == old
    return json_text(data, ascii_only, (",", ":") if compact else (", ", ": "))


def json_text(value: Any, ascii_only: bool = False, separators: tuple[str, str] = (", ", ": ")) -> str:
    """``json.dumps(value)``, non-ASCII written as itself unless ``ascii_only``, and escaped
    anyway where it cannot be written as UTF-8 (a lone surrogate that a ``\\ud800`` decoded to)."""
    text = json.dumps(value, ensure_ascii=ascii_only, separators=separators)
    if not ascii_only:
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            return json.dumps(value, ensure_ascii=True, separators=separators)
    return text
