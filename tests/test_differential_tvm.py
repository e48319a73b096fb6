"""Differential test: targetlang's resolution of corpus legacy strings against apache-tvm 0.27 itself.

TVM 0.27 no longer reads legacy strings, but it still builds targets from the JSON form; so every
corpus legacy string that targetlang reads is converted with ``to_json()``, handed to
``tvm.target.Target``, and TVM's export is compared with ``Target.resolve()``. The module skips
when apache-tvm is not installed (the project's own venv), and runs where it is (``pip install
targetlang[tvm]``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any

import pytest

tvm = pytest.importorskip("tvm")

import targetlang  # noqa: E402 -- after importorskip, so a missing TVM skips before any other work

from .conftest import data_path, read_jsonl  # noqa: E402

# The kind schemas as TVM 0.27 and 0.22 registered them: the package ships them unchanged.
_SPEC = Path(targetlang.__file__).resolve().parent / "data"
_KINDS_027 = _SPEC / "kinds-v0.27.json"

# 0.23's registry is 0.22's plus opencl.texture_depth_limit (default 2048), which 0.27 also has;
# it is the closest schema targetlang models, and it changes nothing for the other kinds, so it is
# used for every string (nested opencl devices and hosts included).
_REGISTRY = targetlang.builtin_registry("0.23")

# Fewer than this many compared strings means the filter below has gone wrong, not that TVM agrees.
_MIN_COMPARED = 200


def _tvm_options() -> dict[str, Mapping[str, str]]:
    kinds = json.loads(_KINDS_027.read_text(encoding="utf-8"))["kinds"]
    return {name: kind["options"] for name, kind in kinds.items()}


def _schema_changes() -> dict[str, frozenset[str]]:
    """Attributes 0.27 adds that the registry in use does not model, per kind.

    These are genuine 0.22-vs-0.27 schema changes (each release's registry, extracted from TVM's
    source): TVM fills their defaults in and targetlang, modelling v0.22/0.23, cannot. Attributes
    the 0.23 registry does have (opencl.texture_depth_limit) stay in the comparison.
    """
    old, new = targetlang.builtin_registry("0.22"), targetlang.builtin_registry("0.27")

    def had(name: str) -> set[str]:  # v0.22's own attributes, not the modern-only ones it reads
        kind = old.kinds.get(name)
        return {a for a, spec in kind.attrs.items() if not spec.modern_only} if kind is not None else set()

    added = {name: [a for a in kind.attrs if a not in had(name)] for name, kind in new.kinds.items()}
    out: dict[str, frozenset[str]] = {}
    for kind, attrs in added.items():
        schema = _REGISTRY.kinds.get(kind)
        # modern-only attributes are read from JSON but carry no v0.22 default to fill in
        modelled = {n for n, spec in schema.attrs.items() if not spec.modern_only} if schema is not None else set()
        out[kind] = frozenset(set(attrs) - modelled)
    return out


_TVM_OPTIONS = _tvm_options()
_EXCLUDED = _schema_changes()


def _known_to_tvm(config: Mapping[str, Any]) -> bool:
    """Whether the kind and every attribute name, nested targets included, exist in TVM 0.27."""
    options = _TVM_OPTIONS.get(config["kind"])
    if options is None:
        return False
    for name, value in config.items():
        if name not in options:
            return False
        nested = value if isinstance(value, list) else [value]
        if any(isinstance(item, dict) and not _known_to_tvm(item) for item in nested):
            return False
    return True


def _corpus_texts() -> Iterator[str]:
    rows = read_jsonl("corpus", "strings.jsonl")
    for text in dict.fromkeys(row["text"] for row in rows if row["form"] == "legacy-string"):
        try:
            target = targetlang.parse(text)
        except targetlang.TargetError:
            continue  # strings targetlang rejects are the corpus tests' business, not this one's
        if _known_to_tvm(target.to_json()):
            yield text


_TEXTS = list(_corpus_texts())


@cache
def _environment() -> targetlang.Environment:
    """What this TVM build detects on this machine, read back from TVM itself.

    ``llvm`` without mtriple/mcpu gets the host triple, ``cuda`` without arch the device's arch
    (``sm_50`` without a GPU) and ``rocm`` without mcpu the detected GFX version (``gfx900`` without
    one); reading them from bare targets keeps the test valid on machines with a GPU too.
    """
    bare = {kind: _plain_tvm(_tvm_target({"kind": kind}).export()) for kind in ("llvm", "cuda", "rocm")}
    # check_cl_opt=False: TVM's Target constructor does not check cl-opt entries; only the LLVM backend
    # (LLVMTargetInfo) does, and test_llvm_backend_agrees_on_cl_opt compares that step separately.
    return targetlang.Environment(
        host_triple=bare["llvm"].get("mtriple", ""),
        cuda_arch=bare["cuda"]["arch"],
        rocm_arch=bare["rocm"]["mcpu"],
    )


def _tvm_target(config: Mapping[str, Any]) -> Any:
    return tvm.target.Target(config)


def _plain_tvm(value: Any) -> Any:
    """TVM's export as plain Python: FFI arrays to lists, maps to dicts, device Targets to dicts."""
    if isinstance(value, tvm.target.Target):
        return _plain_tvm(value.export())
    if isinstance(value, str | bool | int | float) or value is None:
        return value
    if isinstance(value, Mapping) or hasattr(value, "items"):
        return {str(k): _plain_tvm(v) for k, v in value.items()}
    return [_plain_tvm(v) for v in value]


