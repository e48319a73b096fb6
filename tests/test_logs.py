"""Tuning logs: reading records losslessly, target spans and splicing, and the ``targetlang logs`` commands."""

from __future__ import annotations

import doctest
import gzip
import io
import json
import pickle
import re
import shutil
import sys
import types
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import targetlang
from targetlang import _checking as checking
from targetlang._cli import main
from targetlang.logs import Format, Record, TargetReader, encode_value, parse_line, read_file, read_lines, splice
from targetlang.logs import records as records_module
from targetlang.logs import targets as targets_module
from targetlang.logs._spans import scan, walk
from targetlang.logs.check import Checker, CheckSummary

from .conftest import Run, data_path, examples, read_jsonl
from .strategies import grammar_texts, target_configs, targets
from .test_cli import console_lines, help_examples, replay, transcript

LOGS = data_path("corpus", "logs")
DOCS = Path(__file__).resolve().parents[1] / "docs" / "logs.md"
ARM = "autotvm/tophub_arm_cpu_v0.01.log"
LLVM = "autotvm/tophub_llvm_v0.04.log"
VTA = "autotvm/tophub_vta_v0.10.log"
AS_MATMUL = "auto_scheduler/tvm-v0.19.0_matmul.json"
AS_RESNET = "auto_scheduler/tvm-v0.19.0_resnet-50-NHWC-B1-llvm.json"
AS_V08 = "auto_scheduler/tvm-v0.8.0_matmul.json"
MS_RECORDS = "meta_schedule/mlc-llm-d93944ff_log_db_database_tuning_record.json"
MS_WORKLOADS = "meta_schedule/mlc-llm-d93944ff_log_db_database_workload.json"
ALL_LOGS = [ARM, LLVM, VTA, AS_MATMUL, AS_RESNET, AS_V08, MS_RECORDS, MS_WORKLOADS]
ERA_07 = "0.7"  # the era a record of TVM 0.7.dev0 is read in
# a config as AutoTVM wrote it (TVM's loader needs one)
CONFIG: dict[str, Any] = {"index": 0, "code_hash": None, "entity": []}
CONFIG_TEXT = '"config": ' + json.dumps(CONFIG)


