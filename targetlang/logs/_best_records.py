"""ApplyHistoryBest's choice of a record per key (dispatcher.py: only a strictly faster record
replaces the one kept, and a NaN cost is never replaced), and the words for why a record was
missed or beaten."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .match import Query, RecordMatch

__all__ = ["faster_because", "keep_best", "missed_because"]


def keep_best(
    index: dict[tuple[str, int], RecordMatch],
    key: tuple[str, int],
    entry: RecordMatch,
    blocked: dict[tuple[str, int], RecordMatch],
) -> None:
    # dispatcher.py replaces an entry only when the new record is strictly faster. An entry of a
    # NaN cost is never replaced; what would have replaced an entry of a cost made before it,
    # by another matcher whose records come first, is kept in ``blocked``.
    other = index.get(key)
    if other is None or other.cost > entry.cost:
        index[key] = entry
    elif math.isnan(other.cost) and not math.isnan(entry.cost):
        held = blocked.get(key)
        if held is None or held.cost > entry.cost:
            blocked[key] = entry


def missed_because(model: str, keys: tuple[str, ...], query: Query) -> str:
    if query.model == "unknown":
        why = "the target has no model"
    elif model == "unknown":
        why = "the record has no model"
    else:
        why = f"model '{model}' is not '{query.model}'"
    return f"{why}, and no key in common (record keys: {', '.join(keys) or 'none'})"


def faster_because(winner: RecordMatch, entry: RecordMatch) -> str:
    if winner.reason != f"by {entry.via}":
        return ""  # picked through an earlier route (the model, or a key that comes first)
    # NaN (np.mean of no costs) is neither less nor greater than a cost: it is never replaced,
    # and never replaces.
    if math.isnan(winner.cost):
        return ", earlier, with a mean cost of NaN (no costs), which no record replaces"
    if math.isnan(entry.cost):
        return ", earlier: this record's mean cost is NaN (no costs), which replaces none"
    if winner.cost < entry.cost:
        return f", faster: {winner.cost:.3g} s against {entry.cost:.3g} s"
    return ", as fast and earlier"
