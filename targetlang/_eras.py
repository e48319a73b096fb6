"""Target strings as older TVM versions wrote and read them: reading by era (spec 1.2, 6.3, 9).

The string language changed three times before TVM v0.10 fixed the form that :func:`targetlang.parse`
reads. Tuning logs keep the strings their TVM printed, so a log is read with the rules of the TVM
that wrote it:

====  ======  ==================  =====================================================================
name  label   releases            how a string is read
====  ======  ==================  =====================================================================
0.6   E0      TVM <= v0.6         words split at any whitespace; options kept verbatim and recognised
                                  by their spelling (``-device=``, ``-keys=``, ``-libs=``, ``-model=``,
                                  ``-system-lib``; for ``llvm``, ``nvptx``, ``rocm`` also LLVM's
                                  ``-target``/``-mtriple``, ``-mcpu``, ``-mattr``, ``-mfloat-abi``)
0.7   E1      TVM v0.7            words split at any whitespace, no quoting; a string is the word;
                                  integers are 32-bit without ``true``/``false``; an empty array item
                                  is an error
0.8   E2      TVM v0.8 - v0.9     words split at spaces outside quotes; the quotes are removed and
                                  ``\\'`` becomes ``'``; no later interpretation; arrays split the same
                                  way at commas; strings trimmed; 32-bit integers or ``true``/``false``
0.22  E3      TVM v0.10 - v0.23   what :func:`targetlang.parse` reads (the default)
====  ======  ==================  =====================================================================

:func:`parse_in_era` returns a :class:`~targetlang.Target` whose ``str()`` is the text it was read
from, byte for byte; its fields (kind, declared keys, host, typed attributes) mean what that era's
TVM understood. Nothing is resolved, as with :func:`targetlang.parse`.

Decisions (where the era's TVM did something a typed reader cannot or should not reproduce):

* **E0 options.** TVM <= v0.6 kept every option as an opaque word: its Target creation only scanned
  ``-device=``, ``-keys=`` and ``-libs=`` by prefix, its Python layer scanned ``-model=``, and the
  LLVM code generator (also used by ``nvptx`` and ``rocm``) read ``-target``/``-mtriple``,
  ``-mcpu``, ``-mattr``, ``-mfloat-abi`` (``hard``/``soft``) as ``-key=value`` or ``-key value``,
  skipped ``-system-lib``/``--system-lib`` and stopped on anything else. We accept exactly those
  spellings (``-target`` gives ``mtriple``) and reject every other option with
  :class:`~targetlang.UnknownAttributeError`: TVM either failed on it later (LLVM kinds) or ignored
  it (other kinds), and a target cannot hold an option without a meaning. ``-device``, ``-keys``,
  ``-libs`` and ``-model`` count only in their ``=`` form, as TVM's scans did; their spaced form is a
  :class:`~targetlang.TargetSyntaxError`. Comma lists split as C++ ``getline`` did: empty items kept,
  a trailing comma ending the list. A repeated option and an empty value are errors (TVM let the last
  one win and kept empty values). An unknown kind is an :class:`~targetlang.UnknownKindError`, where
  TVM logged an error and silently used ``stackvm``.
* **E0 registry.** E0's kinds (``llvm``, ``c``, ``cuda``, ``nvptx``, ``rocm``, ``opencl``,
  ``metal``, ``vulkan``, ``opengl``, ``sdaccel``, ``aocl``, ``aocl_sw_emu``, ``stackvm``,
  ``ext_dev``, ``hybrid``, ``hexagon``) with the attribute types of ``builtin_registry("0.7")``
  (the first schema that has ``system-lib`` and the legacy kinds), plus ``opengl``; no tags. Since
  E0 had no attribute schema at all, only the option table above decides what is accepted.
* **E1 and E2** read a text that is exactly a tag name, or that starts with ``{``, as
  :func:`targetlang.parse` does (tags and JSON targets came with the unified constructor of v0.7/v0.8,
  and a config dict was read the same way until v0.23); E0 had neither. A string value that is only
  spaces, which crashed TVM v0.8 - v0.9, is a :class:`~targetlang.ValueConversionError`. Whether
  v0.7.0 still rejected a second ``=`` in an option (its development line did) could not be checked;
  like v0.8 we split at the first one.
* **Registries.** An era reads only what its releases had: E1 uses ``builtin_registry("0.7")``
  (v0.7's own schema), E2 what ``builtin_registry("0.8")`` and ``builtin_registry("0.9")`` had
  together (v0.9's kinds and tags plus v0.8's ``cuda.shared_memory_per_block``), E3
  ``builtin_registry()`` (v0.22's, as :func:`targetlang.parse`). ``parse(text, era=...)`` with a
  registry, or :func:`release_reading` for one release (``--tvm-version`` on the command line),
  reads with exactly that release's schema.

Each era is an object (:class:`Era`) that does its own splitting, value conversion and option
reading; this module sits beneath the parser, which hands it the default reader for tags, JSON
and E3.

How ``resolve()`` differs from what each era's TVM did: ``resolve()`` is always v0.22's pipeline,
run over the target's registry (whose kinds have no CPU target parser before v0.10); the keys below
are what the era's TVM computed, and what AutoTVM dispatched on:

* E0: keys were every ``-device=`` value and ``-keys=`` item in option order, the device name
  again, then the kind's default keys, without de-duplication; no attribute defaults, no
  canonicalisation (the LLVM triple came from the code generator).
* E1, E2: keys were the declared keys, then ``device``, then the kind's default keys *always*
  (v0.10 stopped adding them when keys are declared), duplicates removed; defaults inserted (E2:
  ``link-params=0``); no CPU target parser (no ``arm_cpu`` key merging, no M-profile features).
* E3: as :meth:`targetlang.Target.resolve`.

A target read here keeps its text marked with its era (so it pickles); its edits fall back to a text-less
target (the splice-and-reread path speaks E3 only).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any, NamedTuple

from ._diagnostics import check_required, depth_limit, hint, modern_kind, suggest, unknown_attr
from ._lexical import stream_int
from ._registry import Registry, builtin_registry
from ._schema import KindSchema, TypeSpec
from ._target import Span, Target
from ._versions import (
    DEFAULT,
    ERA_BOUNDS,
    ERA_NAMES,
    FIRST_SCHEMA,
    RELEASES,
    SCHEMA_RELEASES,
    Version,
    release,
)
from .errors import (
    DuplicateAttributeError,
    EmptyKeyOrValueError,
    MismatchedQuoteError,
    MissingDashError,
    NestingTooDeepError,
    TargetError,
    TargetSyntaxError,
    UnknownAttributeError,
    UnknownKindError,
    ValueConversionError,
    show,
)

__all__ = ["DEFAULT_ERA", "ERAS", "Era", "era_for_version", "era_named", "era_registry", "release_reading"]


Reader = Callable[[str, Registry], Target]
"""The default reader (``parse(text, registry=...)``), which E3 is and E1 and E2 hand tags and JSON
to. The parser passes it in: this module sits beneath the parser and never imports it."""


@dataclass(frozen=True)
class Era:
    """One era of the target-string language (spec 1.2): how the TVM releases of the era split a
    string into words, convert a value, read options, and whether they read tags and JSON.

    Attributes:
        name: the era's name (``"0.8"``).
        label: the spec's label (``"E2"``).
        first, last: the oldest and newest TVM release of the era.
        summary: how the era read a target string.
    """

    name: str
    label: str
    first: Version
    last: Version
    summary: str

    @property
    def releases(self) -> str:
        """The TVM releases of the era, as text (``"TVM v0.8 - v0.9"``)."""
        if self.first == RELEASES["0.1"].version:
            return f"TVM <= v{self.last}"
        if self.first == self.last:
            return f"TVM v{self.first}"
        return f"TVM v{self.first} - v{self.last}"

    @property
    def schemas(self) -> tuple[str, ...]:
        """The releases whose registries together are the era's default registry."""
        return tuple(v for v in SCHEMA_RELEASES if self.first <= Version.parse(v) <= self.last)

    def registry(self) -> Registry:
        """The registry the era reads with by default: what its releases had, together."""
        return _union(self.name, self.schemas)

    def read(self, text: str, registry: Registry, depth: int, reader: Reader) -> Target:
        """``text`` as the era's TVM read it; ``reader`` reads tags and JSON."""
        if depth > depth_limit():
            raise NestingTooDeepError(f"targets nest more than {depth_limit()} levels deep", text, 0, len(text))
        if self.reads_tags_and_json and (text in registry.tags or text.startswith("{")):
            # Tag names and JSON objects were dispatched before the string reader, and a config
            # dict was read the same way from v0.7 to v0.23.
            return reader(text, registry)
        words = self.split(text)
        if not words:
            raise TargetSyntaxError("cannot parse an empty target string", text, 0, len(text))
        kind_word = words[0]
        schema = registry.kinds.get(kind_word.text)
        if schema is None:
            raise self.unknown_kind(kind_word.text, registry, text, kind_word.start, kind_word.end)
        if schema.modern_only:
            raise modern_kind(schema, text, kind_word.start, kind_word.end)

        def nested(value: str) -> Target:
            return self.read(value, registry, depth + 1, reader)

        attrs, fields, spans = self.options(text, words, schema, nested)
        check_required(schema, attrs, text, kind_word.start, kind_word.end)
        return Target._make(
            schema, registry, attrs=attrs, text=text, text_form=f"era {self.name}", spans=spans, **fields
        )

    # What each era does its own way.
    reads_tags_and_json = True
    repeats_kind = False  # v0.8's config started as {"kind": NAME}, so -kind= repeated it

    def split(self, text: str) -> list[_Word]:
        """``istringstream >> word``, which splits at any whitespace and knows no quotes."""
        return [_Word(m.group(), range(m.start(), m.end()), m.start(), m.end()) for m in _NOT_SPACE.finditer(text)]

    def value(self, text: str, typ: TypeSpec, attr: str, nested: Nested) -> Any:
        """A value from its text, as the era's ``ParseType`` read it."""
        raise NotImplementedError

    def options(self, text: str, words: list[_Word], schema: KindSchema, nested: Nested) -> _Fields:
        """The options after the kind, as ``ParseKVPair`` and ``ParseType`` read them."""
        return _options(self, text, words, schema, nested)

    def unknown_kind(self, name: str, registry: Registry, text: str, start: int, end: int) -> UnknownKindError:
        message = f"unknown target kind {show(name)}{hint(suggest(name, [*registry.kinds, *registry.tags]))}"
        return UnknownKindError(message, text, start, end)


