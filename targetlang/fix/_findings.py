"""What ``targetlang fix`` found in a text, and the text it made."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ._rules import Safety

__all__ = ["Finding", "FixResult", "UseSite"]


@dataclass(frozen=True)
class UseSite:
    """A place the value of a finding is used: ``line`` and ``column`` (from 1), the ``kind`` of
    use (``target``, ``string``, ``call``, ``export``, ``return``, ``rejection``, ``other``) and
    ``what`` happens to it there."""

    line: int
    column: int
    kind: str
    what: str

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "column": self.column, "kind": self.kind, "what": self.what}


@dataclass(frozen=True)
class Finding:
    """One legacy construct found in a text.

    ``line`` and ``column`` (both from 1) locate ``before``, the exact source text found.
    ``after`` is what replaces it (for a report-only finding: the suggestion, or ``None`` when
    there is none); ``applied`` says whether the returned text has it. ``changes`` are the ids of
    the migration rules (``targetlang.migration.RULES``) that the conversion applied, as
    ``targetlang migrate`` reports them. For a target written as a value, ``uses`` are the places
    the value is used, and ``reason`` says which one keeps the fix from being safe.
    """

    path: str
    line: int
    column: int
    rule: str
    message: str
    before: str
    after: str | None
    safety: Safety
    applied: bool = False
    changes: tuple[str, ...] = ()
    reason: str | None = None
    uses: tuple[UseSite, ...] = ()
    # found in a code block of a document: applied only with docs=True (--docs)
    in_document: bool = False
    cell: int | None = None
    """For a finding in a Jupyter notebook, the code cell (from 1); ``line`` is then the cell's line."""

    def to_json(self) -> dict[str, Any]:
        """The finding as a JSON object (what ``targetlang fix --json`` prints)."""
        return {
            "file": self.path,
            **({"cell": self.cell} if self.cell is not None else {}),
            "line": self.line,
            "column": self.column,
            "rule": self.rule,
            "safety": self.safety,
            "message": self.message,
            "before": self.before,
            "after": self.after,
            "applied": self.applied,
            "migration_rules": list(self.changes),
            "reason": self.reason,
            "uses": [use.to_json() for use in self.uses],
        }

    def describe(self) -> str:
        """``path:line:column: rule [safety] message``, one line (``path:cell N:line:column: ...`` in a
        notebook, as ruff writes it)."""
        where = f"{self.path}:cell {self.cell}" if self.cell is not None else self.path
        return f"{where}:{self.line}:{self.column}: {self.rule} [{self.safety}] {self.message}"


@dataclass(frozen=True)
class FixResult:
    """``text`` is ``source`` with the applied fixes; ``findings`` lists every finding in order.
    ``errors`` are the parts left alone that could not be read (a notebook's cell that does not
    parse), each a line ``path:cell N:line: message``. ``would_change`` is set when the fixed
    text was not made (``fix_source(check=True)``): ``text`` is then the source, and this says
    whether the fixes would change it."""

    source: str
    text: str
    findings: tuple[Finding, ...] = field(default=())
    errors: tuple[str, ...] = field(default=())
    would_change: bool | None = None

    @property
    def changed(self) -> bool:
        """The fixes change the text (the text differs from the source)."""
        return self.text != self.source if self.would_change is None else self.would_change
