"""The sparse view LibCST reads (targetlang.fix._sparse): what it keeps, what it elides, that the
elided runs come back byte for byte, and that a fix through it is the fix of the whole text."""

from __future__ import annotations

import ast
import re
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest

import targetlang.fix._python
import targetlang.fix._sparse
from targetlang.fix import fix_source
from targetlang.fix._apis import DEFAULT_TABLE, ApiTable, parse_api
from targetlang.fix._prefilter import hits, worth_parsing
from targetlang.fix._python import fix_python
from targetlang.fix._python_syntax import Reading, may_need_fixing
from targetlang.fix._sparse import sparse
from targetlang.helpers import HELPERS

DATA = Path(__file__).parent / "data" / "fix"


def view(source: str) -> str | None:
    """The sparse text of ``source``, its markers' random part shown as ``N``."""
    found = sparse(source, ast.parse(source), hits(source))
    return None if found is None else re.sub(r"targetlang-elided-[0-9a-f]+-[0-9]+", "elided", found.text)


# (source, its sparse view written by hand; None: nothing elided)
CASES = [
    pytest.param(
        'import tvm\n\ndef f():\n    x = 1\n    return x\n\ndef g():\n    t = tvm.target.Target("llvm -mcpu=a")\n',
        'import tvm\n\npass  # elided\n\ndef g():\n    t = tvm.target.Target("llvm -mcpu=a")\n',
        id="a function with nothing to fix goes whole (its name is told to the survey)",
    ),
    pytest.param(
        'import tvm\nT = "llvm -mcpu=a"\nx = 1\ny = 2\n\ndef f():\n    print(1)\n    tvm.build(m, target=T)\n',
        'import tvm\nT = "llvm -mcpu=a"\npass  # elided\n\ndef f():\n    pass  # elided\n    tvm.build(m, target=T)\n',
        id="a module-level name: its uses in functions kept",
    ),
    pytest.param(
        'def make():\n    n = 1\n    return "llvm -mcpu=a"\n\nb = 2\nlib = build(m, make())\n',
        'def make():\n    pass  # elided\n    return "llvm -mcpu=a"\n\npass  # elided\nlib = build(m, make())\n',
        id="a returned value: the callers kept",
    ),
    pytest.param(
        'import pytest\n\n@pytest.mark.parametrize("t", ["llvm -mcpu=a"])\ndef test(t):\n    n = 1\n'
        "    run(t)\n    b = 2\n",
        'import pytest\n\n@pytest.mark.parametrize("t", ["llvm -mcpu=a"])\ndef test(t):\n    pass  # elided\n'
        "    run(t)\n    pass  # elided\n",
        id="a decorated function: the parameter's uses kept",
    ),
    pytest.param(
        'def f(k):\n    if k: x = 1\n    else:\n        t = "llvm -mcpu=a"\n        y = 2\n',
        'def f(k):\n    if k: x = 1\n    else:\n        t = "llvm -mcpu=a"\n        pass  # elided\n',
        id="a statement on its header's line stays",
    ),
    pytest.param(
        'def f():\n    n = 1; b = 2\n    c = 3\n    t = "llvm -mcpu=a"\n',
        'def f():\n    pass  # elided\n    t = "llvm -mcpu=a"\n',
        id="a line of statements goes as one",
    ),
    pytest.param(
        'def f():\n    a = 1; b = 2\n    c = 3\n    t = "llvm -mcpu=a"\n',
        'def f():\n    a = 1; b = 2\n    pass  # elided\n    t = "llvm -mcpu=a"\n',
        id="a word of the text keeps its name's statement, and the line it shares",
    ),
    pytest.param(
        'cpu = "a"\nother = 1\n\ndef f():\n    t = Target("llvm -mcpu=" + cpu)\n',
        'cpu = "a"\npass  # elided\n\ndef f():\n    t = Target("llvm -mcpu=" + cpu)\n',
        id="what a name used there holds: its assignment kept",
    ),
    pytest.param(
        'class C:\n    t = "llvm -mcpu=a"\n    def m(self):\n        return 1\n',
        'class C:\n    t = "llvm -mcpu=a"\n    pass  # elided\n',
        id="a class attribute, and a method with nothing",
    ),
    pytest.param(
        '"""Doc."""\nx = 1\nt = "llvm -mcpu=a"',
        '"""Doc."""\npass  # elided\nt = "llvm -mcpu=a"',
        id="the docstring kept (an import goes after it)",
    ),
    pytest.param(
        't = "llvm -mcpu=a"\nx = 1',
        None,
        id="a last line without a newline is not elided",
    ),
    pytest.param(
        'import tvm\n\ndef f(m):\n    t = "llvm -mcpu=a"\n    u = t\n    s = u.split()\n    n = len(s)\n    print(n)\n'
        "    tvm.build(m, target=u)\n",
        'import tvm\n\ndef f(m):\n    t = "llvm -mcpu=a"\n    u = t\n    s = u.split()\n    pass  # elided\n'
        "    tvm.build(m, target=u)\n",
        id="followed through a name that holds the value, not past a use that uses it up",
    ),
    pytest.param(
        'import tvm\n\nT = "llvm -mcpu=a"\n\ndef g(m):\n    x = cache_build(m)\n    return x\n\n'
        "def h(m):\n    return tvm.build(m, target=T)\n",
        'import tvm\n\nT = "llvm -mcpu=a"\n\npass  # elided\n\ndef h(m):\n    return tvm.build(m, target=T)\n',
        id="a function whose name ends in an API's is no API",
    ),
]