class _Era06(Era):
    """TVM <= v0.6: no schema, no tags, no JSON; options recognised by their spelling."""

    reads_tags_and_json = False

    def registry(self) -> Registry:
        return _era06_registry()

    def options(self, text: str, words: list[_Word], schema: KindSchema, nested: Nested) -> _Fields:
        return _era06_options(self, text, words, schema)

    def unknown_kind(self, name: str, registry: Registry, text: str, start: int, end: int) -> UnknownKindError:
        message = f"unknown target kind {show(name)}{hint(suggest(name, registry.kinds))}"
        message += " (TVM <= v0.6 logged an error and used 'stackvm' instead)"
        return UnknownKindError(message, text, start, end)


class _Era07(Era):
    """TVM v0.7: whitespace split, no quoting, 32-bit integers."""

    def value(self, text: str, typ: TypeSpec, attr: str, nested: Nested) -> Any:
        return _era07_value(text, typ, attr, nested)


class _Era08(Era):
    """TVM v0.8 - v0.9: quote-aware split that removes the quotes."""

    repeats_kind = True

    def split(self, text: str) -> list[_Word]:
        return _split_quoted(text, " ")

    def value(self, text: str, typ: TypeSpec, attr: str, nested: Nested) -> Any:
        return _era08_value(text, typ, attr, nested)


