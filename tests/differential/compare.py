"""targetlang's side of the differential runs, the comparison with TVM's outcome, and the table of
documented decisions.

An outcome is a dict: ``accepted``; when accepted, ``export`` (TVM's ``export()`` shape: kind,
tag, keys, host, then the attributes) and ``str`` (or ``str_error``); when rejected, ``error``
(``type`` and ``bases``, the Python built-in classes it is an instance of). TVM's outcome is the
one tests/oracle/oracle_common.py records (``crashed`` when the input killed the TVM process);
targetlang's is computed here (``internal`` when targetlang raised something that is no
:class:`~targetlang.TargetError`: always a bug).

:func:`classify` names the difference between the two: ``agree``, or a class that says which field
differs, with a normalised error type or message, so that a person can read the list of classes.
A difference that a documented decision explains (:data:`DECISIONS`) is a ``decision``, counted
apart from the disagreements.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

import targetlang
from targetlang import Environment, Target, TargetError, UnprintableTargetError

# What the oracle detects on a machine without a GPU: sm_50, gfx900 and this host triple.
ENV = Environment(host_triple="x86_64-pc-linux-gnu")
BUILTINS: dict[str, type[BaseException]] = {
    "ValueError": ValueError,
    "TypeError": TypeError,
    "UnicodeError": UnicodeError,
    "UnicodeEncodeError": UnicodeEncodeError,
    "RecursionError": RecursionError,
    "RuntimeError": RuntimeError,
    "KeyError": KeyError,
    "LookupError": LookupError,
    "AttributeError": AttributeError,
    "IndexError": IndexError,
    "OverflowError": OverflowError,
    "ArithmeticError": ArithmeticError,
    "NameError": NameError,
    "UnboundLocalError": UnboundLocalError,
}

Outcome = dict[str, Any]


@cache
def registry(version: str) -> targetlang.Registry:
    return targetlang.builtin_registry(version)


def plain(value: Any) -> Any:
    """A targetlang value as TVM's export gives it: targets as exports, tuples as lists."""
    if isinstance(value, Target):
        return export(value)
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    if isinstance(value, Mapping):
        return {k: plain(v) for k, v in value.items()}
    return value


def export(resolved: Target) -> dict[str, Any]:
    """A resolved target as TVM's ``export()``: kind, tag, keys, host, then the attributes."""
    out: dict[str, Any] = {"kind": resolved.kind, "tag": resolved.tag, "keys": list(resolved.keys)}
    if resolved.host is not None:
        out["host"] = export(resolved.host)
    out.update((name, plain(value)) for name, value in resolved.attrs.items())
    return out


def error_of(err: BaseException) -> dict[str, Any]:
    bases = [name for name, cls in BUILTINS.items() if isinstance(err, cls)]
    message = str(err).splitlines()[0][:300] if str(err) else ""
    return {"type": type(err).__name__, "bases": bases, "message": message, "category": our_category(err)}


# ---------------------------------------------------------------------------- error categories


@dataclass(frozen=True)
class Category:
    """One row of the error-category table: what kind of fault an error reports. ``tvm``: the
    patterns of TVM's messages of it (v0.21's C++ parser, v0.19's, tvmc v0.19's), searched in
    the message in the table's order; ``ours``: the targetlang error classes of it (an error's
    category is that of the first of its classes, in method resolution order, that a row names)."""

    name: str
    meaning: str
    tvm: tuple[str, ...]
    ours: tuple[str, ...]


