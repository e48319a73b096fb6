"""The ``logs`` area: targetlang's model of TVM v0.19's tuning-log loaders against the real ones.

Per input log (a whole file, one line, or a few mutated lines), TVM v0.19 (the worker's ``logs``
area: tests/oracle/logs_oracle.py, plus :func:`tests.differential.worker.dispatch_queries`) and
targetlang (tests/test_oracle_logs.py's models over :mod:`targetlang.logs._loading`,
``_autotvm_loader`` and ``_scheduler_reader``, and :class:`targetlang.logs.Matcher`, what
``targetlang logs match`` runs) are asked:

* AutoTVM: the records ``load_from_file`` yielded (config index, mean cost, ``error_no == 0``)
  and what it raised; what ``ApplyHistoryBest`` raised and indexed (by target key and by model);
  and, for dispatch queries ``[target, task name, arguments]`` (the log's own targets, rewritten
  as AutoTVM rewrote them, and a few others, times the log's workloads and one absent), the
  model and keys of the query's target and the record the dispatcher returned (its config index
  and mean cost), or that ``Target(target)`` raised;
* auto_scheduler: the ``all_cost`` of each record ``load_records`` returned, or that it raised.

Inputs, deterministic for a seed: ``real-file`` (each log under tests/data/corpus/logs whole,
the meta-schedule database files given to both loaders), ``real-line`` (each line of those
AutoTVM and auto_scheduler logs alone), ``oracle-log`` (the logs of the goldens
tests/data/oracle/logs-*.jsonl, now with queries), then ``mutation``: one to four lines of one
real log, each edited (fields dropped, results, versions, ``tvm_version``, targets, configs,
task arguments changed; records of log format v0.1 made v0.2 and back; blank, white-space,
comment, truncated lines; leading spaces, ``\\r``, a byte order mark).
"""

from __future__ import annotations

import importlib
import json
import math
import random
import re
from collections.abc import Callable, Hashable, Iterator
from typing import Any, cast

import targetlang
from targetlang.logs import Matcher, Query, TargetReader
from targetlang.logs._autotvm_loader import autotvm_line, workload_of
from targetlang.logs.targets import autotvm_rewrite

from . import compare, inputs
from .harness import Area, Case, Worker, oracle_worker

DATA = inputs.DATA
# tests/test_oracle_logs.py holds targetlang's side of the comparison (imported by name, as
# tests/oracle/ is: the harness reuses its models, and must not run its module-level tests).
_MODELS = importlib.import_module("tests.test_oracle_logs")
autotvm_model = cast(Callable[[str], dict[str, Any]], _MODELS.autotvm_model)
expected_autotvm = cast(Callable[[dict[str, Any]], dict[str, Any]], _MODELS.expected_autotvm)
auto_scheduler_model = cast(Callable[[str], dict[str, Any]], _MODELS.auto_scheduler_model)
records = cast(Callable[[str], list[Any]], _MODELS.records)

AUTOTVM_FILES = [
    "corpus/logs/autotvm/tophub_llvm_v0.04.log",
    "corpus/logs/autotvm/tophub_vta_v0.10.log",
    "corpus/logs/autotvm/tophub_arm_cpu_v0.01.log",
]
AUTO_SCHEDULER_FILES = [
    "corpus/logs/auto_scheduler/tvm-v0.19.0_matmul.json",
    "corpus/logs/auto_scheduler/tvm-v0.19.0_resnet-50-NHWC-B1-llvm.json",
    "corpus/logs/auto_scheduler/tvm-v0.8.0_matmul.json",
]
META_SCHEDULE_FILES = [
    "corpus/logs/meta_schedule/mlc-llm-d93944ff_log_db_database_tuning_record.json",
    "corpus/logs/meta_schedule/mlc-llm-d93944ff_log_db_database_workload.json",
]
ORACLE_LOGS = ["unloadable", "results", "versions", "workloads", "auto-scheduler", "v01", "dmlc", "targets"]

