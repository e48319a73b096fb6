"""TVM v0.22's construction pipeline: canonicalisers, keys assembly, defaults (spec 3.1, 7.2, 7.3).

Everything that TVM read off the machine (LLVM's host triple, the CUDA device's compute
capability, the ROCm architecture and API version) comes from an explicit
:class:`Environment`; the default is TVM on a machine with no GPU and no LLVM host triple.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from ._schema import KindSchema
from ._versions import DEFAULT, LAST_LEGACY, Version
from .errors import CanonicalizationError, ValueConversionError

__all__ = [
    "APROFILE_FEATURES",
    "Environment",
    "feature_name",
    "features_json",
    "features_key",
    "frozen_feature",
    "is_aprofile",
    "is_mprofile",
    "mprofile_parse",
    "reads_feature_keys",
    "resolve_parts",
]

# Where an attribute's value stands in the source text: (source, start, end).
Locate = Callable[[str], tuple[str, int, int]]

_STRUCTURAL = frozenset({"keys", "tag", "host"})


@dataclass(frozen=True)
class Environment:
    """What TVM would have detected on the compiling machine.

    Attributes:
        host_triple: LLVM's host triple; ``llvm`` with neither ``mtriple`` nor ``mcpu`` gets it
            (TVM >= 0.16). ``""`` is TVM built without LLVM: the attribute is set but empty.
        cuda_arch: ``sm_XY`` of CUDA device 0, or ``None`` for no device (then ``sm_50``).
        rocm_arch: what ``tvm_callback_rocm_get_arch`` returns, or ``None`` (then ``gfx900``).
        rocm_api_version: the ROCm device's API version, or ``None`` for no device; below 305
            TVM appended ``-code-object-v3`` to ``mattr``.
        check_cl_opt: also reject malformed ``cl-opt`` entries of every ``llvm`` target, as
            LLVM's backend did when it generated code. An opt-in stricter check: TVM's
            ``Target()`` itself checked them only for A-profile targets (see docs/language.md).
    """

    host_triple: str = ""
    cuda_arch: str | None = None
    rocm_arch: str | None = None
    rocm_api_version: int | None = None
    check_cl_opt: bool = False


DEFAULT_ENVIRONMENT = Environment()

_CPU = 1  # kDLCPU
# The releases whose device query (-from_device) kept null answers as attributes.
_QUERY_KEEPS_NULLS = (Version(0, 21), Version(0, 23))

_MPROFILE_CPUS = (
    "cortex-m0",
    "cortex-m3",
    "cortex-m4",
    "cortex-m7",
    "cortex-m33",
    "cortex-m35p",
    "cortex-m55",
    "cortex-m85",
)
_DSP_CPUS = ("cortex-m55", "cortex-m4", "cortex-m7", "cortex-m33", "cortex-m35p", "cortex-m85")
_MVE_CPUS = ("cortex-m55", "cortex-m85")


# TVM's canonicaliser-owned attributes: ``feature.<name>``, exported with the attributes.
FEATURE_PREFIX = "feature."
# What TVM's A-profile canonicaliser sets from LLVM's view of the CPU (arm_aprofile.cc), every one
# of them whenever it runs: a pure parser cannot compute them.
APROFILE_FEATURES = frozenset(
    {"is_aarch64", "has_asimd", "has_sve", "has_dotprod", "has_matmul_i8", "has_fp16_simd", "has_sme"}
)


def reads_feature_keys(version: Version) -> bool:
    """Whether TVM ``version``'s ``Target(config)`` accepts ``feature.*`` keys: v0.24 on
    (apache/tvm#18883, in every release that read only JSON); earlier ones rejected them as
    unknown attributes."""
    return version > LAST_LEGACY


def feature_name(key: str) -> str | None:
    """The feature a config key names (``"has_sve"`` for ``"feature.has_sve"``), or ``None``.

    TVM's test is the prefix and at least one character after it: ``"feature."`` alone is an
    attribute name (unknown to every kind), as is ``"Feature.x"``."""
    if len(key) > len(FEATURE_PREFIX) and key.startswith(FEATURE_PREFIX):
        return key[len(FEATURE_PREFIX) :]
    return None


def frozen_feature(value: Any) -> Any:
    """A feature's value as a target holds it: any value TVM's FFI carries, arrays as tuples and
    maps read-only, since a target is immutable (TVM keeps them as given, never read as a type)."""
    if isinstance(value, list | tuple):
        return tuple(frozen_feature(item) for item in value)
    if isinstance(value, Mapping):
        return MappingProxyType({key: frozen_feature(item) for key, item in value.items()})
    return value


def _thawed(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_thawed(item) for item in value]
    if isinstance(value, Mapping):
        return {key: _thawed(item) for key, item in value.items()}
    return value


def features_json(features: Mapping[str, Any]) -> dict[str, Any]:
    """The ``feature.*`` entries of an export, as JSON types."""
    return {FEATURE_PREFIX + name: _thawed(value) for name, value in features.items()}


def features_key(features: Mapping[str, Any]) -> str:
    """What equality compares of a target's features: their JSON, in which ``true`` and ``1``
    differ as they do in TVM's export."""
    return json.dumps(features_json(features), sort_keys=True, default=repr)


def _matches_cpu(mcpu: Any, cpus: tuple[str, ...]) -> bool:
    return isinstance(mcpu, str) and mcpu.startswith(cpus)


def _has_flag(config: Mapping[str, Any], flag: str) -> bool:
    mcpu = config.get("mcpu")
    if isinstance(mcpu, str) and flag in mcpu:
        return True
    return any(flag in item for item in config.get("mattr") or ())


def is_mprofile(config: Mapping[str, Any]) -> bool:
    """TVM's ``mprofile::IsArch``: ``mcpu`` starts with an Arm M-profile CPU name."""
    return _matches_cpu(config.get("mcpu"), _MPROFILE_CPUS)


def is_aprofile(config: Mapping[str, Any]) -> bool:
    """TVM's ``aprofile::IsArch`` for an ``llvm`` config: ``mtriple`` starts with ``aarch64``, or
    with ``arm`` while ``mcpu`` does not start with ``cortex-m``."""
    triple = config.get("mtriple")
    mcpu = config.get("mcpu")
    if not isinstance(triple, str):
        return False
    return triple.startswith("aarch64") or (
        triple.startswith("arm") and not (isinstance(mcpu, str) and mcpu.startswith("cortex-m"))
    )


def _merge_arm_keys(keys: list[str] | None) -> list[str]:
    if keys is None:
        return ["arm_cpu", "cpu"]
    merged = list(keys)
    for key in ("arm_cpu", "cpu"):
        if key not in merged:
            merged.append(key)
    return merged


def mprofile_parse(config: Mapping[str, Any]) -> tuple[list[str], dict[str, bool]]:
    """TVM's ``mprofile::ParseTarget``: the merged keys and the ``has_dsp``/``has_mve`` features."""
    keys = config.get("keys")
    nodsp = _has_flag(config, "+nodsp")
    nomve = _has_flag(config, "+nomve")
    mcpu = config.get("mcpu")
    features = {
        "has_mve": _matches_cpu(mcpu, _MVE_CPUS) and not nomve and not nodsp,
        "has_dsp": _matches_cpu(mcpu, _DSP_CPUS) and not nodsp,
    }
    return _merge_arm_keys(None if keys is None else list(keys)), features


def _fail(locate: Locate, name: str, message: str) -> CanonicalizationError:
    return CanonicalizationError(message, *locate(name))


def _cpu(
    kind: str,
    cfg: dict[str, Any],
    keys: list[str] | None,
    features: dict[str, Any],
    env: Environment,
    fill: bool,
    locate: Locate,
) -> list[str] | None:
    if fill and kind == "llvm" and "mtriple" not in cfg and "mcpu" not in cfg:
        cfg["mtriple"] = env.host_triple
    if is_mprofile(cfg):
        merged, found = mprofile_parse({**cfg, "keys": keys})
        features.update(found)
        return merged
    if kind == "llvm" and is_aprofile(cfg):
        # The A-profile parser builds LLVM's target info, whose constructor checks options; the
        # features come from LLVM's view of the CPU, which a pure parser lacks.
        _check_llvm_target_info(cfg, locate)
        return _merge_arm_keys(keys)
    return keys


def _check_llvm_target_info(cfg: Mapping[str, Any], locate: Locate) -> None:
    """What the constructor of TVM's ``LLVMTargetInfo`` (src/target/llvm/llvm_instance.cc)
    rejects, in its order: a malformed ``cl-opt`` entry, ``mfloat-abi`` other than ``hard`` or
    ``soft``, ``jit`` other than ``mcjit`` or ``orcjit``, ``vector-width`` outside 1 - 65536."""
    if cfg.get("cl-opt") is not None:
        _check_cl_opt(cfg["cl-opt"], locate)
    abi = cfg.get("mfloat-abi")
    if abi is not None and abi not in ("hard", "soft"):
        raise _fail(
            locate, "mfloat-abi", f"LLVM rejects -mfloat-abi={abi} of an Arm A-profile target: it is 'hard' or 'soft'"
        )
    jit = cfg.get("jit")
    if jit is not None and jit not in ("mcjit", "orcjit"):
        raise _fail(locate, "jit", f"LLVM rejects -jit={jit} of an Arm A-profile target: it is 'mcjit' or 'orcjit'")
    width = cfg.get("vector-width")
    if width is not None and not 0 < width <= 65536:
        raise _fail(
            locate,
            "vector-width",
            f"LLVM rejects -vector-width={int(width)} of an Arm A-profile target: it is 1 to 65536",
        )


def _cuda(cfg: dict[str, Any], env: Environment, locate: Locate) -> None:
    arch = cfg.get("arch")
    if arch is None:
        cfg["arch"] = env.cuda_arch or "sm_50"
    elif not arch.startswith("sm_"):
        raise _fail(locate, "arch", f"CUDA target gets an invalid CUDA arch: -arch={arch}")


def _fix_triple(cfg: dict[str, Any], triple: str, locate: Locate) -> None:
    given = cfg.get("mtriple")
    if given is None:
        cfg["mtriple"] = triple
    elif given != triple:
        raise _fail(locate, "mtriple", f'Expects "mtriple" to be "{triple}", but gets: {given}')


def _nvptx(cfg: dict[str, Any], env: Environment, locate: Locate) -> None:
    _fix_triple(cfg, "nvptx64-nvidia-cuda", locate)
    mcpu = cfg.get("mcpu")
    if mcpu is None:
        cfg["mcpu"] = env.cuda_arch or "sm_50"
    elif not mcpu.startswith("sm_"):
        raise _fail(locate, "mcpu", f"NVPTX target gets an invalid CUDA arch: -mcpu={mcpu}")


_GFX = re.compile(r"gfx[A-Za-z0-9]")


def _rocm(cfg: dict[str, Any], env: Environment, locate: Locate) -> None:
    _fix_triple(cfg, "amdgcn-amd-amdhsa-hcc", locate)
    mcpu = cfg.get("mcpu")
    if mcpu is None:
        cfg["mcpu"] = env.rocm_arch or "gfx900"
    elif not _GFX.match(mcpu):
        raise _fail(locate, "mcpu", f"ROCm target gets an invalid GFX version: -mcpu={mcpu}")
    if env.rocm_api_version is not None and env.rocm_api_version < 305:
        mattr = tuple(cfg.get("mattr") or ())
        if "-code-object-v3" not in mattr:
            cfg["mattr"] = (*mattr, "-code-object-v3")


def _webgpu(cfg: dict[str, Any], locate: Locate) -> None:
    # TVM v0.24 on (UpdateWebGPUAttrs): subgroups set a 32-wide warp, and a wider warp needs them
    subgroups = cfg.get("supports_subgroups") is True
    warp = cfg.get("thread_warp_size")
    if isinstance(warp, int) and not subgroups and warp > 1:
        raise _fail(
            locate, "thread_warp_size", f"WebGPU target with thread_warp_size={warp} requires supports_subgroups=true"
        )
    if subgroups:
        cfg["thread_warp_size"] = 32


# LLVM's command-line parser takes "-name" or "--name", never three dashes.
_CL_OPT = re.compile(r"--?([^-:=][^:=]*)(?::([^=]*))?(?:=(.*))?", re.S)
_CL_VALUES = {
    "bool": re.compile(r"true|false|TRUE|FALSE|True|False|1|0"),
    "int": re.compile(r"[+-]?[0-9]+"),
    "uint": re.compile(r"[0-9]+"),
    "string": re.compile(r".*", re.S),
}


def _check_cl_opt(items: tuple[str, ...], locate: Locate) -> None:
    for item in items:
        m = _CL_OPT.fullmatch(item)
        problem = None
        if m is None:
            problem = 'option must start with "-" or "--" and look like -name[:type][=value]'
        else:
            type_name, value = m.group(2), m.group(3)
            if type_name is not None and type_name not in _CL_VALUES:
                problem = f"unknown type '{type_name}' (bool, int, uint or string)"
            elif type_name is not None and value is None:
                problem = f"a typed option needs '={type_name} value'"
            elif value is not None and not _CL_VALUES[type_name or "bool"].fullmatch(value):
                problem = f"'{value}' is not a valid {type_name or 'bool'} value"
        if problem:
            raise ValueConversionError(f"LLVM rejects cl-opt entry '{item}': {problem}", *locate("cl-opt"))


def resolve_parts(
    schema: KindSchema,
    keys: tuple[str, ...] | None,
    attrs: Mapping[str, Any],
    env: Environment,
    locate: Locate,
    version: Version = DEFAULT,
    given: Mapping[str, Any] = MappingProxyType({}),
) -> tuple[tuple[str, ...], dict[str, Any], dict[str, Any]]:
    """Run the pipeline on one level of a target, as TVM ``version`` (its registry's release)
    did; nested targets are the caller's. ``given``: the ``feature.*`` keys of its config.

    Returns the final keys, attributes and features.
    """
    cfg = dict(attrs)
    features: dict[str, Any] = {}
    key_list = None if keys is None else list(keys)
    canon = schema.canonicalizer
    if canon is not None and schema.preprocessor is not None:
        raise CanonicalizationError(f"kind '{schema.name}' has both an attrs preprocessor and a target parser")
    if canon in ("cpu", "cpu-without-host-triple"):
        key_list = _cpu(schema.name, cfg, key_list, features, env, canon == "cpu", locate)
    elif canon == "cuda":
        _cuda(cfg, env, locate)
    elif canon == "nvptx":
        _nvptx(cfg, env, locate)
    elif canon == "rocm":
        _rocm(cfg, env, locate)
    elif canon == "webgpu":
        _webgpu(cfg, locate)
    elif canon == "test":
        features["is_test"] = True
    elif callable(canon):
        key_list = canon(cfg, key_list, features)

    device = cfg.get("device")
    assembled = list(key_list or ())
    if isinstance(device, str):
        assembled.append(device)
    if key_list is None:
        assembled.extend(schema.default_keys)
    final_keys = tuple(dict.fromkeys(assembled))

    if cfg.get("from_device") is not None:  # a null one is what an earlier resolve left
        del cfg["from_device"]
        if schema.device_type == _CPU and _QUERY_KEEPS_NULLS[0] <= version <= _QUERY_KEEPS_NULLS[1]:
            # TVM queried the device for every attribute not given. Only the CPU's device API is
            # there whatever TVM was built with, and it answers no property: v0.21 - v0.23 kept
            # each answer, null (from_device too), so none of them took its default afterwards;
            # the other releases skipped null answers. The device asked is the kind's:
            # target_device_type was not yet among the attributes.
            cfg.update((name, None) for name in schema.attrs if name not in cfg and name not in _STRUCTURAL)
    for name, spec in schema.attrs.items():
        if spec.default is not None and name not in cfg and name not in _STRUCTURAL:
            default = spec.default
            cfg[name] = tuple(default) if isinstance(default, list) else default
    if schema.preprocessor is not None:
        schema.preprocessor(cfg)
    if env.check_cl_opt and schema.name == "llvm" and cfg.get("cl-opt") is not None:
        _check_cl_opt(cfg["cl-opt"], locate)
    if given:
        features = _merged_features(schema, cfg, given, features)
    return final_keys, cfg, features


def _merged_features(
    schema: KindSchema, cfg: Mapping[str, Any], given: Mapping[str, Any], computed: dict[str, Any]
) -> dict[str, Any]:
    """TVM v0.24 on: the config's features put back after the canonicaliser, which wins where it
    set the same one (target.cc, FromConfig). The A-profile canonicaliser sets all of
    APROFILE_FEATURES from LLVM, which a pure parser cannot: a given one of them is dropped,
    never kept with a value TVM would have replaced."""
    aprofile = schema.name == "llvm" and schema.canonicalizer in ("cpu", "cpu-without-host-triple") and (
        is_aprofile(cfg) and not is_mprofile(cfg)
    )
    kept = {
        name: value
        for name, value in given.items()
        if name not in computed and not (aprofile and name in APROFILE_FEATURES)
    }
    return {**kept, **computed}
