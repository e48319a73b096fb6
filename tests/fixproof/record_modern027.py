"""Record what apache-tvm 0.27 does with the targets of :mod:`tests.fixproof.modern_cases`, before
and after ``targetlang fix``: ``Target(x)`` rejected (the last line of its error) or built (its
``export()``), and the value of each expression case. Written to
``tests/data/fix/modern027.jsonl``, which ``tests/test_fix_modern.py`` checks always.

    /tmp/tvm027/bin/python tests/fixproof/record_modern027.py

Runs in TVM's interpreter without targetlang (the cases are plain data).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
OUT = HERE.parents[0] / "data" / "fix" / "modern027.jsonl"


def _plain(value: Any) -> Any:
    """A tvm_ffi Map or Array, or a Target within, as JSON data."""
    if hasattr(value, "items"):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)) or type(value).__name__ == "Array":
        return [_plain(v) for v in value]
    if type(value).__name__ == "Target":
        return _plain(value.export())
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    return str(value)


def built(expression: str) -> dict[str, Any]:
    """What ``Target(<expression>)`` does in the running TVM."""
    from tvm.target import Target

    try:
        target = Target(eval(expression))  # the cases are this repository's own literals
    except Exception as err:  # TVM raises ValueError, TypeError and its own errors
        lines = [line for line in str(err).strip().splitlines() if line.strip()]
        return {"built": False, "error": type(err).__name__, "message": lines[-1] if lines else ""}
    return {"built": True, "export": _plain(target.export())}


def evaluated(target: str, expression: str) -> Any:
    """The value of ``expression`` with ``t = Target(<target>)``."""
    from tvm.target import Target

    return bool(eval(expression, {"t": Target(eval(target))}))


def records() -> list[dict[str, Any]]:
    """One record a case, in the order of the table."""
    sys.path.insert(0, str(HERE.parents[1]))  # run as a script: the repository's tests package
    from tests.fixproof.modern_cases import EXPRESSION_CASES, TARGET_CASES

    found: list[dict[str, Any]] = []
    for case in TARGET_CASES:
        found.append(
            {
                "id": case.id,
                "rule": case.rule,
                "before": case.before,
                "after": case.after,
                "tvm_before": built(case.before),
                "tvm_after": None if case.after is None else built(case.after),
            }
        )
    for expr in EXPRESSION_CASES:
        found.append(
            {
                "id": expr.id,
                "rule": "target-str-compare",
                "target": expr.target,
                "before": expr.before,
                "after": expr.after,
                "legacy": expr.legacy,
                "tvm_before": evaluated(expr.target, expr.before),
                "tvm_after": None if expr.after is None else evaluated(expr.target, expr.after),
            }
        )
    return found


def main() -> None:
    import tvm

    lines = [json.dumps({"tvm": tvm.__version__})]
    lines += [json.dumps(record, sort_keys=True) for record in records()]
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(lines) - 1} cases recorded in {OUT} with apache-tvm {tvm.__version__}")


if __name__ == "__main__":
    main()
