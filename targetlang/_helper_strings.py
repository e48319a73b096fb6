"""The legacy strings TVM v0.22's target helpers built, unparsed: their per-model tables, one
builder per helper (:data:`HELPERS`) and :func:`helper_string`. :mod:`targetlang.helpers` parses
them."""

from __future__ import annotations

import numbers
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

__all__ = [
    "ARM_CPU_MODELS",
    "HELPERS",
    "HEXAGON_ARCH",
    "HEXAGON_VTCM_CAPACITY",
    "RISCV_CPU_MODELS",
    "STM32_SERIES",
    "HelperWarning",
    "Options",
    "helper_string",
]

Options = str | Sequence[str] | None
"""Additional options: one string split at whitespace, or a list of option words."""


class HelperWarning(UserWarning):
    """A warning TVM's helper gave for the same call (a ``UserWarning``, as TVM's were)."""


_ARM_CPU_PREFIX = ("-keys=arm_cpu,cpu", "-device=arm_cpu")

ARM_CPU_MODELS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "pixel2": ("-model=snapdragon835", "-mtriple=arm64-linux-android", "-mattr=+neon"),
        "mate10": ("-model=kirin970", "-mtriple=arm64-linux-android", "-mattr=+neon"),
        "mate10pro": ("-model=kirin970", "-mtriple=arm64-linux-android", "-mattr=+neon"),
        "p20": ("-model=kirin970", "-mtriple=arm64-linux-android", "-mattr=+neon"),
        "p20pro": ("-model=kirin970", "-mtriple=arm64-linux-android", "-mattr=+neon"),
        "rasp3b": ("-model=bcm2837", "-mtriple=armv7l-linux-gnueabihf", "-mattr=+neon"),
        "rasp4b": ("-model=bcm2711", "-mtriple=armv8l-linux-gnueabihf", "-mattr=+neon", "-mcpu=cortex-a72"),
        "rasp4b64": ("-model=bcm2711", "-mtriple=aarch64-linux-gnu", "-mattr=+neon", "-mcpu=cortex-a72"),
        "rk3399": ("-model=rk3399", "-mtriple=aarch64-linux-gnu", "-mattr=+neon"),
        "pynq": ("-model=pynq", "-mtriple=armv7a-linux-eabi", "-mattr=+neon"),
        "ultra96": ("-model=ultra96", "-mtriple=aarch64-linux-gnu", "-mattr=+neon"),
        "beagleai": (
            "-model=beagleai",
            "-mtriple=armv7a-linux-gnueabihf",
            "-mattr=+neon,+vfp4,+thumb2",
            "-mcpu=cortex-a15",
        ),
        "stm32mp1": (
            "-model=stm32mp1",
            "-mtriple=armv7a-linux-gnueabihf",
            "-mattr=+neon,+vfp4,+thumb2",
            "-mcpu=cortex-a7",
        ),
        "thunderx": (
            "-model=thunderx",
            "-mtriple=aarch64-linux-gnu",
            "-mattr=+neon,+crc,+lse",
            "-mcpu=thunderxt88",
        ),
    }
)
"""``arm_cpu``'s boards: model name to the options that follow ``-keys=arm_cpu,cpu
-device=arm_cpu``. Any other model gets ``-model=<model>`` alone."""

RISCV_CPU_MODELS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "sifive-e31": ("-model=sifive-e31", "-mtriple=riscv32-unknown-linux-gnu", "-mcpu=sifive-e31", "-mabi=ilp32"),
        "sifive-e76": ("-model=sifive-e76", "-mtriple=riscv32-unknown-linux-gnu", "-mcpu=sifive-e76", "-mabi=ilp32"),
        "sifive-u54": ("-model=sifive-u54", "-mtriple=riscv64-unknown-linux-gnu", "-mcpu=sifive-u54", "-mabi=lp64d"),
        "sifive-u74": ("-model=sifive-u74", "-mtriple=riscv64-unknown-linux-gnu", "-mcpu=sifive-u74", "-mabi=lp64d"),
        # New in v0.22; unlike the others it sets no -model.
        "licheepi3a": (
            "-num-cores=8",
            "-mtriple=riscv64-unknown-linux-gnu",
            "-mcpu=spacemit-x60",
            "-mfloat-abi=hard",
            "-mabi=lp64d",
        ),
    }
)
"""``riscv_cpu``'s CPUs: model name to the options that follow ``-keys=arm_cpu,cpu
-device=arm_cpu`` (TVM gave RISC-V targets ARM's keys). Any other model gets ``-model=<model>``."""

