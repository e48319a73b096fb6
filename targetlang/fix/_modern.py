"""Modern targets checked where they stand: a dict or a JSON text that reaches a target position
(directly, through the names that hold it, or as the ``host`` of one), read against the kinds,
attributes and tags of the ``--target-version`` release and the checks of that release's
canonicalisers (:func:`targetlang.migration._checks.rejections`).

The rules ``target-attr-type``, ``target-unknown-attr``, ``target-unknown-tag``,
``target-unknown-kind`` and ``target-rejected`` each report their share of what :func:`problems`
finds at a node; the checking is done once per node and shared.

A legacy string (``"llvm -mcpu=x"``) is ``target-string``'s: here a string is a target only
when it is JSON (``'{"kind": ...}'``), a tag (``"vendor/name"``) or a kind's bare name.
"""

from __future__ import annotations

import ast
import functools
import json
import re
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import libcst as cst

from .._diagnostics import hint, suggest
from .._registry import Registry, builtin_registry
from .._release_schemas import load_data
from .._resolution import feature_name, reads_feature_keys
from .._versions import SCHEMA_RELEASES, data_file, registry_release, release_title
from ..migration._checks import Rejection, option_types, rejections
from ..migration._model import REMOVED_ATTRS, REMOVED_KINDS
from ..migration._rules import RULES as MIGRATION_RULES
from ._compose import string_value
from ._flow import Use, unsafe_use
from ._literal import render
from ._plugins import Plugin, plugin
from ._prefilter import former_kinds
from ._rules import Safety
from ._survey import Survey

if TYPE_CHECKING:
    from ._rewriter import Rewriter

__all__ = ["NOTE", "Problem", "is_target", "noted", "problems", "report", "report_only_rule", "survey_node"]

NOTE = "modern-target"  # the survey's note of a node that may be a modern target
_CACHE = "modern-target/problems"


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a modern target: the ``rule`` that reports it, the ``node`` it is
    reported at, its ``message``, the code to write there (``after``) and the fix's ``safety``."""

    rule: str
    node: cst.CSTNode
    message: str
    after: str | None = None
    safety: Safety = "report-only"


# -- what the survey notes (cheaply: most dicts and strings are no targets)

_TAG_SHAPE = re.compile(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.+-]+")


def _key(element: cst.BaseDictElement) -> str | None:
    if isinstance(element, cst.DictElement) and isinstance(element.key, cst.SimpleString):
        value = element.key.evaluated_value
        return value if isinstance(value, str) else None
    return None


def _looks_like_config(node: cst.Dict) -> bool:
    return any(_key(element) in ("kind", "tag") for element in node.elements)


def _looks_like_text(value: str) -> bool:
    stripped = value.strip()
    if stripped.startswith("{"):
        return '"kind"' in stripped or '"tag"' in stripped
    return bool(_TAG_SHAPE.fullmatch(stripped)) or stripped in former_kinds()


def survey_node(survey: Survey, node: cst.CSTNode) -> None:
    """Note ``node`` (a dict or a string) when it may be a modern target: its statement is kept
    for the rewriter, which asks where the value goes."""
    if isinstance(node, cst.Dict):
        if _looks_like_config(node):
            survey.note(NOTE, node, True)
    elif isinstance(node, cst.SimpleString):
        value = string_value(node)
        if isinstance(value, str) and _looks_like_text(value):
            survey.note(NOTE, node, True)


def noted(survey: Survey, node: cst.CSTNode) -> bool:
    return survey.noted(NOTE, node) is not None


# -- where the value goes


def is_target(rewriter: Rewriter, node: cst.CSTNode) -> bool:
    """Whether the value of ``node`` is read as a target: a use of it is a target position, or it
    is the ``host`` of a dict that is."""
    parent = rewriter.flow.parent(node)
    if isinstance(parent, cst.DictElement) and node is parent.value and _key(parent) == "host":
        outer = rewriter.flow.parent(parent)
        return isinstance(outer, cst.Dict) and is_target(rewriter, outer)
    assert isinstance(node, cst.BaseExpression)
    return any(use.kind == "target" for use in rewriter.flow.uses(node))


# -- what is wrong


