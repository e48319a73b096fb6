"""Copy the files TVM's maintainers migrated by hand into tests/data/fix.

For each commit of :data:`COMMITS`, every changed file that is user code of targets (Python under
tests/, docs/, apps/, web/ and python/tvm/ except python/tvm/target/, which is the API itself; and
shell, rst and markdown files) is copied as the parent's version (``.before``) and the commit's
(``.after``) to ``tests/data/fix/<shortsha>/<path with / replaced by __>.{before,after}``, except
the files of :data:`EXCLUDED`, whose change does not touch a target. ``manifest.json`` lists what
was copied and what was left out, and why.

    python -m tests.fixproof.collect /path/to/apache/tvm.git
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "data" / "fix"

# commit: (pull request, title)
COMMITS = {
    "2030db36e4b3078f575a82ab985b0ff599b36594": (
        18785,
        "[REFACTOR][TARGET] Phase out legacy target string in favor of json",
    ),
    "283fd196838710dfc11bc7605c26d1305279f06e": (18793, "[REFACTOR][TARGET] Further cleanup target python api"),
}
SHORT = 10

# (commit prefix, path): why the file is left out although it is user code
EXCLUDED = {
    ("2030db36e4", "python/tvm/testing/plugin.py"): (
        "teaches the pytest plugin to accept dict targets (target['kind'] beside target.split()[0]); "
        "no target literal, helper call or property changes"
    ),
    ("2030db36e4", "tests/python/testing/test_tvm_testing_features.py"): (
        "sort keys and kind extraction for dict-valued test targets; no target literal, helper call or property changes"
    ),
    ("283fd19683", "python/tvm/relax/frontend/nn/llm/kv_cache.py"): (
        "168 KB for one property read (target.max_num_threads -> int(target.attrs['max_num_threads'])) "
        "and no target literal; the same rewrite is kept in python/tvm/topi/gpu/sort.py and scan.py"
    ),
}
TEXT_SUFFIXES = (".sh", ".rst", ".md")
USER_ROOTS = ("tests/", "docs/", "apps/", "web/", "python/tvm/")


def is_user_code(path: str) -> bool:
    """Whether ``path`` is user code of targets (see the module)."""
    if path.endswith(TEXT_SUFFIXES):
        return True
    if not path.endswith(".py") or path.startswith("python/tvm/target/"):
        return False
    return path.startswith(USER_ROOTS)


def data_name(path: str) -> str:
    return path.replace("/", "__")


def git(repo: str, *args: str) -> str:
    return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True, text=True).stdout


def show(repo: str, rev: str, path: str) -> str | None:
    done = subprocess.run(["git", "-C", repo, "show", f"{rev}:{path}"], capture_output=True, text=True)
    return done.stdout if done.returncode == 0 else None


def collect(repo: str) -> dict[str, object]:
    manifest: dict[str, object] = {"source": "https://github.com/apache/tvm", "license": "Apache-2.0", "commits": []}
    commits: list[dict[str, object]] = []
    for commit, (pr, title) in COMMITS.items():
        short = commit[:SHORT]
        out = DATA / short
        out.mkdir(parents=True, exist_ok=True)
        files: list[dict[str, object]] = []
        excluded: list[dict[str, str]] = []
        not_user: list[str] = []
        for line in git(
            repo, "diff-tree", "-r", "--no-commit-id", "--name-status", "-M", f"{commit}^", commit
        ).splitlines():
            status, *paths = line.split("\t")
            path = paths[-1]
            old_path = paths[0]
            if not is_user_code(path):
                not_user.append(path)
                continue
            reason = EXCLUDED.get((short, path))
            if reason is not None:
                excluded.append({"path": path, "reason": reason})
                continue
            before = show(repo, f"{commit}^", old_path)
            after = show(repo, commit, path)
            entry: dict[str, object] = {"path": path, "status": status[0], "name": data_name(path)}
            if before is not None:
                (out / f"{data_name(path)}.before").write_text(before, encoding="utf-8")
            if after is not None:
                (out / f"{data_name(path)}.after").write_text(after, encoding="utf-8")
            files.append(entry)
        commits.append(
            {
                "commit": commit,
                "short": short,
                "parent": git(repo, "rev-parse", f"{commit}^").strip(),
                "pr": pr,
                "title": title,
                "files": files,
                "excluded": excluded,
                "not_user_code": not_user,
            }
        )
    manifest["commits"] = commits
    # the target helpers (tvm.target.cuda(), arm_cpu(), hexagon(), ...) as each .before ran them:
    # string-building at the parent of the first commit (as in TVM v0.22), dict-building at the
    # parent of the second
    helpers = DATA / "helpers"
    helpers.mkdir(exist_ok=True)
    for commit in COMMITS:
        text = show(repo, f"{commit}^", "python/tvm/target/target.py")
        if text is not None:
            (helpers / f"parent-of-{commit[:SHORT]}.target.py.txt").write_text(text, encoding="utf-8")
    (DATA / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return manifest


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    collect(sys.argv[1])
