"""The target helper constructors TVM 0.24 removed, as they were in TVM v0.22.0.

``tvm.target.cuda``, ``rocm``, ``mali``, ``intel_graphics``, ``arm_cpu``, ``rasp``, ``bifrost``,
``riscv_cpu``, ``hexagon``, ``stm32``, ``adreno`` and ``create`` built a legacy target string and
handed it to ``Target(...)``. Each function here has the same name and signature, builds the same
string byte for byte, and returns it parsed as a :class:`targetlang.Target`:

>>> from targetlang import helpers
>>> str(helpers.arm_cpu("rasp3b"))
'llvm -keys=arm_cpu,cpu -device=arm_cpu -model=bcm2837 -mtriple=armv7l-linux-gnueabihf -mattr=+neon'

A source rewriter that wants the string without parsing it calls :func:`helper_string` (or the
builder in :data:`HELPERS` directly):

>>> helpers.helper_string("cuda", "a100", arch="sm_80")
'cuda -arch=sm_80 -model=a100'

The per-model options are the module-level tables :data:`ARM_CPU_MODELS`,
:data:`RISCV_CPU_MODELS`, :data:`STM32_SERIES`, :data:`HEXAGON_ARCH` and
:data:`HEXAGON_VTCM_CAPACITY`. Where TVM's helper failed (an unknown Hexagon version or STM32
series, a bad ``hvx``), the builder raises :class:`ValueError`; a built string the language does
not accept raises a :class:`targetlang.TargetError` (also a ``ValueError``) from the parse. The
warnings TVM's helpers gave (no CUDA arch, deprecated functions and keywords) are given too, as
:class:`HelperWarning`.

Versions: TVM v0.21 had the same helpers except ``riscv_cpu``'s ``licheepi3a`` model (added in
v0.22). TVM v0.23 changed ``adreno``'s signature to ``adreno(model="unknown", options=None,
cfg=None, backend="opencl")`` (``cfg`` replaces ``clml``: extra keys after ``adreno,<backend>,gpu``;
``backend="vulkan"`` makes a vulkan target); this module follows v0.22's
``adreno(model="unknown", options=None, clml=False)``.
"""

from __future__ import annotations

import numbers
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from ._parsing import parse
from ._target import Target

