"""The ``targetlang fix`` command: find files, fix them on every core, show or write the result.

It behaves as ruff and pyupgrade users expect: by default a unified diff of what would change
and the findings left to do by hand, exit status 1 when anything would change or is left;
``--write`` applies the fixes (each file replaced atomically), ``--check`` prints the findings
and a summary only, ``--output-format`` prints them for tools (``_report``).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from functools import partial
from typing import Any

from .._eras import DEFAULT_ERA
from .._versions import LAST_LEGACY, MODERN, Release, release
from ..errors import TargetError
from ..fix import (
    RULES,
    TARGET_VERSIONS,
    TEXT_SUFFIXES,
    Finding,
)
from ..fix._apis import TargetApi, parse_api
from ..fix._report import FORMATS, render, statistics, statistics_json
from ..fix._report import shown as _shown
from ..fix._report import summary as _summary
from ..fix._settings import Settings, api_text, load_settings
from .fix_files import (
    Job,
    Outcome,
    collected_seldom,
    fix_registry,
    fix_text,
    outcome_diff,
    run_all,
    shown_progress,
    special_file,
    walk_paths,
    write_outcome,
)
from .options import (
    add_check,
    add_jobs,
    add_json,
    add_output_format,
    add_quiet,
    add_registry,
    add_target_version,
    add_tvm_version,
)

__all__ = ["add_parser"]

_EPILOG = """\
Rules (--select/--ignore take these ids):
{rules}

examples:
  $ targetlang fix src/                 # show the diff and what is left; exit 1 if anything is
  $ targetlang fix --write src/ docs/   # apply the safe fixes in place
  $ targetlang fix --write --unsafe-fixes --select target-string,target-helper src/
  $ targetlang fix --check --json . > findings.json
  $ targetlang fix --output-format github .   # annotations in a GitHub Actions log
  $ targetlang fix --statistics .             # the number of findings per rule
  $ echo 'Target("llvm -mcpu=skylake")' | targetlang fix -
  Target({{"kind": "llvm", "mcpu": "skylake"}})

Safe fixes keep the meaning exactly: a string becomes a dict only where every use of its
value is a target position of a TVM API (the table in docs/fix.md; add your own with
--target-api). Unsafe ones are right when a guess holds (a value also formatted, compared or
passed to another function, a receiver named 'target', a value known only at run time), each
saying which use and where, and are applied with --unsafe-fixes only. Report-only findings
(shell scripts, documents, tests that expect TVM to reject a string, targets TVM {newest} cannot
express) are listed with a suggestion where there is one.

Exit status:
  0  nothing would change and nothing is left to do (after --write: nothing is left)
  1  something would change or a finding is left (after --write: a finding is left)
  2  a usage or input error: an unknown rule, a missing path, a file that cannot be read,
     decoded, parsed or written (the other files are still fixed), a bad --registry file,
     or LibCST missing (pip install 'targetlang[fix]')

