"""The rules of ``targetlang fix``: one object per rule, the table every other part reads.

A rule has a stable id (what ``--select``, ``--ignore`` and the JSON report name), the safety of
the fixes it makes when nothing lowers it, and a one-line summary. The section of ``docs/fix.md``
for a rule is titled by its id; a test checks that every rule has one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["RULES", "Rule", "Safety"]

Safety = Literal["safe", "unsafe", "report-only"]
"""``safe``: applied by ``--write``; ``unsafe``: applied with ``--unsafe-fixes`` too;
``report-only``: reported with a suggestion, never applied."""


@dataclass(frozen=True)
class Rule:
    """One rule: ``id``, the ``safety`` of its fixes at best, and a ``summary``."""

    id: str
    safety: Safety
    summary: str


RULES: dict[str, Rule] = {
    rule.id: rule
    for rule in (
        Rule(
            "target-string",
            "safe",
            "a legacy target string, rewritten to a dict literal (safe where every use of it is a target position)",
        ),
        Rule(
            "target-helper",
            "safe",
            "a helper TVM 0.24 removed (tvm.target.cuda(), arm_cpu(), ...), rewritten to the target it built",
        ),
        Rule("canon-target", "safe", "Target.canon_target*() and tvm.target.create(), rewritten to Target(...)"),
        Rule(
            "target-property",
            "safe",
            "a Target property TVM 0.24 removed (t.arch, t.model, ...), rewritten to what it read",
        ),
        Rule(
            "dynamic-target",
            "safe",
            "a legacy target built by an f-string, %, + or .format(), or options appended to one (target += ...)",
        ),
        Rule("target-unknown-kind", "report-only", "a modern target of a kind the release removed or never had"),
        Rule("target-unknown-tag", "report-only", "a tag the release does not have, with did-you-mean"),
        Rule("target-unknown-attr", "report-only", "an attribute the target's kind does not have, with did-you-mean"),
        Rule("target-rejected", "report-only", "a value one of TVM 0.27's canonicalisers rejects, with its message"),
        Rule(
            "target-attr-type",
            "safe",
            'a value of the wrong type in a modern target ("mattr": "+neon"), fixed where unambiguous (["+neon"])',
        ),
        Rule(
            "target-str-compare",
            "unsafe",
            "str(target) compared with or searched for a kind or option, which is JSON since TVM 0.24",
        ),
        Rule("text-target", "report-only", "a legacy target in a shell script, document or configuration file"),
    )
}
