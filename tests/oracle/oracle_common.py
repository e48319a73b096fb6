"""What the record_*.py scripts of this folder share: running inputs through a real TVM in a
worker process, and writing what TVM did as JSON lines under tests/data/oracle/.

Some inputs crash the TVM process (an llvm target whose ``arm``/``aarch64`` triple LLVM cannot
resolve aborts it), so the inputs go one at a time to a worker process that the recording
process restarts when it dies; an input that killed its worker is left out of the goldens and
counted on standard error.

Each golden line holds the input, as ``input`` (JSON) when JSON keeps it exactly, else as
``python`` (its ``repr``, read back with ``ast.literal_eval``), and TVM's outcome: ``accepted``,
then ``str`` (or ``str_error`` when ``str()`` failed), ``export`` and the ``warnings`` the call
gave, or ``error``: the exception's ``type``, its Python built-in ``bases`` (``ValueError``,
``TypeError``, ...) and the line of its message that says what failed.

This file is not a test (pytest does not collect it): it needs TVM, which the project's tests do
not.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

OUT_DIR = Path(__file__).resolve().parents[1] / "data" / "oracle"

Outcome = Callable[[Any], dict[str, Any]]


def plain(value: Any, target_type: Any = None) -> Any:
    """A TVM value as plain JSON data: targets as their export, arrays as lists, maps as dicts.
    ``target_type`` is the ``Target`` class of the TVM at hand (``tvm_tirx.target.Target``);
    ``tvm.target.Target`` by default."""
    if target_type is None:
        import tvm

        target_type = tvm.target.Target
    if isinstance(value, target_type):
        return plain(value.export(), target_type)
    if isinstance(value, str | bool | int | float) or value is None:
        return value
    package = sys.modules[target_type.__module__.split(".", 1)[0]]
    int_imm = getattr(getattr(package, "tir", None), "IntImm", None)  # no tvm.tir in apache-tvm 0.27
    if int_imm is not None and isinstance(value, int_imm):  # v0.19's boxed integers (example_attribute)
        return bool(value.value) if value.dtype == "bool" else int(value.value)
    if isinstance(value, Mapping) or hasattr(value, "items"):
        return {str(k): plain(v, target_type) for k, v in value.items()}
    return [plain(v, target_type) for v in value]


def error_record(err: BaseException) -> dict[str, Any]:
    """An exception as the goldens keep it."""
    bases = [c.__name__ for c in type(err).__mro__ if c.__module__ == "builtins"]
    bases = [name for name in bases if name not in ("BaseException", "Exception", "object")]
    # v0.19's FFI put the C++ traceback before the message; v0.21's message is one line
    lines = [line for line in str(err).strip().splitlines() if line.strip()]
    message = lines[-1] if lines and lines[0].startswith("Traceback") else (lines[0] if lines else "")
    return {"type": type(err).__name__, "bases": bases, "message": message.strip()[:600]}


def target_outcome(spec: Any, host: Any = None) -> dict[str, Any]:
    """What ``tvm.target.Target(spec)`` (or ``Target(spec, host)``) did."""
    import tvm

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            target = tvm.target.Target(spec) if host is None else tvm.target.Target(spec, host)
        except Exception as err:
            return {"accepted": False, "error": error_record(err)}
    out: dict[str, Any] = {"accepted": True}
    try:
        out["str"] = str(target)
    except Exception as err:
        out["str_error"] = error_record(err)
    out["export"] = plain(target.export())
    out["warnings"] = [str(w.message) for w in caught]
    return out


def constructor_outcome(spec: Any) -> dict[str, Any]:
    """What ``Target(spec)`` did, or ``Target(target, host)`` for a pair (written as a tuple)."""
    if isinstance(spec, tuple):
        return target_outcome(*spec)
    return target_outcome(spec)


def encode(spec: Any) -> dict[str, Any]:
    """``{"input": spec}`` when JSON keeps ``spec`` exactly, else ``{"python": repr(spec)}``."""
    try:
        text = json.dumps(spec)
    except (TypeError, ValueError):
        return {"python": repr(spec)}
    if _same(json.loads(text), spec):
        return {"input": spec}
    return {"python": repr(spec)}


def _same(a: Any, b: Any) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def decode(row: Mapping[str, Any]) -> Any:
    """The input of a golden line (see :func:`encode`)."""
    return ast.literal_eval(row["python"]) if "python" in row else row["input"]


# Marks the worker's answers among whatever else TVM prints on standard output.
_MARK = "@@oracle@@ "


def serve(outcome: Outcome) -> None:
    """The worker: one ``repr`` of an input a line in, one JSON outcome a marked line out."""
    for line in sys.stdin:
        result = outcome(ast.literal_eval(line))
        sys.stdout.write(_MARK + json.dumps(result) + "\n")
        sys.stdout.flush()


class _Worker:
    def __init__(self, script: str) -> None:
        self.script = script
        self.process: subprocess.Popen[str] | None = None

    def ask(self, spec: Any) -> dict[str, Any] | None:
        """The outcome for ``spec``, or ``None`` when it killed the worker."""
        if self.process is None:
            self.process = subprocess.Popen(
                [sys.executable, self.script, "--worker"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,  # TVM's own log lines
                text=True,
            )
        assert self.process.stdin is not None and self.process.stdout is not None
        try:
            self.process.stdin.write(repr(spec) + "\n")
            self.process.stdin.flush()
            line = self.process.stdout.readline()
            while line and not line.startswith(_MARK):
                line = self.process.stdout.readline()
        except BrokenPipeError:
            line = ""
        if not line:
            self.process.wait()
            self.process = None
            return None
        result: dict[str, Any] = json.loads(line[len(_MARK) :])
        return result

    def close(self) -> None:
        if self.process is not None and self.process.stdin is not None:
            self.process.stdin.close()
            self.process.wait()


def main(script: str, name: str, inputs: Iterable[Any], outcome: Outcome, argv: list[str]) -> None:
    """Run as a worker (``--worker``) or record ``inputs`` into tests/data/oracle/NAME.jsonl
    (or the path given as the first argument)."""
    if argv[1:2] == ["--worker"]:
        serve(outcome)
        return
    out = Path(argv[1]) if len(argv) > 1 else OUT_DIR / f"{name}.jsonl"
    out.parent.mkdir(parents=True, exist_ok=True)
    worker = _Worker(script)
    rows, crashed = [], []
    try:
        for spec in inputs:
            result = worker.ask(spec)
            if result is None:
                crashed.append(spec)
                continue
            rows.append({**encode(spec), **result})
    finally:
        worker.close()
    write_rows(out, rows)
    print(f"{len(rows)} rows -> {out}", file=sys.stderr)
    for spec in crashed:
        print(f"left out, it crashed TVM: {spec!r}", file=sys.stderr)


def write_rows(out: Path, rows: Iterable[Mapping[str, Any]]) -> None:
    """``rows`` as a golden file: one JSON object a line, UTF-8 as written."""
    with out.open("w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")


def migration_sources() -> Iterator[Any]:
    """Each text of the corpus (legacy strings, tag names, JSON) and each input of the 0.27
    migration's differential goldens, once each, in that order: what the modern releases' and
    TIRx's recorders migrate."""
    texts: list[Any] = []
    corpus = Path(__file__).resolve().parents[1] / "data" / "corpus" / "strings.jsonl"
    for line in corpus.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if record["form"] in ("legacy-string", "tag", "json"):
            texts.append(record["text"])
    for line in (OUT_DIR / "differential-migrate.jsonl").read_text(encoding="utf-8").splitlines():
        texts.append(decode(json.loads(line)))
    seen: set[str] = set()
    for text in texts:
        key = json.dumps(text, sort_keys=True)
        if key not in seen:
            seen.add(key)
            yield text


def migrations(to: str) -> Iterator[tuple[Any, str, dict[str, Any]]]:
    """(source, policy, what ``targetlang.migrate`` writes for ``to``) for each of
    :func:`migration_sources` that migrates: the default policy, else ``drop``."""
    import targetlang

    for source in migration_sources():
        for policy in ("error", "drop"):
            try:
                migration = targetlang.migrate(source, to=to, policy=policy)
            except targetlang.TargetError:
                break  # targetlang does not read it
            if migration.ok and migration.json is not None:
                yield source, policy, migration.json
                break