'targetlang rule RULE-ID' explains a rule.
"""


def _rules(value: str) -> tuple[str, ...]:
    names = tuple(name.strip() for name in value.split(",") if name.strip())
    unknown = [name for name in names if name not in RULES]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown rule {unknown[0]!r} (the rules: {', '.join(RULES)})")
    return names


def _run(args: argparse.Namespace) -> int:
    machine = args.output_format != "text"  # the findings as data on standard output, no diff
    args.json = args.output_format == "json"  # --json's own name, for what reads it
    args.write = args.write or args.add_ignore  # the fixes --write applies, then comments for the rest
    missing = [path for path in args.paths if path != "-" and not os.path.exists(path)]
    if missing:  # before --show-settings too: the settings of no file are no answer
        print(f"error: no such file or directory: {missing[0]}", file=sys.stderr)
        return 2
    try:  # one configuration per path given: the nearest to it (docs/fix.md, Configuration)
        settings = {path: load_settings(path, _given(args)) for path in dict.fromkeys(args.paths)}
    except TargetError as err:
        print(f"error: {err.message}", file=sys.stderr)
        return 2
    if args.show_settings:
        print("\n\n".join(f"path: {path}\n{each.shown()}" for path, each in settings.items()))
        return 0
    jobs_of = {path: _settings_job(args, each, machine) for path, each in settings.items()}
    job = jobs_of[args.paths[0]]
    for registry_file in dict.fromkeys(each.registry_file for each in jobs_of.values()):
        if registry_file is None:
            continue
        try:
            fix_registry(registry_file)  # a bad registry file fails here, once, before any work
        except (TargetError, OSError) as err:
            print(f"error: {err}", file=sys.stderr)
            return 2
    if args.paths == ["-"]:
        if _without_libcst([args.stdin_filename or "<stdin>"]):
            return 2
        return _run_stdin(args, job)
    if "-" in args.paths:
        print("error: '-' (standard input) cannot be mixed with paths", file=sys.stderr)
        return 2
    refused = [(path, what) for path in args.paths if (what := special_file(os.stat(path).st_mode)) is not None]
    if refused:  # named, so meant: said at once, before any work (reading a FIFO would wait for ever)
        path, what = refused[0]
        print(f"error: {path} is {what}, not a file fix reads", file=sys.stderr)
        return 2
    notes: list[str] = []
    files: list[str] = []
    file_jobs: dict[str, Job] = {}
    for given in args.paths:
        for path in walk_paths([given], notes, partial(settings[given].excluded, below=given)):
            files.append(path)
            file_jobs.setdefault(path, jobs_of[given])
    if _without_libcst(files):
        return 2
    if not (args.quiet or machine):
        for note in notes:
            print(note, file=sys.stderr)
    return _fix_files(args, files, file_jobs, machine)


def _fix_files(args: argparse.Namespace, files: list[str], file_jobs: dict[str, Job], machine: bool) -> int:
    """Fix (or check) ``files``, each with its job: the diffs, findings and summary shown as the
    options say; the exit status."""
    jobs = args.jobs if args.jobs is not None else (os.cpu_count() or 1)
    found: list[Finding] = []
    changed = failed = 0
    errors: list[tuple[str, str]] = []  # (path, message): the output formats show them too
    outcomes = collected_seldom(run_all(files, file_jobs, jobs))
    for outcome in shown_progress(outcomes, len(files), args.quiet or machine):
        if outcome.error is not None:
            failed += 1
            errors.append((outcome.path, outcome.error))
            print(f"error: {outcome.error}", file=sys.stderr)
            continue
        for cell_error in outcome.cell_errors:
            errors.append((outcome.path, cell_error))
            print(f"error: {cell_error}", file=sys.stderr)
        failed += bool(outcome.cell_errors)
        found += outcome.findings
        if outcome.changed:
            changed += 1
            problem = _took_changed(args, outcome, machine)
            if problem is not None:
                failed += 1
                errors.append((outcome.path, problem))
                print(f"error: {problem}", file=sys.stderr)
        if not (machine or args.quiet or args.statistics):
            for finding in outcome.findings:
                if not finding.applied or args.check:
                    print(_shown(finding), file=sys.stderr if not args.check else sys.stdout)
    _report(args, found, files, errors)
    if not args.quiet:
        sys.stdout.flush()  # the diff before the summary, where both go to one terminal
        print(_summary(found, changed, len(files), args.write, args.unsafe_fixes), file=sys.stderr)
    left = any(not f.applied for f in found)
    if failed:  # a file that could not be read, decoded, parsed or written: an input error
        return 2
    return 1 if left or (changed and not args.write) else 0


def _took_changed(args: argparse.Namespace, outcome: Outcome, machine: bool) -> str | None:
    """A file fixing changed: written (``--write``; what failed, if it did) or its diff shown."""
    if args.write:
        return write_outcome(outcome)
    if not (args.check or args.statistics or machine):
        sys.stdout.write(outcome_diff(outcome))
    return None


def _report(
    args: argparse.Namespace, found: Sequence[Finding], files: Sequence[str], errors: Sequence[tuple[str, str]] = ()
) -> None:
    """``--statistics`` or the findings as data (``--output-format``), on standard output, with the
    files' ``errors`` where the format has a place for them. After ``--write`` a fixed finding is no
    longer there, and only ``json`` (which says ``applied``) shows it."""
    left = [f for f in found if not (args.write and f.applied)]
    if args.statistics:
        sys.stdout.write(statistics_json(left) if args.output_format == "json" else statistics(left))
    elif args.output_format != "text":
        shown = found if args.output_format == "json" else left
        sys.stdout.write(render(args.output_format, shown, files, errors))


def _given(args: argparse.Namespace) -> dict[str, Any]:
    """The settings the command line gives, by key of ``[tool.targetlang]``: over the config's."""
    given: dict[str, Any] = {}
    if args.select is not None:
        given.update({"select": list(args.select), "extend-select": []})
    if args.ignore is not None:
        given["ignore"] = list(args.ignore)
    if args.docs:
        given["docs"] = True
    if args.line_length is not None:
        given["line-length"] = args.line_length
    if args.target_version is not None:
        given["target-version"] = args.target_version
    if args.registry is not None:
        given["registry"] = args.registry
    if args.target_api:
        given["target-apis"] = [api_text(api) for api in args.target_api]
    return given


