"""The command line, one layer above the library: :func:`main`, ``targetlang``'s entry (with the
parser of every command, in :mod:`.command_line`), and one module per command group:
:mod:`.target` (``parse``, ``fmt``, ``legacy``, ``migrate``, ``check``), :mod:`.logs`,
:mod:`.fix`, :mod:`.inspect`; the options several of them take, defined once (:mod:`.options`),
and how a SPEC is read from the shell's words (:mod:`.spec_words`). The library's packages hold
no argparse."""

from __future__ import annotations

from .command_line import main

__all__ = ["main"]
