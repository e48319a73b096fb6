"""Inputs the fuzz targets (fuzz/) found to break a promise, each kept as a test after the fix."""

from __future__ import annotations

import json

import pytest

from targetlang.logs import LogMigrator, parse_line, splice
from targetlang.logs._spans import REPEATED, walk


def test_carriage_return_inside_a_meta_schedule_target_object() -> None:
    # fuzz_log_line: JSON whitespace may be a carriage return, so a target object's own text can
    # hold one; splicing that text back in must give the line unchanged (it raised ValueError).
    line = '[0,[[],[1.0],{"kind":"llvm",\r"tag":""},null]]'
    record = parse_line(line)
    (field,) = record.fields
    assert splice(record, field, record.text[field.start : field.end]) == line
    assert LogMigrator().migrate(record).text == line


def test_editing_a_json_text_that_gives_a_key_twice() -> None:
    # fuzz_printers: JSON reads the last of two equal keys (as TVM's json.loads did); removing
    # the attribute spliced out one of them and left the other in force.
    import targetlang

    target = targetlang.parse("{kind: webgpu, supports_subgroups: True, host: llvm, supports_subgroups: False}")
    assert target["supports_subgroups"] is False
    removed = target.without_attr("supports_subgroups")
    assert "supports_subgroups" not in removed.attrs
    assert targetlang.parse(str(removed)) == removed
    changed = target.with_attr("supports_subgroups", True)
    assert changed["supports_subgroups"] is True
    assert targetlang.parse(str(changed)) == changed


def test_pickle_row_whose_target_column_becomes_json() -> None:
    # fuzz_log_line: a pickle row with empty pickle columns, migrated to the JSON form, is JSON
    # followed by tabs (JSON white space); it read back as an unknown JSON object, not a pickle row.
    from targetlang.logs import Format

    record = parse_line("c\t\t\t")
    assert record.format is Format.AUTOTVM_PICKLE
    migrated = LogMigrator().migrate(record).text
    assert migrated == '{"kind": "c"}\t\t\t'
    again = parse_line(migrated)
    assert again.format is Format.AUTOTVM_PICKLE
    assert again.target == '{"kind": "c"}'
    assert LogMigrator().migrate(again).text == migrated


def test_a_device_query_leaves_null_attributes_every_printer_skips() -> None:
    # fuzz_printers: -from_device on a CPU kind leaves every attribute not given null (TVM v0.21 -
    # v0.23); the canonical form sorted the null unordered `libs` and raised TypeError.
    import targetlang

    resolved = targetlang.parse("llvm -jit=orcjit -mtriple=riscv64-linux-gnu -from_device=0").resolve()
    assert resolved.attrs["libs"] is None and resolved.attrs["mcpu"] is None
    canonical = resolved.canonical()
    assert canonical == "llvm -keys=cpu -jit=orcjit -mtriple=riscv64-linux-gnu"
    assert targetlang.parse(canonical) == resolved  # a null attribute is an absent one to equality
    assert resolved.resolve() == resolved
    assert resolved.to_json() == {
        "kind": "llvm",
        "keys": ["cpu"],
        "jit": "orcjit",
        "mtriple": "riscv64-linux-gnu",
    }


def test_a_target_in_parentheses_is_found_where_its_text_starts() -> None:
    # fuzz_fix (its seeds: TVM's hexagon pytest plugin): a finding's `before` held the parentheses
    # around the string, while its line and column are where the string itself starts
    from targetlang.fix import fix_source

    source = 'import tvm\nt = tvm.target.Target(\n    ("llvm -mcpu=a53"\n     " -mattr=+neon")\n)\n'
    (finding,) = fix_source(source, path="a.py").findings
    assert (finding.line, finding.column) == (3, 6)
    assert finding.before == '"llvm -mcpu=a53"\n     " -mattr=+neon"'
    assert source.splitlines()[2][5:] == '"llvm -mcpu=a53"'
    assert finding.after == '{"kind": "llvm", "mcpu": "a53", "mattr": ["+neon"]}'


def test_a_long_dict_inside_an_f_string_stays_on_its_line() -> None:
    # fuzz_fix's checks on a hand-made input: a written dict that made its line too long was split
    # one entry a line inside an f-string's braces, a syntax error before Python 3.12 (it stays long)
    from targetlang.fix import fix_source

    source = "import tvm\nx = f'{tvm.target.Target(\"llvm -mcpu=skylake -mattr=+avx2,+fma -libs=cblas\")}'\n"
    result = fix_source(source, path="a.py", line_length=40)
    assert result.text == (
        "import tvm\nx = f'{tvm.target.Target("
        '{"kind": "llvm", "mcpu": "skylake", "mattr": ["+avx2", "+fma"], "libs": ["cblas"]}'
        ")}'\n"
    )
    compile(result.text, "a.py", "exec")


def test_a_fix_that_an_f_string_cannot_hold_is_reported_not_written() -> None:
    # fuzz_fix (at 95f2ab2, after 18,024 runs): a control character in a target inside an
    # f-string's braces was written as an escape, and a helper's dict in double quotes inside
    # f"...": before Python 3.12 an f-string's expression holds no backslash and not its quote
    from targetlang.fix import fix_source

    found = "import tvm\nprint(f\"building for {tvm.target.Target('llvm -model=i\x1c7')}\", flush=True)\n"
    helper = "from tvm.target import cuda\nx = f\"{cuda('a100')}\"\n"
    for source in (found, helper):
        for unsafe in (False, True):
            result = fix_source(source, path="a.py", unsafe=unsafe)
            assert result.text == source
            (finding,) = result.findings
            assert (finding.safety, finding.applied) == ("report-only", False)
            assert "inside an f-string's braces" in finding.message
    assert fix_source(found, path="a.py").findings[0].after == "{'kind': 'llvm', 'model': 'i\\x1c7'}"
    # where the f-string can hold it, the fix is written
    triple = "import tvm\nx = f'''{tvm.target.Target(\"llvm -mcpu=a53\")}'''\n"
    fixed = "import tvm\nx = f'''{tvm.target.Target({\"kind\": \"llvm\", \"mcpu\": \"a53\"})}'''\n"
    assert fix_source(triple, path="a.py").text == fixed


