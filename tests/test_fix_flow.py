"""Safe is decided by where the value goes: every use of a legacy string, followed.

Real public code (tests/data/fix/flow/, SOURCES.md names each source and licence) and a row of
synthetic code for each kind of use. A generated program then checks the promise itself: a safe
fix never changes what a string use of the value sees.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import libcst as cst
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from libcst.metadata import Scope

from targetlang.fix import Finding, fix_source, parse_api
from targetlang.fix import _python as python_module
from targetlang.fix._apis import DEFAULT_TABLE
from targetlang.fix._flow import Flow
from targetlang.fix._scopes import module_scopes
from targetlang.fix._walk import TRIVIA

from .conftest import examples

FLOW = Path(__file__).parent / "data" / "fix" / "flow"
REAL = sorted(FLOW.glob("*.py.txt"))


def _expected(path: Path) -> str:
    found = re.search(r"^# expect: (\S+)$", path.read_text(encoding="utf-8"), re.M)
    assert found, path
    return found[1]


def test_the_real_corpus_is_there() -> None:
    assert len(REAL) >= 20
    kinds = {re.sub(r"-\d+\.py\.txt$", "", p.name) for p in REAL}
    assert {"target-api", "pytest-raises", "fstring", "in", "comparison", "device", "unknown-call", "return"} <= kinds
    assert {"module-export", "argparse"} <= kinds


@pytest.mark.parametrize("path", REAL, ids=[p.name for p in REAL])
def test_real_code(path: Path) -> None:
    """Each excerpt's legacy strings get the safety its header says (``none``: not reported)."""
    result = fix_source(path.read_text(encoding="utf-8"), path=path.name.removesuffix(".txt"))
    strings = [f for f in result.findings if f.rule == "target-string"]
    expected = _expected(path)
    if expected == "none":
        assert strings == []
        return
    assert strings, path.name
    assert {f.safety for f in strings} == {expected}
    for finding in strings:
        if finding.safety != "safe":
            assert finding.reason and "at line" in finding.reason
        assert finding.uses


