"""``logs migrate``: each record's target rewritten to the modern form, every other byte kept.

A :class:`LogMigrator` turns one :class:`~targetlang.logs.Record` into a
:class:`RecordMigration`: the line with only its target values replaced (by
:func:`~targetlang.logs.splice`), the changes made, and the problems that kept a field verbatim.
Nothing is dropped: a line that cannot be migrated comes out exactly as it went in.

What a field becomes:

* a target string (AutoTVM, auto_scheduler, a pickle row's column) becomes, with ``to="json"``,
  the JSON text of the migrated target, still a string (``Target(s)`` of TVM >= 0.24 reads JSON
  text), or with ``to="canonical"`` its canonical legacy string;
* meta-schedule's target object becomes the migrated object, with the old text's separators;
* auto_scheduler's separately stored host is folded into the target's ``host`` and migrated in
  its own field too (``""``, no host, stays ``""``).

A field already in the wanted form that no rule changes is left as written, so a second run changes
nothing.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from .._cache import LruCache
from .._parsing import parse
from .._versions import MODERN, release_title
from ..errors import TargetError, pointed
from ..migration import Change, Migration, Policy, migrate, modern_release
from ._loading import blank_load, loader_of
from .check import FileSummary, Problem
from .formats import Format
from .records import Field, Record, encode_value, json_text, splice, writer_version
from .report import counts, plural
from .targets import DEFAULT_ERA, TargetReader

__all__ = ["FORMS", "FieldMigration", "LogMigrator", "MigrateSummary", "RecordMigration"]

Form = Literal["json", "canonical"]
FORMS: tuple[Form, ...] = ("json", "canonical")

# Distinct targets kept migrated at once, and at most _cache.TEXT_BUDGET characters of their text
# (6 MB at the very most); a log repeats a few targets, a generated one may not.
_CACHE_SIZE = 4096


@dataclass(frozen=True, slots=True)
class FieldMigration:
    """What became of one target field: its new text (``None``: kept as written), the changes
    migration makes, and the problem that kept it (``None`` when it migrated). The fields of a
    record with a problem are all kept as written."""

    field: Field
    era: str
    text: str | None
    changes: tuple[Change, ...]
    problem: Problem | None = None

    @property
    def written(self) -> bool:
        """Whether the field gets new text (its changes were made)."""
        return self.text is not None

    @property
    def warnings(self) -> tuple[Change, ...]:
        """The changes that are warnings: they hold whether or not the field gets new text."""
        return tuple(change for change in self.changes if change.severity == "warning")


@dataclass(frozen=True, slots=True)
class RecordMigration:
    """One line after migration: ``text`` (without its line break) and what happened to each field."""

    record: Record
    text: str
    fields: tuple[FieldMigration, ...] = ()
    problem: Problem | None = None  # the line is no record of a known format

    @property
    def changed(self) -> bool:
        """Whether the line is different."""
        return self.text != self.record.text

    @property
    def problems(self) -> list[Problem]:
        """Why the line, or one of its fields, was kept as written."""
        found = [self.problem] if self.problem is not None else []
        return found + [f.problem for f in self.fields if f.problem is not None]


@dataclass
class MigrateSummary(FileSummary):
    """What ``logs migrate`` did to one file (or to all, for the total)."""

    changed: int = 0  # records whose line changed
    rules: Counter[str] = field(default_factory=Counter)  # changes made, by rule
    loader: str | None = None  # the TVM loader of the file (of its first record), once known

    def add(self, other: FileSummary) -> None:
        """Count ``other`` in too (for the total over several files)."""
        super().add(other)
        if isinstance(other, MigrateSummary):
            self.changed += other.changed
            self.rules.update(other.rules)

    def count(self, result: RecordMigration) -> None:
        """Count one record's migration. A blank line the loader fails on is a record of its own
        sort, ``blank``, as ``check`` counts it; the file's loader is the one of its first record."""
        self.lines += 1
        record = result.record
        if record.format is Format.COMMENT and result.problem is None:
            self.comments += 1
            return
        self.formats["blank" if record.format is Format.COMMENT else record.format.value] += 1
        if self.loader is None:
            self.loader = loader_of(record.format)
        self.changed += result.changed
        for item in result.fields:
            if item.written:  # a field kept as written had no change made
                self.rules.update(change.rule for change in item.changes)
        problems = result.problems
        if problems:
            self.failed += 1
            self.problems.update(f"{p.rule}: {p.error}" for p in problems)

    def human(self, verb: str = "changed") -> str:
        """One line: records, how many changed (or would), failed, and the changes by rule."""
        rules = f"; changes: {counts(self.rules)}" if self.rules else ""
        problems = f" ({counts(self.problems)})" if self.problems else ""
        return (
            f"{self.file}: {plural(self.records, 'record')}, {self.changed} {verb}, "
            f"{self.records - self.changed - self.failed} unchanged, {self.failed} kept as written{problems}{rules}"
        )

    def to_json(self) -> dict[str, Any]:
        """The summary as one JSON object (``"record": "summary"``)."""
        return {
            **self._json(),
            "changed": self.changed,
            "failed": self.failed,
            "rules": dict(sorted(self.rules.items())),
            "problems": dict(sorted(self.problems.items())),
        }