CATEGORIES = (
    Category(
        "json",
        "a text starting with '{' that TVM's JSON loader refused as a whole: not JSON, not an object, or "
        "holding an integer beyond 64 bits (v0.21 - v0.23)",
        (r"Cannot load config dict with python JSON loader",),
        ("InvalidJSONError",),
    ),
    Category(
        "syntax",
        "a legacy string (or tvmc list) whose words cannot be read: a quote never closed, a word that is "
        "no option, an empty key or value, nesting too deep",
        (
            r"Mismatched quotes",
            r"Attribute keys should start with",
            r"Empty attribute key or value",
            r"Cannot parse empty target string",
            r"Not an attribute key",  # dashes alone
            r"^string index out of range",  # tvmc read opt_value[0] of an empty value
        ),
        ("TargetSyntaxError",),
    ),
    Category(
        "tvmc-list",
        "tvmc's own rules of a --target list: the last target not a TVM target, a flag for a target not "
        "listed, a target given twice, a token its parser refused, an empty target",
        (
            r"The last target needs to be a TVM target",
            r"^Passed --target-",
            r"Duplicate target definitions",
            r"^Error parsing target string",
            r"^list index out of range",
            r"local variable 'target_host'",  # tvmc took a JSON list for inline JSON
        ),
        ("TvmcError",),
    ),
    Category(
        "kind",
        "the kind is missing or names no registered kind (or tag)",
        (r'Target kind "', r'Field "kind" is not found'),  # (a kind's newline cuts the message short)
        ("UnknownKindError",),
    ),
    Category(
        "attribute",
        "an attribute the kind does not have (features included, which only the kind's parser sets)",
        (r"Cannot recognize '", r"Target Features should be generated by Target parser"),
        ("UnknownAttributeError",),
    ),
    Category(
        "duplicate",
        "an attribute given twice in a legacy string",
        (r"appears more than once",),
        ("DuplicateAttributeError",),
    ),
    Category(
        "kind-check",
        "a value the kind's target parser refuses: a CUDA arch, an NVPTX or ROCm triple or CPU, an Arm "
        "A-profile jit, mfloat-abi, vector-width or cl-opt",
        (
            r"invalid CUDA arch",
            r"invalid GFX version",
            r'Expects "mtriple" to be',
            r"invalid jit option",
            r"invalid -mfloat-abi option",
            r"Invalid -vector-width value",
            r"Expected target kind 'llvm'",  # the A-profile parser, given another CPU kind
            r"there were errors parsing command-line options",
        ),
        ("CanonicalizationError", "cl-opt"),
    ),
    Category(
        "overflow",
        "an integer of a config mapping beyond 64 bits, refused by the FFI before any field was read",
        (r"int too large to convert",),
        ("IntegerOverflowError",),
    ),
    Category(
        "value",
        "a value of the wrong type, or text that does not convert to the attribute's type, or a config "
        "that is no config (a key that is not a string, a target of another type)",
        (
            r"Expects? type",
            r"Expect '\w+' to be an array",
            r"Cannot parse integer from string",
            r"Cannot convert from type",
            r"Cannot create target with type",
            r"requires key of dict to be str",
            r"Parsing type .* is not supported",
            r"Downcast from .* failed",
            r"Expect type 'dict' or 'str'",
            r"Downcast from nullptr",
            r"key of map must already been a container type",  # v0.19's FFI: a key that is no string
        ),
        ("ValueConversionError", "InvalidSpecError", "MissingAttributeError"),
    ),
)
_CATEGORY_OF_CLASS = {name: row.name for row in CATEGORIES for name in row.ours}
_CATEGORY_PATTERNS = [(re.compile(pattern), row.name) for row in CATEGORIES for pattern in row.tvm]
# v0.19 re-raised a C++ error with LOG(FATAL): the exception's last line keeps only the echo of the
# input; the line "TVMError: ..." of its text (the worker records it as "detail") says what failed.
_V019_DETAIL = re.compile(r"^TVMError: \w*\[[^\]]*\] \S+: (?:InternalError: )?")


def our_category(err: BaseException) -> str:
    """The category of a targetlang error (:data:`CATEGORIES`): the first of its classes that a row
    names. The check of LLVM's cl-opt entries is a ValueConversionError (a value LLVM cannot read)
    that the A-profile parser raised: a kind check."""
    if str(getattr(err, "message", "")).startswith("LLVM rejects cl-opt entry"):
        return "kind-check"
    for cls in type(err).__mro__:
        found = _CATEGORY_OF_CLASS.get(cls.__name__)
        if found is not None:
            return found
    return "other"


def tvm_category(error: Mapping[str, Any]) -> str:
    """The category of an error TVM raised, from its message (:data:`CATEGORIES`); ``opaque`` when
    v0.19 left only the echo of the input (a recording without the worker's ``detail``)."""
    message = str(error.get("detail") or error.get("message", ""))
    message = _V019_DETAIL.sub("", message).removeprefix("ValueError: ").removeprefix("Error when parsing target: ")
    if error.get("type") == "OverflowError":
        return "overflow"
    for pattern, name in _CATEGORY_PATTERNS:
        if pattern.search(message):
            return name
    if error.get("type") == "TVMError" and message.startswith(". Target creation from"):
        return "opaque"
    return "other"


def categories(tvm: Outcome, ours: Outcome) -> tuple[str, str] | None:
    """(TVM's category, targetlang's) when both rejected the input, else ``None``."""
    if tvm.get("crashed") or "internal" in ours or tvm.get("accepted") is not False or ours.get("accepted"):
        return None
    return tvm_category(tvm["error"]), str(ours["error"].get("category", "other"))