class _Era022(Era):
    """TVM v0.10 - v0.23: the default reader."""

    def registry(self) -> Registry:
        return builtin_registry()  # the very registry targetlang.parse reads with by default

    def read(self, text: str, registry: Registry, depth: int, reader: Reader) -> Target:
        return reader(text, registry)


ERAS: Mapping[str, Era] = MappingProxyType(
    {
        era.name: era
        for era in (
            _Era06(
                "0.6",
                "E0",
                *ERA_BOUNDS["0.6"],
                "words split at any whitespace; options kept verbatim, recognised by their spelling",
            ),
            _Era07(
                "0.7",
                "E1",
                *ERA_BOUNDS["0.7"],
                "words split at any whitespace, no quoting; 32-bit integers; empty array items rejected",
            ),
            _Era08(
                "0.8",
                "E2",
                *ERA_BOUNDS["0.8"],
                "quote-aware split at spaces that removes the quotes; no per-value interpretation",
            ),
            _Era022(
                "0.22",
                "E3",
                *ERA_BOUNDS["0.22"],
                "quotes and escapes kept by the split and interpreted per value (targetlang.parse)",
            ),
        )
    }
)
"""The eras, oldest first, by name: ``"0.6"`` (E0), ``"0.7"`` (E1), ``"0.8"`` (E2), ``"0.22"`` (E3)."""
assert tuple(ERAS) == ERA_NAMES

