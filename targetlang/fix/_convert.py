"""One legacy target text to what ``targetlang fix`` writes instead, through :func:`migrate`.

Shared by every rule that meets a target written as text: a string literal, the string a helper
built, an f-string read with placeholders, a target in a shell script.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .._cache import bounded_cache
from .._registry import Registry
from .._versions import MODERN, release_title
from ..errors import TargetError
from ..migration import Change, equal_tags, migrate, reading_registry
from ._literal import PLACEHOLDER
from ._rules import Safety

__all__ = ["Conversion", "convert", "known_kind", "options_of", "reading_registry"]


@dataclass(frozen=True)
class Conversion:
    """``config`` (the modern config) or ``tag`` (a TVM 0.27 tag equal to it) to write, or
    neither when the text cannot migrate; ``safety`` of writing it; ``message`` says what was
    found and done, ``changes`` are migrate's."""

    config: dict[str, Any] | None
    tag: str | None
    changes: tuple[Change, ...]
    safety: Safety
    message: str

    @property
    def rule_ids(self) -> tuple[str, ...]:
        """The ids of the migration rules applied, each once, in order."""
        return tuple(dict.fromkeys(change.rule for change in self.changes))


def options_of(text: str) -> tuple[str, list[str]] | None:
    """``(first word, other words)`` of a text in the legacy form with at least one option, or
    ``None`` for a bare kind or tag, JSON text, or an empty text: TVM 0.27 reads those as they are."""
    words = text.split()
    if len(words) < 2 or text.lstrip().startswith("{"):
        return None
    return words[0], words[1:]


def known_kind(name: str, registry: Registry | None) -> bool:
    """``name`` is a kind some TVM release had, or one of ``registry``'s user kinds."""
    return name in reading_registry(registry).kinds


def _tag_for(config: dict[str, Any], hint: str | None, to: str) -> str | None:
    """The tag of TVM ``to`` equal to ``config`` whose name is about ``hint`` (a model, a cpu
    version): a tag with the same configuration but of another product is never taken."""
    if not hint or PLACEHOLDER.search(hint):
        return None
    wanted = hint.lower()
    for name in equal_tags(config, to=to):
        product = name.rsplit("/", 1)[-1].lower()
        if product == wanted or product.endswith("-" + wanted) or (product.endswith(wanted) and len(wanted) >= 4):
            return name
    return None


def _first_line(err: TargetError) -> str:
    return str(err).split("\n", 1)[0]


@bounded_cache(4096)
def convert(
    text: str,
    registry: Registry | None = None,
    hint: str | None = None,
    prefer_tags: bool = False,
    to: str = str(MODERN),
) -> Conversion:
    """What to write for the legacy target ``text``, for modern release ``to``. ``hint`` names the
    product (a helper's model argument) when a same-purpose tag of ``to`` may be written instead
    of a config; ``prefer_tags`` takes the target's own ``model`` as that hint."""
    words = text.split()
    # A kind of the user's registry (a fork's own): that fork's TVM reads it, so it is kept.
    own = bool(words) and registry is not None and words[0] in registry.kinds and not known_kind(words[0], None)
    try:
        result = migrate(text, registry=registry, policy="keep" if own else "error", to=to)
    except TargetError as err:
        return Conversion(None, None, (), "report-only", f"cannot read the target: {_first_line(err)}")
    changes = result.changes
    if result.json is None:
        problems = "; ".join(f"{c.rule}: {c.message}" for c in changes if c.severity == "error")
        return Conversion(None, None, changes, "report-only", f"cannot migrate: {problems}")
    expected = [c for c in changes if own and c.rule == "unknown-attribute"]
    warned = [f"{c.rule}: {c.message}" for c in changes if c.severity == "warning" and c not in expected]
    notes = [f"{c.rule}: {c.message}" for c in changes if c.severity == "info"]
    if expected:
        notes.append(f"kind {words[0]!r} is the registry's own ({release_title(to)} itself does not know it)")
    model = result.json.get("model")
    if hint is None and prefer_tags and isinstance(model, str):
        hint = model
    tag = _tag_for(result.json, hint, to)
    message = "legacy target string" + (f"; {'; '.join(notes + warned)}" if notes or warned else "")
    if tag is not None:
        message += f"; equals {release_title(to)}'s tag {tag!r}"
    return Conversion(result.json, tag, changes, "unsafe" if warned else "safe", message)
