"""How a rule plugs into the two passes over a Python module, as pyupgrade's plugins and ruff's
rules do: one module a rule, in :mod:`targetlang.fix.rules`, named for its id.

A rule module makes its :class:`Plugin` with :func:`plugin` (its id is a row of
:data:`._rules.RULES`, the light table the command line reads without importing LibCST) and
registers functions for the node classes it looks at::

    RULE = plugin("target-helper")

    @RULE.survey(cst.Call)
    def _found(survey: Survey, node: cst.Call) -> None: ...       # first pass: note what it finds

    @RULE.rewrite(cst.Call)
    def _fixed(rewriter: Rewriter, original: cst.Call, updated: cst.Call) -> cst.BaseExpression: ...

A survey hook runs on every node of its class, before the node's children, and notes what it
finds (``survey.note(rule, node, value)``); a rewrite hook runs when the rewriter leaves a node of
its class, bottom up, and returns the node to put there (``updated`` when it changes nothing).
The rewriter goes down only to the nodes the survey marked (noted, or a place a target may
stand) and into them (``Survey.paths``): a rewrite hook acts on such a node or inside one.
The rule modules are imported the first time the hooks are asked for.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from .._signals import signals_held
from ._rules import RULES, Rule

if TYPE_CHECKING:
    import libcst as cst

    from ._rewriter import Rewriter
    from ._survey import Survey

__all__ = ["Plugin", "RewriteHook", "SurveyHook", "plugin", "rewrite_hooks", "rule_module", "survey_hooks"]

SurveyHook = Callable[["Survey", Any], None]
RewriteHook = Callable[["Rewriter", Any, Any], Any]
_Hook = TypeVar("_Hook", bound=Callable[..., Any])


class Plugin:
    """A rule's hooks into the survey and the rewriter."""

    def __init__(self, rule: Rule) -> None:
        self.rule = rule
        self.surveys: dict[type[cst.CSTNode], list[SurveyHook]] = {}
        self.rewrites: dict[type[cst.CSTNode], list[RewriteHook]] = {}

    def survey(self, *kinds: type[cst.CSTNode]) -> Callable[[_Hook], _Hook]:
        """Register a survey hook for nodes of ``kinds``."""
        return _registrar(self.surveys, kinds)

    def rewrite(self, *kinds: type[cst.CSTNode]) -> Callable[[_Hook], _Hook]:
        """Register a rewrite hook for nodes of ``kinds``."""
        return _registrar(self.rewrites, kinds)


def _registrar(
    table: dict[type[cst.CSTNode], list[Any]], kinds: tuple[type[cst.CSTNode], ...]
) -> Callable[[_Hook], _Hook]:
    def register(hook: _Hook) -> _Hook:
        for kind in kinds:
            table.setdefault(kind, []).append(hook)
        return hook

    return register


_PLUGINS: dict[str, Plugin] = {}


def plugin(rule_id: str) -> Plugin:
    """The plugin of the rule ``rule_id`` (a key of :data:`._rules.RULES`)."""
    if rule_id in _PLUGINS:
        raise ValueError(f"rule {rule_id!r} is registered twice")
    made = _PLUGINS[rule_id] = Plugin(RULES[rule_id])
    return made


def rule_module(rule_id: str) -> str:
    """The module that holds the rule ``rule_id``: ``targetlang.fix.rules.<id with _ for ->``."""
    return f"{__package__}.rules.{rule_id.replace('-', '_')}"


@functools.cache
def _plugins() -> tuple[Plugin, ...]:
    # the stops held as the command line holds them while it imports its modules: a handler that
    # raised while a rule's module is made could leave a RuntimeError for the signal (Python 3.11)
    with signals_held():
        for rule_id in RULES:
            importlib.import_module(rule_module(rule_id))
    return tuple(_PLUGINS[rule_id] for rule_id in RULES if rule_id in _PLUGINS)


@functools.cache
def survey_hooks() -> dict[type[cst.CSTNode], tuple[SurveyHook, ...]]:
    """Every rule's survey hooks, by node class, in the order of :data:`._rules.RULES`."""
    return _merged([each.surveys for each in _plugins()])


@functools.cache
def rewrite_hooks() -> dict[type[cst.CSTNode], tuple[RewriteHook, ...]]:
    """Every rule's rewrite hooks, by node class, in the order of :data:`._rules.RULES`."""
    return _merged([each.rewrites for each in _plugins()])


def _merged(tables: list[dict[type[cst.CSTNode], list[Any]]]) -> dict[type[cst.CSTNode], tuple[Any, ...]]:
    hooks: dict[type[cst.CSTNode], list[Any]] = {}
    for table in tables:
        for kind, found in table.items():
            hooks.setdefault(kind, []).extend(found)
    return {kind: tuple(found) for kind, found in hooks.items()}
