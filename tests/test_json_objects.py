"""Where the objects of a JSON text stand (``_json_text.json_objects``), found in one scan: strings
skipped whole, a string never closed running to the end of the text."""

from __future__ import annotations

import pytest

from targetlang._json_text import json_objects


@pytest.mark.parametrize(
    ("text", "spans", "deepest"),
    [
        ("", [], 0),
        ("{}", [(0, 2)], 1),
        ('{"a": {"b": 1}}', [(6, 14), (0, 15)], 2),
        ('{"a": [{}, {"b": [[]]}]}', [(7, 9), (11, 22), (0, 24)], 5),
        # brackets inside strings are not counted, an escaped quote does not close a string
        ('{"a": "{[}]"}', [(0, 13)], 1),
        ('{"a": "\\"{"}', [(0, 12)], 1),
        ('{"a": "\\\\", "b": {}}', [(17, 19), (0, 20)], 2),
        # a string never closed runs to the end: nothing after its quote is counted
        ('{"a": {"b', [], 2),
        ('{"a": {"b\\"}}', [], 2),
        ('{"a": {}, "b\\', [(6, 8)], 2),
        # not JSON: something, but no error
        ("}}{", [], 0),  # the level goes below 0 and back
        ("]][[{", [], 1),
    ],
)
def test_json_objects(text: str, spans: list[tuple[int, int]], deepest: int) -> None:
    assert json_objects(text) == (spans, deepest)


def test_the_scan_stops_at_the_depth_asked() -> None:
    text = '{"a": [{"b": {}}]}'
    assert json_objects(text, 3) == ([], 3)
    assert json_objects(text, 5) == ([(13, 15), (7, 16), (0, 18)], 4)
