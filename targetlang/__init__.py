"""targetlang: read, print and convert the target language of TVM-family compilers.

TVM from 0.24 on reads only the JSON form of a target; targetlang reads every legacy string
exactly as TVM v0.22 did, prints it back byte for byte, and converts it to the modern form.

>>> import targetlang
>>> t = targetlang.parse("llvm -mcpu=skylake -mattr=+avx2,+fma")
>>> t["mattr"]
('+avx2', '+fma')
>>> t.to_json()
{'kind': 'llvm', 'mcpu': 'skylake', 'mattr': ['+avx2', '+fma']}
"""

import sys as _sys
import typing as _typing

from .errors import (
    CanonicalizationError,
    DuplicateAttributeError,
    EmptyKeyOrValueError,
    IntegerOverflowError,
    InvalidJSONError,
    InvalidSpecError,
    LeafKindError,
    MismatchedQuoteError,
    MissingAttributeError,
    MissingDashError,
    NestingTooDeepError,
    RegistryError,
    SettingsError,
    SourceSyntaxError,
    SourceTooLargeError,
    TagCycleError,
    TargetError,
    TargetSyntaxError,
    UnencodableTextError,
    UnknownAttributeError,
    UnknownKindError,
    UnknownTagError,
    UnprintableTargetError,
    ValueConversionError,
)

if _typing.TYPE_CHECKING:
    from ._eras import era_for_version, era_registry, release_reading
    from ._parsing import MAX_DEPTH, parse, parse_in_era
    from ._registry import Registry, builtin_registry
    from ._registry_files import check_registry, dump_registry, load_registry
    from ._resolution import Environment
    from ._schema import AttrSpec, KindSchema, TypeSpec
    from ._target import Target, TargetSpec
    from ._tvmc import TvmcError, TvmcTargets, parse_tvmc
    from .migration import Change, Migration, migrate

__version__ = "0.1.0"

# Every public name but the errors is imported on first use (PEP 562): ``import targetlang`` then
# costs a few milliseconds, and the parser, the registries, the migration rules and lark are
# loaded by the first call that needs them. The same names in the same modules as before, so
# ``from targetlang import parse`` and ``targetlang.parse`` both work; docs/performance.md has
# the figures (benchmarks/bench_import.py).
_LAZY = {
    "Change": "migration",
    "Migration": "migration",
    "migrate": "migration",
    "MAX_DEPTH": "_parsing",
    "parse": "_parsing",
    "parse_in_era": "_parsing",
    "era_for_version": "_eras",
    "era_registry": "_eras",
    "release_reading": "_eras",
    "Registry": "_registry",
    "builtin_registry": "_registry",
    "check_registry": "_registry_files",
    "dump_registry": "_registry_files",
    "load_registry": "_registry_files",
    "Environment": "_resolution",
    "AttrSpec": "_schema",
    "KindSchema": "_schema",
    "TypeSpec": "_schema",
    "Target": "_target",
    "TargetSpec": "_target",
    "TvmcError": "_tvmc",
    "TvmcTargets": "_tvmc",
    "parse_tvmc": "_tvmc",
}


def clear_caches() -> None:
    """Empty every cache that grows with the input: the parse caches (:func:`parse`, and
    :func:`parse_in_era`'s), the readings and migrations cached by live
    :class:`targetlang.logs.TargetReader` and :class:`targetlang.logs.LogMigrator` objects, the
    record layouts of the log reader and the workload keys it found well written in
    auto_scheduler's records, the release history looked up for unknown-attribute errors,
    and the conversions of ``targetlang fix``.

    Nothing else changes: the next parse of a text reads it again (and returns a new, equal
    :class:`Target`). The parse and log caches hold at most 256 K characters of text each (a
    few MB at most, see :class:`targetlang._cache.LruCache`) however many distinct texts they
    see, so memory stays bounded without this; it is for measuring cold figures and for a
    long-running service that wants the memory back. The registries, which do not grow with the
    input, are kept, with what they derive from their own kinds and tags (the target of a tag
    that reads no other tag, once read). Safe to call from any thread at any time.
    """
    # No cache exists before the module that makes them is loaded; an import statement here
    # cost a microsecond a call, more than the clearing, and one at the top of this module 3 ms
    # on every import. A module is in sys.modules from the start of its body, so another thread
    # may still be running _cache's: until its last definition, clear_all_caches, is made, no
    # cache exists (a module that makes one waits for that import to end): nothing to clear.
    global _clear_all
    clear = _clear_all
    if clear is None:
        clear = _clear_all = getattr(_sys.modules.get("targetlang._cache"), "clear_all_caches", None)
        if clear is None:
            return
    clear()


_clear_all: _typing.Callable[[], None] | None = None  # clear_caches' function, once it exists


def __getattr__(name: str) -> _typing.Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'targetlang' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value  # found directly from now on
    return value


def __dir__() -> list[str]:
    # The public names, not the modules and helpers that happen to be loaded.
    return sorted({*__all__, *(name for name in globals() if name.startswith("__"))})


__all__ = [
    "MAX_DEPTH",
    "AttrSpec",
    "CanonicalizationError",
    "Change",
    "DuplicateAttributeError",
    "EmptyKeyOrValueError",
    "Environment",
    "IntegerOverflowError",
    "InvalidJSONError",
    "InvalidSpecError",
    "KindSchema",
    "LeafKindError",
    "Migration",
    "MismatchedQuoteError",
    "MissingAttributeError",
    "MissingDashError",
    "NestingTooDeepError",
    "Registry",
    "RegistryError",
    "SettingsError",
    "SourceSyntaxError",
    "SourceTooLargeError",
    "TagCycleError",
    "Target",
    "TargetError",
    "TargetSpec",
    "TargetSyntaxError",
    "TvmcError",
    "TvmcTargets",
    "TypeSpec",
    "UnencodableTextError",
    "UnknownAttributeError",
    "UnknownKindError",
    "UnknownTagError",
    "UnprintableTargetError",
    "ValueConversionError",
    "builtin_registry",
    "check_registry",
    "clear_caches",
    "dump_registry",
    "era_for_version",
    "era_registry",
    "load_registry",
    "migrate",
    "parse",
    "parse_in_era",
    "parse_tvmc",
    "release_reading",
]
