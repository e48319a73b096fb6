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

from typing import TYPE_CHECKING, Any

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
from .migration import Change, Migration, migrate
from .parsing import MAX_DEPTH, parse
from .registry import Registry, builtin_registry
from .registry_files import check_registry, dump_registry, load_registry
from .resolution import Environment
from .schema import AttrSpec, KindSchema, TypeSpec
from .target import Target

if TYPE_CHECKING:
    from .tvmc import TvmcError, TvmcTargets, parse_tvmc

__version__ = "0.1.0"

_LAZY = {"TvmcError", "TvmcTargets", "parse_tvmc"}


def __getattr__(name: str) -> Any:
    # tvmc support is imported on first use: most users never need it, and it costs import time.
    if name in _LAZY:
        from . import tvmc

        return getattr(tvmc, name)
    raise AttributeError(f"module 'targetlang' has no attribute {name!r}")


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
    "SourceSyntaxError",
    "SourceTooLargeError",
    "TagCycleError",
    "Target",
    "TargetError",
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
    "dump_registry",
    "load_registry",
    "migrate",
    "parse",
    "parse_tvmc",
]