# Targets a program asks the dispatcher about, besides the log's own.
QUERY_TARGETS = [
    "llvm",
    "llvm -mcpu=skylake-avx512",
    "llvm -mcpu=skylake",
    "llvm -keys=arm_cpu,cpu -device=arm_cpu -model=rk3399 -mtriple=aarch64-linux-gnu",
    "llvm -device=arm_cpu -model=pynq -mtriple=armv7a-linux-eabi",
    "arm_cpu",
    "cuda",
    "cuda -model=1080ti",
    "opencl -device=mali",
    "ext_dev -device=vta -keys=cpu -model=pynq_1x16_i8w8a32_15_15_18_17",
    "ext_dev -device=vta",
    "llvm -keys=cpu -model=x",
    "c",
]
ABSENT_WORKLOAD: list[Any] = ["dense_nopack.x86", [["TENSOR", [1, 64], "float32"], ["TENSOR", [32, 64], "float32"]]]


def read(path: str) -> str:
    return (DATA / path).read_text(encoding="utf-8")


def log_of(spec: dict[str, Any]) -> str:
    """The text of an input: its ``log``, the file it names, or the ``line`` of that file."""
    if "line" in spec:
        line: str = _lines(spec["file"])[spec["line"] - 1]
        return line + "\n"
    if "file" in spec:
        return read(spec["file"])
    text: str = spec["log"]
    return text


# ---------------------------------------------------------------------------- queries


def _objects(text: str) -> Iterator[dict[str, Any]]:
    for line in text.split("\n"):
        try:
            value = json.loads(line)
        except (ValueError, RecursionError):
            continue
        if isinstance(value, dict):
            yield value


def _tasks(text: str) -> tuple[list[str], list[list[Any]]]:
    """The record targets of an AutoTVM log (as AutoTVM rewrote them) and its distinct tasks."""
    own: list[str] = []
    tasks: list[list[Any]] = []
    for value in _objects(text):
        inp = value.get("input", value.get("i"))
        if not isinstance(inp, list) or len(inp) < 3:
            continue
        if isinstance(inp[0], str) and autotvm_rewrite(inp[0]) not in own:
            own.append(autotvm_rewrite(inp[0]))
        task = [inp[1], inp[2]]
        if task not in tasks:
            tasks.append(task)
    return own, tasks


def plan_queries(text: str, rng: random.Random, targets: int = 2, workloads: int = 3, extra: int = 1) -> dict[str, Any]:
    """Dispatch queries for an AutoTVM log, as a plan kept in the input (and the goldens):
    ``query_targets``, the log's record targets and ``extra`` others, and ``query_tasks``, the
    numbers of some of its distinct tasks (``-1``: a workload that is not there)."""
    own, tasks = _tasks(text)
    chosen = list(range(len(tasks)))
    if len(chosen) > workloads:
        step = len(chosen) / workloads
        chosen = [int(i * step) for i in range(workloads)]
    return {"query_targets": own[:targets] + rng.sample(QUERY_TARGETS, extra), "query_tasks": [*chosen, -1]}


def queries_of(spec: dict[str, Any]) -> list[Any] | None:
    """The queries ``[target, task name, arguments]`` of an input's plan (``None``: none)."""
    if "query_targets" not in spec:
        return None
    tasks = _tasks(log_of(spec))[1]
    chosen = [tasks[n] if n >= 0 else ABSENT_WORKLOAD for n in spec["query_tasks"]]
    return [[target, name, args] for target in spec["query_targets"] for name, args in chosen]


