"""The installed package works from any directory: grammar and data ship inside it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = """
import targetlang, targetlang.syntax as s
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