STM32_SERIES: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        # High-performance
        "stm32H7xx": ("-mcpu=cortex-m7", "-march=armv7e-m"),
        "stm32F7xx": ("-mcpu=cortex-m7",),
        "stm32F4xx": ("-mcpu=cortex-m4",),
        "stm32F2xx": ("-mcpu=cortex-m3",),
        # Mainstream
        "stm32G0xx": ("-mcpu=cortex-m0+",),
        "stm32F0xx": ("-mcpu=cortex-m0",),
        "stm32F1xx": ("-mcpu=cortex-m3",),
        "stm32G4xx": ("-mcpu=cortex-m4",),
        "stm32F3xx": ("-mcpu=cortex-m4",),
        # Low-power
        "stm32U5xx": ("-mcpu=cortex-m33",),
        "stm32L5xx": ("-mcpu=cortex-m33",),
        "stm32L4xx": ("-mcpu=cortex-m4",),
        "stm32L1xx": ("-mcpu=cortex-m3",),
        "stm32L0xx": ("-mcpu=cortex-m0+",),
    }
)
"""``stm32``'s series (names case-sensitive, as TVM had them): series to the options that follow
``-keys=arm_cpu,cpu -device=arm_cpu``."""

HEXAGON_ARCH: Mapping[str, int] = MappingProxyType(
    {"v65": 65, "v66": 66, "v67": 67, "v67t": 67, "v68": 68, "v69": 69, "v71": 71, "v73": 73, "v75": 75}
)
"""The Hexagon versions ``hexagon`` accepts, each with its architecture number (which decides
the default of ``use_qfloat`` and whether the HVX float features are written at all)."""

