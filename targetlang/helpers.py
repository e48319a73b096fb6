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

import warnings
from typing import Any

from ._helper_strings import (
    ARM_CPU_MODELS,
    CREATE_DEPRECATED,
    HELPERS,
    HEXAGON_ARCH,
    HEXAGON_VTCM_CAPACITY,
    RISCV_CPU_MODELS,
    STM32_SERIES,
    HelperWarning,
    Options,
    helper_string,
)
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


def cuda(model: str = "unknown", arch: str | None = None, options: Options = None) -> Target:
    """A CUDA target: ``cuda [-arch=<arch>] -model=<model> <options>``.

    Args:
        model: the device model, e.g. ``"1080ti"``.
        arch: the CUDA architecture, e.g. ``"sm_61"``; without it (and no ``-arch`` option) a
            :class:`HelperWarning` says the arch will be the detected GPU's.
        options: additional options.
    """
    return parse(HELPERS["cuda"](model, arch, options))


def rocm(model: str = "unknown", options: Options = None) -> Target:
    """A ROCm target: ``rocm -model=<model> <options>``.

    Args:
        model: the device model.
        options: additional options.
    """
    return parse(HELPERS["rocm"](model, options))


def mali(model: str = "unknown", options: Options = None) -> Target:
    """An ARM Mali GPU target: ``opencl -device=mali -model=<model> <options>``.

    Args:
        model: the device model.
        options: additional options.
    """
    return parse(HELPERS["mali"](model, options))


def intel_graphics(model: str = "unknown", options: Options = None) -> Target:
    """An Intel Graphics target: ``opencl -device=intel_graphics -model=<model>
    -thread_warp_size=16 <options>``.

    Args:
        model: the device model.
        options: additional options.
    """
    return parse(HELPERS["intel_graphics"](model, options))


def arm_cpu(model: str = "unknown", options: Options = None) -> Target:
    """An ARM CPU target: ``llvm -keys=arm_cpu,cpu -device=arm_cpu`` and the board's options
    from :data:`ARM_CPU_MODELS` (``-model=<model>`` for a board not in it), then ``options``.

    Args:
        model: the SoC or phone name, e.g. ``"rasp4b"``.
        options: additional options.
    """
    return parse(HELPERS["arm_cpu"](model, options))


def rasp(options: Options = None) -> Target:
    """A Raspberry Pi 3b target: ``arm_cpu("rasp3b", options)``; a deprecated spelling (gives
    a :class:`HelperWarning`).

    Args:
        options: additional options.
    """
    return parse(HELPERS["rasp"](options))


def bifrost(model: str = "unknown", options: Options = None) -> Target:
    """An ARM Mali GPU target of the Bifrost architecture: ``opencl -device=bifrost
    -model=<model> <options>``.

    Args:
        model: the device model.
        options: additional options.
    """
    return parse(HELPERS["bifrost"](model, options))


def riscv_cpu(model: str = "sifive-u54", options: Options = None) -> Target:
    """A RISC-V CPU target: ``llvm -keys=arm_cpu,cpu -device=arm_cpu`` and the CPU's options
    from :data:`RISCV_CPU_MODELS` (``-model=<model>`` for one not in it), then ``options``.

    Args:
        model: the CPU name, e.g. ``"sifive-u74"``.
        options: additional options.
    """
    return parse(HELPERS["riscv_cpu"](model, options))


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
    return parse(HELPERS["hexagon"](cpu_ver, **kwargs))


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
    return parse(HELPERS["stm32"](series, options))


def adreno(model: str = "unknown", options: Options = None, clml: bool = False) -> Target:
    """A Qualcomm Adreno GPU target: ``opencl -device=adreno --keys=adreno,opencl,gpu[,clml]
    -model=<model> <options>`` (v0.22's signature; see the module docstring for v0.23's).

    Args:
        model: the device model, e.g. ``"adreno640"``.
        options: additional options.
        clml: add the ``clml`` key, which dispatches to the CLML library.
    """
    return parse(HELPERS["adreno"](model, options, clml))


def create(target: Any) -> Target:
    """``parse(target)``, deprecated in TVM in favour of ``Target(...)`` (gives a
    :class:`HelperWarning`).

    Args:
        target: anything :func:`targetlang.parse` reads: a legacy string, tag, JSON text or
            config mapping. Only a string has a form in :data:`HELPERS`.
    """
    if isinstance(target, str):
        return parse(HELPERS["create"](target))
    warnings.warn(CREATE_DEPRECATED, HelperWarning, stacklevel=2)
    return parse(target)
