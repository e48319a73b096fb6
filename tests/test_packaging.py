"""The installed package works from any directory: grammar and data ship inside it."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

SCRIPT = """
import targetlang, targetlang._grammar_file as s
t = targetlang.parse('llvm -mcpu=skylake')
print(str(t))
print(s.grammar_path())
print(len(targetlang.builtin_registry().tags))
"""


def test_import_and_parse_from_another_directory(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-c", SCRIPT], cwd=tmp_path, capture_output=True, text=True, check=True)
    printed, grammar, tags = result.stdout.splitlines()
    assert printed == "llvm -mcpu=skylake"
    assert Path(grammar).name == "target.lark" and Path(grammar).is_file()
    # The grammar that ships is the one in grammar/, whether installed from a wheel or in place.
    source = Path(__file__).resolve().parents[1] / "grammar" / "target.lark"
    assert Path(grammar).read_bytes() == source.read_bytes()
    assert tags == "257"


def test_py_typed_marker_ships() -> None:
    import targetlang

    assert (Path(targetlang.__file__).parent / "py.typed").is_file()


def test_the_wheel_carries_the_licence_and_the_metadata(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[1]
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(tmp_path), str(root)],
        capture_output=True,
        text=True,
        check=False,
    )
    if built.returncode != 0 and "hatchling" in built.stderr and "No matching distribution" in built.stderr:
        pytest.skip("the build backend cannot be installed here (no package index)")
    assert built.returncode == 0, built.stderr
    (wheel,) = tmp_path.glob("targetlang-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        info = next(name.rsplit("/", 1)[0] for name in names if name.endswith(".dist-info/METADATA"))
        licence = archive.read(f"{info}/licenses/LICENSE").decode()
        metadata = archive.read(f"{info}/METADATA").decode()
    assert licence == (root / "LICENSE").read_text() and "Apache License" in licence and "Version 2.0" in licence
    headers = metadata.split("\n\n", 1)[0].splitlines()
    for expected in (
        "License-Expression: Apache-2.0",
        "License-File: LICENSE",
        "Requires-Python: >=3.11",
        "Classifier: Programming Language :: Python :: 3.11",
        "Classifier: Typing :: Typed",
    ):
        assert expected in headers
    assert "targetlang/grammar/target.lark" in names and "targetlang/py.typed" in names
    # targetlang rule prints these
    assert "targetlang/data/rules/target-string.md" in names