def _hashable(value: Hashable) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def query_answers(text: str, queries: list[Any]) -> list[Any]:
    """targetlang's answers to ``queries`` in the shape of ``worker.dispatch_queries``: the
    :class:`~targetlang.logs.Matcher` of ``logs match`` for each query's target."""
    lines = records(text)
    reader = TargetReader(assume="0.19")  # TVM v0.19 read records that do not say who wrote them
    probe = Matcher(Query("(none)", "unknown", ()), reader)
    for record in lines:
        probe.add(record)
    probe.finish()
    if probe.failures:  # ApplyHistoryBest raises: the dispatcher is never asked
        return [None for _ in queries]
    index_of = {}
    for record in lines:
        line = autotvm_line(record)
        index_of[record.line] = line.index
    matchers: dict[str, tuple[Matcher, dict[Hashable, int]]] = {}
    answers: list[Any] = []
    for target, name, args in queries:
        try:
            query = Query.of(targetlang.parse(target, registry=targetlang.builtin_registry("0.19")))
        except targetlang.TargetError as err:
            answers.append({"target_raises": type(err).__name__})
            continue
        if target not in matchers:
            matcher = Matcher(query, reader)
            for record in lines:
                matcher.add(record)
            matcher.finish()
            ids: dict[Hashable, int] = {}
            for number, task in enumerate(matcher.workloads):
                workload = workload_of(*json.loads(task))
                if workload is not None and _hashable(workload):
                    ids.setdefault(workload, number)
            matchers[target] = (matcher, ids)
        matcher, ids = matchers[target]
        wanted = workload_of(name, args)
        found = ids.get(wanted) if wanted is not None and _hashable(wanted) else None
        pick = matcher.picks.get(found) if found is not None else None
        answers.append(
            {
                "model": query.model,
                "keys": list(query.keys),
                "index": None if pick is None else index_of[pick.line],
                "cost": None if pick is None else repr(pick.cost),
            }
        )
    return answers


# ---------------------------------------------------------------------------- outcomes


def targetlang_outcome(spec: dict[str, Any]) -> dict[str, Any]:
    """What targetlang says TVM v0.19 did with the input, in the shape of TVM's outcome."""
    text = log_of(spec)
    try:
        if spec["loader"] == "autotvm":
            out = autotvm_model(text)
            queries = queries_of(spec)
            if queries is not None:
                out["queries"] = query_answers(text, queries)
            return out
        return auto_scheduler_loads(text)
    except Exception as err:  # a bug of targetlang (or of the model), whatever the log
        return {"internal": f"{type(err).__name__}: {err}"[:300]}


def auto_scheduler_loads(text: str) -> dict[str, Any]:
    """tests/test_oracle_logs.py's ``auto_scheduler_model``: each loaded record's ``all_cost`` as
    TVM's reader left it, or that the load raised."""
    return auto_scheduler_model(text)


_BUILD_OPTIONAL = re.compile(r"\b(cublas|cudnn|cutlass|tensorrt|mrvl)\b")


def _build_optional_kind(spec: dict[str, Any], tvm: dict[str, Any], ours: dict[str, Any]) -> bool:
    """A record's target names a kind v0.19 registered only with its build option (USE_CUBLAS,
    USE_CUDNN, USE_CUTLASS, USE_TENSORRT_CODEGEN, USE_MRVL), which the oracle's wheel lacks."""
    return not tvm.get("crashed") and _BUILD_OPTIONAL.search(log_of(spec)) is not None


_TVM_VERSION = re.compile(r'"tvm_version"(\s*):(\s*)("(?:[^"\\]|\\.)*"|[^,}\s]+)')


def _writer_era(spec: dict[str, Any], tvm: dict[str, Any], ours: dict[str, Any]) -> bool:
    """Whether targetlang agrees with TVM v0.19 once every record says TVM v0.19 wrote it."""
    if tvm.get("crashed") or spec["loader"] != "autotvm":
        return False
    text = log_of(spec)
    if "tvm_version" not in text:
        return False
    pinned = _TVM_VERSION.sub(r'"tvm_version"\1:\2"0.19.0"', text)
    again = {key: value for key, value in spec.items() if key not in ("file", "line")}
    again["log"] = pinned
    return classify(spec["loader"], tvm, targetlang_outcome(again)) == "agree"


