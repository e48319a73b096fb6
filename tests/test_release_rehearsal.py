"""The release rehearsal's step that adds a release (tools/release_rehearsal.py): the newest's
data copied under the next release's name, the release added wherever the newest is, the tests'
constant bumped. (That the constant is the data's newest is tests/test_releases.py's.)"""

from __future__ import annotations

import json
from pathlib import Path

from tools.release_rehearsal import add_release


def test_a_release_is_added_as_a_copy_of_the_newest(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "newest.py").write_text('"""x"""\n\nNEWEST_MINOR = 27\nNEWEST = "0.27"\n')
    data = tmp_path / "targetlang" / "data"
    data.mkdir(parents=True)
    for kind in ("kinds", "tags", "checks"):
        (data / f"{kind}-v0.27.json").write_text(f'{{"{kind}": 1}}\n')
    schemas = {
        "source": "s",
        "releases": ["0.26", "0.27"],
        "kinds": {"llvm": [{"releases": ["0.26", "0.27"]}], "hybrid": [{"releases": ["0.26"]}]},
        "tags": {"a/b": [{"releases": ["0.27"], "config": {}}]},
    }
    (data / "tvm-schemas.json").write_text(json.dumps(schemas))
    assert add_release(tmp_path) == "0.28"
    for kind in ("kinds", "tags", "checks"):
        assert (data / f"{kind}-v0.28.json").read_text() == f'{{"{kind}": 1}}\n'
    written = json.loads((data / "tvm-schemas.json").read_text())
    assert written["releases"] == ["0.26", "0.27", "0.28"]
    assert written["kinds"] == {"llvm": [{"releases": ["0.26", "0.27", "0.28"]}], "hybrid": [{"releases": ["0.26"]}]}
    assert written["tags"]["a/b"][0]["releases"] == ["0.27", "0.28"]
    assert (tmp_path / "tests" / "newest.py").read_text() == '"""x"""\n\nNEWEST_MINOR = 28\nNEWEST = "0.27"\n'
