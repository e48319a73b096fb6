"""The modern releases (0.24 on), each with its own shipped schema, tags and checks, and the
release a migration writes for picked by ``--target-version``."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "targetlang" / "data"


def _extractor() -> ModuleType:
    spec = importlib.util.spec_from_file_location("extract_schemas", ROOT / "tests" / "oracle" / "extract_schemas.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("extract_schemas", module)
    spec.loader.exec_module(module)
    return module


def test_the_extractor_regenerates_each_modern_release_byte_for_byte() -> None:
    # from the recorded extraction of TVM's tags (tvm-schemas.json), without TVM or its clone
    files = _extractor().modern_files((DATA / "tvm-schemas.json").read_text(encoding="utf-8"))
    assert sorted(files) == [
        "kinds-v0.24.json",
        "kinds-v0.25.json",
        "kinds-v0.26.json",
        "tags-v0.24.json",
        "tags-v0.25.json",
        "tags-v0.26.json",
    ]
    for name, text in files.items():
        assert (DATA / name).read_text(encoding="utf-8") == text, name


def test_the_extractor_takes_its_releases_from_the_release_table() -> None:
    extractor = _extractor()
    assert extractor.RELEASES[0] == "0.7"
    assert extractor.RELEASES[-1] == "0.27"
    assert len(extractor.RELEASES) == 21


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