def _raised(value: Any) -> str:
    return "nothing" if value is None else str(value)


def _same_costs(tvm: list[Any], ours: list[Any]) -> bool:
    """Yielded records equal, a NaN cost equal to a NaN."""
    if len(tvm) != len(ours):
        return False
    for a, b in zip(tvm, ours, strict=True):
        if a == b:
            continue
        if a[0] != b[0] or a[2] != b[2] or not (math.isnan(float(a[1])) and math.isnan(float(b[1]))):
            return False
    return True


def classify(loader: str, tvm: dict[str, Any] | None, ours: dict[str, Any]) -> str:
    """``agree`` or the name of the disagreement class."""
    if tvm is None:
        return "TVM crashed"
    if "internal" in ours:
        return "targetlang internal error: " + str(ours["internal"]).split(":", 1)[0]
    if loader != "autotvm":
        if (tvm["raises"] is not None) != ours["raises"]:
            return "auto_scheduler: TVM " + ("raises" if tvm["raises"] else "loads") + ", targetlang the opposite"
        if tvm["loaded"] != ours["loaded"]:
            return "auto_scheduler: records loaded differ"
        return "agree"
    expected = expected_autotvm(tvm)
    load, our_load = expected["load"], ours["load"]
    if load["raises"] != our_load["raises"]:
        return f"load_from_file: TVM raises {_raised(load['raises'])}, targetlang {_raised(our_load['raises'])}"
    if not _same_costs(load["yielded"], our_load["yielded"]):
        return "load_from_file: records yielded differ"
    best, our_best = expected["apply_history_best"], ours["apply_history_best"]
    if best["raises"] != our_best["raises"]:
        return f"ApplyHistoryBest: TVM raises {_raised(best['raises'])}, targetlang {_raised(our_best['raises'])}"
    for by in ("by_key", "by_model"):
        if best[by] != our_best[by]:
            return f"ApplyHistoryBest: index {by} differs"
    for theirs, mine in zip(tvm.get("queries", []), ours.get("queries", []), strict=False):
        if theirs == mine or (isinstance(theirs, dict) and "workload_raises" in theirs):
            continue  # a query TVM cannot even form a task for is no dispatch query: not compared
        if theirs is None or mine is None:
            return "query: asked of a log only one side loads"
        if ("target_raises" in theirs) != ("target_raises" in mine):
            side = "TVM" if "target_raises" in theirs else "targetlang"
            return f"query: only {side} rejects the query's target"
        if "target_raises" in theirs:
            continue
        if (theirs["model"], theirs["keys"]) != (mine["model"], mine["keys"]):
            return "query: model or keys of the query's target differ"
        if (theirs["index"] is None) != (mine["index"] is None):
            return "query: TVM " + ("finds none" if theirs["index"] is None else "finds one") + ", targetlang not"
        return "query: another record picked"
    return "agree"


# ---------------------------------------------------------------------------- inputs


def _lines(path: str) -> list[str]:
    return read(path).split("\n")[:-1] if read(path).endswith("\n") else read(path).split("\n")