def _settings_job(args: argparse.Namespace, settings: Settings, machine: bool) -> Job:
    return Job(
        settings.registry,
        args.tvm_version,
        args.unsafe_fixes,
        settings.select,
        settings.ignore,
        args.prefer_tags,
        settings.docs,
        settings.target_apis,
        settings.target_version,
        # the layout of long lines shows only in a text: none is shown with --check, --statistics or data
        0 if (args.check or args.statistics or machine) and not args.write else settings.line_length,
        settings.per_file_ignores,
        str(settings.root),
        args.add_ignore,
        bool(args.check or args.statistics or machine) and not args.write,
    )


def _without_libcst(names: Sequence[str]) -> bool:
    """Whether LibCST is needed, a Python file or a notebook being among ``names``, and missing
    (said on standard error): shell scripts, documents and configuration are read without it."""
    if all(os.path.splitext(name)[1].lower() in TEXT_SUFFIXES for name in names):
        return False
    import importlib.util

    if importlib.util.find_spec("libcst") is None:  # (not imported: a file may not need it)
        print("error: targetlang fix rewrites Python with LibCST: pip install 'targetlang[fix]'", file=sys.stderr)
        return True
    return False


def _run_stdin(args: argparse.Namespace, job: Job) -> int:
    """Standard input: the fixed text on standard output (as a formatter would), the findings
    left and the summary on standard error; ``--check``, ``--statistics`` and ``--output-format``
    print what they print for a file."""
    outcome = Outcome(args.stdin_filename or "<stdin>")
    data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read().encode("utf-8")
    try:
        outcome.source = data.decode("utf-8")
    except UnicodeDecodeError as err:
        outcome.error = f"{outcome.path} is not UTF-8 text ({err.reason} at byte {err.start})"
    else:
        fix_text(outcome, job)
    if outcome.error is not None:
        print(f"error: {outcome.error}", file=sys.stderr)
        if args.output_format != "text":  # the tool reading the report learns of it there too
            _report(args, [], [outcome.path], [(outcome.path, outcome.error)])
        return 2
    for cell_error in outcome.cell_errors:
        print(f"error: {cell_error}", file=sys.stderr)
    changed = outcome.changed
    as_data = args.output_format != "text" or args.statistics  # what is printed instead of the text
    if as_data:
        problems = [(outcome.path, cell_error) for cell_error in outcome.cell_errors]
        _report(args, outcome.findings, [outcome.path], problems)
    elif args.check:
        if not args.quiet:
            for finding in outcome.findings:
                print(_shown(finding))
    else:
        sys.stdout.write(outcome.text)
    if not args.quiet:
        sys.stdout.flush()
        if not (as_data or args.check):
            for finding in outcome.findings:
                if not finding.applied:
                    print(_shown(finding), file=sys.stderr)
        summary = _summary(outcome.findings, int(changed), 1, not (args.check or as_data), args.unsafe_fixes)
        print(summary, file=sys.stderr)
    if outcome.cell_errors:
        return 2
    if args.check or as_data:  # no text is printed: what would change is as much left to do as the rest
        return 1 if outcome.findings or changed else 0
    return 1 if any(not f.applied for f in outcome.findings) else 0


