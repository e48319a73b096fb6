"""The ``targetlang`` command: read a target and print it in another form, or check a file of them.

Data goes to stdout, diagnostics to stderr. Exit status: 0 success, 1 bad input (or a check that
found problems, or a file that could not be read), 2 a usage error, 130 an interrupt. No input
makes it print a Python traceback: a failure that is not the input's fault is reported as an
internal error on one line.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import importlib
import io
import json
import os
import shlex
import signal
import sys
import threading
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from . import Registry, Target, TargetError, __version__, builtin_registry, load_registry, parse
from ._checking import CheckFinding, SpecCheck, check_spec, finding
from ._cli_options import (
    add_compress_tags,
    add_json,
    add_lines,
    add_llvm,
    add_output_format,
    add_policy,
    add_quiet,
    add_registry,
    add_target_version,
    add_tvm_version,
)
from ._eras import release_reading
from ._inspect_cli import add_parser as _add_inspect_parser
from ._layering import layered
from ._logs_cli import add_parser as _add_logs_parser
from ._signals import say_stopped, signals_held
from ._spec_words import (
    NotText,
    SpecFormatter,
    before_spec,
    error_record,
    misplaced_option,
    read_by_release,
    spec_words,
    text_of,
)
from ._spec_words import UsageError as _UsageError
from ._versions import ERA_NAMES, MODERN
from .fix._command import add_parser as _add_fix_parser

__all__ = ["main"]

# The name check reports for the sample it reads when given no FILE: package data, the same
# wherever the package is installed, in angle brackets as <stdin> is: no file of that path need
# exist where the command runs.
_SAMPLE_NAME = "<package data targetlang/data/sample-targets.txt>"

_DESCRIPTION = """\
Read, print and check compilation targets of the TVM compiler: legacy strings
("llvm -mcpu=skylake"), tag names ("nvidia/geforce-rtx-3070") and JSON objects
('{"kind": "llvm"}'), read exactly as TVM v0.22 read them.
"""

_EPILOG = """\
examples:
  $ targetlang fmt "llvm --mcpu skylake"
  llvm -mcpu=skylake
  $ targetlang legacy "llvm -mcpu=cortex-m3"
  llvm -keys=arm_cpu,cpu -mcpu=cortex-m3
  $ echo "cuda --host llvm" | targetlang fmt -
  cuda -host=llvm

A SPEC of '-' is read from standard input (one trailing newline removed).
Exit status: 0 success; 1 bad input or a check that failed; 2 usage error.
Run 'targetlang COMMAND --help' for each command's examples.
"""

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


class _InputError(Exception):
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
        raise _InputError(str(err)) from None


def _read_stdin() -> str:
    stdin = sys.stdin
    if stdin is None:
        raise _InputError("there is no standard input to read")
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
        raise _InputError(f"cannot read {path}: {err.strerror or err}") from None
    return _decode(data, path)


def _read_sample() -> str:
    resource = resources.files("targetlang") / "data" / "sample-targets.txt"
    try:
        data = resource.read_bytes()
    except OSError as err:
        raise _InputError(f"cannot read the bundled sample {_SAMPLE_NAME}: {err.strerror or err}") from None
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
    from .migration import migrate

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
    from .migration import migrate

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
    from ._llvm_names import check_llvm_names

    for found in check_llvm_names(target, args.llvm):
        if args.json:
            where = {"record": "llvm", "file": name, "line": line, "severity": found.severity}
            print(json.dumps({**where, "what": found.what, "name": found.name, "message": found.message, "spec": spec}))
        else:
            print(f"{name}:{line}: llvm: {found.severity}: {found.message}", file=sys.stderr)


# ---------------------------------------------------------------------------------- the command


class _Parser(argparse.ArgumentParser):
    """argparse's parser (its subcommands' too: they are made of the same class), except that help
    or a version that cannot be written to stdout is an error: argparse drops what it cannot write."""

    def _print_message(self, message: str, file: Any = None) -> None:
        if message and file is not None and file is sys.stdout:
            file.write(message)  # an OSError is reported by main, as any output's
        else:
            super()._print_message(message, file)


def _build_parser() -> argparse.ArgumentParser:
    raw = argparse.RawDescriptionHelpFormatter
    parser: argparse.ArgumentParser = _Parser(
        prog="targetlang", description=_DESCRIPTION, epilog=_EPILOG, formatter_class=raw, allow_abbrev=False
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    add_registry(parser)
    add_quiet(parser)
    commands = parser.add_subparsers(title="commands", metavar="COMMAND", required=True)

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
    _add_logs_parser(commands)
    _add_fix_parser(commands)
    _add_rule_parser(commands)
    _add_inspect_parser(commands)
    for sub in _leaves(parser):
        sub.allow_abbrev = False  # "--json" must never be read as "--jsonish"
        names = {option for action in sub._actions for option in action.option_strings}
        # The options of the whole command work after the subcommand too (default: what was
        # given before it, or nothing).
        if "--registry" not in names:
            add_registry(sub, default=argparse.SUPPRESS)
        if "--quiet" not in names and "-q" not in names:
            add_quiet(sub, default=argparse.SUPPRESS)
        if any(action.dest == "spec" and action.nargs == argparse.REMAINDER for action in sub._actions):
            # what an option written after the spec words is told (_spec_words.misplaced_option)
            options = {option: action.nargs != 0 for action in sub._actions for option in action.option_strings}
            sub.set_defaults(spec_options=options)
    return parser


_RULE_EPILOG = """\
The text is the rule's section of docs/fix.md (Markdown): why, what it rewrites, how safe the
fix is, and examples.

