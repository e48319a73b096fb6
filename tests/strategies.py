"""Hypothesis strategies: texts from the grammar itself, and Target values."""

from __future__ import annotations

import json
from typing import Any

import lark
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark

import targetlang
from targetlang._grammar_file import grammar_text
from targetlang._schema import TypeSpec

REGISTRY = targetlang.builtin_registry()
KINDS = sorted(REGISTRY.kinds)
TAGS = sorted(REGISTRY.tags)
GRAMMAR = lark.Lark(grammar_text(), parser="lalr", lexer="contextual")

# One character of a word, as the grammar's _UNIT terminal allows (escapes, quoted regions,
# plain characters), biased towards the characters that matter: quotes, backslashes, commas.
_TRICKY = st.sampled_from(list(",=-+_.:/'\\\"{}[] é\t\n"))
_PLAIN = st.one_of(
    st.characters(blacklist_characters=" '\\", blacklist_categories=["Cs"]), _TRICKY.filter(lambda c: c not in " '\\")
)
_ESCAPE = st.builds(lambda c: "\\" + c, st.one_of(_TRICKY, st.characters(blacklist_categories=["Cs"])))
_QUOTED = st.builds(
    lambda parts: "'" + "".join(parts) + "'",
    st.lists(st.one_of(_PLAIN, st.just(" "), _ESCAPE), max_size=6),
)
_UNITS = st.lists(st.one_of(_PLAIN, _ESCAPE, _QUOTED), min_size=1, max_size=8).map("".join)
# At least one space after every word: the generator joins tokens without the lexer, and two
# words with nothing between them would lex as one. grammar_texts() drops a final space again.
_TRAIL = st.sampled_from([" ", " ", "  "])


def _word(first_excludes: str) -> st.SearchStrategy[str]:
    """Words whose first character is not in ``first_excludes`` (the grammar's KIND/WORD rule)."""
    return _UNITS.filter(lambda w: w[0] not in first_excludes)


def _attr_names() -> st.SearchStrategy[str]:
    names = sorted({name for kind in REGISTRY.kinds.values() for name in kind.attrs})
    # Mostly attributes every kind has and that take any text, so that generated options are
    # often valid and the identity property is exercised on accepted targets.
    anytext = st.sampled_from(["device", "model", "libs", "keys", "tag"])
    return st.one_of(anytext, anytext, anytext, st.sampled_from(names), _word("-="))


_KIND = st.one_of(st.sampled_from(KINDS), st.sampled_from(KINDS), st.sampled_from(TAGS[:20]), _word("-{"))
_OPTION = st.builds(
    lambda dashes, name, value: "-" * dashes + name + value,
    st.integers(1, 3),
    _attr_names(),
    st.one_of(st.just(""), st.builds(lambda v: "=" + v, _UNITS)),
)
_JSON_STRING = st.one_of(
    st.sampled_from(["kind", "host", "keys", "mcpu", "mattr", "num-cores", "libs", "device", "llvm", "cuda"]),
    st.text(max_size=8),
).map(json.dumps)