class LogMigrator:
    """Migrates records one at a time, each distinct target once.

    ``to`` is the form of target strings (``"json"`` or ``"canonical"``); ``policy`` and
    ``compress_tags`` are :func:`targetlang.migrate`'s, and ``target_version`` its ``to`` (the
    modern release written for, the newest by default); ``reader`` gives the era of each record
    (from its TVM version, or the version it assumes for records that do not say) and the
    registry whose user kinds and tags the targets may use. With ``remember``, the new text of
    each distinct field is kept as well (in a bounded cache), not written again for each record.
    """

    def __init__(
        self,
        to: Form = "json",
        policy: Policy = "error",
        *,
        compress_tags: bool = False,
        reader: TargetReader | None = None,
        remember: bool = False,
        target_version: str = str(MODERN),
    ) -> None:
        if to not in FORMS:
            raise ValueError(f"to must be one of {', '.join(FORMS)}")
        self.to = to
        self.target_version = modern_release(target_version)
        self.policy = policy
        self.compress_tags = compress_tags
        self.reader = reader if reader is not None else TargetReader()
        self._cache: LruCache[tuple[str, str | None, str], Migration | TargetError] = LruCache(_CACHE_SIZE)
        # With ``remember``, what becomes of each distinct field (its new text, changes, problem)
        # is kept too, as the ``logs`` commands want for millions of records; without it, only
        # the migrations of the distinct targets are, and the new text is written each time.
        self._fields: LruCache[tuple[Any, ...], _Made] | None = LruCache(_CACHE_SIZE) if remember else None

    def migrate(self, record: Record, loader: str | None = None) -> RecordMigration:
        """``record`` migrated; its text unchanged where nothing needs to change or nothing can.
        A line of no known format, or a blank line the file's ``loader`` (see
        :func:`~targetlang.logs._loading.loader_of`; AutoTVM's when ``None``) fails on, is kept
        and has a problem, as ``check`` reports it."""
        if record.format is Format.UNKNOWN:
            why = record.problem
            problem = Problem(record.file, record.line, "record", None, "UnknownRecord", why, why, None, None, None)
            return RecordMigration(record, record.text, (), problem)
        if record.format is Format.COMMENT:
            blank = blank_load(record, loader)
            if blank is None:
                return RecordMigration(record, record.text)
            why = blank.message
            problem = Problem(record.file, record.line, "record", None, blank.error, why, why, None, None, None)
            return RecordMigration(record, record.text, (), problem)
        if not record.fields:
            return RecordMigration(record, record.text)
        era = self.reader.era(writer_version(record))
        host = record.host or None  # auto_scheduler's "" is no host
        results = [self._field(record, f, era, host if f.name == "target" else None) for f in record.fields]
        if any(result.problem is not None for result in results):
            # A record is migrated whole or not at all: its target and host belong together.
            results = [replace(result, text=None) for result in results]
        text = record.text
        # Splice from the end of the line, so that the spans of the fields before stay right.
        for result in sorted(results, key=lambda r: r.field.start, reverse=True):
            if result.text is not None:
                text = text[: result.field.start] + result.text + text[result.field.end :]
        return RecordMigration(record, text, tuple(results))

    def _migrated(self, spec: str, host: str | None, era: str) -> Migration | TargetError:
        key = (spec, host, era)
        found = self._cache.get(key)
        if found is None:
            try:
                found = migrate(
                    spec,
                    era=None if era == DEFAULT_ERA else era,
                    policy=self.policy,
                    host=host,
                    compress_tags=self.compress_tags,
                    registry=self.reader.registry,
                    to=self.target_version,
                )
            except TargetError as err:
                found = err
            self._cache.put(key, found)
        return found

    def _field(self, record: Record, target: Field, era: str, host: str | None) -> FieldMigration:
        if not target.spec and target.name == "host":
            return FieldMigration(target, era, None, ())
        if target.spec.lstrip().startswith("{"):
            # JSON text reads the same in every era that has it, and TVM <= v0.6 had none: this
            # is a target an earlier run wrote (or a meta-schedule object).
            era = DEFAULT_ERA
        if self._fields is None:
            made = self._make(record, target, era, host)
        else:
            # What becomes of the field depends on its spec, era and host, and on how the old
            # value was written (a string token: whether it is ASCII; an object: its text).
            old = record.text[target.start : target.end]
            written_as: str | bool | None = old if target.encoding == "object" else old.isascii()
            key = (target.name, target.spec, target.encoding, written_as, era, host)
            found = self._fields.get(key)
            if found is None:
                found = self._make(record, target, era, host)
                self._fields.put(key, found)
            made = found
        text, changes, problem = made
        if problem is None:
            return FieldMigration(target, era, text, changes)
        rule, error, message, detail, span = problem
        return FieldMigration(
            target, era, None, changes, self._problem(record, target, era, rule, error, message, detail, span)
        )

    def _make(self, record: Record, target: Field, era: str, host: str | None) -> _Made:
        """What becomes of ``target`` (in ``era``, with ``host``): its new text (``None``: kept as
        written), the changes, and the problem that keeps it, as ``(rule, error, message,
        detail, span)``."""
        try:
            result = self._migrated(target.spec, host, era)
        except Exception as err:  # one target that trips a bug must not end a whole log
            message = f"internal error (a bug in targetlang): {type(err).__name__}: {err}"
            return None, (), ("migrate", type(err).__name__, message, message, None)
        if isinstance(result, TargetError):
            span = result.span if result.source == target.spec else None
            return None, (), ("parse", type(result).__name__, result.message, str(result), span)
        changes = result.changes
        if result.json is None:
            first = next(c for c in changes if c.severity == "error")
            detail = pointed(first.message, target.spec, *first.span) if first.span is not None else first.message
            return None, changes, ("migrate", first.rule, first.message, detail, first.span)
        try:
            written = self._written(target, result, era)
        except _NoCanonicalForm as err:
            message = str(err)
            return None, changes, ("migrate", "NoCanonicalForm", message, message, None)
        if written is None:
            return None, changes, None
        return splice_text(record, target, written), changes, None

    def _written(self, target: Field, result: Migration, era: str) -> str | dict[str, Any] | None:
        """The new value of ``target`` (``None``: keep it as written)."""
        assert result.json is not None
        if target.encoding == "object" or self.to == "json":
            if _same_json(target.spec, result):
                return None
            return result.json if target.encoding == "object" else json_text(result.json)
        if result.target is None:
            raise _NoCanonicalForm(
                f"the migrated target keeps what {release_title(self.target_version)} rejects, "
                "so it has no canonical string: use --to json"
            )
        canonical = result.target.canonical()
        if canonical == target.spec:
            return None
        if era != DEFAULT_ERA:
            # The record still says which TVM wrote it, and is read by that TVM's rules: write the
            # canonical string only where those rules read it as the migrated target.
            try:
                same = parse(canonical, era=era) == result.target
            except TargetError:
                same = False
            if not same:
                raise _NoCanonicalForm(
                    f"the canonical string reads differently by the rules of the TVM that wrote this record "
                    f"(era {era}): use --to json"
                )
        return canonical

    def _problem(
        self,
        record: Record,
        target: Field,
        era: str,
        rule: str,
        error: str,
        message: str,
        detail: str,
        span: tuple[int, int] | None,
    ) -> Problem:
        return Problem(record.file, record.line, rule, target.name, error, message, detail, target.spec, span, era)