@pytest.mark.parametrize(("source", "expected"), CASES)
def test_sparse_view(source: str, expected: str | None) -> None:
    assert view(source) == expected


@pytest.mark.parametrize(("source", "expected"), [case for case in CASES if case.values[1] is not None])
def test_the_elided_runs_come_back(source: str, expected: str) -> None:
    found = sparse(source, ast.parse(source), hits(source))
    assert found is not None
    assert found.restore(found.text) == source


def test_a_changed_marker_is_not_put_back() -> None:
    source = 'def f():\n    n = 1\n    b = 2\n    t = "llvm -mcpu=a"\n'
    found = sparse(source, ast.parse(source), hits(source))
    assert found is not None
    assert found.restore(found.text.replace("pass  #", "pass #")) is None
    assert found.restore(found.text) == source


def test_the_lines_of_a_view_are_counted_in_the_whole_text() -> None:
    source = (
        'import tvm\n\ndef f():\n    n = 1\n    b = 2\n    t = "llvm -mcpu=a"\n\nx = 1\ny = 2\nz = 3\n'
        't = "llvm -mcpu=b"\n'
    )
    found = sparse(source, ast.parse(source), hits(source))
    assert found is not None
    view_lines = found.text.splitlines()
    whole = found.lines_in(found.text)
    assert [source.splitlines()[whole[n] - 1] for n, line in enumerate(view_lines, 1) if "elided" not in line] == [
        line for line in view_lines if "elided" not in line
    ]
    assert whole[-1] == len(source.splitlines()) + 1
    # what a fix made of the view (a line more at the top): counted from it
    fixed = "import json\n" + found.text
    assert found.lines_in(fixed)[1:3] == [1, 2] and found.lines_in(fixed)[-1] == len(source.splitlines()) + 2


# The files of TVM that test_fix_tvm_migration fixes (through the sparse view) against the text
# and findings they are expected to give.
_MIGRATED = frozenset({"2030db36e4", "283fd19683"})


def _text_fixtures() -> list[Path]:
    return sorted(
        path
        for path in DATA.rglob("*")
        if path.is_file()
        and path.suffix in {".before", ".py", ".md", ".rst", ".ipynb", ".txt"}
        and not _MIGRATED & set(path.relative_to(DATA).parts)
    )