def test_a_module_imported_by_a_dotted_name_reads_no_property() -> None:
    # fuzz_fix (run 6, at c45d9b2): `from tvm.target.max_function_args import cuda` had its module
    # name rewritten as a read of the removed property: `from int(tvm.target.attrs.get(...)) import`
    from targetlang.fix import fix_source

    for source in ("from tvm.target.max_function_args import cuda\n", "import tvm.target.mcpu as m\n"):
        for unsafe in (False, True):
            result = fix_source(source, path="a.py", unsafe=unsafe)
            assert (result.text, result.findings) == (source, ())
    # a read of the same name outside the import is still one
    read = fix_source("import tvm.target.mcpu\nx = tvm.target.mcpu\n", path="a.py", unsafe=True)
    assert read.text == 'import tvm.target.mcpu\nx = str(tvm.target.attrs.get("mcpu", ""))\n'


def test_a_fix_that_would_touch_a_keyword_is_put_in_parentheses() -> None:
    # fuzz_fix (run 7, at ad6ac1b): `return(cuda)("a100")` fixed to a call that starts with a name
    # made LibCST refuse the `return` without a space after it (an error of the whole file)
    from targetlang.fix import fix_source

    helper = fix_source('from tvm.target import cuda\ndef f():\n    return(cuda)("a100")\n', path="a.py")
    expected = 'from tvm.target import Target\ndef f():\n    return(Target({"kind": "cuda", "model": "a100"}))\n'
    assert helper.text == expected
    read = fix_source("def f(target):\n    return(target).arch\n", path="a.py", unsafe=True)
    assert read.text == 'def f(target):\n    return(str((target).attrs.get("arch", "")))\n'
    # where nothing touches it, no parentheses are added
    spaced = fix_source("def f(target):\n    return (target).arch\n", path="a.py", unsafe=True)
    assert spaced.text == 'def f(target):\n    return str((target).attrs.get("arch", ""))\n'


def test_a_run_time_part_that_is_no_operand_is_written_in_parentheses() -> None:
    # fuzz_fix (run 8, at e99e112, after 104,942 runs): f"llvm -mcpu={cp,u}" wrote the tuple as a
    # dict's value, `"mcpu": cp,u`, which LibCST could not read back (a ParserSyntaxError escaped)
    from targetlang.fix import fix_source

    source = 'def f(cp, u, n):\n    return Target(f"llvm -mcpu={cp,u} -num-cores={n}")\n'
    fixed = fix_source(source, path="a.py", unsafe=True).text
    assert fixed == 'def f(cp, u, n):\n    return Target({"kind": "llvm", "mcpu": (cp,u), "num-cores": int(n)})\n'
    either = 'def f(a, b):\n    return Target("llvm -mcpu=%s" % (a if b else "x"))\n'
    chosen = fix_source(either, path="a.py", unsafe=True)
    assert chosen.text == 'def f(a, b):\n    return Target({"kind": "llvm", "mcpu": (a if b else "x")})\n'


# fuzz_log_line: a hand-made line that gives a key twice. json.loads keeps the last value; the
# field's span was the first one's (a number there: splicing the field's own text raised
# ValueError; a string: `logs migrate` rewrote the value no reader sees, and the line read back
# with its target unchanged).
_LEGACY = "llvm -device=arm_cpu -target=aarch64-linux-gnu"
_TWICE = [
    ('{"v": 0.1, "i": [5.5], "i": ["%s", "t"]}', ("i", 0)),
    ('{"v": 0.1, "i": ["cuda"], "i": ["%s", "t"]}', ("i", 0)),
    ('{"r": [[0.1], 0, 0.5, 16], "v": 0.1, "i": [5.5], "v": 0.1, "i": ["%s"]}', ("i", 0)),
    (
        '{"input": ["cuda", "t", [], {}], "input": ["%s", "t", [], {}], "config": {"index": 0, '
        '"code_hash": null, "entity": []}, "result": [[0.1], 0, 1, 1], "version": 0.2}',
        ("input", 0),
    ),
]


@pytest.mark.parametrize(("shape", "path"), _TWICE)
def test_the_span_of_a_key_given_twice_is_the_last_ones(shape: str, path: tuple[str, int]) -> None:
    line = shape.replace("%s", _LEGACY)
    record = parse_line(line)
    (field,) = record.fields
    last = line.rindex(_LEGACY) - 1
    assert (field.start, field.end) == (last, last + len(_LEGACY) + 2)
    assert splice(record, field, line[field.start : field.end]) == line
    assert walk(line, path) == REPEATED
    migrated = LogMigrator().migrate(record).text
    assert migrated != line
    assert json.loads(migrated)[path[0]][0] == json.loads(LogMigrator().migrate(parse_line(migrated)).text)[path[0]][0]
    assert "-target=" not in json.dumps(json.loads(migrated)[path[0]][0])
