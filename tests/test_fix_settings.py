"""The configuration of ``targetlang fix``: ``[tool.targetlang]`` in ``pyproject.toml`` and
``targetlang.toml``, found from each path given, the command line over it, ``exclude`` and
``per-file-ignores``, ``target-version = "auto"``, ``--show-settings``, and bad configurations."""

from __future__ import annotations

import fnmatch
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from targetlang import SettingsError, TargetError
from targetlang.fix._auto_version import auto_target_version
from targetlang.fix._settings import DEFAULT_EXCLUDE, _globs, load_settings

from .conftest import Run, examples
from .newest import DISTRIBUTION_LIST, MODERN_LIST, NEWEST


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / ".git").mkdir()  # the repository's root: the search for a configuration stops here
    monkeypatch.chdir(tmp_path)


def _tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")


# ------------------------------------------------------------------ keys and values

VALUES = [
    pytest.param("", {}, id="empty-table"),
    pytest.param('select = ["target-string"]', {"select": ("target-string",)}, id="select"),
    pytest.param(
        'select = ["target-string"]\nextend-select = ["text-target"]',
        {"select": ("target-string", "text-target")},
        id="extend-select",
    ),
    pytest.param('ignore = ["text-target"]', {"ignore": ("text-target",)}, id="ignore"),
    pytest.param('target-version = "0.25"', {"target_version": "0.25"}, id="target-version"),
    pytest.param("docs = true", {"docs": True}, id="docs"),
    pytest.param("line-length = 100", {"line_length": 100}, id="line-length"),
    pytest.param('registry = "conf/hip.toml"', {"registry": "{root}/conf/hip.toml"}, id="registry-relative"),
    pytest.param(
        'per-file-ignores = {"tests/*" = ["target-string"]}',
        {"per_file_ignores": (("tests/*", ("target-string",)),)},
        id="per-file-ignores",
    ),
    pytest.param('exclude = ["gen"]', {"exclude": ("gen",)}, id="exclude-replaces"),
    pytest.param('extend-exclude = ["gen"]', {"exclude": (*DEFAULT_EXCLUDE, "gen")}, id="extend-exclude-adds"),
]
DEFAULTS = {
    "select": None,
    "ignore": (),
    "target_version": NEWEST,
    "docs": False,
    "line_length": None,
    "registry": None,
    "per_file_ignores": (),
    "exclude": DEFAULT_EXCLUDE,
}


@pytest.mark.parametrize(("body", "expected"), VALUES)
def test_values_of_tool_targetlang(tmp_path: Path, body: str, expected: dict[str, object]) -> None:
    _tree(tmp_path, {"pyproject.toml": f"[tool.ruff]\nselect = ['E']\n\n[tool.targetlang]\n{body}\n", "src/a.py": ""})
    settings = load_settings("src")
    assert settings.config == tmp_path / "pyproject.toml"
    for name, value in {**DEFAULTS, **expected}.items():
        if isinstance(value, str):
            value = value.replace("{root}", str(tmp_path))
        assert getattr(settings, name) == value, name


def test_target_apis_are_rows_of_the_table(tmp_path: Path) -> None:
    _tree(tmp_path, {"targetlang.toml": 'target-apis = ["mypkg.build:1=target", "mypkg.run:*"]\n'})
    apis = load_settings(".").target_apis
    assert [(api.name, api.positions, api.keywords) for api in apis] == [
        ("mypkg.build", (1,), ("target",)),
        ("mypkg.run", (-1,), ()),
    ]


def test_the_command_line_overrides_each_key(tmp_path: Path) -> None:
    _tree(tmp_path, {"targetlang.toml": 'select = ["target-string"]\nextend-select = ["text-target"]\ndocs = true\n'})
    settings = load_settings(".", {"select": ["canon-target"], "extend-select": [], "line-length": 70})
    assert (settings.select, settings.docs, settings.line_length) == (("canon-target",), True, 70)
    assert settings.sources["select"] == "command line"
    assert settings.sources["docs"] == "targetlang.toml"
    assert settings.sources["ignore"] == "default"


# ------------------------------------------------------------------ which file


