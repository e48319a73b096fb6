"""The canonical string writes strings, ints, bools and arrays of strings in a few steps of its own,
and any other value by the general ones: the tricky values of each, by hand."""

from __future__ import annotations

import pytest

import targetlang
from targetlang._registry import builtin_registry
from targetlang._schema import AttrSpec, KindSchema, TypeSpec


@pytest.mark.parametrize(
    ("config", "expected"),
    [
        ({"kind": "llvm"}, "llvm"),
        ({"kind": "llvm", "mcpu": "skylake", "num-cores": 4}, "llvm -mcpu=skylake -num-cores=4"),
        ({"kind": "llvm", "num-cores": -3}, "llvm -num-cores=-3"),
        ({"kind": "llvm", "num-cores": 0}, "llvm -num-cores=0"),
        ({"kind": "llvm", "fast-math": True, "jit": "mcjit"}, "llvm -fast-math=1 -jit=mcjit"),
        ({"kind": "llvm", "fast-math": False}, "llvm -fast-math=0"),
        # strings: quoted with a space, escaped with a quote or a backslash, '' when empty
        ({"kind": "llvm", "mcpu": "a b"}, "llvm -mcpu='a b'"),
        ({"kind": "llvm", "mcpu": "it's"}, "llvm -mcpu=it\\'s"),
        ({"kind": "llvm", "mcpu": "a\\b"}, "llvm -mcpu=a\\\\b"),
        ({"kind": "llvm", "mcpu": ""}, "llvm -mcpu=''"),
        ({"kind": "llvm", "mcpu": "a,b"}, "llvm -mcpu=a,b"),
        # an array of strings: its items joined with commas, quoted where they must be
        ({"kind": "llvm", "mattr": ["+b", "+a"]}, "llvm -mattr=+b,+a"),  # ordered: as given
        ({"kind": "llvm", "libs": ["mkl", "cblas"]}, "llvm -libs=cblas,mkl"),  # unordered: sorted
        ({"kind": "llvm", "mattr": ["a,b", "c"]}, "llvm -mattr=\\'a,b\\',c"),
        ({"kind": "llvm", "mattr": ["a b"]}, "llvm -mattr='\\'a b\\''"),
        ({"kind": "llvm", "mattr": []}, "llvm -mattr=''"),
        ({"kind": "llvm", "mattr": [""]}, "llvm -mattr=\\'\\'"),
        ({"kind": "llvm", "keys": ["cpu", "arm_cpu"]}, "llvm -keys=cpu,arm_cpu"),
        ({"kind": "llvm", "keys": []}, "llvm -keys=''"),
        ({"kind": "llvm", "keys": ["a b"]}, "llvm -keys='\\'a b\\''"),
        # what the legacy syntax cannot carry: the canonical JSON text
        ({"kind": "llvm", "mcpu": " x"}, '{"kind":"llvm","mcpu":" x"}'),
        ({"kind": "llvm", "mattr": ["x "]}, '{"kind":"llvm","mattr":["x "]}'),
        ({"kind": "llvm", "keys": [" k"]}, '{"keys":[" k"],"kind":"llvm"}'),
        # a host, written as its own canonical string
        # (a host whose legacy text would be quoted inside the quotes: its JSON text)
        ({"kind": "cuda", "host": {"kind": "llvm", "mcpu": "a b"}}, """cuda -host='{"kind":"llvm","mcpu":"a b"}'"""),
        ({"kind": "cuda", "host": {"kind": "llvm", "num-cores": 2}}, "cuda -host='llvm -num-cores=2'"),
    ],
)
def test_canonical(config: dict[str, object], expected: str) -> None:
    target = targetlang.parse(config)
    assert target.canonical() == expected
    assert targetlang.parse(expected) == target


def test_an_attribute_the_legacy_syntax_cannot_name_makes_the_target_json() -> None:
    # a user's kind: an attribute whose name holds a space, and an unordered array of strings
    schema = KindSchema(
        "mine",
        {
            "a b": AttrSpec("a b", TypeSpec("string")),
            "tools": AttrSpec("tools", TypeSpec.parse("array<string>"), ordered=False),
        },
    )
    registry = builtin_registry().with_kind(schema)
    target = targetlang.parse({"kind": "mine", "tools": ["b", "a"]}, registry=registry)
    assert target.canonical() == "mine -tools=a,b"
    target = targetlang.parse({"kind": "mine", "a b": "x", "tools": ["b"]}, registry=registry)
    assert target.canonical() == '{"a b":"x","kind":"mine","tools":["b"]}'
