"""The values of a target config typed by its kind's schema, as the releases' constructors typed
them: nulls taken for absent values, a scalar boxed or not, and which fault a release reported
first when several values are wrong (the kind's target parser ran before any of them was read,
from TVM v0.10 on)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ._diagnostics import unknown_attr
from ._registry import Registry
from ._resolution import DEFAULT_ENVIRONMENT, is_aprofile, is_mprofile, resolve_parts
from ._schema import KindSchema
from ._target import Target
from ._values import from_json
from ._versions import Version, registry_release
from .errors import CanonicalizationError, TargetError, ValueConversionError

__all__ = ["boxes_scalars", "nested_fault", "nulls_read", "parser_fault", "parser_first", "typed_value"]


def nulls_read(config: Mapping[str, Any], schema: KindSchema) -> dict[str, Any]:
    """``config`` less the ``None`` values TVM v0.22's constructor took for absent ones.

    A null ``host`` is no host. The CPU target parser read ``mtriple`` and ``mcpu`` before the
    attributes were type-checked: a null ``mtriple`` of ``llvm`` without an ``mcpu`` was
    replaced by the host triple, as an absent one is (``resolve`` does that). A null ``keys``
    became ``arm_cpu, cpu`` when an Arm parser merged those in (an M-profile ``mcpu``, or an
    A-profile ``mtriple`` given in the config), as absent keys do; elsewhere it stays, and is
    rejected as TVM rejected it. Every other ``None`` stays too (a null item of ``devices`` is a
    null target; any other is rejected where its value is read).
    """
    out = dict(config)
    if "host" in out and out["host"] is None:
        del out["host"]
    cpu = schema.canonicalizer in ("cpu", "cpu-without-host-triple")
    if cpu and schema.name == "llvm" and "mtriple" in out and out["mtriple"] is None and out.get("mcpu") is None:
        del out["mtriple"]
    if "keys" in out and out["keys"] is None and cpu:
        arm = is_mprofile(out) or (schema.name == "llvm" and is_aprofile(out))
        if arm:
            del out["keys"]
    return out


def typed_value(
    key: str,
    value: Any,
    schema: KindSchema,
    registry: Registry,
    nested: Any,
    value_node: Any,
    source: str,
    key_span: Callable[[str], tuple[int, int]] | None = None,
) -> Any:
    spec = schema.attrs.get(key)
    if spec is None:
        span = key_span(key) if key_span is not None else (0, 0)
        raise unknown_attr(key, schema, source, *span, version=registry.version)
    name = spec.type.name
    if value is None and key == "host" and boxes_scalars(registry.version):
        raise ValueConversionError(
            f"'host' is null: TVM v{registry_release(registry.version).version} made no target of it "
            "(v0.21 on read it as no host)",
            source,
            *((value_node.start, value_node.end) if value_node is not None else (0, 0)),
        )
    if (type(value) is bool) is (name == "int") and type(value) in (bool, int) and name in ("int", "bool"):
        if boxes_scalars(registry.version):
            given, wanted = ("a bool", "an integer") if name == "int" else ("an integer", "a bool")
            raise ValueConversionError(
                f"attribute '{key}' is {name}: TVM v{registry_release(registry.version).version} read it from "
                f"{wanted} only, not from {given} ({value!r})",
                source,
                *((value_node.start, value_node.end) if value_node is not None else (0, 0)),
            )
    return from_json(value, spec.type, key, nested, value_node, source)


@functools.cache
def boxes_scalars(version: str) -> bool:
    # TVM v0.18 - v0.20 boxed a config's Python scalars (runtime.BoxInt, runtime.BoxBool), and
    # ParseType took an int attribute from a BoxInt only, a bool one from a BoxBool only; the
    # IntImm of earlier releases and v0.21's FFI convert between the two
    return _BOXED_SCALARS[0] <= registry_release(version).version <= _BOXED_SCALARS[1]


_BOXED_SCALARS = (Version.parse("0.18"), Version.parse("0.20"))


@functools.cache
def parser_first(version: str) -> bool:
    # v0.10 on ran a kind's target parser first in FromConfig; v0.7 - v0.9 ran its attrs
    # preprocessor (UpdateCUDAAttrs, ...) last, once every attribute had been read
    return registry_release(version).version >= _TARGET_PARSERS


_TARGET_PARSERS = Version.parse("0.10")


# The attributes each kind's target parser read before TVM's FromConfig read the tag, keys, host
# and attributes (src/target/target_kind.cc, parsers/cpu.cc): what it rejects in them comes first.
_PARSER_READS = {
    "cpu": ("mcpu", "mtriple", "cl-opt", "mfloat-abi", "jit", "vector-width"),
    "cpu-without-host-triple": ("mcpu", "mtriple", "cl-opt", "mfloat-abi", "jit", "vector-width"),
    "cuda": ("arch",),
    "nvptx": ("mtriple", "mcpu"),
    "rocm": ("mtriple", "mcpu"),
}


_FIXED_TRIPLES = {"nvptx": "nvptx64-nvidia-cuda", "rocm": "amdgcn-amd-amdhsa-hcc"}


_NULL_FAILS = frozenset(("cuda", "nvptx", "rocm"))


_READ_AS_STRINGS = frozenset(("mcpu", "mtriple", "arch"))  # a parser downcast these, failing on another type


def parser_fault(
    config: Mapping[str, Any],
    schema: KindSchema,
    registry: Registry,
    source: str,
    span: Callable[[str], tuple[int, int]],
) -> TargetError | None:
    """What the kind's target parser rejects in ``config``, or ``None``: asked when another check
    failed, since TVM's FromConfig ran the parser first (the same checks run again in resolve)."""
    canon = schema.canonicalizer
    names = _PARSER_READS.get(canon) if isinstance(canon, str) else None
    if names is None:
        return None
    if canon in _FIXED_TRIPLES and "mtriple" in config and not isinstance(config["mtriple"], str):
        # the parser compared what it found with its triple, a string or nothing at all
        return CanonicalizationError(
            f'Expects "mtriple" to be "{_FIXED_TRIPLES[canon]}", but gets: {config["mtriple"]!r}',
            source,
            *span("mtriple"),
        )
    fixed = _FIXED_TRIPLES.get(canon) if isinstance(canon, str) else None
    if fixed is not None and isinstance(config.get("mtriple"), str) and config["mtriple"] != fixed:
        # compared before the parser read anything else (CheckOrSetAttr, then mcpu)
        return CanonicalizationError(
            f'Expects "mtriple" to be "{fixed}", but gets: {config["mtriple"]}', source, *span("mtriple")
        )
    cfg: dict[str, Any] = {}
    for name in names:
        value = config.get(name)
        spec = schema.attrs.get(name)
        if name in _READ_AS_STRINGS and name in config and not isinstance(value, str):
            # (a null mtriple or mcpu of a CPU kind is none given: nulls_read)
            if value is not None or canon in _NULL_FAILS:
                if spec is not None:
                    try:
                        from_json(value, spec.type, name, _no_nested, None, "")
                    except TargetError as err:
                        return err.at(source, *span(name))
                what = "null" if value is None else type(value).__name__
                return ValueConversionError(
                    f"'{name}' must be a string, not {what}: the kind's target parser reads it", source, *span(name)
                )
        if value is None or spec is None:
            continue
        try:
            cfg[name] = from_json(value, spec.type, name, _no_nested, None, "")
        except TargetError:
            continue  # a type the attribute's own reading reports
    if schema.name != "llvm" and canon in ("cpu", "cpu-without-host-triple"):
        if isinstance(config.get("mtriple"), str) and is_aprofile(config) and not is_mprofile(config):
            return CanonicalizationError(
                f"Expected target kind 'llvm', but got '{schema.name}': the Arm A-profile parser reads "
                "llvm targets only",
                source,
                *span("mtriple"),
            )
    try:
        resolve_parts(
            schema,
            None,
            cfg,
            DEFAULT_ENVIRONMENT,
            lambda name: (source, *span(name)),
            registry_release(registry.version).version,
        )
    except TargetError as err:
        return err
    return None


def nested_fault(values: Iterable[Any]) -> TargetError | None:
    """What resolving the first of the targets in ``values`` that fails raises, or ``None``: asked
    when a check after them failed, since TVM built a nested target whole (its kind's parser
    included) when it read it."""
    for value in values:
        for target in value if isinstance(value, tuple) else (value,):
            if isinstance(target, Target):
                try:
                    target.resolve(DEFAULT_ENVIRONMENT)
                except TargetError as err:
                    return err
    return None


def _no_nested(value: Any, at: Any = None) -> Any:
    raise TypeError("a target parser reads no nested target")  # none of _PARSER_READS holds one