def problems(rewriter: Rewriter, node: cst.CSTNode) -> list[Problem]:
    """What is wrong with ``node``, a dict or string the survey noted, if it is a target (one
    level: a nested ``host`` dict is a node of its own)."""
    cache: dict[int, Any] = rewriter.survey.notes.setdefault(_CACHE, {})
    if id(node) not in cache:
        found: list[Problem] = []
        # what is wrong with it first: most are right, and whether a value is read as a target
        # takes the flow, which works out the scopes of the whole module the first time
        if noted(rewriter.survey, node):
            if isinstance(node, cst.Dict):
                found = _dict_problems(rewriter, node)
            elif isinstance(node, cst.SimpleString):
                found = _text_problems(rewriter, node)
        if found and not is_target(rewriter, node):
            found = []
        cache[id(node)] = found
    result: list[Problem] = cache[id(node)]
    return result


_NOT_LITERAL = object()

_Fix = Callable[[str, Any], "str | None"]
"""The code to write for the attribute named, to give it the value."""


def _literal(node: cst.BaseExpression) -> Any:
    try:
        return ast.literal_eval(cst.Module(body=[]).code_for_node(node))
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return _NOT_LITERAL


@dataclass(frozen=True)
class _Reading:
    """The release's view: its registry (with the user's kinds), its name, and what it knows as
    its own data files list it: each kind with its attributes, and its tags (the user's added)."""

    registry: Registry
    version: str
    kinds: Mapping[str, Collection[str]]
    tags: Mapping[str, Mapping[str, Any]]


def _reading(rewriter: Rewriter) -> _Reading:
    version = str(rewriter.options.target_version)
    registry = _registry(version, rewriter.options.registry)
    kinds, tags = _known(version, registry)
    return _Reading(registry, version, kinds, tags)


@functools.lru_cache(maxsize=8)
def _known(version: str, registry: Registry) -> tuple[Mapping[str, Collection[str]], Mapping[str, Mapping[str, Any]]]:
    """The kinds (with their attributes) and tags of distribution ``version``, from its own data
    files, plus what the user's kinds and tags add to the built-in registry: the built-in
    registry of a release before the newest also holds what the newest added (trn for 0.24)."""
    own = option_types(version)
    builtin = builtin_registry(version if version in SCHEMA_RELEASES else SCHEMA_RELEASES[-1])
    kinds: dict[str, Collection[str]] = {}
    for name, kind in registry.kinds.items():
        base = builtin.kinds.get(name)
        added = set(kind.attrs) - set(base.attrs if base is not None else ())
        if name in own:
            kinds[name] = frozenset({*own[name], *added})
        elif base is None or kind != base:
            kinds[name] = frozenset(kind.attrs)  # the user's kind
    data = load_data(data_file("tags", version))
    tags: dict[str, Mapping[str, Any]] = dict(data["tags"])
    tags.update((name, config) for name, config in registry.tags.items() if builtin.tags.get(name) != config)
    return MappingProxyType(kinds), MappingProxyType(tags)


@functools.lru_cache(maxsize=8)
def _registry(version: str, user: Registry | None) -> Registry:
    # a release whose kinds, tags and checks ship but that the extraction of TVM's sources does not
    # hold yet is read with the newest release it holds; its own data judges the config
    builtin = builtin_registry(version if version in SCHEMA_RELEASES else SCHEMA_RELEASES[-1])
    if user is None:
        return builtin
    merged = builtin
    for kind in user.kinds.values():
        merged = merged.with_kind(kind)
    for name, config in user.tags.items():
        merged = merged.with_tag(name, config)
    return merged


def _dict_problems(rewriter: Rewriter, node: cst.Dict) -> list[Problem]:
    """The problems of a dict target, each at the node of its key or value."""
    entries: dict[str, tuple[cst.DictElement, Any]] = {}
    for element in node.elements:
        name = _key(element)
        if name is None:
            return []  # a ** or a computed key: what it holds is not known here
        assert isinstance(element, cst.DictElement)
        entries[name] = (element, _literal(element.value))
    config = {name: value for name, (_, value) in entries.items()}
    return _config_problems(
        _reading(rewriter),
        config,
        key_node=lambda name: entries[name][0].key,
        value_node=lambda name: entries[name][0].value,
        fix=lambda name, value: _value_code(entries[name][0].value, value),
    )