def _with_trail(words: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.builds(lambda w, t: w + t, words, _TRAIL)


# Whitespace and comments after a JSON-ish token. A comment runs to the end of its line, so
# the generator (which joins tokens without the lexer) always ends one with a newline.
_JSON_WS = st.sampled_from(["", "", " ", "\n  ", "\t", " # note\n", "// x\n  "])
_NAMES = ["kind", "host", "keys", "mcpu", "mattr", "num-cores", "libs", "device", "llvm", "cuda", "tag"]
_SQ_STRING = st.one_of(st.sampled_from(_NAMES), st.text(max_size=8)).map(
    lambda s: "'" + json.dumps(s)[1:-1].replace("'", "\\'").replace('\\"', '"') + "'"
)
_BARE = st.one_of(
    st.sampled_from([*_NAMES, "true", "false", "null", "True", "None", "sm_80", "+neon", "nvidia/jetson-nano"]),
    st.from_regex(r"[A-Za-z_+.][A-Za-z0-9_+.\-]{0,6}", fullmatch=True),
)


def _json_token(literal: str | st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    body = st.just(literal) if isinstance(literal, str) else literal
    return st.builds(lambda b, ws: b + ws, body, _JSON_WS)


def grammar_texts(start: str = "start") -> st.SearchStrategy[str]:
    """Texts generated from ``grammar/target.lark`` (from rule ``start``), terminals biased
    towards real kind and attribute names."""
    explicit = {
        "KIND": _with_trail(_KIND),
        "WORD": _with_trail(_word("-")),
        "OPTION": _with_trail(_OPTION),
        "STRING": _json_token(_JSON_STRING),
        "SQSTRING": _json_token(_SQ_STRING),
        "BARE": _json_token(_BARE),
        "NUMBER": _json_token(st.integers(-(2**63), 2**63).map(str)),
        "LBRACKET": _json_token("["),
        "RBRACKET": _json_token("]"),
        "LBRACE": _json_token("{"),
        "RBRACE": _json_token("}"),
        "COMMA": _json_token(","),
        "COLON": _json_token(":"),
    }
    return st.builds(
        lambda text, drop: text[:-1] if drop and text.endswith(" ") else text,
        from_lark(GRAMMAR, start=start, explicit=explicit),
        st.booleans(),
    )


# ----------------------------------------------------------------------------- Target values

_TEXT = st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=12)
_NICE_TEXT = st.text(alphabet=st.sampled_from(list("abcxyz019_-+.=,' \\é")), max_size=10)
_STRINGS = st.one_of(_NICE_TEXT, _TEXT)


def values_of(
    typ: TypeSpec,
    strings: st.SearchStrategy[str],
    targets: st.SearchStrategy[Any],
    *,
    max_size: int = 4,
    tuples: bool = False,
) -> st.SearchStrategy[Any]:
    """Values of attribute type ``typ``: ``strings`` for strings, ``targets`` for nested targets,
    lists for arrays (tuples too when ``tuples``: the same JSON array), dicts for maps."""
    if typ.name == "string":
        return strings
    if typ.name == "int":
        return st.integers(-(2**63), 2**63 - 1)
    if typ.name == "bool":
        return st.booleans()
    if typ.name == "target":
        return targets
    if typ.name == "array":
        assert typ.elem is not None
        items = st.lists(values_of(typ.elem, strings, targets, max_size=max_size, tuples=tuples), max_size=max_size)
        return items | items.map(tuple) if tuples else items
    assert typ.name == "map" and typ.value is not None
    inner = values_of(typ.value, strings, targets, max_size=max_size, tuples=tuples)
    return st.dictionaries(strings, inner, max_size=max_size // 2)


def _value(typ: TypeSpec, depth: int) -> st.SearchStrategy[Any]:
    return values_of(typ, _STRINGS, target_configs(depth + 1))


@st.composite
def target_configs(draw: st.DrawFn, depth: int = 0) -> dict[str, Any]:
    """Config dicts of built-in kinds with typed attributes, host and devices up to depth 2."""
    kind = REGISTRY.kinds[draw(st.sampled_from(KINDS))]
    config: dict[str, Any] = {"kind": kind.name}
    names = [
        n
        for n in kind.attrs
        if n not in ("host", "from_device") and not (depth >= 2 and kind.attrs[n].type.holds_targets)
    ]
    for name in draw(st.lists(st.sampled_from(names), unique=True, max_size=5)):
        config[name] = draw(_value(kind.attrs[name].type, depth))
    if depth < 2 and draw(st.booleans()):
        config["host"] = draw(target_configs(depth + 1))
    return config


def targets() -> st.SearchStrategy[targetlang.Target]:
    """Targets built from generated configs."""
    return target_configs().map(targetlang.parse)


# ----------------------------------------------------------------------------- composite targets

USER_REGISTRY = (
    targetlang.builtin_registry()
    .register_kind(
        "box",
        {"devices": "array<target>", "executor": "string", "runtime": "string", "labels": "array<string>"},
        leaf=False,
        unordered=["labels"],
    )
    .register_kind(
        "npu",
        {"cores": "int", "exts": "array<string>", "passes": "array<string>", "fast": "bool"},
        unordered=["exts"],
        default_keys=["npu"],
    )
)
_LEAVES = ["llvm", "cuda", "vulkan", "npu"]
_WORD = st.text(alphabet=st.sampled_from(list("abcxyz019_-+. ,'\\")), min_size=1, max_size=6)


@st.composite
def composite_configs(draw: st.DrawFn, depth: int = 0, max_depth: int = 4) -> dict[str, Any]:
    """Configs of user and built-in kinds nesting up to ``max_depth`` levels of targets."""
    nest = depth + 1 < max_depth
    kind = draw(st.sampled_from(["box", "box", *_LEAVES] if nest else _LEAVES))
    config: dict[str, Any] = {"kind": kind}
    if kind == "box":
        if draw(st.booleans()):
            config["executor"] = draw(st.sampled_from(["vm", "graph", "aot"]))
        if draw(st.booleans()):
            config["runtime"] = draw(st.sampled_from(["cpp", "crt", "cuda-graph"]))
        config["labels"] = draw(st.lists(_WORD, max_size=3))
        config["devices"] = draw(st.lists(composite_configs(depth + 1, max_depth), max_size=3))
    elif kind == "npu":
        config["cores"] = draw(st.integers(0, 64))
        config["exts"] = draw(st.lists(_WORD, max_size=4))
        config["passes"] = draw(st.lists(_WORD, max_size=4))
    else:
        spec = REGISTRY.kinds[kind]
        names = st.sampled_from(["mcpu", "libs", "model", "device", "mattr", "cl-opt"])
        for name in draw(st.lists(names, unique=True, max_size=3)):
            if name in spec.attrs:
                config[name] = draw(_value(spec.attrs[name].type, 2))
    if nest and draw(st.booleans()):
        config["host"] = draw(composite_configs(depth + 1, max_depth))
    if draw(st.booleans()):
        config["keys"] = draw(st.lists(_WORD, max_size=2))
    return config


def composite_targets() -> st.SearchStrategy[targetlang.Target]:
    return composite_configs().map(lambda c: targetlang.parse(c, registry=USER_REGISTRY))
