"""Migrating legacy targets to the modern JSON form, with every change explained.

TVM >= 0.24 reads only JSON/dict targets and rejects the attributes and kinds it removed over the
years. :func:`migrate` reads a target as old TVM did (any era, removed attributes included),
applies the migration rules (:data:`RULES`, one :class:`Rule` object each, in order), and returns
the modern JSON with one :class:`Change` per rule applied: a stable rule id, a message, and where
the change is in the input. The JSON is checked against the schema of the modern release written
for (``to``: 0.24 to 0.27, the newest by default) and the checks of its canonicalisers
(``data/checks-v0.27.json``): what that release would reject is an error.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .._eras import DEFAULT_ERA
from .._lexical import MKLDNN
from .._parsing import parse
from .._registry import Registry, reading_tags_of
from .._resolution import Environment
from .._target import Target
from .._versions import MODERN, MODERN_RELEASES, NAMED_DISTRIBUTIONS, Version
from ..errors import TargetError
from ._fate import Origin, attribute_fate, kind_fate, modern_attribute
from ._model import POLICIES, Change, Run
from ._model import REMOVED_ATTRS as REMOVED_ATTRS
from ._model import REMOVED_KINDS as REMOVED_KINDS
from ._model import Policy as Policy
from ._model import legacy_registry as legacy_registry
from ._model import reading_registry as reading_registry
from ._rules import RULE_ALIASES, RULES, Rule, convert, docs_table, equal_tags, rule_id

__all__ = [
    "POLICIES",
    "RULES",
    "RULE_ALIASES",
    "Change",
    "Migration",
    "Origin",
    "Rule",
    "attribute_fate",
    "docs_table",
    "equal_tags",
    "kind_fate",
    "migrate",
    "modern_attribute",
    "modern_release",
    "rule_id",
]


def modern_release(text: str) -> str:
    """The target distribution ``text`` names, as migration's ``to`` takes it: a modern release
    (``"0.25"``, ``"v0.25.0"``) or a named distribution (``"tirx-0.1"``: TVM TIRx). Raises
    :class:`ValueError` for any other: one targetlang has no data of, or a release that read
    legacy strings."""
    if text in NAMED_DISTRIBUTIONS:
        return text
    try:
        version = Version.parse(text)
    except ValueError:
        version = None
    if version not in MODERN_RELEASES:
        known = ", ".join(str(v) for v in MODERN_RELEASES)
        named = f" (and for {', '.join(NAMED_DISTRIBUTIONS)})" if NAMED_DISTRIBUTIONS else ""
        raise ValueError(f"targetlang writes for TVM {known}, not {text!r}{named}")
    return str(version)


@dataclass(frozen=True)
class Migration:
    """The result of :func:`migrate`.

    ``json`` is a dict TVM 0.27 accepts with ``Target(d)`` and that means what the input meant,
    or ``None`` when a change is an error (``ok`` is false); ``target`` is it as a
    :class:`Target`; ``changes`` lists every rule applied.
    """

    source: str
    target: Target | None
    json: dict[str, Any] | None
    changes: tuple[Change, ...] = field(default=())

    @property
    def ok(self) -> bool:
        """No change is an error."""
        return all(change.severity != "error" for change in self.changes)


def migrate(
    spec: str | Mapping[str, Any] | Target,
    *,
    to: str = str(MODERN),
    era: str | None = None,
    policy: Policy = "error",
    host: str | Mapping[str, Any] | Target | None = None,
    compress_tags: bool = False,
    env: Environment | None = None,
    registry: Registry | None = None,
    validate: bool = True,
) -> Migration:
    """Migrate a target written for an older TVM to the modern JSON form of TVM ``to`` (a modern
    release: ``"0.24"`` to the newest, ``"0.27"``, the default).

    ``spec`` is read as TVM read it (``era`` for strings printed by TVM v0.6 - v0.9), with every
    attribute and kind any release had. Removed attributes (``system-lib``, ``link-params``,
    ``runtime``, ...) follow ``policy``: ``"error"`` (the default: reported, no JSON),
    ``"drop"`` (removed with a warning) or ``"keep"`` (kept with a warning; TVM 0.27 will reject
    the JSON). ``host`` is a host given separately, folded into the target's host.
    ``compress_tags`` writes ``{"tag": ...}`` (plus overrides) when the configuration equals a
    registered 0.27 tag's, checked by expanding it again. Raises :class:`TargetError` only when
    the input cannot be read at all. ``registry`` adds user kinds and tags (a
    :class:`Registry` built on a built-in one): TVM 0.27 knows no user kind, so a target of one
    migrates only under ``policy="keep"``, with a warning. ``validate=False`` leaves out the
    checks against the release (rule ``rejected-by-target``): the JSON is then the plain
    conversion, which it may reject. Raises :class:`ValueError` for a ``to`` that is no modern
    release targetlang has the data of.
    """
    to = modern_release(to)
    if policy not in POLICIES:
        raise ValueError(f"policy must be one of {', '.join(POLICIES)}")
    rewritten: str | None = None  # a text parse read with mkldnn replaced by dnnl
    written: Mapping[str, Any] | None = None  # the mapping given, whose values the JSON may read otherwise
    # a {"tag": NAME} of a tag added since v0.22 means the tag of the release written for
    reader = reading_tags_of(reading_registry(registry), to)
    if isinstance(spec, str):
        source = spec
        target = parse(spec, registry=reader, era=era)
        if era in (None, DEFAULT_ERA) and MKLDNN in spec:
            rewritten = spec
    else:
        # read first: a mapping json.dumps cannot write (a key that is not a string, a value of
        # no JSON type) is the reader's error, with its class, not json's
        target = spec if isinstance(spec, Target) else parse(spec, registry=reader)
        written = spec if isinstance(spec, Mapping) else None
        source = json.dumps(target.to_json())
    run = Run(
        policy,
        source,
        rewritten=rewritten,
        compress_tags=compress_tags,
        env=env or Environment(),
        validate=validate,
        to=to,
    )
    if host is not None:
        given = host

        def read_host() -> Target:
            if isinstance(given, Target):
                return given
            # a host string was printed by the same TVM as the target: read it in the same era
            return parse(given, registry=reader, era=era if isinstance(given, str) else None)

        run.read_host = read_host
    config = convert(run, target, written=written)
    if config is None or run.failed():
        return Migration(source, None, None, tuple(run.changes))
    try:
        modern: Target | None = parse(config, registry=registry)
    except TargetError:
        modern = None  # policy "keep" kept what the modern registry rejects
        if registry is None:
            modern = _read_as(config, to)
    return Migration(source, modern, config, tuple(run.changes))


def _read_as(config: Mapping[str, Any], to: str) -> Target | None:
    """``config`` read as release ``to`` reads it, where the default registry (v0.22's) does not:
    a ``feature.*`` key, which TVM reads from v0.24 on; ``None`` where that release rejects it."""
    from .._registry import builtin_registry

    try:
        return parse(config, registry=builtin_registry(to))
    except (TargetError, ValueError):  # (ValueError: a release whose data ships without a schema)
        return None