def resolved_outcome(build: Callable[[], Target]) -> Outcome:
    """targetlang's outcome of ``build()`` resolved in :data:`ENV`."""
    try:
        resolved = build().resolve(ENV)
    except TargetError as err:
        return {"accepted": False, "error": error_of(err)}
    except Exception as err:  # a bug of targetlang, whatever the input
        return {"accepted": False, "internal": f"{type(err).__name__}: {err}"[:300]}
    out: Outcome = {"accepted": True, "export": export(resolved)}
    try:
        out["str"] = resolved.to_legacy_str(ENV)
    except UnprintableTargetError as err:
        out["str_error"] = error_of(err)
    except TargetError as err:
        out["str_error"] = error_of(err)
    except Exception as err:
        out["internal"] = f"str(): {type(err).__name__}: {err}"[:300]
    return out


def target_outcome(spec: Any, version: str = "0.21") -> Outcome:
    """``targetlang.parse(spec, registry=builtin_registry(version))``, resolved."""
    return resolved_outcome(lambda: targetlang.parse(spec, registry=registry(version)))


# ---------------------------------------------------------------------------- classes

_QUOTED = re.compile(r"\"[^\"]*\"|'[^']*'|`[^`]*`")
_NUMBER = re.compile(r"\d+")


def tvm_message(error: Mapping[str, Any]) -> str:
    """TVM's error message without the input: quoted parts, numbers and the echo cut."""
    message = str(error.get("message", ""))
    for cut in (". Target creation from", "Target creation from"):
        message = message.split(cut, 1)[0]
    message = message.removeprefix("ValueError: ").removeprefix("Error when parsing target: ")
    message = _NUMBER.sub("N", _QUOTED.sub("Q", message))
    return " ".join(message.split())[:70]


def differing_fields(tvm: Any, ours: Any, prefix: str = "") -> list[str]:
    """The export fields (kind, tag, keys, host.FIELD, attribute names) whose values differ."""
    if not isinstance(tvm, dict) or not isinstance(ours, dict):
        return [prefix.rstrip(".") or "export"]
    out = []
    for name in sorted(set(tvm) | set(ours)):
        a, b = tvm.get(name, _MISSING), ours.get(name, _MISSING)
        if a == b:
            continue
        if name == "host" and isinstance(a, dict) and isinstance(b, dict):
            out += differing_fields(a, b, prefix + "host.")
        else:
            out.append(prefix + name)
    return out


def _has_null(export: Any) -> bool:
    if isinstance(export, dict):
        return any(v is None or _has_null(v) for v in export.values())
    if isinstance(export, list):  # composite devices
        return any(_has_null(v) for v in export)
    return False


_MISSING = object()


def fields_kept(theirs: Any, ours: Any) -> Any:
    """TVM's export with the target's own ``keys``, ``tag`` and ``host`` where null attributes
    shadowed them (``-from_device`` on a CPU kind in v0.21 - v0.23 set every attribute null,
    those three too, and ``export()`` let the attributes win over the fields). targetlang keeps
    the fields: a decision (docs/language.md); every other null is compared as it is."""
    if not isinstance(theirs, dict) or not isinstance(ours, dict):
        return theirs
    out = dict(theirs)
    for name in ("keys", "tag"):
        if out.get(name, 0) is None and name in ours:
            out[name] = ours[name]
    if "host" in out:
        if out["host"] is None and "host" not in ours:
            del out["host"]
        elif out["host"] is None:
            out["host"] = ours["host"]
        else:
            out["host"] = fields_kept(out["host"], ours.get("host"))
    devices, mine = out.get("devices"), ours.get("devices")
    if isinstance(devices, list) and isinstance(mine, list) and len(devices) == len(mine):
        out["devices"] = [fields_kept(d, m) for d, m in zip(devices, mine, strict=True)]
    return out


def classify(tvm: Outcome, ours: Outcome) -> str:
    """``agree`` or the name of the disagreement class."""
    if tvm.get("crashed"):
        return "TVM crashed"
    if "internal" in ours:
        return "targetlang internal error: " + str(ours["internal"]).split(":", 1)[0]
    if tvm["accepted"] and not ours["accepted"]:
        return f"TVM accepts, targetlang rejects ({ours['error']['type']})"
    if not tvm["accepted"] and ours["accepted"]:
        return f"TVM rejects ({tvm_message(tvm['error'])}), targetlang accepts"
    if not tvm["accepted"]:
        missing = [b for b in tvm["error"]["bases"] if b not in ours["error"]["bases"]]
        if missing:
            theirs = "/".join(ours["error"]["bases"]) or ours["error"]["type"]
            return f"error class: TVM {tvm['error']['type']}, targetlang {theirs}"
        pair = categories(tvm, ours)
        if pair is not None and pair[0] != pair[1]:
            return f"error category: TVM {pair[0]}, targetlang {pair[1]} ({ours['error']['type']})"
        return "agree"
    fields = differing_fields(fields_kept(tvm["export"], ours["export"]), ours["export"])
    if fields:
        shown = "+".join(fields[:3]) + ("+..." if len(fields) > 3 else "")
        return f"export differs: {shown}"
    if "str" in tvm and tvm["str"] != ours.get("str"):
        return "str differs" if "str" in ours else "str: targetlang cannot print"
    if "str" not in tvm and "str" in ours:
        return "str: TVM could not print, targetlang prints"
    return "agree"