@pytest.mark.parametrize(
    ("files", "start", "config"),
    [
        pytest.param({"pyproject.toml": "[tool.targetlang]\n"}, "src", "pyproject.toml", id="above"),
        pytest.param(
            {"pyproject.toml": "[tool.targetlang]\n", "targetlang.toml": ""},
            "src",
            "targetlang.toml",
            id="targetlang-toml-wins-in-one-folder",
        ),
        pytest.param(
            {"pyproject.toml": "[tool.targetlang]\n", "src/pyproject.toml": "[tool.targetlang]\ndocs = true\n"},
            "src/a.py",
            "src/pyproject.toml",
            id="nearest",
        ),
        pytest.param(
            {"pyproject.toml": "[tool.targetlang]\n", "src/pyproject.toml": "[tool.black]\nline-length = 80\n"},
            "src",
            "pyproject.toml",
            id="a-pyproject-without-the-table-is-passed",
        ),
        pytest.param({"src/a.py": ""}, "src/a.py", None, id="none"),
    ],
)
def test_the_nearest_configuration(tmp_path: Path, files: dict[str, str], start: str, config: str | None) -> None:
    _tree(tmp_path, {"src/a.py": "", **files})
    assert load_settings(start).config == (tmp_path / config if config else None)


def test_the_search_stops_at_the_repository_s_root(tmp_path: Path) -> None:
    _tree(tmp_path, {"pyproject.toml": "[tool.targetlang]\n", "repo/src/a.py": ""})
    (tmp_path / "repo" / ".git").mkdir()
    assert load_settings("repo/src").config is None


# ------------------------------------------------------------------ exclude and per-file-ignores


@pytest.mark.parametrize(
    ("patterns", "path", "excluded"),
    [
        (["gen"], "src/gen/a.py", True),
        (["gen"], "src/generated/a.py", False),
        (["*_pb2.py"], "src/x_pb2.py", True),
        (["src/gen"], "src/gen", True),
        (["src/gen"], "lib/src/gen", False),  # a pattern with a / is from the config's folder
        (["/src/gen/"], "src/gen/a.py", True),
        (["docs/**/*.md"], "docs/a/b/c.md", True),
    ],
)
def test_exclude_patterns(tmp_path: Path, patterns: list[str], path: str, excluded: bool) -> None:
    _tree(tmp_path, {"targetlang.toml": f"exclude = {patterns!r}\n".replace("'", '"')})
    assert load_settings(".").excluded(path) is excluded


_GLOB_PARTS = st.sampled_from(["a", "b", "gen", ".", "_", "*", "?", "[ab]", "[!a]", "**", "/", "-", "\\", "]", "["])


@settings(max_examples=examples(300), deadline=None)
@given(
    st.lists(st.lists(_GLOB_PARTS, max_size=6).map("".join), min_size=1, max_size=4), st.lists(_GLOB_PARTS, max_size=6)
)
def test_the_patterns_match_as_fnmatch_does(patterns: list[str], parts: list[str]) -> None:
    # (all of exclude's patterns are matched at once: each as fnmatch.fnmatchcase matches it)
    name = "".join(parts)
    named, pathed = _globs(tuple(patterns))
    bare = [p.rstrip("/") for p in patterns]
    expected_named = any(fnmatch.fnmatchcase(name, p) for p in bare if "/" not in p)
    expected_pathed = any(fnmatch.fnmatchcase(name, p.lstrip("/")) for p in bare if "/" in p)
    assert (named is not None and named.match(name) is not None) == expected_named
    assert (pathed is not None and pathed.match(name) is not None) == expected_pathed


@pytest.mark.parametrize(
    ("path", "ignored"),
    [
        ("tests/test_a.py", ("target-string",)),
        ("tests/deep/test_b.py", ("target-string",)),
        ("scripts/run.sh", ("text-target", "target-string")),
        ("src/a.py", ()),
    ],
)
def test_per_file_ignores(tmp_path: Path, path: str, ignored: tuple[str, ...]) -> None:
    config = '[per-file-ignores]\n"tests/*" = ["target-string"]\n"*.sh" = ["text-target", "target-string"]\n'
    _tree(tmp_path, {"targetlang.toml": config})
    assert load_settings(".").ignored_in(path) == ignored


# ------------------------------------------------------------------ target-version = "auto"


