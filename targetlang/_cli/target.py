"""The commands that read targets: ``parse``, ``fmt``, ``legacy``, ``migrate`` and ``check``.

Each reads a SPEC from its words (or a file of them, ``--lines``; ``check`` a FILE), with the
registry of ``--registry`` and the release of ``--tvm-version``, and prints what it read in
another form. Their errors are the input's: :class:`InputError` (a file that cannot be read) and
:class:`~targetlang.TargetError` end the command with exit status 1 (:func:`.command_line.main`).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from .. import Registry, Target, TargetError, builtin_registry, load_registry, parse
from .._checking import CheckFinding, SpecCheck, check_spec, finding
from .._eras import release_reading
from .._layering import layered
from .._versions import ERA_NAMES, MODERN
from .options import (
    add_compress_tags,
    add_json,
    add_lines,
    add_llvm,
    add_policy,
    add_target_version,
    add_tvm_version,
)
from .spec_words import (
    NotText,
    SpecFormatter,
    before_spec,
    error_record,
    misplaced_option,
    read_by_release,
    spec_words,
    text_of,
)
from .spec_words import UsageError as _UsageError

__all__ = ["InputError", "add_parser"]

# The name check reports for the sample it reads when given no FILE: package data, the same
# wherever the package is installed, in angle brackets as <stdin> is: no file of that path need
# exist where the command runs.
_SAMPLE_NAME = "<package data targetlang/data/sample-targets.txt>"

_PARSE_EPILOG = """\
The target is read, not resolved: no default keys or attributes are added (legacy does that).

examples:
  $ targetlang parse "llvm -mcpu=skylake -mattr=+avx2,+fma"
  {
    "kind": "llvm",
    "mcpu": "skylake",
    "mattr": [
      "+avx2",
      "+fma"
    ]
  }
  $ targetlang parse "cuda --host llvm"
  {
    "kind": "cuda",
    "host": {
      "kind": "llvm"
    }
  }
  $ echo "llvm -mcpux=skylake" | targetlang parse -
  error: kind 'llvm' has no attribute 'mcpux'; did you mean 'mcpu'?
    llvm -mcpux=skylake
          ^^^^^
"""

_FMT_EPILOG = """\
The canonical string: one dash and '=' for every option, attributes sorted, unordered lists
sorted, keys, tag and host kept. Equal targets give equal strings, and reading the string
back gives an equal target.

examples:
  $ targetlang fmt "llvm --mcpu skylake"
  llvm -mcpu=skylake
  $ targetlang fmt "opencl -model=rk3399 -device=mali"
  opencl -device=mali -model=rk3399
  $ targetlang fmt '{"kind": "cuda", "arch": "sm_80", "host": "llvm"}'
  cuda -host=llvm -arch=sm_80
"""

# The \x20 is the space TVM's str() ended with; written as a space, editors would strip it.
_LEGACY_EPILOG = """\
TVM v0.22's str() of the resolved target, on a machine with no GPU: the kind's default keys
and attributes added, attributes sorted, host and tag left out. As in TVM, the output ends
in a space when no attribute follows the keys.

examples:
  $ targetlang legacy c
  c -keys=cpu\x20
  $ targetlang legacy "llvm -mcpu=cortex-m3"
  llvm -keys=arm_cpu,cpu -mcpu=cortex-m3
  $ targetlang legacy "cuda -arch=sm_80"
  cuda -keys=cuda,gpu -arch=sm_80 -max_num_threads=1024 -thread_warp_size=32
"""

_CHECK_EPILOG = """\
Each spec must read, print back as the line byte for byte, read back equal from its canonical
string, and resolve. Problems go to stderr as FILE:LINE: ERROR, a summary to stdout; the exit
status is 1 if any line failed. Blank lines and lines starting with '#' are skipped.

examples:
  $ targetlang check
  checked 484 targets in <package data targetlang/data/sample-targets.txt>: 484 parsed, 484 round-trip exactly, \