# (id, source, the safety of the string's finding, words of its reason)
CASES: list[tuple[str, str, str, str | None]] = [
    (
        "every use a target position",
        "def f(mod):\n    t = 'cuda -arch=sm_80'\n    tvm.build(mod, target=t)\n    return tvm.target.Target(t)\n",
        "safe",
        None,
    ),
    (
        "an f-string",
        "def f(mod):\n    target = 'llvm -mcpu=x -model=y'\n    cmd = f\"--target '{target}'\"\n"
        "    return tvm.build(mod, target=target)\n",
        "unsafe",
        "at line 3, formatted into an f-string",
    ),
    (
        "a % template",
        "def f(mod):\n    target = 'llvm -mcpu=x'\n    os.system('tvmc --target \"%s\"' % target)\n"
        "    tvm.build(mod, target=target)\n",
        "unsafe",
        "at line 3, an operand of %",
    ),
    (
        "in",
        "def f(mod):\n    target = 'llvm -mcpu=skylake-avx512'\n    assert 'avx512' in target\n"
        "    tvm.compile(mod, target)\n",
        "unsafe",
        "at line 3, tested with `in`",
    ),
    (
        "a comparison",
        "def f(mod, target='llvm -mcpu=a'):\n    if target == 'llvm':\n        pass\n    tvm.compile(mod, target)\n",
        "unsafe",
        "at line 2, compared",
    ),
    (
        "a string method",
        "def f(mod):\n    t = 'llvm -mcpu=a'\n    kind = t.split()[0]\n    tvm.compile(mod, t)\n",
        "unsafe",
        "at line 3, read as an object (.split)",
    ),
    (
        "tvm.device",
        "def f(mod):\n    t = 'cuda -arch=sm_80'\n    dev = tvm.device(t, 0)\n    tvm.compile(mod, t)\n",
        "unsafe",
        "at line 3, passed to tvm.device()",
    ),
    (
        "tvm.context",
        "import tvm\ndef f(mod):\n    t = 'cuda -arch=sm_80'\n    ctx = tvm.context(t, 0)\n    relay.build(mod, t)\n",
        "unsafe",
        "at line 4, passed to tvm.context()",
    ),
    (
        "an unknown call taking the string (tvmc)",
        "from tvm.driver import tvmc\ndef f(m):\n    tvmc.compile(m, target='llvm -device=arm_cpu -mcpu=a')\n",
        "unsafe",
        "at line 3, passed to tvm.driver.tvmc.compile()",
    ),
    (
        "a log line",
        "def f(mod, target='cuda -arch=sm_80'):\n    log.info('built for %s', target)\n"
        "    return tvm.compile(mod, target)\n",
        "unsafe",
        "at line 2, passed to log.info()",
    ),
    (
        "returned",
        "def default_target():\n    return 'rocm -mcpu=gfx90a'\n",
        "unsafe",
        "at line 1, returned from default_target(), which other modules may import",
    ),
    (
        "returned by a function whose calls reach target positions",
        "import tvm\ndef _default():\n    return 'rocm -mcpu=gfx90a'\n"
        "def build(mod):\n    return tvm.compile(mod, _default())\n",
        "safe",
        None,
    ),
    (
        "returned by a function whose result is printed",
        "def _default():\n    return 'rocm -mcpu=gfx90a'\nprint(_default())\n",
        "unsafe",
        "at line 3, passed to print()",
    ),
    (
        "returned by a method",
        "class C:\n    def target(self):\n        return 'rocm -mcpu=gfx90a'\n",
        "unsafe",
        "at line 3, returned from the function",
    ),
    (
        "options appended in place later",
        "import tvm\ndef f(mod):\n    t = 'llvm -mcpu=skylake'\n    t += ' -libs=cblas'\n    tvm.compile(mod, t)\n",
        "unsafe",
        "at line 4, changed in place with +=",
    ),
    (
        "a module-level name read as text too",
        "import tvm\nTARGET = 'llvm -mcpu=a'\ndev = tvm.device(TARGET)\n",
        "unsafe",
        "at line 3, passed to tvm.device()",
    ),
    (
        "a module export",
        "TARGET = 'llvm -mcpu=skylake'\ntvm.compile(mod, TARGET)\n",
        "unsafe",
        "at line 1, the module-level name TARGET, which other modules may import",
    ),
    (
        "a private module-level name",
        "_TARGET = 'llvm -mcpu=skylake'\ntvm.compile(mod, _TARGET)\n",
        "safe",
        None,
    ),
    (
        "argparse default",
        "def main(parser):\n    parser.add_argument('--target', type=str, default='llvm -mcpu=skylake')\n",
        "unsafe",
        "at line 2, passed to parser.add_argument()",
    ),
    (
        "argparse choices",
        "def main(parser):\n    parser.add_argument('--target', choices=['llvm -mcpu=a', 'cuda'])\n",
        "unsafe",
        "at line 2, passed to parser.add_argument()",
    ),
    (
        "never used",
        "def f():\n    expected = 'llvm -mcpu=skylake'\n",
        "unsafe",
        "at line 2, never used where a target goes",
    ),
    (
        "a dict value",
        "def f():\n    tvm.compile(mod, **{'target': 'llvm -mcpu=a'})\n",
        "unsafe",
        "at line 2, a value in a dict",
    ),
    (
        "stored in an attribute",
        "class C:\n    def __init__(self):\n        self.target = 'llvm -mcpu=a'\n",
        "unsafe",
        "at line 3, stored in self.target",
    ),
    (
        "used in a nested function",
        "def f(mod):\n    t = 'llvm -mcpu=a'\n    def g():\n        return f'{t}'\n    return tvm.compile(mod, t)\n",
        "unsafe",
        "at line 4, formatted into an f-string",
    ),
    (
        "through a second name",
        "def f(mod):\n    t = 'llvm -mcpu=a'\n    u = t\n    print(u + ' -libs=cblas')\n    tvm.compile(mod, t)\n",
        "unsafe",
        "at line 4, an operand of +",
    ),
    (
        "a loop over a literal list",
        "def f(mod):\n    for t in ['llvm -mcpu=a', 'cuda']:\n        tvm.compile(mod, t)\n",
        "safe",
        None,
    ),
    (
        "a loop whose variable is printed",
        "def f(mod):\n    for t in ['llvm -mcpu=a', 'cuda']:\n"
        "        print('target', t)\n        tvm.compile(mod, t)\n",
        "unsafe",
        "at line 3, passed to print()",
    ),
    (
        "pytest.mark.parametrize into target positions",
        "import pytest\n@pytest.mark.parametrize('target', ['llvm -mcpu=a'])\ndef test(target):\n"
        "    tvm.compile(mod, target)\n",
        "safe",
        None,
    ),
    (
        "pytest.mark.parametrize into a string use",
        "import pytest\n@pytest.mark.parametrize('target', ['llvm -mcpu=a'])\ndef test(target):\n"
        "    assert target.startswith('llvm')\n",
        "unsafe",
        "at line 4, read as an object (.startswith)",
    ),
    (
        "parametrize_targets into a string use",
        "import tvm.testing\n@tvm.testing.parametrize_targets('llvm -mcpu=a', 'cuda')\ndef test(target, dev):\n"
        "    if target == 'cuda':\n        pass\n",
        "unsafe",
        "at line 4, compared",
    ),
    (
        "parametrize_targets of a test without the target parameter",
        "import tvm.testing\n@tvm.testing.parametrize_targets('llvm -mcpu=a')\ndef test(dev):\n    pass\n",
        "safe",
        None,
    ),
    (
        "pytest.raises",
        "import pytest\ndef test():\n    with pytest.raises(ValueError):\n        Target('llvm -mcpu=cortex-a53')\n",
        "report-only",
        "at line 4, in a test that expects an error",
    ),
    (
        "pytest.raises with match, around a downstream call",
        "import pytest\ndef test():\n    with pytest.raises(ValueError, match='legacy'):\n"
        "        mylib.build(mod, target='llvm -mcpu=a')\n",
        "report-only",
        "in a test that expects an error",
    ),
    (
        "a name used inside pytest.raises",
        "import pytest\ndef test():\n    t = 'llvm -mcpu=a'\n    with pytest.raises(ValueError):\n        Target(t)\n",
        "report-only",
        "at line 5, in a test that expects an error",
    ),
    (
        "assertRaises as a context",
        "class T(unittest.TestCase):\n    def test(self):\n        with self.assertRaises(ValueError):\n"
        "            Target('llvm -mcpu=a')\n",
        "report-only",
        "in a test that expects an error",
    ),
    (
        "assertRaises, the call form",
        "class T(unittest.TestCase):\n    def test(self):\n"
        "        self.assertRaises(ValueError, Target, 'llvm -mcpu=a')\n",
        "report-only",
        "at line 3, in a test that expects an error",
    ),
]