# ---------------------------------------------------------------------------- decisions


def _strings(spec: Any) -> list[str]:
    if isinstance(spec, str):
        return [spec]
    if isinstance(spec, Mapping):
        return [s for k, v in spec.items() for s in (*_strings(k), *_strings(v))]
    if isinstance(spec, list | tuple):
        return [s for v in spec for s in _strings(v)]
    return []


def cut_nul(spec: Any) -> Any:
    """``spec`` as v0.21's FFI passed it to C++: every string cut at its first NUL."""
    if isinstance(spec, str):
        return spec.split("\x00", 1)[0]
    if isinstance(spec, Mapping):
        return {cut_nul(k): cut_nul(v) for k, v in spec.items()}
    if isinstance(spec, list):
        return [cut_nul(v) for v in spec]
    return spec


def _nul(spec: Any, tvm: Outcome, ours: Outcome) -> bool:
    if not any("\x00" in s for s in _strings(spec)):
        return False
    return classify(tvm, target_outcome(cut_nul(spec))) == "agree"


def _whitespace_only(spec: Any, tvm: Outcome, ours: Outcome) -> bool:
    return isinstance(spec, str) and spec != "" and spec.strip(" ") == "" and bool(tvm.get("crashed"))


_ARM_TRIPLE = re.compile(r"(arm|aarch64|thumb)", re.IGNORECASE)


def _arm_triple_crash(spec: Any, tvm: Outcome, ours: Outcome) -> bool:
    return bool(tvm.get("crashed")) and any(_ARM_TRIPLE.search(s) for s in _strings(spec))


def _not_strict_json(spec: Any) -> bool:
    """A text that starts as JSON but that Python's JSON loader (TVM's) refuses."""
    if not isinstance(spec, str) or not spec.startswith("{"):
        return False
    try:
        json.loads(spec)
    except ValueError:
        return True
    return False


def _json_superset(spec: Any, tvm: Outcome, ours: Outcome) -> bool:
    return not tvm["accepted"] and bool(ours["accepted"]) and _not_strict_json(spec)


def _leading_spaces_brace(spec: Any, tvm: Outcome, ours: Outcome) -> bool:
    return (
        isinstance(spec, str) and spec.lstrip(" ").startswith("{") and not spec.startswith("{") and not tvm["accepted"]
    )


@dataclass(frozen=True)
class Decision:
    """A documented difference: ``applies(input, TVM's outcome, targetlang's)`` when a
    disagreement is it; ``area``: the areas it is looked up for (``target``: the Target areas,
    ``target``, ``release``, ``migrate`` and ``tvmc``; ``release``: that area only, TVM v0.19's
    ``Target()``; ``logs``: tests/differential/logs.py)."""

    name: str
    reason: str
    applies: Callable[[Any, Outcome, Outcome], bool]
    area: str = "target"


DECISIONS = [
    Decision(
        "nul-cut",
        "v0.21's Python FFI passed a str to C++ as a NUL-terminated C string, cutting it at the first NUL "
        "(v0.22 passes the length; oracle README): counted a decision when targetlang, given the input cut "
        "the same way, agrees with TVM",
        _nul,
    ),
    Decision(
        "whitespace-only",
        "a whitespace-only target makes TVM read element 0 of an empty vector (undefined behaviour; the oracle "
        "process dies); targetlang raises TargetSyntaxError (docs/language.md, Decisions)",
        _whitespace_only,
    ),
    Decision(
        "arm-triple-crash",
        "an arm/aarch64 triple that LLVM cannot resolve aborts the TVM process in the A-profile parser "
        "(oracle README); targetlang answers",
        _arm_triple_crash,
    ),
    Decision(
        "json-superset",
        "targetlang reads JSON-ish texts (single quotes, bare words, trailing commas, comments: "
        "grammar/target.lark); TVM's JSON reader rejects what is not strict JSON",
        _json_superset,
    ),
    Decision(
        "spaces-then-brace",
        "a text of spaces then '{' is an unknown kind '{...' for TVM, a TargetSyntaxError for targetlang "
        "(docs/language.md, Decisions)",
        _leading_spaces_brace,
    ),
]


