"""Compare the targets TVM's maintainers migrated by hand with ``targetlang.migrate``, under TVM 0.27.

For each file of tests/data/fix, the targets of the ``.before`` and ``.after`` versions
(:func:`~tests.fixproof.targets_in_source.sites_of_file`) are paired: by order within each changed
region of the line diff, then whatever is left over by order within the file when as many are left
on both sides. Each pair of a changed target is classified with the exports TVM 0.27 gave
(tests/data/fix/tvm027-*.jsonl, written by ``record_tvm027.py``):

``equal``
    the maintainers' target and ``targetlang.migrate`` of the legacy string (or the helper call as
    TVM ran it) export the same in TVM 0.27;
``equal-but-tag``
    the same but for the ``tag`` name TVM 0.27 records for ``{"tag": ...}``;
``differ``
    both build, to different targets;
``maintainers-rejected`` / ``ours-rejected`` / ``both-rejected``
    TVM 0.27 (or targetlang) refuses one side or both;
``equal-symbolic`` / ``differ-symbolic``
    the targets are computed (``"llvm -mtriple=%s" % arch`` against ``{"kind": "llvm", "mtriple":
    arch}``): both sides are evaluated with every free name standing for a placeholder string and
    the migrated legacy string compared with the maintainers' dict as JSON;
``not-comparable``
    an expression on either side that cannot be evaluated so.

Writes tests/data/fix/FINDINGS.md and tests/data/fix/pairs.jsonl:

    python -m tests.fixproof.compare
"""

from __future__ import annotations

import ast
import difflib
import json
import re
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.fixproof.record_tvm027 import IN_EFFECT, helpers_by_era  # noqa: E402
from tests.fixproof.targets_in_source import Site, dotted, legacy_api_uses, sites_of_file  # noqa: E402

DATA = ROOT / "tests" / "data" / "fix"
FINDINGS = DATA / "FINDINGS.md"
PAIRS = DATA / "pairs.jsonl"

CLASSES = (
    "equal",
    "equal-but-tag",
    "equal-symbolic",
    "differ-model-only",
    "differ",
    "differ-symbolic",
    "maintainers-rejected",
    "ours-rejected",
    "both-rejected",
    "not-comparable",
)

