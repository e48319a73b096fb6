"""Record what ``targetlang.migrate(text, to=V)`` writes for each legacy corpus text, and what the
real TVM V's ``tvm.target.Target(json)`` does with it, for the modern releases PyPI has a wheel of
(apache-tvm 0.25 and 0.26; 0.27's are the ``tvm027`` entries of differential-migrate.jsonl).

Run from the repository root with a Python holding apache-tvm V and this project::

    python3 -m venv /tmp/tvm025 && /tmp/tvm025/bin/pip install 'apache-tvm==0.25.*' 'apache-tvm-ffi==0.1.12' -e .
    /tmp/tvm025/bin/python tests/oracle/record_modern_releases.py   # tests/data/oracle/migrate-v0.25.jsonl
    python3 -m venv /tmp/tvm026 && /tmp/tvm026/bin/pip install 'apache-tvm==0.26.*' -e .
    /tmp/tvm026/bin/python tests/oracle/record_modern_releases.py   # tests/data/oracle/migrate-v0.26.jsonl

(apache-tvm 0.25.0.post1 asks for apache-tvm-ffi>=0.1.12, but its libtvm_runtime does not load
with 0.1.13 on, which lack a symbol it links: ``tvm::ffi::json::Stringify(Any, Optional<int>)``.)

The release is the installed ``tvm.__version__``. The texts are those record_tirx.py migrates: the
legacy strings, tag names and JSON texts of tests/data/corpus/strings.jsonl and the inputs of
tests/data/oracle/differential-migrate.jsonl, once each. A text targetlang does not read, or whose
migration writes nothing, is left out; otherwise the row holds ``source``, ``policy`` (``error``,
or ``drop`` when only that migrates it), ``migrated`` (what migrate writes) and what
``Target(migrated)`` did: ``accepted`` with ``str``, ``export`` and ``warnings``, or ``error``
(type, bases, first line), or ``crashed`` when it killed the TVM process.

With ``--tags`` it records instead, to tests/data/oracle/tags-named-vV.jsonl, each tag V registers
and v0.22 did not, as ``{"tag": NAME}``: what migrate writes for V, and what V's ``Target`` does with
that (``migrated``) and with the tag itself (``tag``).

This file is not a test (pytest does not collect it): it needs TVM, which the tests do not.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from oracle_common import OUT_DIR, _Worker, migrations, serve, target_outcome, write_rows

ROOT = Path(__file__).resolve().parents[2]


def release() -> str:
    """The installed TVM's release as targetlang names it (``0.25.0.post1`` -> ``0.25``)."""
    import tvm

    major, minor = str(tvm.__version__).split(".")[:2]
    return f"{major}.{minor}"


def record() -> Path:
    to = release()
    out = OUT_DIR / f"migrate-v{to}.jsonl"
    worker = _Worker(__file__)
    rows = []
    try:
        for source, policy, migrated in migrations(to):
            result = worker.ask(migrated)
            # what migrate writes and kills TVM is a finding, kept
            rows.append({"source": source, "policy": policy, "migrated": migrated, **(result or {"crashed": True})})
    finally:
        worker.close()
    write_rows(out, rows)
    accepted = sum(1 for row in rows if row.get("accepted"))
    print(f"{len(rows)} rows ({accepted} accepted) -> {out}", file=sys.stderr)
    return out


def added_tags(to: str) -> list[str]:
    """The tags release ``to`` registers that v0.22 did not, in its tags file's order."""
    from targetlang._registry import builtin_registry
    from targetlang._versions import DATA, data_file

    old = builtin_registry("0.22").tags
    tags = json.loads((DATA / data_file("tags", to)).read_text(encoding="utf-8"))["tags"]
    return [name for name in tags if name not in old]


def record_tags() -> Path:
    import targetlang

    to = release()
    out = OUT_DIR / f"tags-named-v{to}.jsonl"
    worker = _Worker(__file__)
    rows = []
    try:
        for name in added_tags(to):
            migrated = targetlang.migrate({"tag": name}, to=to).json
            theirs = worker.ask({"tag": name}) or {"crashed": True}
            ours = worker.ask(migrated) or {"crashed": True} if migrated is not None else None
            rows.append({"name": name, "migrated": migrated, "outcome": ours, "tag": theirs})
    finally:
        worker.close()
    write_rows(out, rows)
    print(f"{len(rows)} tags -> {out}", file=sys.stderr)
    return out


def main(argv: list[str]) -> int:
    if argv[1:2] == ["--worker"]:
        serve(target_outcome)
    elif argv[1:2] == ["--tags"]:
        record_tags()
    else:
        record()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
