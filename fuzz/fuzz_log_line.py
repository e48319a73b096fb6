"""Fuzz the tuning-log line reader, splicing, and log migration."""

from __future__ import annotations

import sys

import atheris

with atheris.instrument_imports():
    from common import expect

    from targetlang.logs import LogMigrator, parse_line, read_lines, splice

_MIGRATORS = (LogMigrator(), LogMigrator(to="canonical", policy="drop"))


def test_one_input(data: bytes) -> None:
    (record,) = list(read_lines([data + b"\n"], "fuzz.log")) if b"\n" not in data else (None,)
    if record is None:
        return  # one line at a time
    expect((record.text + record.newline).encode("utf-8", "surrogateescape") == data + b"\n", "line not kept", data)
    for field in record.fields:
        own = record.text[field.start : field.end]
        expect(splice(record, field, own) == record.text, "splicing a field's own text changed the line", data)
    for migrator in _MIGRATORS:
        result = migrator.migrate(record)
        if result.problems:
            expect(result.text == record.text, "a record with a problem was changed", data, result.text)
            continue
        again = parse_line(result.text)
        expect(again.format is record.format, "migration changed the record's format", data, result.text)
        expect(migrator.migrate(again).text == result.text, "a second migration changed the line", result.text)


if __name__ == "__main__":
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()