def _in_logs(name: str) -> Callable[[Any, Outcome, Outcome], bool]:
    """A decision of the logs area, defined in tests/differential/logs.py (which imports this
    module, so the function is looked up when a decision is asked for)."""

    def applies(spec: Any, tvm: Outcome, ours: Outcome) -> bool:
        from . import logs

        found: bool = getattr(logs, name)(spec, tvm, ours)
        return found

    return applies


DECISIONS.append(
    Decision(
        "build-optional-kinds",
        "logs area: cublas, cudnn, cutlass, tensorrt and mrvl are kinds of v0.19's source that TVM registered "
        "only when built with their USE_* option; the oracle's wheel has none, so it rejects records of them, "
        "which targetlang's v0.19 registry (every kind of the release's source) reads (docs/logs.md)",
        _in_logs("_build_optional_kind"),
        "logs",
    )
)


DECISIONS.append(
    Decision(
        "writer-era",
        "logs area: targetlang's Matcher (logs match) reads each AutoTVM record's target as the TVM release "
        "its tvm_version names read it (that release's era and registry: keys, tags, quoting), while TVM "
        "v0.19's ApplyHistoryBest reads every record as v0.19: counted a decision when targetlang agrees with "
        "v0.19 once every record's tvm_version says 0.19.0",
        _in_logs("_writer_era"),
        "logs",
    )
)
_TVMC_PATTERN = re.compile(
    r"(\-{0,2}[\w\-]+\=?(?:[\w\+\-\.]+(?:,[\w\+\-\.])*|[\'][\w\+\-,\s\.]+[\']|[\"][\w\+\-,\s\.]+[\"])*|,)"
)
_TVMC_QUOTED_SPACE = re.compile(r"""=(['"])[^'"]*\s[^'"]*\1""")
_BUILD_OPTIONAL_KINDS = frozenset(("cublas", "cudnn", "cutlass", "tensorrt"))


def _tvmc_text(spec: Any) -> str | None:
    """The --target text of a tvmc-area input, else None."""
    if isinstance(spec, Mapping) and set(spec) == {"target", "flags"} and isinstance(spec["target"], str):
        return str(spec["target"])
    return None


def _tvmc_dropped(spec: Any, tvm: Outcome, ours: Outcome) -> bool:
    text = _tvmc_text(spec)
    if text is None:
        return False
    kept = [False] * len(text)
    for match in _TVMC_PATTERN.finditer(text):
        kept[match.start() : match.end()] = [True] * (match.end() - match.start())
    return any(not k and not c.isspace() for c, k in zip(text, kept, strict=True))


def _tvmc_quoted_spaces(spec: Any, tvm: Outcome, ours: Outcome) -> bool:
    text = _tvmc_text(spec)
    return text is not None and _TVMC_QUOTED_SPACE.search(text) is not None


def _tvmc_build_optional_kind(spec: Any, tvm: Outcome, ours: Outcome) -> bool:
    text = _tvmc_text(spec)
    if text is None:
        return False
    tokens = _TVMC_PATTERN.findall(text)
    names = {token for i, token in enumerate(tokens) if token != "," and (i == 0 or tokens[i - 1] == ",")}
    return bool(names & _BUILD_OPTIONAL_KINDS)


def _v019_check_failed(spec: Any, tvm: Outcome, ours: Outcome) -> bool:
    if tvm.get("accepted") is not False or ours.get("accepted") is not False or "error" not in ours:
        return False
    error = tvm.get("error", {})
    if error.get("type") != "TVMError" or (
        "Target creation from" not in error.get("message", "") and not error.get("detail")
    ):
        return False
    theirs = tvm_category(error)
    if theirs == "opaque":  # recorded without the detail: a kind's own check, as before
        return _tvmc_text(spec) is not None and ours["error"].get("category") == "kind-check"
    return bool(theirs == ours["error"].get("category"))


def _json_superset_fault(spec: Any, tvm: Outcome, ours: Outcome) -> bool:
    if tvm.get("accepted") is not False or ours.get("accepted") is not False:
        return False
    return tvm_category(tvm["error"]) == "json" and _not_strict_json(spec)


