"""The options several commands take, each declared here once: ``--tvm-version``,
``--target-version``, ``--registry``, ``--json``, ``--quiet``, ``--jobs``, ``--lines``, ``--llvm``,
``--policy``, ``--compress-tags``, ``--check``, ``--output-format``.

A command adds the ones it takes with the function named for the option, giving its own help
where the option says something of its own there (the TVM version that wrote a spec, or a log's
records); the name and the value's metavar are the same everywhere, and so is the converter of
its value but where a command narrows it (``fix`` reads releases 0.10 - 0.23 only, and takes
``auto`` for a target version).
"""

from __future__ import annotations

import argparse
from typing import Any

from .._versions import MODERN, MODERN_RELEASES, NAMED_DISTRIBUTIONS, Release

__all__ = [
    "add_check",
    "add_compress_tags",
    "add_jobs",
    "add_json",
    "add_lines",
    "add_llvm",
    "add_output_format",
    "add_policy",
    "add_quiet",
    "add_registry",
    "add_target_version",
    "add_tvm_version",
]

_TARGET_VERSION_HELP = (
    f"the TVM release to write for: {', '.join(str(v) for v in MODERN_RELEASES)} (default: {MODERN}), "
    f"or a named distribution: {', '.join(NAMED_DISTRIBUTIONS)} (tirx: TVM TIRx); "
    "its own kinds, tags and the checks of its canonicalisers"
)
_REGISTRY_HELP = (
    "a JSON or TOML file of user kinds and tags, added to TVM v0.22's: "
    '{"kinds": {NAME: {"attrs": {ATTR: TYPE}, "default_keys": [...]}}, "tags": {NAME: CONFIG}}'
)
_QUIET_HELP = "no notes on stderr: only errors (and the summary of check)"


def _tvm_version_argument(text: str) -> Release:
    """``--tvm-version``'s type: a TVM version targetlang knows (``0.8``, ``0.7.dev0``, ``v0.19.0``),
    read once: the commands pass its :class:`Release` on."""
    from .._versions import release

    try:
        return release(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _target_version_argument(text: str) -> str:
    """``--target-version``'s type: a target distribution whose data ships (``0.24`` ... ``0.27``,
    ``tirx-0.1``), as :func:`targetlang.migrate`'s ``to`` takes it."""
    from ..migration import modern_release

    try:
        return modern_release(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _jobs_argument(text: str) -> int:
    """``--jobs``'s type: a number of processes, one or more."""
    try:
        jobs = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of processes: {text!r}") from None
    if jobs < 1:
        raise argparse.ArgumentTypeError(f"at least one process: {jobs}")
    return jobs


def _llvm_argument(text: str) -> str:
    """``--llvm``'s type: a recorded LLVM's major version, else a usage error that lists the
    recorded ones."""
    from .._llvm_names import llvm_release
    from ..errors import TargetError

    try:
        return llvm_release(text).major
    except TargetError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def add_tvm_version(parser: Any, help: str, **how: Any) -> None:
    """``--tvm-version VERSION``: read as that TVM release did (``how``: another ``type``, a narrower
    range of releases)."""
    parser.add_argument("--tvm-version", metavar="VERSION", **{"type": _tvm_version_argument, **how}, help=help)


def add_target_version(parser: Any, help: str = _TARGET_VERSION_HELP, **how: Any) -> None:
    """``--target-version VERSION``: the TVM release written for (``how``: ``choices`` instead of the
    type, where ``auto`` is one)."""
    kind = how if "choices" in how else {"type": _target_version_argument, **how}
    parser.add_argument("--target-version", metavar="VERSION", **kind, help=help)


def add_registry(parser: Any, help: str = _REGISTRY_HELP, **how: Any) -> None:
    """``--registry FILE``: user kinds and tags."""
    parser.add_argument("--registry", metavar="FILE", **how, help=help)


def add_json(parser: Any, help: str, **how: Any) -> None:
    """``--json``: JSON on stdout (``how``: where it is another option's shorthand, its ``dest``...)."""
    parser.add_argument("--json", **{"action": "store_true", **how}, help=help)


def add_quiet(parser: Any, help: str = _QUIET_HELP, **how: Any) -> None:
    """``-q, --quiet``."""
    parser.add_argument("-q", "--quiet", action="store_true", **how, help=help)


def add_jobs(parser: Any, help: str) -> None:
    """``-j N, --jobs N``: worker processes."""
    parser.add_argument("-j", "--jobs", metavar="N", type=_jobs_argument, help=help)


def add_lines(parser: Any, help: str) -> None:
    """``--lines``: SPEC names a file of specs, one per line."""
    parser.add_argument("--lines", action="store_true", help=help)


def add_llvm(parser: Any, help: str) -> None:
    """``--llvm VERSION``: a recorded LLVM's names of CPUs and features."""
    parser.add_argument("--llvm", metavar="VERSION", type=_llvm_argument, help=help)


def add_policy(parser: Any, help: str) -> None:
    """``--policy {error,drop,keep}``: what migrating does with an attribute TVM removed."""
    parser.add_argument("--policy", choices=("error", "drop", "keep"), default="error", help=help)


def add_compress_tags(parser: Any, help: str) -> None:
    """``--compress-tags``: write a tag where the migrated target equals one."""
    parser.add_argument("--compress-tags", action="store_true", help=help)


def add_check(parser: Any, help: str) -> None:
    """``--check``: write nothing, report what writing would do (its exit status says whether)."""
    parser.add_argument("--check", action="store_true", help=help)


def add_output_format(parser: Any, formats: tuple[str, ...], help: str) -> None:
    """``--output-format {text,...}``: how the command prints, text by default."""
    parser.add_argument("--output-format", choices=formats, default="text", help=help)
