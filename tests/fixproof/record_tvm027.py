"""Record what TVM 0.27 makes of every target of tests/data/fix.

Run with a Python that has apache-tvm 0.27 and targetlang installed (not collected by pytest):

    python3 -m venv /tmp/tvm027
    /tmp/tvm027/bin/pip install apache-tvm -e .
    /tmp/tvm027/bin/python tests/fixproof/record_tvm027.py

Writes two JSON-lines files to tests/data/fix, one record per target, in file and source order:

``tvm027-after.jsonl``
    every literal target of the ``.after`` files (what TVM's maintainers wrote):
    ``tvm.target.Target(value)`` in TVM 0.27 and its ``export()``, or the error.
``tvm027-before-migrated.jsonl``
    every literal target of the ``.before`` files: for a string, ``targetlang.migrate(value)``
    (``ok``, ``json``, the rule ids of its changes) and TVM 0.27's export of that JSON, plus what
    TVM 0.27 does with the string as it is (``as_is``: the error, or whether it builds the same
    target); for a dict, TVM 0.27's export; for a call of a target
    helper that TVM removed (``tvm.target.hexagon("v68")``) with literal arguments, the helper run
    as each TVM had it (tests/data/fix/helpers: building a legacy string before apache/tvm#18785,
    a dict after it), the string migrated, and TVM 0.27's export of each.

Exports are plain JSON (maps to objects, arrays to lists) with sorted keys.
"""

from __future__ import annotations

import ast
import functools
import json
import re
import sys
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.fixproof.targets_in_source import (  # noqa: E402
    HELPERS,
    REMOVED_STATIC_METHODS,
    Site,
    dotted,
    fold,
    sites_of_file,
)

DATA = ROOT / "tests" / "data" / "fix"
AFTER_OUT = DATA / "tvm027-after.jsonl"
BEFORE_OUT = DATA / "tvm027-before-migrated.jsonl"
# which helper file each commit's .before ran with
HELPER_FILES = {
    "legacy": DATA / "helpers" / "parent-of-2030db36e4.target.py.txt",
    "dict": DATA / "helpers" / "parent-of-283fd19683.target.py.txt",
}
# the helpers each side ran with: the first commit changed them from building strings to building
# dicts, the second removed them
IN_EFFECT = {
    ("2030db36e4", ".before"): "legacy",
    ("2030db36e4", ".after"): "dict",
    ("283fd19683", ".before"): "dict",
    ("283fd19683", ".after"): None,
}


def plain(value: Any) -> Any:
    """A TVM object (Map, Array, String, Target, IntImm) as plain JSON-able Python."""
    import tvm

    if isinstance(value, tvm.target.Target):
        return plain(value.export())
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    if hasattr(value, "items"):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)) or type(value).__name__ == "Array":
        return [plain(item) for item in value]
    if hasattr(value, "value"):  # IntImm, FloatImm
        return plain(value.value)
    return str(value)


def error_text(error: BaseException) -> str:
    """The type and message of ``error``, without TVM's traceback lines."""
    message = str(error).strip()
    lines = [line for line in message.splitlines() if line.strip() and not line.startswith(("  File ", "    "))]
    return f"{type(error).__name__}: {' | '.join(lines)}"


def tvm027(value: Any) -> dict[str, Any]:
    """``tvm.target.Target(value)`` in TVM 0.27: its export, or the error."""
    import tvm

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            target = tvm.target.Target(value)
        return {"ok": True, "export": plain(target.export())}
    except Exception as error:
        return {"ok": False, "error": error_text(error)}


def migrated(text: str) -> dict[str, Any]:
    """``targetlang.migrate(text)``: ``ok``, ``json``, the rule ids of its changes (or the error)."""
    import targetlang

    try:
        migration = targetlang.migrate(text)
    except targetlang.TargetError as error:
        return {"ok": False, "json": None, "rules": [], "error": error_text(error)}
    return {
        "ok": migration.ok,
        "json": migration.json,
        "rules": [change.rule for change in migration.changes],
        "severities": [change.severity for change in migration.changes],
    }


def as_is(text: str, migrated_outcome: dict[str, Any] | None) -> dict[str, Any]:
    """What TVM 0.27 does with a string of a .before file as it is (a bare kind, a tag and JSON
    build; a legacy string with options does not): the error, or whether it builds the same
    target as the migrated JSON (with its export when it does not)."""
    outcome = tvm027(text)
    if not outcome["ok"]:
        return outcome
    same = migrated_outcome is not None and migrated_outcome.get("export") == outcome["export"]
    return {"ok": True, "same_as_migrated": same, **({} if same else {"export": outcome["export"]})}


def _capture(target: Any, host: Any = None) -> Any:
    """Stands for ``Target`` in the helpers: returns what they would have built a Target from."""
    return target if host is None else {"target": target, "host": host}


