"""``target-unknown-attr``: an attribute of a modern target that its kind does not have in the
``--target-version`` release (TVM rejects it: "Unknown config option"), with did-you-mean, or
where it went if TVM removed it. Reported only."""

from __future__ import annotations

from .._modern import report_only_rule

RULE = report_only_rule("target-unknown-attr")