examples:
  $ targetlang rule target-string
  $ targetlang rule --all
  $ targetlang rule --output-format json canon-target
"""


def _add_rule_parser(commands: Any) -> None:
    from .fix import RULES

    summary = "explain a rule of fix: why, what it rewrites, how safe"
    rule = commands.add_parser(
        "rule",
        help=summary,
        description=summary,
        epilog=_RULE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        allow_abbrev=False,
    )
    which = rule.add_mutually_exclusive_group(required=True)
    which.add_argument("rule", metavar="RULE-ID", nargs="?", help=f"the rule's id ({', '.join(RULES)})")
    which.add_argument("--all", action="store_true", help="every rule, one after another")
    add_output_format(
        rule, ("text", "json"), "text (the Markdown, the default) or json (id, safety, summary and explanation of each)"
    )
    rule.set_defaults(run=_rule)


def _rule(args: argparse.Namespace) -> int:
    from .fix import RULES
    from .fix._rule_docs import rule_doc

    if not args.all and args.rule not in RULES:
        print(f"error: unknown rule {args.rule!r}; the rules are: {', '.join(RULES)}", file=sys.stderr)
        return 2
    rules = [RULES[name] for name in (RULES if args.all else [args.rule])]
    # a rule whose file is not written yet is explained by its summary rather than not at all
    texts = [rule_doc(rule.id) or f"## {rule.id}\n\n{rule.summary}.\n" for rule in rules]
    if args.output_format == "json":
        records = [
            {"id": rule.id, "safety": rule.safety, "summary": rule.summary, "explanation": text}
            for rule, text in zip(rules, texts, strict=True)
        ]
        print(json.dumps(records if args.all else records[0], indent=2, ensure_ascii=False))
    else:
        sys.stdout.write("\n".join(texts))
    return 0


def _leaves(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    """The parsers of the subcommands under ``parser``, at any depth (``logs check``)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):  # each once, aliases aside
                children = list(_leaves(sub))
                yield from children or [sub]


def _rules_help() -> str:
    from .migration import RULES

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


def _quiet_stdout() -> None:
    """Point stdout at the null device, so that Python's last flush at exit does not report the
    broken pipe (``targetlang check | head``) a second time."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass  # no real file descriptor behind stdout: nothing will be flushed to a dead pipe


class _ClosedOutput(io.TextIOBase):
    """Standard output when the process started without one: writing to it is an error that
    says so, where Python would have dropped the output silently."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")


