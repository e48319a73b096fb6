"""The modern releases (0.24 on), each with its own shipped schema, tags and checks, and the
release a migration writes for picked by ``--target-version``."""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from targetlang._versions import MODERN, MODERN_RELEASES, RELEASES
from targetlang.fix import TARGET_VERSIONS
from targetlang.migration import RULE_ALIASES, RULES, migrate, rule_id
from targetlang.migration._checks import checks_file

from .conftest import Run, oracle_script
from .doc_refresh import shown
from .newest import MODERN_LIST, MODERN_NAMES, NEWEST, NEWEST_MINOR, UNKNOWN

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "targetlang" / "data"


def _extractor() -> ModuleType:
    return oracle_script("extract_schemas")


def _sentence(before: str, after: str) -> re.Pattern[str]:
    # the words as written, wrapped anywhere, around the release named
    words = [r"\s+".join(map(re.escape, part.split())) for part in (before, after)]
    return re.compile(words[0] + r"\s+(\d+\.\d+)" + words[1])


_NEWEST_IN_PROSE = (
    # (page, the sentence naming the newest release, with the release as its one group)
    ("docs/migration.md", _sentence("the default is the newest,", ".")),
    ("README.md", _sentence("(v0.7 to", ", extracted from each release's source)")),
)
# ends the last cell of the newest release's row: the release migrate writes for unless told
_DEFAULT_MARK = "; the default"


def _names(release: str, what: str) -> set[str]:
    data = json.loads((DATA / f"{what}-v{release}.json").read_text(encoding="utf-8"))
    return set(data[what])


def _changes(what: str, release: str, before: str | None) -> str:
    now = _names(release, what)
    then = now if before is None else _names(before, what)
    moves = [f"{sign}{', '.join(sorted(names))}" for sign, names in (("+", now - then), ("-", then - now)) if names]
    return f"{what} {len(now)}" + (f" ({'; '.join(moves)})" if moves else "")


def release_row(release: str) -> str:
    """A row of docs/migration.md's "Modern releases" for a release added as data, written by
    ``--refresh-docs`` from what its data changed since the modern release before (the first,
    its counts alone); what the data cannot say is added by hand."""
    index = MODERN_NAMES.index(release)
    before = MODERN_NAMES[index - 1] if index else None
    changed = f"{_changes('kinds', release, before)}; {_changes('tags', release, before)}"
    files = f"`kinds-v{release}.json`, `tags-v{release}.json`"
    return f"| {release} | {changed} | from its data ({files}){_DEFAULT_MARK} |"


def _release_table(guide: str) -> list[str]:
    """The rows of docs/migration.md's "Modern releases" table, as written (its first table)."""
    section = guide.split("## Modern releases", 1)[1].split("\n## ", 1)[0].split("\n")
    start = next((n for n, line in enumerate(section) if line.startswith("|")), None)
    assert start is not None, "docs/migration.md: no table under '## Modern releases'"
    table = list(itertools.takewhile(lambda line: line.startswith("|"), section[start:]))
    return table[2:]  # (after the header and its rule)


def test_the_docs_prose_names_every_release_and_the_newest() -> None:
    """What the transcripts cannot say: a release added as data without its row in
    docs/migration.md's table, or prose still naming the one before, fails; ``--refresh-docs``
    writes the missing rows (from the data), moves "the default" to the newest row and names the
    newest in the prose (tests/doc_refresh.py). A row of no modern release, or two of one, is
    for a person to mend: it fails either way."""
    for page_name, sentence in _NEWEST_IN_PROSE:
        page = ROOT / page_name
        found = sentence.search(page.read_text(encoding="utf-8"))
        assert found is not None, f"{page_name}: {sentence.pattern}"
        named = found[0][: found.start(1) - found.start()] + NEWEST + found[0][found.end(1) - found.start() :]
        shown(page, found[0], named, f"{page_name} names the newest release")
    guide = ROOT / "docs" / "migration.md"
    rows = _release_table(guide.read_text(encoding="utf-8"))
    releases = [row.split("|")[1].strip() for row in rows]
    assert set(releases) <= set(MODERN_NAMES) and len(set(releases)) == len(releases), releases
    written = dict(zip(releases, rows, strict=True))
    wanted = []
    for release in MODERN_NAMES:
        cells = (written.get(release) or release_row(release)).rstrip().removesuffix("|").rstrip()
        wanted.append(cells.removesuffix(_DEFAULT_MARK) + (_DEFAULT_MARK if release == NEWEST else "") + " |")
    shown(guide, "\n".join(rows), "\n".join(wanted), "docs/migration.md's Modern releases table")


