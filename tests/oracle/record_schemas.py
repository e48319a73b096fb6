"""Record what a real TVM registers (kinds, their options, default keys and defaults, tags), as goldens
for tests/test_schema_data.py, which checks targetlang/data/tvm-schemas.json against them.

Run from the repository root under each oracle (and under a Python with apache-tvm 0.27 from PyPI):

    /work/shared/tools/tvm-oracle/run.sh --tvm 019 tests/oracle/record_schemas.py
    /work/shared/tools/tvm-oracle/run.sh --tvm 021 tests/oracle/record_schemas.py
    /tmp/tvm027/bin/python tests/oracle/record_schemas.py

It writes tests/data/oracle/schemas-v0.XX.json for the TVM it runs under (or OUT, if given):

* ``kinds``: for every name of ``Target.list_kinds()``, ``options`` (``TargetKind.options_from_name``:
  [name, TVM's type name] pairs, sorted by name because older releases return an unordered map),
  ``default_keys`` and ``device_type`` where the release exposes them on ``TargetKind``, and
  ``export``: ``Target({"kind": name}).export()`` (its canonicaliser/parser may add attributes), or
  ``export_error`` when that fails;
* ``tags``: for every name of ``tvm.target.list_tags()``, the ``export()`` of the tag's target
  (its registered config after Target construction: defaults, keys and canonicaliser applied).

Values are plain JSON (TVM's boxed ints/bools, arrays, maps and nested targets converted).
This file is not a test (pytest does not collect it): it needs TVM, which the project's tests do not.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

OUT_DIR = Path(__file__).resolve().parents[1] / "data" / "oracle"


def plain(v: Any) -> Any:
    """TVM objects as plain JSON values."""
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    tname = type(v).__name__
    if hasattr(v, "export") and hasattr(v, "kind"):
        return plain(v.export())
    if "Bool" in tname:
        return bool(v)
    if hasattr(v, "items"):
        return {str(k): plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)) or (hasattr(v, "__len__") and hasattr(v, "__getitem__")):
        return [plain(x) for x in v]
    if hasattr(v, "value"):
        return plain(v.value)
    raise TypeError(f"cannot convert {tname}: {v!r}")


def main() -> int:
    import tvm
    from tvm.target import Target, TargetKind

    version = tvm.__version__
    short = ".".join(version.split(".")[:2])
    out_path = Path(sys.argv[1]) if len(sys.argv) > 1 else OUT_DIR / f"schemas-v{short}.json"
    kinds: dict[str, Any] = {}
    for name in sorted(str(n) for n in Target.list_kinds()):
        info: dict[str, Any] = {
            "options": sorted([str(k), str(t)] for k, t in TargetKind.options_from_name(name).items())
        }
        try:
            target = Target({"kind": name})
        except Exception as exc:
            info["export_error"] = f"{type(exc).__name__}: {str(exc).strip().splitlines()[-1]}"
            target = None
        if target is not None:
            info["export"] = plain(target.export())
            kind = target.kind
            for field in ("default_keys", "device_type", "default_device_type"):
                try:
                    value = getattr(kind, field)
                except AttributeError:
                    continue
                info["device_type" if field.endswith("device_type") else field] = plain(value)
        kinds[name] = info
    tags = {str(name): plain(t.export()) for name, t in sorted(tvm.target.list_tags().items())}
    data = {"tvm": version, "kinds": kinds, "tags": tags}
    out_path.parent.mkdir(parents=True, exist_ok=True)
    out_path.write_text(json.dumps(data, indent=None, sort_keys=True, separators=(",", ":")) + "\n")
    print(f"{out_path}: TVM {version}, {len(kinds)} kinds, {len(tags)} tags", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