DEFAULT_ERA = RELEASES[str(DEFAULT)].era
"""The era :func:`targetlang.parse` reads in when given none: ``"0.22"``."""


def era_for_version(tvm_version: str) -> str:
    """The era whose rules read the target strings a TVM version wrote.

    ``"0.7.dev0"`` is ``"0.7"``: a development version belongs to the release it leads to (early
    0.7 development builds still wrote E0 spellings such as ``-target=``; read those with
    ``"0.6"``). v0.24 - v0.27 wrote JSON, which the default era ``"0.22"`` reads. Raises
    :class:`ValueError` for anything that is not a TVM version targetlang knows.
    """
    return release(tvm_version).era


def release_reading(tvm_version: str) -> tuple[Era, Registry]:
    """How the strings TVM ``tvm_version`` wrote are read: its era's rules and its own registry
    (a release before v0.7, which had no schema, reads with its era's). Raises
    :class:`ValueError` for a version targetlang does not know."""
    found = release(tvm_version)
    rules = ERAS[found.era]
    return rules, builtin_registry(str(found)) if found.has_schema else rules.registry()


def era_named(name: str) -> Era:
    """The era named ``name``. Raises :class:`ValueError` for an unknown name."""
    found = ERAS.get(name) if isinstance(name, str) else None
    if found is None:
        names = ", ".join(repr(name) for name in ERAS)
        raise ValueError(f"unknown era {name!r}: one of {names} (era_for_version maps a TVM version to one)")
    return found


# ------------------------------------------------------------------------------------ registries

_E0_KINDS = (
    "llvm",
    "c",
    "cuda",
    "nvptx",
    "rocm",
    "opencl",
    "metal",
    "vulkan",
    "opengl",
    "sdaccel",
    "aocl",
    "aocl_sw_emu",
    "stackvm",
    "ext_dev",
    "hybrid",
    "hexagon",
)
_OPENGL_DEVICE_TYPE = 11  # kOpenGL in TVM <= v0.6


def era_registry(era: str) -> Registry:
    """The registry an era reads with by default (see the module documentation)."""
    return era_named(era).registry()


@functools.cache
def _era06_registry() -> Registry:
    # TVM <= v0.6 had no schema: v0.7's first one gives the attribute types of the few options
    # E0 read (only its option table decides what is accepted), and v0.6's opengl is added.
    base = builtin_registry(str(FIRST_SCHEMA))
    opengl = KindSchema.build(
        "opengl", {"system-lib": "bool"}, default_keys=("opengl",), device_type=_OPENGL_DEVICE_TYPE
    )
    kinds = [base.kinds[name] if name != "opengl" else opengl for name in _E0_KINDS]
    return Registry(kinds, {}, "")


@functools.cache
def _union(name: str, releases: tuple[str, ...]) -> Registry:
    """What the releases had together: the newest one's kinds and tags, plus whatever the older
    ones had and it dropped (v0.8's cuda.shared_memory_per_block)."""
    registries = [builtin_registry(version) for version in releases]
    if len(registries) == 1:
        return registries[0]
    newest = registries[-1]
    merged = dict(newest.kinds)
    tags = dict(newest.tags)
    for older in registries[:-1]:
        for kind_name, kind in older.kinds.items():
            mine = merged.get(kind_name)
            if mine is None:
                merged[kind_name] = kind
            elif set(kind.attrs) - set(mine.attrs):
                merged[kind_name] = replace(mine, attrs={**kind.attrs, **mine.attrs})
        for tag, config in older.tags.items():
            tags.setdefault(tag, config)
    return Registry(merged.values(), tags, name)


# ------------------------------------------------------------------------------------ words


class _Word(NamedTuple):
    """A word as the era reads it, and where it stands in the source."""

    text: str  # after the era's quote removal (E2); the source slice otherwise
    offsets: Sequence[int]  # the source index of each character of ``text``
    start: int  # the raw extent in the source, quotes included
    end: int