# The verdict on each difference, by the .after file and line of the maintainers' target: which
# side is right under TVM 0.27's semantics and TVM v0.22's reading of the legacy string (or of the
# helper call as TVM ran it at the parent commit).
VERDICTS: dict[tuple[str, int], str] = {
    ("2030db36e4/docs__how_to__tutorials__cross_compilation_and_rpc.py.after", 530): (
        "**Maintainers wrong.** TVM 0.27 types `mattr` as `Array<str>` and rejects the string "
        '`"+neon"` (ValueError). v0.22 read `-mattr=+neon` as the array `["+neon"]`, which is what '
        "targetlang writes. It is in a comment of the tutorial, so no test ran it; a reader who "
        "copies it gets the error."
    ),
    ("283fd19683/python__tvm__contrib__hexagon__pytest_plugin.py.after", 320): (
        '**Maintainers wrong.** `tvm.target.hexagon("v68")` built (v0.22 and the parent commit '
        "alike) `hexagon -mtriple=hexagon -mcpu=hexagonv68 -mattr=+hvxv68,+hvx-length128b,"
        "+hvx-qfloat,-hvx-ieee-fp --llvm-options=-force-hvx-float --num-cores=4 "
        "--vtcm-capacity=4194304`; the dict keeps only kind, mtriple and mcpu, so the AoT fixture "
        "loses HVX (vector length, qfloat), the auto-vectorization option, the core count the meta "
        'scheduler needs and the VTCM limit. `"qcom/hexagon-v68"`, which the same commit writes '
        "everywhere else for this call, exports exactly what the helper built."
    ),
    (
        "283fd19683/tests__python__s_tir__meta_schedule__test_meta_schedule_postproc_disallow_async_strided_mem_copy.py.after",
        27,
    ): (
        '**Changes the target.** The legacy `"hexagon"` is the bare kind, and TVM 0.27 accepts it '
        'as it is (`{"kind": "hexagon"}` exports the same); the maintainers put the v68 tag in its '
        "place, which adds mcpu, mtriple, mattr, llvm-options, num-cores and vtcm-capacity. "
        'Maybe wanted for the test, but not a migration: the faithful rewrite leaves `"hexagon"`.'
    ),
    ("283fd19683/tests__python__target__test_target_target.py.after", 51): (
        "**Maintainers wrong** as a replacement for the helper: `tvm.target.intel_graphics()` set "
        "`thread_warp_size=16` (v0.22: `-thread_warp_size=16`; the parent commit: the same in a dict), "
        "the dict gets opencl's default `1`. The test only reads the device, so it passes; code "
        "rewritten after this example schedules Intel GPUs with a warp of 1. Faithful: "
        '`{"kind": "opencl", "device": "intel_graphics", "thread_warp_size": 16}` (`model` optional).'
    ),
}
MODEL_ONLY = (
    "The helpers of v0.22 and of the parent commit always set `model` (`unknown` by default); "
    "TVM's code at 283fd19683 reads no target's `model` (outside tests), and the removed "
    "`Target.model` property reported `unknown` for a target without it, so nothing TVM computes "
    "changes. The target's JSON does (a tuning database keyed by the target text would not match "
    "records made with the helper). Not wrong; targetlang keeps `model` because the helper set it."
)
# What the pairing cannot show, checked by hand in TVM 0.27 (with the helpers of
# tests/data/fix/helpers and record_tvm027.tvm027).
NOTES = """- **`link_params=True` is not lost.** `tvm.target.hexagon("v68", link_params=True)`
  (283fd19683 `test_async_dma_pipeline.py:272`) became `Target("qcom/hexagon-v68")`, and the
  exports are equal: the helper has ignored `link_params` since TVM v0.10 (v0.9 still turned it
  into `--link-params=True`), so neither v0.22 nor the parent commit put it in the target.
- **`get_hexagon_target` (283fd19683 `contrib/test_hexagon/infrastructure.py:355`).**
  `tvm.target.hexagon(cpu_ver, **kwargs)` became a tag `"qcom/hexagon-" + cpu_ver` with
  `vtcm_capacity`/`num_cores` renamed to `vtcm-capacity`/`num-cores`. For every call in TVM's
  tree (`"v68"`, `"v69"`, `"v68"` with `vtcm_capacity=0` or a variable) the export equals the
  helper's (but for the tag name recorded when a keyword makes it a `{"tag": ...}` dict). It is
  narrower than the helper: `v67`, `v67t` and `v71`
  have no tag (`Target kind "qcom/hexagon-v67" is not defined`), `"hexagonv68"` is no longer
  normalised to `v68`, and the helper's other keywords (`hvx`, `llvm_options`, `use_qfloat`,
  `use_ieee_fp`) now reach TVM as unknown options (`Unknown config option 'hvx'`).
- **`get_target` of `relax/texture/adreno_utils.py` (283fd19683:36).** The four
  `tvm.target.adreno(backend=..., cfg=...)` calls and the tags that replace them export the same
  but for `model: unknown` (for both backends, with and without `cfg="texture"`, with the legacy
  and the dict helpers).
- **`tvm.compile(s.mod, "opencl --host=llvm")` → `tvm.compile(s.mod, tvm.target.Target("opencl",
  host="llvm"))`** (2030db36e4 `runtime/test_runtime_rpc.py:323`): one string became a call with two
  (unpaired above); the exports are equal.
- **`Target.canon_target(x)` → `Target(x)`** (283fd19683 `python/tvm/tir/build.py`): the same for
  a target, a string or a dict; `canon_target(None)` returned `None` where `Target(None)` raises,
  but each call there is reached only with a target.
- **Not every literal of the `.after` files is meant to build.** `test_target_target.py` keeps
  `Target("llvm -mcpu=cortex-a53")` inside `pytest.raises(ValueError)` (2030db36e4:520,
  283fd19683:425) to check that TVM 0.27 rejects the legacy form, and
  `{"kind": "llvm", "libs": {"a": "b", "c": "d"}}` (`test_config_map`) to check a type error.
  A rewriter must leave the first one alone.
- **`"apple/m1-gpu-restricted"`** (left as it was in 2030db36e4 `s_tir/dlight/test_gpu_gemv.py`):
  v0.22 registered every Metal tag with the host `mcpu` `apple-m4` (with LLVM >= 19); TVM
  corrected the M1 tags to `apple-m1` in apache/tvm#18822, after both commits. The string keeps
  working and takes the corrected meaning; `targetlang.migrate` writes out v0.22's (the bug
  included). A rewriter that leaves tags as they are follows TVM here.
- **A tag string and a `{"tag": ...}` dict export differently in TVM 0.27**: `Target("qcom/hexagon-v68")`
  records `tag: ""`, `Target({"tag": "qcom/hexagon-v69", ...})` records the tag's name.
"""