__all__ = [
    "ARM_CPU_MODELS",
    "HELPERS",
    "HEXAGON_ARCH",
    "HEXAGON_VTCM_CAPACITY",
    "RISCV_CPU_MODELS",
    "STM32_SERIES",
    "HelperWarning",
    "Options",
    "adreno",
    "arm_cpu",
    "bifrost",
    "create",
    "cuda",
    "helper_string",
    "hexagon",
    "intel_graphics",
    "mali",
    "rasp",
    "riscv_cpu",
    "rocm",
    "stm32",
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
_CREATE_DEPRECATED = "create() was deprecated in TVM: use targetlang.parse() (TVM's Target())"
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


# ------------------------------------------------------------------ string builders


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
    _warn(_CREATE_DEPRECATED)
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


# ------------------------------------------------------------------ the helpers


def cuda(model: str = "unknown", arch: str | None = None, options: Options = None) -> Target:
    """A CUDA target: ``cuda [-arch=<arch>] -model=<model> <options>``.

    Args:
        model: the device model, e.g. ``"1080ti"``.
        arch: the CUDA architecture, e.g. ``"sm_61"``; without it (and no ``-arch`` option) a
            :class:`HelperWarning` says the arch will be the detected GPU's.
        options: additional options.
    """
    return parse(_cuda(model, arch, options))


def rocm(model: str = "unknown", options: Options = None) -> Target:
    """A ROCm target: ``rocm -model=<model> <options>``.

    Args:
        model: the device model.
        options: additional options.
    """
    return parse(_rocm(model, options))


def mali(model: str = "unknown", options: Options = None) -> Target:
    """An ARM Mali GPU target: ``opencl -device=mali -model=<model> <options>``.

    Args:
        model: the device model.
        options: additional options.
    """
    return parse(_mali(model, options))


def intel_graphics(model: str = "unknown", options: Options = None) -> Target:
    """An Intel Graphics target: ``opencl -device=intel_graphics -model=<model>
    -thread_warp_size=16 <options>``.

    Args:
        model: the device model.
        options: additional options.
    """
    return parse(_intel_graphics(model, options))


def arm_cpu(model: str = "unknown", options: Options = None) -> Target:
    """An ARM CPU target: ``llvm -keys=arm_cpu,cpu -device=arm_cpu`` and the board's options
    from :data:`ARM_CPU_MODELS` (``-model=<model>`` for a board not in it), then ``options``.

    Args:
        model: the SoC or phone name, e.g. ``"rasp4b"``.
        options: additional options.
    """
    return parse(_arm_cpu(model, options))


def rasp(options: Options = None) -> Target:
    """A Raspberry Pi 3b target: ``arm_cpu("rasp3b", options)``; a deprecated spelling (gives
    a :class:`HelperWarning`).

    Args:
        options: additional options.
    """
    return parse(_rasp(options))


def bifrost(model: str = "unknown", options: Options = None) -> Target:
    """An ARM Mali GPU target of the Bifrost architecture: ``opencl -device=bifrost
    -model=<model> <options>``.

    Args:
        model: the device model.
        options: additional options.
    """
    return parse(_bifrost(model, options))


def riscv_cpu(model: str = "sifive-u54", options: Options = None) -> Target:
    """A RISC-V CPU target: ``llvm -keys=arm_cpu,cpu -device=arm_cpu`` and the CPU's options
    from :data:`RISCV_CPU_MODELS` (``-model=<model>`` for one not in it), then ``options``.

    Args:
        model: the CPU name, e.g. ``"sifive-u74"``.
        options: additional options.
    """
    return parse(_riscv_cpu(model, options))


def hexagon(cpu_ver: str = "v68", **kwargs: Any) -> Target:
    """A Hexagon target: ``hexagon -mtriple=hexagon -mcpu=hexagon<ver> -mattr=<features>
    [--llvm-options=<flags>] --num-cores=<n> --vtcm-capacity=<bytes>``.

    Args:
        cpu_ver: the Hexagon version, one of :data:`HEXAGON_ARCH`; anything before its first
            ``v`` is ignored and case is folded (``"hexagonv68"`` is ``"v68"``).
        **kwargs: ``hvx`` (HVX vector length in bytes: 0, 64 or 128; 0 or less turns HVX off;
            default 128), ``llvm_options`` (LLVM flags separated by spaces; ``=`` is written as
            ``@``; v68 always adds ``-force-hvx-float``), ``use_qfloat`` (default: true from
            v68), ``use_ieee_fp`` (default false; both only written from v68), ``num_cores``
            (default 4), ``vtcm_capacity`` (default from :data:`HEXAGON_VTCM_CAPACITY`). The
            deprecated ``llvm_args`` replaces ``llvm_options``; ``sim_options``/``sim_args``
            are left out of the target; both give a :class:`HelperWarning`. Other keywords are
            ignored.

    Raises:
        ValueError: for an unknown version or a bad ``hvx``, ``use_qfloat``, ``use_ieee_fp``,
            ``llvm_options``, ``num_cores`` or ``vtcm_capacity``.
    """
    return parse(_hexagon(cpu_ver, **kwargs))


def stm32(series: str = "unknown", options: Options = None) -> Target:
    """An STM32 target: ``c -keys=arm_cpu,cpu -device=arm_cpu`` and the series' options from
    :data:`STM32_SERIES`, then ``options``.

    Args:
        series: the board series, e.g. ``"stm32H7xx"`` (the default names none: a series is
            required, as it was in TVM).
        options: additional options.

    Raises:
        ValueError: for a series not in :data:`STM32_SERIES`.
    """
    return parse(_stm32(series, options))


def adreno(model: str = "unknown", options: Options = None, clml: bool = False) -> Target:
    """A Qualcomm Adreno GPU target: ``opencl -device=adreno --keys=adreno,opencl,gpu[,clml]
    -model=<model> <options>`` (v0.22's signature; see the module docstring for v0.23's).

    Args:
        model: the device model, e.g. ``"adreno640"``.
        options: additional options.
        clml: add the ``clml`` key, which dispatches to the CLML library.
    """
    return parse(_adreno(model, options, clml))


def create(target: Any) -> Target:
    """``parse(target)``, deprecated in TVM in favour of ``Target(...)`` (gives a
    :class:`HelperWarning`).

    Args:
        target: anything :func:`targetlang.parse` reads: a legacy string, tag, JSON text or
            config mapping. Only a string has a form in :data:`HELPERS`.
    """
    if isinstance(target, str):
        return parse(_create(target))
    warnings.warn(_CREATE_DEPRECATED, HelperWarning, stacklevel=2)
    return parse(target)
