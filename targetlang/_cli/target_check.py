"""``targetlang check``: each spec checked for what a release would reject or read otherwise,
its findings tallied, printed as text or JSON."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .. import Target, TargetError
from .._checking import CheckFinding, SpecCheck, check_spec, finding
from .spec_words import read_by_release
from .target_input import SAMPLE_NAME, read_file, read_sample, read_stdin, reading_of, spec_lines

__all__ = ["check_specs"]


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


def check_specs(args: argparse.Namespace) -> int:
    if args.file is None:
        name, text = SAMPLE_NAME, read_sample()
    elif args.file == "-":
        name, text = "<stdin>", read_stdin()
    else:
        name, text = args.file, read_file(args.file)
    registry, era = reading_of(args)
    tally = _Tally()
    unmigrated = 0  # targets that read but do not migrate to --target-version
    for line, spec in spec_lines(text):
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