@pytest.fixture
def logs_dir(monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run in the test logs directory, so that names in outputs are short."""
    monkeypatch.chdir(LOGS)
    return LOGS


def records(name: str) -> list[Record]:
    return list(read_file(LOGS / name, name))


def value_at(value: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


# ------------------------------------------------------------------ reading the real logs


@pytest.mark.parametrize("name", ALL_LOGS)
def test_reading_is_lossless(name: str) -> None:
    data = (LOGS / name).read_bytes()
    assert "".join(r.text + r.newline for r in records(name)).encode() == data


@pytest.mark.parametrize(
    ("name", "formats", "comments"),
    [
        (ARM, {"autotvm-v0.1": 314}, [1, 2]),
        (LLVM, {"autotvm-v0.2": 35}, [1, 2]),
        (VTA, {"autotvm-v0.2": 106}, [1, 13, 15, 26, 49, 54, 62, 64, 68, 78, 89, 112, 114, 118]),
        (AS_MATMUL, {"auto_scheduler": 1}, [1]),
        (AS_RESNET, {"auto_scheduler": 26}, [1, 2]),
        (AS_V08, {"auto_scheduler": 1}, [1]),
        (MS_RECORDS, {"meta-schedule-record": 22}, []),
        (MS_WORKLOADS, {"meta-schedule-workload": 22}, []),
    ],
)
def test_formats_and_comments_of_the_real_logs(name: str, formats: dict[str, int], comments: list[int]) -> None:
    found = records(name)
    counted: dict[str, int] = {}
    for record in found:
        if record.format is not Format.COMMENT:
            counted[record.format.value] = counted.get(record.format.value, 0) + 1
    assert counted == formats
    assert [r.line for r in found if r.format is Format.COMMENT] == comments
    assert all(r.text.startswith("#") for r in found if r.format is Format.COMMENT)


def test_record_fields_of_each_format() -> None:
    first = records(LLVM)[2]
    assert (first.file, first.line, first.format, first.newline) == (LLVM, 3, Format.AUTOTVM_V02, "\n")
    assert (first.target, first.host, first.log_version, first.tvm_version) == (
        "llvm -mcpu=skylake-avx512",
        None,
        "0.2",
        "0.7.dev0",
    )
    assert first.text.startswith('{"input": ["llvm -mcpu=skylake-avx512", "conv2d_NCHWc.x86"')
    arm = records(ARM)[2]
    assert (arm.format, arm.target, arm.log_version, arm.tvm_version) == (
        Format.AUTOTVM_V01,
        "llvm -device=arm_cpu -model=pynq -target=armv7a-linux-eabi",
        "0.1",
        None,
    )
    resnet = records(AS_RESNET)[2]
    assert (resnet.target, resnet.host, resnet.log_version) == ("llvm -keys=cpu -mcpu=core-avx2", "", "v0.5")
    matmul = records(AS_MATMUL)[1]
    assert (matmul.target, matmul.host, matmul.log_version) == ("llvm -keys=cpu", None, "v0.3")
    meta = records(MS_RECORDS)[0]
    assert meta.target is not None and meta.target.startswith('{"host":{"keys":["arm_cpu","cpu"],"kind":"llvm"')
    assert meta.field("target") is not None and meta.field("target").encoding == "object"  # type: ignore[union-attr]
    assert json.loads(meta.target) == meta.value[1][2]
    workload = records(MS_WORKLOADS)[0]
    assert (workload.format, workload.fields, workload.target) == (Format.META_SCHEDULE_WORKLOAD, (), None)


def target_paths(record: Record) -> dict[str, tuple[Any, ...]]:
    """Where each format keeps its targets (spec section 12), written out again for the tests."""
    if record.format is Format.AUTOTVM_V02:
        return {"target": ("input", 0)}
    if record.format is Format.AUTOTVM_V01:  # any object whose "v" is 0.1: its target i[0], else input[0]
        for key in ("i", "input"):
            inp = record.value.get(key)
            if isinstance(inp, list) and inp and isinstance(inp[0], str):
                return {"target": (key, 0)}
        return {}
    if record.format is Format.AUTO_SCHEDULER:
        return {"target": ("i", 0, 1), **({"host": ("i", 0, 3)} if len(record.value["i"][0]) > 3 else {})}
    if record.format is Format.META_SCHEDULE_RECORD:
        return {"target": (1, 2)}
    return {}


SENTINEL = "\x00sentinel\x00"


def assert_spans_exact(record: Record) -> None:
    """Each field's span holds exactly the field's JSON value: put a sentinel there, decode the
    line again, and the sentinel is at the field's path with everything else unchanged."""
    paths = target_paths(record)
    assert sorted(f.name for f in record.fields) == sorted(paths)
    for field in record.fields:
        text = record.text[field.start : field.end]
        expected = value_at(record.value, paths[field.name])
        assert json.loads(text) == expected
        assert field.spec == (text if field.encoding == "object" else expected)
        sentinel: Any = {"sentinel": SENTINEL} if field.encoding == "object" else SENTINEL
        mutated = json.loads(splice(record, field, json.dumps(sentinel)))
        assert value_at(mutated, paths[field.name]) == sentinel
        container = value_at(mutated, paths[field.name][:-1])
        container[paths[field.name][-1]] = expected
        assert mutated == record.value


@pytest.mark.parametrize("name", ALL_LOGS)
def test_spans_hold_exactly_the_target_json(name: str) -> None:
    for record in records(name):
        assert_spans_exact(record)
        for field in record.fields:
            path = target_paths(record)[field.name]
            assert scan(record.text, path) == (field.start, field.end)
            assert walk(record.text, path) == (field.start, field.end)


@pytest.mark.parametrize("name", ALL_LOGS)
def test_both_decoders_read_the_same_records(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # orjson is used when installed (the 'fast' extra); the standard library's json otherwise.
    pytest.importorskip("orjson", reason="the 'fast' extra is not installed: only one decoder to compare")
    fast = records(name)
    assert records_module._loads is not records_module._json_loads
    monkeypatch.setattr(records_module, "_loads", records_module._json_loads)
    assert records(name) == fast


@pytest.mark.parametrize(
    "line",
    [
        '{"input": ["llvm", "dense", [], {}], "result": [[Infinity], 1, 2, 3], "version": 0.2}',
        '{"input": ["llvm", "dense", [123456789012345678901234567890], {}], "version": 0.2}',
        '{"input": ["llvm \\ud800", "dense", [], {}], "version": 0.2}',
        '{"input": ["llvm", "dense", [NaN], {}], "version": 0.2}',
    ],
)
def test_what_orjson_refuses_json_decides(line: str) -> None:
    record = parse_line(line)
    assert record.format is Format.AUTOTVM_V02
    assert record.value == json.loads(line) or "NaN" in line  # NaN is not equal to itself
    assert_spans_exact(record) if "NaN" not in line else None


@pytest.mark.parametrize("name", ALL_LOGS)
def test_splice_same_text_gives_the_line_back(name: str) -> None:
    for record in records(name):
        for field in record.fields:
            assert splice(record, field.name, record.text[field.start : field.end]) == record.text


@pytest.mark.parametrize("name", [ARM, VTA, AS_RESNET, MS_RECORDS])
def test_splice_another_value_changes_only_its_bytes(name: str) -> None:
    for record in records(name):
        for field in record.fields:
            new = {"kind": "cuda", "arch": "sm_80"} if field.encoding == "object" else "cuda -arch=sm_80 -libs=é"
            spliced = splice(record, field, encode_value(record, field, new)).encode()
            old = record.text.encode()
            head, tail = len(record.text[: field.start].encode()), len(record.text[field.end :].encode())
            assert spliced[:head] == old[:head]
            assert spliced[len(spliced) - tail :] == old[len(old) - tail :]
            assert spliced[head : len(spliced) - tail] != old[head : len(old) - tail]
            assert value_at(json.loads(spliced), target_paths(record)[field.name]) == new


def test_encode_value_writes_as_the_record_did() -> None:
    python = parse_line('{"input": ["llvm", "t", [], {}], "version": 0.2}')
    assert encode_value(python, "target", "llvm -mcpu=é") == '"llvm -mcpu=\\u00e9"'
    raw = parse_line('{"input": ["llvm -model=é", "t", [], {}], "version": 0.2}')
    assert encode_value(raw, "target", "llvm -mcpu=é") == '"llvm -mcpu=é"'
    meta = records(MS_RECORDS)[0]
    assert encode_value(meta, "target", {"kind": "metal", "keys": ["metal", "gpu"]}) == (
        '{"kind":"metal","keys":["metal","gpu"]}'
    )
    spaced = parse_line('[0, [[], null, {"kind": "llvm"}, []]]')
    assert encode_value(spaced, "target", '{"kind":"c"}') == '{"kind": "c"}'


def test_error_splice_rejects_values_of_the_wrong_sort() -> None:
    record = records(LLVM)[2]
    with pytest.raises(ValueError, match="not JSON text"):
        splice(record, "target", "llvm")
    with pytest.raises(ValueError, match="a JSON string, not dict"):
        splice(record, "target", '{"kind": "llvm"}')
    with pytest.raises(ValueError, match="must not contain a line break"):
        splice(record, "target", '"llvm"\n')
    with pytest.raises(KeyError, match="no target field 'host'"):
        splice(record, "host", '"llvm"')
    meta = records(MS_RECORDS)[0]
    with pytest.raises(ValueError, match="a JSON object, not str"):
        splice(meta, "target", '"llvm"')


# ------------------------------------------------------------------ mixed files, odd lines, pickle rows


def test_a_file_may_mix_formats(tmp_path: Path) -> None:
    lines = [
        records(LLVM)[2].text,
        "",
        records(ARM)[3].text,
        "# a comment",
        "   ",
        records(AS_RESNET)[2].text,
        records(MS_RECORDS)[0].text,
        records(MS_WORKLOADS)[0].text[:200] + '"]',
        "llvm -mcpu=skylake\tgASVKAAAAAAAAAB9lC4=\tgAR9lC4=\tgASVKAAAAAAAAAB9lC4=\t0.2\t0.8.0",
        "not a record",
        '{"kind": "llvm"}',
    ]
    path = tmp_path / "mixed.log"
    # CRLF on one line, no newline after the last: both kept.
    data = "\n".join(lines[:3]) + "\r\n" + "\n".join(lines[3:])
    path.write_bytes(data.encode())
    found = list(read_file(path))
    assert [r.format.value for r in found] == [
        "autotvm-v0.2",
        "comment",
        "autotvm-v0.1",
        "comment",
        "comment",
        "auto_scheduler",
        "meta-schedule-record",
        "meta-schedule-workload",
        "autotvm-pickle",
        "unknown",
        "unknown",
    ]
    assert [r.newline for r in found][2:4] == ["\r\n", "\n"] and found[-1].newline == ""
    assert "".join(r.text + r.newline for r in found) == data
    assert found[9].problem.startswith("not JSON: Expecting value")
    assert found[10].problem == "a JSON object with neither 'input' nor 'i' and 'v'"
    for record in found:
        if record.value is not None:
            assert_spans_exact(record)


def test_pickle_rows_read_only_the_text_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a log must never be unpickled")

    monkeypatch.setattr(pickle, "loads", refuse)
    monkeypatch.setattr(pickle, "load", refuse)
    # Columns of AutoTVM's pickle protocol: target, base64 pickles of task, config and result,
    # then (v0.2) the log version and the TVM version.
    v02 = parse_line("llvm -device=arm_cpu -model=pynq\tgASVHQAAAA==\tgASVEgAAAA==\tgASVDAAAAA==\t0.2\t0.8.0", file="p")
    assert (v02.format, v02.target, v02.log_version, v02.tvm_version, v02.value) == (
        Format.AUTOTVM_PICKLE,
        "llvm -device=arm_cpu -model=pynq",
        "0.2",
        "0.8.0",
        None,
    )
    field = v02.field("target")
    assert field is not None and (field.start, field.end, field.encoding) == (0, 32, "column")
    spliced = splice(v02, field, encode_value(v02, field, "llvm -model=rk3399"))
    assert spliced == "llvm -model=rk3399\tgASVHQAAAA==\tgASVEgAAAA==\tgASVDAAAAA==\t0.2\t0.8.0"
    with pytest.raises(ValueError, match="must not contain a tab"):
        splice(v02, field, "llvm\tx")
    v01 = parse_line("cuda -model=tx2\tgASVHQAAAA==\tgASVEgAAAA==\tgASVDAAAAA==")
    assert (v01.format, v01.target, v01.log_version, v01.tvm_version) == (
        Format.AUTOTVM_PICKLE,
        "cuda -model=tx2",
        "0.1",
        None,
    )
    three = parse_line("llvm\tx\ty")
    assert (three.format, three.problem) == (
        Format.UNKNOWN,
        "neither JSON nor AutoTVM's pickle rows (3 tab-separated columns)",
    )


@pytest.mark.parametrize(
    ("line", "fmt", "target", "problem"),
    [
        # AutoTVM's reader (v0.7 - v0.19) asks first whether "v" equals 0.1: then it skips the record.
        ('{"input": ["llvm -mcpu=a", "t", [], {}], "v": 0.1}', Format.AUTOTVM_V01, "llvm -mcpu=a", ""),
        ('{"i": ["llvm -mcpu=a", "t", [], {}, [], {}], "r": [], "v": 0.1}', Format.AUTOTVM_V01, "llvm -mcpu=a", ""),
        ('{"i": ["llvm", "t", [], {}, [], {}], "v": 1e-1}', Format.AUTOTVM_V01, "llvm", ""),
        ('{"i": ["llvm"], "input": ["cuda"], "v": 0.10}', Format.AUTOTVM_V01, "llvm", ""),
        ('{"i": 5, "v": 0.1}', Format.AUTOTVM_V01, None, ""),
        ('{"input": ["llvm", "t", [], {}], "version": 0.1}', Format.AUTOTVM_V02, "llvm", ""),
        ('{"input": ["llvm", "t", [], {}], "v": 0.2}', Format.AUTOTVM_V02, "llvm", ""),
        # Any other object it reads for its 'input'.
        (
            '{"i": ["llvm", "t", [], {}, [], {}], "v": 0.2}',
            Format.UNKNOWN,
            None,
            "an 'i' record whose 'v' is not 0.1: AutoTVM (TVM v0.7 - v0.19) takes it for log format v0.2 and raises "
            "KeyError, as it has no 'input'",
        ),
        (
            '{"i": ["llvm", "t", [], {}, [], {}], "v": 0.1000001}',
            Format.UNKNOWN,
            None,
            "an 'i' record whose 'v' is not 0.1: AutoTVM (TVM v0.7 - v0.19) takes it for log format v0.2 and raises "
            "KeyError, as it has no 'input'",
        ),
    ],
)
def test_autotvm_records_are_told_apart_as_autotvm_did(
    line: str, fmt: Format, target: str | None, problem: str
) -> None:
    record = parse_line(line)
    assert (record.format, record.target, record.problem) == (fmt, target, problem)
    if fmt is Format.AUTOTVM_V01:
        assert record.log_version == "0.1"
    assert_spans_exact(record)


def test_odd_lines() -> None:
    bom = parse_line('\ufeff{"input": ["llvm", "t", [], {}], "version": 0.2}')
    assert bom.format is Format.AUTOTVM_V02 and bom.text[bom.fields[0].start : bom.fields[0].end] == '"llvm"'
    assert parse_line("  # not a comment for TVM").format is Format.UNKNOWN
    assert parse_line("\t").format is Format.COMMENT
    null_target = parse_line("[3, [[], null, null, null]]")
    assert (null_target.format, null_target.fields) == (Format.META_SCHEDULE_RECORD, ())
    nested = parse_line("[" * 100000 + "]" * 100000)
    assert nested.format is Format.UNKNOWN
    spaced = parse_line(' { "i" : [ [ "key" , "llvm -keys=cpu" , [ 1 ] , "llvm" ] , [ ] ] , "v" : "v0.6" } ')
    assert (spaced.target, spaced.host) == ("llvm -keys=cpu", "llvm")
    assert [spaced.text[f.start : f.end] for f in spaced.fields] == ['"llvm -keys=cpu"', '"llvm"']
    escaped = parse_line('{"input": ["llvm -model=\\u0061\\/b", "t", [], {}], "version": 0.2}')
    assert escaped.target == "llvm -model=a/b"
    assert escaped.text[escaped.fields[0].start : escaped.fields[0].end] == '"llvm -model=\\u0061\\/b"'


def test_not_utf8_lines_are_kept_byte_for_byte() -> None:
    raw = [b"# ok\n", b'{"input": ["llvm -model=\xff", "t", [], {}], "version": 0.2}\n', b"\n"]
    found = list(read_lines(raw, "bad.log"))
    assert [r.format for r in found] == [Format.COMMENT, Format.UNKNOWN, Format.COMMENT]
    at = raw[1].index(b"\xff")
    assert found[1].problem == f"not UTF-8 (invalid start byte at byte {at})"
    assert b"".join((r.text + r.newline).encode("utf-8", "surrogateescape") for r in found) == b"".join(raw)


# ------------------------------------------------------------------ generated logs

_SEPARATORS = st.sampled_from([(", ", ": "), (",", ":"), (", ", ":"), (" , ", " : ")])
_OTHER_STRINGS = st.one_of(st.text(max_size=12), st.sampled_from(['", "', "\\", '"', ", ", "[", "{"]))
# Built once: hypothesis validates a strategy when it is built, and building these (the grammar's
# strategy above all) in every draw was most of the time of the tests below.
_FORMATS = st.sampled_from([Format.AUTOTVM_V02, Format.AUTOTVM_V01, Format.AUTO_SCHEDULER, Format.META_SCHEDULE_RECORD])
_TARGET_TEXTS = st.one_of(grammar_texts(), targets().map(str))
_HOST_TEXTS = grammar_texts()
_CONFIGS = target_configs()
# Where the record's own target goes in other fields: replaced by it once drawn.
_ITSELF = "\x02the target\x02"
_OTHER = st.one_of(_OTHER_STRINGS, st.just(_ITSELF))
_JSONISH = st.recursive(
    st.one_of(st.integers(), st.floats(allow_nan=False), _OTHER, st.none(), st.booleans()),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(_OTHER_STRINGS, inner, max_size=3)),
    max_leaves=8,
)


def _with_target(value: Any, target: str) -> Any:
    """``value`` with each ``_ITSELF`` string replaced by ``target``."""
    if isinstance(value, str):
        return target if value == _ITSELF else value
    if isinstance(value, list):
        return [_with_target(item, target) for item in value]
    if isinstance(value, dict):
        return {key: _with_target(item, target) for key, item in value.items()}
    return value


@st.composite
def generated_records(draw: st.DrawFn) -> tuple[str, Format, dict[str, tuple[int, int]]]:
    """A log line of a random format, other fields random, with the expected span of each target."""
    fmt = draw(_FORMATS)
    if fmt is Format.META_SCHEDULE_RECORD:
        target: Any = draw(_CONFIGS)
    else:
        target = draw(_TARGET_TEXTS)
    # Other fields hold random text, and sometimes the target itself or pieces of JSON syntax.
    itself = target if isinstance(target, str) else "x"

    def other() -> Any:
        return _with_target(draw(_OTHER), itself)

    def jsonish() -> Any:
        return _with_target(draw(_JSONISH), itself)

    marks = {"target": "\x01target\x01", "host": "\x01host\x01"}
    fields = {"target": target}
    if fmt is Format.AUTOTVM_V02:
        members = {
            "input": [marks["target"], other(), jsonish(), jsonish()],
            "config": jsonish(),
            "result": [[draw(st.floats(0, 1))], draw(st.integers(0, 7)), 1.5, 1e9],
            "version": 0.2,
            "tvm_version": draw(st.sampled_from(["0.7.dev0", "0.8.0", "0.19.0"])),
        }
    elif fmt is Format.AUTOTVM_V01:
        members = {
            "i": [marks["target"], other(), jsonish(), {}, jsonish(), jsonish()],
            "r": [[draw(st.floats(0, 1))], 0, 2.5, 1533118978.762497],
            "v": 0.1,
        }
    elif fmt is Format.AUTO_SCHEDULER:
        task = [other(), marks["target"], [8, 64, 64, 0, 0, 0, 0, 0]]
        if draw(st.booleans()):
            host = draw(st.one_of(st.just(""), st.just(target), _HOST_TEXTS))
            fields["host"] = host
            task += [marks["host"], 2]
        members = {"i": [task, jsonish()], "r": [[1e-05], 0, 0.1, 1606960872], "v": "v0.6"}
    else:
        trace = jsonish()
        members = None
        value: Any = [draw(st.integers(0, 99)), [trace, [draw(st.floats(0, 1))], marks["target"], jsonish()]]
    if members is not None:
        order = draw(st.permutations(list(members)))
        value = {key: members[key] for key in order}
    item, colon = draw(_SEPARATORS)
    ascii_only = draw(st.booleans())

    def dumps(v: Any) -> str:
        return json.dumps(v, separators=(item, colon), ensure_ascii=ascii_only)

    line = dumps(value)
    spans: dict[str, tuple[int, int]] = {}
    for name, mark in marks.items():
        if name not in fields:
            continue
        token = json.dumps(mark)
        assume(line.count(token) == 1)
        start = line.index(token)
        text = dumps(fields[name])
        line = line[:start] + text + line[start + len(token) :]
        for other_name, (s, e) in spans.items():  # a later replacement moves earlier spans only if before them
            if s > start:
                spans[other_name] = (s + len(text) - len(token), e + len(text) - len(token))
        spans[name] = (start, start + len(text))
    return line, fmt, spans


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(generated_records(), st.sampled_from(["", " ", "  \t"]))
def test_generated_records_give_every_target_span_exactly(
    generated: tuple[str, Format, dict[str, tuple[int, int]]], padding: str
) -> None:
    line, fmt, spans = generated
    record = parse_line(padding + line + padding, "\r\n")
    assert record.format is fmt
    assert {f.name: (f.start - len(padding), f.end - len(padding)) for f in record.fields} == spans
    assert_spans_exact(record)
    for field in record.fields:
        assert splice(record, field, record.text[field.start : field.end]) == record.text
        assert walk(record.text, target_paths(record)[field.name]) == (field.start, field.end)


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(generated_records(), min_size=1, max_size=6), st.lists(st.sampled_from(["# c", "", "  "]), max_size=3))
def test_generated_logs_read_back_whole(
    generated: list[tuple[str, Format, dict[str, tuple[int, int]]]], comments: list[str]
) -> None:
    lines = [line for line, _, _ in generated] + comments
    data = "".join(line + "\n" for line in lines).encode()
    found = list(read_lines(io.BytesIO(data), "gen.log"))
    assert b"".join((r.text + r.newline).encode() for r in found) == data
    assert [r.format for r in found] == [fmt for _, fmt, _ in generated] + [Format.COMMENT] * len(comments)