def load_helpers(path: Path) -> dict[str, Callable[..., Any]]:
    """The helper constructors of a tvm/target/target.py, with ``Target`` capturing its argument."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    body: list[ast.stmt] = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and not node.decorator_list:
            if node.name in HELPERS or node.name.startswith("_"):
                body.append(node)
        elif isinstance(node, ast.Assign) and all(
            isinstance(name, ast.Name) and name.id.isupper() for name in node.targets
        ):
            body.append(node)  # MICRO_SUPPORTED_MODELS, STM32_SUPPORTED_SERIES
    namespace: dict[str, Any] = {"re": re, "warnings": warnings, "Target": _capture}
    exec(compile(ast.Module(body=body, type_ignores=[]), str(path), "exec"), namespace)
    return {name: namespace[name] for name in HELPERS if callable(namespace.get(name))}


def helper_call(site: Site) -> tuple[str, list[Any], dict[str, Any]] | None:
    """The helper's name and literal arguments of a ``helper`` site, or ``None`` when an argument
    is not a literal (``**kwargs``, a variable)."""
    node = ast.parse(site.source, mode="eval").body
    if not isinstance(node, ast.Call):
        return None
    name = (dotted(node.func) or "").rsplit(".", 1)[-1]
    args: list[Any] = []
    for arg in node.args:
        ok, value = fold(arg)
        if not ok or isinstance(arg, ast.Starred):
            return None
        args.append(value)
    kwargs: dict[str, Any] = {}
    for keyword in node.keywords:
        ok, value = fold(keyword.value)
        if keyword.arg is None or not ok:
            return None
        kwargs[keyword.arg] = value
    return name, args, kwargs


def run_helper(function: Callable[..., Any], args: list[Any], kwargs: dict[str, Any]) -> dict[str, Any]:
    """A helper's result (a legacy string or a dict), migrated and built in TVM 0.27."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            built = function(*args, **kwargs)
        except Exception as error:
            return {"ok": False, "error": error_text(error)}
    record: dict[str, Any] = {"ok": True, "result": built, "warnings": [str(w.message) for w in caught]}
    if isinstance(built, str):
        record["migrate"] = migrated(built)
        json_value = record["migrate"]["json"]
        record["tvm027"] = tvm027(json_value) if json_value is not None else None
    else:
        record["tvm027"] = tvm027(built)
    return record


def data_files(suffix: str) -> Iterator[tuple[str, Path]]:
    for commit_dir in sorted(path for path in DATA.iterdir() if path.is_dir() and path.name != "helpers"):
        for path in sorted(commit_dir.glob(f"*{suffix}")):
            yield commit_dir.name, path


def is_target_value(site: Site) -> bool:
    return site.literal and isinstance(site.value, (str, dict))


def base(site: Site, path: Path) -> dict[str, Any]:
    return {
        "file": path.relative_to(DATA).as_posix(),
        "line": site.line,
        "column": site.col,
        "role": site.role,
        "expr": site.source,
        "value": site.value,
    }


def helper_record(site: Site, in_effect: str | None) -> dict[str, Any] | None:
    """A helper call with literal arguments run with each era's helpers, or ``None``."""
    call = helper_call(site)
    if call is None or call[0] in REMOVED_STATIC_METHODS:
        return None
    name, args, kwargs = call
    record: dict[str, Any] = {"name": name, "args": args, "kwargs": kwargs, "in_effect": in_effect}
    for era, functions in helpers_by_era().items():
        function = functions.get(name)
        record[era] = run_helper(function, args, kwargs) if function else {"ok": False, "error": f"no helper {name}"}
    return record


@functools.cache
def helpers_by_era() -> dict[str, dict[str, Callable[..., Any]]]:
    return {era: load_helpers(path) for era, path in HELPER_FILES.items()}


def record_after() -> list[dict[str, Any]]:
    records = []
    for commit, path in data_files(".after"):
        for site in sites_of_file(path.name, path.read_text(encoding="utf-8")):
            if site.role == "helper":
                helper = helper_record(site, IN_EFFECT[commit, ".after"])
                if helper is not None:
                    records.append({**base(site, path), "helper": helper})
            elif is_target_value(site):
                records.append({**base(site, path), "outcome": tvm027(site.value)})
    return records


def record_before() -> list[dict[str, Any]]:
    records = []
    for commit, path in data_files(".before"):
        for site in sites_of_file(path.name, path.read_text(encoding="utf-8")):
            record = base(site, path)
            if site.role == "helper":
                helper = helper_record(site, IN_EFFECT[commit, ".before"])
                if helper is None:
                    continue
                record["helper"] = helper
            elif not is_target_value(site):
                continue
            elif isinstance(site.value, str):
                record["migrate"] = migrated(site.value)
                json_value = record["migrate"]["json"]
                record["outcome"] = tvm027(json_value) if json_value is not None else None
                record["as_is"] = as_is(site.value, record["outcome"])
            else:
                record["outcome"] = tvm027(site.value)
            records.append(record)
    return records


def write(path: Path, records: list[dict[str, Any]]) -> None:
    with path.open("w", encoding="utf-8") as handle:
        for record in records:
            handle.write(json.dumps(record, sort_keys=True, ensure_ascii=False) + "\n")


def main() -> None:
    import tvm

    import targetlang

    after = record_after()
    write(AFTER_OUT, after)
    before = record_before()
    write(BEFORE_OUT, before)
    print(
        f"TVM {tvm.__version__}, targetlang {targetlang.__version__}: {len(after)} targets of .after files -> "
        f"{AFTER_OUT.relative_to(ROOT)}, {len(before)} of .before files -> {BEFORE_OUT.relative_to(ROOT)}"
    )


if __name__ == "__main__":
    main()
