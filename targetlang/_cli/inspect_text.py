"""The text of ``targetlang kinds``, ``tags``, ``explain`` and ``diff``: tables of kinds and tags,
an explanation row by row, a diff field by field."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..inspection import Explanation, KindInfo, TagInfo, TargetDiff

__all__ = [
    "explanation_lines",
    "render_diff",
    "render_explanation",
    "render_kind",
    "render_kinds",
    "render_tags",
    "text_table",
]


def text_table(rows: Sequence[Sequence[str]]) -> list[str]:
    from ..logs.report import table

    return table(rows, right=0)


def _compact(value: Any) -> str:
    """A value as JSON on one line, without spaces (a table cell)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def render_kinds(kinds: Sequence[KindInfo]) -> list[str]:
    """The lines of ``targetlang kinds``: one row per kind."""
    from ..inspection import release_ranges

    rows = [("kind", "releases", "default keys", "attributes")]
    for kind in kinds:
        rows.append(
            (kind.name, release_ranges(kind.releases), ",".join(kind.default_keys) or "none", str(len(kind.attrs)))
        )
    return text_table(rows)


def render_kind(kind: KindInfo) -> list[str]:
    """The lines of ``targetlang kinds KIND``: the kind, then one row per attribute."""
    from ..inspection import release_ranges

    if kind.version is None:
        shown = f"every release's attributes; the rest as of TVM v{kind.releases[-1]}"
    else:
        shown = f"TVM v{kind.version}'s"
    lines = [
        f"kind:          {kind.name}",
        f"releases:      {release_ranges(kind.releases)}",
        f"shown:         {shown}",
        f"default keys:  {','.join(kind.default_keys) or 'none'}",
        f"device type:   {kind.device_type}",
        f"canonicaliser: {kind.canonicaliser or 'none'}",
    ]
    rows = [("attribute", "type", "default", "releases")]
    for attr in kind.attrs:
        default = "-" if attr.default is None else _compact(attr.default)
        rows.append((attr.name, attr.type, default, release_ranges(attr.releases)))
    return [*lines, *text_table(rows)]


def render_tags(tags: Sequence[TagInfo]) -> list[str]:
    """The lines of ``targetlang tags``: one row per tag, its config as JSON."""
    from ..inspection import release_ranges

    rows = [("tag", "releases", "config")]
    for tag in tags:
        rows.append((tag.name, release_ranges(tag.releases), json.dumps(tag.config, ensure_ascii=False)))
    return text_table(rows)


def render_explanation(explanation: Explanation) -> list[str]:
    """The lines of ``targetlang explain``: the target, a row per value, the migration's changes
    and result."""
    return ["".join(line) for line in explanation_lines(explanation)]


def explanation_lines(explanation: Explanation) -> Iterator[list[str]]:
    """The lines of :func:`render_explanation`, each as its pieces. A long value makes a line of
    each row of the table as long as its cell (the cells before the last are padded to their
    column's width): the lines are made one at a time, their cells and padding left apart."""
    from ..errors import show

    yield [
        explanation.spec,
        f": kind {show(explanation.kind)}, read as TVM v{explanation.version} read it; "
        f"in TVM {explanation.target_version}: {explanation.kind_fate}",
    ]
    rows = [("attribute", "value", "type", "origin", "migrate", f"in TVM {explanation.target_version}")]
    for row in explanation.rows:
        origin = f"{row.origin} ({row.note})" if row.note else row.origin
        rows.append((row.name, _compact(row.value), row.type, origin, row.migration, row.fate))
    # report.table's layout (right=0): every cell but the last left-aligned to its column's width
    widths = [max(len(cells[i]) for cells in rows) for i in range(len(rows[0]) - 1)]
    for cells in rows:
        line: list[str] = []
        for cell, width in zip(cells, widths, strict=False):
            line += (cell, " " * (width - len(cell)), "  ")
        line.append(cells[-1])
        yield line
    if explanation.features:
        derived = ", ".join(f"{name}={_compact(value)}" for name, value in explanation.features.items())
        # from v0.24 on a config may give them (feature.* keys), which the canonicaliser keeps
        # where it derives none of the same name: the line says both
        where = "given or derived" if explanation.given_features else "derived by the canonicaliser"
        yield [f"features ({where}): {derived}"]
    for change in explanation.changes:
        yield [f"{change.severity}: {change.rule}: {change.message}"]
    if explanation.migrated is None:
        yield ["migrated: none (the target cannot migrate)"]
    else:
        yield ["migrated: ", json.dumps(explanation.migrated, ensure_ascii=False)]


def render_diff(found: TargetDiff) -> list[str]:
    """The lines of ``targetlang diff``: the values the targets do not share, then the verdicts."""
    lines = [f"a: {found.a}", f"b: {found.b}"]
    if found.equal:
        lines.append(f"no difference once resolved (as TVM v{found.version} resolved them)")
    for change in found.changes:
        if change.b is None:
            lines.append(f"- {change.name}: {_compact(change.a)}")
        elif change.a is None:
            lines.append(f"+ {change.name}: {_compact(change.b)}")
        else:
            lines.append(f"~ {change.name}: {_compact(change.a)} -> {_compact(change.b)}")
    for name, verdict in (("AutoTVM", found.autotvm), ("meta-schedule", found.meta_schedule)):
        lines.append(f"{name} dispatch: {'the same' if verdict.same else 'different'}")
        lines.extend(f"  {reason}" for reason in verdict.reasons)
    return lines