# ------------------------------------------------------------------ check


def check_json(run: Run, *argv: str) -> tuple[int, list[dict[str, Any]]]:
    status, out, err = run("logs", "check", "--json", *argv)
    assert err == ""
    return status, [json.loads(line) for line in out.splitlines()]


def test_check_arm_log_reads_in_the_era_of_its_format(run: Run, logs_dir: Path) -> None:
    # Log format v0.1 records say no TVM version, but only TVM v0.6 and older wrote (and read)
    # them: its rules read -target as the triple.
    status, out = check_json(run, ARM)
    assert status == 0
    assert out == [
        {
            "record": "summary",
            "file": ARM,
            "lines": 316,
            "records": 314,
            "comments": 2,
            "formats": {"autotvm-v0.1": 314},
            "distinct_targets": 7,
            "failed": 0,
            "needs_migration": 0,
            "problems": {},
        }
    ]


def later_arm_log(directory: Path) -> tuple[Path, list[int]]:
    """The arm log's targets in AutoTVM v0.2 records that say no TVM version, and the lines of
    the records whose target spells -target."""
    records = [json.loads(line) for line in (LOGS / ARM).read_text().splitlines() if line.startswith("{")]
    log = directory / "arm_v0.2.log"
    lines = [
        json.dumps({"input": [r["i"][0], r["i"][1], [], {}], "config": CONFIG, "result": r["r"], "version": 0.2})
        for r in records
    ]
    log.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return log, [n for n, r in enumerate(records, 1) if "-target=" in r["i"][0]]