@pytest.mark.parametrize(
    ("files", "version"),
    [
        ({"pyproject.toml": '[project]\ndependencies = ["apache-tvm>=0.25,<0.27"]\n'}, "0.25"),
        ({"pyproject.toml": '[project]\ndependencies = ["numpy", "apache-tvm==0.26.*"]\n'}, "0.26"),
        ({"pyproject.toml": '[project]\ndependencies = ["Apache_TVM >= 0.25.1"]\n'}, "0.25"),
        ({"pyproject.toml": '[project.optional-dependencies]\ngpu = ["apache-tvm~=0.26.0"]\n'}, "0.26"),
        ({"requirements.txt": "numpy\napache-tvm>=0.24  # the first JSON release\n"}, "0.24"),
        ({"requirements-dev.txt": "-r requirements.txt\napache-tvm<0.26\n"}, "0.24"),
        ({"pyproject.toml": '[project]\ndependencies = ["apache-tvm"]\n'}, "0.24"),
        ({"pyproject.toml": '[project]\ndependencies = ["numpy"]\n'}, NEWEST),  # none: the default
        ({"pyproject.toml": '[project]\ndependencies = ["apache-tvm<0.20"]\n'}, NEWEST),  # none allowed
    ],
)
def test_auto_target_version(tmp_path: Path, files: dict[str, str], version: str) -> None:
    _tree(tmp_path, files)
    assert auto_target_version(tmp_path)[0] == version


def test_auto_says_how_it_decided(tmp_path: Path) -> None:
    _tree(tmp_path, {"requirements.txt": "apache-tvm<0.20\n"})
    assert auto_target_version(tmp_path)[1] == (
        f"target-version auto: apache-tvm<0.20 (requirements.txt) allows none of {MODERN_LIST}; "
        f"{NEWEST}, the default"
    )


# ------------------------------------------------------------------ bad configurations

BAD = [
    pytest.param("[tool.targetlang\n", "pyproject.toml: not TOML: Expected ']' at the end of a table declaration "
                 "(at line 1, column 17)", id="syntax"),
    pytest.param(
        '[tool.ruff]\nselect = ["E"]\n\n[tool.targetlang]\nselect = ["target-strings"]\n',
        "pyproject.toml: line 5: select is rule ids; 'target-strings' is none (did you mean 'target-string'?)",
        id="unknown-rule",
    ),
    pytest.param(
        '[tool.targetlang]\ndocs = true\nline_length = 80\n',
        "pyproject.toml: line 3: unknown key 'line_length'; did you mean 'line-length'?",
        id="unknown-key",
    ),
    pytest.param(
        '[tool.targetlang]\ntarget-version = 0.25\n',
        f'pyproject.toml: line 2: target-version is "auto" or one of {DISTRIBUTION_LIST} (a string)',
        id="version-not-a-string",
    ),
    pytest.param(
        '[tool.targetlang]\nline-length = "88"\n',
        "pyproject.toml: line 2: line-length is a whole number from 1",
        id="line-length",
    ),
    pytest.param(
        '[tool.targetlang]\ntarget-apis = ["build"]\n',
        "pyproject.toml: line 2: target-apis is \"QUALNAME:ARG\" strings; 'build': --target-api takes "
        "QUALNAME:ARG (mypkg.compile:target, mypkg.compile:1), not 'build'",
        id="target-api",
    ),
    pytest.param(
        '[tool]\ntargetlang = 1\n',
        "pyproject.toml: line 2: tool.targetlang is a table",
        id="not-a-table",
    ),
]


@pytest.mark.parametrize(("text", "message"), BAD)
def test_a_bad_configuration_names_the_file_the_line_and_the_key(tmp_path: Path, text: str, message: str) -> None:
    _tree(tmp_path, {"pyproject.toml": text})
    with pytest.raises(SettingsError) as info:
        load_settings(".")
    assert info.value.message == message
    assert isinstance(info.value, TargetError)


def test_a_bad_configuration_is_exit_2(run: Run, tmp_path: Path) -> None:
    _tree(tmp_path, {"targetlang.toml": "docs = 1\n", "a.py": ""})
    assert run("fix", "--check", "a.py") == (2, "", "error: targetlang.toml: line 1: docs is true or false\n")


# ------------------------------------------------------------------ the command

LEGACY = 'import tvm\nt = tvm.target.Target("cuda -arch=sm_80")\n'
FIXED = 'import tvm\nt = tvm.target.Target({"kind": "cuda", "arch": "sm_80"})\n'