_MIB = 2**20
HEXAGON_VTCM_CAPACITY: Mapping[str, int] = MappingProxyType(
    {"v65": _MIB // 4, "v66": _MIB // 4, "v68": 4 * _MIB, "v69": 8 * _MIB, "v73": 8 * _MIB, "v75": 8 * _MIB}
)
"""The default ``vtcm_capacity`` in bytes per Hexagon version; versions not listed get 0
(unbounded)."""

# (keyword, LLVM feature): written as +feature or -feature from v68 on.
_HEXAGON_FEATURES = (("use_qfloat", "hvx-qfloat"), ("use_ieee_fp", "hvx-ieee-fp"))
_HVX_LENGTHS = (0, 64, 128)

_CUDA_NO_ARCH = "no CUDA arch given: TVM fills in the arch of the GPU it finds; pass arch='sm_XY'"
_RASP_DEPRECATED = 'rasp() was deprecated in TVM: use arm_cpu("rasp3b")'
CREATE_DEPRECATED = "create() was deprecated in TVM: use targetlang.parse() (TVM's Target())"
_SIM_DEPRECATED = (
    "simulator options in a Hexagon target were deprecated in TVM (it reads HEXAGON_SIM_ARGS instead); "
    "they are left out of the target"
)
_LLVM_ARGS_DEPRECATED = "the keyword 'llvm_args' was deprecated in TVM: use 'llvm_options'"


def _warn(message: str) -> None:
    # Three frames up is the caller of the public helper (or of helper_string): caller, helper, builder.
    warnings.warn(message, HelperWarning, stacklevel=4)


def _merge(base: Sequence[str], options: Options) -> list[str]:
    """``base`` followed by the options it does not already contain word for word."""
    if isinstance(options, str):
        extra = options.split()
    elif not options:
        extra = []
    else:
        extra = list(options) if isinstance(options, Iterable) else [options]
        if not all(isinstance(word, str) for word in extra):
            raise TypeError(f"options is a string or a list of strings, not {options!r}")
    # Only duplicates of the helper's own options go: repeats among the user's are kept.
    present = set(base)
    return [*base, *(word for word in extra if word not in present)]


def _join(kind: str, options: Sequence[str]) -> str:
    return " ".join([kind, *options])


def _cuda(model: str = "unknown", arch: str | None = None, options: Options = None) -> str:
    opts = _merge([f"-model={model}"], options)
    if arch:
        opts = _merge([f"-arch={arch}"], opts)
    # TVM looked for the substring anywhere, so an option merely containing "-arch" counts.
    if not any("-arch" in word for word in opts):
        _warn(_CUDA_NO_ARCH)
    return _join("cuda", opts)


def _rocm(model: str = "unknown", options: Options = None) -> str:
    return _join("rocm", _merge([f"-model={model}"], options))


def _mali(model: str = "unknown", options: Options = None) -> str:
    return _join("opencl", _merge(["-device=mali", f"-model={model}"], options))


def _intel_graphics(model: str = "unknown", options: Options = None) -> str:
    return _join("opencl", _merge(["-device=intel_graphics", f"-model={model}", "-thread_warp_size=16"], options))


def _arm_cpu(model: str = "unknown", options: Options = None) -> str:
    board = ARM_CPU_MODELS.get(model, (f"-model={model}",))
    return _join("llvm", _merge([*_ARM_CPU_PREFIX, *board], options))


def _rasp(options: Options = None) -> str:
    _warn(_RASP_DEPRECATED)
    return _arm_cpu("rasp3b", options)


def _bifrost(model: str = "unknown", options: Options = None) -> str:
    return _join("opencl", _merge(["-device=bifrost", f"-model={model}"], options))


def _riscv_cpu(model: str = "sifive-u54", options: Options = None) -> str:
    cpu = RISCV_CPU_MODELS.get(model, (f"-model={model}",))
    return _join("llvm", _merge([*_ARM_CPU_PREFIX, *cpu], options))


def _hexagon_version(cpu_ver: Any) -> str:
    """The version named by ``cpu_ver``: from its first ``v`` on, lower-cased (``hexagonv68``,
    ``v67T``)."""
    read = ""
    if isinstance(cpu_ver, str) and "v" in cpu_ver:
        version = cpu_ver[cpu_ver.index("v") :].lower()
        if version in HEXAGON_ARCH:
            return version
        if version != cpu_ver:
            read = f" (read as {version!r})"
    raise ValueError(f"{cpu_ver!r}{read} is not a valid Hexagon version; valid versions are {', '.join(HEXAGON_ARCH)}")


def _is_real(value: object) -> bool:
    # A plain bool, so the value stays Any: typeshed's numbers.Real supports neither int() nor <.
    return isinstance(value, numbers.Real)


def _decimal(name: str, value: Any) -> str:
    """``value`` written as a whole number, truncated as TVM's ``%d`` did."""
    if _is_real(value):
        try:
            return str(int(value))
        except (ValueError, OverflowError):
            pass
    raise ValueError(f"{name} is a whole number, not {value!r}")


def _hexagon_features(version: str, arch: int, config: Mapping[str, Any]) -> list[str]:
    hvx = config["hvx"]
    # Any length of 0 or less turns HVX off, as in TVM.
    if not _is_real(hvx) or (hvx > 0 and hvx not in _HVX_LENGTHS):
        raise ValueError(f"hvx is the HVX vector length in bytes, one of {list(_HVX_LENGTHS)}, not {hvx!r}")
    features = [f"+hvx{version}", f"+hvx-length{hvx}b"] if hvx > 0 else ["-hvx"]
    if arch >= 68:  # the float features exist from v68 on; earlier versions get neither sign
        for keyword, feature in _HEXAGON_FEATURES:
            value = config[keyword]
            try:
                # TVM indexed "-+" with the value: False/0 and -2 give "-", True/1 and -1 give "+".
                sign = "-+"[value]
            except (IndexError, TypeError):
                raise ValueError(f"{keyword} is a bool, not {value!r}") from None
            features.append(sign + feature)
    return features


def _hexagon_llvm_options(arch: int, options: Any) -> list[str]:
    if arch == 68:
        # TVM turned on HVX float auto-vectorisation for every v68 target.
        options = options or ""
        if isinstance(options, str):
            options += " -force-hvx-float"
    if options is None:
        return []
    if not isinstance(options, str):
        # TVM's docstring allowed a list here, but its helper failed on one.
        raise ValueError(f"llvm_options is a string of LLVM flags separated by spaces, not {options!r}")
    # '=' cannot stand in a target option's value, so TVM wrote it as '@' (read back by the backend).
    return [flag.replace("=", "@") for flag in options.split()]


def _hexagon(cpu_ver: str = "v68", **kwargs: Any) -> str:
    version = _hexagon_version(cpu_ver)
    arch = HEXAGON_ARCH[version]
    # Unknown keywords are accepted and ignored, as TVM did.
    config: dict[str, Any] = {
        "hvx": 128,
        "llvm_options": None,
        "use_qfloat": arch >= 68,
        "use_ieee_fp": False,
        "vtcm_capacity": HEXAGON_VTCM_CAPACITY.get(version, 0),
        **kwargs,
    }
    if config.get("sim_args") or config.get("sim_options"):
        _warn(_SIM_DEPRECATED)
    if config.get("llvm_args"):
        _warn(_LLVM_ARGS_DEPRECATED)
        config["llvm_options"] = config["llvm_args"]
    words = [
        "-mtriple=hexagon",
        f"-mcpu=hexagon{version}",
        "-mattr=" + ",".join(_hexagon_features(version, arch, config)),
    ]
    flags = _hexagon_llvm_options(arch, config["llvm_options"])
    if flags:
        words.append("--llvm-options=" + ",".join(flags))
    words.append("--num-cores=" + _decimal("num_cores", config.get("num_cores", 4)))
    words.append("--vtcm-capacity=" + _decimal("vtcm_capacity", config["vtcm_capacity"]))
    return _join("hexagon", words)


def _stm32(series: str = "unknown", options: Options = None) -> str:
    if series not in STM32_SERIES:
        raise ValueError(f"{series!r} is not an STM32 series stm32() knows; known: {', '.join(STM32_SERIES)}")
    return _join("c", _merge([*_ARM_CPU_PREFIX, *STM32_SERIES[series]], options))


def _adreno(model: str = "unknown", options: Options = None, clml: bool = False) -> str:
    keys = "adreno,opencl,gpu,clml" if clml else "adreno,opencl,gpu"
    return _join("opencl", _merge(["-device=adreno", f"--keys={keys}", f"-model={model}"], options))


def _create(target: str) -> str:
    if not isinstance(target, str):
        raise TypeError(f"create() has a string form only for a target string, not {type(target).__name__}")
    _warn(CREATE_DEPRECATED)
    return target


HELPERS: Mapping[str, Callable[..., str]] = MappingProxyType(
    {
        "cuda": _cuda,
        "rocm": _rocm,
        "mali": _mali,
        "intel_graphics": _intel_graphics,
        "arm_cpu": _arm_cpu,
        "rasp": _rasp,
        "bifrost": _bifrost,
        "riscv_cpu": _riscv_cpu,
        "hexagon": _hexagon,
        "stm32": _stm32,
        "adreno": _adreno,
        "create": _create,
    }
)
"""Helper name to its string builder: same parameters as the helper, returns the legacy string
TVM v0.22's helper passed to ``Target(...)``, unparsed."""


def helper_string(name: str, *args: Any, **kwargs: Any) -> str:
    """The legacy string TVM v0.22's ``tvm.target.<name>(*args, **kwargs)`` built, unparsed.

    Raises :class:`ValueError` for a name that is not one of :data:`HELPERS` and where TVM's
    helper failed; gives the helper's :class:`HelperWarning` s.
    """
    builder = HELPERS.get(name)
    if builder is None:
        raise ValueError(f"{name!r} is not a target helper; the helpers are {', '.join(HELPERS)}")
    return builder(*args, **kwargs)
