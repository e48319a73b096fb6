"""TVM v0.22's ``Target.canon_*`` helpers, for code ported from TVM (spec section 5.4).

TVM's Python ``Target`` class (python/tvm/target/target.py@v0.22.0) had five static helpers
that normalise the many ways callers passed targets and hosts; TVM removed them in v0.24.
They are reproduced here as functions over :func:`targetlang.parse` and
:meth:`Target.with_host`:

* :func:`canon_target` -- one target-like value (or ``None``) to a :class:`Target`;
* :func:`canon_target_and_host` -- a target plus an optional host, attached only when the
  target has none;
* :func:`canon_multi_target` -- one target, a list of them, or the legacy
  ``{device_type: target}`` map, to a tuple of targets;
* :func:`canon_multi_target_and_host` -- the same, with the host attached to every target;
* :func:`canon_target_map_and_host` -- a ``{target: module}`` map with the host attached to
  every key.

A *target-like* value is a :class:`Target`, a spec string (legacy string, tag name or JSON
text) or a config mapping. The returned targets are what :func:`targetlang.parse` returns:
not resolved (call :meth:`Target.resolve` for TVM's construction-time canonicalisation).

Where TVM used bare ``assert`` statements, these functions raise ordinary exceptions instead
(asserts vanish under ``python -O``):

* a host without a target (TVM: ``AssertionError: Target host is not empty when target is
  empty.``) raises :class:`ValueError` -- the arguments are inconsistent, but neither is a
  malformed target, so it is deliberately not a :class:`~targetlang.TargetError`;
* ``None`` where at least one target is required raises :class:`TypeError` (``None`` is not
  a target spec, as :func:`targetlang.parse` says for any other non-spec value);
* an empty collection of targets raises :class:`ValueError`.

Malformed specs raise the usual :class:`~targetlang.TargetError` subclasses from the parser.
Attaching a host through a ``target_host`` argument emits a :class:`DeprecationWarning` with
TVM's message (TVM used a plain ``UserWarning``; the warning is about a deprecated calling
convention, which is what :class:`DeprecationWarning` is for).
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from typing import Any, TypeAlias, TypeVar, cast, overload

from ._parsing import parse
from ._registry import Registry
from ._target import Target, TargetSpec

__all__ = [
    "TargetLike",
    "canon_multi_target",
    "canon_multi_target_and_host",
    "canon_target",
    "canon_target_and_host",
    "canon_target_map_and_host",
]

TargetLike: TypeAlias = Target | str | Mapping[str, Any]
"""What :func:`targetlang.parse` accepts: a Target, a spec string or a config mapping."""

V = TypeVar("V")

HOST_DEPRECATION = (
    "target_host parameter is going to be deprecated. "
    "Please pass in tvm.target.Target(target, host=target_host) instead."
)
"""TVM's warning text when a host arrives through a separate ``target_host`` argument."""


@overload
def canon_target(target: None, *, registry: Registry | None = None) -> None: ...


@overload
def canon_target(target: TargetLike, *, registry: Registry | None = None) -> Target: ...


def canon_target(target: TargetLike | None, *, registry: Registry | None = None) -> Target | None:
    """``Target.canon_target``: ``None`` stays ``None``, a Target is returned as is, anything
    else is parsed (with ``registry``, default the built-in one)."""
    if target is None:
        return None
    return parse(target, registry=registry)


def canon_target_and_host(
    target: TargetLike | None,
    target_host: TargetLike | None = None,
    *,
    registry: Registry | None = None,
) -> tuple[Target | None, Target | None]:
    """``Target.canon_target_and_host``: the target, with ``target_host`` attached if it had
    no host, and that target's host.

    A host the target already carries wins over ``target_host`` (which is then ignored).
    ``(None, None)`` gives ``(None, None)``.

    Raises:
        ValueError: ``target`` is ``None`` but ``target_host`` is not (TVM: AssertionError).
    """
    canon = canon_target(target, registry=registry)
    if canon is None:
        if target_host is not None:
            raise ValueError("Target host is not empty when target is empty.")
        return None, None
    if canon.host is None and target_host is not None:
        warnings.warn(HOST_DEPRECATION, DeprecationWarning, stacklevel=2)
        canon = canon.with_host(canon_target(target_host, registry=registry))
    return canon, canon.host