def test_check_target_option_of_a_later_record_is_an_unknown_attribute(run: Run, tmp_path: Path) -> None:
    log, lines = later_arm_log(tmp_path)
    status, out = check_json(run, str(log))
    assert status == 3  # every problem is one `logs migrate` fixes (-target becomes -mtriple)
    problems, summary = out[:-1], out[-1]
    assert len(lines) == 283
    assert all(p["needs_migration"] is True for p in problems)
    assert [p["line"] for p in problems] == lines
    for problem in problems:
        assert (problem["rule"], problem["field"], problem["error"], problem["era"]) == (
            "parse",
            "target",
            "UnknownAttributeError",
            "0.22",
        )
        assert problem["spec"][problem["span"][0] : problem["span"][1]] == "target"
        assert problem["message"] == (
            "kind 'llvm' has no attribute 'target' since TVM v0.7: it is TVM <= v0.6's 'mtriple', which AutoTVM's "
            "JSON log reader (v0.7 - v0.19) rewrote"
        )
    assert summary == {
        "record": "summary",
        "file": str(log),
        "lines": 314,
        "records": 314,
        "comments": 0,
        "formats": {"autotvm-v0.2": 314},
        "distinct_targets": 7,
        "failed": 0,
        "needs_migration": 283,
        "problems": {"parse: UnknownAttributeError": 283},
    }


@pytest.mark.parametrize(
    ("name", "records", "comments", "distinct"),
    [
        (LLVM, {"autotvm-v0.2": 35}, 2, 1),
        (VTA, {"autotvm-v0.2": 106}, 14, 4),
        (AS_MATMUL, {"auto_scheduler": 1}, 1, 1),
        (AS_RESNET, {"auto_scheduler": 26}, 2, 1),
        (MS_RECORDS, {"meta-schedule-record": 22}, 0, 1),
        (MS_WORKLOADS, {"meta-schedule-workload": 22}, 0, 0),
    ],
)
def test_check_clean_logs(
    run: Run, logs_dir: Path, name: str, records: dict[str, int], comments: int, distinct: int
) -> None:
    status, out = check_json(run, name)
    assert status == 0 and len(out) == 1
    assert out[0]["formats"] == records
    assert (out[0]["comments"], out[0]["distinct_targets"], out[0]["failed"]) == (comments, distinct, 0)


def test_check_v08_auto_scheduler_log_needs_the_v08_registry(run: Run, logs_dir: Path) -> None:
    status, out = check_json(run, AS_V08)
    assert status == 3  # migration drops the -link-params=0 that TVM v0.10 on refuse: false is the default
    assert out[0] == {
        "record": "problem",
        "file": AS_V08,
        "line": 2,
        "rule": "parse",
        "field": "target",
        "error": "UnknownAttributeError",
        "message": "kind 'llvm' has no attribute 'link-params' since TVM v0.10 (TVM v0.8 - v0.9 had it); TVM v0.8 - "
        "v0.9 read this target: give --tvm-version if one of them wrote this log",
        "spec": "llvm -keys=cpu -link-params=0",
        "span": [16, 27],
        "era": "0.22",
        "needs_migration": True,
    }
    assert check_json(run, "--tvm-version", "0.8", AS_V08)[0] == 0
    assert check_json(run, "--tvm-version", "0.9.0", AS_V08)[0] == 0
    assert check_json(run, "--tvm-version", "0.10", AS_V08)[0] == 3


def test_check_human_output_reports_each_problem_once(run: Run, logs_dir: Path, tmp_path: Path) -> None:
    log, _ = later_arm_log(tmp_path)
    status, out, err = run("logs", "check", str(log), AS_V08, LLVM)
    assert status == 3  # migration fixes every problem
    assert err.splitlines() == [
        f"{log}:1: target: parse: UnknownAttributeError: kind 'llvm' has no attribute 'target' since TVM v0.7: it "
        "is TVM <= v0.6's 'mtriple', which AutoTVM's JSON log reader (v0.7 - v0.19) rewrote "
        "[needs migration: `targetlang logs migrate` fixes it] "
        "[283 records, 6 distinct targets: lines 1, 2, 3, 4, 5, ...]",
        "  llvm -device=arm_cpu -model=pynq -target=armv7a-linux-eabi",
        "                                    ^^^^^^",
        f"{AS_V08}:2: target: parse: UnknownAttributeError: kind 'llvm' has no attribute 'link-params' since TVM "
        "v0.10 (TVM v0.8 - v0.9 had it); TVM v0.8 - v0.9 read this target: give --tvm-version if one of them wrote "
        "this log [needs migration: `targetlang logs migrate` fixes it]",
        "  llvm -keys=cpu -link-params=0",
        "                  ^^^^^^^^^^^",
    ]
    assert out.splitlines() == [
        f"{log}: 314 records (314 autotvm-v0.2), 0 comment lines, 7 distinct targets; 0 failed, 283 need migration "
        "(283 parse: UnknownAttributeError)",
        f"{AS_V08}: 1 record (1 auto_scheduler), 1 comment line, 1 distinct target; 0 failed, 1 need migration "
        "(1 parse: UnknownAttributeError)",
        f"{LLVM}: 35 records (35 autotvm-v0.2), 2 comment lines, 1 distinct target; 0 failed",
        "total: 350 records (349 autotvm-v0.2, 1 auto_scheduler), 3 comment lines, 9 distinct "
        "targets; 0 failed, 284 need migration (284 parse: UnknownAttributeError)",
    ]
    status, out_quiet, err = run("logs", "check", "--quiet", str(log), AS_V08, LLVM)
    assert (status, out_quiet, err) == (3, out, "")


def test_check_exit_status_says_needs_migration(run: Run, tmp_path: Path) -> None:
    log, _ = later_arm_log(tmp_path)
    status, out, err = run("logs", "check", "-q", str(log))
    assert (status, err) == (3, "")
    assert "0 failed, 283 need migration" in out
    migrated = tmp_path / "migrated.log"
    assert run("logs", "migrate", "-q", str(log), "-o", str(migrated))[0] == 0
    assert run("logs", "check", str(migrated))[:3:2] == (0, "")


def test_check_reads_stdin(run: Run) -> None:
    line = '{"input": ["llvm -mcpu=skylake", "dense", [], {}], ' + CONFIG_TEXT + ', "result": [[1.0], 0, 1, 1]}\n'
    status, out, err = run("logs", "check", "-", stdin=("# x\n" + line).encode())
    assert (status, err) == (0, "")
    assert out == "<stdin>: 1 record (1 autotvm-v0.2), 1 comment line, 1 distinct target; 0 failed\n"