DECISIONS += [
    Decision(
        "tvmc-dropped-characters",
        "tvmc area: tvmc v0.19's tokenizer (a regular expression) silently dropped the characters it did not know "
        "(/ : @ \\ { } a second =, quotes around such text, '' ...) and cut tokens apart there, which gave "
        "IndexErrors, 'Error parsing target string' or other options; targetlang keeps them in the token they "
        "touch (docs/language.md, tvmc target lists)",
        _tvmc_dropped,
    ),
    Decision(
        "tvmc-quoted-spaces",
        "tvmc area: tvmc removed the quotes of a value holding whitespace (-libs='a b') and rebuilt -libs=a b, "
        "which TVM read as more options; targetlang quotes the value again so it arrives whole (docs/language.md)",
        _tvmc_quoted_spaces,
    ),
    Decision(
        "tvmc-build-optional-kinds",
        "tvmc area: cublas, cudnn, cutlass and tensorrt are kinds of v0.19's source that only builds with "
        "USE_CUBLAS/USE_CUDNN/USE_CUTLASS/USE_TENSORRT_CODEGEN registered; the oracle's wheel has none, so its "
        "tvmc took them for extra targets; targetlang's v0.19 registry has every kind of the release",
        _tvmc_build_optional_kind,
    ),
    Decision(
        "v0.19-check-failed-class",
        "tvmc and release areas: an error inside a config's reading (a kind's own check: CUDA arch, ROCm gfx, "
        "Arm -mfloat-abi and cl-opt; a nested target; a mismatched quote) reached Python from TVM v0.19 as "
        "TVMError (a RuntimeError) because Target's constructor re-raised it with LOG(FATAL); v0.21 raises "
        "ValueError, as targetlang does for every release. Counted a decision when the category of the error "
        "v0.19 re-raised (the worker's detail) is targetlang's",
        _v019_check_failed,
    ),
    Decision(
        "json-superset-fault",
        "a text starting with '{' that is not strict JSON: TVM's JSON loader refuses it whole, while targetlang "
        "reads JSON-ish text (grammar/target.lark) and reports the fault it finds in the config",
        _json_superset_fault,
    ),
]


def _values(spec: Any) -> list[Any]:
    if isinstance(spec, Mapping):
        return [v for value in spec.values() for v in (value, *_values(value))]
    if isinstance(spec, list | tuple):
        return [v for value in spec for v in (value, *_values(value))]
    return []


def _null_crash(spec: Any, tvm: Outcome, ours: Outcome) -> bool:
    if isinstance(spec, str) and spec.startswith("{"):  # JSON text: the null its loader gave
        try:
            spec = json.loads(spec)
        except ValueError:
            return False
    return bool(tvm.get("crashed")) and isinstance(spec, Mapping) and any(v is None for v in _values(spec))


_LONG_INT = re.compile(r"(?<![0-9.eE])-?[0-9]{19,}(?![0-9.eE])")


def _holds_long_int(spec: Any) -> bool:
    if isinstance(spec, str):  # JSON text, whole or nested in a legacy string
        return "{" in spec and any(not -(2**63) <= int(m.group()) < 2**63 for m in _LONG_INT.finditer(spec))
    values = [spec, *_values(spec)]
    return any(type(v) is int and not -(2**63) <= v < 2**63 for v in values) or any(
        isinstance(v, str) and _holds_long_int(v) for v in values
    )


def _wraps_integers(spec: Any, tvm: Outcome, ours: Outcome) -> bool:
    if ours.get("accepted") is not False or "error" not in ours or not _holds_long_int(spec):
        return False
    error = ours["error"]
    return error.get("category") in ("overflow", "json") or "64-bit integers" in error.get("message", "")


_UNDEFINED_KIND = re.compile(r'Target kind "([^"]*)" is not defined')
_OPTIONAL_KINDS = _BUILD_OPTIONAL_KINDS | {"mrvl"}


def _release_build_optional_kind(spec: Any, tvm: Outcome, ours: Outcome) -> bool:
    if tvm.get("accepted") is not False:
        return False
    error = tvm["error"]
    found = _UNDEFINED_KIND.search(str(error.get("detail") or error.get("message", "")))
    return found is not None and found.group(1) in _OPTIONAL_KINDS


def _map_order(spec: Any, tvm: Outcome, ours: Outcome) -> bool:
    pair = categories(tvm, ours)
    configs = (isinstance(spec, Mapping) and len(spec) >= 3) or (isinstance(spec, str) and "{" in spec)
    return configs and pair is not None and {*pair} <= {"attribute", "value", "kind-check"} and pair[0] != pair[1]


def _kindless_tag(spec: Any, tvm: Outcome, ours: Outcome) -> bool:
    if isinstance(spec, str) and spec.startswith("{"):
        try:
            spec = json.loads(spec)
        except ValueError:
            return False
    pair = categories(tvm, ours)
    return isinstance(spec, Mapping) and "kind" not in spec and "tag" in spec and pair is not None and pair[0] == "kind"