def _value_code(node: cst.BaseExpression, value: Any) -> str | None:
    quote = '"'
    if isinstance(node, cst.SimpleString):
        quote = node.quote[-1] if node.quote[-1] in "'\"" else quote
    return render(value, quote)


def _text_problems(rewriter: Rewriter, node: cst.SimpleString) -> list[Problem]:
    """The problems of a target written as text: JSON, a tag or a bare kind."""
    value = node.evaluated_value
    assert isinstance(value, str)
    reading = _reading(rewriter)
    stripped = value.strip()
    if not stripped.startswith("{"):
        if stripped in reading.kinds or stripped in reading.tags:
            return []
        if "/" in stripped:
            return _tag_problems(reading, stripped, node)
        return _kind_problems(reading, stripped, node)
    try:
        config = json.loads(stripped)
    except ValueError:
        return []  # not JSON: TVM says so itself, and no rule here reads it
    if not isinstance(config, dict):
        return []
    code = cst.Module(body=[]).code_for_node(node)

    def fix(name: str, new: Any) -> str | None:
        # the one JSON value, replaced in the literal as written (no escapes to rewrite)
        if "\\" in code:
            return None
        old = json.dumps(config[name])
        pattern = re.compile(re.escape(json.dumps(name)) + r"(\s*:\s*)" + re.escape(old))
        if len(pattern.findall(code)) != 1:
            return None
        replaced = json.dumps(new)
        if node.quote[-1] in replaced:
            return None
        return pattern.sub(lambda m: json.dumps(name) + m.group(1) + replaced, code)

    return _config_problems(reading, config, key_node=lambda name: node, value_node=lambda name: node, fix=fix)


def _kind_problems(reading: _Reading, kind: str, node: cst.CSTNode) -> list[Problem]:
    if kind in reading.kinds:
        return []
    removed = REMOVED_KINDS.get(kind)
    if removed is None and kind in former_kinds():
        removed = "no longer a target kind: " + MIGRATION_RULES["byoc-kind"].summary
    if removed is not None:
        message = f"kind {kind!r} is not in {release_title(reading.version)}: {removed}"
    else:
        message = f"{release_title(reading.version)} has no target kind {kind!r}{hint(suggest(kind, reading.kinds))}"
    return [Problem("target-unknown-kind", node, message)]


def _tag_problems(reading: _Reading, tag: str, node: cst.CSTNode) -> list[Problem]:
    if tag in reading.tags:
        return []
    message = f"{release_title(reading.version)} has no tag {tag!r}{hint(suggest(tag, reading.tags))}"
    return [Problem("target-unknown-tag", node, message)]


def _config_problems(
    reading: _Reading,
    config: Mapping[str, Any],
    *,
    key_node: Callable[[str], cst.CSTNode],
    value_node: Callable[[str], cst.CSTNode],
    fix: _Fix,
) -> list[Problem]:
    """What is wrong with one level of a config whose values are known where they are literals
    (``_NOT_LITERAL`` elsewhere)."""
    kind = config.get("kind", _NOT_LITERAL)
    tag = config.get("tag", _NOT_LITERAL)
    found: list[Problem] = []
    if isinstance(tag, str) and tag:
        found += _tag_problems(reading, tag, value_node("tag"))
        tagged = reading.tags.get(tag)
        if kind is _NOT_LITERAL and "kind" not in config and tagged is not None:
            kind = tagged.get("kind", _NOT_LITERAL)
    if not isinstance(kind, str):
        return found
    if kind not in reading.kinds:
        return found + _kind_problems(reading, kind, value_node("kind"))
    attrs = reading.kinds[kind]
    features = reads_feature_keys(registry_release(reading.registry.version).version)
    for name in config:
        if name in ("kind", "tag") or name in attrs or (features and feature_name(name) is not None):
            continue
        moved = REMOVED_ATTRS.get(name)
        if moved is not None:
            what = f"TVM removed it: it moved to {moved}"
        else:
            what = f"{release_title(reading.version)} rejects it ('Unknown config option'){hint(suggest(name, attrs))}"
        found.append(Problem("target-unknown-attr", key_node(name), f"kind {kind!r} has no attribute {name!r}: {what}"))
    known = {
        name: value
        for name, value in config.items()
        if value is not _NOT_LITERAL and name not in ("host",) and (name == "kind" or name in attrs)
    }
    complete = len(known) == len([name for name in config if name != "host" and (name == "kind" or name in attrs)])
    for rejection in rejections(known, reading.version):
        if rejection.check is None:
            found.append(_type_problem(reading, kind, rejection, value_node(rejection.attribute), fix))
        elif complete:
            release = release_title(reading.version)
            message = f"{release} rejects {rejection.attribute!r} of a {kind} target: {rejection.reason}"
            found.append(Problem("target-rejected", value_node(rejection.attribute), message))
    return found