def test_check_reports_unknown_lines_and_goes_on(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "t.log"
    record = b'{"input": ["cuda -arch=80", "t", [], {}], ' + CONFIG_TEXT.encode() + b', "result": [[1.0], 0, 1, 1]}'
    path.write_bytes(b'{"kind": "llvm"}\n' + record + b"\nnot json\n\xff\n")
    status, out, err = run("logs", "check", str(path))
    assert status == 1
    assert err.splitlines() == [
        f"{path}:1: record: UnknownRecord: a JSON object with neither 'input' nor 'i' and 'v'",
        f"{path}:2: target: resolve: CanonicalizationError: CUDA target gets an invalid CUDA arch: -arch=80",
        "  cuda -arch=80",
        "             ^^",
        f"{path}:3: record: UnknownRecord: not JSON: Expecting value: line 1 column 1 (char 0)",
        f"{path}:4: record: UnknownRecord: not UTF-8 (invalid start byte at byte 0)",
    ]
    assert out == (
        f"{path}: 4 records (3 unknown, 1 autotvm-v0.2), 0 comment lines, 1 distinct target; 4 failed "
        "(3 record: UnknownRecord, 1 resolve: CanonicalizationError)\n"
    )


def good(n: int, target: str = "llvm -mcpu=skylake") -> str:
    """An AutoTVM v0.2 record as TVM v0.19 wrote it (TVM's loader reads it)."""
    return json.dumps(
        {
            "input": [target, "dense", [n], {}],
            "config": {**CONFIG, "index": n},
            "result": [[0.1], 0, 1, 1],
            "version": 0.2,
            "tvm_version": "0.19.0",
        }
    )


AS_LINE = records(AS_MATMUL)[1].text  # an auto_scheduler record
BLANK_AUTOTVM = (
    "record: BlankLine: a blank line: AutoTVM's load_from_file (TVM v0.7 - v0.19) raises on it "
    "(json.loads: JSONDecodeError), and the whole log fails to load"
)
BLANK_AUTO_SCHEDULER = (
    "record: BlankLine: a blank line: auto_scheduler's RecordReader (TVM v0.19) fails on it, and the whole log "
    "fails to load (a line starting with a space or '#' is a comment to it)"
)


AS_FAILS = "record: LoadError: auto_scheduler's RecordReader (TVM v0.19) fails on the line ("
AS_END = "), and the whole log fails to load"


def load_error(error: str, where: str) -> str:
    return (
        f"record: LoadError: AutoTVM's loader (TVM v0.7 - v0.19) raises {error} here (load_from_file): {where}; "
        "the whole log fails to load"
    )


@pytest.mark.parametrize(
    ("data", "problems", "summary"),
    [
        # A blank line at the end, in the middle, first; white space only; after "\r\n".
        (good(1) + "\n\n", [(2, BLANK_AUTOTVM)], "2 records (1 autotvm-v0.2, 1 blank), 0 comment lines"),
        (good(1) + "\n\n" + good(3) + "\n", [(2, BLANK_AUTOTVM)], "3 records (2 autotvm-v0.2, 1 blank)"),
        ("\n" + good(2) + "\n", [(1, BLANK_AUTOTVM)], "2 records (1 autotvm-v0.2, 1 blank)"),
        (
            good(1) + "\n \t \n\n",
            [(2, BLANK_AUTOTVM + " [2 records: lines 2, 3]")],
            "3 records (2 blank, 1 autotvm-v0.2)",
        ),
        (good(1) + "\r\n\r\n", [(2, BLANK_AUTOTVM)], "2 records (1 autotvm-v0.2, 1 blank)"),
        (good(1) + "\n   ", [(2, BLANK_AUTOTVM)], "2 records (1 autotvm-v0.2, 1 blank)"),
        # Lines starting with a space before the first record wait for it: AutoTVM's log, then.
        (" \n" + good(2) + "\n", [(1, BLANK_AUTOTVM)], "2 records (1 autotvm-v0.2, 1 blank)"),
        # Records TVM cannot decode.
        (
            good(1).replace('"config"', '"konfig"') + "\n",
            [(1, load_error("KeyError", "the record has no 'config'"))],
            "1 record (1 autotvm-v0.2)",
        ),
        (
            good(1).replace('"result"', '"r"') + "\n",
            [(1, load_error("KeyError", "the record has no 'result'"))],
            "1 record (1 autotvm-v0.2)",
        ),
        (
            good(1).replace("[[0.1], 0, 1, 1]", "[[0.1], 0, 1]") + "\n",
            [(1, load_error("TypeError", "'result' has 3 members, not the 4 of a MeasureResult"))],
            "1 record (1 autotvm-v0.2)",
        ),
        (
            good(1).replace("[[0.1], 0, 1, 1]", '[["0.1"], 0, 1, 1]') + "\n",
            [(1, load_error("TypeError", "the costs hold a string: np.mean cannot add strings"))],
            "1 record (1 autotvm-v0.2)",
        ),
        (
            good(1).replace('"entity": []', '"entity": [["x", "zz", 1]]') + "\n",
            [(1, load_error("RuntimeError", "config 'entity' has the knob type 'zz': Invalid config knob type"))],
            "1 record (1 autotvm-v0.2)",
        ),
        (
            good(1).replace("[1]", '[{"a": 1}]') + "\n",
            [
                (
                    1,
                    "record: LoadError: AutoTVM's loader (TVM v0.7 - v0.19) raises RuntimeError here "
                    "(ApplyHistoryBest.load): the task arguments (input[2]) hold a JSON object: Do not support type "
                    "dict; the whole log fails to load",
                )
            ],
            "1 record (1 autotvm-v0.2)",
        ),
        (
            "\ufeff" + good(1) + "\n",
            [(1, load_error("JSONDecodeError", "a byte order mark starts the line, and json.loads refuses it"))],
            "1 record (1 autotvm-v0.2)",
        ),
        # TVM never read version and tvm_version; records of format v0.1 it skipped.
        (good(1).replace(', "version": 0.2, "tvm_version": "0.19.0"', "") + "\n", [], "1 record (1 autotvm-v0.2)"),
        ('{"input": ["llvm", "dense", [], {}], "v": 0.1}\n', [], "1 record (1 autotvm-v0.1)"),
        # An auto_scheduler log: a line starting with a space is a comment, whatever follows.
        (" \n " + AS_LINE + "\n garbage\n" + AS_LINE + "\n", [], "1 record (1 auto_scheduler), 3 comment lines"),
        (AS_LINE + "\n\t\n", [(2, BLANK_AUTO_SCHEDULER)], "2 records (1 auto_scheduler, 1 blank)"),
        # auto_scheduler's dmlc JSON reader: a line without "v" or "r", text after the record are read;
        # a host without the layout rewrite option after it, a \\u escape are not; a line without "i"
        # takes the input of the one before it, and fails with none before it (tests/data/oracle/logs-dmlc.jsonl).
        (AS_LINE.replace(', "v": "v0.3"', "") + " x\n", [], "1 record (1 auto_scheduler)"),
        (AS_LINE + "\n" + AS_LINE.split(', "r"')[0] + "}\n", [], "2 records (2 auto_scheduler)"),
        (AS_LINE + '\n{"r": [[0.1], 0, 0.5, 1]}\n', [], "2 records (2 auto_scheduler)"),
        (
            AS_LINE + "\n" + AS_LINE.replace("0, 0, 0]]", '0, 0, 0], "llvm"]') + "\n",
            [
                (
                    2,
                    AS_FAILS
                    + "the search task has a host but no layout rewrite option after it (at column 114)"
                    + AS_END,
                )
            ],
            "2 records (2 auto_scheduler)",
        ),
        (
            AS_LINE.replace("llvm -keys", "llvm\\u0020-keys") + "\n",
            [
                (
                    1,
                    AS_FAILS
                    + 'a string with an escape dmlc does not know (only \\" \\\\ \\n \\r \\t), or unterminated '
                    "(at column 61)" + AS_END,
                )
            ],
            "1 record (1 auto_scheduler)",
        ),
        (
            '{"r": [[0.1], 0, 0.5, 1]}\n' + AS_LINE + "\n",
            [(1, "record: UnknownRecord: a JSON object with neither 'input' nor 'i' and 'v'")],
            "2 records (1 auto_scheduler, 1 unknown)",
        ),
    ],
)
def test_check_reports_lines_tvms_loader_failed_on(
    run: Run, tmp_path: Path, data: str, problems: list[tuple[int, str]], summary: str
) -> None:
    path = tmp_path / "t.log"
    path.write_bytes(data.encode())
    status, out, err = run("logs", "check", str(path))
    assert status == (1 if problems else 0)
    assert err.splitlines() == [f"{path}:{line}: {text}" for line, text in problems]
    assert out.startswith(f"{path}: {summary}")
    # a problem of several records is reported once, with their count
    failed = sum(int(m.group(1)) if (m := re.search(r" \[(\d+) records", text)) else 1 for _, text in problems)
    assert f"; {failed} failed" in out


def test_check_json_of_a_blank_line(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "t.log"
    path.write_text(good(1) + "\n\n")
    status, out = check_json(run, str(path))
    assert status == 1
    assert out[0] == {
        "record": "problem",
        "file": str(path),
        "line": 2,
        "rule": "record",
        "field": None,
        "error": "BlankLine",
        "message": BLANK_AUTOTVM.removeprefix("record: BlankLine: "),
        "spec": None,
        "span": None,
        "era": None,
        "needs_migration": False,
    }
    assert (out[1]["records"], out[1]["comments"], out[1]["formats"], out[1]["failed"]) == (
        2,
        0,
        {"autotvm-v0.2": 1, "blank": 1},
        1,
    )


def test_check_lines_wait_for_the_first_record_only_so_long(monkeypatch: pytest.MonkeyPatch) -> None:
    from targetlang.logs import _loading as loading

    monkeypatch.setattr(loading, "_MAX_WAITING", 3)
    lines = [" \n"] * 4 + [AS_LINE + "\n", " \n"]
    checker, summary = Checker(TargetReader()), CheckSummary("t.log")
    found = [problem.line for line in read_lines(lines, "t.log") for problem in checker.check(line, summary)]
    found += [problem.line for problem in checker.finish(summary)]
    # The first three waited, then were taken as AutoTVM's (blank lines); the log stays AutoTVM's.
    assert found == [1, 2, 3, 4, 6]
    assert summary.lines == 6


def test_check_round_trip_mismatch_is_reported(run: Run, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    real = targetlang.Target.__str__
    monkeypatch.setattr(targetlang.Target, "__str__", lambda self: real(self) + " ")
    path = tmp_path / "t.log"
    path.write_text('{"input": ["llvm -model=a", "t", [], {}], ' + CONFIG_TEXT + ', "result": [[1.0], 0, 1, 1]}\n')
    status, out = check_json(run, str(path))
    assert status == 1
    assert (out[0]["rule"], out[0]["error"], out[0]["message"]) == (
        "round-trip",
        "RoundTripMismatch",
        "str() gives 'llvm -model=a ', not the text as written",
    )


def test_check_unreadable_file_is_reported_and_the_rest_checked(run: Run, logs_dir: Path) -> None:
    status, out, err = run("logs", "check", "no-such.log", LLVM)
    assert status == 1
    assert err == "error: cannot read no-such.log: No such file or directory\n"
    assert out.splitlines()[0].startswith(f"{LLVM}: 35 records")


def test_check_caches_each_distinct_target(logs_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, Any, Any]] = []
    real = targetlang.parse

    def counting(spec: Any, **kwargs: Any) -> targetlang.Target:
        calls.append((spec, kwargs.get("registry"), kwargs.get("era")))
        return real(spec, **kwargs)

    monkeypatch.setattr(targetlang, "parse", counting)
    monkeypatch.setattr(checking, "parse", counting)
    assert main(["logs", "check", "--json", ARM, VTA, AS_V08]) == 3
    # 12 distinct specs read once each in their era, and the JSON text that migration makes of
    # the one that fails (to say that migration fixes it); the canonical forms of those that
    # read are read back with no era given, and the failing one once more with v0.8's kinds.
    reads = [call for call in calls if call[2] is not None]
    assert len(reads) == len(set(reads)) == 13
    assert reads[-1][0] == '{"kind": "llvm", "keys": ["cpu"]}'
    assert len(calls) == 26


def test_check_holds_a_bounded_cache_and_still_counts_every_distinct_target(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(targets_module, "_CACHE_SIZE", 8)
    line = (
        '{{"input": ["llvm -mcpu=cpu{}", "dense", [], {{}}], '
        + CONFIG_TEXT.replace("{", "{{").replace("}", "}}")
        + ', "result": [[1.0], 0, 1, 1], "version": 0.2, "tvm_version": "{}"}}\n'
    )
    # 50 distinct targets, each written by two TVMs of one era, twice over.
    data = "".join(line.format(i, v) for _ in range(2) for i in range(50) for v in ("0.19.0", "0.20.0"))
    reader = TargetReader()
    checker, summary = Checker(reader), CheckSummary("tune.log")
    for record in read_lines(io.BytesIO(data.encode()), "tune.log"):
        assert checker.check(record, summary) == []
    assert summary.to_json()["distinct_targets"] == 50
    assert 0 < len(reader._cache) <= 8 and 0 < len(reader._by_version) <= 8
    assert reader.read("llvm -mcpu=cpu0", "0.19.0") == reader.read("llvm -mcpu=cpu0", "0.20.0")


# ------------------------------------------------------------------ eras


def test_records_are_read_in_the_era_of_their_tvm_version() -> None:
    reader = TargetReader()
    assert [reader.era(v) for v in (None, "0.10.0", "0.19.0", "0.9.0", "0.8.dev0")] == [
        "0.22",
        "0.22",
        "0.22",
        "0.8",
        "0.8",
    ]
    assert [reader.era(v) for v in ("0.7.dev0", "0.6.0", "0.5")] == ["0.7", "0.6", "0.6"]
    reading = reader.read("llvm -keys=cpu -link-params=0", "0.8.0")
    assert reading.ok and reading.target is not None and reading.era == "0.8"
    assert not reader.read("llvm -keys=cpu -link-params=0", "0.10.0").ok
    assert TargetReader(assume="0.8").era(None) == "0.8"
    assert TargetReader(assume="0.8").era("0.19.0") == "0.22"


# ------------------------------------------------------------------ stats


def test_stats_of_the_vta_log(run: Run, logs_dir: Path) -> None:
    status, out, err = run("logs", "stats", VTA)
    assert (status, err) == (0, "")
    e = ERA_07.ljust(3)
    assert out.splitlines() == [
        "106 records in 1 file (106 autotvm-v0.2), 14 comment lines; 4 distinct targets",
        f"records  kind     model                          keys         tvm       {'era'.ljust(len(e))}  check  target",
        f"     67  ext_dev  pynq_1x16_i8w8a32_15_15_18_17  cpu,vta      0.7.dev0  {e}  ok     "
        "ext_dev -device=vta -keys=cpu -model=pynq_1x16_i8w8a32_15_15_18_17",
        f"     33  ext_dev  pynq_4x8_i8w8a32_15_16_16_18   cpu,vta      0.7.dev0  {e}  ok     "
        "ext_dev -device=vta -keys=cpu -model=pynq_4x8_i8w8a32_15_16_16_18",
        f"      4  llvm     pynq                           arm_cpu,cpu  0.7.dev0  {e}  ok     "
        "llvm -device=arm_cpu -model=pynq -mtriple=armv7a-linux-eabi -mattr=+neon",
        f"      2  llvm     pynq                           arm_cpu,cpu  0.7.dev0  {e}  ok     "
        "llvm -device=arm_cpu -model=pynq -mtriple=armv7a-linux-eabi",
        "kinds: ext_dev 100, llvm 6",
        "keys: cpu 106, vta 100, arm_cpu 6",
        "models: pynq_1x16_i8w8a32_15_15_18_17 67, pynq_4x8_i8w8a32_15_16_16_18 33, pynq 6",
        f"eras: {ERA_07} 106",
        "tvm versions: 0.7.dev0 106",
    ]


def test_stats_json_over_all_logs(run: Run, logs_dir: Path) -> None:
    status, out, err = run("logs", "stats", "--json", *ALL_LOGS)
    assert (status, err) == (0, "")
    rows = [json.loads(line) for line in out.splitlines()]
    summary = rows.pop()
    assert summary["records"] == 527 and summary["comments"] == 22 and summary["files"] == 8
    assert summary["distinct_targets"] == len(rows) == 16
    assert summary["kinds"] == {"llvm": 382, "ext_dev": 100, "metal": 22, "?": 1}
    assert sum(row["records"] for row in rows) == 505  # no host: auto_scheduler's are all ""
    arm = {row["spec"]: row for row in rows if row["formats"] == {"autotvm-v0.1": row["records"]}}
    pynq = arm["llvm -device=arm_cpu -model=pynq -target=armv7a-linux-eabi"]
    # AutoTVM's log format v0.1 was written by TVM v0.6 or older, which read -target itself.
    assert (pynq["kind"], pynq["model"], pynq["keys"], pynq["check"], pynq["read_after_rewrite"]) == (
        "llvm",
        "pynq",
        ["arm_cpu", "cpu"],
        "ok",
        False,  # read as written, without AutoTVM's textual rewrite
    )
    assert pynq["eras"] == {"0.6": 58}
    meta = next(row for row in rows if row["kind"] == "metal")
    assert (meta["records"], meta["keys"], meta["check"]) == (22, ["metal", "gpu"], "ok")


# ------------------------------------------------------------------ match


def match_json(run: Run, *argv: str) -> tuple[int, list[dict[str, Any]], dict[str, Any]]:
    status, out, err = run("logs", "match", "--json", *argv)
    assert err == ""
    rows = [json.loads(line) for line in out.splitlines()]
    return status, rows[:-1], rows[-1]


def arm_as_v02(directory: Path) -> Path:
    """The arm log with its records in AutoTVM's log format v0.2, as TVM v0.7 would have written
    them (every other line, and so every line number, as in the arm log)."""
    lines = []
    for n, line in enumerate((LOGS / ARM).read_text().splitlines(), 1):
        if line.startswith("{"):
            old = json.loads(line)
            config = {"index": n, "code_hash": None, "entity": old["i"][5]["e"]}
            record = {
                "input": old["i"][:4],
                "config": config,
                "result": old["r"],
                "version": 0.2,
                "tvm_version": "0.7.0",
            }
            line = json.dumps(record)
        lines.append(line)
    log = directory / "arm_cpu_v0.2.log"
    log.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return log


def test_match_arm_log_by_model_then_by_key(run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    arm_as_v02(tmp_path)
    monkeypatch.chdir(tmp_path)
    log = "arm_cpu_v0.2.log"
    status, out, err = run(
        "logs", "match", log, "--target", "llvm -device=arm_cpu -model=rk3399 -mtriple=aarch64-linux-gnu"
    )
    assert (status, err) == (0, "")
    assert out.splitlines()[:5] == [
        "target: llvm -device=arm_cpu -model=rk3399 -mtriple=aarch64-linux-gnu",
        "  model 'rk3399', keys arm_cpu, cpu",
        "314 AutoTVM records in 1 file, 70 workloads: 70 found (58 by model 'rk3399', 12 by key 'arm_cpu'), "
        "0 not found",
        "records  picked  target                                                                  matches",
        "     58      58  llvm -device=arm_cpu -model=rk3399 -target=aarch64-linux-gnu            by model 'rk3399'",
    ]
    status, rows, summary = match_json(run, log, "--target", "llvm -device=arm_cpu -model=rk3399")
    assert summary["statuses"] == {"picked": 70, "beaten": 244}
    beaten = next(row for row in rows if row["status"] == "beaten")
    assert (
        beaten["line"] == 3
        and beaten["reason"] == "matches by key 'arm_cpu', but line 107 is picked (by model 'rk3399')"
    )
    assert beaten["workload"][0] == "topi_nn_conv2d"


def test_match_says_which_field_misses(run: Run, tmp_path: Path) -> None:
    log = str(arm_as_v02(tmp_path))
    status, rows, summary = match_json(run, log, "--target", "cuda -model=rk3399")
    assert status == 0
    assert (summary["found"], summary["not_found"], summary["found_by"]) == (58, 12, {"by model 'rk3399'": 58})
    missed = next(row for row in rows if row["status"] == "missed")
    assert missed["reason"] == "model 'pynq' is not 'rk3399', and no key in common (record keys: arm_cpu, cpu)"
    status, rows, summary = match_json(run, log, "--target", "cuda")
    assert status == 1 and summary["found"] == 0
    assert {row["reason"] for row in rows} == {
        "the target has no model, and no key in common (record keys: arm_cpu, cpu)"
    }


def test_match_skips_every_record_of_log_format_v01(run: Run, logs_dir: Path) -> None:
    # TVM v0.7 - v0.19 load no record of the arm log: "AutoTVM log version 0.1 is no longer supported."
    status, out, err = run("logs", "match", ARM, "--target", "llvm -device=arm_cpu -model=rk3399")
    assert (status, err) == (1, "")
    assert out.splitlines()[2:6] == [
        "314 records of AutoTVM's log format v0.1 skipped: TVM v0.7 - v0.19 load none of them "
        '("AutoTVM log version 0.1 is no longer supported."); TVM v0.6 and older read them',
        "314 AutoTVM records in 1 file, 70 workloads: 0 found, 70 not found",
        "records  picked  target                                                                  matches",
        "     58       0  llvm -device=arm_cpu -model=pynq -target=armv7a-linux-eabi              "
        "no: log format v0.1, which TVM v0.7 and later skip",
    ]
    status, rows, summary = match_json(run, ARM, "--target", "llvm -device=arm_cpu -model=rk3399")
    assert (summary["statuses"], summary["v01_records"], summary["loads"]) == ({"skipped": 314}, 314, True)
    assert rows[0]["reason"] == 'AutoTVM log format v0.1 ("v": 0.1): TVM v0.7 and later skip it'
    assert rows[0]["workload"][0] == "topi_nn_conv2d"


def write_log(path: Path, entries: list[tuple[str, str, float, int]]) -> Path:
    """An AutoTVM v0.2 log of (target, task, cost, error_no) records."""
    path.write_text(
        "".join(
            json.dumps(
                {
                    "input": [target, task, [["TENSOR", [1, 3], "float32"]], {}],
                    "config": {"index": n, "code_hash": None, "entity": []},
                    "result": [[cost], error_no, 1.0, 1.0],
                    "version": 0.2,
                    "tvm_version": "0.19.0",
                }
            )
            + "\n"
            for n, (target, task, cost, error_no) in enumerate(entries)
        )
    )
    return path


def test_match_picks_the_fastest_and_skips_errors(run: Run, tmp_path: Path) -> None:
    log = write_log(
        tmp_path / "t.log",
        [
            ("cuda -model=a", "dense", 3.0, 0),
            ("cuda -model=b", "dense", 1.0, 0),  # faster, but another model: only reachable by key
            ("cuda -model=a", "dense", 2.0, 0),  # the fastest of model a
            ("cuda -model=a", "dense", 0.5, 4),  # an error: not loaded
            ("cuda -model=a", "conv", 2.0, 0),
            ("cuda -model=a", "conv", 2.0, 0),  # as fast, later: the first stays
            ("llvm -mcpu=x", "conv", 0.1, 0),
            ("cuda -target=x", "conv", 0.1, 0),  # rewritten to -mtriple, which cuda does not have
        ],
    )
    status, rows, summary = match_json(run, str(log), "--target", "cuda -model=a")
    assert (status, summary["loads"], summary["failures"]) == (1, False, 1)  # line 8 makes TVM's load fail
    assert [(row["line"], row["status"]) for row in rows] == [
        (1, "beaten"),
        (2, "beaten"),
        (3, "picked"),
        (4, "skipped"),
        (5, "picked"),
        (6, "beaten"),
        (7, "missed"),
        (8, "fails"),
    ]
    reasons = [row["reason"] for row in rows]
    assert reasons[0] == "matches by model 'a', but line 3 is picked (by model 'a', faster: 2 s against 3 s)"
    assert reasons[1] == "matches by key 'cuda', but line 3 is picked (by model 'a')"
    assert reasons[3] == "measured with error_no 4: the dispatcher does not load it"
    assert reasons[5] == "matches by model 'a', but line 5 is picked (by model 'a', as fast and earlier)"
    assert reasons[6] == "the record has no model, and no key in common (record keys: cpu)"
    assert reasons[7].startswith(
        "AutoTVM's loader (TVM v0.7 - v0.19) raises ValueError here (load_from_file): its target does not read "
        "(UnknownAttributeError: kind 'cuda' has no attribute 'mtriple'"
    )
    # Without a model of its own, the query goes by key: model b's faster record wins.
    status, rows, summary = match_json(run, str(log), "--target", "cuda")
    assert [row["line"] for row in rows if row["status"] == "picked"] == [2, 5]
    assert summary["found_by"] == {"by key 'cuda'": 2}


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_match_of_a_log_given_twice_picks_its_first_copy(run: Run, tmp_path: Path, jobs: str) -> None:
    log = write_log(tmp_path / "t.log", [("llvm", "dense", 0.5, 0), ("llvm", "dense", 0.2, 0)])
    status, rows, summary = match_json(run, "-j", jobs, str(log), str(log), "--target", "llvm")
    assert (status, summary["statuses"]) == (0, {"beaten": 3, "picked": 1})
    statuses = [(row["line"], row["status"]) for row in rows]
    assert statuses == [(1, "beaten"), (2, "picked"), (1, "beaten"), (2, "beaten")]
    assert rows[3]["reason"] == "matches by key 'cpu', but line 2 is picked (by key 'cpu', as fast and earlier)"


def test_match_verbose_lists_every_record(run: Run, tmp_path: Path) -> None:
    log = write_log(tmp_path / "t.log", [("llvm -model=m", "dense", 1.0, 0), ("cuda", "dense", 1.0, 0)])
    status, out, err = run("logs", "match", "-v", str(log), "--target", "llvm -mcpu=skylake")
    assert (status, err) == (0, "")
    assert out.splitlines() == [
        f"{log}:1: picked: by key 'cpu'",
        f"{log}:2: missed: the target has no model, and no key in common (record keys: cuda, gpu)",
        "target: llvm -mcpu=skylake",
        "  model 'unknown', keys cpu",
        "2 AutoTVM records in 1 file, 1 workload: 1 found (1 by key 'cpu'), 0 not found",
        "records  picked  target         matches",
        "      1       1  llvm -model=m  by key 'cpu'",
        "      1       0  cuda           no: the target has no model, and no key in common (record keys: cuda, gpu)",
    ]


def test_match_fails_on_other_tuners_lines_and_pickle_rows(run: Run, logs_dir: Path, tmp_path: Path) -> None:
    # AutoTVM's load_from_file reads JSON records of its own: anything else makes it raise.
    pickle_log = tmp_path / "p.log"
    pickle_log.write_text("llvm -model=a\tgASV\tgASV\tgASV\t0.2\t0.19.0\n")
    status, rows, summary = match_json(run, AS_RESNET, MS_RECORDS, str(pickle_log), "--target", "llvm -model=a")
    assert status == 1
    assert (summary["loads"], summary["failures"], summary["autotvm_records"]) == (False, 49, 1)
    assert summary["other_records"] == {"auto_scheduler": 26, "meta-schedule-record": 22}
    assert {row["status"] for row in rows} == {"fails"}
    assert rows[0]["reason"] == (
        "AutoTVM's loader (TVM v0.7 - v0.19) raises KeyError here (load_from_file): the record has no 'input'"
    )
    assert rows[26]["reason"].startswith("AutoTVM's loader (TVM v0.7 - v0.19) raises TypeError here (load_from_file)")
    assert rows[-1]["reason"].startswith(
        "AutoTVM's loader (TVM v0.7 - v0.19) raises JSONDecodeError here (load_from_file): a pickle row: "
        "the loader reads only JSON lines"
    )


def test_error_match_with_a_bad_target(run: Run, logs_dir: Path) -> None:
    status, out, err = run("logs", "match", LLVM, "--target", "llvm -mcpux=a")
    assert (status, out) == (1, "")
    assert err.startswith("error: kind 'llvm' has no attribute 'mcpux'")


# ------------------------------------------------------------------ command line


@pytest.mark.parametrize(
    "argv",
    [
        ["logs"],
        ["logs", "check"],
        ["logs", "frob", "x"],
        ["logs", "match", "x"],
        ["logs", "check", "--tvm-version", "new", "x"],
    ],
)
def test_logs_usage_errors_exit_2(run: Run, argv: list[str]) -> None:
    status, out, err = run(*argv)
    assert (status, out) == (2, "")
    assert err.startswith("usage: targetlang logs")


@pytest.mark.parametrize("command", ["check", "stats", "match", "migrate"])
def test_logs_help_examples_are_real(run: Run, command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, err = run("logs", command, "--help")
    assert (status, err) == (0, "")
    steps = transcript(help_examples(out))
    monkeypatch.chdir(tmp_path)
    replay(steps, run, f"help of logs {command}")


def test_docs_examples_are_real(run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(LOGS, tmp_path / "logs")
    monkeypatch.chdir(tmp_path / "logs")
    replay(transcript(console_lines(DOCS)), run, "docs/logs.md", [DOCS])


def test_progress_bar_only_on_a_terminal(run: Run, monkeypatch: pytest.MonkeyPatch, logs_dir: Path) -> None:
    bars: list[dict[str, Any]] = []

    class Bar:
        def __init__(self, **kwargs: Any) -> None:
            self.state = {**kwargs, "done": 0, "closed": False}
            bars.append(self.state)

        def update(self, n: int) -> None:
            self.state["done"] += n

        def write(self, text: str, file: Any) -> None:
            print(text, file=file)

        def close(self) -> None:
            self.state["closed"] = True

    monkeypatch.setitem(sys.modules, "tqdm", types.SimpleNamespace(tqdm=Bar))
    assert run("logs", "stats", LLVM)[0] == 0
    assert bars == []  # stderr is not a terminal
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    assert run("logs", "check", AS_V08, LLVM)[0] == 3
    size = (LOGS / LLVM).stat().st_size
    assert [(b["desc"], b["total"], b["done"], b["closed"]) for b in bars][1] == (LLVM, size, size, True)


def test_docs_python_examples_are_real(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(LOGS)
    blocks = DOCS.read_text(encoding="utf-8").split("```python\n")[1:]
    assert blocks, "no Python examples in docs/logs.md"
    for block in blocks:
        test = doctest.DocTestParser().get_doctest(block.split("```")[0], {}, "docs/logs.md", str(DOCS), 0)
        runner = doctest.DocTestRunner()
        runner.run(test)
        assert runner.failures == 0


def test_package_docstring_examples_are_real() -> None:
    import targetlang.logs

    assert doctest.testmod(targetlang.logs).failed == 0


def test_long_fractions_are_not_long_integers() -> None:
    # Python writes 0.0013073951666666666 (19 fractional digits); -12345678901234567890 is an
    # integer beyond 64 bits, which only json reads exactly.
    line = '{"input": ["llvm", "d", [-12345678901234567890], {}], "result": [[0.0013073951666666666]], "version": 0.2}'
    record = parse_line(line)
    assert record.value == json.loads(line)
    assert record.value["input"][2] == [-12345678901234567890]


@pytest.mark.parametrize("name", ["auto-scheduler", "dmlc"])
def test_auto_scheduler_lines_json_loads_read_are_seen_at_once_as_dmlc_reads_them(name: str) -> None:
    # auto_scheduler_line takes a line json.loads read the fast way (its decoded value): it must say
    # what dmlc's reader, followed character by character, says of every line of the goldens.
    from targetlang.logs._scheduler_reader import auto_scheduler_line

    texts = [row["log"] for row in read_jsonl("oracle", f"logs-{name}.jsonl") if "log" in row]
    texts += [(LOGS / path).read_text() for path in (AS_MATMUL, AS_RESNET, AS_V08)]
    seen = 0
    for text in texts:
        for record in read_lines(io.BytesIO(text.encode()), "t.log"):
            if record.format is not Format.AUTO_SCHEDULER:
                continue
            fast, slow = auto_scheduler_line(record.text, record.value), auto_scheduler_line(record.text)
            assert (bool(fast.fails), fast.all_cost, fast.input) == (bool(slow.fails), slow.all_cost, slow.input)
            assert [(f.name, f.start, f.end, f.spec) for f in slow.fields] == [
                (f.name, f.start, f.end, f.spec) for f in record.fields
            ] or slow.fails
            seen += 1
    assert seen > 100


_BY_RELEASE = (
    '{"input": ["llvm -link-params=0", "dense", [], {}], "config": {"index": 1, "code_hash": null, "entity": []}, '
    '"result": [[0.1], 0, 1, 1], "version": 0.2, "tvm_version": "VERSION"}\n'
)


@pytest.mark.parametrize("order", [("0.8.0", "0.10.0"), ("0.10.0", "0.8.0")])
def test_stats_check_column_is_what_check_says_in_any_file_order(
    run: Run, tmp_path: Path, order: tuple[str, str]
) -> None:
    # v0.8 read -link-params, v0.10 no longer: one text, two readings, whatever comes first
    paths = []
    for version in order:
        path = tmp_path / f"{version}.log"
        path.write_text(_BY_RELEASE.replace("VERSION", version))
        paths.append(str(path))
    status, out, _ = run("logs", "stats", *paths)
    rows = {line.split()[4]: " ".join(line.split()[6:8]) for line in out.splitlines()[2:4]}
    # as check says: v0.10 wrote a -link-params=0 it no longer read, which migration drops
    assert rows == {"0.8.0": "ok llvm", "0.10.0": "needs migration"}
    status, out, err = run("logs", "check", *paths)
    assert status == 3 and err.count("UnknownAttributeError") == 1 and "0.10.0.log:1" in err


# One line of each format, as its tuner wrote it, and what the row of FORMATS says of it.
FORMAT_ROWS = [
    (
        '{"input": ["llvm", "dense", [], {}], "config": {}, "result": [[0.1], 0, 1, 1], "version": 0.2, '
        '"tvm_version": "0.9.0"}',
        Format.AUTOTVM_V02,
        "autotvm",
        "0.9.0",
    ),
    (
        '{"i": ["cuda -model=tx2", "dense", [], {}, ["dense"], {}], "r": [[0.1], 0, 1, 1], "v": 0.1}',
        Format.AUTOTVM_V01,
        "autotvm",
        "0.6",
    ),
    ("llvm\tA\tB\tC", Format.AUTOTVM_PICKLE, "autotvm", "0.6"),
    ("llvm\tA\tB\tC\t0.2\t0.8.0", Format.AUTOTVM_PICKLE, "autotvm", "0.8.0"),
    (
        '{"i": [["key", "llvm", [4], "", 0], [[], []]], "r": [[0.1], 0, 1, 1], "v": "v0.6"}',
        Format.AUTO_SCHEDULER,
        "auto_scheduler",
        None,
    ),
    ('[0,[[],[1.0],{"kind":"llvm","keys":["cpu"]},[]]]', Format.META_SCHEDULE_RECORD, "meta_schedule", None),
    ('["0x1","AAAA"]', Format.META_SCHEDULE_WORKLOAD, "meta_schedule", None),
]


@pytest.mark.parametrize(("line", "fmt", "family", "writer"), FORMAT_ROWS)
def test_format_rows(line: str, fmt: Format, family: str, writer: str | None) -> None:
    from targetlang.logs import writer_version
    from targetlang.logs.formats import FORMATS, ROWS

    record = parse_line(line)
    assert record.format is fmt
    assert ROWS[fmt].family == family
    assert fmt.is_autotvm == (family == "autotvm")
    assert writer_version(record) == writer
    assert {row.format for row in FORMATS} == set(Format) - {Format.COMMENT, Format.UNKNOWN}


@pytest.mark.parametrize(
    "argv",
    [["check"], ["stats"], ["match", "--target", "llvm"], ["migrate", "-o", "-"], ["check", "-j", "2"]],
)
def test_a_gzipped_log_reads_as_the_log_it_holds(run: Run, tmp_path: Path, argv: list[str]) -> None:
    plain = tmp_path / "tuning.log"
    plain.write_bytes((LOGS / LLVM).read_bytes())
    log = tmp_path / "tuning.log.gz"
    log.write_bytes(gzip.compress(plain.read_bytes()))
    expected = run("logs", argv[0], str(plain), *argv[1:])
    status, out, err = run("logs", argv[0], str(log), *argv[1:])
    assert (status, out, err) == tuple(
        part.replace(str(plain), str(log)) if isinstance(part, str) else part for part in expected
    )
    assert status == 0 and "35 " in out + err
