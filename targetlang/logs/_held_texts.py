"""What ``logs stats`` keeps of its texts and counts, in memory bounded by the number of distinct
targets, not by their size: a text longer than :data:`LONG` characters goes to a temporary file
(its digest and first characters stay), counts by name go to a temporary SQLite database once
there are many names, and the report is written a text at a time."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any, TypeVar, Union

__all__ = [
    "LONG",
    "LongText",
    "NameCounts",
    "Text",
    "Texts",
    "Write",
    "dump_names",
    "held_text",
    "in_count_order",
    "joined_texts",
    "ordered_names",
    "plain_texts",
    "text_digest",
    "write_text",
]


# Characters of a text kept in memory; a longer one is kept in a file. No real target comes close
# (TopHub's longest is 300), and a text this long costs 40 KB or more to read.
LONG = 4096


# Characters of a long text kept in memory too, to put texts in order without reading them.
_HEAD = 256


Write = Callable[[str], object]


class LongText:
    """A text of more than :data:`LONG` characters, kept in its counts' file: equal to another
    by its digest, and read back (``str()``) when it is shown. Pickled as the text itself: the
    counts of a worker arrive as plain text, which :meth:`Stats.merge` holds again."""

    __slots__ = ("_offset", "_size", "_texts", "digest", "head", "length")

    def __init__(self, texts: Texts, offset: int, size: int, digest: bytes, length: int, head: str) -> None:
        self._texts, self._offset, self._size = texts, offset, size
        self.digest, self.length, self.head = digest, length, head

    def __str__(self) -> str:
        return self._texts.read(self._offset, self._size)

    def __len__(self) -> int:
        return self.length

    def __hash__(self) -> int:
        return hash(self.digest)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LongText) and other.digest == self.digest

    def __reduce__(self) -> tuple[type[str], tuple[str]]:
        return str, (str(self),)


Text = Union[str, LongText]  # noqa: UP007 (a runtime alias: LongText is a class of this module)


_T = TypeVar("_T", bound=Text)


def text_digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


class Texts:
    """The long texts of one :class:`Stats`, each once, in an unnamed temporary file made when
    the first one comes."""

    def __init__(self) -> None:
        self._file: IO[bytes] | None = None
        self._end = 0
        self._held: dict[bytes, LongText] = {}

    def hold(self, text: Text) -> Text:
        """``text`` as the counts keep it: itself when it is short, else its :class:`LongText`."""
        if type(text) is str and len(text) <= LONG:
            return text
        text = str(text)  # (a LongText of other counts: held here)
        data = text.encode("utf-8", "surrogatepass")  # (lone surrogates come back as they went)
        digest = hashlib.blake2b(data, digest_size=16).digest()
        held = self._held.get(digest)
        if held is None:
            if self._file is None:
                self._file = tempfile.TemporaryFile()
            self._file.seek(self._end)
            self._file.write(data)
            held = self._held[digest] = LongText(self, self._end, len(data), digest, len(text), text[:_HEAD])
            self._end += len(data)
        return held

    def read(self, offset: int, size: int) -> str:
        assert self._file is not None
        self._file.seek(offset)
        return self._file.read(size).decode("utf-8", "surrogatepass")


def _compare(a: Text, b: Text) -> int:
    """-1, 0 or 1 as the texts ``a`` and ``b`` compare as strings; long ones are read only when
    their first :data:`_HEAD` characters are the same (two texts that differ there compare as
    those do)."""
    if type(a) is str and type(b) is str:
        return (a > b) - (a < b)
    head_a = a.head if isinstance(a, LongText) else a[:_HEAD]
    head_b = b.head if isinstance(b, LongText) else b[:_HEAD]
    if head_a != head_b:
        return (head_a > head_b) - (head_a < head_b)
    if a == b:
        return 0
    whole_a, whole_b = str(a), str(b)
    return (whole_a > whole_b) - (whole_a < whole_b)


class _InOrder:
    """A text as a sort key: in the order of strings (see :func:`_compare`)."""

    __slots__ = ("text",)

    def __init__(self, text: Text) -> None:
        self.text = text

    def __lt__(self, other: _InOrder) -> bool:
        return _compare(self.text, other.text) < 0


def in_count_order(counter: Counter[_T]) -> list[tuple[_T, int]]:
    """:func:`~targetlang.logs.report.by_count` of counts whose names may be long texts: most
    frequent first, then by name."""
    return sorted(counter.items(), key=lambda item: (-item[1], _InOrder(item[0])))


# Distinct names a count keeps in memory; past them, it keeps them in a database.
_NAMES = 1 << 16


class NameCounts:
    """Counts of records by name (their keys, models, TVM versions): in a :class:`Counter` while
    the names are few, in a temporary SQLite database (on disk) once there are more than
    :data:`_NAMES`. Every name is shown, and a log of distinct targets may hold millions of
    distinct ``-keys`` (2,000 keys of 100 characters a target took 180 MB at 370 targets)."""

    def __init__(self) -> None:
        self._counts: Counter[Text] = Counter()
        self._db: sqlite3.Connection | None = None

    def add(self, name: Text, number: int = 1) -> None:
        """Count ``number`` more records under ``name``."""
        self._counts[name] += number
        if len(self._counts) > _NAMES:
            self._spill()

    def update(self, names: Iterable[Text]) -> None:
        """Count one more record under each of ``names``."""
        for name in names:
            self.add(name)

    def _spill(self) -> None:
        if self._db is None:
            self._db = sqlite3.connect("")  # "": a private database in a temporary file
            self._db.execute("CREATE TABLE names (name BLOB PRIMARY KEY, number INTEGER) WITHOUT ROWID")
        # UTF-8 keeps the order of code points: the database orders names as Python's strings do
        self._db.executemany(
            "INSERT INTO names VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET number = number + excluded.number",
            ((str(name).encode("utf-8", "surrogatepass"), number) for name, number in self._counts.items()),
        )
        self._counts.clear()

    def __len__(self) -> int:
        if self._db is None:
            return len(self._counts)
        self._spill()
        return int(self._db.execute("SELECT count(*) FROM names").fetchone()[0])

    def by_count(self) -> Iterator[tuple[Text, int]]:
        """The names and their counts, most frequent first, then by name."""
        if self._db is None:
            yield from in_count_order(self._counts)
            return
        self._spill()
        for name, number in self._db.execute("SELECT name, number FROM names ORDER BY number DESC, name"):
            yield name.decode("utf-8", "surrogatepass"), number

    def __getstate__(self) -> dict[str, Any]:
        # (a worker's counts, of one chunk of a log: their names as text, LongText.__reduce__)
        return {"names": list(self.by_count())}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self._counts = Counter(dict(state["names"]))
        self._db = None


def joined_texts(texts: Iterable[Text]) -> list[Text]:
    """``",".join(texts)`` as pieces."""
    pieces: list[Text] = []
    for text in texts:
        if pieces:
            pieces.append(",")
        pieces.append(text)
    return pieces


def write_text(pieces: Iterable[Text], write: Write) -> None:
    for piece in pieces:
        write(piece if type(piece) is str else str(piece))


def ordered_names(counter: Counter[str] | NameCounts) -> Iterable[tuple[Text, int]]:
    """The names of ``counter`` and their counts, most frequent first, then by name."""
    if isinstance(counter, NameCounts):
        return counter.by_count()
    ordered = in_count_order(counter)
    return ordered


def plain_texts(value: Any) -> Any:
    """JSON data with its long texts read back (and its counts by name as dicts)."""
    if isinstance(value, NameCounts):
        return {str(name): number for name, number in value.by_count()}
    if isinstance(value, dict):
        return {str(key): plain_texts(item) for key, item in value.items()}
    if isinstance(value, list):
        return [plain_texts(item) for item in value]
    return str(value) if isinstance(value, LongText) else value


def dump_names(value: Any, write: Write) -> None:
    """``json.dumps(plain_texts(value))``, written a piece at a time: no more than one text at once."""
    if isinstance(value, dict | NameCounts):
        write("{")
        for n, (key, item) in enumerate(value.by_count() if isinstance(value, NameCounts) else value.items()):
            write(f"{', ' if n else ''}{json.dumps(str(key))}: ")
            dump_names(item, write)
        write("}")
    elif isinstance(value, list):
        write("[")
        for n, item in enumerate(value):
            if n:
                write(", ")
            dump_names(item, write)
        write("]")
    else:
        write(json.dumps(str(value) if isinstance(value, LongText) else value))


def held_text(counter: Counter[Any], hold: Callable[[Text], Text]) -> Counter[Text]:
    """``counter`` with its names held by ``hold``."""
    if all(type(name) is str and len(name) <= LONG for name in counter):
        return counter
    held: Counter[Text] = Counter()
    for name, number in counter.items():
        held[hold(name)] += number
    return held
