"""Record what TVM v0.19's AutoTVM loaders did with logs holding lines they cannot read: blank
and white-space lines at each place in the log, and records missing (or holding malformed)
``input``, ``config`` or ``result``. Goldens for tests/test_oracle_logs.py (see logs_oracle.py).

    /work/shared/tools/tvm-oracle/run.sh --tvm 019 tests/oracle/record_logs_unloadable.py [OUT]
"""

from __future__ import annotations

import sys

from logs_oracle import CONFIG, TARGET, autotvm_record, line, main

# What a line that holds no record may be: empty, or white space of each kind (Python's
# str.isspace, which json.loads does not skip unless it is JSON white space).
BLANKS = ["", " ", "   ", "\t", " \t", "\t ", "\x0b", "\x0c", "\u00a0", "\u3000", " \x0c "]
PLACES = ["only", "first", "middle", "last", "last, no line break"]


def blank_logs() -> list[tuple[str, str]]:
    cases = []
    for blank in BLANKS:
        for place in PLACES:
            for newline in ("\n", "\r\n"):
                if place == "last, no line break" and not blank:
                    continue  # no such line: a log that ends in a line break just ends
                one = line(autotvm_record(1))
                if place == "only":
                    lines, end = [blank], newline
                elif place == "first":
                    lines, end = [blank, line(autotvm_record(2))], newline
                elif place == "middle":
                    lines, end = [one, blank, line(autotvm_record(3))], newline
                elif place == "last":
                    lines, end = [one, blank], newline
                else:
                    lines, end = [one, blank], ""
                cases.append((f"blank line {blank!r} ({place}, {newline!r})", newline.join(lines) + end))
    cases.append(("two blank lines at the end", line(autotvm_record(1)) + "\n\n\n"))
    cases.append(("comment lines only", "# a\n#\n# b\n"))
    cases.append(("a comment after a space", " # not a comment\n" + line(autotvm_record(2)) + "\n"))
    cases.append(("a record after a space", " " + line(autotvm_record(1)) + "\n"))
    cases.append(("a record after a tab", "\t" + line(autotvm_record(1)) + "\n"))
    cases.append(("a record with spaces after it", line(autotvm_record(1)) + "   \n"))
    cases.append(("a byte order mark before the first record", "\ufeff" + line(autotvm_record(1)) + "\n"))
    cases.append(("a byte order mark before a comment", "\ufeff# tuned\n" + line(autotvm_record(2)) + "\n"))
    cases.append(("not JSON", line(autotvm_record(1)) + "\nnot a record\n"))
    return cases


ERROR = [[1000000000.0], 4, 1.5, 1700000000.0]  # how TVM wrote a measurement that failed


def field_logs() -> list[tuple[str, str]]:
    entity = CONFIG["entity"]
    variants: list[tuple[str, dict[str, object]]] = [
        ("no input", {"input": ...}),
        ("no config", {"config": ...}),
        ("no result", {"result": ...}),
        ("no config and no result", {"config": ..., "result": ...}),
        ("no version", {"version": ...}),
        ("no tvm_version", {"tvm_version": ...}),
        ("no version and no tvm_version", {"version": ..., "tvm_version": ...}),
        ("input of 3", {"input": [TARGET, "dense_nopack.x86", []]}),
        ("input of 5", {"input": [TARGET, "dense_nopack.x86", [], {}, []]}),
        ("input null", {"input": None}),
        ("input an object of 4 members", {"input": {"a": 1, "b": 2, "c": 3, "d": 4}}),
        ("config {}", {"config": {}}),
        ("config null", {"config": None}),
        ("config a list", {"config": [1, None, []]}),
        ("config a string", {"config": "index"}),
        ("config without index", {"config": {"code_hash": None, "entity": entity}}),
        ("config without code_hash", {"config": {"index": 1, "entity": entity}}),
        ("config without entity", {"config": {"index": 1, "code_hash": None}}),
        ("config with extra members", {"config": {"index": 1, "code_hash": "abc", "entity": [], "t": 3}}),
        ("entity []", {"config": {"index": 1, "code_hash": None, "entity": []}}),
        ("entity null", {"config": {"index": 1, "code_hash": None, "entity": None}}),
        ("entity {}", {"config": {"index": 1, "code_hash": None, "entity": {}}}),
        ("entity ''", {"config": {"index": 1, "code_hash": None, "entity": ""}}),
        ("entity a number", {"config": {"index": 1, "code_hash": None, "entity": 3}}),
        ("config index null", {"config": {"index": None, "code_hash": None, "entity": []}}),
    ]
    for knob in ("sp", "re", "an", "ot", "xx", "SP", ""):
        variants.append((f"knob {knob!r}", {"config": {"index": 1, "code_hash": None, "entity": [["k", knob, [1]]]}}))
    variants.append(("knob 3", {"config": {"index": 1, "code_hash": None, "entity": [["k", 3, [1]]]}}))
    variants.append(("knob null", {"config": {"index": 1, "code_hash": None, "entity": [["k", None, [1]]]}}))
    variants.append(("entity item of 2", {"config": {"index": 1, "code_hash": None, "entity": [["k", "sp"]]}}))
    variants.append(("entity item of 4", {"config": {"index": 1, "code_hash": None, "entity": [["k", "sp", 1, 2]]}}))
    variants.append(("entity item a string", {"config": {"index": 1, "code_hash": None, "entity": ["ksp"]}}))
    variants.append(("entity item null", {"config": {"index": 1, "code_hash": None, "entity": [None]}}))
    variants.append(
        ("entity item an object", {"config": {"index": 1, "code_hash": None, "entity": [{"k": 1, "sp": 2, "x": 3}]}})
    )
    for n in range(6):
        variants.append((f"result of {n}", {"result": [[0.001], 0, 1.5, 1700000000.0, 0][:n]}))
    variants.append(("result null", {"result": None}))
    variants.append(("result a number", {"result": 0.001}))
    variants.append(("result a string of 4", {"result": "abcd"}))
    variants.append(("result an object of 4 members", {"result": {"a": 1, "b": 2, "c": 3, "d": 4}}))
    cases = []
    for name, fields in variants:
        cases.append((name, line(autotvm_record(1, **fields)) + "\n"))
        # The same fault on line 2 of 3, in a record that measured with an error (unless the
        # fault is the result itself).
        middle = autotvm_record(2, **fields)
        if isinstance(middle.get("config"), dict) and middle["config"].get("index") == 1:
            middle["config"]["index"] = 2
        if "result" not in fields:
            middle["result"] = ERROR
        log = line(autotvm_record(1)) + "\n" + line(middle) + "\n" + line(autotvm_record(3)) + "\n"
        cases.append((f"{name}, between good records" + ("" if "result" in fields else ", with error_no 4"), log))
    return cases


if __name__ == "__main__":
    main("unloadable", "autotvm", [*blank_logs(), *field_logs()], sys.argv)