def _comparable_tvm(export: Mapping[str, Any]) -> dict[str, Any]:
    """TVM's export less what targetlang does not model.

    ``feature.*`` entries are what 0.27's Arm canonicalisers store (A-profile ones come from
    LLVM's CPU tables, which a pure parser lacks); the schema changes are listed in _EXCLUDED.
    """
    excluded = _EXCLUDED.get(export["kind"], frozenset())
    out: dict[str, Any] = {}
    for name, value in export.items():
        if name.startswith("feature.") or name in excluded:
            continue
        if name == "host":
            value = _comparable_tvm(value)
        elif isinstance(value, list) and value and all(isinstance(v, dict) and "kind" in v for v in value):
            value = [_comparable_tvm(v) for v in value]
        out[name] = value
    return out


def _plain_targetlang(value: Any) -> Any:
    if isinstance(value, targetlang.Target):
        return _comparable_targetlang(value)
    if isinstance(value, tuple | list):
        return [_plain_targetlang(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _plain_targetlang(v) for k, v in value.items()}
    return value


def _comparable_targetlang(resolved: targetlang.Target) -> dict[str, Any]:
    """A resolved target in TVM's export shape: kind, tag, keys, host, then attributes."""
    out: dict[str, Any] = {"kind": resolved.kind, "tag": resolved.tag, "keys": list(resolved.keys)}
    if resolved.host is not None:
        out["host"] = _comparable_targetlang(resolved.host)
    for name, value in resolved.attrs.items():
        out[name] = _plain_targetlang(value)
    return out


def _features(export: Mapping[str, Any]) -> dict[str, Any]:
    return {name.removeprefix("feature."): value for name, value in export.items() if name.startswith("feature.")}


def test_corpus_has_strings_to_compare() -> None:
    # Guards the filter: if parsing or the 0.27 name check broke, every case below would vanish.
    assert len(_TEXTS) >= _MIN_COMPARED, f"only {len(_TEXTS)} corpus strings compared"


@pytest.mark.parametrize("text", _TEXTS)
def test_tvm_027_builds_what_targetlang_resolves(text: str) -> None:
    target = targetlang.parse(text, registry=_REGISTRY)
    config = target.to_json()
    built = _tvm_target(config)  # raises if TVM 0.27 rejects targetlang's JSON form
    export = _plain_tvm(built.export())
    resolved = target.resolve(_environment())

    assert _comparable_targetlang(resolved) == _comparable_tvm(export)
    # Features targetlang does derive (M-profile has_dsp/has_mve, test's is_test) must be TVM's
    # too; TVM may have more (A-profile features from LLVM).
    tvm_features = _features(export)
    assert {name: tvm_features.get(name) for name in resolved.features} == dict(resolved.features)


_CL_OPT_TEXTS = [text for text in _TEXTS if "cl-opt" in targetlang.parse(text).attrs]


@pytest.mark.skipif(not tvm.runtime.enabled("llvm"), reason="this TVM build has no LLVM backend")
@pytest.mark.parametrize("text", _CL_OPT_TEXTS)
def test_llvm_backend_agrees_on_cl_opt(text: str) -> None:
    # targetlang's Environment(check_cl_opt=True) models the LLVM backend's check of cl-opt entries, which
    # TVM runs when it builds LLVMTargetInfo for a target (llvm_get_cpu_features builds one), not in
    # the Target constructor; both must accept and reject the same entries.
    target = targetlang.parse(text, registry=_REGISTRY)
    built = _tvm_target(target.to_json())
    try:
        tvm.target.codegen.llvm_get_cpu_features(built)
    except Exception as err:  # TVM raises InternalError, whose class moved between releases
        tvm_error: str | None = str(err).strip().splitlines()[-1]
    else:
        tvm_error = None
    llvm_env = targetlang.Environment(host_triple=_environment().host_triple, check_cl_opt=True)
    try:
        target.resolve(llvm_env)
    except targetlang.TargetError as err:
        targetlang_error: str | None = str(err).splitlines()[0]
    else:
        targetlang_error = None
    assert (tvm_error is None) == (targetlang_error is None), f"TVM: {tvm_error}; targetlang: {targetlang_error}"


def _migration_texts() -> list[str]:
    rows = read_jsonl("corpus", "strings.jsonl")
    texts = []
    for text in dict.fromkeys(row["text"] for row in rows if row["form"] == "legacy-string"):
        try:
            m = targetlang.migrate(text, policy="drop")
        except targetlang.TargetError:
            continue
        if m.ok:
            texts.append(text)
    return texts


_MIGRATED = _migration_texts()


@pytest.mark.parametrize("text", _MIGRATED)
def test_tvm_027_builds_every_migrated_corpus_string(text: str) -> None:
    m = targetlang.migrate(text, policy="drop")
    assert m.json is not None and m.target is not None
    export = _plain_tvm(_tvm_target(m.json).export())  # raises if TVM 0.27 rejects the migrated JSON
    migrated = _comparable_targetlang(m.target.resolve(_environment()))
    # The default registry reads 0.27's additions (opencl.texture_depth_limit, ...) without
    # filling in their 0.27 defaults; TVM does fill them in.
    modern_only = {n for kind in m.target.registry.kinds.values() for n, s in kind.attrs.items() if s.modern_only}
    assert _without(migrated, modern_only) == _without(_comparable_tvm(export), modern_only)
    # Against the legacy target read as old TVM did: equal except what a recorded change explains.
    legacy = targetlang.parse(_renamed(text, m), registry=targetlang.migration.legacy_registry())
    before = _without(_comparable_targetlang(legacy.resolve(_environment())), set(targetlang.migration.REMOVED_ATTRS))
    explained = {_attribute_of(c, text) for c in m.changes}
    # renames explain the new name too
    renamed = {"shared-memory-renamed": "max_shared_memory_per_block", "target-host-to-host": "host"}
    explained |= {renamed[c.rule] for c in m.changes if c.rule in renamed}
    # Removed attributes with a default (link-params=false at v0.8) resolve into the legacy read.
    removed = set(targetlang.migration.REMOVED_ATTRS)
    for name in set(before) | set(migrated):
        if name not in explained | removed:
            assert before.get(name) == migrated.get(name), name


def _without(value: Any, names: set[str]) -> Any:
    if isinstance(value, dict):
        return {k: _without(v, names) for k, v in value.items() if k not in names}
    if isinstance(value, list):
        return [_without(v, names) for v in value]
    return value


def _renamed(text: str, m: targetlang.Migration) -> str:
    # The legacy read, with -target already renamed (that change keeps the value).
    for change in m.changes:
        if change.rule == "target-to-mtriple" and change.span is not None:
            start, end = change.span
            text = text[:start] + "mtriple" + text[end:]
    return text


def _attribute_of(change: targetlang.Change, text: str) -> str:
    if change.span is None:
        return ""
    option = text[change.span[0] : change.span[1]].lstrip("-")
    return option.split("=", 1)[0].split(" ", 1)[0]


def test_most_corpus_strings_migrate() -> None:
    assert len(_MIGRATED) >= 300, len(_MIGRATED)


_LOGS = data_path("corpus", "logs")


@pytest.mark.parametrize("name", sorted(str(p.relative_to(_LOGS)) for p in _LOGS.rglob("*.*") if p.suffix != ".md"))
def test_tvm_027_builds_every_target_of_a_migrated_log(name: str) -> None:
    from targetlang.logs import LogMigrator, parse_line, read_file

    migrator = LogMigrator(policy="drop")
    built = 0
    for record in read_file(_LOGS / name):
        result = migrator.migrate(record)
        assert not result.problems, [p.message for p in result.problems]
        for field in parse_line(result.text).fields:
            if field.spec:
                _tvm_target(json.loads(field.spec))  # raises if TVM 0.27 rejects it
                built += 1
    assert built or "workload" in name
