"""The eras as objects: how each splits a target string into words, converts values and reads
options, whether it reads tags and JSON; and which era and registry a TVM release reads with."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from .._diagnostics import check_required, depth_limit, hint, modern_kind, suggest
from .._registry import Registry, builtin_registry
from .._schema import KindSchema, TypeSpec
from .._target import Target, make_target
from .._versions import DEFAULT, ERA_BOUNDS, ERA_NAMES, RELEASES, SCHEMA_RELEASES, Release, Version, release
from ..errors import NestingTooDeepError, TargetSyntaxError, UnknownKindError, show
from ._options import Fields, era06_options, read_options
from ._registries import era06_registry, union_registry
from ._words import NOT_SPACE, Nested, Word, era07_value, era08_value, split_quoted

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
        return union_registry(self.name, self.schemas)

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
        return make_target(
            schema, registry, attrs=attrs, text=text, text_form=f"era {self.name}", spans=spans, **fields
        )

    # What each era does its own way.
    reads_tags_and_json = True
    repeats_kind = False  # v0.8's config started as {"kind": NAME}, so -kind= repeated it

    def split(self, text: str) -> list[Word]:
        """``istringstream >> word``, which splits at any whitespace and knows no quotes."""
        return [Word(m.group(), range(m.start(), m.end()), m.start(), m.end()) for m in NOT_SPACE.finditer(text)]

    def value(self, text: str, typ: TypeSpec, attr: str, nested: Nested) -> Any:
        """A value from its text, as the era's ``ParseType`` read it."""
        raise NotImplementedError

    def options(self, text: str, words: list[Word], schema: KindSchema, nested: Nested) -> Fields:
        """The options after the kind, as ``ParseKVPair`` and ``ParseType`` read them."""
        return read_options(self, text, words, schema, nested)

    def unknown_kind(self, name: str, registry: Registry, text: str, start: int, end: int) -> UnknownKindError:
        message = f"unknown target kind {show(name)}{hint(suggest(name, [*registry.kinds, *registry.tags]))}"
        return UnknownKindError(message, text, start, end)


class _Era06(Era):
    """TVM <= v0.6: no schema, no tags, no JSON; options recognised by their spelling."""

    reads_tags_and_json = False

    def registry(self) -> Registry:
        return era06_registry()

    def options(self, text: str, words: list[Word], schema: KindSchema, nested: Nested) -> Fields:
        return era06_options(self, text, words, schema)

    def unknown_kind(self, name: str, registry: Registry, text: str, start: int, end: int) -> UnknownKindError:
        message = f"unknown target kind {show(name)}{hint(suggest(name, registry.kinds))}"
        message += " (TVM <= v0.6 logged an error and used 'stackvm' instead)"
        return UnknownKindError(message, text, start, end)


class _Era07(Era):
    """TVM v0.7: whitespace split, no quoting, 32-bit integers."""

    def value(self, text: str, typ: TypeSpec, attr: str, nested: Nested) -> Any:
        return era07_value(text, typ, attr, nested)


class _Era08(Era):
    """TVM v0.8 - v0.9: quote-aware split that removes the quotes."""

    repeats_kind = True

    def split(self, text: str) -> list[Word]:
        return split_quoted(text, " ")

    def value(self, text: str, typ: TypeSpec, attr: str, nested: Nested) -> Any:
        return era08_value(text, typ, attr, nested)


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


def release_reading(tvm_version: str | Version | Release) -> tuple[Era, Registry]:
    """How the strings TVM ``tvm_version`` wrote are read: its era's rules and its own registry
    (a release before v0.7, which had no schema, reads with its era's). Raises
    :class:`ValueError` for a version targetlang does not know."""
    found = release(tvm_version)
    rules = ERAS[found.era]
    return rules, builtin_registry(found) if found.has_schema else rules.registry()


def era_named(name: str) -> Era:
    """The era named ``name``. Raises :class:`ValueError` for an unknown name."""
    found = ERAS.get(name) if isinstance(name, str) else None
    if found is None:
        names = ", ".join(repr(name) for name in ERAS)
        raise ValueError(f"unknown era {name!r}: one of {names} (era_for_version maps a TVM version to one)")
    return found


def era_registry(era: str) -> Registry:
    """The registry an era reads with by default (see the module documentation)."""
    return era_named(era).registry()