def _type_problem(reading: _Reading, kind: str, rejection: Rejection, node: cst.CSTNode, fix: _Fix) -> Problem:
    """A value of the wrong type, and what to write where that is clear."""
    name, value = rejection.attribute, rejection.value
    wanted = option_types(reading.version)[kind][name]
    message = (
        f"{name!r} of a {kind} target is {wanted}, not {type(value).__name__}: "
        f"{release_title(reading.version)} rejects it ({rejection.reason})"
    )
    new: Any = _NOT_LITERAL
    safety: Safety = "report-only"
    if wanted == "Array<str>" and isinstance(value, str):
        parts = [part.strip() for part in value.split(",")]
        if not value.strip():
            pass  # no feature at all: [] or [""]? the author's to say
        elif len(parts) == 1:
            new, safety = [value], "safe"
        elif all(parts):
            # the legacy reader split an option's text at its commas; a list of one item with
            # commas in it is accepted too, and means otherwise to all but LLVM's -mattr
            new, safety = parts, "unsafe"
            message += "; the legacy reader split it at the commas"
    elif wanted == "int" and isinstance(value, str) and re.fullmatch(r"[+-]?\d{1,18}", value.strip()):
        new, safety = int(value), "unsafe"
    elif wanted == "bool" and isinstance(value, str) and value.strip().lower() in ("true", "false"):
        new = value.strip().lower() == "true"
    after = None if new is _NOT_LITERAL else fix(name, new)
    if after is None and safety != "report-only":
        safety = "report-only"
    return Problem("target-attr-type", node, message, after, safety)


def report(
    rewriter: Rewriter, rule: str, original: cst.CSTNode, where: Callable[[cst.CSTNode], bool] = lambda node: True
) -> list[tuple[Problem, bool]]:
    """Report the problems of ``rule`` found at ``original`` (a noted node), those at a node
    ``where`` holds; each with whether its fix is to be applied."""
    done = []
    for problem in problems(rewriter, original):
        if problem.rule == rule and where(problem.node):
            uses, blocker = _flow_of(rewriter, original)
            # safe only where every use of the value is a target position, as for a legacy string:
            # cfg["mattr"] formatted or appended to elsewhere breaks once it is a list
            safety: Safety = "unsafe" if problem.safety == "safe" and blocker is not None else problem.safety
            applied = rewriter.report(problem.node, rule, problem.message, problem.after, safety, (), uses, blocker)
            done.append((problem, applied))
    return done


def _flow_of(rewriter: Rewriter, node: cst.CSTNode) -> tuple[list[Use], Use | None]:
    """The uses of the target ``node`` belongs to (the outermost dict, for a ``host``), and the use
    that keeps a fix of it from being safe (``None``: every use is a target position)."""
    while True:
        parent = rewriter.flow.parent(node)
        if not (isinstance(parent, cst.DictElement) and node is parent.value and _key(parent) == "host"):
            break
        outer = rewriter.flow.parent(parent)
        if not isinstance(outer, cst.Dict):
            break
        node = outer
    assert isinstance(node, cst.BaseExpression)
    uses = list(rewriter.flow.uses(node))
    return uses, unsafe_use(uses, node)


def report_only_rule(rule_id: str) -> Plugin:
    """The plugin of a modern rule that only reports (``target-unknown-kind``, ``-tag``, ``-attr``,
    ``target-rejected``): its problems, where a dict or a string the survey noted stands."""
    made = plugin(rule_id)

    @made.rewrite(cst.Dict, cst.SimpleString)
    def _reported(
        rewriter: Rewriter, original: cst.Dict | cst.SimpleString, updated: cst.BaseExpression
    ) -> cst.BaseExpression:
        if noted(rewriter.survey, original):
            report(rewriter, rule_id, original)
        return updated

    return made