def real_inputs(rng: random.Random) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every real log whole, then each of its lines alone, then the logs of the oracle goldens."""
    for path in AUTOTVM_FILES:
        plan = plan_queries(read(path), rng, targets=10, workloads=20, extra=4)
        yield "real-file", {"case": f"file {path}", "loader": "autotvm", "file": path, **plan}
    for path in AUTO_SCHEDULER_FILES:
        yield "real-file", {"case": f"file {path}", "loader": "auto_scheduler", "file": path}
    for path in META_SCHEDULE_FILES:
        for loader in ("autotvm", "auto_scheduler"):
            yield "real-file", {"case": f"file {path} ({loader})", "loader": loader, "file": path}
    for loader, paths in (("autotvm", AUTOTVM_FILES), ("auto_scheduler", AUTO_SCHEDULER_FILES)):
        for path in paths:
            for number, line in enumerate(_lines(path), 1):
                spec: dict[str, Any] = {"case": f"{path}:{number}", "loader": loader, "file": path, "line": number}
                if loader == "autotvm":
                    spec.update(plan_queries(line, rng))
                yield "real-line", spec
    for name in ORACLE_LOGS:
        with (DATA / "oracle" / f"logs-{name}.jsonl").open(encoding="utf-8") as handle:
            for row in map(json.loads, handle):
                if "log" not in row:
                    continue  # a real file: above
                spec = {"case": f"logs-{name}: {row['case']}", "loader": row["loader"], "log": row["log"]}
                if row["loader"] == "autotvm":
                    spec.update(plan_queries(row["log"], rng))
                yield "oracle-log", spec


TVM_VERSIONS: list[Any] = ["0.6.0", "0.6.dev0", "0.7.dev0", "0.7.0", "0.8.0", "0.9.dev0", "0.10.0", "0.12.0",
                           "0.16.0", "0.19.0", "0.20.0", "0.22.0", "1.0.0", "abc", "", 0.7, None]  # fmt: skip
COSTS: list[Any] = [[], [0.5], [0.001, 0.003], [1e-05], [[0.001]], "x", [None], [True], 0.5, [float("nan")],
                    [float("inf")], ["0.1"], [1e400]]  # fmt: skip
ERROR_NOS: list[Any] = [0, 0, 1, 4, 7, "0", None, True, False, 0.0, -1, [0]]
VERSIONS: list[Any] = [0.1, 0.2, "0.2", "0.1", None, 1, 0.3, [0.2]]
BLANKS = ["", " ", "\t", "   ", "\r", "\f", "\v", " \t "]
ENTITY_KNOBS = ["sp", "re", "an", "ot", "xx", "", 1]


class LogGenerator:
    """Mutated logs: one to four lines of one real log, each edited; every choice from one
    ``random.Random(seed)``."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.files = {path: [line for line in _lines(path) if line.startswith("{")] for path in AUTOTVM_FILES}
        self.files.update({path: [ln for ln in _lines(path) if ln.startswith("{")] for path in AUTO_SCHEDULER_FILES})
        targets = [s for _, s in inputs.corpus() if isinstance(s, str) and "{" not in s][:400]
        self.targets = targets
        self.text = inputs.Generator(seed + 1, list(targets))

    def target(self, spec: Any) -> Any:
        rng = self.rng
        op = rng.randrange(8)
        if not isinstance(spec, str) or op == 0:
            return rng.choice([*self.targets, *QUERY_TARGETS])
        if op == 1:
            return spec.replace("-target=", "-mtriple=") if "-target=" in spec else spec.replace("-mtriple", "-target")
        if op == 2:
            return spec + rng.choice([" -model=x", " -keys=cpu,arm_cpu", " -mcpu=cortex-a72", " -libs=cblas", " "])
        if op == 3:
            return rng.choice([1, None, ["llvm"], {"kind": "llvm"}, "", "  llvm"])
        return self.text.mutate_text(spec)

    def autotvm(self, rec: dict[str, Any], ops: list[str]) -> Any:
        rng = self.rng
        op = rng.choice(["drop", "result", "result", "version", "target", "target", "target", "tvm_version",
                         "config", "task", "cost", "cost", "format"])  # fmt: skip
        ops.append(op)
        old = "i" in rec and "input" not in rec
        inp_key, res_key = ("i", "r") if old else ("input", "result")
        if op == "drop":
            keys = list(rec)
            if keys:
                del rec[rng.choice(keys)]
        elif op == "result":
            res = rec.get(res_key)
            if isinstance(res, list) and res and rng.random() < 0.7:
                res = list(res)
                which = rng.randrange(4)
                if which == 0:
                    res[0] = rng.choice(COSTS)
                elif which == 1 and len(res) > 1:
                    res[1] = rng.choice(ERROR_NOS)
                elif which == 2:
                    res = res[: rng.randint(0, 3)]
                else:
                    res = [*res, rng.choice([0, "x", None])]
                rec[res_key] = res
            else:
                rec[res_key] = rng.choice([None, {}, [], "x", 0])
        elif op == "version":
            key = rng.choice(["version", "v"])
            if key in rec and rng.random() < 0.3:
                del rec[key]
            else:
                rec[key] = rng.choice(VERSIONS)
        elif op == "tvm_version":
            if "tvm_version" in rec and rng.random() < 0.2:
                del rec["tvm_version"]
            else:
                rec["tvm_version"] = rng.choice(TVM_VERSIONS)
        elif op == "target":
            inp = rec.get(inp_key)
            if isinstance(inp, list) and inp:
                rec[inp_key] = [self.target(inp[0]), *inp[1:]]
        elif op == "config":
            self._config(rec)
        elif op == "task":
            inp = rec.get(inp_key)
            if isinstance(inp, list) and len(inp) >= 3:
                inp = list(inp)
                which = rng.randrange(5)
                if which == 0:
                    inp[1] = rng.choice(["dense", "conv2d_NCHWc.x86", 1, None, ["a"], ""])
                elif which == 1:
                    inp[2] = rng.choice([None, [], 5, "ab", [{"a": 1}], [1.0], [True]])
                elif which == 2 and isinstance(inp[2], list) and inp[2]:
                    args = list(inp[2])
                    pos = rng.randrange(len(args))
                    args[pos] = rng.choice([1, 1.0, True, None, [1, 1], "NCHW", ["TENSOR", [1.0, 64], "float32"]])
                    inp[2] = args
                elif which == 3:
                    inp = inp[: rng.choice([2, 3])] if rng.random() < 0.5 else [*inp, {}]
                elif len(inp) > 3:
                    inp[3] = rng.choice([{}, {"x": 1}, None, []])
                rec[inp_key] = inp
        elif op == "cost":
            res = rec.get(res_key)
            if isinstance(res, list) and res:
                rec[res_key] = [[round(rng.uniform(1e-5, 1e-3), 7)], *res[1:]]
        elif op == "format":
            return self._convert(rec)
        return rec

    def _config(self, rec: dict[str, Any]) -> None:
        rng = self.rng
        config = rec.get("config")
        if not isinstance(config, dict):
            rec["config"] = rng.choice([None, {}, [], {"index": 1, "code_hash": None, "entity": []}])
            return
        config = dict(config)
        which = rng.randrange(5)
        if which == 0:
            config["index"] = rng.choice([0, 1, -1, "1", None, 1.5, 2**40])
        elif which == 1 and config:
            del config[rng.choice(list(config))]
        elif which == 2:
            config["code_hash"] = rng.choice([None, "abc", 1])
        elif which == 3 and isinstance(config.get("entity"), list) and config["entity"]:
            entity = [list(item) if isinstance(item, list) else item for item in config["entity"]]
            pos = rng.randrange(len(entity))
            if isinstance(entity[pos], list) and len(entity[pos]) > 1:
                entity[pos][1] = rng.choice(ENTITY_KNOBS)
            else:
                entity[pos] = rng.choice([None, "x", []])
            config["entity"] = entity
        else:
            config["entity"] = rng.choice([None, [], "x", [["a", "sp"]], [["a", "ot", 1, 2]], {}])
        rec["config"] = config

    def _convert(self, rec: dict[str, Any]) -> dict[str, Any]:
        """Log format v0.1 to v0.2, or back."""
        if "i" in rec and isinstance(rec["i"], list) and len(rec["i"]) >= 6:
            inp, config = rec["i"], rec["i"][5]
            entry = config if isinstance(config, dict) else {}
            out = {
                "input": inp[:4],
                "config": {"index": entry.get("i"), "code_hash": entry.get("c"), "entity": entry.get("e")},
                "result": rec.get("r"),
                "version": 0.2,
            }
            if self.rng.random() < 0.5:
                out["tvm_version"] = self.rng.choice(TVM_VERSIONS)
            return out
        new, config = rec.get("input"), rec.get("config")
        if isinstance(new, list) and isinstance(config, dict):
            workload = [new[1], *new[2]] if len(new) > 2 and isinstance(new[2], list) else []
            compact = {"i": config.get("index"), "t": "", "c": config.get("code_hash"), "e": config.get("entity")}
            return {"i": [*new, workload, compact], "r": rec.get("result"), "v": 0.1}
        return rec

    def auto_scheduler(self, rec: dict[str, Any], ops: list[str]) -> Any:
        rng = self.rng
        op = rng.choice(["drop", "target", "target", "target", "host", "result", "version", "task"])
        ops.append(op)
        inp = rec.get("i")
        task: Any = inp[0] if isinstance(inp, list) and inp else None
        if op == "drop" and rec:
            del rec[rng.choice(list(rec))]
        elif op == "target" and isinstance(task, list) and len(task) > 1:
            task[1] = self.target(task[1])
        elif op == "host" and isinstance(task, list) and len(task) > 2:
            host = rng.choice(["llvm", "llvm -mtriple=aarch64-linux-gnu", "c", "cuda", "", "foo", None])
            while len(task) < 4:
                task.append(None)
            task[3] = host
        elif op == "result":
            res = rec.get("r")
            if isinstance(res, list) and len(res) > 2 and rng.random() < 0.7:
                res[rng.randrange(len(res))] = rng.choice([[], [0.1], 0, 1, None, "x", 0.25, True])
            else:
                rec["r"] = rng.choice([None, [], "x"])
        elif op == "version":
            rec["v"] = rng.choice(["v0.6", "v0.3", "v0.2", "", None, 0.1])
        elif isinstance(task, list) and task:
            task[0] = rng.choice(["[]", "x", 1, None, '["matmul_add", 1, 1, 1, "float32"]'])
        return rec

    def line(self, text: str, loader: str, ops: list[str]) -> list[str]:
        """One line, edited: its record, then (now and then) its text."""
        rng = self.rng
        try:
            value = json.loads(text)
        except ValueError:
            value = None
        if isinstance(value, dict) and rng.random() < 0.8:
            for _ in range(rng.choice([1, 1, 1, 2, 3])):
                if isinstance(value, dict):
                    value = self.autotvm(value, ops) if loader == "autotvm" else self.auto_scheduler(value, ops)
            separators = (",", ":") if rng.random() < 0.1 else None
            text = json.dumps(value, separators=separators)
        out = [text]
        if rng.random() < 0.25:
            which = rng.randrange(9)
            ops.append(["blank before", "blank after", "leading space", "trailing space", "comment", "truncated",
                        "carriage return", "byte order mark", "leading tab"][which])  # fmt: skip
            if which == 0:
                out.insert(0, rng.choice(BLANKS))
            elif which == 1:
                out.append(rng.choice(BLANKS))
            elif which == 2:
                out[0] = " " + text
            elif which == 3:
                out[0] = text + rng.choice([" ", "\t", "  "])
            elif which == 4:
                out[0] = rng.choice(["#", "# ", " #"]) + text
            elif which == 5:
                out[0] = text[: rng.randrange(max(len(text), 1))]
            elif which == 6:
                out[0] = text + "\r"
            elif which == 7:
                out[0] = "\ufeff" + text
            else:
                out[0] = "\t" + text
        return out

    def draw(self) -> dict[str, Any]:
        rng = self.rng
        path = rng.choice([*AUTOTVM_FILES, *AUTOTVM_FILES, *AUTOTVM_FILES[:2], *AUTO_SCHEDULER_FILES])
        loader = "autotvm" if path in AUTOTVM_FILES else "auto_scheduler"
        lines = self.files[path]
        ops: list[str] = []
        chosen = [rng.choice(lines) for _ in range(rng.choice([1, 1, 2, 2, 3, 4]))]
        if path.endswith("arm_cpu_v0.01.log") and rng.random() < 0.6:
            ops.append("v0.1 as v0.2")
            chosen = [json.dumps(self._convert(json.loads(text))) for text in chosen]
        out: list[str] = []
        for text in chosen:
            out += self.line(text, loader, ops) if rng.random() < 0.8 else [text]
        if rng.random() < 0.04:
            loader = "auto_scheduler" if loader == "autotvm" else "autotvm"
            ops.append("other loader")
        log = "\n".join(out) + ("\n" if rng.random() < 0.9 else "")
        spec: dict[str, Any] = {"case": ", ".join(ops) or "unchanged", "loader": loader, "log": log}
        if loader == "autotvm":
            spec.update(plan_queries(log, rng, workloads=2))
        return spec


def logs_inputs(seed: int, count: int) -> Iterator[tuple[str, dict[str, Any]]]:
    """The real logs first, then mutated ones, ``count`` inputs in all."""
    rng = random.Random(seed)
    n = 0
    for origin, spec in real_inputs(rng):
        if n >= count:
            return
        n += 1
        yield origin, spec
    generator = LogGenerator(seed)
    while n < count:
        n += 1
        yield "mutation", generator.draw()


# ---------------------------------------------------------------------------- the area


class LogsArea(Area):
    """TVM v0.19's ``load_from_file``, ``ApplyHistoryBest`` (its indexes and its answers to
    dispatch queries) and auto_scheduler's ``load_records`` against targetlang's model of them
    (targetlang.logs._loading, _autotvm_loader and _scheduler_reader, ``Matcher``)."""

    name = "logs"
    tvm = "v0.19.0 (oracle run.sh --tvm 019)"
    corpus_origins = ("real-file", "real-line")

    def __init__(self, oracle: str) -> None:
        self.worker: Worker = oracle_worker(oracle, "019", "logs")
        self.real_records = 0
        self.real_records_agree = 0

    def inputs(self, seed: int, count: int) -> Iterator[tuple[str, Any]]:
        return logs_inputs(seed, count)

    def step(self, origin: str, spec: Any) -> Case:
        text = log_of(spec)
        queries = queries_of(spec)
        plan = json.dumps(queries) if queries is not None else None  # repr cannot carry a NaN
        self.worker.send((spec["loader"], text, plan) if plan is not None else (spec["loader"], text))
        ours = targetlang_outcome(spec)
        tvm = self.worker.receive()
        cls = classify(spec["loader"], tvm, ours)
        status = "agree"
        if cls != "agree":
            decision = compare.decision_for(spec, tvm if tvm is not None else {"crashed": True}, ours, "logs")
            status, cls = ("decision", decision) if decision else ("disagree", cls)
        if origin in ("real-file", "real-line"):
            counted = sum(1 for line in text.split("\n") if line.strip() and not line.startswith("#"))
            self.real_records += counted
            self.real_records_agree += counted if status == "agree" else 0
        golden = None
        # the logs of the oracle goldens are replayed by tests/test_oracle_logs.py already
        if tvm is not None and (origin != "oracle-log" or status != "agree"):
            golden = {**spec, "tvm": tvm, "origin": origin}
            if status == "disagree":
                golden["recorded_class"] = cls
        return Case(origin, spec, cls, status, golden)

    def close(self) -> None:
        self.worker.close()

    def restarts(self) -> int:
        return self.worker.restarts

    def extra(self) -> dict[str, Any]:
        return {"real_records": {"compared": self.real_records, "agree": self.real_records_agree}}