def test_the_extractor_regenerates_each_modern_release_byte_for_byte() -> None:
    # from the recorded extraction of TVM's tags (tvm-schemas.json), without TVM or its clone
    files = _extractor().modern_files((DATA / "tvm-schemas.json").read_text(encoding="utf-8"))
    # every modern release but the newest, whose files its wheel gave
    assert sorted(files) == [f"{kind}-v{release}.json" for kind in ("kinds", "tags") for release in MODERN_NAMES[:-1]]
    for name, text in files.items():
        shipped = (DATA / name).read_text(encoding="utf-8")
        if "--modern" in json.loads(shipped)["source"]:  # (one recorded from its wheel when newest is kept)
            assert shipped == text, name


def test_the_extractor_takes_its_releases_from_the_release_table() -> None:
    extractor = _extractor()
    assert extractor.RELEASES[0] == "0.7"
    assert extractor.RELEASES[-1] == NEWEST
    assert len(extractor.RELEASES) == NEWEST_MINOR - 6


@pytest.mark.parametrize(
    ("release", "kinds", "tags"),
    [
        # TVM v0.24.0's src/ registers 13 kinds; v0.25.0 added trn
        ("0.24", 13, 283),
        ("0.25", 14, 285),
        ("0.26", 14, 286),
        # the wheel: cuda_host besides
        ("0.27", 15, 287),
    ],
)
def test_each_modern_release_ships_its_own_kinds_and_tags(release: str, kinds: int, tags: int) -> None:
    kind_data = json.loads((DATA / f"kinds-v{release}.json").read_text(encoding="utf-8"))["kinds"]
    tag_data = json.loads((DATA / f"tags-v{release}.json").read_text(encoding="utf-8"))
    assert len(kind_data) == kinds
    assert len(tag_data["tags"]) == tag_data["count"] == tags
    assert ("trn" in kind_data) is (release != "0.24")


def test_a_derived_release_keeps_the_types_and_keys_the_wheel_shows() -> None:
    # 0.26's cuda as its source registered it, in the form 0.27's wheel recorded
    cuda = json.loads((DATA / "kinds-v0.26.json").read_text(encoding="utf-8"))["kinds"]["cuda"]
    assert cuda["options"]["max_num_threads"] == "int"
    assert cuda["options"]["libs"] == "Array<str>"
    assert cuda["options"]["host"] == "target.Target"
    assert cuda["bare_export"] == {
        "kind": "cuda",
        "tag": "",
        "keys": ["cuda", "gpu"],
        "max_num_threads": 1024,
        "thread_warp_size": 32,
    }


# ------------------------------------------------------------------------------ release written for


@pytest.mark.parametrize(
    ("to", "ok", "rules"),
    [
        # trn is a kind from v0.25 on: 0.24 does not know it
        ("0.24", False, ["unknown-attribute"]),
        ("0.25", True, []),
        ("0.27", True, []),
    ],
)
def test_migrate_writes_for_the_release_asked(to: str, ok: bool, rules: list[str]) -> None:
    m = migrate({"kind": "trn"}, to=to)
    assert m.ok is ok
    assert [c.rule for c in m.changes] == rules
    assert m.json == ({"kind": "trn"} if ok else None)


@pytest.mark.parametrize("to", ["0.24", "0.25", "0.26", "0.27"])
def test_each_release_rejects_with_its_canonicaliser_checks(to: str) -> None:
    # 0.24 - 0.26 check as 0.27 does: the same conditions and messages at their tags
    m = migrate("cuda -arch=80", to=to)
    assert [(c.rule, c.message) for c in m.changes] == [
        (
            "rejected-by-target",
            f"attribute 'arch' is '80', which TVM {to} rejects: CUDA target gets an invalid CUDA arch: -arch=80",
        )
    ]
    assert checks_file(to).name == "checks-v0.27.json"


@pytest.mark.parametrize("to", ["0.23", UNKNOWN, "0.1", "next"])
def test_a_release_without_modern_data_is_refused(to: str) -> None:
    with pytest.raises(ValueError, match=rf"writes for TVM {re.escape(MODERN_LIST)}, not"):
        migrate("llvm", to=to)


