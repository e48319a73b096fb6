"""Record what tvmc v0.19 did with target lists it failed on with a plain Python exception
(``IndexError``, ``UnboundLocalError``) and their neighbours, as goldens for
tests/test_oracle_goldens.py.

Run with the real TVM v0.19.0 oracle, from the repository root:

    /work/shared/tools/tvm-oracle/run.sh --tvm 019 tests/oracle/record_tvmc_lists.py [OUT]

OUT defaults to tests/data/oracle/tvmc-lists.jsonl. Each input is a ``--target`` list and
per-kind flags, run as record_tvmc_flags.py runs them (``generate_target_args``,
``reconstruct_target_args``, ``target_from_cli``). tvmc's ``target_from_cli`` turned only
``ValueError`` into a ``TVMCException``: an empty target (``llvm,``, an empty text) or an empty
value (``-mcpu=``, ``-mcpu=''``) reached ``codegen_def[0]`` / ``opt_value[0]`` and escaped as an
``IndexError``, and a text ``json.loads`` reads (``9``, ``null``) left ``target_host`` unset, an
``UnboundLocalError``. The inputs are those where tvmc's regular expression dropped nothing but
whitespace, so that targetlang must do what tvmc did (docs/language.md, "tvmc target lists").

Unlike record_tvmc_flags.py this script turns the ``IntImm`` values of an export into ints
(``example_target_hook``'s ``example_attribute``, the one v0.19 attribute declared ``Integer``),
which oracle_common.plain does not know.

This file is not a test (pytest does not collect it): it needs TVM, which the project's tests do
not.
"""

from __future__ import annotations

import sys
from typing import Any

from oracle_common import main
from record_tvmc_flags import outcome  # the same call of tvmc, recorded the same way

TARGETS = (
    # no target at all, or an empty one around a comma: IndexError (list index)
    "",
    "  ",
    "\t\n",
    "llvm,",
    ",llvm",
    "cmsis-nn,, llvm",
    "llvm, ,",
    ", llvm -mcpu",
    # an empty value: IndexError (string index), also quoted, also in an extra target
    "llvm -mcpu=",
    "llvm -mcpu=''",
    'llvm -mcpu=""',
    "cuda -arch=",
    "llvm -mtriple= -mcpu=alderlake",
    "compute-library -x=, llvm",
    "llvm -mcpu=, ,",
    "llvm -mcpu=, x -a",
    # tvmc's order: target by target, option by option
    "llvm -mcpu, ",
    "x -a, llvm -b=",
    "llvm --, ,",
    "llvm -=x, ,",
    "llvm -=x, llvm -b=",
    # an empty option name: kept by tvmc, rejected by TVM (ValueError), after tvmc's checks
    "llvm -=x",
    "llvm --",
    "llvm --, x",
    "llvm -=x, llvm",
    # no "=": ValueError, a TVMCException
    "llvm -mcpu",
    "llvm mcpu",
    # what json.loads reads: UnboundLocalError
    "9",
    " 1 ",
    "null",
    "true",
    "NaN",
    "-Infinity",
    '"llvm"',
    '{"kind": "llvm"}',
    "[1, 2]",
    "[" * 5000 + "]" * 5000,
    # accepted
    "llvm -mcpu=skylake",
    "cmsis-nn, c -mcpu=cortex-m55",
    "example_target_hook",
    "example_target_hook -example_attribute=3, llvm",
)

FLAGGED = (
    ("llvm -mcpu=", ["--target-llvm-mcpu=x"]),
    ("llvm,", ["--target-cuda-arch=x"]),
    ("", ["--target-cuda-arch=x"]),
    ("9", ["--target-llvm-mcpu=x"]),
    ("llvm -=x", ["--target-cuda-arch=x"]),
    ("llvm", ["--target-llvm-mcpu=skylake"]),
)


def inputs() -> list[Any]:
    return [{"target": t, "flags": []} for t in TARGETS] + [{"target": t, "flags": f} for t, f in FLAGGED]


if __name__ == "__main__":
    main(__file__, "tvmc-lists", inputs(), outcome, sys.argv)