# What becomes of a field: its new text (None: kept as written), the changes, and the problem
# that keeps it as (rule, error, message, detail, span).
_Made = tuple[str | None, tuple[Change, ...], tuple[str, str, str, str, tuple[int, int] | None] | None]


class _NoCanonicalForm(Exception):
    """A target migrated under policy ``keep`` that only the JSON form can hold."""


def _same_json(spec: str, result: Migration) -> bool:
    """Whether ``spec`` is strict JSON text that needs no change: no rule applied, or it decodes
    to the migrated JSON itself (a second run, where only the already folded host is reported)."""
    if not spec.lstrip().startswith("{"):
        return False
    try:
        decoded = json.loads(spec)
    except ValueError:  # JSON-ish text, which TVM does not read: written anew
        return False
    return not result.changes or _without_empty_tags(decoded) == result.json


def _without_empty_tags(value: Any) -> Any:
    # TVM's export writes "tag": "" at every level, which means no tag, as its absence does.
    if isinstance(value, dict):
        return {k: _without_empty_tags(v) for k, v in value.items() if (k, v) != ("tag", "")}
    if isinstance(value, list):
        return [_without_empty_tags(v) for v in value]
    return value


def splice_text(record: Record, target: Field, value: str | dict[str, Any]) -> str:
    """The text that replaces ``target``'s value: ``value`` written as the record's writer wrote it."""
    new = encode_value(record, target, value)
    splice(record, target, new)  # checks that the new text is of the field's sort
    return new