class _Terminated(BaseException):
    """SIGTERM or SIGHUP, unwinding as Ctrl-C does, so files half written are removed."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


@contextlib.contextmanager
def _terminated_as_interrupted() -> Iterator[None]:
    names = [name for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)]
    if threading.current_thread() is not threading.main_thread() or not names:
        yield  # signal handlers belong to the main thread
        return

    def stop(signum: int, frame: object) -> None:
        raise _Terminated(signum)

    # An ignored signal stays ignored (`nohup targetlang ...`), as Python leaves an ignored SIGINT.
    names = [name for name in names if signal.getsignal(getattr(signal, name)) is not signal.SIG_IGN]
    before = {name: signal.signal(getattr(signal, name), stop) for name in names}
    try:
        yield
    finally:
        for name, handler in before.items():
            signal.signal(getattr(signal, name), handler)


def _clean_up_unfinished() -> None:
    """The temporary files a stop left, where it landed outside their own handlers."""
    output = sys.modules.get("targetlang._atomic_file")  # not imported: no file begun
    if output is not None:
        output.clean_up_unfinished()


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace | int:
    """The command line read, or the exit status where argparse exits (0 for --help and --version,
    2 for a usage error, with what it printed)."""
    words = list(sys.argv[1:] if argv is None else argv)
    parser = _build_parser()
    try:
        misplaced = _command_option(parser, words)
        if misplaced is not None:
            parser.error(misplaced)
        args = parser.parse_args(words)
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 2)
    args.argv = words  # the command line a message shows again, corrected
    return args


def _command_option(parser: argparse.ArgumentParser, words: Sequence[str]) -> str | None:
    """What to say of an option written before the command that is not targetlang's own but a
    command's (``targetlang --jsonish``, ``targetlang --json parse llvm``): argparse would ask for
    a COMMAND, or call it unrecognized. ``None`` when there is none."""
    own = {option: action.nargs != 0 for action in parser._actions for option in action.option_strings}
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices
    index = 0
    while index < len(words):
        word = words[index]
        name = word.split("=", 1)[0]
        if word == "--" or not word.startswith("-") or name in ("-h", "--help", "--version"):
            return None  # the command, or what argparse answers itself
        if name not in own:
            subs = [sub for sub in _leaves(parser) if name in sub._option_string_actions]
            if not subs:  # (argparse would ask for a COMMAND when nothing follows)
                return f"unrecognized arguments: {word}"
            having = [sub.prog for sub in subs]
            takes_value = "=" not in word and any(sub._option_string_actions[name].nargs != 0 for sub in subs)
            option = list(words[index : index + 2]) if takes_value else [word]  # with its value
            rest = words[index + len(option) :]
            after = next((i for i, w in enumerate(rest) if w in commands), None)
            names = [prog.removeprefix(f"{parser.prog} ") for prog in having]
            if after is not None and rest[after] in names:
                # the command given: the same line, the option (and its value) moved after it
                moved = [*words[:index], *rest[: after + 1], *option, *rest[after + 1 :]]
                example = f"'{' '.join(['targetlang', *(shlex.quote(w) for w in moved)])}'"
            elif len(names) == 1:
                example = f"'targetlang {names[0]} {name} ...'"
            else:
                example = f"'targetlang COMMAND {name} ...' (COMMAND: {', '.join(names)})"
            return f"{name} is an option of a command, not of targetlang: it goes after the command, as in {example}"
        index += 2 if own[name] and "=" not in word else 1
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (``sys.argv[1:]`` when ``None``) and return the exit status."""
    try:
        with _terminated_as_interrupted():
            # The command line is read and the command's modules are imported with the stops
            # held: a handler that raises inside an import can crash an extension module's
            # initialisation (orjson's, now and then) or, on Python 3.11, turn into a
            # RuntimeError in the middle of making a dataclass, and one that raised while the
            # options were read would escape this try. Nothing is written yet then, so a stop
            # may wait that long, and it arrives as the block ends, in the try.
            with signals_held():
                if sys.stdout is None:  # started with standard output closed (`targetlang fmt llvm >&-`)
                    sys.stdout = _ClosedOutput()
                parsed = _arguments(argv)
                if isinstance(parsed, int):
                    sys.stdout.flush()  # --help or --version to a full disk fails here, and says so
                    return parsed
                args = parsed
                for module in getattr(args, "imports", ()):
                    with contextlib.suppress(ImportError):  # the command says what is missing
                        importlib.import_module(module)
            run: Callable[[argparse.Namespace], int] = args.run
            status = run(args)
            sys.stdout.flush()  # a full disk is found here, while it can still be reported
            return status
    except _Terminated as ended:
        _clean_up_unfinished()
        say_stopped(ended.signum)
        return 128 + ended.signum
    except KeyboardInterrupt:
        _clean_up_unfinished()
        say_stopped(signal.SIGINT)
        return 130
    except (_InputError, TargetError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    except _UsageError as err:
        print(f"{args.usage()}{args.command}: error: {err}", file=sys.stderr, end="\n")
        return 2
    except BrokenPipeError:
        _quiet_stdout()
        return 1
    except OSError as err:
        # Not a bug: the system refused (a full disk, a closed or broken output).
        what = f"cannot write {err.filename}" if err.filename else "cannot write the output"
        print(f"error: {what}: {err.strerror or err}", file=sys.stderr)
        _quiet_stdout()
        return 1
    except UnicodeEncodeError as err:  # e.g. an argument with undecodable bytes, printed back
        print(f"error: the output cannot be written: {err}", file=sys.stderr)
        return 1
    except Exception as err:
        # No traceback for anyone, but say plainly that this is targetlang's fault, not the input's.
        print(f"error: internal error (a bug in targetlang): {type(err).__name__}: {err}", file=sys.stderr)
        return 1
