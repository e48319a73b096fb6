"""The cases of the differential proof of the modern-target rules: each a target as code was
written (``before``), the target ``targetlang fix`` writes (``after``, written by hand; ``None``
where the rule reports only), the rule that flags it, and the fix's safety.

Plain data: ``record_modern027.py`` reads it in apache-tvm 0.27's interpreter, which has no
targetlang; ``tests/test_fix_modern.py`` checks that ``fix`` flags each ``before`` and writes its
``after``.
"""

from __future__ import annotations

from typing import NamedTuple


class TargetCase(NamedTuple):
    """``Target(before)`` and ``Target(after)``, both Python expressions."""

    id: str
    rule: str
    safety: str
    before: str
    after: str | None


class ExpressionCase(NamedTuple):
    """An expression of a target ``t`` (``Target(target)``): ``before`` as code tested it,
    ``after`` as the fix writes it, and what the test gave on TVM v0.23 (``legacy``)."""

    id: str
    safety: str
    target: str
    before: str
    after: str | None
    legacy: bool


TARGET_CASES: tuple[TargetCase, ...] = (
    TargetCase(
        "tutorial-mattr",
        "target-attr-type",
        "safe",
        '{"kind": "llvm", "mtriple": "aarch64-linux-gnu", "mattr": "+neon"}',
        '{"kind": "llvm", "mtriple": "aarch64-linux-gnu", "mattr": ["+neon"]}',
    ),
    TargetCase(
        "mattr-commas",
        "target-attr-type",
        "unsafe",
        '{"kind": "llvm", "mattr": "+neon,+v8.2a"}',
        '{"kind": "llvm", "mattr": ["+neon", "+v8.2a"]}',
    ),
    TargetCase(
        "libs", "target-attr-type", "safe", '{"kind": "cuda", "libs": "cudnn"}', '{"kind": "cuda", "libs": ["cudnn"]}'
    ),
    TargetCase(
        "keys", "target-attr-type", "safe", '{"kind": "llvm", "keys": "cpu"}', '{"kind": "llvm", "keys": ["cpu"]}'
    ),
    TargetCase(
        "num-cores",
        "target-attr-type",
        "unsafe",
        '{"kind": "llvm", "num-cores": "8"}',
        '{"kind": "llvm", "num-cores": 8}',
    ),
    TargetCase(
        "max-threads",
        "target-attr-type",
        "unsafe",
        '{"kind": "cuda", "max_num_threads": "1024"}',
        '{"kind": "cuda", "max_num_threads": 1024}',
    ),
    TargetCase("fast-math-text", "target-attr-type", "report-only", '{"kind": "llvm", "fast-math": "true"}', None),
    TargetCase("mcpu-list", "target-attr-type", "report-only", '{"kind": "llvm", "mcpu": ["skylake"]}', None),
    TargetCase("arch-int", "target-attr-type", "report-only", '{"kind": "cuda", "arch": 80}', None),
    TargetCase(
        "host-mattr",
        "target-attr-type",
        "safe",
        '{"kind": "cuda", "host": {"kind": "llvm", "mattr": "+neon"}}',
        '{"kind": "cuda", "host": {"kind": "llvm", "mattr": ["+neon"]}}',
    ),
    TargetCase(
        "json-text",
        "target-attr-type",
        "safe",
        """'{"kind": "llvm", "mattr": "+neon"}'""",
        """'{"kind": "llvm", "mattr": ["+neon"]}'""",
    ),
    TargetCase("unknown-attr", "target-unknown-attr", "report-only", '{"kind": "llvm", "mcpux": "skylake"}', None),
    TargetCase("removed-attr", "target-unknown-attr", "report-only", '{"kind": "llvm", "system-lib": True}', None),
    TargetCase("unknown-tag", "target-unknown-tag", "report-only", '"nvidia/jetson-nanoo"', None),
    TargetCase("unknown-tag-key", "target-unknown-tag", "report-only", '{"tag": "nvidia/jetson-nanoo"}', None),
    TargetCase("removed-kind", "target-unknown-kind", "report-only", '{"kind": "hybrid"}', None),
    TargetCase("byoc-kind", "target-unknown-kind", "report-only", '{"kind": "cudnn"}', None),
    TargetCase("misspelt-kind", "target-unknown-kind", "report-only", '{"kind": "cudda"}', None),
    TargetCase("cuda-arch", "target-rejected", "report-only", '{"kind": "cuda", "arch": "80"}', None),
)
"""Each ``before`` is rejected by TVM 0.27; each ``after`` is built."""

EXPRESSION_CASES: tuple[ExpressionCase, ...] = (
    ExpressionCase("startswith", "unsafe", '"cuda"', 'str(t).startswith("cuda")', 't.kind.name == "cuda"', True),
    ExpressionCase("equals", "unsafe", '"llvm"', 'str(t) == "llvm"', 't.kind.name == "llvm"', True),
    ExpressionCase("differs", "unsafe", '"llvm"', 'str(t) != "llvm"', 't.kind.name != "llvm"', False),
    ExpressionCase(
        "option-in", "unsafe", '{"kind": "llvm", "mcpu": "skylake"}', '"-mcpu" in str(t)', '"mcpu" in t.attrs', True
    ),
    ExpressionCase(
        "option-value-in",
        "unsafe",
        '{"kind": "llvm", "mcpu": "skylake"}',
        '"-mcpu=skylake" in str(t)',
        'str(t.attrs.get("mcpu", "")) == "skylake"',
        True,
    ),
    ExpressionCase(
        "array-value-in",
        "unsafe",
        '{"kind": "llvm", "mattr": ["+neon"]}',
        '"-mattr=+neon" in str(t)',
        '"+neon" in list(t.attrs.get("mattr", []))',
        True,
    ),
)
"""Each ``before`` gives on TVM 0.27 the opposite of ``legacy``; each ``after`` gives ``legacy``."""
