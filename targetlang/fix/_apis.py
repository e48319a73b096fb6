"""The table of TVM APIs that take a target, and of the calls that expect an error.

A fix that turns a legacy target string into a dict is *safe* only where every use of the value
is a place one of these APIs reads as a target (:mod:`._flow` follows the value there). A row
names the API by its qualified name, as an import makes it (``tvm.relay.build``), says which
positional argument and which keywords take a target, and the TVM releases that have it (for
the reader of the table: a call is matched whatever release the code runs on). Users add rows for
their own or a fork's APIs with ``--target-api QUALNAME:ARG``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

__all__ = [
    "DEFAULT_TABLE",
    "EVERY_POSITIONAL",
    "REJECTION_CONTEXTS",
    "TARGET_APIS",
    "ApiTable",
    "TargetApi",
    "parse_api",
]

EVERY_POSITIONAL = -1
"""A position that stands for every positional argument (``parametrize_targets(*targets)``)."""


@dataclass(frozen=True)
class TargetApi:
    """One API that takes a target: its qualified ``name`` (and ``aliases``, other names it is
    imported or commonly spelt by), the ``positions`` (from 0) and ``keywords`` that take one,
    and the ``releases`` of TVM that have it. An API with a ``fixture`` hands the target, as it
    was written, to the parameter of that name of the test function it decorates: there the
    value's uses are the function's."""

    name: str
    positions: tuple[int, ...] = ()
    keywords: tuple[str, ...] = ()
    releases: str = ""
    aliases: tuple[str, ...] = ()
    fixture: str | None = None

    def takes(self, position: int | None, keyword: str | None) -> bool:
        """Whether the argument at ``position`` (positional) or ``keyword`` is a target."""
        if keyword is not None:
            return keyword in self.keywords
        return position is not None and (position in self.positions or EVERY_POSITIONAL in self.positions)


def _api(name: str, positions: Iterable[int], keywords: Iterable[str], releases: str, *aliases: str) -> TargetApi:
    return TargetApi(name, tuple(positions), tuple(keywords), releases, aliases)


_TARGET_HOST = ("target", "target_host")

TARGET_APIS: tuple[TargetApi, ...] = (
    _api("tvm.target.Target", (0, 1), ("target", "host"), "all", "tvm.target.target.Target"),
    _api("tvm.target.create", (0,), ("target",), "0.6-0.9", "tvm.target.target.create"),
    _api("tvm.target.Target.canon_target", (0,), ("target",), "0.10-0.23"),
    _api("tvm.target.Target.canon_target_and_host", (0, 1), _TARGET_HOST, "0.10-0.23"),
    _api("tvm.target.Target.canon_multi_target", (0,), ("multi_targets",), "0.10-0.23"),
    _api("tvm.target.Target.canon_multi_target_and_host", (0, 1), ("target", "target_host"), "0.10-0.23"),
    _api("tvm.target.Target.canon_target_map_and_host", (1,), ("target_host",), "0.10-0.23"),
    _api("tvm.build", (1, 2), _TARGET_HOST, "all", "tvm.driver.build", "tvm.driver.build_module.build"),
    _api("tvm.compile", (1,), ("target",), "0.20+", "tvm.driver.compile", "tvm.driver.build_module.compile"),
    _api("tvm.tir.build", (1,), ("target",), "0.20-0.23", "tvm.tirx.build", "tvm.s_tir.build"),
    _api("tvm.relax.build", (1,), ("target",), "0.13+", "tvm.relax.vm_build.build"),
    _api("tvm.relay.build", (1, 2), _TARGET_HOST, "0.6-0.19", "tvm.relay.build_module.build"),
    _api("tvm.relay.optimize", (1,), ("target",), "0.6-0.19", "tvm.relay.build_module.optimize"),
    _api("tvm.relay.create_executor", (3,), ("target",), "0.6-0.19", "tvm.relay.build_module.create_executor"),
    _api("tvm.relay.vm.compile", (1, 2), _TARGET_HOST, "0.6-0.19", "tvm.relay.backend.vm.compile"),
    _api("tvm.ir.VDevice", (0,), ("target",), "0.15+", "tvm.ir.global_info.VDevice"),
    _api("tvm.script.ir.vdevice", (0,), ("target",), "0.15+", "tvm.script.ir_builder.ir.vdevice", "I.vdevice"),
    _api(
        "tvm.script.tir.target",
        (0, 1),
        ("target", "host"),
        "0.14+",
        "tvm.script.ir_builder.tir.target",
        "tvm.script.tirx.target",
        "T.target",
    ),
    TargetApi(
        "tvm.testing.parametrize_targets",
        (EVERY_POSITIONAL,),
        (),
        "0.8+",
        ("tvm.testing.utils.parametrize_targets",),
        fixture="target",
    ),
    _api(
        "tvm.meta_schedule.tune_tir",
        (1,),
        ("target",),
        "0.11+",
        "tvm.meta_schedule.tir_integration.tune_tir",
        "tvm.s_tir.meta_schedule.tune_tir",
        "tvm.s_tir.meta_schedule.tir_integration.tune_tir",
    ),
    _api(
        "tvm.meta_schedule.tir_integration.compile_tir",
        (2,),
        ("target",),
        "0.11+",
        "tvm.s_tir.meta_schedule.tir_integration.compile_tir",
    ),
    _api(
        "tvm.meta_schedule.tune_relax",
        (2,),
        ("target",),
        "0.13+",
        "tvm.meta_schedule.relax_integration.tune_relax",
        "tvm.s_tir.meta_schedule.tune_relax",
        "tvm.s_tir.meta_schedule.relax_integration.tune_relax",
    ),
    _api(
        "tvm.meta_schedule.tune_relay", (2,), ("target",), "0.11-0.19", "tvm.meta_schedule.relay_integration.tune_relay"
    ),
    _api(
        "tvm.meta_schedule.relax_integration.extract_tasks",
        (1,),
        ("target",),
        "0.13+",
        "tvm.s_tir.meta_schedule.relax_integration.extract_tasks",
    ),
    _api("tvm.meta_schedule.relay_integration.extract_tasks", (1,), ("target",), "0.11-0.19"),
    _api(
        "tvm.meta_schedule.relax_integration.compile_relax",
        (2,),
        ("target",),
        "0.13+",
        "tvm.meta_schedule.compile_relax",
        "tvm.s_tir.meta_schedule.relax_integration.compile_relax",
    ),
    _api(
        "tvm.meta_schedule.relay_integration.compile_relay",
        (2,),
        ("target",),
        "0.11-0.19",
        "tvm.meta_schedule.compile_relay",
    ),
    _api("tvm.meta_schedule.TuneContext", (), ("target",), "0.10+", "tvm.s_tir.meta_schedule.TuneContext"),
    _api("tvm.autotvm.task.create", (2,), _TARGET_HOST, "0.6-0.19", "tvm.autotvm.task.task.create"),
    _api("tvm.autotvm.task.extract_from_program", (2,), _TARGET_HOST, "0.6-0.19"),
    _api("tvm.autotvm.task.extract_from_multiple_program", (2,), _TARGET_HOST, "0.6-0.19"),
    _api(
        "tvm.auto_scheduler.SearchTask", (4, 5), _TARGET_HOST, "0.8-0.19", "tvm.auto_scheduler.search_task.SearchTask"
    ),
    _api(
        "tvm.auto_scheduler.extract_tasks",
        (2, 3),
        _TARGET_HOST,
        "0.8-0.19",
        "tvm.auto_scheduler.relay_integration.extract_tasks",
    ),
)
"""The TVM APIs that read an argument as a target (a string, a dict or a ``Target``)."""

CONVENTIONAL_ALIASES: dict[str, str] = {
    "ms": "tvm.meta_schedule",
    "T": "tvm.script.tir",
    "I": "tvm.script.ir",
    "R": "tvm.script.relax",
}
"""The names TVM's own docs and tests import modules as (``from tvm import meta_schedule as
ms``): an unresolved call of ``ms.tune_tir`` is taken for ``tvm.meta_schedule.tune_tir``."""

REJECTION_CONTEXTS: frozenset[str] = frozenset(
    {"pytest.raises", "assertRaises", "assertRaisesRegex", "assertRaisesRegexp", "failUnlessRaises"}
)
"""Calls whose ``with`` block (or whose call form, ``pytest.raises(E, f, *args)``) expects an error:
a legacy string there is a test that TVM rejects it, and stays as it is. A name without a dot is
a method name (``self.assertRaises``)."""


def parse_api(text: str) -> TargetApi:
    """A row from ``QUALNAME:ARG`` (``--target-api``): ``ARG`` a position from 0, a keyword, or
    both as ``2=target``; ``*`` for every positional argument. Raises ``ValueError``."""
    name, colon, argument = text.rpartition(":")
    if not colon or not name or not argument or not all(part.isidentifier() for part in name.split(".")):
        raise ValueError(f"--target-api takes QUALNAME:ARG (mypkg.compile:target, mypkg.compile:1), not {text!r}")
    positions: list[int] = []
    keywords: list[str] = []
    parts = argument.split("=")
    if len(parts) > 2:
        raise ValueError(f"--target-api: {argument!r} names more than a position and a keyword (1=target)")
    for part in parts:
        if part == "*":
            positions.append(EVERY_POSITIONAL)
        elif part.isdigit():
            positions.append(int(part))
        elif part.isidentifier():
            keywords.append(part)
        else:
            raise ValueError(f"--target-api: {part!r} is neither a position (0, 1, ...) nor a keyword")
    if len(positions) > 1 or len(keywords) > 1:
        raise ValueError(f"--target-api: {argument!r} is one position and one keyword at most (1=target)")
    return TargetApi(name, tuple(positions), tuple(keywords), "user")


@dataclass(frozen=True)
class ApiTable:
    """The rows a fix reads, found by qualified name."""

    rows: tuple[TargetApi, ...] = TARGET_APIS
    _index: dict[str, TargetApi] = field(init=False, repr=False, compare=False, hash=False)

    # per last word of an API's name or alias: the positions and keywords an API of it reads
    _words: dict[str, tuple[frozenset[int], frozenset[str]]] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        index: dict[str, TargetApi] = {}
        words: dict[str, tuple[set[int], set[str]]] = {}
        for row in self.rows:
            for name in (row.name, *row.aliases):
                index.setdefault(name, row)
                positions, keywords = words.setdefault(name.rsplit(".", 1)[-1], (set(), set()))
                positions.update(row.positions)
                keywords.update(row.keywords)
        object.__setattr__(self, "_index", index)
        object.__setattr__(self, "_words", {w: (frozenset(p), frozenset(k)) for w, (p, k) in words.items()})

    @property
    def last_words(self) -> Mapping[str, tuple[frozenset[int], frozenset[str]]]:
        """The last word of the name and of each alias of every API (what a call of one is
        written with, or the import that names it: :meth:`find` matches no call whose name
        ends otherwise), and the positions and keywords the APIs of that word read as a
        target."""
        return self._words

    def with_rows(self, extra: Iterable[TargetApi]) -> ApiTable:
        """This table with ``extra`` rows (a user's row first, so it wins over a built-in one)."""
        return ApiTable((*extra, *self.rows))

    def find(self, name: str, resolved: bool) -> TargetApi | None:
        """The row for a call of ``name``. An unresolved name (no import says what its first
        word is: a code block, a relative import) matches a row whose name ends with it, as long
        as it has two words or more (``relay.build``) or is ``Target``."""
        index = self._index
        found = index.get(name)
        if found is not None or resolved:
            return found
        head, dot, rest = name.partition(".")
        if dot and head in CONVENTIONAL_ALIASES:  # ms.tune_tir in a snippet that imports nothing
            found = index.get(f"{CONVENTIONAL_ALIASES[head]}.{rest}")
            if found is not None:
                return found
        name = name.lstrip(".")
        if "." not in name and name != "Target":
            return None
        for known, row in index.items():
            if known.endswith("." + name) or known == name:
                return row
        return None


DEFAULT_TABLE = ApiTable()
