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
from collections.abc import Callable
from typing import Any

from .. import Registry, Target, parse
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
    SpecFormatter,
    read_by_release,
)
from .spec_words import UsageError as _UsageError
from .target_check import check_specs
from .target_input import each_spec, reading_of, user_registry, where_shown

__all__ = ["add_parser"]

# The name check reports for the sample it reads when given no FILE: package data, the same
# wherever the package is installed, in angle brackets as <stdin> is: no file of that path need
# exist where the command runs.

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


def _show(produce: Callable[[Target], Any]) -> Callable[[argparse.Namespace], int]:
    """A command that reads each spec and prints what ``produce(target)`` gives: a string as it
    is, JSON data indented (one line each with ``--lines``); ``--json`` puts it in a record."""

    def run(args: argparse.Namespace) -> int:
        jsonish = getattr(args, "jsonish", False)
        if jsonish and args.lines:
            raise _UsageError("--jsonish prints a target on several lines: it cannot go with --lines")
        made = Target.canonical_jsonish if jsonish else produce
        registry, era = reading_of(args)

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

        return each_spec(args, show)

    return run


def _migrate(args: argparse.Namespace) -> int:
    from ..migration import migrate

    registry: Registry | None = None
    era = args.era
    if args.tvm_version is not None:
        registry, era = reading_of(args)  # that release's own kinds, or the --registry file
    elif args.registry is not None:
        registry = user_registry(args)

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
                print(where_shown(name, line) + shown, file=sys.stderr)
        if result.json is not None:
            indent = None if args.lines else 2
            print(json.dumps(result.json, indent=indent, ensure_ascii=False))
        return result.json is not None

    return each_spec(args, run)


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
    check.set_defaults(run=check_specs)


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