def test_exclude_keeps_a_folder_untouched_by_write(run: Run, tmp_path: Path) -> None:
    _tree(
        tmp_path,
        {
            "pyproject.toml": '[tool.targetlang]\nextend-exclude = ["third_party", "src/gen"]\n',
            "src/a.py": LEGACY,
            "src/gen/b.py": LEGACY,
            "third_party/c.py": LEGACY,
            "build/d.py": LEGACY,  # the default list still holds with extend-exclude
        },
    )
    assert run("fix", "--write", ".") == (0, "", "1 finding in 2 files, 1 fixed; 1 file changed\n")
    assert (tmp_path / "src/a.py").read_text() == FIXED
    for name in ("src/gen/b.py", "third_party/c.py", "build/d.py"):
        assert (tmp_path / name).read_text() == LEGACY
    # named on the command line, an excluded file is still read (as ruff does without --force-exclude)
    assert run("fix", "--write", "--quiet", "third_party/c.py")[0] == 0
    assert (tmp_path / "third_party/c.py").read_text() == FIXED


def test_exclude_replaces_the_default_list(run: Run, tmp_path: Path) -> None:
    _tree(tmp_path, {"targetlang.toml": 'exclude = ["vendor"]\n', "build/a.py": LEGACY, "vendor/b.py": LEGACY})
    assert run("fix", "--write", "--quiet", ".")[0] == 0
    assert (tmp_path / "build/a.py").read_text() == FIXED
    assert (tmp_path / "vendor/b.py").read_text() == LEGACY


def test_per_file_ignores_on_the_command(run: Run, tmp_path: Path) -> None:
    config = '[tool.targetlang]\nper-file-ignores = {"tests/**" = ["target-string"]}\n'
    _tree(tmp_path, {"pyproject.toml": config, "tests/t.py": LEGACY, "src/a.py": LEGACY})
    assert run("fix", "--write", "--quiet", ".")[0] == 0
    assert (tmp_path / "tests/t.py").read_text() == LEGACY
    assert (tmp_path / "src/a.py").read_text() == FIXED


SHOWN = """\
path: src
config: pyproject.toml
root: .
select = ["target-string", "text-target"]  # pyproject.toml [tool.targetlang]
ignore = []  # default
extend-select = []  # default
exclude = [{default}]  # default
extend-exclude = ["gen"]  # pyproject.toml [tool.targetlang]
per-file-ignores = {{}}  # default
target-version = "0.25"  # pyproject.toml [tool.targetlang] (auto)
registry = (none)  # default
docs = true  # command line
line-length = (the project's: [tool.ruff] or [tool.black], else 88)  # default
target-apis = ["mypkg.build:1=target"]  # command line
note: target-version auto: 0.25, the lowest release allowed by apache-tvm<0.27,>=0.25 (pyproject.toml)
"""


def test_show_settings(run: Run, tmp_path: Path) -> None:
    config = (
        '[project]\nname = "m"\ndependencies = ["apache-tvm>=0.25,<0.27"]\n\n[tool.targetlang]\n'
        'select = ["target-string", "text-target"]\nextend-exclude = ["gen"]\ntarget-version = "auto"\n'
    )
    _tree(tmp_path, {"pyproject.toml": config, "src/a.py": LEGACY})
    default = ", ".join(f'"{name}"' for name in DEFAULT_EXCLUDE)
    status, out, err = run("fix", "--show-settings", "--docs", "--target-api", "mypkg.build:1=target", "src")
    assert (status, out, err) == (0, SHOWN.format(default=default), "")
    assert (tmp_path / "src/a.py").read_text() == LEGACY


def test_auto_picks_0_25_for_the_fix_itself(run: Run, tmp_path: Path) -> None:
    """From 0.25 on a Target reads its attributes again: the finding of a removed property says
    what the read does there, where for 0.24 it says the property is gone."""
    source = 'import tvm\nt = tvm.target.Target({"kind": "cuda", "arch": "sm_80"})\nprint(t.arch)\n'
    project = '[project]\ndependencies = ["apache-tvm>=0.25,<0.27"]\n\n[tool.targetlang]\ntarget-version = "auto"\n'
    _tree(tmp_path, {"pyproject.toml": project, "a.py": source})
    auto = run("fix", "--check", "a.py")
    assert auto == run("fix", "--check", "--target-version", "0.25", "a.py")
    assert "a.py:3:7: target-property [safe] Target.arch: on TVM >= 0.25 it reads the attribute" in auto[1]
    old = run("fix", "--check", "--target-version", "0.24", "a.py")
    assert "a.py:3:7: target-property [safe] Target.arch was removed in TVM 0.24" in old[1]


# ------------------------------------------------------------------ defects found in review

CHECKED = "1 finding in 1 file, 1 fixable; 1 file would change\n"


