"""Kind schemas: which attributes a kind has, of which type, with which default."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

__all__ = [
    "COMMON_ATTRS",
    "PLAIN_BOOL",
    "PLAIN_INT",
    "PLAIN_STRING",
    "PLAIN_STRINGS",
    "PLAIN_TARGET",
    "PLAIN_TARGETS",
    "AttrSpec",
    "KindSchema",
    "TypeSpec",
    "plain_codes",
]


def frozen(value: Any) -> Any:
    """``value`` read-only all the way down: mappings as ``MappingProxyType``, lists as tuples."""
    if isinstance(value, Mapping):
        return MappingProxyType({k: frozen(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(frozen(v) for v in value)
    return value


def thawed(value: Any) -> Any:
    """Plain JSON data (dicts and lists) for what :func:`frozen` made read-only."""
    if isinstance(value, Mapping):
        return {key: thawed(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [thawed(item) for item in value]
    return value


@dataclass(frozen=True)
class TypeSpec:
    """An attribute type: ``string``, ``int``, ``bool``, ``target``, ``array<T>`` or ``map<K,V>``.

    ``elem`` is an array's item type; ``key`` and ``value`` are a map's.
    """

    name: str
    elem: TypeSpec | None = None
    key: TypeSpec | None = None
    value: TypeSpec | None = None

    @classmethod
    def parse(cls, text: str) -> TypeSpec:
        """Read the notation of the kind files (``array<array<string>>``, ``map<string,int>``)."""
        text = text.strip()
        if text.startswith("array<") and text.endswith(">"):
            return cls("array", cls.parse(text[6:-1]))
        if text.startswith("map<") and text.endswith(">"):
            inner = text[4:-1]
            depth = 0
            for i, char in enumerate(inner):
                depth += {"<": 1, ">": -1}.get(char, 0)
                if char == "," and depth == 0:
                    return cls("map", key=cls.parse(inner[:i]), value=cls.parse(inner[i + 1 :]))
        if text not in ("string", "int", "bool", "target"):
            raise ValueError(f"unknown attribute type {text!r}")
        return cls(text)

    def __str__(self) -> str:
        if self.name == "array":
            return f"array<{self.elem}>"
        if self.name == "map":
            return f"map<{self.key},{self.value}>"
        return self.name

    @property
    def holds_targets(self) -> bool:
        """True for ``target`` and arrays of them at any depth (a map keeps its values as given)."""
        return self.name == "target" or (self.name == "array" and self.elem is not None and self.elem.holds_targets)


@dataclass(frozen=True)
class AttrSpec:
    """One attribute of a kind.

    ``ordered`` matters for arrays only: an unordered array (``libs``) compares and prints as a
    multiset; an ordered one (``keys``, ``mattr``, ``cl-opt``, ``devices``) as a sequence.
    """

    name: str
    type: TypeSpec
    default: Any = None
    ordered: bool = True
    required: bool = False
    modern_only: bool = False

    def __post_init__(self) -> None:
        # A default is shared by every target of the kind: a list in it must not be changed.
        object.__setattr__(self, "default", frozen(self.default))

    def __reduce__(self) -> tuple[Any, ...]:
        # A read-only default (a MappingProxyType) cannot be pickled; its plain data can.
        fields = (self.type, thawed(self.default), self.ordered, self.required, self.modern_only)
        return (AttrSpec, (self.name, *fields))


# How a legacy string's parser reads a value that needs no interpreting, by the attribute's type.
PLAIN_STRING, PLAIN_STRINGS, PLAIN_INT, PLAIN_BOOL, PLAIN_TARGET, PLAIN_TARGETS = range(6)


def _plain_code(typ: TypeSpec) -> int | None:
    if typ.name == "array":
        elem = typ.elem.name if typ.elem is not None else ""
        return {"string": PLAIN_STRINGS, "target": PLAIN_TARGETS}.get(elem)
    return {"string": PLAIN_STRING, "int": PLAIN_INT, "bool": PLAIN_BOOL, "target": PLAIN_TARGET}.get(typ.name)


# Added to every kind by TVM's registration macro; keys, tag and host are structural.
COMMON_ATTRS: tuple[AttrSpec, ...] = (
    AttrSpec("keys", TypeSpec.parse("array<string>")),
    AttrSpec("tag", TypeSpec("string")),
    AttrSpec("device", TypeSpec("string")),
    AttrSpec("model", TypeSpec("string")),
    AttrSpec("libs", TypeSpec.parse("array<string>"), ordered=False),
    AttrSpec("host", TypeSpec("target")),
    AttrSpec("from_device", TypeSpec("int")),
    AttrSpec("target_device_type", TypeSpec("int")),
)

Canonicalizer = Callable[..., Any]


@dataclass(frozen=True, eq=False)
class KindSchema:
    """A target kind: its attributes, default keys, device type and canonicaliser.

    ``canonicalizer`` names a built-in TVM target parser (``cpu``, ``cpu-without-host-triple``,
    ``cuda``, ``nvptx``, ``rocm``, ``test``, ``webgpu``) or is a callable
    ``f(attrs: dict, keys: list | None, features: dict) -> keys`` for user kinds;
    ``preprocessor`` is TVM's legacy attrs preprocessor, ``f(attrs: dict)``.
    A ``modern_only`` kind or attribute (one TVM added after v0.23) is read from JSON and dicts,
    the modern form, but not from legacy strings, which TVM never accepted with it.
    A *leaf* kind is a code generator (``llvm``, ``cuda``); only non-leaf kinds (``composite``)
    may carry ``executor``, ``runtime`` or ``devices``. Every kind takes the attributes of
    :data:`COMMON_ATTRS` unless ``common`` is false: a built-in kind lists the ones its release had.
    """

    name: str
    attrs: Mapping[str, AttrSpec]
    default_keys: tuple[str, ...] = ()
    device_type: int = 1
    canonicalizer: str | Canonicalizer | None = None
    preprocessor: Callable[[dict[str, Any]], None] | None = None
    leaf: bool = True
    modern_only: bool = False
    common: bool = True  # add COMMON_ATTRS; a release's own schema lists the ones it had itself
    required_names: tuple[str, ...] = field(init=False, repr=False, compare=False)
    # The attributes a legacy string may set with a value that needs no interpreting (no quotes,
    # escapes or spaces), by the option as written before its "=" ("-name" and "--name"), each
    # with its name and PLAIN_ code: the parser reads those values itself. (A dict, private: a
    # read-only view costs every lookup a method call.)
    _plain_codes: dict[str, tuple[str, int]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        merged = {spec.name: spec for spec in COMMON_ATTRS} if self.common else {}
        merged.update(self.attrs)
        object.__setattr__(self, "attrs", MappingProxyType(merged))
        object.__setattr__(self, "default_keys", tuple(self.default_keys))
        # Every read checks these; most kinds have none, and the check should cost nothing then.
        object.__setattr__(self, "required_names", tuple(spec.name for spec in merged.values() if spec.required))
        # (A user's attribute named "-x" is never an option: the reader strips every dash of a
        # word's key, and "--x" must find the attribute "x".)
        plain = {
            dashes + spec.name: (spec.name, code)
            for spec in merged.values()
            if not spec.modern_only
            and spec.name != "kind"
            and spec.name[:1] != "-"
            and (code := _plain_code(spec.type)) is not None
            for dashes in ("-", "--")
        }
        object.__setattr__(self, "_plain_codes", plain)

    def added_to(self, old: KindSchema) -> dict[str, AttrSpec] | None:
        """The attributes this kind adds to ``old`` when it is ``old`` extended (its keys, device,
        canonicaliser and every attribute of ``old`` as they were), else ``None``: a redefinition."""
        same = (
            self.default_keys == old.default_keys
            and self.device_type == old.device_type
            and self.canonicalizer == old.canonicalizer
            and self.preprocessor == old.preprocessor
            and self.leaf == old.leaf
            and self.modern_only == old.modern_only
            and all(self.attrs.get(attr) == spec for attr, spec in old.attrs.items())
        )
        return {attr: spec for attr, spec in self.attrs.items() if attr not in old.attrs} if same else None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, KindSchema):
            return NotImplemented
        return (
            self.name == other.name
            and dict(self.attrs) == dict(other.attrs)
            and self.default_keys == other.default_keys
            and self.device_type == other.device_type
            and self.canonicalizer == other.canonicalizer
            and self.preprocessor == other.preprocessor
            and self.leaf == other.leaf
            and self.modern_only == other.modern_only
        )

    def __hash__(self) -> int:
        return hash((self.name, self.default_keys, self.device_type))

    def __reduce__(self) -> tuple[Any, ...]:
        # attrs is a MappingProxyType, which cannot be pickled; a user kind's canonicaliser or
        # preprocessor pickles when it is a module-level function, as any function does.
        fields = (self.default_keys, self.device_type, self.canonicalizer, self.preprocessor)
        return (KindSchema, (self.name, dict(self.attrs), *fields, self.leaf, self.modern_only, self.common))

    @classmethod
    def build(
        cls,
        name: str,
        attrs: Mapping[str, str | tuple[str, Any]] | None = None,
        *,
        default_keys: tuple[str, ...] | list[str] = (),
        device_type: int = 1,
        unordered: tuple[str, ...] = (),
        canonicalizer: str | Canonicalizer | None = None,
        preprocessor: Callable[[dict[str, Any]], None] | None = None,
        leaf: bool = True,
        required: tuple[str, ...] = (),
    ) -> KindSchema:
        """A schema from ``{name: type}`` or ``{name: (type, default)}``."""
        specs = {}
        for attr, decl in (attrs or {}).items():
            type_text, default = (decl, None) if isinstance(decl, str) else decl
            spec = AttrSpec(attr, TypeSpec.parse(type_text), default, attr not in unordered, attr in required)
            specs[attr] = spec
        return cls(name, specs, tuple(default_keys), device_type, canonicalizer, preprocessor, leaf)


def plain_codes(schema: KindSchema) -> Mapping[str, tuple[str, int]]:
    """For each option key of ``schema`` (``-name`` and ``--name``) whose value a quick reading
    types on the spot: the attribute's name and its code (``PLAIN_*``)."""
    return schema._plain_codes
