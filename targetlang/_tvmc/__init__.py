"""tvmc's ``--target`` lists and per-kind flags (TVM v0.8 - v0.19, spec section 11).

tvmc, TVM's command-line driver until Relay was removed in v0.20, took a comma-separated list of
targets: BYOC codegens first, then one or two TVM targets (the second is the host)::

    >>> from targetlang._tvmc import parse_tvmc
    >>> t = parse_tvmc("cmsis-nn, c -mcpu=cortex-m55")
    >>> t.target
    Target('c -mcpu=cortex-m55')
    >>> [e.name for e in t.extra_targets]
    ['cmsis-nn']
    >>> str(t)
    'cmsis-nn, c -mcpu=cortex-m55'

It also generated one ``--target-KIND-ATTR`` flag per attribute of every kind; their values
override the options written in the list (:func:`add_target_args`, :func:`options_from_flags`).

For every list tvmc read correctly the result is tvmc v0.19's. tvmc's tokenizer silently
dropped the characters its regular expression did not know (``/ : @``, a second ``=``, quotes
around text with such characters); :func:`tokenize` keeps them, and gives tvmc's tokens for every
text where tvmc dropped nothing but whitespace. The differences are listed in the section
"tvmc target lists" of docs/language.md.
"""

from __future__ import annotations

from ._entries import TvmcEntry, parse_target_list
from ._flags import add_target_args, options_from_flags, target_flags
from ._list import TvmcTargets, parse_tvmc
from ._tokens import (
    CODEGENS,
    TVMC_VERSION,
    EmptyTargetError,
    EmptyValueError,
    InlineJSONError,
    Token,
    TvmcError,
    scan,
    tokenize,
)

__all__ = [
    "CODEGENS",
    "TVMC_VERSION",
    "EmptyTargetError",
    "EmptyValueError",
    "InlineJSONError",
    "Token",
    "TvmcEntry",
    "TvmcError",
    "TvmcTargets",
    "add_target_args",
    "options_from_flags",
    "parse_target_list",
    "parse_tvmc",
    "scan",
    "target_flags",
    "tokenize",
]