@pytest.mark.parametrize(("source", "safety", "reason"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_use(source: str, safety: str, reason: str | None) -> None:
    result = fix_source(source, path="case.py")
    [finding] = [f for f in result.findings if f.rule == "target-string"]
    assert finding.safety == safety
    if reason is None:
        assert finding.reason is None and finding.applied
        assert all(use.kind == "target" for use in finding.uses)
    else:
        assert finding.reason is not None and reason in finding.reason, finding.reason
        assert not finding.applied
        assert reason.split(", ", 1)[-1] in finding.message or safety == "report-only"
    if safety == "report-only":
        assert finding.after is None  # the string is what the test tests: no suggestion to change it
        assert fix_source(source, path="case.py", unsafe=True).text == source


def test_uses_are_listed_in_json() -> None:
    source = "def f(mod):\n    t = 'llvm -mcpu=a'\n    print(f'{t}')\n    tvm.compile(mod, t)\n"
    [finding] = fix_source(source, path="case.py").findings
    assert finding.to_json()["uses"] == [
        {"line": 3, "column": 14, "kind": "string", "what": "formatted into an f-string"},
        {"line": 4, "column": 22, "kind": "target", "what": "the target of tvm.compile()"},
    ]
    assert finding.to_json()["reason"] == "at line 3, formatted into an f-string"


def test_a_users_target_api() -> None:
    source = "import mylib\nmylib.compile_for(model, 'llvm -mcpu=cortex-a72')\n"
    [unknown] = fix_source(source, path="m.py").findings
    assert unknown.safety == "unsafe"
    api = parse_api("mylib.compile_for:1=target")
    assert (api.positions, api.keywords) == ((1,), ("target",))
    [known] = fix_source(source, path="m.py", target_apis=[api]).findings
    assert (known.safety, known.applied) == ("safe", True)
    by_keyword = "import mylib\nmylib.compile_for(model, target='llvm -mcpu=a')\n"
    assert fix_source(by_keyword, path="m.py", target_apis=[parse_api("mylib.compile_for:target")]).findings[0].applied
    assert not fix_source(by_keyword, path="m.py", target_apis=[parse_api("mylib.compile_for:1")]).findings[0].applied


@pytest.mark.parametrize(
    "text", ["mylib.f", ":1", "mylib.f:", "mylib.f:-1", "my-lib.f:1", "mylib.f:a b", "mylib.f:x=y=z", "mylib.f:a=b"]
)
def test_a_bad_target_api(text: str) -> None:
    with pytest.raises(ValueError, match="--target-api"):
        parse_api(text)


# -- a generated program: the promise itself

# Where a value may go. A target position records what it is given, as TVM would read it;
# a string use records the text it sees.
_TARGET_USES = ["tvm.compile(mod, {v})", "tvm.target.Target({v})", "relay.build(mod, target={v})"]
_STRING_USES = [
    "seen.append(f'{{{v}}}')",
    "seen.append('avx' in {v})",
    "seen.append({v} == 'llvm')",
    "seen.append({v}.split())",
]

_PRELUDE = """\
import types
seen = []
built = []
def _take(value, *rest, **named):
    built.append(value)
tvm = types.SimpleNamespace(compile=lambda mod, t: _take(t), target=types.SimpleNamespace(Target=_take))
relay = types.SimpleNamespace(build=lambda mod, target: _take(target))
mod = None
"""


def _program(uses: list[str], through_name: bool) -> str:
    body = ["def run():"]
    if through_name:
        body.append("    t = 'llvm -mcpu=skylake -num-cores=4'")
        value = "t"
    else:
        value = '"llvm -mcpu=skylake -num-cores=4"'
    body += ["    " + use.format(v=value) for use in uses]
    return _PRELUDE + "\n".join(body) + "\nrun()\n"


def _run(source: str) -> tuple[list[Any], list[Any]]:
    space: dict[str, Any] = {}
    exec(compile(source, "generated.py", "exec"), space)
    return space["seen"], space["built"]


@settings(max_examples=examples(150), deadline=None)
@given(
    st.lists(st.sampled_from(_TARGET_USES + _STRING_USES), min_size=1, max_size=5),
    st.booleans(),
)
def test_a_safe_fix_never_changes_what_a_string_use_sees(uses: list[str], through_name: bool) -> None:
    if not through_name:
        uses = uses[:1]  # a literal is used once, where it stands
    source = _program(uses, through_name)
    result = fix_source(source, path="generated.py")
    findings = [f for f in result.findings if f.rule == "target-string"]
    only_targets = all(use in _TARGET_USES for use in uses)
    if not findings:  # a literal compared or searched where it stands is no target at all
        assert not through_name and not only_targets and result.text == source
        return
    [finding] = findings
    assert (finding.safety == "safe") == only_targets, (source, finding)
    assert finding.applied == only_targets
    seen_before, built_before = _run(source)
    seen_after, built_after = _run(result.text)
    assert seen_after == seen_before
    if only_targets:
        assert built_after == [{"kind": "llvm", "mcpu": "skylake", "num-cores": 4}] * len(uses)
        assert built_before == ["llvm -mcpu=skylake -num-cores=4"] * len(uses)
    else:
        assert built_after == built_before
    with_unsafe = fix_source(source, path="generated.py", unsafe=True)
    assert with_unsafe.text != source  # the unsafe fix is still offered


def _finding(source: str) -> Finding:
    [finding] = fix_source(source, path="case.py").findings
    return finding


def test_a_reassigned_name_is_followed_from_each_binding() -> None:
    # both bindings reach the same use; each string is judged by it
    source = "def f(mod, big):\n    t = 'llvm -mcpu=a'\n    if big:\n        t = 'cuda -arch=sm_80'\n    print(t)\n"
    findings = fix_source(source, path="case.py").findings
    assert [f.safety for f in findings] == ["unsafe", "unsafe"]
    assert _finding("def f(mod):\n    t = 'llvm -mcpu=a'\n    tvm.compile(mod, t)\n").safety == "safe"


def test_a_value_read_as_text_is_written_as_json_text() -> None:
    source = "import tvm\nTARGET = 'llvm -mcpu=a'\ndev = tvm.device(TARGET)\nlib = tvm.compile(mod, TARGET)\n"
    fixed = fix_source(source, path="m.py", unsafe=True).text
    assert fixed == source.replace("'llvm -mcpu=a'", '\'{"kind": "llvm", "mcpu": "a"}\'')


# ------------------------------------------------------------------ the scopes of one statement

# Where a name is bound and read, against the scopes of the statement that holds it (a def or a
# class alone) and those of the whole module: each row a shape where they could differ.
SCOPE_CASES: list[tuple[str, str]] = [
    ("a function's local", "def f(mod):\n    t = 'llvm -mcpu=a'\n    tvm.build(mod, target=t)\n    print(t)\n"),
    ("bound at module level, read in a function", "t = 'llvm -mcpu=a'\ndef f(mod):\n    tvm.build(mod, target=t)\n"),
    (
        "declared global in a function, read in another",
        "def f(mod):\n    global t\n    t = 'cuda -arch=sm_80'\n    tvm.build(mod, target=t)\n"
        "def g():\n    return t + ' -libs=cudnn'\n",
    ),
    (
        "changed by a nested function through nonlocal",
        "def f(mod):\n    t = 'llvm -mcpu=a'\n    def g():\n        nonlocal t\n        t += ' -mattr=+neon'\n"
        "    g()\n    tvm.build(mod, target=t)\n",
    ),
    (
        "read by a nested function",
        "def f(mod):\n    t = 'llvm -mcpu=a'\n    def g():\n        return t\n    print(g())\n",
    ),
    (
        "a class attribute",
        "class C:\n    t = 'llvm -mcpu=a'\n    def f(self, mod):\n        tvm.build(mod, target=self.t)\n",
    ),
    ("a top-level function's default", "def f(mod, t='llvm -mcpu=a'):\n    tvm.build(mod, target=t)\n"),
    (
        "a local that shadows a module-level name",
        "t = 'llvm -mcpu=b'\ndef f(mod):\n    t = 'llvm -mcpu=a'\n    tvm.build(mod, target=t)\nprint(t)\n",
    ),
    (
        "read in a comprehension",
        "def f(mods):\n    t = 'llvm -mcpu=a'\n    return [tvm.build(m, target=t) for m in mods]\n",
    ),
    (
        "a parametrized test",
        "@pytest.mark.parametrize('t', ['llvm -mcpu=a', 'cuda -arch=sm_80'])\n"
        "def test(t):\n    tvm.build(m, target=t)\n    assert str(tvm.target.Target(t)).startswith('llvm')\n",
    ),
    (
        "returned from a nested function and called",
        "def f(mod):\n    def pick():\n        return 'llvm -mcpu=a'\n    tvm.build(mod, target=pick())\n",
    ),
    (
        "returned from a top-level function",
        "def pick():\n    return 'llvm -mcpu=a'\ndef f(mod):\n    tvm.build(mod, target=pick())\n",
    ),
    (
        "a removed property of a local target",
        "def f():\n    target = tvm.target.Target('llvm')\n    return target.mcpu + target.device_name\n",
    ),
    (
        # LibCST reads the string of typing.cast as an annotation by the module's import of it
        "named in the string of a typing.cast",
        "from typing import cast\ndef build(mod):\n    target = 'llvm -mcpu=a'\n"
        "    lib = tvm.build(mod, target=target)\n    return cast('target', lib)\n",
    ),
    (
        "passed to a dotted name a module-level import binds",
        "import a.b\ndef build(mod):\n    t = 'llvm -mcpu=a'\n    a.b(t)\n    tvm.build(mod, target=t)\n",
    ),
    (
        "a removed property of a module-level target, read in a function",
        "target = tvm.target.Target('llvm')\ndef f():\n    return target.device_name\n",
    ),
]


class _ModuleScopes(Flow):
    """The flow with LibCST's scopes of the whole module for every question (the reference)."""

    def scope(self, node: cst.CSTNode, access: bool = False) -> Scope | None:
        return module_scopes(self.module).get(node)


def _found(source: str, unsafe: bool) -> tuple[Finding, ...]:
    return fix_source(source, path="case.py", unsafe=unsafe).findings


SCOPE_SOURCES = [source for _, source in SCOPE_CASES] + [path.read_text(encoding="utf-8") for path in REAL]


@pytest.mark.parametrize("source", SCOPE_SOURCES, ids=[name for name, _ in SCOPE_CASES] + [p.name for p in REAL])
def test_the_scopes_of_one_statement_say_what_the_module_s_say(source: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A name's uses, bindings and values, read in the scopes of the def or class that holds it,
    are those LibCST's scopes of the whole module give: the same findings, safety, uses."""
    found = {unsafe: _found(source, unsafe) for unsafe in (False, True)}
    monkeypatch.setattr(python_module, "Flow", _ModuleScopes)
    assert {unsafe: _found(source, unsafe) for unsafe in (False, True)} == found


def test_a_local_is_read_in_the_scopes_of_its_function_alone() -> None:
    module = cst.parse_module("x = 1\ndef f(mod):\n    t = 'llvm -mcpu=a'\n    tvm.build(mod, target=t)\n")
    flow = Flow(module, DEFAULT_TABLE, lambda node: None)
    function = module.body[1]
    assert isinstance(function, cst.FunctionDef)
    assign = function.body.body[0]
    assert isinstance(assign, cst.SimpleStatementLine) and isinstance(assign.body[0], cst.Assign)
    target = assign.body[0].targets[0].target
    assert type(flow.scope(target)).__name__ == "FunctionScope"
    assert flow._scopes is None and list(flow._statement_scopes) == [id(function)]
    x = module.body[0]
    assert isinstance(x, cst.SimpleStatementLine) and isinstance(x.body[0], cst.Assign)
    assert type(flow.scope(x.body[0].targets[0].target)).__name__ == "GlobalScope"
    assert flow._scopes is not None


def _scope_facts(module: cst.Module, scopes: dict[cst.CSTNode, Scope | None]) -> list[Any]:
    """What the flow reads of ``scopes``, by the place of each node in ``module``: each node's
    scope, and each scope's kind, node, assignments (with their references) and accesses (with
    their referents). (A string annotation LibCST parses makes nodes of its own each time:
    none of them is the tree's, and they are left out.)"""
    place: dict[int, int] = {}

    class Places(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            place[id(node)] = len(place)
            return True

    module.visit(Places())

    def at(node: object) -> int:
        return place.get(id(node), -1)

    facts: list[Any] = sorted(
        (at(node), at(getattr(scope, "node", None)))
        for node, scope in scopes.items()
        if at(node) >= 0 and scope is not None and type(node) not in TRIVIA
    )
    seen: set[int] = set()
    for scope in scopes.values():
        if scope is None or id(scope) in seen:
            continue
        seen.add(id(scope))
        assignments = sorted(
            (a.name, at(getattr(a, "node", None)), sorted(at(r.node) for r in a.references if at(r.node) >= 0))
            for a in scope.assignments
        )
        accesses = sorted(
            (at(a.node), sorted(at(getattr(r, "node", None)) for r in a.referents))
            for a in scope.accesses
            if at(a.node) >= 0
        )
        facts.append((type(scope).__name__, at(getattr(scope, "node", None)), assignments, accesses))
    return facts


def test_the_scopes_are_libcst_s() -> None:
    # _scopes runs LibCST's own visitors without rebuilding the tree: what it gives is what
    # MetadataWrapper.resolve(ScopeProvider) gives, on real files of TVM's and of downstream
    # projects (tests/data/fix/SOURCES.md), and on a def or class of them alone (as the flow asks
    # of a statement)
    from libcst.metadata import MetadataWrapper, ScopeProvider

    files = sorted((FLOW.parent).rglob("*.before")) + sorted((FLOW.parent).rglob("*.py"))
    compared = 0
    for path in (path for path in files if path.stat().st_size < 12_000):  # (LibCST's own takes a while)
        try:
            module = cst.parse_module(path.read_text(encoding="utf-8"))
        except cst.ParserSyntaxError:
            continue
        alone = [cst.Module(body=[s]) for s in module.body if isinstance(s, (cst.FunctionDef, cst.ClassDef))]
        for tree in [module, *alone[:2]]:
            theirs = dict(MetadataWrapper(tree, unsafe_skip_copy=True).resolve(ScopeProvider))
            assert _scope_facts(tree, module_scopes(tree)) == _scope_facts(tree, theirs), path
            compared += 1
    assert compared > 100
