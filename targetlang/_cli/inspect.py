"""The ``targetlang`` commands that show what targetlang knows: ``kinds``, ``tags``, ``explain`` and ``diff``.

Each prints what a function of :mod:`targetlang.inspection` returns, as text or (``--json``) as
JSON on stdout; bad input is one ``error: ...`` line on stderr and exit status 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..errors import TargetError
from .inspect_text import explanation_lines, render_diff, render_explanation, render_kind, render_kinds, render_tags
from .options import add_json, add_llvm, add_target_version, add_tvm_version
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

if TYPE_CHECKING:
    from .._registry import Registry
    from .._versions import Release

# The commands import targetlang.inspection when they run: building the parser for another
# command (every run of targetlang builds it) must not pay for it.

__all__ = ["add_parser", "render_diff", "render_explanation", "render_kind", "render_kinds", "render_tags"]

_KINDS_EPILOG = """\
Without KIND, every kind TVM v0.7 - v{newest} registered (or, with --tvm-version, those of that
release), with the releases that had it, its default keys and its number of attributes. With
KIND, its attributes with their types, defaults and the releases that had each: without
--tvm-version those of every release (each with the newest release's type and default), with
it those of that release. The data is TVM's own registrations, extracted from each release's
source (targetlang/data/tvm-schemas.json).

examples:
  $ targetlang kinds hybrid
  kind:          hybrid
  releases:      v0.7 - v0.21
  shown:         every release's attributes; the rest as of TVM v0.21
  default keys:  none
  device type:   1
  canonicaliser: none
  attribute           type           default  releases
  keys                array<string>  -        v0.7 - v0.21
  tag                 string         -        v0.7 - v0.21
  device              string         -        v0.7 - v0.21
  model               string         -        v0.7 - v0.21
  libs                array<string>  -        v0.7 - v0.21
  host                target         -        v0.8 - v0.21
  from_device         int            -        v0.8 - v0.21
  target_device_type  int            -        v0.11 - v0.21
  system-lib          bool           -        v0.7 - v0.9
  $ targetlang kinds cudda
  error: unknown target kind 'cudda'; did you mean 'cuda' or 'cudnn'?
"""

_TAGS_EPILOG = """\
Each tag with the releases that had it and its config, as TVM registered it (before the
target is built: no defaults, no keys but those it names): without --tvm-version the config of
the newest release that had the tag, with it that release's. PATTERN picks tags by name,
ignoring case: a shell-style glob (*, ?, [...]) that matches the whole name when it holds one of
those characters, else a part of the name.

examples:
  $ targetlang tags jetson-nano
  tag                 releases      config
  nvidia/jetson-nano  v0.8 - v{newest}  {{"kind": "cuda", "keys": ["cuda", "gpu"], "arch": "sm_53", \
"max_shared_memory_per_block": 49152, "max_threads_per_block": 1024, "thread_warp_size": 32, "registers_per_block": \
32768}}
  $ targetlang tags --tvm-version 0.8 'nvidia/jetson-t*'
  tag                releases      config
  nvidia/jetson-tx1  v0.8 - v{newest}  {{"kind": "cuda", "arch": "sm_53", "shared_memory_per_block": 49152, \
"registers_per_block": 32768, "max_threads_per_block": 1024, "thread_warp_size": 32}}
  nvidia/jetson-tx2  v0.8 - v{newest}  {{"kind": "cuda", "arch": "sm_62", "shared_memory_per_block": 49152, \
"registers_per_block": 32768, "max_threads_per_block": 1024, "thread_warp_size": 32}}
"""

_EXPLAIN_EPILOG = """\
One row per value of the resolved target (its keys, tag, attributes in the kind's order, host):
its value, type, origin (written: in SPEC; tag: from the tag SPEC names; default: the kind's
default; canonicaliser: set or changed by the kind's canonicaliser, TVM's target parser), what
TVM {newest} does with it, and what 'targetlang migrate' does with it; then the changes migrate
reports and its result. The target is read and resolved as 'targetlang legacy' reads it (TVM
v0.22, no GPU; --tvm-version for another release: 0.9 reads -system-lib).

examples:
  $ targetlang explain "cuda -arch=sm_80"
  cuda -arch=sm_80: kind 'cuda', read as TVM v0.22 read it; in TVM {newest}: kept
  attribute         value           type           origin                             migrate      in TVM {newest}
  keys              ["cuda","gpu"]  array<string>  default (the kind's default keys)  not written  the same keys
  arch              "sm_80"         string         written                            written      kept
  thread_warp_size  32              int            default                            not written  the same default
  max_num_threads   1024            int            default                            not written  the same default
  migrated: {{"kind": "cuda", "arch": "sm_80"}}
  $ targetlang explain nvidia/jetson-nano
  nvidia/jetson-nano: kind 'cuda', read as TVM v0.22 read it; in TVM {newest}: kept
  attribute                    value           type           origin   migrate      in TVM {newest}
  keys                         ["cuda","gpu"]  array<string>  tag      written      kept
  arch                         "sm_53"         string         tag      written      kept
  max_shared_memory_per_block  49152           int            tag      written      kept
  max_threads_per_block        1024            int            tag      written      kept
  thread_warp_size             32              int            tag      written      kept
  registers_per_block          32768           int            tag      written      kept
  max_num_threads              1024            int            default  not written  the same default
  migrated: {{"kind": "cuda", "keys": ["cuda", "gpu"], "arch": "sm_53", "max_shared_memory_per_block": 49152, \
"max_threads_per_block": 1024, "thread_warp_size": 32, "registers_per_block": 32768}}
"""

_DIFF_EPILOG = """\
The values the two targets do not share once resolved (as 'targetlang legacy' resolves them):
'-' only in A, '+' only in B, '~' in both, unequal. Then whether AutoTVM's dispatch (TVM v0.7 -
v0.19) treats them as one target: ApplyHistoryBest looks records up by model, then by each key
in order, and TopHub loads the package of the first of the device, the keys and the kind that
has one (python/tvm/autotvm/task/dispatcher.py, tophub.py). Meta-schedule's database always
does: it looks records up by workload alone and never compares their target
(src/meta_schedule/database/database.cc, QueryTuningRecord), so it applies records tuned for
one target to any other. Exit status, as diff(1)'s: 0 when the targets do not differ once
resolved, 1 when they do, 2 when they cannot be compared (a spec that does not read).

examples:
  $ targetlang diff "llvm -mcpu=skylake" "llvm -mcpu=icelake-server"
  a: llvm -mcpu=skylake
  b: llvm -mcpu=icelake-server
  ~ mcpu: "skylake" -> "icelake-server"
  AutoTVM dispatch: the same
    model 'unknown', keys cpu and TopHub package 'llvm' for both; it does not look at mcpu
  meta-schedule dispatch: the same
    its database looks records up by workload alone: the target is stored with each record and never compared
    records tuned for either are applied to the other, though they differ in mcpu
  $ targetlang diff "llvm -device=arm_cpu" llvm
  a: llvm -device=arm_cpu
  b: llvm
  ~ keys: ["arm_cpu","cpu"] -> ["cpu"]
  - device: "arm_cpu"
  AutoTVM dispatch: different
    keys arm_cpu,cpu against cpu: ApplyHistoryBest then tries each key in order
    TopHub package 'arm_cpu' against 'llvm': TopHub loads the package of the first of the device, the keys and the \
kind that has one
  meta-schedule dispatch: the same
    its database looks records up by workload alone: the target is stored with each record and never compared
    records tuned for either are applied to the other, though they differ in keys, device
"""

_SPEC_HELP = "a target string, tag name or JSON object (quoted); '-' reads it from standard input"
_WORDS_HELP = (
    "a target string, tag name or JSON object, quoted or not ('explain cuda -arch=sm_80'); '-' reads it from "
    "standard input. explain's own options go before it (or before a '--' that precedes it)"
)


# What these commands import when they run, imported before with the stops held (command_line.main):
# diff's query reads as a tuning log's dispatcher would (logs.match, and orjson with it).
_RUN_IMPORTS = ("targetlang.inspection", "targetlang.logs.report")


def add_parser(commands: Any) -> None:
    """Add ``kinds``, ``tags``, ``explain`` and ``diff`` to the ``targetlang`` command's subparsers."""
    raw = argparse.RawDescriptionHelpFormatter

    def command(name: str, summary: str, epilog: str, run: Callable[[argparse.Namespace], int]) -> Any:
        sub = commands.add_parser(
            name, help=summary, description=summary, epilog=epilog, formatter_class=raw, allow_abbrev=False
        )
        sub.set_defaults(run=run, imports=_RUN_IMPORTS)
        return sub

    def options(sub: Any, version_help: str) -> None:
        add_tvm_version(sub, version_help)
        add_json(sub, "JSON on stdout instead of text")

    kinds = command(
        "kinds", "list TVM's target kinds, or one kind's attributes", _KINDS_EPILOG.format(newest=_modern()), _kinds
    )
    kinds.add_argument("kind", metavar="KIND", nargs="?", help="a kind: show its attributes")
    kinds.set_defaults(imports=(*_RUN_IMPORTS, "targetlang._llvm_names"))  # (--cpus)
    options(kinds, f"that TVM release's kinds and attributes only (0.7 - {_modern()}; e.g. 0.19 or 0.8.0)")
    kinds.add_argument(
        "--cpus",
        action="store_true",
        help="for KIND llvm, nvptx, rocm or hexagon: the CPUs and features LLVM knows for the triple, as "
        "'llc -mtriple=T -mcpu=help' prints them (docs/llvm-names.md)",
    )
    add_llvm(kinds, "with --cpus: that LLVM's names (13, 14, 15, 16, 19, 22; default the newest)")
    kinds.add_argument(
        "--mtriple", metavar="TRIPLE", help="with --cpus: the triple (default: the kind's own, for llvm this machine's)"
    )

    tags = command("tags", "list TVM's target tags with their configs", _TAGS_EPILOG.format(newest=_modern()), _tags)
    tags.add_argument(
        "pattern",
        metavar="PATTERN",
        nargs="?",
        help="only tags whose name matches: a glob (*, ?, [...]) for the whole name, else a part of it; any case",
    )
    options(tags, f"that TVM release's tags and configs only (0.7 - {_modern()}; e.g. 0.19 or 0.8.0)")

    reading = "read as that TVM release did (e.g. 0.19 or 0.8.0): its era's rules, its own kinds and tags"
    explain = command(
        "explain",
        f"explain each value of SPEC: where it comes from, and what TVM {_modern()} and migrate do with it",
        _EXPLAIN_EPILOG.format(newest=_modern()),
        _explain,
    )
    options(explain, reading)
    add_target_version(explain)
    # REMAINDER, as parse, fmt and legacy read it: every word from the first that is not an
    # option on is the spec's (quoted or not)
    explain.add_argument("spec", metavar="SPEC", nargs=argparse.REMAINDER, help=_WORDS_HELP)
    explain.formatter_class = SpecFormatter
    explain.set_defaults(usage=explain.format_usage, command=explain.prog)

    diff = command(
        "diff",
        "compare two targets, and whether AutoTVM and meta-schedule tell them apart",
        _DIFF_EPILOG.format(newest=_modern()),
        _diff,
    )
    diff.add_argument("a", metavar="A", help=_SPEC_HELP)
    diff.add_argument("b", metavar="B", help=_SPEC_HELP + " (not both)")
    options(diff, reading)
    diff.set_defaults(imports=(*_RUN_IMPORTS, "targetlang.logs.match"))


def _modern() -> str:
    from .._versions import MODERN

    return str(MODERN)


# ---------------------------------------------------------------------------------- running


def _failing(run: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """``run``, with bad input (a :class:`TargetError`) reported as one ``error:`` line and exit
    status 1."""

    def checked(args: argparse.Namespace) -> int:
        try:
            return run(args)
        except TargetError as err:
            print(f"error: {err}", file=sys.stderr)
            return 1

    return checked


def _listing(args: argparse.Namespace, command: str) -> str | None:
    """The release ``kinds`` or ``tags`` lists (``None``: every release), once checked: a
    ``--registry`` file does not apply, and the release must be one targetlang has a schema of."""
    if getattr(args, "registry", None):
        raise TargetError(f"--registry adds kinds and tags for reading targets; 'targetlang {command}' lists TVM's own")
    if args.tvm_version is None:
        return None
    from .._registry import builtin_registry

    try:
        return builtin_registry(args.tvm_version).version
    except ValueError as err:  # a release before v0.7, which had no kind registry
        raise TargetError(str(err)) from None


def _print_json(data: Any) -> None:
    """``print(json.dumps(data, indent=2, ensure_ascii=False))``, written a few thousand pieces
    at a time: the whole text of an array of millions of items, and the list of its pieces that
    ``json.dumps`` joins, would take ten times the input's memory."""
    write = sys.stdout.write
    batch: list[str] = []

    def flush() -> None:
        text = "".join(batch)
        batch.clear()  # before the write: its encoding is one more copy
        write(text)

    for piece in json.JSONEncoder(ensure_ascii=False, indent=2).iterencode(data):
        if len(piece) > 1 << 16:  # a long value's text, written as it is rather than copied
            flush()
            write(piece)
            continue
        batch.append(piece)
        if len(batch) >= 4096:
            flush()
    batch.append("\n")
    flush()


def _user_registry(args: argparse.Namespace) -> Registry | None:
    path = getattr(args, "registry", None)
    if not path:
        return None
    from .._registry_files import load_registry

    return load_registry(path)


def _spec(text: str) -> str:
    """``text``, or for ``-`` standard input as the other commands read a spec from it: UTF-8 (a
    byte-order mark dropped), less one trailing newline. (cli.py reads it so too; this module lies
    beneath cli.py and does not import it.)"""
    if text != "-":
        return text
    stdin = sys.stdin
    if stdin is None:
        raise TargetError("there is no standard input to read")
    buffer = getattr(stdin, "buffer", None)
    try:
        # bytes, not text: text mode's universal newlines would turn a '\r' inside a spec into '\n'
        read = stdin.read() if buffer is None else text_of(buffer.read(), "<stdin>")
    except NotText as err:
        raise TargetError(str(err)) from None
    return read[:-1].removesuffix("\r") if read.endswith("\n") else read


@_failing
def _kinds(args: argparse.Namespace) -> int:
    from ..inspection import kind_info, kind_table

    version = _listing(args, "kinds")
    if args.cpus or args.llvm is not None or args.mtriple is not None:
        return _llvm_names(args)
    if args.kind is not None:
        kind = kind_info(args.kind, version)
        if args.json:
            _print_json(kind.to_json())
        else:
            print("\n".join(render_kind(kind)))
        return 0
    table = kind_table(version)
    if args.json:
        _print_json({"version": version, "kinds": [kind.to_json() for kind in table]})
    else:
        print("\n".join(render_kinds(table)))
    return 0


def _llvm_names(args: argparse.Namespace) -> int:
    """``kinds KIND --cpus``: the names of the recorded tables, in llc's words and order."""
    from .. import parse
    from .._llvm_names import llvm_release, name_table, recorded_llvm, target_triple, triple_arch

    if not args.cpus:
        raise TargetError("--llvm and --mtriple go with --cpus")
    kind = args.kind or "llvm"
    llvm_kind = kind in ("llvm", "nvptx", "rocm", "hexagon")
    triple = args.mtriple or (target_triple(parse({"kind": kind})) if llvm_kind else None)
    if triple is None or not llvm_kind:
        handing = "the kinds that hand mcpu to LLVM (llvm, nvptx, rocm, hexagon)"
        raise TargetError(f"--cpus lists LLVM's names for {handing}, not {kind!r}")
    release = llvm_release(args.llvm) if args.llvm is not None else recorded_llvm()[-1]
    arch = triple_arch(triple)
    table = name_table(release.major, arch)
    if table is None:
        raise TargetError(f"LLVM {release.major}'s recorded tables have no architecture {arch!r} (triple {triple!r})")
    if args.json:
        record = {"llvm": release.major, "llc": release.llc, "package": f"{release.package} {release.package_version}"}
        _print_json({**record, "arch": arch, "cpus": table.cpus, "aliases": table.aliases, "features": table.features})
        return 0
    lines = [f"LLVM {release.llc} ({release.package} {release.package_version}), {arch}", ""]
    lines += ["Available CPUs for this target:", ""] + [f"  {cpu}" for cpu in table.cpus] + [""]
    if table.aliases:
        lines += ["CPU aliases llc accepts but does not list:", ""] + [f"  {cpu}" for cpu in table.aliases] + [""]
    lines += ["Available features for this target:", ""] + [f"  {name}" for name in table.features] + [""]
    lines += ["Use +feature to enable a feature, or -feature to disable it."]
    print("\n".join(lines))
    return 0


@_failing
def _tags(args: argparse.Namespace) -> int:
    from .._diagnostics import hint, suggest
    from ..errors import UnknownTagError, show
    from ..inspection import tag_table

    version = _listing(args, "tags")
    found = tag_table(args.pattern, version)
    if not found:
        where = f" of TVM v{version}" if version is not None else ""
        names = [tag.name for tag in tag_table(None, version)]
        close: tuple[str, ...] = ()
        if args.pattern is not None:
            # the closest names, or the names whose last part (the product) is closest
            by_product = {name.rsplit("/", 1)[-1]: name for name in names}
            close = suggest(args.pattern, names) or tuple(by_product[n] for n in suggest(args.pattern, by_product))
        raise UnknownTagError(f"no tag{where} matches {show(args.pattern or '')}{hint(close)}")
    if args.json:
        _print_json(
            {
                "version": version,
                "pattern": args.pattern,
                "tags": [tag.to_json() for tag in found],
            }
        )
    else:
        print("\n".join(render_tags(found)))
    return 0


def _explain(args: argparse.Namespace) -> int:
    from ..inspection import explain

    # the SPEC words joined by spaces, without a leading "--", as parse, fmt and legacy read them
    words, dashed = spec_words(args.spec, before_spec(args), args.spec_options)
    if not words:
        what = "SPEC is missing: give a target string, tag name or JSON object, or '-'"
        print(f"{args.usage()}{args.command}: error: {what}", file=sys.stderr)
        return 2
    spec = " ".join(words)
    try:
        spec = _spec(spec)
        registry = _user_registry(args)
        read_by_release(spec, args.tvm_version, _release_registry(args.tvm_version, registry))
        explanation = explain(spec, tvm_version=args.tvm_version, registry=registry, target_version=args.target_version)
    except TargetError as err:
        if words != ["-"] and not dashed:
            usage = misplaced_option(words, before_spec(args), args.spec_options, err)
            if usage is not None:
                raise usage from None
        if args.tvm_version is None and args.registry is None:
            err = _read_by_an_older_release(spec, err)
        if args.json:
            print(json.dumps({"spec": spec, "error": error_record(err)}, ensure_ascii=False))
        else:
            print(f"error: {err}", file=sys.stderr)
        return 1
    if args.json:
        _print_json(explanation.to_json())
    else:
        write = sys.stdout.write
        for line in explanation_lines(explanation):  # a piece at a time: see explanation_lines
            for piece in line:
                write(piece)
            write("\n")
    return 0


def _diff(args: argparse.Namespace) -> int:
    """As diff(1) and ``git diff --exit-code``: 0 when the targets do not differ, 1 when they do,
    2 when they cannot be compared (a spec that does not read, a usage error)."""
    from ..inspection import diff

    if args.a == "-" and args.b == "-":
        print("error: only one of A and B can be read from standard input ('-')", file=sys.stderr)
        return 2
    try:
        a, b = _spec(args.a), _spec(args.b)
        registry = _user_registry(args)
        for spec in (a, b):
            read_by_release(spec, args.tvm_version, _release_registry(args.tvm_version, registry))
        found = diff(a, b, tvm_version=args.tvm_version, registry=registry)
    except TargetError as err:
        if args.json:
            print(json.dumps({"a": args.a, "b": args.b, "error": error_record(err)}, ensure_ascii=False))
        else:
            print(f"error: {err}", file=sys.stderr)
        return 2
    if args.json:
        _print_json(found.to_json())
    else:
        print("\n".join(render_diff(found)))
    return 0 if found.equal else 1


def _release_registry(version: Release | None, registry: Registry | None) -> Registry:
    """The registry whose tags TVM ``version`` read (what ``read_by_release`` lets through)."""
    from .._eras import release_reading
    from .._registry import builtin_registry

    if version is None:
        return registry or builtin_registry()
    return release_reading(version)[1]


def _read_by_an_older_release(spec: str, err: TargetError) -> TargetError:
    """``err`` (``spec`` read as TVM v0.22 read it, refused), saying which older release read the
    spec, if one did, and the ``--tvm-version`` that reads it as that release did, as ``logs
    check`` says for a record of no known TVM: ``llvm -target=...`` is TVM v0.6's ``-mtriple``."""
    from .. import parse
    from .._eras import release_reading
    from .._versions import DEFAULT, RELEASES, Version
    from ..errors import UnknownAttributeError, UnknownKindError

    if not isinstance(err, UnknownAttributeError | UnknownKindError) or err.source != spec:
        return err
    for name in reversed(RELEASES):
        if Version.parse(name) >= DEFAULT:
            continue
        rules, registry = release_reading(name)
        try:
            parse(spec, registry=registry, era=rules.name)
        except Exception:  # whatever stops an older reader, it gives no hint
            continue
        hint = f"; TVM v{name} read this target: give --tvm-version {name} if that release wrote it"
        told = err.at(err.source, err.start, err.end)
        TargetError.__init__(told, err.message + hint, err.source, err.start, err.end)
        return told
    return err