def add_parser(commands: Any) -> None:
    """Add ``fix`` to the ``targetlang`` command's subparsers."""
    summary = f"rewrite the legacy targets of source trees (Python, shell, docs) into what TVM {MODERN} reads"
    rules = "\n".join(f"  {rule.id:<16} {rule.safety:<12} {rule.summary}" for rule in RULES.values())
    parser = commands.add_parser(
        "fix",
        help=summary,
        description=summary,
        epilog=_EPILOG.format(rules=rules, newest=MODERN),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "paths", metavar="PATH", nargs="+", help="files and directories (recursively); '-' reads standard input"
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help="apply the fixes, replacing each file atomically")
    add_check(mode, "print the findings and the summary only, no diff")
    mode.add_argument(
        "--add-ignore",
        action="store_true",
        help="apply the fixes --write applies, and write a '# targetlang: ignore[RULE]' comment for each "
        "finding left (as ruff's --add-noqa)",
    )
    parser.add_argument(
        "--show-settings",
        action="store_true",
        help="print the settings in force for each path (the config file read, each key, its value and "
        "where it came from) and exit",
    )
    add_output_format(
        parser,
        FORMATS,
        "how to print the findings: text (the default), json, github (workflow annotations), sarif "
        "(SARIF 2.1.0) or junit (JUnit XML); all but text go to standard output, with no diff",
    )
    add_json(
        parser,
        "print every finding as JSON on standard output (--output-format json)",
        dest="output_format",
        action="store_const",
        const="json",
    )
    parser.add_argument(
        "--statistics",
        action="store_true",
        help="print the number of findings per rule instead of the findings (as JSON with --output-format json)",
    )
    parser.add_argument("--unsafe-fixes", action="store_true", help="apply the unsafe fixes too")
    parser.add_argument("--select", metavar="RULES", type=_rules, help="only these rules (comma-separated ids)")
    parser.add_argument("--ignore", metavar="RULES", type=_rules, help="not these rules (comma-separated ids)")
    parser.add_argument(
        "--prefer-tags",
        action="store_true",
        help=f"write a TVM {MODERN} tag where its expansion equals the target and it names the target's model",
    )
    parser.add_argument(
        "--docs",
        action="store_true",
        help="fix the Python code blocks of Markdown and reStructuredText files (and of Python files' comments) too",
    )
    parser.add_argument(
        "--stdin-filename", metavar="NAME", help="with '-': the name (and so the language) of standard input"
    )
    add_jobs(parser, "processes to use (default: one per core; 1: no pool)")
    add_quiet(parser, "print no findings and no summary")
    add_registry(parser, "a registry file of user kinds and tags (a fork's own kinds)", default=argparse.SUPPRESS)
    add_tvm_version(
        parser,
        "read the targets with that TVM release's own kinds and tags (0.10 - 0.23; default: any release's)",
        type=_legacy_release,
    )
    parser.add_argument(
        "--target-api",
        metavar="QUALNAME:ARG",
        type=_target_api,
        action="append",
        help="an API of your own that takes a target: its qualified name and the position (from 0), keyword "
        "or both (1=target) of that argument, '*' for every positional one; repeat for more",
    )
    add_target_version(
        parser,
        f"the TVM release (or tirx-0.1: TVM TIRx) the fixed code will run on ({', '.join(TARGET_VERSIONS)}, "
        f"or auto: the lowest the project's requirement on apache-tvm allows; default: {TARGET_VERSIONS[-1]}): "
        "from 0.25 on a Target reads its attributes again, and a removed property is fixed only where it still "
        "behaves otherwise",
        choices=(*TARGET_VERSIONS, "auto"),
    )
    parser.add_argument(
        "--line-length",
        metavar="N",
        type=_positive,
        help="split a written target whose line grows past N characters (default: [tool.ruff] or "
        "[tool.black] line-length of the nearest pyproject.toml, else 88)",
    )
    # (LibCST, which the Python fixer imports, only when a file needs it: fix/__init__.py)
    parser.set_defaults(
        run=_run, imports=("targetlang.fix._python_syntax", "targetlang._atomic_file", "targetlang.helpers")
    )


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"a line length is a whole number from 1, not {text!r}")
    return int(text)


def _target_api(text: str) -> TargetApi:
    try:
        return parse_api(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _legacy_release(text: str) -> Release:
    try:
        found = release(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None
    if found.era != DEFAULT_ERA or not found.reads_legacy:
        raise argparse.ArgumentTypeError(
            f"fix reads targets as TVM v0.10 - v{LAST_LEGACY} wrote them in code, not as TVM v{found.version} did"
        )
    return found