DECISIONS.append(
    Decision(
        "kindless-tag-form",
        "a config without 'kind' but with 'tag' is TVM 0.27's {\"tag\": NAME, ...} form, which targetlang reads "
        "for every release (docs/language.md, JSON and config dicts) and so checks the tag's type; TVM before "
        "v0.24 said the kind was missing",
        _kindless_tag,
    )
)

DECISIONS += [
    Decision(
        "v0.19-null-crash",
        "release area: a null (None) in a config dict reached TVM v0.19's C++ as a null object, which it "
        "dereferenced (the oracle process died); v0.21 reads or rejects each null, and targetlang reads them as "
        "v0.21 did (docs/language.md, JSON and config dicts)",
        _null_crash,
        "release",
    ),
    Decision(
        "v0.19-wraps-integers",
        "release area: TVM v0.19's FFI converted a Python int beyond 64 bits to int64 by wrapping it "
        "(2**64 + 5 became 5), in a dict and in JSON text, and went on reading; targetlang refuses such an "
        "integer: in a dict first, as v0.21 did (IntegerOverflowError), in JSON text where it is read "
        "(ValueConversionError; v0.21 - v0.23 refused the whole text first, InvalidJSONError)",
        _wraps_integers,
        "release",
    ),
    Decision(
        "v0.19-build-optional-kinds",
        "release area: cublas, cudnn, cutlass, tensorrt and mrvl are kinds of v0.19's source that TVM registered "
        "only when built with their USE_* option; the oracle's wheel has none, so it calls them undefined, "
        "while targetlang's v0.19 registry has every kind of the release's source",
        _release_build_optional_kind,
        "release",
    ),
    Decision(
        "v0.19-map-order",
        "release area: TVM v0.19 passed a config (a dict, or JSON text, whole or nested in a string) to C++ "
        "as a hash map and read its attributes in hash order, so of two faulty attributes (one unknown, one "
        "mistyped) it reported whichever its hash put first; targetlang reads them in the config's order, as "
        "v0.21 did",
        _map_order,
        "release",
    ),
]
DECISION_REASONS = {d.name: d.reason for d in DECISIONS}
DECISION_REASONS["migration-change"] = (
    "migrate area: the attribute differs between v0.21's export of the original and 0.27's of the migration "
    "because the migration changed it and reported so (a Change whose span is on that option), e.g. "
    "-libs=cblas,mkldnn -> dnnl, which v0.21's Python rewrote only for the exact text '-libs=mkldnn'"
)


def decision_for(spec: Any, tvm: Outcome, ours: Outcome, area: str = "target") -> str | None:
    """The name of the documented decision that explains a disagreement on ``spec``, if any
    (the release area's own decisions and the Target areas')."""
    areas = ("target", "release") if area == "release" else (area,)
    for decision in DECISIONS:
        if decision.area in areas and decision.applies(spec, tvm, ours):
            return decision.name
    return None


# ---------------------------------------------------------------------------- migration (0.27)


@cache
def schema_changes_027() -> frozenset[str]:
    """Attribute names whose presence differs between v0.21's and 0.27's exports by a recorded
    schema change: removed since v0.21 (targetlang.migration.REMOVED_ATTRS) or added by 0.27
    (what TVM 0.27's registry has and v0.21's had not, from the extracted schemas)."""
    old, new = targetlang.builtin_registry("0.21"), targetlang.builtin_registry("0.27")
    names = {
        attr
        for name, kind in new.kinds.items()
        for attr, spec in kind.attrs.items()
        if not spec.modern_only and attr not in (old.kinds[name].attrs if name in old.kinds else {})
    }
    return frozenset(names | set(targetlang.migration.REMOVED_ATTRS))


# The host triples the two oracles' LLVMs give a bare llvm target: one machine, two LLVM builds.
HOST_TRIPLES = {"x86_64-conda-linux-gnu": "x86_64-pc-linux-gnu"}


def comparable(export: Any, drop: frozenset[str]) -> Any:
    """An export without ``feature.*`` entries and the attributes ``drop``, all the way down
    (hosts, composite devices), with 0.27's host triple as v0.21's."""
    if isinstance(export, list):
        return [comparable(item, drop) for item in export]
    if not isinstance(export, dict):
        return export
    out = {}
    for name, value in export.items():
        if name.startswith("feature.") or name in drop:
            continue
        if name == "mtriple" and isinstance(value, str):
            value = HOST_TRIPLES.get(value, value)
        out[name] = comparable(value, drop)
    return out


def migrated_fields(v021: Any, v027: Any) -> list[str]:
    """Fields of v0.21's export of the original and 0.27's export of the migration that differ,
    less ``feature.*`` (0.27's canonicalisers) and the recorded schema changes."""
    drop = schema_changes_027()
    return differing_fields(comparable(v021, drop), comparable(v027, drop))