@dataclass
class Pair:
    file: str  # <commit>/<name> without .before/.after
    before: Site | None
    after: Site | None
    how: str  # "region" or "file": how the pair was formed
    klass: str = ""
    ours: Any = None
    theirs: Any = None
    difference: dict[str, Any] = field(default_factory=dict)
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        def side(site: Site | None) -> dict[str, Any] | None:
            if site is None:
                return None
            return {"line": site.line, "column": site.col, "role": site.role, "expr": site.source}

        return {
            "file": self.file,
            "before": side(self.before),
            "after": side(self.after),
            "paired_by": self.how,
            "class": self.klass,
            "ours": self.ours,
            "theirs": self.theirs,
            "difference": self.difference,
            "note": self.note,
        }


def read_records(name: str) -> dict[tuple[str, int, int], dict[str, Any]]:
    records = {}
    with (DATA / name).open(encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            records[record["file"], record["line"], record["column"]] = record
    return records


def pairable(sites: list[Site]) -> list[Site]:
    """The sites to pair: targets (strings, dicts, expressions), not ``None`` or numbers at a
    target position, and not an expression holding another site (``Target(Target("..."))``)."""
    kept = [site for site in sites if not site.literal or isinstance(site.value, (str, dict))]

    def contains(outer: Site, inner: Site) -> bool:
        return (
            outer is not inner
            and (outer.line, outer.col) <= (inner.line, inner.col)
            and (inner.end_line, inner.end_col) <= (outer.end_line, outer.end_col)
        )

    return [site for site in kept if site.literal or not any(contains(site, other) for other in kept)]


def align(before: list[Site], after: list[Site]) -> Iterator[tuple[Site | None, Site | None]]:
    """Pairs by order when both sides have as many; else aligned by role, the rest unpaired."""
    if len(before) == len(after):
        yield from zip(before, after, strict=True)
        return
    matcher = difflib.SequenceMatcher(None, [s.role for s in before], [s.role for s in after], autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal" or (tag == "replace" and i2 - i1 == j2 - j1):
            yield from zip(before[i1:i2], after[j1:j2], strict=True)
        else:
            yield from ((site, None) for site in before[i1:i2])
            yield from ((None, site) for site in after[j1:j2])


def pairs_of_file(commit: str, before_path: Path) -> list[Pair]:
    after_path = before_path.with_suffix(".after")
    name = f"{commit}/{before_path.name.removesuffix('.before')}"
    before_text = before_path.read_text(encoding="utf-8")
    after_text = after_path.read_text(encoding="utf-8")
    before_sites = pairable(sites_of_file(before_path.name, before_text))
    after_sites = pairable(sites_of_file(after_path.name, after_text))
    matcher = difflib.SequenceMatcher(None, before_text.splitlines(), after_text.splitlines(), autojunk=False)
    pairs: list[Pair] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        region_before = [s for s in before_sites if i1 < s.line <= i2]
        region_after = [s for s in after_sites if j1 < s.line <= j2]
        pairs.extend(Pair(name, b, a, "region") for b, a in align(region_before, region_after))
    # what is left over pairs by order within the file when as many are left on both sides
    left_before = [p for p in pairs if p.after is None]
    left_after = [p for p in pairs if p.before is None]
    if left_before and len(left_before) == len(left_after):
        for b, a in zip(left_before, left_after, strict=True):
            b.after, b.how = a.after, "file"
            pairs.remove(a)
    return pairs


# --- evaluating both sides ----------------------------------------------------------------------


def migrate_json(text: str) -> dict[str, Any] | None:
    import targetlang

    try:
        migration = targetlang.migrate(text)
    except targetlang.TargetError:
        return None
    return migration.json


class _Unknown(Exception):
    pass


def symbolic(node: ast.expr) -> Any:
    """The value of a string/dict expression with each free name standing for ``"@name@"``."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        return f"@{node.id}@"
    if isinstance(node, ast.Attribute):
        return f"@{ast.unparse(node)}@"
    if isinstance(node, ast.JoinedStr):
        parts = []
        for part in node.values:
            if isinstance(part, ast.FormattedValue) and part.format_spec is None:
                parts.append(str(symbolic(part.value)))
            elif isinstance(part, ast.Constant):
                parts.append(str(part.value))
            else:
                raise _Unknown
        return "".join(parts)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
        left, right = symbolic(node.left), symbolic(node.right)
        if isinstance(node.op, ast.Add) and isinstance(left, str) and isinstance(right, str):
            return left + right
        if isinstance(node.op, ast.Mod) and isinstance(left, str):
            return left % (tuple(right) if isinstance(right, list) else right)
        raise _Unknown
    if isinstance(node, (ast.Tuple, ast.List)):
        return [symbolic(element) for element in node.elts]
    if isinstance(node, ast.Dict) and all(key is not None for key in node.keys):
        return {symbolic(k): symbolic(v) for k, v in zip(node.keys, node.values, strict=True) if k is not None}
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and not node.args:
        if node.func.attr == "strip":
            value = symbolic(node.func.value)
            if isinstance(value, str):
                return value.strip()
    raise _Unknown


def symbolic_value(site: Site, era: str | None) -> Any:
    """A computed target with each free name standing for ``"@name@"``: a string, a dict, or what
    the helper in effect (``era``) built from such arguments; ``None`` when it cannot be followed."""
    try:
        node = ast.parse(site.source.strip(), mode="eval").body
        if site.role != "helper":
            return symbolic(node)
        if not isinstance(node, ast.Call) or era is None:
            return None
        function = helpers_by_era()[era].get((dotted(node.func) or "").rsplit(".", 1)[-1])
        args = [symbolic(arg) for arg in node.args]
        kwargs = {keyword.arg: symbolic(keyword.value) for keyword in node.keywords if keyword.arg}
        if function is None or len(kwargs) != len(node.keywords):
            return None
        return function(*args, **kwargs)
    except (_Unknown, SyntaxError, TypeError, ValueError, KeyError):
        return None


_PLACEHOLDER = re.compile(r"@[^@\s]+@")
# what a placeholder standing for the kind is tried as
_KINDS_TRIED = ("c", "llvm", "cuda", "opencl", "vulkan")


def _substitute(value: Any, placeholder: str, kind: str) -> Any:
    if isinstance(value, str):
        return value.replace(placeholder, kind)
    if isinstance(value, list):
        return [_substitute(item, placeholder, kind) for item in value]
    if isinstance(value, dict):
        return {key: _substitute(item, placeholder, kind) for key, item in value.items()}
    return value


def as_json(value: Any) -> dict[str, Any] | None:
    """A computed target as config: a legacy string migrated, a JSON string decoded, a dict."""
    if isinstance(value, dict):
        return value
    if not isinstance(value, str):
        return None
    if value.lstrip().startswith("{"):
        try:
            decoded = json.loads(value)
        except ValueError:
            return None
        return decoded if isinstance(decoded, dict) else None
    return migrate_json(value)


def symbolic_compare(before: Any, after: Any) -> tuple[bool, Any, Any] | None:
    """Whether two computed targets are the same config (as JSON, types included) for every value
    of their names; a placeholder standing for the kind is tried as each of a few kinds."""
    kind = before.split()[0] if isinstance(before, str) and before.split() else None
    placeholders = [kind] if kind and _PLACEHOLDER.fullmatch(kind) else [None]
    verdicts = []
    first: tuple[Any, Any] | None = None
    for placeholder in placeholders:
        for tried in _KINDS_TRIED if placeholder else ("",):
            b = as_json(_substitute(before, placeholder, tried) if placeholder else before)
            a = as_json(_substitute(after, placeholder, tried) if placeholder else after)
            if placeholder and b is None:
                continue  # a kind without the attributes the string sets
            if b is None or a is None:
                return None
            first = first or (b, a)
            verdicts.append(canonical(b) == canonical(a))
    if first is None:
        return None
    return all(verdicts), first[0], first[1]


def outcome_of(record: dict[str, Any] | None, *, migrate: bool) -> tuple[Any, dict[str, Any] | None]:
    """``(what the target is, TVM 0.27's outcome)`` of a recorded site: for a legacy string (with
    ``migrate``), the migrated JSON; for a helper call, what the helper in effect built."""
    if record is None:
        return None, None
    if "helper" in record:
        helper = record["helper"]
        era = helper["in_effect"]
        run = helper.get(era) if era else None
        if not run or not run.get("ok"):
            return {"helper": helper["name"], "error": run and run.get("error")}, None
        if "migrate" in run:
            return run["migrate"]["json"], run["tvm027"]
        return run["result"], run["tvm027"]
    if migrate and "migrate" in record:
        if not record["migrate"]["ok"]:
            return {"migrate-error": record["migrate"].get("error") or record["migrate"]["rules"]}, None
        return record["migrate"]["json"], record["outcome"]
    return record["value"], record["outcome"]


def canonical(value: Any) -> str:
    """JSON with sorted keys: ``1`` and ``true`` differ, as they do in a source file."""
    return json.dumps(value, sort_keys=True)


def export_difference(ours: dict[str, Any], theirs: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """The entries that differ, by key (``host.mcpu`` for a nested one)."""
    difference: dict[str, Any] = {}
    for key in sorted(set(ours) | set(theirs)):
        mine, other = ours.get(key), theirs.get(key)
        if isinstance(mine, dict) and isinstance(other, dict):
            difference.update(export_difference(mine, other, f"{prefix}{key}."))
        elif mine != other or type(mine) is not type(other):
            difference[prefix + key] = {"ours": mine, "theirs": other}
    return difference


def classify(pair: Pair, before: dict[tuple[str, int, int], Any], after: dict[tuple[str, int, int], Any]) -> None:
    b, a = pair.before, pair.after
    assert b is not None and a is not None
    record_b = before.get((f"{pair.file}.before", b.line, b.col))
    record_a = after.get((f"{pair.file}.after", a.line, a.col))
    pair.ours, ours = outcome_of(record_b, migrate=True)
    pair.theirs, theirs = outcome_of(record_a, migrate=False)
    if record_b is None or record_a is None:
        commit = pair.file.split("/", 1)[0]
        value_b = symbolic_value(b, IN_EFFECT[commit, ".before"])
        value_a = symbolic_value(a, IN_EFFECT[commit, ".after"])
        compared = symbolic_compare(value_b, value_a) if value_b is not None and value_a is not None else None
        if compared is None:
            pair.klass = "not-comparable"
            return
        equal, pair.ours, pair.theirs = compared
        pair.klass = "equal-symbolic" if equal else "differ-symbolic"
        if not equal:
            pair.difference = export_difference(pair.ours, pair.theirs)
        return
    ok_b = bool(ours and ours.get("ok"))
    ok_a = bool(theirs and theirs.get("ok"))
    if ok_b and ok_a:
        assert ours is not None and theirs is not None
        difference = export_difference(ours["export"], theirs["export"])
        pair.difference = difference
        if not difference:
            pair.klass = "equal"
        elif set(difference) == {"tag"}:
            pair.klass = "equal-but-tag"
        elif set(difference) == {"model"} and {difference["model"]["ours"], difference["model"]["theirs"]} == {
            "unknown",
            None,
        }:
            pair.klass = "differ-model-only"
        else:
            pair.klass = "differ"
    elif ok_b:
        pair.klass = "maintainers-rejected"
        pair.difference = {"theirs-error": theirs and theirs.get("error")}
    elif ok_a:
        pair.klass = "ours-rejected"
        pair.difference = {"ours-error": (ours and ours.get("error")) or pair.ours}
    else:
        pair.klass = "both-rejected"


# --- the report ---------------------------------------------------------------------------------


def commits() -> list[str]:
    """The commits of TVM's hand migration, as manifest.json lists them (the other folders of
    tests/data/fix hold other proof data)."""
    manifest = json.loads((DATA / "manifest.json").read_text(encoding="utf-8"))
    return sorted(commit["short"] for commit in manifest["commits"])


def all_pairs() -> tuple[list[Pair], dict[str, dict[str, int]]]:
    before = read_records("tvm027-before-migrated.jsonl")
    after = read_records("tvm027-after.jsonl")
    pairs: list[Pair] = []
    stats: dict[str, dict[str, int]] = {}
    for commit in commits():
        files = sorted((DATA / commit).glob("*.before"))
        mine_before = [r for key, r in before.items() if key[0].startswith(f"{commit}/")]
        mine_after = [r for key, r in after.items() if key[0].startswith(f"{commit}/")]
        with_targets = {key[0].removesuffix(".before") for key in before if key[0].startswith(f"{commit}/")}
        with_targets |= {key[0].removesuffix(".after") for key in after if key[0].startswith(f"{commit}/")}
        stats[commit] = {
            "files": len(files),
            "files_with_literals": len(with_targets),
            "literals_before": sum(1 for r in mine_before if "helper" not in r),
            "literals_after": sum(1 for r in mine_after if "helper" not in r),
            "helpers_before": sum(1 for r in mine_before if "helper" in r),
            "helpers_after": sum(1 for r in mine_after if "helper" in r),
        }
        for path in files:
            for pair in pairs_of_file(commit, path):
                if pair.before is not None and pair.after is not None:
                    if pair.before.source == pair.after.source:
                        pair.klass = "unchanged"
                    else:
                        classify(pair, before, after)
                else:
                    pair.klass = "unpaired"
                pairs.append(pair)
    return pairs, stats


def cell(value: Any, limit: int = 110) -> str:
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=False)
    text = " ".join(text.split())
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return "`" + text.replace("`", "'").replace("|", "\\|") + "`"


def where(pair: Pair) -> str:
    """``commit/file`` and the lines: ``:B→A`` for a pair, ``:B→`` or ``:→A`` for one side."""
    before = str(pair.before.line) if pair.before is not None else ""
    after = str(pair.after.line) if pair.after is not None else ""
    return f"{pair.file}:{before}→{after}"


def describe(difference: dict[str, Any]) -> str:
    items = []
    for key, value in difference.items():
        if isinstance(value, dict) and set(value) == {"ours", "theirs"}:
            items.append(f"{key}: ours {json.dumps(value['ours'])}, theirs {json.dumps(value['theirs'])}")
        else:
            items.append(f"{key}: {value}")
    return "; ".join(items)


def report(pairs: list[Pair], stats: dict[str, dict[str, int]]) -> str:
    out: list[str] = []
    w = out.append
    w("# Where the hand migration of apache/tvm differs from `targetlang.migrate`")
    w("")
    w(
        "Generated by `python -m tests.fixproof.compare` from the files of this directory (see "
        "[SOURCES.md](SOURCES.md)) and the exports TVM 0.27 recorded for them "
        "(`tvm027-after.jsonl`, `tvm027-before-migrated.jsonl`; `tests/fixproof/record_tvm027.py`). "
        "Each target of a `.before` file is paired with the one the maintainers wrote in its place "
        "in the `.after` file (by order within each changed region of the diff, then by order "
        "within the file for what is left); a legacy string is migrated with `targetlang.migrate`, "
        'a call of a removed helper (`tvm.target.hexagon("v68")`) is run as TVM had it at the '
        "parent commit (a legacy string it built is migrated, a dict taken as it is); then both are built with "
        "`tvm.target.Target(...)` in TVM 0.27 and their `export()`s compared. All pairs are in "
        "`pairs.jsonl`."
    )
    w("")
    w(
        "TVM 0.27 ran without a GPU: CUDA targets default to `arch: sm_50` and ROCm to `gfx900` on "
        "both sides alike, and `from_device` falls back to the kind's defaults."
    )
    w("")
    w("## Counts")
    w("")
    header = ["", *commits(), "total"]
    w("| " + " | ".join(header) + " |")
    w("|" + "---|" * len(header))

    def row(label: str, values: list[int]) -> None:
        w(f"| {label} | " + " | ".join(str(v) for v in values) + f" | {sum(values)} |")

    row("files (.before/.after pairs)", [stats[c]["files"] for c in commits()])
    row("files with a literal target or helper call", [stats[c]["files_with_literals"] for c in commits()])
    row("literal targets in .before", [stats[c]["literals_before"] for c in commits()])
    row("literal targets in .after", [stats[c]["literals_after"] for c in commits()])
    row("helper calls with literal arguments in .before", [stats[c]["helpers_before"] for c in commits()])
    row("helper calls with literal arguments in .after", [stats[c]["helpers_after"] for c in commits()])
    by_commit: dict[str, Counter[str]] = {c: Counter() for c in commits()}
    files_changed: dict[str, set[str]] = {c: set() for c in commits()}
    for pair in pairs:
        commit = pair.file.split("/", 1)[0]
        by_commit[commit][pair.klass] += 1
        if pair.klass not in ("unchanged", "unpaired"):
            files_changed[commit].add(pair.file)
    row("files with a changed target", [len(files_changed[c]) for c in commits()])
    row("changed targets paired", [sum(by_commit[c][k] for k in CLASSES) for c in commits()])
    for klass in (*CLASSES, "unpaired", "unchanged"):
        row(f"— {klass}", [by_commit[c][klass] for c in commits()])
    w("")
    w(
        '`unchanged`: a target in a changed region that the maintainers left as it was (`"llvm"`, '
        '`"cuda"`). `unpaired`: a target on one side only (code added or removed).'
    )
    w("")

    def section(title: str, klasses: tuple[str, ...], intro: str) -> None:
        chosen = [p for p in pairs if p.klass in klasses]
        w(f"## {title} ({len(chosen)})")
        w("")
        w(intro)
        w("")
        if not chosen:
            w("None.")
            w("")
            return
        w("| where | maintainers wrote | targetlang / the helper gives | what differs in TVM 0.27 | verdict |")
        w("|---|---|---|---|---|")
        for pair in chosen:
            assert pair.after is not None and pair.before is not None
            verdict = VERDICTS.get((f"{pair.file}.after", pair.after.line), pair.note or "—")
            w(
                f"| {where(pair)} | {cell(pair.after.source)} | "
                f"{cell(pair.before.source, 60)} → {cell(pair.ours)} | {cell(describe(pair.difference), 200)} | "
                f"{verdict} |"
            )
        w("")

    section(
        "Where the hand migration is wrong or changes the target",
        ("differ", "differ-symbolic", "maintainers-rejected"),
        "The maintainers' target builds to something else than the legacy string (or helper call) "
        "meant, or TVM 0.27 rejects it.",
    )
    section(
        "Differ only in `model: unknown`",
        ("differ-model-only",),
        MODEL_ONLY,
    )
    section(
        "Where targetlang fails",
        ("ours-rejected", "both-rejected"),
        "The legacy string does not migrate, or its migration does not build in TVM 0.27.",
    )
    section(
        "Equal but for the tag name",
        ("equal-but-tag",),
        'TVM 0.27 records the tag of `{"tag": ...}` in `export()` (but not of a bare tag string); '
        "the configurations are the same.",
    )
    text_differs = [p for p in pairs if p.klass == "equal" and isinstance(p.ours, dict) and isinstance(p.theirs, dict)]
    text_differs = [p for p in text_differs if canonical(p.ours) != canonical(p.theirs)]
    w(f"## Equal in TVM 0.27, written differently ({len(text_differs)})")
    w("")
    w(
        "The exports are equal, but the maintainers' dict is not the one targetlang writes: TVM "
        "0.27 converts the difference away (`1` for a boolean, a tag for its configuration)."
    )
    w("")
    if text_differs:
        w("| where | maintainers wrote | targetlang writes |")
        w("|---|---|---|")
        for pair in text_differs:
            assert pair.after is not None
            w(f"| {where(pair)} | {cell(pair.after.source)} | {cell(pair.ours)} |")
        w("")
    chosen = [p for p in pairs if p.klass == "equal-symbolic"]
    w(f"## Equal with the names left open ({len(chosen)})")
    w("")
    w(
        "Computed on both sides; equal as JSON whatever the names hold, as long as it has no "
        "comma or blank (which a legacy string splits: `-mattr={mattr}` is one feature only "
        "because every value the test passes is one). A name standing for the kind is tried "
        "as each of c, llvm, cuda, opencl and vulkan that takes the attributes."
    )
    w("")
    if chosen:
        w("| where | before | after |")
        w("|---|---|---|")
        for pair in chosen:
            assert pair.before is not None and pair.after is not None
            w(f"| {where(pair)} | {cell(pair.before.source, 80)} | {cell(pair.after.source, 80)} |")
        w("")
    chosen = [p for p in pairs if p.klass == "not-comparable"]
    w(f"## Not comparable ({len(chosen)})")
    w("")
    w(
        "An expression on either side that the symbolic evaluation cannot follow (a variable "
        "kind, a call, a removed API such as `Target.canon_target`)."
    )
    w("")
    if chosen:
        w("| where | before | after |")
        w("|---|---|---|")
        for pair in chosen:
            assert pair.before is not None and pair.after is not None
            w(f"| {where(pair)} | {cell(pair.before.source, 80)} | {cell(pair.after.source, 80)} |")
        w("")
    chosen = [p for p in pairs if p.klass == "unpaired"]
    w(f"## Unpaired ({len(chosen)})")
    w("")
    w("A target on one side only: code the maintainers added or removed, or rewrote beyond pairing.")
    w("")
    if chosen:
        w("| where | before | after |")
        w("|---|---|---|")
        for pair in chosen:
            before = cell(pair.before.source, 80) if pair.before else ""
            after = cell(pair.after.source, 80) if pair.after else ""
            w(f"| {where(pair)} | {before} | {after} |")
        w("")
    changed_meaning = changed_in_meaning()
    w(f"## Accepted by TVM 0.27 as they are, but meaning something else than in v0.22 ({len(changed_meaning)})")
    w("")
    w(
        "Strings of the `.before` files that TVM 0.27 still builds unchanged (bare kinds, tags, "
        "JSON) but to another target than v0.22 read them as (and `targetlang.migrate` writes): a "
        "tag whose definition TVM changed in between. Left as they are (as the maintainers did), "
        "they silently take the new meaning."
    )
    w("")
    if changed_meaning:
        w("| where | string | what differs (ours: v0.22's reading, migrated; theirs: TVM 0.27's, as it is) |")
        w("|---|---|---|")
        for record in changed_meaning:
            difference = export_difference(record["outcome"]["export"], record["as_is"]["export"])
            w(f"| {record['file']}:{record['line']} | {cell(record['expr'])} | {cell(describe(difference), 300)} |")
        w("")
    w("## Checked by hand")
    w("")
    w(NOTES)
    w(properties())
    return "\n".join(out)


def changed_in_meaning() -> list[dict[str, Any]]:
    """The .before strings TVM 0.27 builds as they are, to another target than the migrated one."""
    records = read_records("tvm027-before-migrated.jsonl").values()
    return [
        record
        for record in records
        if record.get("as_is", {}).get("ok")
        and not record["as_is"].get("same_as_migrated")
        and record.get("outcome")
        and record["outcome"].get("ok")
    ]


def properties() -> str:
    """The reads of removed Target properties the maintainers rewrote, file by file."""
    out = [
        "## Removed properties (283fd19683)",
        "",
        "Reads of the properties TVM removed (`target.arch`, `target.max_num_threads`, ...), found "
        "by attribute name in the `.before` files and gone from the `.after` ones "
        "(`targets_in_source.legacy_api_uses`). Each rewrite is the body of the removed property "
        '(`arch` → `str(target.attrs.get("arch", ""))`, `max_num_threads` → '
        '`int(target.attrs["max_num_threads"])`, `libs` → `list(target.attrs.get("libs", []))`, ...), '
        'except `target.model` → `target.attrs["model"]` (the property defaulted to `"unknown"`; here '
        'the target sets it) and `hasattr(t, "thread_warp_size")` → `"thread_warp_size" in '
        "t.attrs` (for a target without the attribute the property raised `KeyError` from the "
        "attribute map, which `hasattr` does not catch; the rewrite is the test that was meant).",
        "",
        "| file | reads before → after | properties rewritten |",
        "|---|---|---|",
    ]
    for commit in commits():
        for path in sorted((DATA / commit).glob("*.py.before")):
            before = [u for u in legacy_api_uses(path.read_text(encoding="utf-8")) if u.role == "property"]
            after_text = path.with_suffix(".after").read_text(encoding="utf-8")
            after = [u for u in legacy_api_uses(after_text) if u.role == "property"]
            gone = sorted({u.name or "" for u in before} - {u.name or "" for u in after})
            if gone:
                name = f"{commit}/{path.name.removesuffix('.before')}"
                out.append(f"| {name} | {len(before)} → {len(after)} | {', '.join(gone)} |")
    out.append("")
    out.append(
        "(Reads left in `.after` are of other objects with the same attribute names, such as "
        "`dev.max_shared_memory_per_block` of a device.)"
    )
    return "\n".join(out)


def main() -> None:
    pairs, stats = all_pairs()
    with PAIRS.open("w", encoding="utf-8") as handle:
        for pair in pairs:
            handle.write(json.dumps(pair.to_json(), sort_keys=True, ensure_ascii=False) + "\n")
    FINDINGS.write_text(report(pairs, stats) + "\n", encoding="utf-8")
    counts = Counter(pair.klass for pair in pairs)
    print(", ".join(f"{klass}: {n}" for klass, n in sorted(counts.items())))


if __name__ == "__main__":
    main()