@pytest.mark.parametrize("unsafe", [False, True], ids=["safe", "unsafe"])
def test_a_fix_through_the_sparse_view_is_the_fix_of_the_whole_text(
    unsafe: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the fixtures of the fixer's tests (real files of TVM and of downstream projects among
    # them: tests/data/fix/SOURCES.md), fixed both ways
    differ = []
    files = _text_fixtures()
    assert len(files) > 30
    for path in files:
        text = path.read_text(encoding="utf-8")
        name = path.name.removesuffix(".before")
        name = name if "." in name else name + ".py"
        results = []
        for whole in (False, True):
            monkeypatch.setattr(targetlang.fix._python, "_SPARSE_VIEW", not whole)
            result = fix_source(text, path=name, unsafe=unsafe, docs=True)
            results.append((result.text, [asdict(f) for f in result.findings], result.errors))
        if results[0] != results[1]:
            differ.append(str(path))
    assert differ == []


# Sources the sparse view once read differently from the whole text: each is fixed both ways.
SHAPES = [
    pytest.param(
        'import tvm\ndef g():\n    t = "llvm -mcpu=a"; n = 1\n    x = 2\n    t.split()\n'
        "    return tvm.target.Target(t)\n",
        id="a target on a line of two statements: its uses kept",
    ),
    pytest.param(
        'import tvm\ndef g():\n    for t in ["llvm -mcpu=a"]: n = 1\n    x = 2\n    t.split()\n'
        "    tvm.build(m, target=t)\n",
        id="a loop and its body on one line",
    ),
    pytest.param(
        'import tvm\ndef g():\n    if (t := "llvm -mcpu=a"): n = 1\n    x = 2\n    t.split()\n'
        "    tvm.build(m, target=t)\n",
        id="a walrus in a header",
    ),
    pytest.param(
        'import tvm\nn = 0\ns = s\rx = 1\n\nt = tvm.target.Target("llvm -mcpu=a")\n',
        id="a lone carriage return before a blank line",
    ),
    pytest.param(
        'import tvm\nt = "llvm -mcpu=a"\nn = 0\nclass C:\n    t.split()\n    t = 1\ntvm.build(m, target=t)\n',
        id="a class body reads a module-level name it binds later",
    ),
    pytest.param(
        'import tvm\ndef f():\n\x0c    x = 1\n    t = tvm.target.Target("llvm -mcpu=a")\n',
        id="a form feed",
    ),
    pytest.param(
        'import tvm\ndef g(k):\n    a = "llvm -mcpu=a"\n    b = a if k else None\n    n = 1\n    c = (k or b, 2)\n'
        "    for t in c:\n        x = 2\n        t.split()\n    tvm.build(m, target=a)\n",
        id="a value handed on through a branch, an or, a tuple and a loop",
    ),
    pytest.param(
        'import tvm\ndef g():\n    a = "llvm -mcpu=a"\n    print((b := a))\n    n = 1\n    b.split()\n'
        "    tvm.build(m, target=a)\n",
        id="a value handed on by a walrus inside a call",
    ),
    pytest.param(
        'import tvm\ndef mk():\n    t = "llvm -mcpu=a"\n    return t\n\ndef use(m):\n    x = mk()\n    n = 1\n'
        "    y = x\n    y.split()\n    tvm.build(m, target=x)\n",
        id="a returned value, then the names of its caller",
    ),
    pytest.param(
        'import tvm\n\ndef build(m, target):\n    return m\n\nx = 1\nlib = build(mod, target="llvm -mcpu=a")\n',
        id="a function of the module's own named as an API",
    ),
]


@pytest.mark.parametrize("source", SHAPES)
@pytest.mark.parametrize("unsafe", [False, True], ids=["safe", "unsafe"])
def test_a_shape_is_fixed_through_the_view_as_in_the_whole_text(
    source: str, unsafe: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    results = []
    for whole in (False, True):
        monkeypatch.setattr(targetlang.fix._python, "_SPARSE_VIEW", not whole)
        result = fix_source(source, path="x.py", unsafe=unsafe)
        results.append((result.text, [asdict(f) for f in result.findings]))
    assert results[0] == results[1]


def test_a_target_beside_a_use_that_reads_it_as_text_is_not_fixed_as_safe() -> None:
    source = (
        'import tvm\ndef g():\n    t = "llvm -mcpu=a"; n = 1\n    x = 2\n    t.split()\n'
        "    return tvm.target.Target(t)\n"
    )
    (finding,) = fix_source(source, path="x.py").findings
    assert (finding.safety, finding.applied, finding.reason) == (
        "unsafe",
        False,
        "at line 5, read as an object (.split)",
    )


def test_the_prefilter_knows_the_kinds_the_legacy_registry_reads() -> None:
    # the prefilter reads the kinds' names alone (building the legacy registry is 90 ms of a run)
    from targetlang._release_schemas import release_kind_names, release_kinds
    from targetlang._versions import SCHEMA_RELEASES
    from targetlang.fix._convert import reading_registry
    from targetlang.fix._prefilter import kind_names

    assert kind_names(None) == frozenset(reading_registry(None).kinds)
    for version in SCHEMA_RELEASES:
        assert release_kind_names(version) == {kind.name for kind in release_kinds(version)}, version
    assert {"llvm", "cuda", "ethos-u", "trn"} <= kind_names(None)


# ------------------------------------------------------------------ the prefilter hides nothing


def _whole(source: str, table: ApiTable = DEFAULT_TABLE) -> list[tuple[int, str, str]]:
    """The findings of ``source`` read whole by LibCST, past the prefilter: (line, rule, safety)."""
    reading = Reading(ast.parse(source), ((0, len(source)),))
    _, findings = fix_python(source, reading=reading, table=table)
    return [(f.line, f.rule, f.safety) for f in findings]


# A helper called through each way an import names tvm.target (the survey resolves them all)
HELPER_CALLS = [
    "import tvm\nt = tvm.target.cuda()\n",
    "tvm.target.rasp()\n",
    "from tvm.target import cuda\nt = cuda()\n",
    "from tvm.target import cuda as gpu\nt = gpu()\n",
    "from tvm import target as T\nt = T.cuda()\n",
    "from tvm import (\n    relay,\n    target as T,\n)\nt = T.arm_cpu('rasp4b')\n",
    "import tvm.target as tt\nt = tt.rasp()\n",
    "import tvm.target.target as tt\nt = tt.mali()\n",
    "import numpy as np, tvm.target as T\nt = T.cuda()\n",
    "import tvm as t\nx = t.target.cuda()\n",
    "from tvm.target import target as tt\nx = tt.cuda()\n",
    "from tvm import target\nx = target.create('llvm -mcpu=skylake')\n",
    "import functools\nfrom tvm import target as T\nmake = functools.partial(T.arm_cpu, 'rasp4b')\n",
    # an import of a helper (it fails from TVM 0.24 on), each way its names are written
    "from tvm.target import Target, cuda as gpu\n",
    "from tvm.target import (\n    Target,  # the class (kept)\n    arm_cpu,\n)\n",
    "from tvm.target import Target, \\\n    mali\n",
    "from tvm.target.target import rasp\n",
]
# a helper's name before a parenthesis, anywhere: what sent a file to LibCST before
HELPER_NAME = re.compile(rf"(?:{'|'.join(sorted(HELPERS))}|create)\s*\(")
# A call of a helper's name that no import makes one: nothing for LibCST to read
NO_HELPER_CALLS = [
    "import tvm\ndev = tvm.cuda(0)\n",
    "from tvm import rpc\nremote = rpc.connect(host, port)\ndev = remote.hexagon(0)\n",
    "def _find_or_create(x):\n    return create(x)\n",
    "from tvm import relay\nmod = relay.create(x)\n",
    # an import of Target alone: a kind named in the code after it is no helper's
    'from tvm.target import Target\n\n\ndef _target():\n    return Target("cuda", host="llvm")\n',
]


def _passes_the_prefilter(source: str) -> list[tuple[int, str, str]]:
    """``source``'s findings read whole, found as well past the prefilter (which it passes)."""
    whole = _whole(source)
    assert hits(source)
    assert isinstance(may_need_fixing(source, "x.py", None, DEFAULT_TABLE), Reading)
    assert [(f.line, f.rule, f.safety) for f in fix_source(source, path="x.py").findings] == whole
    return whole


@pytest.mark.parametrize("source", HELPER_CALLS)
def test_a_helper_called_under_any_imported_name_passes_the_prefilter(source: str) -> None:
    whole = _passes_the_prefilter(source)
    assert any(rule in ("target-helper", "canon-target") for _, rule, _ in whole), whole


# What target-str-compare and a join of a literal list read passes the prefilter, as they are
# written: str() of a name or of an attribute named so, compared with a literal (after a line
# break too) or tested with startswith; a literal with a dash searched for in str(); a join of a
# list or tuple of parts
# a file with a target in it, long enough to be read through its sparse view
PADDED = (
    "import tvm\n"
    + "".join(f"v{i} = {i}\n" for i in range(30))
    + 't = tvm.target.Target("llvm -mcpu=a")\n'
    + "".join(f"w{i} = {i}\n" for i in range(30))
)
KEPT_BY_THE_PREFILTER = [
    'import tvm\ntarget = tvm.target.Target("llvm")\nif "-mcpu" in str(target):\n    pass\n',
    'def f(target):\n    return str(target) == "llvm"\n',
    'def f(target):\n    return str(target) != (\n        "llvm"\n    )\n',
    "def f(self):\n    return str(self.target) == 'cuda'\n",
    "def f(tgt):\n    return '-mcpu' not in str(tgt)\n",
    'def f(tgt):\n    return str(tgt).startswith("cuda")\n',
    'import tvm\nx = " ".join(["llvm", "-mcpu=skylake"])\ntvm.build(m, target=x)\n',
    'import tvm\ntvm.build(m, target=" ".join((kind, "-mcpu=skylake")))\n',
    # options joined by a generator, then appended where a target stands (TVM v0.16.0's
    # tests/python/contrib/test_uma/test_target.py)
    'import tvm\nargs = " ".join((f"--{k}={v}" for k, v in a.items()))\nt = tvm.target.Target(f"{name} {args}")\n',
    # the literal first, str() of a call, and a run-time value then options where a target stands
    'def f(target):\n    return "llvm" == str(target)\n',
    'import tvm\nok = str(tvm.target.Target("llvm")) == "llvm"\n',
    'import tvm\n\n\ndef f(name, args):\n    return tvm.target.Target(f"{name} {args}")\n',
    'import tvm\n\n\ndef f(name, args):\n    return tvm.target.Target("{} {}".format(name, args))\n',
    'import tvm\n\n\ndef f(name, args):\n    return tvm.target.Target("%s %s" % (name, args))\n',
    # a tag no release knows (target-unknown-tag), one with options, one put together
    'import tvm\nt = tvm.target.Target("nvidia/geforce-rtx-9999-ti")\n',
    'import tvm\nt = tvm.target.Target("nvidia/jetson-nano -libs=cudnn")\n',
    'import tvm\nt = tvm.target.Target(target="nvidia/jetson-nano -libs=cudnn")\n',
    'import tvm\nt = tvm.target.Target("nvidia/jetson-nano" + " -arch=sm_53")\n',
    'import tvm\nt = tvm.target.Target("nvidia/geforce-rtx-3090-ti", host="llvm -mcpu=a")\n',
    # an option right after a run-time value, which may end in a space (found by
    # tests/test_fix_generated.py: the kind split across the template and its value)
    "tgt = Target('o%s-device ' % ('pencl ',))\n",
    # a removed property tested by name alone (target-property)
    'def f(t: Target):\n    return hasattr(t, "device_name")\n',
    'def f(target):\n    return hasattr(\n        target.host,  # (the host)\n        "vtcm_capacity",\n    )\n',
    # a removed property tested by name, past what a pattern of the call could read: the name
    # alone in quotes counts where the text calls hasattr
    'cfg = {"kind": "llvm"}; ok = hasattr(target' + " " * 210 + ', "device_name")\n',
    'ok = hasattr(target,  # it\'s "cutlass"\n "device_name")\n',
    # in a file with a target (padded: a file of few lines is read whole), a text built where an
    # API reads it (dynamic-target) is read too, though no pattern finds it; a call whose target
    # is a name or one word is left out, unless its arguments are not read so or an import gives
    # an API's word to another function
    *(
        PADDED + call
        for call in (
            'k = "cuda"\n\n\ndef f(m, o):\n    return tvm.build(m, k + " " + o)\n',
            'def f(m, k, o):\n    return tvm.build(m, "%s %s" % (k, o))\n',
            'tvm.build(\n    m,\n    "%s %s" % (k, o),\n)\n',
            'tvm.build(m, target=k + " -mcpu=a", **kw)\n',
            'k = "x"\ntvm.build(m, "%s -mcpu=a" % k, "llvm")\n',
            'x = tvm.build(m, "cuda")\ny = tvm.compile(m, target=t)\n',
            'tvm.compile("""x"y""", k + " " + o, """x"y""")\n',
            'tvm.build(m, "", k + " " + o)\n',
            'from tvm.relay import create_executor as build\nbuild(a, b, c, k + " " + o)\n',
            'from tvm import build as b\nb(m, k + " " + o)\n',
        )
    ),
]
# ... and what they do not read does not (37 files of TVM v0.23.0 LibCST read for nothing)
PASSED_OVER_BY_THE_PREFILTER = [
    'print(", ".join([str(i) for i in x]))\n',
    'msg = "; ".join(["{}: {}".format(s, len(i)) for s, i in items])\n',
    'out = "\\n".join(line.strip() for line in lines)\n',
    'def f(target):\n    return "webgpu" in str(target)\n',  # a kind searched for: still found
    'assert str(x << y) == "T.shift_left(x, y)"\n',
    'def f(target):\n    return str(target.kind) == "llvm"\n',
    'try:\n    pass\nexcept ValueError as err:\n    assert "empty" not in str(err)\n',
    # a tag every modern release knows, dashes in its name (no option: 18 files of TVM v0.23.0)
    'import tvm\ntarget = tvm.target.Target("nvidia/geforce-rtx-3090-ti")\n',
    'from tvm.target import Target\nwith Target("nvidia/geforce-rtx-2080-ti", host="llvm"):\n    pass\n',
    'import tvm\nt = tvm.target.Target("aws/cpu/c5.9xlarge")\n',
]
# A modern target reaches a target position through a call of an API in the same text, under
# any name an import gives it: what the modern rules report
MODERN_TARGETS_CALLED = [
    'from tvm import compile as build_it\ncfg = {"kind": "hybrid"}\nbuild_it(mod, target=cfg)\n',
    'from tvm.target import Target as T\nT("cutlass")\n',
    'import tvm.relay.build as b\nb(mod, "cutlass")\n',
    # (the call met before the import that names it, in the order Python's tree is walked)
    'cfg = {"kind": "hybrid"}\nr = b(mod, cfg)\nif True:\n    from tvm import build as b\n',
    "import tvm.script.tir as T\n\n\n@T.prim_func\ndef f():\n"
    '    T.func_attr({"target": T.target({"kind": "hybrid"})})\n',
    'import tvm\nx = "cutlass"\ntvm.build(m, target=x)\n',
    'cfg = \'{"kind": "hybrid"}\'\nrelay.build(mod, cfg)\n',
]
# An unknown tag that reaches a target by a way the text does not spell `Target(`: each was
# reported in the file read whole, and passed over before (the prefilter's tag pattern was
# `Target("vendor/`), alone in the file or beside a modern target (the last, in a file with a
# legacy target, was found before too: the view holds every literal shaped as a tag there)
UNKNOWN_TAGS_ELSEWHERE = [
    'from tvm.target import Target as T\nt = T("nvidia/foo-bar")\n',
    'from tvm.target import Target as T\nt = T("nvidia/foo-bar")\nimport tvm\nx = tvm.target.Target("llvm")\n',
    'import tvm\nlib = tvm.build(mod, target="nvidia/foo-bar")\n',
    'from tvm import relay\nlib = relay.build(mod, "nvidia/foo-bar")\n',
    'import tvm\ntarget = "nvidia/foo-bar"\nlib = tvm.build(mod, target=target)\n',
    PADDED + 'name = "nvidia/foo-bar"\nlib = tvm.compile(mod, target=name)\n',
]


# ... and a tag every release knows is none of the prefilter's hits, wherever it goes
KNOWN_TAGS = [
    'import tvm\nt = tvm.target.Target("nvidia/jetson-nano")\n',
    'import tvm\ntarget = "nvidia/jetson-nano"\nlib = tvm.build(mod, target=target)\n',
]


@pytest.mark.parametrize("source", KNOWN_TAGS)
def test_a_tag_every_release_knows_is_no_hit(source: str) -> None:
    assert (hits(source), _whole(source)) == ([], [])


def test_a_tag_shaped_literal_counts_in_code_a_fix_did_not_write() -> None:
    # (in code a fix wrote, `--prefer-tags`' tag or a model's "a/b", it only made the fix loop
    # read it again, to find nothing)
    text = 't = "nvidia/foo-bar"\n'
    assert (worth_parsing(text), worth_parsing(text, written=True)) == (True, False)


@pytest.mark.parametrize("source", UNKNOWN_TAGS_ELSEWHERE)
def test_an_unknown_tag_an_api_reads_passes_the_prefilter(source: str) -> None:
    assert ("target-unknown-tag", "report-only") in {
        (rule, safety) for _, rule, safety in _passes_the_prefilter(source)
    }


# ... and where no call could be one, they are data: passed over (15 files of TVM v0.23.0 that
# name a removed kind, "cutlass", or hold a dict with a "kind" or "tag" key; a path or a MIME
# type is shaped as a tag)
MODERN_DATA = [
    'path = "data/model.json"\nwith open(path) as f:\n    print(f.read())\n',
    'headers = {"Content-Type": "application/json"}\n',
    'cfg = {"kind": "hybrid"}\nprint(cfg)\n',
    'logger = logging.getLogger("cutlass")\n',
    'patterns = get_patterns_with_prefix("cublas")\n',
    'IMAGES = {"ci_cpu": {"tag": "tlcpack/ci-cpu:20240105"}}\n',
    'attrs = {"Codegen": "cutlass", "global_symbol": "f"}\n',
]


@pytest.mark.parametrize("source", MODERN_TARGETS_CALLED)
def test_a_modern_target_an_api_reads_passes_the_prefilter(source: str) -> None:
    assert any(rule == "target-unknown-kind" for _, rule, _ in _passes_the_prefilter(source))


@pytest.mark.parametrize("source", MODERN_DATA)
def test_a_modern_target_no_api_reads_is_passed_over(source: str) -> None:
    assert hits(source)
    assert _whole(source) == []
    assert may_need_fixing(source, "x.py", None, DEFAULT_TABLE) is False


@pytest.mark.parametrize("source", KEPT_BY_THE_PREFILTER)
def test_what_a_rule_reads_passes_the_prefilter(source: str) -> None:
    assert _passes_the_prefilter(source)


# A call of a user's API (--target-api) is read as the user's row says: where its target is
# built (a position or keyword no built-in API of that name reads, or a name none has)
USER_API_CALLS = [
    (PADDED + 'from mypkg import build\nbuild(k + " " + o, m)\n', "mypkg.build:0"),
    (PADDED + 'import mypkg\nmypkg.build(m, tc=k + " " + o)\n', "mypkg.build:tc"),
    (PADDED + 'import mypkg\nmypkg.go(m, k + " " + o)\n', "mypkg.go:1"),
]


@pytest.mark.parametrize(("source", "row"), USER_API_CALLS)
def test_a_call_of_a_user_s_api_is_read_as_its_row_says(source: str, row: str) -> None:
    api = parse_api(row)
    found = fix_source(source, path="x.py", target_apis=[api]).findings
    assert [(f.line, f.rule, f.safety) for f in found] == _whole(source, DEFAULT_TABLE.with_rows([api]))
    assert ("dynamic-target", len(source.splitlines())) in [(f.rule, f.line) for f in found]


@pytest.mark.parametrize("source", NO_HELPER_CALLS + PASSED_OVER_BY_THE_PREFILTER)
def test_what_no_rule_reads_is_passed_over(source: str) -> None:
    # (a call of a helper's name that no import makes one among them)
    assert _whole(source) == []
    assert hits(source) == []


@pytest.mark.parametrize("name", sorted(p.name for p in (DATA / "prefilter").iterdir()))
def test_a_real_file_the_prefilter_passes_over_has_nothing_to_fix(name: str) -> None:
    # (tests/data/fix/SOURCES.md: files of TVM that call a helper's name, tvm.rocm(0) and the like)
    source = (DATA / "prefilter" / name).read_text(encoding="utf-8")
    assert HELPER_NAME.search(source)
    assert hits(source) == []
    assert _whole(source) == []


@pytest.mark.parametrize(
    ("lines", "viewed"),
    [
        (["x = 1"] * 40 + ["tvm.build(m, target='llvm -mcpu=a')"], True),
        (["tvm.build(m, target='llvm -mcpu=a')"] * 40, False),
    ],
    ids=["one target in forty lines", "a target a line"],
)
def test_a_file_of_targets_is_read_whole(lines: list[str], viewed: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    views: list[str] = []
    real = targetlang.fix._sparse.sparse

    def counted(text: str, *args: Any) -> Any:
        views.append(text)
        return real(text, *args)

    monkeypatch.setattr(targetlang.fix._python, "sparse", counted)
    result = fix_source("import tvm\n" + "\n".join(lines) + "\n", path="m.py")
    assert result.changed
    assert bool(views) == viewed
