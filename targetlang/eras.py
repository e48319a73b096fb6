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
* **Registries.** E1 uses ``builtin_registry("0.7")``, E2 the union of ``builtin_registry("0.8")``
  and ``builtin_registry("0.9")`` (v0.9's kinds plus v0.8's ``cuda.shared_memory_per_block``), E3
  ``builtin_registry()``. These are v0.22's schema plus what the era had and v0.22 dropped, so they
  accept a few attributes that came later. Pass ``registry=`` to use another.

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
from .lexical import stream_int
from .parsing import _check_required, _hint, _suggest, _unknown_attr, depth_limit, parse
from .registry import Registry, builtin_registry
from .schema import KindSchema, TypeSpec
from .target import Span, Target

__all__ = ["ERAS", "Era", "era_for_version", "era_registry", "parse_in_era"]


@dataclass(frozen=True)
class Era:
    """One era of the target-string language (spec 1.2).

    Attributes:
        name: the era's name, the version of its registry (``"0.8"``).
        label: the spec's label (``"E2"``).
        first, last: the oldest and newest TVM release of the era, as ``(major, minor)``.
        registries: the ``builtin_registry`` versions whose union is the era's default registry.
        summary: how the era read a target string.
    """

    name: str
    label: str
    first: tuple[int, int]
    last: tuple[int, int]
    registries: tuple[str, ...]
    summary: str

    @property
    def releases(self) -> str:
        """The TVM releases of the era, as text (``"TVM v0.8 - v0.9"``)."""
        if self.first == (0, 1):
            return f"TVM <= v{self.last[0]}.{self.last[1]}"
        if self.first == self.last:
            return f"TVM v{self.first[0]}.{self.first[1]}"
        return f"TVM v{self.first[0]}.{self.first[1]} - v{self.last[0]}.{self.last[1]}"


ERAS: Mapping[str, Era] = MappingProxyType(
    {
        era.name: era
        for era in (
            Era(
                "0.6",
                "E0",
                (0, 1),
                (0, 6),
                ("0.7",),
                "words split at any whitespace; options kept verbatim, recognised by their spelling",
            ),
            Era(
                "0.7",
                "E1",
                (0, 7),
                (0, 7),
                ("0.7",),
                "words split at any whitespace, no quoting; 32-bit integers; empty array items rejected",
            ),
            Era(
                "0.8",
                "E2",
                (0, 8),
                (0, 9),
                ("0.8", "0.9"),
                "quote-aware split at spaces that removes the quotes; no per-value interpretation",
            ),
            Era(
                "0.22",
                "E3",
                (0, 10),
                (0, 23),
                ("0.22",),
                "quotes and escapes kept by the split and interpreted per value (targetlang.parse)",
            ),
        )
    }
)
"""The eras, oldest first, by name: ``"0.6"`` (E0), ``"0.7"`` (E1), ``"0.8"`` (E2), ``"0.22"`` (E3)."""

# TVM's version strings: 0.7.dev0, 0.8.0, v0.9.0, 0.19.dev123, 0.9.dev1092+g0123abc, 0.22.0.post1.
_VERSION = re.compile(r"v?(\d+)\.(\d+)(?:\.\d+)*(?:[.\-_]?(?:dev|rc|a|b|post)\d*)*(?:\+[0-9A-Za-z._\-]+)?")
# The JSON-only releases (E4) wrote JSON objects and tag names, which the default reader reads.
_JSON_ONLY = ((0, 24), (0, 27))


def era_for_version(tvm_version: str) -> str:
    """The era whose rules read the target strings a TVM version wrote.

    ``"0.7.dev0"`` is ``"0.7"``: a development version belongs to the release it leads to (early
    0.7 development builds still wrote E0 spellings such as ``-target=``; read those with
    ``"0.6"``). v0.24 - v0.27 wrote JSON, which the default era ``"0.22"`` reads. Raises
    :class:`ValueError` for anything that is not a TVM version from v0.1 to v0.27.
    """
    match = _VERSION.fullmatch(tvm_version) if isinstance(tvm_version, str) else None
    if match is None:
        raise ValueError(f"not a TVM version: {tvm_version!r} (expected something like '0.8.0' or '0.7.dev0')")
    version = (int(match[1]), int(match[2]))
    for era in ERAS.values():
        if era.first <= version <= era.last:
            return era.name
    if _JSON_ONLY[0] <= version <= _JSON_ONLY[1]:
        return "0.22"
    raise ValueError(f"unknown TVM version {tvm_version!r}: targetlang knows TVM v0.1 to v0.27")


