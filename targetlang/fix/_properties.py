"""The ``Target`` properties TVM removed, each with the TVM 0.27 expression that gives its value.

Source: the properties of ``Target`` in TVM v0.23.0's ``python/tvm/target/target.py`` (the same in
v0.21 and v0.22), removed in TVM v0.24 by commit 283fd19683 ("[REFACTOR][TARGET] Further cleanup
target python api", apache/tvm#18793). Each read ``self.attrs``, with a default for some when the
attribute is absent. In TVM 0.27 a ``Target`` still has ``.attrs`` (a mapping with ``get`` and
``[]``) and ``.kind`` (with ``.name``), so each property becomes an expression over them that
reproduces v0.23's conversion and default, and its error when there was no default.

``replacement`` is a template over the receiver ``{t}``: substitute the receiver's source text
(``template.format(t=receiver)``), parenthesised unless it is an atom (a name, attribute access,
call or subscript). Every template is itself an atom (a call, or parenthesised), so it can stand
wherever the property access stood.

``features`` was not removed: TVM 0.27's ``Target.features`` is v0.23's.

From TVM v0.25 on (apache/tvm#19581), ``target.<name>`` reads the attribute ``<name>`` again,
as it is stored and without v0.23's defaults: ``AttributeError`` where the target has none.
``modern`` says what still differs from v0.23's property there (verified on apache-tvm 0.25,
0.26 and 0.27): ``None`` when nothing does but the class of the error where both raise.
``modern_always`` says the difference holds whatever the target (a renamed key, a changed type,
a computed value), not only where the attribute is absent.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

__all__ = ["REMOVED_PROPERTIES", "RemovedProperty"]


@dataclass(frozen=True)
class RemovedProperty:
    """A removed ``Target`` property: its ``name``, the TVM 0.27 ``replacement`` expression
    template over ``{t}``, and a ``note`` on how the value or its absence behaves."""

    name: str
    replacement: str
    note: str
    modern: str | None = None
    modern_always: bool = False


_NO_DEFAULT = "no default: a target without the attribute raises KeyError, a LookupError as v0.23's property raised"
_ABSENT = "on TVM >= 0.25 it reads the attribute, and raises AttributeError where the target has none"
_ARRAY = (
    "on TVM >= 0.25 it reads the attribute: a tvm_ffi Array, not a list (no append, not JSON-serialisable), "
    "and AttributeError where the target has none"
)
_REPEATED_RECEIVER = (
    "the receiver is evaluated up to three times: bind it to a name first unless it is a plain name or attribute access"
)

_ROWS = (
    RemovedProperty("arch", 'str({t}.attrs.get("arch", ""))', "'' when absent (only cuda has arch)", _ABSENT),
    RemovedProperty("max_num_threads", 'int({t}.attrs["max_num_threads"])', _NO_DEFAULT),
    RemovedProperty("max_block_size_x", 'int({t}.attrs["max_block_size_x"])', _NO_DEFAULT + "; only vulkan has it"),
    RemovedProperty("max_block_size_y", 'int({t}.attrs["max_block_size_y"])', _NO_DEFAULT + "; only vulkan has it"),
    RemovedProperty("thread_warp_size", 'int({t}.attrs["thread_warp_size"])', _NO_DEFAULT),
    RemovedProperty("max_shared_memory_per_block", 'int({t}.attrs["max_shared_memory_per_block"])', _NO_DEFAULT),
    RemovedProperty("max_function_args", 'int({t}.attrs.get("max_function_args", 0))', "0 when absent", _ABSENT),
    RemovedProperty(
        "vtcm_capacity",
        'int({t}.attrs.get("vtcm-capacity", 0))',
        "the attribute is spelt with a dash, the property was not; 0 when absent",
        "on TVM >= 0.25 it reads an attribute 'vtcm_capacity', which no kind has: AttributeError always",
        True,
    ),
    RemovedProperty(
        "device_name",
        'str({t}.attrs.get("device", ""))',
        "the attribute is 'device'; '' when absent",
        "on TVM >= 0.25 it reads the attribute 'device_name' (vulkan's), not 'device' as v0.23's property did",
        True,
    ),
    RemovedProperty("model", 'str({t}.attrs.get("model", "unknown"))', "'unknown' when absent", _ABSENT),
    RemovedProperty("mcpu", 'str({t}.attrs.get("mcpu", ""))', "'' when absent", _ABSENT),
    RemovedProperty("mattr", 'list({t}.attrs.get("mattr", []))', "a new list of str; [] when absent", _ARRAY, True),
    RemovedProperty(
        "supports_integer_dot_product",
        '(bool({t}.attrs.get("supports_integer_dot_product", False))'
        ' or ({t}.kind.name == "cuda" and int(str({t}.attrs.get("arch", "")).split("_")[1]) >= 61))',
        "true when the attribute is set (vulkan), or for cuda from sm_61 on; an arch without a number "
        "after '_' (sm_90a) raises ValueError, as v0.23's did; " + _REPEATED_RECEIVER,
        "on TVM >= 0.25 it reads the attribute, which cuda targets do not have: AttributeError where v0.23 "
        "computed it from the arch",
        True,
    ),
    RemovedProperty("libs", 'list({t}.attrs.get("libs", []))', "a new list of str; [] when absent", _ARRAY, True),
    RemovedProperty(
        "supports_cooperative_matrix",
        'bool({t}.attrs.get("supports_cooperative_matrix", False))',
        "False when absent (only vulkan has it)",
        _ABSENT,
    ),
    RemovedProperty("l2_cache_size_bytes", 'int({t}.attrs.get("l2_cache_size_bytes", 0))', "0 when absent", _ABSENT),
)

REMOVED_PROPERTIES: Mapping[str, RemovedProperty] = MappingProxyType({row.name: row for row in _ROWS})
"""Property name to its :class:`RemovedProperty`, in the order v0.23 defined them."""
