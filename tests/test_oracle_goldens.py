"""targetlang against what real TVM did with the inputs of the classes where differential runs found them apart.

The goldens, tests/data/oracle/*.jsonl, were recorded from real TVM by the scripts in
tests/oracle/ (run with the TVM oracle's run.sh): ``record_aprofile.py``,
``record_null_configs.py``, ``record_key_types.py`` and ``record_mkldnn.py`` with TVM v0.21.0
(``tvm.target.Target``), ``record_tvmc_flags.py`` and ``record_tvmc_lists.py`` with TVM v0.19.0
(tvmc's flags and ``target_from_cli``). Each line is one input and TVM's outcome: accepted, with ``str()`` and
``export()``, or rejected, with the error. A target TVM built is compared with targetlang's
target resolved in the oracle's environment (no GPU, host triple ``x86_64-pc-linux-gnu``); an
input TVM rejected must raise a :class:`TargetError` there too, which is also an instance of the
Python exception class TVM raised (``ValueError``, or ``TypeError`` for a dict with a key that is
not a string; tvmc's ``IndexError`` and ``UnboundLocalError``).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from targetlang import Environment, Target, TargetError, UnprintableTargetError, builtin_registry, parse
from targetlang._tvmc import options_from_flags, parse_tvmc

from .conftest import read_jsonl
from .differential.compare import export, fields_kept

# What the oracle detects on a machine without a GPU (its README).
ORACLE_ENV = Environment(host_triple="x86_64-pc-linux-gnu")

CLASSES = ("aprofile", "null-configs", "key-types", "mkldnn", "tvmc-flags", "tvmc-lists", "from-device")
# The registry of the release that recorded the goldens (tvmc's are v0.19's, its own default).
ORACLE_REGISTRY = builtin_registry("0.21")
ROWS = {name: read_jsonl("oracle", f"{name}.jsonl") for name in CLASSES}
BUILTINS: dict[str, type[BaseException]] = {
    "ValueError": ValueError,
    "TypeError": TypeError,
    "IndexError": IndexError,
    "LookupError": LookupError,
    "UnboundLocalError": UnboundLocalError,
    "NameError": NameError,
}


def _spec(row: Mapping[str, Any]) -> Any:
    return ast.literal_eval(row["python"]) if "python" in row else row["input"]


def _target(spec: Any) -> Target:
    # a pair is TVM's two-argument Target(target, host)
    if isinstance(spec, tuple) and len(spec) == 2:
        return Target(*spec, registry=ORACLE_REGISTRY)
    return parse(spec, registry=ORACLE_REGISTRY)


def _tvmc(spec: Mapping[str, Any]) -> Target:
    return parse_tvmc(spec["target"], options=options_from_flags(spec["flags"])).target


READERS: dict[str, Callable[[Any], Target]] = {
    "aprofile": _target,
    "null-configs": _target,
    "key-types": _target,
    "mkldnn": _target,
    "tvmc-flags": _tvmc,
    "tvmc-lists": _tvmc,
    "from-device": _target,
}
TABLE = [(name, row) for name in CLASSES for row in ROWS[name]]


def _id(case: tuple[str, dict[str, Any]]) -> str:
    name, row = case
    text = row.get("python") or repr(row["input"])
    return f"{name}:{text[:70]}"


def test_goldens_are_there() -> None:
    # Fewer rows than this means a file was cut short, not that targetlang agrees.
    counts = {name: len(rows) for name, rows in ROWS.items()}
    assert counts == {
        "aprofile": 182,
        "null-configs": 124,
        "key-types": 37,
        "mkldnn": 42,
        "tvmc-flags": 92,
        "tvmc-lists": 47,
        "from-device": 37,
    }
    for name in CLASSES:  # each class has inputs TVM accepted and inputs it rejected
        assert {row["accepted"] for row in ROWS[name]} == ({False} if name == "key-types" else {True, False})


@pytest.mark.parametrize("case", TABLE, ids=[_id(case) for case in TABLE])
def test_targetlang_does_what_tvm_did(case: tuple[str, dict[str, Any]]) -> None:
    name, row = case
    read = READERS[name]
    if not row["accepted"]:
        with pytest.raises(TargetError) as info:
            read(_spec(row)).resolve(ORACLE_ENV)
        for base in row["error"]["bases"]:
            assert isinstance(info.value, BUILTINS[base]), f"TVM raised {base}: {row['error']['message']}"
        return
    resolved = read(_spec(row)).resolve(ORACLE_ENV)
    # TVM's export with the target's own keys, tag and host where -from_device's null attributes
    # shadowed them: targetlang keeps the fields (a decision, docs/language.md)
    ours = export(resolved)
    assert ours == fields_kept(row["export"], ours)
    if "str" in row:
        assert resolved.to_legacy_str(ORACLE_ENV) == row["str"]
    else:  # TVM could not print it (a composite target)
        with pytest.raises(UnprintableTargetError):
            resolved.to_legacy_str(ORACLE_ENV)


@pytest.mark.parametrize("row", ROWS["tvmc-flags"], ids=[_id(("tvmc-flags", row)) for row in ROWS["tvmc-flags"]])
def test_tvmc_options_are_the_ones_tvmc_reconstructed(row: dict[str, Any]) -> None:
    assert options_from_flags(row["input"]["flags"]) == row["options"]
