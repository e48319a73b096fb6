"""The options of a target string as the older eras read them (v0.6's too), into a target's
fields and attributes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .._diagnostics import hint, suggest, unknown_attr
from .._lexical import Span
from .._schema import KindSchema, TypeSpec
from ..errors import (
    DuplicateAttributeError,
    EmptyKeyOrValueError,
    MissingDashError,
    TargetError,
    TargetSyntaxError,
    UnknownAttributeError,
    ValueConversionError,
    show,
)
from ._words import Nested, Word, getline_items

if TYPE_CHECKING:
    from ._era import Era

__all__ = ["Fields", "era06_options", "read_options"]


_STRUCTURAL = ("keys", "tag", "host")
Fields = tuple[dict[str, Any], dict[str, Any], dict[str, Span]]


def _store(key: str, typed: Any, attrs: dict[str, Any], fields: dict[str, Any]) -> None:
    if key in _STRUCTURAL:
        fields[key] = typed
    else:
        attrs[key] = typed


def read_options(era: Era, text: str, words: list[Word], schema: KindSchema, nested: Nested) -> Fields:
    """E1 and E2: the options after the kind, as ``ParseKVPair`` and ``ParseType`` read them."""
    attrs: dict[str, Any] = {}
    fields: dict[str, Any] = {}
    spans: dict[str, Span] = {}
    n = len(words)
    i = 1
    while i < n:
        word = words[i]
        raw = text[word.start : word.end]
        body = word.text
        dashes = len(body) - len(body.lstrip("-"))
        if dashes == 0:
            raise MissingDashError(
                f"expected an option starting with '-', found {show(raw)}", text, word.start, word.end
            )
        if dashes == len(body):
            raise MissingDashError(
                f"{show(raw)} is not an option: dashes need a key after them", text, word.start, word.end
            )
        rest = body[dashes:]
        eq = rest.find("=")
        flag = False
        if eq >= 0:
            key, value = rest[:eq], rest[eq + 1 :]
            if not key or not value:
                raise EmptyKeyOrValueError(f"empty attribute key or value in {show(raw)}", text, word.start, word.end)
            value_offsets = word.offsets[dashes + eq + 1 :]
            value_start, value_end = value_offsets[0], word.end
        elif i + 1 < n and words[i + 1].text[0] != "-":
            key = rest
            following = words[i + 1]
            value, value_offsets = following.text, following.offsets
            value_start, value_end = following.start, following.end
            i += 1
        else:
            key, value, flag = rest, "1", True
            value_offsets, value_start, value_end = (), word.end, word.end
        key_offsets = word.offsets[dashes : dashes + len(key)]
        key_start, key_end = key_offsets[0], key_offsets[-1] + 1
        if key in spans or (key == "kind" and era.repeats_kind):
            raise DuplicateAttributeError(f"attribute {show(key)} is given more than once", text, key_start, key_end)
        spec = schema.attrs.get(key)
        if spec is None or spec.modern_only:
            raise unknown_attr(key, schema, text, key_start, key_end, era.name)
        try:
            typed = era.value(value, spec.type, key, nested)
        except TargetError as err:
            if flag:
                raise err.at(text, word.start, word.end) from None
            raise err.relocated(text, value_offsets, value_end) from None
        _store(key, typed, attrs, fields)
        spans[key] = (word.start, key_end, value_start, value_end)
        i += 1
    return attrs, fields, spans


# E0: the spellings TVM <= v0.6 acted on (build_module.cc, target.py, llvm_common.cc @v0.6.0).
_E0_PREFIXES = (("-device=", "device"), ("-keys=", "keys"), ("-libs=", "libs"), ("-model=", "model"))
_E0_FLAGS = ("-system-lib", "--system-lib")
_E0_LLVM_KINDS = frozenset({"llvm", "nvptx", "rocm"})  # their code generators ran LLVM's option parser
_E0_LLVM_OPTIONS = {
    "-target": "mtriple",
    "-mtriple": "mtriple",
    "-mcpu": "mcpu",
    "-mattr": "mattr",
    "-mfloat-abi": "mfloat-abi",
}
_E0_LISTS = frozenset({"keys", "libs", "mattr"})
_STRING_LIST = TypeSpec("array", TypeSpec("string"))


def _era06_unknown(option: str, schema: KindSchema, text: str, start: int, end: int) -> UnknownAttributeError:
    known = [prefix[:-1] for prefix, _ in _E0_PREFIXES] + ["-system-lib"]
    if schema.name in _E0_LLVM_KINDS:
        known += list(_E0_LLVM_OPTIONS)
    close = suggest(option, known)
    err = UnknownAttributeError(
        f"TVM <= v0.6 did not read option {show(option)} for kind {show(schema.name)}{hint(close)}", text, start, end
    )
    err.suggestions = close
    return err


def era06_options(era: Era, text: str, words: list[Word], schema: KindSchema) -> Fields:
    """E0: the options after the kind, recognised by the spellings TVM <= v0.6 scanned for."""
    attrs: dict[str, Any] = {}
    fields: dict[str, Any] = {}
    spans: dict[str, Span] = {}
    llvm = schema.name in _E0_LLVM_KINDS
    n = len(words)
    i = 1
    while i < n:
        word = words[i]
        raw = word.text
        value: str | None
        if raw in _E0_FLAGS:
            attr, value = "system-lib", None
            key_start, key_end = word.end - len(attr), word.end
            value_start = value_end = word.end
        else:
            prefix = next((p for p in _E0_PREFIXES if raw.startswith(p[0])), None)
            if prefix is not None:
                attr, value = prefix[1], raw[len(prefix[0]) :]
                key_start, key_end = word.start + 1, word.start + len(prefix[0]) - 1
                value_start, value_end = key_end + 1, word.end
            elif not raw.startswith("-"):
                raise MissingDashError(
                    f"expected an option starting with '-', found {show(raw)}", text, word.start, word.end
                )
            else:
                eq = raw.find("=")
                option = raw[:eq] if eq >= 0 else raw
                key_start, key_end = word.start + 1, word.start + len(option)
                found = _E0_LLVM_OPTIONS.get(option) if llvm else None
                if found is None:
                    if option in (p[0][:-1] for p in _E0_PREFIXES):
                        raise TargetSyntaxError(
                            f"TVM <= v0.6 read {show(option)} only in the form {show(option + '=VALUE')}",
                            text,
                            word.start,
                            word.end,
                        )
                    raise _era06_unknown(option, schema, text, word.start, word.start + len(option))
                attr = found
                if eq >= 0:
                    value, value_start, value_end = raw[eq + 1 :], word.start + eq + 1, word.end
                elif i + 1 < n:
                    # LLVM's parser took the next word as the value, whatever it looked like.
                    following = words[i + 1]
                    value, value_start, value_end = following.text, following.start, following.end
                    i += 1
                else:
                    raise EmptyKeyOrValueError(
                        f"option {show(option)} needs a value ('{option}=VALUE' or '{option} VALUE')",
                        text,
                        word.start,
                        word.end,
                    )
            if not value:
                raise EmptyKeyOrValueError(f"empty attribute key or value in {show(raw)}", text, word.start, word.end)
        if attr in spans:
            raise DuplicateAttributeError(f"attribute {show(attr)} is given more than once", text, key_start, key_end)
        spec = schema.attrs.get(attr)
        if spec is None or spec.modern_only:
            raise unknown_attr(attr, schema, text, key_start, key_end, era.name)
        typed: Any
        if value is None and spec.type.name == "bool":
            typed = True
        elif value is not None and attr in _E0_LISTS and spec.type == _STRING_LIST:
            typed = tuple(item for item, _ in getline_items(value))
        elif value is not None and attr not in _E0_LISTS and spec.type.name == "string":
            if attr == "mfloat-abi" and value not in ("hard", "soft"):
                raise ValueConversionError(
                    f"attribute 'mfloat-abi' is 'hard' or 'soft' in TVM <= v0.6, not {show(value)}",
                    text,
                    value_start,
                    value_end,
                )
            typed = value
        else:
            raise ValueConversionError(
                f"attribute {show(attr)} has type {spec.type}, which TVM <= v0.6's option {show(raw)} cannot give",
                text,
                word.start,
                word.end,
            )
        _store(attr, typed, attrs, fields)
        spans[attr] = (word.start, key_end, value_start, value_end)
        i += 1
    return attrs, fields, spans
