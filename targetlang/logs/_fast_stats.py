"""``logs stats``'s shortcut: a record counted like one counted before by that one's plan
(see :mod:`._fast`)."""

from __future__ import annotations

from typing import Any

from ._fast import AS_FORMAT, ENTRY_COST, HELD, V01_FORMAT, V02_FORMAT, loads, plain_v01, plain_v02
from .records import line_record
from .stats import Stats, StatsPlan

__all__ = ["StatsLines"]


def _plan_cost(key: tuple[str, str | None, str, str | None], plan: StatsPlan) -> int:
    """What a plan costs in its cache: the text of its target and host, and of the names it
    counts (a long one is held by its first characters)."""
    cost = ENTRY_COST + len(key[2]) + len(key[3] or "")
    if plan.target is not None:
        _, version, kind, model, keys = plan.target
        cost += sum(len(text) if type(text) is str else HELD for text in (version, kind, model, *keys))
    return cost


class StatsLines:
    """``logs stats`` of the lines of one file, block after block.

    What counting a record adds depends on its format, its TVM version, its target and host, and
    on nothing else of it: the first record of each such shape is counted by
    :meth:`~targetlang.logs.stats.Stats.add`, and what that counted (its plan) is counted again
    for the records like it, at the end of the block. A line is told to be like it when it
    decodes to an object of AutoTVM's log format v0.1 or v0.2 or auto_scheduler's, whose keys
    are written as :func:`plain_v01` and :func:`plain_v02` say (and, of auto_scheduler, its
    ``"i"`` once, no ``\\u`` in the line): the target records.py finds in it is the one decoded.
    """

    shortcut = True  # False: every line takes the general path (the tests compare both)

    @classmethod
    def count(cls, stats: Stats, lines: list[bytes], first: int, open_end: bool, name: str) -> None:
        """Count ``lines`` (as :func:`~targetlang.logs._jobs.blocks` gives them; ``open_end``: the
        last has no line break), numbered from ``first``, into ``stats``."""
        plans = stats.plans
        held = plans.peek
        tally: dict[StatsPlan, int] = {}
        final = first + len(lines) - 1 if open_end else -1
        fast = cls.shortcut and stats.loader is not None  # (the file's first records say whose it is)
        key: Any
        for number, raw in enumerate(lines, first):
            key = _stats_key(raw) if fast and raw[:1] == b"{" else None
            if key is not None:
                hit = held(key)
                plan = hit[0] if hit is not None else _adopted(stats, key)
                if plan is not None:
                    tally[plan] = tally.get(plan, 0) + 1
                    continue
            record = line_record(raw, number != final, name, number)
            stats.add(record)
            if key is not None and record.format.value == key[0]:
                made = stats.plan(record)
                if made is not None:
                    cost = _plan_cost(key, made)
                    plans.put(key, made, cost)
                    if stats.earlier is not None:
                        stats.earlier.put(key, made, cost)
            elif not fast:
                fast = cls.shortcut and stats.loader is not None
        for plan, count in tally.items():
            stats.add_like(plan, count)


def _stats_key(raw: bytes) -> tuple[str, str | None, str, str | None] | None:
    """What counting the line ``raw`` depends on, when it is a record of a shape
    :class:`StatsLines` knows: its format, TVM version, target and host; else ``None``."""
    try:
        value = loads(raw)
    except (ValueError, RecursionError):
        return None
    if type(value) is not dict:
        return None
    version = value.get("v")
    if version == 0.1:
        i = value.get("i")
        if type(i) is list and i and type(spec := i[0]) is str and plain_v01(raw, i):
            return (V01_FORMAT, None, spec, None)
    elif "input" in value:
        inp = value["input"]
        if type(inp) is list and inp and type(spec := inp[0]) is str and plain_v02(raw):
            tvm = value.get("tvm_version")
            return (V02_FORMAT, tvm if type(tvm) is str else None, spec, None)
    elif type(version) is str:
        i = value.get("i")
        if (
            type(i) is list
            and i
            and type(task := i[0]) is list
            and len(task) > 1
            and type(spec := task[1]) is str
            and raw.count(b'"i"') == 1
            and b"\\u" not in raw
        ):
            host = task[3] if len(task) > 3 and type(task[3]) is str else None
            return (AS_FORMAT, None, spec, host)
    return None


def _adopted(stats: Stats, key: tuple[str, str | None, str, str | None]) -> StatsPlan | None:
    """The plan an earlier file's run made for ``key``, adopted by ``stats`` and kept for the
    lines to come (``None``: none, or one it does not adopt)."""
    if stats.earlier is None:
        return None
    template = stats.earlier.peek(key)
    adopted = None if template is None else stats.adopt(template[0])
    if adopted is not None:
        stats.plans.put(key, adopted, _plan_cost(key, adopted))
    return adopted
