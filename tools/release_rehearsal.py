"""What adding a TVM release touches, rehearsed: a copy of the checkout with a release one minor
after the newest added as data (copies of the newest's kinds, tags and checks under its name, and
that release in ``tvm-schemas.json`` wherever the newest is), ``tests/newest.py``'s constant
bumped, and the tests run there. What fails is what else a real release must change
(CONTRIBUTING.md, "A TVM release"); a real release's data differs from the copy, so the facts it
changes fail too, as they should.

    python -m tools.release_rehearsal                 # the fast suite; the failing tests by file
    python -m tools.release_rehearsal --all           # the slow tests too
    python -m tools.release_rehearsal --refresh-docs  # the docs' transcripts written anew first
    python -m tools.release_rehearsal --keep DIR      # leave the copy in DIR (empty or absent)

With ``--refresh-docs`` the suite runs twice: once writing what the transcripts print now into
the copy's pages (``pytest --refresh-docs``, tests/doc_refresh.py), then as usual; the files that
changed are listed. Nothing of the checkout changes. The copy's ``targetlang`` is the one its tests import (its
directory first on ``PYTHONPATH``, for the commands they run too).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_COPIED = ("targetlang", "tests", "docs", "benchmarks", "tools", "grammar", "fuzz")
_CONSTANT = re.compile(r"^NEWEST_MINOR = (\d+)$", re.M)

__all__ = ["add_release", "main", "rehearse"]


def add_release(root: Path) -> str:
    """Add to the checkout copy at ``root`` the release after its newest, as copies of the
    newest's data, and bump ``tests/newest.py``; the name of the release added."""
    newest_file = root / "tests" / "newest.py"
    text = newest_file.read_text(encoding="utf-8")
    found = _CONSTANT.search(text)
    if found is None:
        raise SystemExit(f"{newest_file}: no 'NEWEST_MINOR = N' line")
    newest, added = f"0.{found[1]}", f"0.{int(found[1]) + 1}"
    data = root / "targetlang" / "data"
    for kind in ("kinds", "tags", "checks"):
        shutil.copyfile(data / f"{kind}-v{newest}.json", data / f"{kind}-v{added}.json")
    schemas_file = data / "tvm-schemas.json"
    schemas = json.loads(schemas_file.read_text(encoding="utf-8"))
    schemas["releases"].append(added)
    for section in ("kinds", "tags"):
        for variants in schemas[section].values():
            for variant in variants:
                if newest in variant["releases"]:
                    variant["releases"].append(added)
    # the release list stays near the top of the file, where the version table reads it from
    schemas_file.write_text(json.dumps(schemas, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    newest_file.write_text(_CONSTANT.sub(f"NEWEST_MINOR = {int(found[1]) + 1}", text), encoding="utf-8")
    return added


def rehearse(copy: Path, slow: bool, refresh: bool = False) -> tuple[str, Counter[str], str, list[str]]:
    """Copy the checkout to ``copy``, add a release, run the tests there: the release added, the
    failing tests by file, pytest's last line, and the text files the tests wrote (the docs
    written anew, with ``refresh``)."""
    for name in _COPIED:
        shutil.copytree(ROOT / name, copy / name, ignore=shutil.ignore_patterns("__pycache__", ".hypothesis"))
    for path in ROOT.iterdir():  # README.md, LICENSE, pyproject.toml, ...
        if path.is_file():
            shutil.copyfile(path, copy / path.name)
    before = _texts(copy)
    added = add_release(copy)
    env = {**os.environ, "PYTHONPATH": str(copy)}
    env.pop("TARGETLANG_DATA_DIR", None)
    pytest = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--tb=no", "-rf"]
    pytest += [] if slow else ["-m", "not slow"]
    if refresh:
        subprocess.run([*pytest, "--refresh-docs"], cwd=copy, env=env, capture_output=True, check=False)
    done = subprocess.run(pytest, cwd=copy, env=env, capture_output=True, text=True, check=False)
    failed = Counter(line.split()[1].split("::")[0] for line in done.stdout.splitlines() if line.startswith("FAILED "))
    last = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr.strip()
    after = _texts(copy)
    return added, failed, last, [name for name, text in after.items() if before.get(name) != text]


def _texts(root: Path) -> dict[str, bytes]:
    """The text files of a checkout (or of its copy) but the data and the constant, by path."""
    found = {}
    for path in sorted(root.rglob("*")):
        name = path.relative_to(root)
        if not path.is_file() or "__pycache__" in name.parts or name == Path("tests/newest.py"):
            continue
        if name.parts[:2] == ("targetlang", "data") and name.parts[2:3] != ("rules",):
            continue
        if name.suffix in (".md", ".py", ".json", ".toml", ".txt"):
            found[str(name)] = path.read_bytes()
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.release_rehearsal", description=__doc__.split("\n\n")[0])
    parser.add_argument("--all", action="store_true", help="run the slow tests too")
    parser.add_argument("--refresh-docs", action="store_true", help="write the docs' transcripts anew first")
    parser.add_argument("--keep", metavar="DIR", help="make the copy in DIR and leave it there")
    args = parser.parse_args(argv)
    if args.keep:
        copy = Path(args.keep)
        copy.mkdir(parents=True, exist_ok=True)
        if any(copy.iterdir()):
            parser.error(f"{copy} is not empty")
        added, failed, last, changed = rehearse(copy, args.all, args.refresh_docs)
    else:
        with tempfile.TemporaryDirectory(prefix="targetlang-release-") as temporary:
            added, failed, last, changed = rehearse(Path(temporary), args.all, args.refresh_docs)
    print(f"release {added} added as data, tests/newest.py bumped: {last}")
    for name, count in sorted(failed.items()):
        print(f"  {name}: {count} failed")
    if changed:
        print("written anew: " + ", ".join(changed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