484 read back from canonical form, 484 resolve; 0 failed
  $ cat targets.txt
  llvm -mcpu=skylake
  cuda -arch=80
  $ targetlang check targets.txt
  targets.txt:2: resolve: CanonicalizationError: CUDA target gets an invalid CUDA arch: -arch=80
    cuda -arch=80
               ^^
  checked 2 targets in targets.txt: 2 parsed, 2 round-trip exactly, 2 read back from canonical form, \
1 resolve; 1 failed (1 CanonicalizationError)
"""


_MIGRATE_EPILOG = """\
The JSON goes to stdout, one line per change to stderr (SEVERITY: RULE: message, with the
caret under what changed). Attributes TVM removed stop the migration unless --policy says
otherwise; the exit status is then 1 and nothing is printed on stdout.

examples:
  $ targetlang migrate "llvm -target=aarch64-linux-gnu -libs=mkldnn"
  info: target-to-mtriple: -target renamed to -mtriple
    llvm -target=aarch64-linux-gnu -libs=mkldnn
          ^^^^^^
  info: mkldnn-to-dnnl: libs: mkldnn renamed to dnnl
    llvm -target=aarch64-linux-gnu -libs=mkldnn
                                   ^^^^^^^^^^^^
  {
    "kind": "llvm",
    "mtriple": "aarch64-linux-gnu",
    "libs": [
      "dnnl"
    ]
  }
  $ targetlang migrate --policy drop "llvm -system-lib"
  warning: removed-attribute: attribute 'system-lib' dropped: moved to the runtime: \
relay.backend.Runtime('cpp', {'system-lib': True}), or system_lib=True in tvm.relax.build
    llvm -system-lib
         ^^^^^^^^^^^
  {
    "kind": "llvm"
  }
  $ targetlang migrate --tvm-version 0.6 "llvm -device=arm_cpu -target armv7l-linux-gnueabihf"
  info: target-to-mtriple: -target renamed to -mtriple
    llvm -device=arm_cpu -target armv7l-linux-gnueabihf
                          ^^^^^^
  {
    "kind": "llvm",
    "device": "arm_cpu",
    "mtriple": "armv7l-linux-gnueabihf"
  }
