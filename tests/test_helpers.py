"""targetlang.helpers against what TVM's own helper constructors built.

The goldens, tests/data/helpers-tvm-v0.21.jsonl, were recorded from real TVM v0.21.0 by
tests/oracle/record_helpers.py (run with the TVM oracle's run.sh --tvm 021): one row per
call, with the string the helper passed to ``Target(...)`` ("built"), TVM's ``str()`` and
``export()`` of the result, its warnings, or the error it raised. v0.21's helpers are v0.22's
except for riscv_cpu's licheepi3a model (added in v0.22): those rows ("source": "v0.22-source")
have their built string written out by hand from v0.22's riscv_cpu table, and only str/export
come from v0.21's Target.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import pytest

from targetlang import Environment, Target, helpers

GOLDENS = Path(__file__).parent / "data" / "helpers-tvm-v0.21.jsonl"
ROWS: list[dict[str, Any]] = [json.loads(line) for line in GOLDENS.read_text(encoding="utf-8").splitlines() if line]

# What the oracle detects on a machine without a GPU (its README): llvm without mtriple or mcpu
# gets this triple; cuda and rocm get the defaults Environment has for no device.
ORACLE_ENV = Environment(host_triple="x86_64-pc-linux-gnu")

BUILT = [row for row in ROWS if isinstance(row["built"], str)]
MADE = [row for row in ROWS if "error" not in row]
REJECTED = [row for row in ROWS if "error" in row]


def _id(row: dict[str, Any]) -> str:
    args = [repr(a) for a in row["args"]] + [f"{k}={v!r}" for k, v in row["kwargs"].items()]
    return f"{row['helper']}({', '.join(args)})"


def _call(row: dict[str, Any]) -> Target:
    return getattr(helpers, row["helper"])(*row["args"], **row["kwargs"])  # type: ignore[no-any-return]


@pytest.fixture(autouse=True)
def _quiet() -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", helpers.HelperWarning)
        yield


def test_goldens_are_there() -> None:
    # Fewer rows than this means the file was cut short, not that the helpers agree.
    assert len(ROWS) >= 140
    assert {row["source"] for row in ROWS} == {"tvm-v0.21", "v0.22-source"}


@pytest.mark.parametrize("row", BUILT, ids=_id)
def test_helper_string_is_what_tvm_built(row: dict[str, Any]) -> None:
    assert helpers.helper_string(row["helper"], *row["args"], **row["kwargs"]) == row["built"]


@pytest.mark.parametrize("row", [row for row in MADE if isinstance(row["built"], str)], ids=_id)
def test_target_reads_back_the_built_text(row: dict[str, Any]) -> None:
    assert str(_call(row)) == row["built"]


@pytest.mark.parametrize("row", MADE, ids=_id)
def test_legacy_str_is_tvms_str(row: dict[str, Any]) -> None:
    assert _call(row).to_legacy_str(ORACLE_ENV) == row["str"]


@pytest.mark.parametrize("row", MADE, ids=_id)
def test_resolved_keys_are_tvms(row: dict[str, Any]) -> None:
    assert list(_call(row).resolve(ORACLE_ENV).keys) == row["export"]["keys"]


@pytest.mark.parametrize("row", REJECTED, ids=_id)
def test_rejected_where_tvm_failed(row: dict[str, Any]) -> None:
    # Failures in the helper itself (no built string) and in TVM's parse of it alike are ValueErrors.
    with pytest.raises(ValueError):
        _call(row)
    if row["built"] is None:
        with pytest.raises(ValueError):
            helpers.helper_string(row["helper"], *row["args"], **row["kwargs"])


@pytest.mark.parametrize("row", ROWS, ids=_id)
def test_warns_where_tvm_warned(row: dict[str, Any]) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            _call(row)
        except ValueError:
            pass
    ours = [w for w in caught if issubclass(w.category, helpers.HelperWarning)]
    assert len(ours) == len(row["warnings"])


def test_every_helper_and_table_entry_is_recorded() -> None:
    assert {row["helper"] for row in ROWS} == set(helpers.HELPERS)
    first_args = {(row["helper"], row["args"][0]) for row in BUILT if row["args"]}
    tables = {
        "arm_cpu": helpers.ARM_CPU_MODELS,
        "riscv_cpu": helpers.RISCV_CPU_MODELS,
        "stm32": helpers.STM32_SERIES,
        "hexagon": helpers.HEXAGON_ARCH,
    }
    missing = [(name, key) for name, table in tables.items() for key in table if (name, key) not in first_args]
    assert missing == []


def test_warning_points_at_the_caller() -> None:
    with pytest.warns(helpers.HelperWarning, match="no CUDA arch") as record:
        helpers.cuda("1080ti")
    assert record[0].filename == __file__


def test_error_messages() -> None:
    with pytest.raises(ValueError, match=r"^'qdsp-v60' \(read as 'v60'\) is not a valid Hexagon version; valid "):
        helpers.hexagon("qdsp-v60")
    with pytest.raises(ValueError, match=r"^hvx is the HVX vector length in bytes, one of \[0, 64, 128\], not 96$"):
        helpers.hexagon(hvx=96)
    with pytest.raises(ValueError, match=r"^'stm32h7xx' is not an STM32 series stm32\(\) knows; known: stm32H7xx, "):
        helpers.stm32("stm32h7xx")
    with pytest.raises(ValueError, match=r"^'micro' is not a target helper; the helpers are cuda, "):
        helpers.helper_string("micro")
    with pytest.raises(TypeError, match=r"^options is a string or a list of strings, not 5$"):
        helpers.arm_cpu(options=5)  # type: ignore[arg-type]


def test_create_takes_what_parse_takes() -> None:
    assert helpers.create({"kind": "cuda", "arch": "sm_80"}) == Target("cuda -arch=sm_80")
    with pytest.raises(TypeError):
        helpers.helper_string("create", {"kind": "cuda"})
