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

from .errors import (
    CanonicalizationError,
    DuplicateAttributeError,
    EmptyKeyOrValueError,
    InvalidJSONError,
    MismatchedQuoteError,
    MissingDashError,
    NestingTooDeepError,
    TargetError,
    TargetSyntaxError,
    UnknownAttributeError,
    UnknownKindError,
    UnprintableTargetError,
    ValueConversionError,
)
from .parsing import parse
from .registry import Registry, builtin_registry
from .resolution import Environment
from .schema import AttrSpec, KindSchema, TypeSpec
from .target import Target

__version__ = "0.1.0"

__all__ = [
    "AttrSpec",
    "CanonicalizationError",
    "DuplicateAttributeError",
    "EmptyKeyOrValueError",
    "Environment",
    "InvalidJSONError",
    "KindSchema",
    "MismatchedQuoteError",
    "MissingDashError",
    "NestingTooDeepError",
    "Registry",
    "Target",
    "TargetError",
    "TargetSyntaxError",
    "TypeSpec",
    "UnknownAttributeError",
    "UnknownKindError",
    "UnprintableTargetError",
    "ValueConversionError",
    "builtin_registry",
    "parse",
]