def migrate_outcome(spec: Any) -> Outcome:
    """``targetlang.migrate(spec)``: ``json`` (or ``refused``, the error type or the rules of the
    errors), ``changed`` (the options a change points at, in a text). When the only errors are
    ``rejected-by-0.27``, ``json`` is the plain conversion (``validate=False``), which 0.27 must
    then reject, and ``rejected`` migrate's messages."""
    try:
        m = targetlang.migrate(spec)
        rules = sorted({c.rule for c in m.changes if c.severity == "error"})
        rejected = [c.message for c in m.changes if c.rule == "rejected-by-target"]
        if rules == ["rejected-by-target"]:
            m = targetlang.migrate(spec, validate=False)
    except TargetError as err:
        return {"refused": type(err).__name__}
    except Exception as err:
        return {"internal": f"{type(err).__name__}: {err}"[:300]}
    if not m.ok or m.json is None:
        return {"refused": ",".join(rules) or "not ok"}
    changed = set()
    for change in m.changes:  # the attributes a change points at, in a text
        if isinstance(spec, str) and change.span is not None:
            option = spec[change.span[0] : change.span[1]].lstrip("-")
            changed.add(option.split("=", 1)[0].split(" ", 1)[0])
    out: Outcome = {"json": m.json, "changed": sorted(changed)}
    if rejected:
        out["rejected"] = rejected
    return out


def verdict(migrated: Outcome, v027: Outcome | None) -> str | None:
    """How migrate's verdict on the conversion (``rejected-by-0.27`` or not) compares with
    0.27's ``Target(json)``: ``None`` when there is nothing to compare (migrate refused for
    another reason, or 0.27 crashed)."""
    if "json" not in migrated or v027 is None or v027.get("crashed"):
        return None
    ours, theirs = "rejected" not in migrated, bool(v027["accepted"])
    if ours == theirs:
        return "both accept" if ours else "both reject"
    return "migrate accepts, 0.27 rejects" if ours else "migrate rejects (rejected-by-0.27), 0.27 accepts"


def _original(v021: Outcome) -> str:
    if v021.get("crashed"):
        return "v0.21 crashed on the original"
    return f"v0.21 {'accepts' if v021['accepted'] else 'rejects'} the original"


def classify_migration(v021: Outcome, migrated: Outcome, v027: Outcome | None) -> tuple[str, str]:
    """(status, class) of one input of the migration area: first migrate's verdict on its
    conversion against 0.27's (:func:`verdict`), then, when both accept and v0.21 accepted the
    original, 0.27's export of the migration against v0.21's of the original."""
    if "internal" in migrated:
        return "disagree", "targetlang internal error: " + str(migrated["internal"]).split(":", 1)[0]
    if "refused" in migrated:
        return "skipped", f"migrate refuses ({migrated['refused']}); {_original(v021)}"
    if v027 is not None and v027.get("crashed") and any(_ARM_TRIPLE.search(t) for t in _strings(migrated)):
        return "decision", "arm-triple-crash"  # 0.27's A-profile parser aborts on the triple as v0.21's did
    if v027 is None or v027.get("crashed"):
        return "disagree", "TVM 0.27 crashed on the migrated JSON"
    seen = verdict(migrated, v027)
    if seen == "migrate accepts, 0.27 rejects":
        return "disagree", f"TVM 0.27 rejects the migrated JSON ({tvm_message(v027['error'])})"
    if seen != "both accept":
        if seen == "both reject":
            return (
                "skipped",
                f"migrate and 0.27 reject the conversion ({tvm_message(v027['error'])}); {_original(v021)}",
            )
        return "disagree", str(seen)
    if v021.get("crashed"):
        return "skipped", "v0.21 crashed on the original"
    if not v021["accepted"]:
        return "skipped", f"v0.21 rejects the original ({tvm_message(v021['error'])}); 0.27 accepts the migration"
    fields = migrated_fields(v021["export"], v027["export"])
    if fields and _has_null(v021["export"]):
        # v0.21 - v0.23 kept the null answers of a CPU kind's device query as attributes;
        # v0.24 on skips them: migrate keeps from_device, which means what the new release makes of it
        return "decision", "from-device-changed-meaning"
    if fields and all(f.rsplit(".", 1)[-1] in migrated.get("changed", ()) for f in fields):
        return "decision", "migration-change"
    if fields:
        return "disagree", "0.27 export differs from v0.21's: " + "+".join(fields[:3]) + (
            "+..." if len(fields) > 3 else ""
        )
    return "agree", "agree"