def test_the_release_table_comes_from_the_data() -> None:
    assert tuple(str(v) for v in MODERN_RELEASES) == MODERN_NAMES
    assert str(MODERN) == NEWEST
    assert list(RELEASES)[-len(MODERN_NAMES) - 1 :] == ["0.23", *MODERN_NAMES]
    assert all(RELEASES[name].has_schema and not RELEASES[name].reads_legacy for name in ("0.24", NEWEST))
    assert TARGET_VERSIONS == ("tirx-0.1", *MODERN_NAMES)


@pytest.mark.parametrize(
    ("old", "new"), [("unknown-in-0.27", "unknown-attribute"), ("rejected-by-0.27", "rejected-by-target")]
)
def test_old_rule_ids_name_the_renamed_rules(old: str, new: str) -> None:
    assert rule_id(old) == new
    assert rule_id(new) == new
    assert RULE_ALIASES[old] in RULES
    assert old not in RULES


def test_cli_migrate_target_version(run: Run) -> None:
    assert run("migrate", "--target-version", "0.25", '{"kind": "trn"}') == (0, '{\n  "kind": "trn"\n}\n', "")
    status, out, err = run("migrate", "--target-version", "0.24", '{"kind": "trn"}')
    assert (status, out) == (1, "")
    assert err.splitlines()[0] == "error: unknown-attribute: kind 'trn': a kind or attribute TVM 0.24 does not know"
    status, out, err = run("migrate", "--target-version", "0.23", "llvm")
    assert status == 2
    assert f"argument --target-version: targetlang writes for TVM {MODERN_LIST}, not '0.23'" in err


def test_cli_check_target_version(run: Run) -> None:
    status, out, err = run("check", "--target-version", "0.26", "-", stdin=b"llvm -mcpu=skylake\ncuda -arch=80\n")
    assert status == 1
    assert out.splitlines()[-1] == "migrated to TVM 0.26: 1 failed"
    assert (
        "<stdin>:2: migrate to 0.26: rejected-by-target: attribute 'arch' is '80', which TVM 0.26 rejects: "
        "CUDA target gets an invalid CUDA arch: -arch=80"
    ) in err.splitlines()
    status, out, err = run("check", "--target-version", "0.26", "-", stdin=b"llvm -mcpu=skylake\n")
    assert (status, out.splitlines()[-1]) == (0, "migrated to TVM 0.26: 0 failed")


def test_cli_explain_target_version(run: Run) -> None:
    status, out, _ = run("explain", "--json", "--target-version", "0.24", '{"kind": "trn"}')
    explained = json.loads(out)
    assert status == 0
    assert explained["target_version"] == "0.24"
    assert explained["kind_fate"] == "unknown to TVM 0.24 (a kind a later release added)"
    assert explained["migrated"] is None
    status, out, _ = run("explain", "--target-version", "0.25", "cuda -arch=sm_80")
    assert out.splitlines()[0] == "cuda -arch=sm_80: kind 'cuda', read as TVM v0.22 read it; in TVM 0.25: kept"


def test_cli_logs_migrate_target_version(run: Run, tmp_path: Path) -> None:
    log = tmp_path / "tune.log"
    record = (
        '{"input": ["cuda -arch=80", "dense.cuda", [[1, 2]], {}], "config": {"index": 0, "code_hash": null, '
        '"entity": []}, "result": [[0.1], 0, 1.0, 1], "version": 0.2, "tvm_version": "0.9.dev0"}\n'
    )
    log.write_text(record)
    status, out, err = run("logs", "migrate", "--target-version", "0.25", "--check", str(log))
    assert (status, out) == (1, "")
    assert err.splitlines()[0] == (
        f"{log}:1: target: migrate: rejected-by-target: attribute 'arch' is '80', which TVM 0.25 rejects: "
        "CUDA target gets an invalid CUDA arch: -arch=80"
    )


def test_fix_writes_for_its_target_version() -> None:
    pytest.importorskip("libcst")
    from targetlang.fix import fix_source

    source = 't = tvm.target.Target("cuda -arch=80")\n'
    for version in ("0.24", "0.27"):
        result = fix_source(source, target_version=version)
        assert result.text == source
        assert [f.message for f in result.findings] == [
            "cannot migrate: rejected-by-target: attribute 'arch' is '80', which TVM "
            f"{version} rejects: CUDA target gets an invalid CUDA arch: -arch=80"
        ]