# C++ ``operator>>`` skips what ``isspace`` calls space in the C locale.
_NOT_SPACE = re.compile(r"[^ \t\n\v\f\r]+")


def _split_quoted(text: str, sep: str) -> list[_Word]:
    """E2: TVM v0.8's ``SplitString``.

    ``sep`` outside quotes ends a word; ``\\'`` is a quote character; a quote toggles quoting and
    is dropped; every other character, a backslash included, is kept. Empty words are dropped.
    """
    words: list[_Word] = []
    chars: list[str] = []
    offsets: list[int] = []
    start = -1
    quoted = False
    quote_at = -1
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c == sep and not quoted:
            if chars:
                words.append(_Word("".join(chars), tuple(offsets), start, i))
            chars, offsets, start = [], [], -1
            i += 1
            continue
        if start < 0:
            start = i
        if c == "\\" and i + 1 < n and text[i + 1] == "'":
            chars.append("'")
            offsets.append(i + 1)
            i += 2
        elif c == "'":
            quoted = not quoted
            quote_at = i
            i += 1
        else:
            chars.append(c)
            offsets.append(i)
            i += 1
    if quoted:
        raise MismatchedQuoteError("mismatched quote: this quote is never closed", text, quote_at, quote_at + 1)
    if chars:
        words.append(_Word("".join(chars), tuple(offsets), start, n))
    return words


def _getline_items(text: str) -> list[tuple[str, int]]:
    """``std::getline(stream, item, ',')`` in a loop: the items between commas with their offsets,
    empty ones included, except that a comma at the very end starts no item."""
    parts = text.split(",")
    if parts[-1] == "":
        parts.pop()
    items = []
    pos = 0
    for part in parts:
        items.append((part, pos))
        pos += len(part) + 1
    return items


# ------------------------------------------------------------------------------------ values

_INT32 = re.compile(r"[ \t\n\v\f\r]*([+-]?[0-9]+)")
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")

Nested = Callable[[str], Target]


def _stream_int32(text: str) -> int | None:
    """C++ ``istream >> int``: leading whitespace, a sign, digits up to the first non-digit; the
    value must fit 32 bits (on overflow the stream fails)."""
    match = _INT32.match(text)
    if match is None:
        return None
    return stream_int(match.group(1), -(2**31), 2**31 - 1)


def _not_text(attr: str, typ: TypeSpec, text: str) -> ValueConversionError:
    return ValueConversionError(
        f"attribute {show(attr)} has type {typ}, which cannot be written as text", text, 0, len(text)
    )


def _era07_value(text: str, typ: TypeSpec, attr: str, nested: Nested) -> Any:
    """TVM v0.7's ``ParseType`` from text. Errors carry ``text`` as their source."""
    name = typ.name
    if name == "string":
        return text  # ``is >> string`` of a word without whitespace is the word
    if name in ("int", "bool"):
        number = _stream_int32(text)
        if number is None:
            raise ValueConversionError(
                f"attribute {show(attr)} is {name}: cannot parse a 32-bit integer from {show(text)}", text, 0, len(text)
            )
        return number if name == "int" else number != 0
    if name == "target":
        return nested(text)
    if name == "array":
        assert typ.elem is not None
        values = []
        for item, offset in _getline_items(text):
            if not item:
                raise ValueConversionError(
                    f"attribute {show(attr)} has an empty item: TVM v0.7 could not read it", text, offset, offset + 1
                )
            try:
                values.append(_era07_value(item, typ.elem, attr, nested))
            except TargetError as err:
                raise err.relocated(text, range(offset, offset + len(item)), offset + len(item)) from None
        return tuple(values)
    raise _not_text(attr, typ, text)


