"""``target-rejected``: a value of a modern target that one of TVM 0.27's canonicalisers rejects
(``data/checks-v0.27.json``: a cuda ``arch`` that is no ``sm_``, a negative ``num-cores``...),
reported with 0.27's own message. Reported only."""

from __future__ import annotations

from .._modern import report_only_rule

RULE = report_only_rule("target-rejected")