"""


class InputError(Exception):
    """Input that could not be read at all (no such file, not UTF-8): one message, exit 1."""


# ---------------------------------------------------------------------------------- reading


def _registry(args: argparse.Namespace) -> Registry:
    """The registry every spec is read with: TVM v0.22's, plus the kinds and tags of the
    ``--registry`` file when one is given (read once per run)."""
    if args.registry is None:
        return builtin_registry()
    loaded: Registry | None = getattr(args, "loaded_registry", None)
    if loaded is None:
        loaded = load_registry(args.registry)
        args.loaded_registry = loaded
    return loaded


def _reading(args: argparse.Namespace) -> tuple[Registry, str | None]:
    """The registry and era every spec is read with: ``--tvm-version``'s release (its era's rules,
    its own kinds and tags), else ``--era``'s rules, else TVM v0.22's; what a ``--registry`` file
    adds to its base is laid on that release's registry (the file's base does not pick the release)."""
    version = getattr(args, "tvm_version", None)
    if version is None:
        return _registry(args), getattr(args, "era", None)
    rules, registry = release_reading(version)
    if args.registry is not None:
        registry = layered(_registry(args), registry)
    return registry, rules.name


def _decode(data: bytes, name: str) -> str:
    try:
        return text_of(data, name)
    except NotText as err:
        raise InputError(str(err)) from None


def _read_stdin() -> str:
    stdin = sys.stdin
    if stdin is None:
        raise InputError("there is no standard input to read")
    buffer = getattr(stdin, "buffer", None)
    if buffer is None:  # a text stream without bytes beneath it (an io.StringIO in a test)
        return stdin.read()
    # Bytes, not text: text mode's universal newlines would turn a '\r' inside a spec into '\n'.
    return _decode(buffer.read(), "<stdin>")


def _read_file(path: str) -> str:
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as err:
        raise InputError(f"cannot read {path}: {err.strerror or err}") from None
    return _decode(data, path)


def _read_sample() -> str:
    resource = resources.files("targetlang") / "data" / "sample-targets.txt"
    try:
        data = resource.read_bytes()
    except OSError as err:
        raise InputError(f"cannot read the bundled sample {_SAMPLE_NAME}: {err.strerror or err}") from None
    return _decode(data, _SAMPLE_NAME)


def _without_newline(text: str) -> str:
    """``text`` without one trailing line break (``\\n`` or ``\\r\\n``), which is not part of a spec."""
    if text.endswith("\n"):
        text = text[:-1]
        if text.endswith("\r"):
            text = text[:-1]
    return text


def _spec_lines(text: str) -> list[tuple[int, str]]:
    """``(line number, spec)`` for every line that holds a spec.

    Lines are split at ``\\n`` only (``str.splitlines`` would also split at ``\\r``, form feeds
    and the like, which a spec may contain); the ``\\r`` of a ``\\r\\n`` is dropped. Trailing
    spaces stay: they are part of the spec (``llvm -keys=cpu `` is a real one).
    """
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()  # the newline that ends the last line does not start another
    specs = []
    for number, line in enumerate(lines, 1):
        spec = line[:-1] if line.endswith("\r") else line
        if spec.strip() and not spec.startswith("#"):
            specs.append((number, spec))
    return specs


# ---------------------------------------------------------------------------------- single spec


def _spec_text(args: argparse.Namespace) -> str | None:
    """The SPEC words joined by spaces (``fmt llvm -mcpu=skylake`` reads ``llvm -mcpu=skylake``),
    without a leading ``--``; ``None`` when there are none. With ``--lines`` the one word names a
    file."""
    words, _ = spec_words(args.spec, before_spec(args), args.spec_options)
    if args.lines and len(words) > 1:
        raise _UsageError(
            f"--lines reads the specs of one FILE, not {len(words)} words; targetlang's own options go before it"
        )
    return " ".join(words) if words else None


def _specs(args: argparse.Namespace) -> Iterator[tuple[str, int | None, str]]:
    """``(source name, line number, spec)`` for each spec the command reads: the one SPEC, or with
    ``--lines`` one per line of the file SPEC names (``-`` or none: standard input)."""
    spec = _spec_text(args)
    if not args.lines:
        if spec is None:
            raise _UsageError("SPEC is missing: give a target string, tag name or JSON object, or '-'")
        yield "<stdin>" if spec == "-" else "SPEC", None, _without_newline(_read_stdin()) if spec == "-" else spec
        return
    name = spec if spec not in (None, "-") else "<stdin>"
    text = _read_stdin() if name == "<stdin>" else _read_file(name)
    for number, line in _spec_lines(text):
        yield name, number, line


def _where(name: str, line: int | None) -> str:
    return f"{name}:{line}: " if line is not None else ""


def _each_spec(args: argparse.Namespace, run: Callable[[str, str, int | None, dict[str, Any]], bool]) -> int:
    """``run(spec, source name, line, record)`` on each spec of the command (``record`` holds its
    ``line`` and ``spec``, for ``--json``), and the exit status: 1 if any failed. A spec that does
    not read (``run`` raises :class:`TargetError`) is reported in its place and the next one read:
    ``{..., "error": {...}}`` on stdout with ``--json``, else ``FILE:LINE: error: ...`` on stderr.
    Every command with ``--lines`` and ``--json`` reports through here, so they all do alike."""
    failed = 0
    for name, line, spec in _specs(args):
        record: dict[str, Any] = {"line": line} if line is not None else {}
        record["spec"] = spec
        try:
            ok = run(spec, name, line, record)
        except TargetError as err:
            ok = False
            if line is None and name == "SPEC":
                words, dashed = spec_words(args.spec, before_spec(args))
                usage = None if dashed else misplaced_option(words, before_spec(args), args.spec_options, err)
                if usage is not None:
                    raise usage from None
            if args.json:
                print(json.dumps({**record, "error": error_record(err)}, ensure_ascii=False))
            else:
                print(f"{_where(name, line)}error: {err}", file=sys.stderr)
        failed += not ok
    return 1 if failed else 0


def _show(produce: Callable[[Target], Any]) -> Callable[[argparse.Namespace], int]:
    """A command that reads each spec and prints what ``produce(target)`` gives: a string as it
    is, JSON data indented (one line each with ``--lines``); ``--json`` puts it in a record."""

    def run(args: argparse.Namespace) -> int:
        jsonish = getattr(args, "jsonish", False)
        if jsonish and args.lines:
            raise _UsageError("--jsonish prints a target on several lines: it cannot go with --lines")
        made = Target.canonical_jsonish if jsonish else produce
        registry, era = _reading(args)

        def show(spec: str, name: str, line: int | None, record: dict[str, Any]) -> bool:
            read_by_release(spec, getattr(args, "tvm_version", None), registry)
            value = made(parse(spec, registry=registry, era=era))
            if args.json:
                print(json.dumps({**record, "output": value}, ensure_ascii=False))
            elif isinstance(value, str):
                print(value)  # exactly: legacy output may end in a space
            else:
                print(json.dumps(value, ensure_ascii=False) if args.lines else json.dumps(value, indent=2))
            return True

        return _each_spec(args, show)

    return run


def _migrate(args: argparse.Namespace) -> int:
    from ..migration import migrate

    registry: Registry | None = None
    era = args.era
    if args.tvm_version is not None:
        registry, era = _reading(args)  # that release's own kinds, or the --registry file
    elif args.registry is not None:
        registry = _registry(args)

    def run(spec: str, name: str, line: int | None, record: dict[str, Any]) -> bool:
        result = migrate(
            spec,
            era=era,
            policy=args.policy,
            host=args.host,
            compress_tags=args.compress_tags,
            registry=registry,
            to=args.target_version or str(MODERN),
        )
        if args.json:
            record.update(json=result.json, changes=[change.to_json() for change in result.changes])
            print(json.dumps(record, ensure_ascii=False))
            return result.json is not None
        for change in result.changes:
            if not args.quiet or change.severity == "error":
                shown = change.describe(result.source if change.span is not None else "")
                print(_where(name, line) + shown, file=sys.stderr)
        if result.json is not None:
            indent = None if args.lines else 2
            print(json.dumps(result.json, indent=indent, ensure_ascii=False))
        return result.json is not None

    return _each_spec(args, run)


# ---------------------------------------------------------------------------------- check


def _failure(name: str, line: int, spec: str, found: CheckFinding) -> dict[str, Any]:
    return {
        "record": "failure",
        "file": name,
        "line": line,
        "check": found.rule,
        "error": found.error,
        "message": found.message,
        "span": list(found.span) if found.span is not None else None,
        "spec": spec,
    }


def _human(name: str, line: int, found: CheckFinding) -> str:
    stage = "" if found.rule == "parse" else f"{found.rule}: "
    return f"{name}:{line}: {stage}{found.error}: {found.detail}"


@dataclass
class _Tally:
    """What check counts; a line is ``failed`` when any of its checks failed."""

    checked: int = 0
    parsed: int = 0
    exact: int = 0
    canonical: int = 0
    resolved: int = 0
    failed: int = 0
    errors: Counter[str] = field(default_factory=Counter)

    def add(self, result: SpecCheck) -> None:
        self.checked += 1
        self.parsed += result.target is not None
        self.exact += result.passed("round-trip")
        self.canonical += result.passed("canonical")
        self.resolved += result.resolved is not None
        self.failed += not result.ok
        self.errors.update(f.error for f in result.findings)

    def human(self, name: str) -> str:
        by_error = sorted(self.errors.items(), key=lambda item: (-item[1], item[0]))
        errors = f" ({', '.join(f'{n} {error}' for error, n in by_error)})" if by_error else ""
        targets = "target" if self.checked == 1 else "targets"
        return (
            f"checked {self.checked} {targets} in {name}: {self.parsed} parsed, {self.exact} round-trip exactly, "
            f"{self.canonical} read back from canonical form, {self.resolved} resolve; {self.failed} failed{errors}"
        )

    def record(self, name: str) -> dict[str, Any]:
        return {
            "record": "summary",
            "file": name,
            "checked": self.checked,
            "parsed": self.parsed,
            "exact_round_trips": self.exact,
            "canonical_round_trips": self.canonical,
            "resolved": self.resolved,
            "failed": self.failed,
            "errors": dict(sorted(self.errors.items())),
        }


def _check(args: argparse.Namespace) -> int:
    if args.file is None:
        name, text = _SAMPLE_NAME, _read_sample()
    elif args.file == "-":
        name, text = "<stdin>", _read_stdin()
    else:
        name, text = args.file, _read_file(args.file)
    registry, era = _reading(args)
    tally = _Tally()
    unmigrated = 0  # targets that read but do not migrate to --target-version
    for line, spec in _spec_lines(text):
        try:
            read_by_release(spec, args.tvm_version, registry)
        except TargetError as err:  # a string, given to a release that read none
            result = SpecCheck(spec, None, None, (finding("parse", spec, err),))
        else:
            result = check_spec(spec, registry=registry, era=era)
        tally.add(result)
        for found in result.findings:  # reported as found, so a long file shows progress
            if args.json:
                print(json.dumps(_failure(name, line, spec, found)))
            else:
                print(_human(name, line, found), file=sys.stderr)
        if args.llvm is not None and result.target is not None:
            _check_llvm_names(args, name, line, spec, result.target)
        if args.target_version is not None and result.target is not None:
            unmigrated += _check_target_version(args, name, line, spec, result.target)
    print(json.dumps(tally.record(name)) if args.json else tally.human(name))
    if args.target_version is not None and not args.json:
        print(f"migrated to TVM {args.target_version}: {unmigrated} failed")
    return 1 if tally.failed or unmigrated else 0


def _check_target_version(args: argparse.Namespace, name: str, line: int, spec: str, target: Target) -> int:
    """``check --target-version``: each error of migrating the target to that release (what it
    rejects, what it does not know), as ``migrate`` would report it; 1 if there is one, else 0."""
    from ..migration import migrate

    errors = [c for c in migrate(target, to=args.target_version).changes if c.severity == "error"]
    for change in errors:
        if args.json:
            where = {"record": "migrate", "file": name, "line": line, "target_version": args.target_version}
            print(json.dumps({**where, "rule": change.rule, "message": change.message, "spec": spec}))
        else:
            print(f"{name}:{line}: migrate to {args.target_version}: {change.rule}: {change.message}", file=sys.stderr)
    return 1 if errors else 0


def _check_llvm_names(args: argparse.Namespace, name: str, line: int, spec: str, target: Target) -> None:
    """``check --llvm``: warnings, which leave the exit status as it is (TVM itself never checked
    these names)."""
    from .._llvm_names import check_llvm_names

    for found in check_llvm_names(target, args.llvm):
        if args.json:
            where = {"record": "llvm", "file": name, "line": line, "severity": found.severity}
            print(json.dumps({**where, "what": found.what, "name": found.name, "message": found.message, "spec": spec}))
        else:
            print(f"{name}:{line}: llvm: {found.severity}: {found.message}", file=sys.stderr)


# ---------------------------------------------------------------------------------- the command


def add_parser(commands: Any) -> None:
    """The target commands, under ``commands`` (the subparsers of ``targetlang``)."""
    raw = argparse.RawDescriptionHelpFormatter
    singles = (
        ("parse", "print SPEC as modern JSON, the form TVM >= 0.24 reads", _PARSE_EPILOG, Target.to_json),
        ("fmt", "print SPEC's canonical string", _FMT_EPILOG, Target.canonical),
        ("legacy", "print what TVM v0.22's str() printed for SPEC", _LEGACY_EPILOG, Target.to_legacy_str),
    )
    for name, summary, epilog, produce in singles:
        sub = commands.add_parser(
            name, help=summary, description=summary, epilog=epilog, formatter_class=raw, allow_abbrev=False
        )
        _add_spec(sub)
        if name == "fmt":
            sub.add_argument("--jsonish", action="store_true", help="the canonical JSON-ish text instead")
        _add_tvm_version(sub)
        sub.set_defaults(run=_show(produce))

    summary = f"print SPEC migrated to TVM {MODERN}'s JSON form, and every change made"
    migrate = commands.add_parser(
        "migrate", help=summary, description=summary, epilog=_MIGRATE_EPILOG, formatter_class=raw, allow_abbrev=False
    )
    _add_spec(
        migrate,
        json_help="one JSON object per spec on stdout: the spec, the JSON (null if it failed), "
        "and each change as {rule, severity, message, span}",
    )
    add_policy(
        migrate,
        "attributes TVM removed (system-lib, link-params, ...): stop (error, the default), drop them "
        f"with a warning, or keep them with a warning (TVM {MODERN} will reject the JSON)",
    )
    when = migrate.add_mutually_exclusive_group()
    when.add_argument(
        "--era",
        choices=ERA_NAMES,
        help="read SPEC as the TVM of that era printed it: <= v0.6, v0.7, v0.8 - v0.9, v0.10 - v0.23 (default)",
    )
    add_tvm_version(
        when,
        "the TVM version that wrote SPEC (e.g. 0.8.0 or 0.7.dev0): read with its era's rules and its own kinds",
    )
    migrate.add_argument(
        "--host", metavar="HOST", help="a host given separately (target_host=, auto_scheduler logs), folded in"
    )
    add_compress_tags(
        migrate, f'write {{"tag": ...}} plus overrides when the result equals a TVM {MODERN} tag\'s configuration'
    )
    add_target_version(migrate)
    migrate.set_defaults(run=_migrate)
    intro, examples = _MIGRATE_EPILOG.split("\nexamples:\n", 1)
    migrate.epilog = f"{intro}\n{_rules_help()}\nexamples:\n{examples}"

    summary = "check a file of targets, one per line (no FILE: the bundled sample)"
    check = commands.add_parser(
        "check", help=summary, description=summary, epilog=_CHECK_EPILOG, formatter_class=raw, allow_abbrev=False
    )
    check.add_argument(
        "file", metavar="FILE", nargs="?", help="one spec per line; '-' is standard input; none: the bundled sample"
    )
    add_json(check, "one JSON object per failure and a summary object, on stdout")
    add_llvm(
        check,
        "also warn on -mcpu and -mattr names LLVM VERSION (13, 14, 15, 16, 19, 22) does not know for the "
        "target's triple (docs/llvm-names.md); warnings leave the exit status as it is",
    )
    _add_tvm_version(check)
    add_target_version(
        check,
        "also migrate each target that reads to that TVM release (0.24 on) and report what it would "
        "reject or not know; any such target makes the exit status 1",
    )
    check.set_defaults(run=_check)


def _rules_help() -> str:
    from ..migration import RULES

    width = max(len(name) for name in RULES)
    return "rules (the RULE of each change):\n" + "".join(
        f"  {name:<{width}}  {rule.summary}\n" for name, rule in RULES.items()
    )


_SPEC_HELP = (
    "a target string, tag name or JSON object, quoted or not ('fmt llvm -mcpu=skylake'); "
    "'-' reads it from standard input. targetlang's own options go before it (or before a '--' that precedes it)"
)


def _add_spec(sub: argparse.ArgumentParser, json_help: str = "") -> None:
    # REMAINDER: every word from the first that is not an option on is the spec's, options too.
    sub.add_argument("spec", metavar="SPEC", nargs=argparse.REMAINDER, help=_SPEC_HELP)
    sub.formatter_class = SpecFormatter
    sub.set_defaults(usage=sub.format_usage, command=sub.prog)
    add_lines(
        sub,
        "SPEC names a file of specs, one per line ('-' or none: standard input): one result per line, "
        "in order; an error goes to stderr as FILE:LINE: error, and the exit status is 1 if any spec failed",
    )
    add_json(
        sub,
        json_help
        or "one JSON object per spec on stdout: the spec (and its line), and its output or its error "
        "{type, message, start, end}",
    )


def _add_tvm_version(sub: argparse.ArgumentParser) -> None:
    add_tvm_version(sub, "read as that TVM release did (e.g. 0.19 or 0.8.0): its era's rules, its own kinds and tags")