def _era08_value(text: str, typ: TypeSpec, attr: str, nested: Nested) -> Any:
    """TVM v0.8's ``ParseType`` from text (no interpretation: the split removed the quotes)."""
    name = typ.name
    if name == "string":
        stripped = text.strip(" ")
        if text and not stripped:
            # TVM took substr(npos) of it and threw std::out_of_range.
            raise ValueConversionError(
                f"attribute {show(attr)} is only spaces, which TVM v0.8 - v0.9 could not read", text, 0, len(text)
            )
        return stripped
    if name in ("int", "bool"):
        number = _stream_int32(text)
        if number is None:
            lowered = text.translate(_ASCII_LOWER)  # C's tolower: ASCII letters only
            number = 1 if lowered == "true" else 0 if lowered == "false" else None
        if number is None:
            raise ValueConversionError(
                f"attribute {show(attr)} is {name}: cannot parse a 32-bit integer from {show(text)}", text, 0, len(text)
            )
        return number if name == "int" else number != 0
    if name == "target":
        return nested(text)
    if name == "array":
        assert typ.elem is not None
        values = []
        for item in _split_quoted(text, ","):
            try:
                values.append(_era08_value(item.text, typ.elem, attr, nested))
            except TargetError as err:
                raise err.relocated(text, item.offsets, item.end) from None
        return tuple(values)
    raise _not_text(attr, typ, text)


# ------------------------------------------------------------------------------------ options

_STRUCTURAL = ("keys", "tag", "host")
_Fields = tuple[dict[str, Any], dict[str, Any], dict[str, Span]]


def _store(key: str, typed: Any, attrs: dict[str, Any], fields: dict[str, Any]) -> None:
    if key in _STRUCTURAL:
        fields[key] = typed
    else:
        attrs[key] = typed


def _options(era: Era, text: str, words: list[_Word], schema: KindSchema, nested: Nested) -> _Fields:
    """E1 and E2: the options after the kind, as ``ParseKVPair`` and ``ParseType`` read them."""
    attrs: dict[str, Any] = {}
    fields: dict[str, Any] = {}
    spans: dict[str, Span] = {}
    n = len(words)
    i = 1
    while i < n:
        word = words[i]
        raw = text[word.start : word.end]
        body = word.text
        dashes = len(body) - len(body.lstrip("-"))
        if dashes == 0:
            raise MissingDashError(
                f"expected an option starting with '-', found {show(raw)}", text, word.start, word.end
            )
        if dashes == len(body):
            raise MissingDashError(
                f"{show(raw)} is not an option: dashes need a key after them", text, word.start, word.end
            )
        rest = body[dashes:]
        eq = rest.find("=")
        flag = False
        if eq >= 0:
            key, value = rest[:eq], rest[eq + 1 :]
            if not key or not value:
                raise EmptyKeyOrValueError(f"empty attribute key or value in {show(raw)}", text, word.start, word.end)
            value_offsets = word.offsets[dashes + eq + 1 :]
            value_start, value_end = value_offsets[0], word.end
        elif i + 1 < n and words[i + 1].text[0] != "-":
            key = rest
            following = words[i + 1]
            value, value_offsets = following.text, following.offsets
            value_start, value_end = following.start, following.end
            i += 1
        else:
            key, value, flag = rest, "1", True
            value_offsets, value_start, value_end = (), word.end, word.end
        key_offsets = word.offsets[dashes : dashes + len(key)]
        key_start, key_end = key_offsets[0], key_offsets[-1] + 1
        if key in spans or (key == "kind" and era.repeats_kind):
            raise DuplicateAttributeError(f"attribute {show(key)} is given more than once", text, key_start, key_end)
        spec = schema.attrs.get(key)
        if spec is None or spec.modern_only:
            raise unknown_attr(key, schema, text, key_start, key_end, era.name)
        try:
            typed = era.value(value, spec.type, key, nested)
        except TargetError as err:
            if flag:
                raise err.at(text, word.start, word.end) from None
            raise err.relocated(text, value_offsets, value_end) from None
        _store(key, typed, attrs, fields)
        spans[key] = (word.start, key_end, value_start, value_end)
        i += 1
    return attrs, fields, spans


# E0: the spellings TVM <= v0.6 acted on (build_module.cc, target.py, llvm_common.cc @v0.6.0).
_E0_PREFIXES = (("-device=", "device"), ("-keys=", "keys"), ("-libs=", "libs"), ("-model=", "model"))
_E0_FLAGS = ("-system-lib", "--system-lib")
_E0_LLVM_KINDS = frozenset({"llvm", "nvptx", "rocm"})  # their code generators ran LLVM's option parser
_E0_LLVM_OPTIONS = {
    "-target": "mtriple",
    "-mtriple": "mtriple",
    "-mcpu": "mcpu",
    "-mattr": "mattr",
    "-mfloat-abi": "mfloat-abi",
}
_E0_LISTS = frozenset({"keys", "libs", "mattr"})
_STRING_LIST = TypeSpec("array", TypeSpec("string"))


