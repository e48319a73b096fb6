"""``target-unknown-tag``: a tag (``"nvidia/jetson-nanoo"``, or ``{"tag": ...}``) where a
target is read that the ``--target-version`` release does not have, with did-you-mean. Reported
only."""

from __future__ import annotations

from .._modern import report_only_rule

RULE = report_only_rule("target-unknown-tag")