def _check_era(era: str) -> Era:
    found = ERAS.get(era) if isinstance(era, str) else None
    if found is None:
        names = ", ".join(repr(name) for name in ERAS)
        raise ValueError(f"unknown era {era!r}: one of {names} (era_for_version maps a TVM version to one)")
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


@functools.cache
def era_registry(era: str) -> Registry:
    """The registry an era reads with by default (see the module documentation)."""
    found = _check_era(era)
    if found.label == "E0":
        base = builtin_registry(found.registries[0])
        opengl = KindSchema.build(
            "opengl", {"system-lib": "bool"}, default_keys=("opengl",), device_type=_OPENGL_DEVICE_TYPE
        )
        kinds = [base.kinds[name] if name != "opengl" else opengl for name in _E0_KINDS]
        return Registry(kinds, {}, era)
    if found.label == "E3":
        return builtin_registry()  # the very registry targetlang.parse reads with by default
    registries = [builtin_registry(version) for version in found.registries]
    if len(registries) == 1:
        return registries[0]
    # The union of the era's releases: the newest one's kinds and tags, plus whatever the older
    # ones had and it dropped (v0.8's cuda.shared_memory_per_block).
    newest = registries[-1]
    merged = dict(newest.kinds)
    for older in registries[:-1]:
        for name, kind in older.kinds.items():
            mine = merged.get(name)
            if mine is None:
                merged[name] = kind
            elif set(kind.attrs) - set(mine.attrs):
                merged[name] = replace(mine, attrs={**kind.attrs, **mine.attrs})
    return Registry(merged.values(), newest.tags, era)


# ------------------------------------------------------------------------------------ words


class _Word(NamedTuple):
    """A word as the era reads it, and where it stands in the source."""

    text: str  # after the era's quote removal (E2); the source slice otherwise
    offsets: Sequence[int]  # the source index of each character of ``text``
    start: int  # the raw extent in the source, quotes included
    end: int


# C++ ``operator>>`` skips what ``isspace`` calls space in the C locale.
_NOT_SPACE = re.compile(r"[^ \t\n\v\f\r]+")


def _split_whitespace(text: str) -> list[_Word]:
    """E0/E1: ``istringstream >> word``, which splits at any whitespace and knows no quotes."""
    return [_Word(m.group(), range(m.start(), m.end()), m.start(), m.end()) for m in _NOT_SPACE.finditer(text)]


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


def _e1_value(text: str, typ: TypeSpec, attr: str, nested: Nested) -> Any:
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
                values.append(_e1_value(item, typ.elem, attr, nested))
            except TargetError as err:
                raise err.relocated(text, range(offset, offset + len(item)), offset + len(item)) from None
        return tuple(values)
    raise _not_text(attr, typ, text)


def _e2_value(text: str, typ: TypeSpec, attr: str, nested: Nested) -> Any:
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
                values.append(_e2_value(item.text, typ.elem, attr, nested))
            except TargetError as err:
                raise err.relocated(text, item.offsets, item.end) from None
        return tuple(values)
    raise _not_text(attr, typ, text)


# ------------------------------------------------------------------------------------ errors


def _unknown_kind(name: str, era: Era, registry: Registry, text: str, start: int, end: int) -> UnknownKindError:
    choices = [*registry.kinds] if era.label == "E0" else [*registry.kinds, *registry.tags]
    message = f"unknown target kind {show(name)}{_hint(_suggest(name, choices))}"
    if era.label == "E0":
        message += " (TVM <= v0.6 logged an error and used 'stackvm' instead)"
    return UnknownKindError(message, text, start, end)


_STRUCTURAL = ("keys", "tag", "host")


# ------------------------------------------------------------------------------------ reading