@overload
def canon_multi_target(multi_targets: None, *, registry: Registry | None = None) -> None: ...


@overload
def canon_multi_target(
    multi_targets: TargetLike | Sequence[TargetLike] | Mapping[Any, TargetLike],
    *,
    registry: Registry | None = None,
) -> tuple[Target, ...]: ...


def canon_multi_target(
    multi_targets: TargetLike | Sequence[TargetLike] | Mapping[Any, TargetLike] | None,
    *,
    registry: Registry | None = None,
) -> tuple[Target, ...] | None:
    """``Target.canon_multi_target``: one target, a list or tuple of them, or the legacy
    heterogeneous map ``{device_type: target}`` to a tuple of targets; ``None`` to ``None``.

    A mapping with a ``"kind"`` entry is one target's config; any other mapping is the legacy
    map, whose keys are ignored and whose values are kept in their order. ``None`` items are
    rejected with :class:`TypeError` (TVM would have produced a null array element).
    """
    if multi_targets is None:
        return None
    if isinstance(multi_targets, Mapping) and "kind" not in multi_targets:
        return tuple(parse(item, registry=registry) for item in multi_targets.values())
    if isinstance(multi_targets, (list, tuple)):
        return tuple(parse(item, registry=registry) for item in multi_targets)
    # (what is left is one target's spec; any other value is the parser's InvalidSpecError)
    return (parse(cast(TargetSpec, multi_targets), registry=registry),)


def canon_multi_target_and_host(
    target: TargetLike | Sequence[TargetLike] | Mapping[Any, TargetLike] | None,
    target_host: TargetLike | None = None,
    *,
    registry: Registry | None = None,
) -> tuple[Target, ...]:
    """``Target.canon_multi_target_and_host``: :func:`canon_multi_target`, and if the first
    target has no host and ``target_host`` is given, ``target_host`` becomes the host of
    every target (replacing hosts the later targets may have had, as in TVM).

    Raises:
        TypeError: ``target`` is ``None`` (TVM: AssertionError).
        ValueError: ``target`` is an empty collection (TVM: AssertionError).
    """
    targets = canon_multi_target(target, registry=registry)
    if targets is None:
        raise TypeError("canon_multi_target_and_host needs a target, not None")
    if not targets:
        raise ValueError("canon_multi_target_and_host needs at least one target, got an empty collection")
    if targets[0].host is None and target_host is not None:
        warnings.warn(HOST_DEPRECATION, DeprecationWarning, stacklevel=2)
        host = canon_target(target_host, registry=registry)
        targets = tuple(t.with_host(host) for t in targets)
    return targets


def canon_target_map_and_host(
    target_map: Mapping[Any, V],
    target_host: TargetLike | None = None,
    *,
    registry: Registry | None = None,
) -> tuple[dict[Target, V], Target | None]:
    """``Target.canon_target_map_and_host``: the ``{target: module}`` map with every key parsed
    and given a host, and that host.

    The host is the one of the first key that has a host, or else ``target_host``; it is
    attached to every key without a host (keys with their own host keep it). Values are kept
    as they are, in order; keys that parse to equal targets collapse to one entry, the later
    value winning. No warning is given, as in TVM. Returns ``(new_map, host)``; ``host`` is
    ``None`` when no key had one and no ``target_host`` was given.

    Raises:
        TypeError: a key is ``None`` (TVM: AssertionError).
    """
    new_map: dict[Target, V] = {}
    host: Target | None = None
    for spec, module in target_map.items():
        target = parse(spec, registry=registry)
        if host is None:
            if target.host is not None:
                host = target.host
            elif target_host is not None:
                host = canon_target(target_host, registry=registry)
        if target.host is None and host is not None:
            target = target.with_host(host)
        new_map[target] = module
    return new_map, host
