"""tvmc's ``--target-KIND-ATTR`` flags, one per attribute of every kind, and the options they
give, which override those written in the list."""

from __future__ import annotations

import argparse
import functools
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple, NoReturn

from .._registry import Registry
from .._versions import Version
from ._entries import tvmc_registry
from ._tokens import CODEGEN_FIELDS, CODEGEN_FIELDS_LAST, CODEGENS, TVMC_VERSION, TvmcError

__all__ = ["add_target_args", "options_from_flags", "target_flags"]


class _Flag(NamedTuple):
    kind: str
    attr: str
    type: type


def _version(registry: Registry) -> Version:
    """The registry's TVM release; one without a version is taken as tvmc's last."""
    return Version.find(registry.version) or Version.parse(TVMC_VERSION)


def _flag_type(type_name: str, int_era: bool) -> type | None:
    # tvmc's INTERNAL_TO_NATIVE_TYPE: String -> str, Array -> str (passed on verbatim, split
    # later by the target parser), IntImm -> int. From v0.18 ints and bools were BoxInt and
    # BoxBool, which the table did not know: no flags. Targets and maps never had flags.
    if type_name in ("string", "array"):
        return str
    if type_name in ("int", "bool") and int_era:
        return int
    return None


@functools.lru_cache(maxsize=32)
def _flags(registry: Registry) -> dict[str, _Flag]:
    version = _version(registry)
    flags: dict[str, _Flag] = {}
    for kind, schema in registry.kinds.items():
        if kind in CODEGENS:
            continue
        for attr, spec in schema.attrs.items():
            typ = _flag_type(spec.type.name, version <= Version(0, 17))
            if typ is not None:
                flags[f"--target-{kind}-{attr}"] = _Flag(kind, attr, typ)
    if version <= CODEGEN_FIELDS_LAST:
        for codegen, fields in CODEGEN_FIELDS.items():
            for attr, typ in fields:
                flags[f"--target-{codegen}-{attr}"] = _Flag(codegen, attr, typ)
    return flags


def _dest(kind: str, attr: str) -> str:
    return f"target_{kind.replace('-', '_')}_{attr.replace('-', '_')}"


def target_flags(registry: Registry | None = None) -> dict[str, tuple[str, str]]:
    """tvmc's per-kind flags: ``"--target-KIND-ATTR"`` to ``(kind, attr)`` (spec 11.2).

    Every attribute of every non-codegen kind whose type is a string, an array, or (up to
    v0.17) an int or bool; plus the codegen config fields tvmc offered. The argparse
    destination of a flag is ``target_<kind>_<attr>`` with ``-`` turned into ``_``.
    """
    return {flag: (f.kind, f.attr) for flag, f in _flags(tvmc_registry(registry)).items()}


def add_target_args(parser: argparse.ArgumentParser, registry: Registry | None = None) -> None:
    """Add ``--target`` and the per-kind flags to ``parser`` (tvmc's ``generate_target_args``)."""
    parser.add_argument(
        "--target", help="compilation target as plain string, inline JSON or path to a JSON file", required=False
    )
    groups: dict[str, argparse._ArgumentGroup] = {}
    for flag, f in _flags(tvmc_registry(registry)).items():
        group = groups.get(f.kind)
        if group is None:
            group = groups[f.kind] = parser.add_argument_group(f"target {f.kind}")
        group.add_argument(flag, dest=_dest(f.kind, f.attr), type=f.type, help=f"target {f.kind} {f.attr}")


class _FlagParser(argparse.ArgumentParser):
    """An argument parser that raises instead of printing and exiting."""

    def error(self, message: str) -> NoReturn:
        raise _FlagFailure(message)


class _FlagFailure(Exception):
    pass


def options_from_flags(
    flags: Mapping[str, Any] | Sequence[str], registry: Registry | None = None
) -> dict[str, dict[str, Any]]:
    """Per-kind options from flag values (tvmc's ``reconstruct_target_args``).

    ``flags`` is either the parsed values, keyed by argparse destination (``vars(args)``) or by
    flag (``"--target-llvm-mcpu"``), or a command line, parsed as tvmc's argparse parser did
    (arguments that are not per-kind flags are ignored). Returns ``{kind: {attr: value}}`` for
    the flags given (``None`` means not given), ready for :func:`parse_tvmc`'s ``options``.
    """
    specs = _flags(tvmc_registry(registry))
    if isinstance(flags, str):
        raise TypeError("flags are a mapping or a sequence of command-line arguments, not one str")
    values: Mapping[str, Any]
    if isinstance(flags, Mapping):
        values = {key[2:].replace("-", "_") if key.startswith("--") else key: v for key, v in flags.items()}
    else:
        argv = list(flags)
        parser = _FlagParser(prog="tvmc", add_help=False)
        add_target_args(parser, registry)
        try:
            namespace, _ = parser.parse_known_args(argv)
        except _FlagFailure as failure:
            line = " ".join(argv)
            raise TvmcError(f"bad tvmc flags: {failure}", line, 0, len(line)) from None
        values = vars(namespace)
    options: dict[str, dict[str, Any]] = {}
    for f in specs.values():
        value = values.get(_dest(f.kind, f.attr))
        if value is not None:
            options.setdefault(f.kind, {})[f.attr] = value
    return options
