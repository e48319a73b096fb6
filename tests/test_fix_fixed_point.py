"""One run of ``targetlang fix`` reaches the fixed point: a second run with the same options has
nothing left to apply, on every tree of the tests and on generated code where one fix holds
another (a helper whose argument is a removed property, a property of a helper's target)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import libcst as cst
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from targetlang.fix import fix_source
from targetlang.fix._rewriter import Rewriter

from .conftest import examples, sample

DATA = Path(__file__).parent / "data" / "fix"
TREES = sorted(
    [*DATA.glob("2030db36e4/*.before"), *DATA.glob("283fd19683/*.before"), *DATA.glob("flow/*.py.txt")],
)


def _name(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


def _suffix_free(path: Path) -> str:
    """The name the file had in its repository (its suffix says its language)."""
    return path.name.removesuffix(".before").removesuffix(".txt").split("__")[-1]


def test_the_trees_are_there() -> None:
    assert len(TREES) >= 120


# With --unsafe-fixes, TVM's own files are run twice by tests/test_fix_tvm_migration.py.
RUNS = sample([(path, False) for path in TREES] + [(path, True) for path in TREES if path.parent.name == "flow"])


@pytest.mark.property
@pytest.mark.parametrize(
    ("path", "unsafe"), RUNS, ids=[f"{_name(p)}{' --unsafe-fixes' if unsafe else ''}" for p, unsafe in RUNS]
)
def test_a_second_run_has_nothing_to_apply(path: Path, unsafe: bool) -> None:
    name = _suffix_free(path)
    source = path.read_text(encoding="utf-8")
    first = fix_source(source, path=name, unsafe=unsafe)
    # fix_source is a function of its arguments: a second run of an unchanged text is the first
    # again (57 of the 130 trees: a tenth of this test's time)
    second = first if first.text == source else fix_source(first.text, path=name, unsafe=unsafe)
    assert [f.describe() for f in second.findings if f.applied] == []
    assert second.text == first.text


# Statements where a fix holds another: each is fixed whole in one run.
_NESTED = [
    "board = tvm.target.cuda(target.model)",
    "gpu = tvm.target.cuda(model=tvm.target.Target('cuda').model, arch=target.arch)",
    "t = tvm.target.Target.canon_target(tvm.target.cuda(arch='sm_80'))",
    "n = tvm.target.cuda(arch='sm_80').max_num_threads",
    "x = tvm.target.create('llvm -mcpu=skylake').mcpu",
    "y = Target.canon_target(Target('cuda -arch=sm_80', host='llvm -mcpu=a')).arch",
    "h = tvm.target.hexagon('v68', hvx=tgt.thread_warp_size)",
    "r = tvm.target.rocm(model=Target(tvm.target.create('rocm -mcpu=gfx900')).model)",
    "s = f'{tvm.target.Target(\"llvm -mcpu=a\").mcpu} {target.arch}'",
    "tvm.compile(mod, target=tvm.target.arm_cpu('rasp4b'), )",
    "target, host = Target.canon_target_and_host(tvm.target.cuda(), 'llvm -mcpu=a')",
    "m = [tvm.target.intel_graphics().model for target in targets]",
]


@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(_NESTED), min_size=1, max_size=4), st.booleans(), st.booleans())
def test_generated_code_reaches_the_fixed_point_in_one_run(statements: list[str], unsafe: bool, inside: bool) -> None:
    body = "\n".join(statements) + "\n"
    if inside:  # the same statements in a function whose parameter is the target
        body = "def build(mod, target, tgt, targets):\n" + "".join(f"    {line}\n" for line in body.splitlines())
    source = "import tvm\nfrom tvm.target import Target\n" + body
    first = fix_source(source, path="m.py", unsafe=unsafe)
    compile(first.text, "m.py", "exec")
    second = fix_source(first.text, path="m.py", unsafe=unsafe)
    assert [f.describe() for f in second.findings if f.applied] == []
    assert second.text == first.text


# What the fixes wrote decides whether the text is read again: the code each node a fix put in
# the tree is given as, by the rewriter's record of the targets it parsed, is the node's own.
_WRITTEN = [
    "x = 1 if big else'llvm -mcpu=a'\ntvm.build(mod, target=x)\n",
    "t = f'llvm -mcpu={cpu}'\nprint(t)\ntvm.build(mod, target=t)\n",
    "name = f\"{tvm.build(mod, target='llvm -mcpu=a')}\"\ntvm.build(mod, target='cuda -arch=sm_80')\n",
    "tvm.build(mod, target=tvm.target.cuda(arch='sm_80'))\ntvm.build(mod, target='llvm -mcpu=a')\n",
    "for t in ['llvm -mcpu=a', 'cuda -arch=sm_80']:\n    tvm.build(mod, target=t)\n",
]


_WRITING = [*((source, True) for source in _WRITTEN), *((p.read_text(encoding="utf-8"), False) for p in TREES[::7])]


@pytest.mark.parametrize(("source", "writes"), _WRITING)
def test_the_code_a_fix_wrote_is_the_code_of_its_node(
    source: str, writes: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    given: list[tuple[str, str]] = []
    written_code = Rewriter.written_code

    def checked(self: Rewriter, module: cst.Module) -> Iterator[str]:
        codes = list(written_code(self, module))
        nodes = [node for node in self.inserted if isinstance(node, cst.CSTNode)]
        given.extend(zip(codes, (module.code_for_node(node) for node in nodes), strict=True))
        return iter(codes)

    monkeypatch.setattr(Rewriter, "written_code", checked)
    for unsafe in (False, True):
        fix_source(source, path="case.py", unsafe=unsafe)
    assert given or not writes
    assert all(code == own for code, own in given)
