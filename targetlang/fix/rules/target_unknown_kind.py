"""``target-unknown-kind``: a modern target (a dict, a JSON text or a kind's bare name, where a
target is read) of a kind the ``--target-version`` release does not have: one TVM removed (with
what replaced it, if anything) or a misspelt one (with did-you-mean). Reported only."""

from __future__ import annotations

from .._modern import report_only_rule

RULE = report_only_rule("target-unknown-kind")