def parse_in_era(text: str, era: str, *, registry: Registry | None = None) -> Target:
    """Read ``text`` as the TVM of ``era`` read it (``"0.6"``, ``"0.7"``, ``"0.8"`` or ``"0.22"``).

    ``str()`` of the result is ``text``, exactly. ``registry`` defaults to
    :func:`era_registry` ``(era)``. Nothing is resolved. Raises :class:`ValueError` for an unknown
    era and a :class:`~targetlang.TargetError` subclass, with ``text`` and a span, for bad input.
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_in_era reads a target string, not {type(text).__name__}")
    found = _check_era(era)
    return _parse_cached(
        text, found.name, registry if registry is not None else era_registry(found.name), depth_limit()
    )


@functools.lru_cache(maxsize=4096)
def _parse_cached(text: str, era: str, registry: Registry, max_depth: int) -> Target:
    return _read(text, ERAS[era], registry, 0)


def _read(text: str, era: Era, registry: Registry, depth: int) -> Target:
    if depth > depth_limit():
        raise NestingTooDeepError(f"targets nest more than {depth_limit()} levels deep", text, 0, len(text))
    if era.label == "E3":
        return parse(text, registry=registry)
    if era.label != "E0" and (text in registry.tags or text.startswith("{")):
        # Tag names and JSON objects were dispatched before the string reader, and a config dict
        # was read the same way from v0.7 to v0.23.
        return parse(text, registry=registry)
    words = _split_whitespace(text) if era.label != "E2" else _split_quoted(text, " ")
    if not words:
        raise TargetSyntaxError("cannot parse an empty target string", text, 0, len(text))
    kind_word = words[0]
    schema = registry.kinds.get(kind_word.text)
    if schema is None:
        raise _unknown_kind(kind_word.text, era, registry, text, kind_word.start, kind_word.end)
    if schema.modern_only:
        raise UnknownKindError(
            f"kind {show(schema.name)} came after TVM v0.23: write this target in the JSON form",
            text,
            kind_word.start,
            kind_word.end,
        )
    reader = _e0_options if era.label == "E0" else _options
    attrs, fields, spans = reader(text, words, schema, era, registry, depth)
    _check_required(schema, attrs, text, kind_word.start, kind_word.end)
    return Target._make(schema, registry, attrs=attrs, text=text, text_form=f"era {era.name}", spans=spans, **fields)


_Fields = tuple[dict[str, Any], dict[str, Any], dict[str, Span]]


def _store(key: str, typed: Any, attrs: dict[str, Any], fields: dict[str, Any]) -> None:
    if key in _STRUCTURAL:
        fields[key] = typed
    else:
        attrs[key] = typed


def _options(text: str, words: list[_Word], schema: KindSchema, era: Era, registry: Registry, depth: int) -> _Fields:
    """E1 and E2: the options after the kind, as ``ParseKVPair`` and ``ParseType`` read them."""
    convert = _e1_value if era.label == "E1" else _e2_value
    attrs: dict[str, Any] = {}
    fields: dict[str, Any] = {}
    spans: dict[str, Span] = {}

    def nested(value: str) -> Target:
        return _read(value, era, registry, depth + 1)

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
        # v0.8's config started as {"kind": NAME}, so -kind= repeated it; v0.7 did not know the key.
        if key in spans or (key == "kind" and era.label == "E2"):
            raise DuplicateAttributeError(f"attribute {show(key)} is given more than once", text, key_start, key_end)
        spec = schema.attrs.get(key)
        if spec is None or spec.modern_only:
            raise _unknown_attr(key, schema, text, key_start, key_end, era.name)
        try:
            typed = convert(value, spec.type, key, nested)
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


def _e0_unknown(option: str, schema: KindSchema, text: str, start: int, end: int) -> UnknownAttributeError:
    known = [prefix[:-1] for prefix, _ in _E0_PREFIXES] + ["-system-lib"]
    if schema.name in _E0_LLVM_KINDS:
        known += list(_E0_LLVM_OPTIONS)
    close = _suggest(option, known)
    err = UnknownAttributeError(
        f"TVM <= v0.6 did not read option {show(option)} for kind {show(schema.name)}{_hint(close)}", text, start, end
    )
    err.suggestions = close
    return err


def _e0_options(text: str, words: list[_Word], schema: KindSchema, era: Era, registry: Registry, depth: int) -> _Fields:
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
                    raise _e0_unknown(option, schema, text, word.start, word.start + len(option))
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
            raise _unknown_attr(attr, schema, text, key_start, key_end, era.name)
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