# ------------------------------------------------------------------------------ a release added as data


@pytest.fixture(scope="module")
def data_with_099(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the shipped data with a release 0.99: copies of the newest's files under its name."""
    data = tmp_path_factory.mktemp("data") / "data"
    shutil.copytree(DATA, data)
    for kind in ("kinds", "tags", "checks"):
        shutil.copyfile(DATA / f"{kind}-v{NEWEST}.json", data / f"{kind}-v0.99.json")
    return data


def _targetlang(data: Path | None, *argv: str, stdin: str = "") -> tuple[int, str, str]:
    env = {key: value for key, value in os.environ.items() if key != "TARGETLANG_DATA_DIR"}
    if data is not None:
        env["TARGETLANG_DATA_DIR"] = str(data)
    done = subprocess.run(
        [sys.executable, "-m", "targetlang", *argv], input=stdin, capture_output=True, text=True, env=env, check=False
    )
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize(
    ("argv", "stdin", "status", "out", "err"),
    [
        (
            ("migrate", "--target-version", "0.99", "llvm -target=aarch64-linux-gnu"),
            "",
            0,
            '{\n  "kind": "llvm",\n  "mtriple": "aarch64-linux-gnu"\n}\n',
            "info: target-to-mtriple: -target renamed to -mtriple\n  llvm -target=aarch64-linux-gnu\n        ^^^^^^\n",
        ),
        (
            ("migrate", "--target-version", "0.99", "cuda -arch=80"),
            "",
            1,
            "",
            "error: rejected-by-target: attribute 'arch' is '80', which TVM 0.99 rejects: CUDA target gets an "
            "invalid CUDA arch: -arch=80\n  cuda -arch=80\n       ^^^^^^^^\n",
        ),
        (
            ("fix", "--target-version", "0.99", "-"),
            't = tvm.target.Target("llvm -mcpu=cortex-a72")\n',
            0,
            't = tvm.target.Target({"kind": "llvm", "mcpu": "cortex-a72"})\n',
            "1 finding in 1 file, 1 fixed; 1 file changed\n",
        ),
    ],
)
def test_a_release_added_as_data_is_written_for_with_no_code_change(
    data_with_099: Path, argv: tuple[str, ...], stdin: str, status: int, out: str, err: str
) -> None:
    assert _targetlang(data_with_099, *argv, stdin=stdin) == (status, out, err)


def test_explain_of_a_release_added_as_data(data_with_099: Path) -> None:
    status, out, _ = _targetlang(data_with_099, "explain", "--json", "--target-version", "0.99", "cuda -arch=sm_80")
    explained = json.loads(out)
    assert (status, explained["target_version"], explained["kind_fate"]) == (0, "0.99", "kept")
    assert explained["migrated"] == {"kind": "cuda", "arch": "sm_80"}


def test_the_release_added_as_data_is_the_default_and_unknown_without_it(data_with_099: Path) -> None:
    status, out, _ = _targetlang(data_with_099, "explain", "cuda -arch=sm_80")
    assert (status, out.splitlines()[0]) == (
        0,
        "cuda -arch=sm_80: kind 'cuda', read as TVM v0.22 read it; in TVM 0.99: kept",
    )
    status, out, err = _targetlang(None, "migrate", "--target-version", "0.99", "llvm")
    assert (status, out) == (2, "")
    assert f"targetlang writes for TVM {MODERN_LIST}, not '0.99'" in err


def test_the_extractor_records_the_newest_release_from_its_wheel_byte_for_byte() -> None:
    # under a Python with apache-tvm 0.27 (/tmp/tvm027/bin/python -m pytest ...); skipped elsewhere
    tvm = pytest.importorskip("tvm")
    if not str(tvm.__version__).startswith("0.27"):
        pytest.skip(f"apache-tvm {tvm.__version__} is not the newest shipped release")
    files = _extractor().wheel_files(sys.executable, MODERN)
    assert sorted(files) == ["kinds-v0.27.json", "tags-v0.27.json"]
    for name, text in files.items():
        assert (DATA / name).read_text(encoding="utf-8") == text, name