@pytest.mark.parametrize(
    ("config", "given", "inner"),
    [
        pytest.param({}, "build/proj", "build", id="default-exclude-above"),
        pytest.param({}, "build/proj/", "dist", id="trailing-slash"),
        pytest.param({"targetlang.toml": 'exclude = ["gen"]\n'}, "gen/proj", "gen", id="configured-name-above"),
        pytest.param(
            {"targetlang.toml": 'exclude = ["gen/proj", "vendor"]\n'}, "gen/proj", "vendor", id="configured-path-given"
        ),
    ],
)
def test_a_folder_given_inside_an_excluded_one_is_walked(
    run: Run, tmp_path: Path, config: dict[str, str], given: str, inner: str
) -> None:
    top = given.strip("/")
    _tree(tmp_path, {**config, f"{top}/a.py": LEGACY, f"{top}/{inner}/b.py": LEGACY})  # below it: still excluded
    status, out, err = run("fix", "--check", given)
    assert (status, err) == (1, CHECKED)
    assert out == f"{top}/a.py:2:23: target-string [safe] legacy target string\n"


def test_an_absolute_folder_inside_an_excluded_one_is_walked_without_a_config(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _tree(tmp_path, {"elsewhere/.git/HEAD": "", "tree/build/proj/a.py": LEGACY, "tree/build/proj/dist/b.py": LEGACY})
    monkeypatch.chdir(tmp_path / "elsewhere")  # the walk's names are outside the settings' root
    given = str(tmp_path / "tree" / "build" / "proj")
    status, out, err = run("fix", "--check", given)
    assert (status, err) == (1, CHECKED)
    assert out == f"{given}/a.py:2:23: target-string [safe] legacy target string\n"


@pytest.mark.parametrize(
    ("patterns", "below", "path", "excluded"),
    [
        (["build"], "build/proj", "build/proj/a.py", False),
        (["build"], "build/proj", "build/proj/sub", False),
        (["build"], "build/proj", "build/proj/build", True),
        (["build"], "build/proj", "build/proj/build/a.py", True),
        (["src/gen"], "src/gen", "src/gen/a.py", False),
        (["src/gen"], "src", "src/gen", True),
        (["gen/*.py"], "gen", "gen/a.py", True),  # what lies below is still matched
        (["build"], ".", "build", True),
    ],
)
def test_only_what_lies_below_the_given_path_is_matched(
    tmp_path: Path, patterns: list[str], below: str, path: str, excluded: bool
) -> None:
    _tree(tmp_path, {"targetlang.toml": f"exclude = {patterns!r}\n".replace("'", '"')})
    assert load_settings(".").excluded(path, below=below) is excluded


@pytest.mark.parametrize(
    ("project", "message"),
    [
        pytest.param(
            '[project]\nname = "m"\noptional-dependencies = ["apache-tvm"]\n',
            "pyproject.toml: line 3: project.optional-dependencies is a table of lists of requirement strings",
            id="optional-dependencies-a-list",
        ),
        pytest.param(
            '[project.optional-dependencies]\ngpu = "apache-tvm"\n',
            "pyproject.toml: line 1: project.optional-dependencies is a table of lists of requirement strings",
            id="an-extra-a-string",
        ),
        pytest.param(
            '[project]\nname = "m"\ndependencies = 5\n',
            "pyproject.toml: line 3: project.dependencies is a list of requirement strings",
            id="dependencies-a-number",
        ),
        pytest.param(
            'project = "m"\n',
            "pyproject.toml: line 1: project is a table",
            id="project-not-a-table",
        ),
    ],
)
def test_a_malformed_project_table_is_a_settings_error(
    run: Run, tmp_path: Path, project: str, message: str
) -> None:
    _tree(tmp_path, {"pyproject.toml": project + '\n[tool.targetlang]\ntarget-version = "auto"\n', "a.py": ""})
    with pytest.raises(SettingsError) as info:
        load_settings("a.py")
    assert info.value.message == message
    assert run("fix", "--check", "a.py") == (2, "", f"error: {message}\n")


@pytest.mark.parametrize(
    ("files", "start", "version"),
    [
        pytest.param(
            {"pyproject.toml": '[project]\ndependencies = ["apache-tvm>=0.25,<0.27"]\n', "src/a.py": ""},
            "src",
            "0.25",
            id="pyproject-above",
        ),
        pytest.param(
            {"requirements.txt": "apache-tvm<0.26\n", "pkg/src/a.py": ""},
            "pkg/src/a.py",
            "0.24",
            id="requirements-two-above",
        ),
        pytest.param(
            {
                "pyproject.toml": '[project]\ndependencies = ["apache-tvm>=0.25"]\n',
                "pkg/pyproject.toml": '[project]\ndependencies = ["apache-tvm>=0.26"]\n',
                "pkg/a.py": "",
            },
            "pkg",
            "0.26",
            id="the-nearest-wins",
        ),
        pytest.param(
            {
                "pyproject.toml": '[project]\ndependencies = ["apache-tvm>=0.26"]\n',
                "pkg/requirements.txt": "numpy\n",
                "pkg/a.py": "",
            },
            "pkg",
            "0.26",
            id="a-project-without-tvm-is-passed",
        ),
    ],
)
def test_auto_searches_upwards_for_the_requirement(
    run: Run, tmp_path: Path, files: dict[str, str], start: str, version: str
) -> None:
    _tree(tmp_path, files)
    assert load_settings(start, {"target-version": "auto"}).target_version == version
    out = run("fix", "--show-settings", "--target-version", "auto", start)[1]
    assert f'target-version = "{version}"  # command line (auto)\n' in out


def test_auto_stops_at_the_repository_s_root(tmp_path: Path) -> None:
    _tree(tmp_path, {"requirements.txt": "apache-tvm<0.26\n", "repo/.git/HEAD": "", "repo/a.py": ""})
    assert load_settings("repo", {"target-version": "auto"}).target_version == NEWEST


PIP_COMPILE = """\
#
# This file is autogenerated by pip-compile with Python 3.11
#
-c constraints.txt
--index-url https://example.org/simple
apache-tvm==0.26.0 \\
    --hash=sha256:0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9 \\
    --hash=sha256:f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b7a6f5e4d3c2b1a0f9e8
    # via -r requirements.in
numpy==1.26.4 ; python_version >= "3.9" \\
    --hash=sha256:00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff
"""


@pytest.mark.parametrize(
    ("text", "version", "said"),
    [
        pytest.param(PIP_COMPILE, "0.26", "apache-tvm==0.26.0", id="pip-compile-hashes"),
        pytest.param("apache-tvm>=0.25 \\\n  ,<0.27\n", "0.25", "apache-tvm<0.27,>=0.25", id="continued"),
        pytest.param(
            'apache-tvm>=0.26 ; python_version >= "3.9"  # the JSON targets\n',
            "0.26",
            "apache-tvm>=0.26",
            id="marker-and-comment",
        ),
        pytest.param("-r base.txt\n\tapache-tvm<0.25\t# tab\n", "0.24", "apache-tvm<0.25", id="tab-comment"),
    ],
)
def test_auto_reads_requirements_files_as_pip_writes_them(
    tmp_path: Path, text: str, version: str, said: str
) -> None:
    _tree(tmp_path, {"requirements.txt": text})
    assert auto_target_version(tmp_path) == (
        version,
        f"target-version auto: {version}, the lowest release allowed by {said} (requirements.txt)",
    )


def test_ipynb_checkpoints_are_left_alone(run: Run, tmp_path: Path) -> None:
    cell: dict[str, object] = {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": []}
    cell["source"] = LEGACY
    notebook = json.dumps({"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1) + "\n"
    _tree(tmp_path, {"nb.ipynb": notebook, ".ipynb_checkpoints/nb-checkpoint.ipynb": notebook})
    assert ".ipynb_checkpoints" in DEFAULT_EXCLUDE
    assert run("fix", "--write", "--quiet", ".")[0] == 0
    assert (tmp_path / "nb.ipynb").read_text(encoding="utf-8") == notebook.replace(
        'Target(\\"cuda -arch=sm_80\\")', 'Target({\\"kind\\": \\"cuda\\", \\"arch\\": \\"sm_80\\"})'
    )
    assert (tmp_path / ".ipynb_checkpoints/nb-checkpoint.ipynb").read_text(encoding="utf-8") == notebook


@pytest.mark.parametrize(
    "argv",
    [
        pytest.param(("fix", "--show-settings", "nonexistent"), id="alone"),
        pytest.param(("fix", "--show-settings", ".", "nonexistent"), id="after-one-that-exists"),
    ],
)
def test_show_settings_of_a_missing_path_is_exit_2(run: Run, argv: tuple[str, ...]) -> None:
    assert run(*argv) == (2, "", "error: no such file or directory: nonexistent\n")