def _era06_unknown(option: str, schema: KindSchema, text: str, start: int, end: int) -> UnknownAttributeError:
    known = [prefix[:-1] for prefix, _ in _E0_PREFIXES] + ["-system-lib"]
    if schema.name in _E0_LLVM_KINDS:
        known += list(_E0_LLVM_OPTIONS)
    close = suggest(option, known)
    err = UnknownAttributeError(
        f"TVM <= v0.6 did not read option {show(option)} for kind {show(schema.name)}{hint(close)}", text, start, end
    )
    err.suggestions = close
    return err


def _era06_options(era: Era, text: str, words: list[_Word], schema: KindSchema) -> _Fields:
    """E0: the options after the kind, recognised by the spellings TVM <= v0.6 scanned for."""
    attrs: dict[str, Any] = {}
    fields: dict[str, Any] = {}
    spans: dict[str, Span] = {}
    llvm = schema.name in _E0_LLVM_KINDS
    n = len(words)
    i = 1
    while i < n:
        word = words[i]
        raw = word.text
        value: str | None
        if raw in _E0_FLAGS:
            attr, value = "system-lib", None
            key_start, key_end = word.end - len(attr), word.end
            value_start = value_end = word.end
        else:
            prefix = next((p for p in _E0_PREFIXES if raw.startswith(p[0])), None)
            if prefix is not None:
                attr, value = prefix[1], raw[len(prefix[0]) :]
                key_start, key_end = word.start + 1, word.start + len(prefix[0]) - 1
                value_start, value_end = key_end + 1, word.end
            elif not raw.startswith("-"):
                raise MissingDashError(
                    f"expected an option starting with '-', found {show(raw)}", text, word.start, word.end
                )
            else:
                eq = raw.find("=")
                option = raw[:eq] if eq >= 0 else raw
                key_start, key_end = word.start + 1, word.start + len(option)
                found = _E0_LLVM_OPTIONS.get(option) if llvm else None
                if found is None:
                    if option in (p[0][:-1] for p in _E0_PREFIXES):
                        raise TargetSyntaxError(
                            f"TVM <= v0.6 read {show(option)} only in the form {show(option + '=VALUE')}",
                            text,
                            word.start,
                            word.end,
                        )
                    raise _era06_unknown(option, schema, text, word.start, word.start + len(option))
                attr = found
                if eq >= 0:
                    value, value_start, value_end = raw[eq + 1 :], word.start + eq + 1, word.end
                elif i + 1 < n:
                    # LLVM's parser took the next word as the value, whatever it looked like.
                    following = words[i + 1]
                    value, value_start, value_end = following.text, following.start, following.end
                    i += 1
                else:
                    raise EmptyKeyOrValueError(
                        f"option {show(option)} needs a value ('{option}=VALUE' or '{option} VALUE')",
                        text,
                        word.start,
                        word.end,
                    )
            if not value:
                raise EmptyKeyOrValueError(f"empty attribute key or value in {show(raw)}", text, word.start, word.end)
        if attr in spans:
            raise DuplicateAttributeError(f"attribute {show(attr)} is given more than once", text, key_start, key_end)
        spec = schema.attrs.get(attr)
        if spec is None or spec.modern_only:
            raise unknown_attr(attr, schema, text, key_start, key_end, era.name)
        typed: Any
        if value is None and spec.type.name == "bool":
            typed = True
        elif value is not None and attr in _E0_LISTS and spec.type == _STRING_LIST:
            typed = tuple(item for item, _ in _getline_items(value))
        elif value is not None and attr not in _E0_LISTS and spec.type.name == "string":
            if attr == "mfloat-abi" and value not in ("hard", "soft"):
                raise ValueConversionError(
                    f"attribute 'mfloat-abi' is 'hard' or 'soft' in TVM <= v0.6, not {show(value)}",
                    text,
                    value_start,
                    value_end,
                )
            typed = value
        else:
            raise ValueConversionError(
                f"attribute {show(attr)} has type {spec.type}, which TVM <= v0.6's option {show(raw)} cannot give",
                text,
                word.start,
                word.end,
            )
        _store(attr, typed, attrs, fields)
        spans[attr] = (word.start, key_end, value_start, value_end)
        i += 1
    return attrs, fields, spans
