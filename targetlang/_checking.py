"""The checks of one target text, shared by ``targetlang check`` and ``targetlang logs check``.

A text passes when it reads (``parse``), prints back exactly as written (``round-trip``), its
canonical form reads back as the same target (``canonical``), and it resolves as TVM built it
(``resolve``). Every check runs even when an earlier one (but ``parse``) failed, so one run shows
everything wrong with a text.

>>> from targetlang._checking import check_spec
>>> check_spec("llvm  -mcpu=skylake").findings  # two spaces: still printed back exactly as written
()
>>> [f.rule for f in check_spec("cuda -arch=80").findings]
['resolve']
>>> check_spec("llvm -mcpux=skylake").findings[0].message
"kind 'llvm' has no attribute 'mcpux'; did you mean 'mcpu'?"
"""

from __future__ import annotations

from dataclasses import dataclass

from ._parsing import parse
from ._registry import Registry
from ._target import Target
from .errors import TargetError

__all__ = ["CHECKS", "CheckFinding", "SpecCheck", "check_spec", "finding"]

CHECKS = ("parse", "round-trip", "canonical", "resolve")


@dataclass(frozen=True, slots=True)
class CheckFinding:
    """One failed check of a text: which check (a name of :data:`CHECKS`), the error's class (or
    ``RoundTripMismatch``, ``CanonicalMismatch``), a one-line message, the message with its caret
    excerpt, and where in the text (when the error points into it)."""

    rule: str
    error: str
    message: str
    detail: str
    span: tuple[int, int] | None


@dataclass(frozen=True, slots=True)
class SpecCheck:
    """What checking one text found: the target it reads as (``None`` when it does not read), the
    resolved target (``None`` when it does not resolve), and the findings, in the order of
    :data:`CHECKS`."""

    spec: str
    target: Target | None
    resolved: Target | None
    findings: tuple[CheckFinding, ...]

    @property
    def ok(self) -> bool:
        """Whether every check passed."""
        return not self.findings

    def passed(self, rule: str) -> bool:
        """Whether the check ``rule`` ran and passed (after a failed parse, no other one ran)."""
        return self.target is not None and all(f.rule != rule for f in self.findings)


def finding(rule: str, spec: str, err: Exception) -> CheckFinding:
    """The finding of check ``rule`` that raised ``err`` on ``spec``. An error that is not a
    :class:`TargetError` is a bug of targetlang's, named as such: one text that trips it must not
    end a whole batch."""
    if isinstance(err, TargetError):
        # An error about another text (a host's own string, the canonical form) has no place in this one.
        span = err.span if err.source == spec else None
        return CheckFinding(rule, type(err).__name__, err.message, str(err), span)
    message = f"internal error (a bug in targetlang): {type(err).__name__}: {err}"
    return CheckFinding(rule, type(err).__name__, message, message, None)


def check_spec(
    spec: str, *, registry: Registry | None = None, era: str | None = None, canonical: bool = True
) -> SpecCheck:
    """Every check of :data:`CHECKS` on ``spec``, read with ``registry`` in ``era`` (as
    :func:`targetlang.parse`); ``canonical=False`` leaves out the canonical form's check."""
    try:
        target = parse(spec, registry=registry, era=era)
    except Exception as err:  # not only TargetError: see finding()
        return SpecCheck(spec, None, None, (finding("parse", spec, err),))
    findings: list[CheckFinding] = []
    printed = str(target)
    if printed != spec:
        message = f"str() gives {printed!r}, not the text as written"
        findings.append(CheckFinding("round-trip", "RoundTripMismatch", message, message, None))
    if canonical:
        try:
            text = target.canonical()
            same = parse(text, registry=registry) == target
        except Exception as err:
            findings.append(finding("canonical", spec, err))
        else:
            if not same:
                message = f"the canonical form {text!r} reads back as a different target"
                findings.append(CheckFinding("canonical", "CanonicalMismatch", message, message, None))
    resolved = None
    try:
        resolved = target.resolve()
    except Exception as err:
        findings.append(finding("resolve", spec, err))
    return SpecCheck(spec, target, resolved, tuple(findings))
