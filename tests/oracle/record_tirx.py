"""Record what TVM TIRx (``apache-tvm-tirx`` from PyPI, imported as ``tvm_tirx``) registers and
accepts, as the data of the target distribution ``tirx-0.1`` and its goldens.

Run from the repository root with a Python holding apache-tvm-tirx 0.1.0a4 and this project
(``python -m venv /tmp/tirx && /tmp/tirx/bin/pip install apache-tvm-tirx -e .``)::

    /tmp/tirx/bin/python tests/oracle/record_tirx.py schemas   # targetlang/data/{kinds,tags}-tirx-0.1.json
    /tmp/tirx/bin/python tests/oracle/record_tirx.py goldens   # tests/data/oracle/tirx-0.1.jsonl

``schemas`` writes the two files in the formats of ``kinds-v0.27.json`` and ``tags-v0.27.json``:

* kinds: for every name of ``Target.list_kinds()``, ``options`` (``TargetKind.options_from_name``,
  in registration order: name -> TVM's type name) and ``bare_export`` (``Target({"kind": K})``
  exported, so the defaults, default keys and what the canonicaliser sets);
* tags: for every name of ``list_tags()``, its target exported. TIRx registers the Arm, Apple and
  Jetson tags only when its LLVM has a backend for the tag's triple
  (``tvm_tirx.codegen.llvm.backend_enabled``); those tags are listed under ``conditional`` with
  the triple and the config given to ``register_tag``, whether or not this wheel registered them,
  so the file says what a build with those backends adds.

``goldens`` writes one line per input: ``group`` (``kind``: a bare kind; ``tag``: a tag name;
``corpus``: a text of tests/data/corpus/strings.jsonl migrated with ``targetlang.migrate``, whose
``source`` it keeps; ``string``: the legacy string form; ``generated``: each kind's attributes with
a value of their type and of another type, and an unknown attribute; ``checks``: the inputs of
tests/data/oracle/checks-v0.27.jsonl, which test 0.27's canonicaliser checks; ``migrated``: what
``targetlang.migrate(source, to="tirx-0.1")`` writes for each text of the corpus and each input of
tests/data/oracle/differential-migrate.jsonl, under the default policy, or under ``policy="drop"``
when that alone migrates it, with ``source`` and ``policy``; one that kills TIRx is kept, as
``crashed``), the input
(``input``, or ``python`` when JSON cannot hold it), then what ``Target(input)`` did:
``accepted`` with ``export``, or the ``error`` (type and message, TIRx's first line). Each input
runs in a worker process, so an input that kills TVM is left out and named.

This file is not a test (pytest does not collect it): it needs tvm_tirx, which the tests do not.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from oracle_common import _Worker, decode, encode, error_record, migrations, serve, write_rows
from oracle_common import plain as common_plain

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "targetlang" / "data"
ORACLE = ROOT / "tests" / "data" / "oracle"
NAME = "tirx-0.1"

# the modules whose registrations depend on LLVM's backends, and the registering function each uses
CONDITIONAL = {
    "tvm_tirx.target.tag_registry.arm_cpu": "_register_if_enabled",
    "tvm_tirx.backend.metal.target_tags": "_register_metal_tag",
    "tvm_tirx.backend.cuda.target_tags": "_register_if_host_enabled",
}


def plain(value: Any) -> Any:
    """A tvm_tirx value as plain JSON data (:func:`oracle_common.plain` with TIRx's ``Target``)."""
    from tvm_tirx.target import Target  # type: ignore[import-not-found,unused-ignore]

    return common_plain(value, Target)


def outcome(spec: Any) -> dict[str, Any]:
    """What ``tvm_tirx.target.Target(spec)`` did."""
    from tvm_tirx.target import Target  # type: ignore[import-not-found,unused-ignore]

    try:
        target = Target(spec)
    except Exception as err:
        record = error_record(err)
        # TIRx appends the input after its message ("... failed: {config}"); the input is on the line
        return {"accepted": False, "error": record}
    return {"accepted": True, "export": plain(target.export())}


def all_targets() -> bool:
    """Whether the extra ``all-targets`` (an LLVM with every backend, apache-tvm-tirx-llvm-targets) is installed."""
    import importlib.util

    return importlib.util.find_spec("tvm_tirx_llvm_targets") is not None


def source_of() -> str:
    import tvm_tirx  # type: ignore[import-not-found,unused-ignore]

    extra = "[all-targets]" if all_targets() else ""
    return f"apache-tvm-tirx{extra} {tvm_tirx.__version__} from PyPI (imported as tvm_tirx)"


# ----------------------------------------------------------------------------------------------
# schemas


def conditional_tags() -> dict[str, dict[str, Any]]:
    """Each tag a module of CONDITIONAL registers only when LLVM has a backend: its triple and config.

    The modules are run again (reloaded) with ``register_tag`` recording and ``backend_enabled``
    true, so what a build with every backend registers is known on one without them."""
    import importlib

    import tvm_tirx.target  # type: ignore[import-not-found,unused-ignore]
    import tvm_tirx.target.tag_registry.registry as registry  # type: ignore[import-not-found,unused-ignore]
    from tvm_tirx.codegen import llvm  # type: ignore[import-not-found,unused-ignore]

    found: dict[str, dict[str, Any]] = {}
    asked: list[str] = []

    def enabled(triple: str) -> bool:
        asked.append(triple)
        return True

    def register(name: str, config: Any, override: bool = False) -> None:
        if asked:  # registered behind a backend test
            found[name] = {"triple": asked[-1], "config": config}
        asked.clear()

    saved = (llvm.backend_enabled, registry.register_tag, tvm_tirx.target.register_tag)
    llvm.backend_enabled, registry.register_tag, tvm_tirx.target.register_tag = enabled, register, register
    try:
        for name, function in CONDITIONAL.items():
            module = importlib.import_module(name)
            if not hasattr(module, function):
                raise SystemExit(f"{name}: no {function}; the table CONDITIONAL is out of date")
            importlib.reload(module)
    finally:
        llvm.backend_enabled, registry.register_tag, tvm_tirx.target.register_tag = saved
    return dict(sorted(found.items()))


def record_schemas(out: Path = DATA) -> None:
    from tvm_tirx.target import Target, TargetKind, list_tags  # type: ignore[import-not-found,unused-ignore]

    if not all_targets():
        raise SystemExit("the data is recorded with apache-tvm-tirx[all-targets], whose LLVM registers every tag")
    source = source_of()
    kinds: dict[str, Any] = {}
    for name in Target.list_kinds():
        name = str(name)
        options = {str(k): str(t) for k, t in TargetKind.options_from_name(name).items()}
        kinds[name] = {"options": options, "bare_export": plain(Target({"kind": name}).export())}
    kinds_data = {
        "source": f"{source}: Target.list_kinds(), TargetKind.options_from_name(), Target({{'kind': K}}) exported"
        " on a machine without GPUs",
        "kinds": kinds,
    }
    tags = {str(name): plain(target.export()) for name, target in list_tags().items()}
    conditional = conditional_tags()
    tags_data = {
        "source": f"{source}: tvm_tirx.target.list_tags() on Linux x86-64; 'conditional': the tags it registers"
        " only when its LLVM has a backend for 'triple' (this wheel registered "
        f"{sum(1 for n in conditional if n in tags)} of them), with their register_tag config",
        "count": len(tags),
        "tags": tags,
        "conditional": conditional,
    }
    checks_data = checks_of(kinds)
    for stem, data in (("kinds", kinds_data), ("tags", tags_data), ("checks", checks_data)):
        path = out / f"{stem}-{NAME}.json"
        path.write_text(json.dumps(data, indent=1, ensure_ascii=False), encoding="utf-8")
        print(f"{path}", file=sys.stderr)
    print(f"{len(kinds)} kinds, {len(tags)} tags, {len(conditional)} conditional", file=sys.stderr)


# When TIRx runs the Arm A-profile checks: for an aarch64 triple whatever the CPU (0.27 let an
# M-profile CPU name win: aarch64 with cortex-m7 was not checked; TIRx checks it, as the goldens
# of the group "checks" show), for an arm triple unless the CPU is a cortex-m, as 0.27.
APROFILE_WHEN = [
    {"mtriple": {"prefix": "aarch64"}},
    {"mtriple": {"prefix": "arm"}, "mcpu": {"not": {"prefix": "cortex-m"}}},
]


def checks_of(kinds: Mapping[str, Any]) -> dict[str, Any]:
    """0.27's canonicaliser checks that TIRx can run: those on an attribute its kind still has.

    The goldens (the group ``checks``: 0.27's own check inputs) show each kept check with 0.27's
    condition and message (the A-profile ones on more CPUs: APROFILE_WHEN), and the dropped one
    (``jit``) as an unknown option."""
    data = json.loads((DATA / "checks-v0.27.json").read_text(encoding="utf-8"))
    kept = []
    for check in data["checks"]:
        if check["attribute"] not in kinds[check["kind"]]["options"]:
            continue
        if check["id"].startswith("llvm-aprofile-"):
            check = {**check, "when": APROFILE_WHEN}
        kept.append(check)
    return {
        "source": "the checks of checks-v0.27.json on an attribute TIRx's kind still has, each verified against "
        f"{source_of()} with 0.27's check inputs (tests/data/oracle/{NAME}-all-targets.jsonl, group 'checks'); "
        "the 'source' lines are apache/tvm's at v0.27.dev0; the 'when' of the llvm-aprofile checks is TIRx's, "
        "which checks an aarch64 triple whatever its mcpu. The llvm-aprofile checks run only when TIRx's LLVM has "
        f"an Arm backend (the extra all-targets; {NAME}.jsonl shows the plain wheel accepting what they reject)",
        "conditions": data["conditions"],
        # a null host, or a null among a composite's devices, is rejected (the group 'checks' shows
        # both), where 0.27 read either as none
        "null_targets": False,
        "checks": kept,
    }


# ----------------------------------------------------------------------------------------------
# goldens

STRINGS = (
    "llvm -mcpu=skylake",
    "cuda -arch=sm_80",
    "cuda -libs=cublas,cudnn",
    "llvm -mtriple=aarch64-linux-gnu -mattr=+neon",
    "opencl -device=mali",
    "nvidia/nvidia-a100 -libs=cublas",
    "llvm",
    "cuda",
    "  llvm",
    "llvm ",
    "-mcpu=skylake",
    "",
    '{"kind": "llvm", "mcpu": "skylake"}',
    '{"kind": "cuda", "arch": "sm_80"}',
)

# a value of each TVM type name, and one of another type
VALUE = {
    "str": "x",
    "int": 4,
    "bool": True,
    "Array<str>": ["a", "b"],
    "Map<str, Any>": {"a": 1},
    "target.Target": {"kind": "llvm"},
    "Array<target.Target>": [{"kind": "llvm"}],
}
WRONG = {
    "str": 4,
    "int": "4",
    "bool": "yes",
    "Array<str>": 4,
    "Map<str, Any>": ["a"],
    "target.Target": 4,
    "Array<target.Target>": 4,
}
# values some canonicaliser checks (an arbitrary "x" would be rejected by them)
GOOD = {
    ("cuda", "arch"): "sm_80",
    ("nvptx", "mcpu"): "sm_80",
    ("nvptx", "mtriple"): "nvptx64-nvidia-cuda",
    ("rocm", "mcpu"): "gfx908",
    ("rocm", "mtriple"): "amdgcn-amd-amdhsa-hcc",
    ("webgpu", "thread_warp_size"): 1,
    ("llvm", "mtriple"): "x86_64-linux-gnu",
    ("llvm", "mfloat-abi"): "hard",
    ("c", "mtriple"): "x86_64-linux-gnu",
}


def kind_inputs(kinds: Mapping[str, Any]) -> Iterator[tuple[str, Any]]:
    for name in kinds:
        yield "kind", {"kind": name}
    for name, kind in kinds.items():
        for attribute, type_name in kind["options"].items():
            if attribute == "kind":
                continue
            value = GOOD.get((name, attribute), VALUE.get(type_name))
            if value is None:
                raise SystemExit(f"no value for type {type_name} ({name}.{attribute})")
            yield "generated", {"kind": name, attribute: value}
            yield "generated", {"kind": name, attribute: WRONG[type_name]}
        yield "generated", {"kind": name, "no_such_attribute": 1}
    # attributes other distributions have that TIRx may not
    yield "generated", {"kind": "llvm", "jit": "orcjit"}
    yield "generated", {"kind": "llvm", "feature.has_sve": True}
    yield "generated", {"kind": "cuda", "backend_config": {"nested": {"a": [1, 2]}, "flag": True}}
    yield "generated", {"kind": "cuda", "arch": "sm_80", "host": {"kind": "cuda_host"}}
    yield "generated", {"kind": "trn", "host": {"kind": "llvm"}}


def corpus_inputs() -> Iterator[tuple[str, Any, str]]:
    import targetlang

    seen: set[str] = set()
    for line in (ROOT / "tests" / "data" / "corpus" / "strings.jsonl").read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if record["form"] not in ("legacy-string", "tag", "json"):
            continue
        try:
            migrated = targetlang.migrate(record["text"], validate=False).json
        except targetlang.TargetError:
            continue  # targetlang does not read it; nothing is written for TIRx
        if migrated is None:
            continue  # nothing a modern release reads (a removed option alone, as --system-lib)
        key = json.dumps(migrated, sort_keys=True)
        if key not in seen:
            seen.add(key)
            yield "corpus", migrated, record["text"]


def migrated_inputs() -> Iterator[tuple[Any, str, Any]]:
    """(source, policy, what migrate writes for TIRx) for each text of the corpus and each input of
    the 0.27 migration's differential goldens that migrates, once each."""
    return migrations(NAME)


def check_inputs() -> Iterator[tuple[str, Any]]:
    path = ROOT / "tests" / "data" / "oracle" / "checks-v0.27.jsonl"
    for line in path.read_text(encoding="utf-8").splitlines():
        yield "checks", decode(json.loads(line))


def record_goldens() -> None:
    kinds = json.loads((DATA / f"kinds-{NAME}.json").read_text(encoding="utf-8"))["kinds"]
    tags = json.loads((DATA / f"tags-{NAME}.json").read_text(encoding="utf-8"))
    inputs: list[tuple[str, Any, str | None]] = []
    inputs += [(group, spec, None) for group, spec in kind_inputs(kinds)]
    inputs += [("tag", name, None) for name in tags["tags"]]
    inputs += [("string", text, None) for text in STRINGS]
    inputs += list(corpus_inputs())
    inputs += [(group, spec, None) for group, spec in check_inputs()]
    found = list(migrated_inputs())
    migrated = {len(inputs) + i: (source, policy) for i, (source, policy, _) in enumerate(found)}
    inputs += [("migrated", spec, None) for _, _, spec in found]
    worker = _Worker(__file__)
    rows, crashed = [], []
    try:
        for i, (group, spec, source) in enumerate(inputs):
            result = worker.ask(spec)
            if result is None and i in migrated:
                # what migrate writes and kills TIRx is a finding of the goldens, not left out
                result = {"accepted": False, "crashed": True}
            if result is None:
                crashed.append(spec)
                continue
            row: dict[str, Any] = {"group": group}
            if source is not None:
                row["source"] = source
            if i in migrated:
                row["source"], row["policy"] = migrated[i]
            rows.append({**row, **encode(spec), **result})
    finally:
        worker.close()
    goldens = ORACLE / (f"{NAME}-all-targets.jsonl" if all_targets() else f"{NAME}.jsonl")
    write_rows(goldens, rows)
    print(f"{len(rows)} rows -> {goldens}", file=sys.stderr)
    for spec in crashed:
        print(f"left out, it crashed TVM: {spec!r}", file=sys.stderr)


def main(argv: list[str]) -> int:
    if argv[1:2] == ["--worker"]:
        serve(outcome)
    elif argv[1:2] == ["schemas"]:
        record_schemas()
    elif argv[1:2] == ["goldens"]:
        record_goldens()
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
