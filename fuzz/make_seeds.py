"""Write the seed inputs of each fuzz target into a directory: real texts and grammar-made ones.

    python fuzz/make_seeds.py OUT_DIR [--generated N]

OUT_DIR gets one subdirectory per target. Seeds come from ``tests/data`` (the corpus of real
target strings, the conformance inputs, the real tuning logs; its SOURCES.md names their origins)
and from ``grammar/target.lark`` itself: N texts drawn by hypothesis's ``from_lark``
strategy (the same one the property tests use), so the fuzzer starts from inputs of the right
structure as well as from real ones, and mutates both byte by byte. The seeds of ``fix`` are
excerpts of the real Python of ``tests/data/fix`` (TVM's files before its own migration, and
the flow corpus), the examples of ``docs/fix.md``, and generated calls of the APIs that take a
target, with real target strings.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import importlib.util
import json
import random
import re
import sys
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
TARGETS = ("parse_text", "parse_dict", "printers", "migrate", "log_line", "fix")


def _write(directory: Path, items: Iterable[bytes]) -> int:
    directory.mkdir(parents=True, exist_ok=True)
    count = 0
    for data in items:
        (directory / hashlib.sha1(data).hexdigest()).write_bytes(data)
        count += 1
    return count


def real_texts() -> list[str]:
    texts: list[str] = []
    corpus = DATA / "corpus" / "strings.jsonl"
    if corpus.exists():
        texts += [json.loads(line)["text"] for line in corpus.read_text(encoding="utf-8").splitlines() if line]
    cases = DATA / "conformance" / "tvm-cases.jsonl"
    if cases.exists():
        for line in cases.read_text(encoding="utf-8").splitlines():
            given = json.loads(line).get("input") if line else None
            texts.append(given if isinstance(given, str) else json.dumps(given))
    return list(dict.fromkeys(texts))


def grammar_texts(count: int) -> list[str]:
    sys.path.insert(0, str(ROOT))
    from hypothesis import HealthCheck, given, settings

    from tests.strategies import grammar_texts as strategy

    found: list[str] = []

    @settings(
        max_examples=count, database=None, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck)
    )
    @given(strategy())
    def collect(text: str) -> None:
        found.append(text)

    collect()
    return list(dict.fromkeys(found))


def log_lines(limit: int = 40) -> list[bytes]:
    lines: list[bytes] = []
    for path in sorted((DATA / "corpus" / "logs").rglob("*")):
        if path.is_file() and path.suffix in (".log", ".json"):
            with open(path, "rb") as handle:
                for number, line in enumerate(handle):
                    if number >= limit:
                        break
                    if len(line) <= 8192:  # workload lines (45 kB of base64) teach nothing
                        lines.append(line.rstrip(b"\r\n"))
    return lines


# The first byte of a fix input picks the file's language by its low three bits (targets.FIX_PATHS):
# 0-2 Python, 3 a shell script, 4 Markdown (blocks fixed), 5 Markdown (blocks reported), 6
# reStructuredText, 7 YAML. The high bits (unsafe fixes, tags, release, line length) cycle.
_PYTHON, _SHELL, _MARKDOWN, _RST, _YAML = (0, 1, 2), (3,), (4, 5), (6,), (7,)
_EXCERPT_CHARS = 2500  # libFuzzer's inputs stop at 4 kB (fuzz/run.sh's -max_len)


def _with_choice(languages: tuple[int, ...], texts: Iterable[str]) -> list[bytes]:
    return [
        bytes([languages[i % len(languages)] | (i * 8 + i // 32 * 8) & 0xF8]) + text.encode("utf-8", "surrogateescape")
        for i, text in enumerate(texts)
    ]


def python_excerpts(path: Path, limit: int = 3) -> list[str]:
    """Up to ``limit`` excerpts of the Python file ``path``, each its imports and a run of its
    top-level statements, short enough for the fuzzer, that may hold something ``fix`` reports."""
    from targetlang.fix._prefilter import worth_parsing

    text = path.read_text(encoding="utf-8")
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return []
    lines = text.splitlines(keepends=True)

    def source(node: ast.stmt) -> str:
        first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
        return "".join(lines[first - 1 : node.end_lineno])

    imports = "".join(source(n) for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom)))[:600]
    excerpts: list[str] = []
    run = ""
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        piece = source(node)
        if len(piece) > _EXCERPT_CHARS:
            continue
        if run and len(imports) + len(run) + len(piece) > _EXCERPT_CHARS:
            excerpts.append(imports + run)
            run = ""
        run += piece
    if run:
        excerpts.append(imports + run)
    # fix's own prefilter: what it reads with LibCST (fixing each to see would take 20 s)
    return [excerpt for excerpt in excerpts if worth_parsing(excerpt)][:limit]


def fix_python_texts() -> list[str]:
    """Real Python: excerpts of tests/data/fix (the flow corpus, TVM's files before its migration,
    its helpers), and the Python examples of docs/fix.md."""
    fixes = DATA / "fix"
    files = sorted(
        [*fixes.glob("flow/*.py.txt"), *fixes.glob("helpers/*.txt"), *fixes.glob("*/*.py.before")],
        key=lambda p: (p.parent.name, p.name),
    )
    texts = [excerpt for path in files for excerpt in python_excerpts(path)]
    guide = ROOT / "docs" / "fix.md"
    if guide.exists():
        texts += re.findall(r"^```python before\n(.*?)^```$", guide.read_text(encoding="utf-8"), re.M | re.S)
    return list(dict.fromkeys(texts))


# Calls that take a target, helpers, and the ways a legacy string reaches them, with {t} a real
# target string (Python's repr quotes it) and {k} its kind.
_PYTHON_TEMPLATES = (
    "import tvm\ntarget = tvm.target.Target({t})\n",
    "import tvm\nlib = tvm.compile(mod, target={t})\n",
    "from tvm import relay\nlib = relay.build(mod, target={t}, params=params)\n",
    "from tvm.target import Target\nt = Target({t}, host='llvm -mtriple=aarch64-linux-gnu')\n"
    "print(t.arch, t.mcpu)\n",
    "import tvm\n\n\ndef build(mod, target={t}):\n    return tvm.compile(mod, target)\n",
    "import tvm\nTARGET = {t}\nif 'cuda' in TARGET:\n    TARGET += ' -libs=cublas'\nlib = tvm.build(f, TARGET)\n",
    "import pytest\nfrom tvm.target import Target\n\n\ndef test_rejected():\n"
    "    with pytest.raises(ValueError):\n        Target({t})\n",
    "import tvm\n\n\n@tvm.testing.parametrize_targets({t}, 'cuda')\ndef test_it(target, dev):\n    pass\n",
    "import tvm\nfor target in [{t}, 'llvm']:\n    tvm.compile(mod, target)\n",
    "import tvm\n\n\ndef run(cpu, n):\n    return tvm.target.Target(f'{k} -mcpu={{cpu}} -num-cores={{n}}')\n",
    "import tvm\n\n\ndef run(target):\n    return tvm.target.Target(target + ' -libs=thrust')\n",
    "import tvm\nt = tvm.target.create({t})\nh = tvm.target.Target.canon_target({t})\n",
    "from tvm.target import Target\n\n\ndef build(mod, target, target_host=None):\n"
    "    target, target_host = Target.canon_target_and_host(target, target_host)\n    return target.model\n",
    "import tvm\nfrom tvm.target import cuda, arm_cpu\n\ngpu = cuda('a100', arch='sm_80')\n"
    "board = arm_cpu('rasp4b')\n"
    "dsp = tvm.target.hexagon('v68', vtcm_capacity=1024)\n",
    "from tvm.target import Target\n\n\ndef describe(target: Target):\n"
    "    return target.max_num_threads, target.libs, hasattr(target, 'device_name') and target.device_name\n",
    # a removed property written, not read (a fix of it was no Python)
    "from tvm.target import Target\n\n\ndef tune(target: Target):\n"
    "    target.model, target.max_function_args = {t}, 4\n    del target.arch\n    return target.mcpu\n",
    # where a written target may not be laid out over lines: inside an f-string's braces
    'import tvm\nprint(f"building for {{tvm.target.Target({t})}}", flush=True)\n',
    "import tvm\n\n\n@tvm.testing.fixture\ndef targets():\n"
    "    return [tvm.target.Target(t) for t in ({t}, 'cuda') if t]\n",
)


def fix_generated_texts(strings: list[str], count: int) -> list[str]:
    """``count`` texts of the templates above, each with a real legacy target string."""
    legacy = [s for s in strings if " -" in s and "\n" not in s and len(s) < 200]
    if not legacy:
        return []
    draw = random.Random(0)
    texts = []
    for i in range(count):
        template = _PYTHON_TEMPLATES[i % len(_PYTHON_TEMPLATES)]
        target = draw.choice(legacy)
        texts.append(template.format(t=repr(target), k=target.split(" ", 1)[0]))
    return list(dict.fromkeys(texts))


def fix_text_files(strings: list[str], count: int) -> dict[tuple[int, ...], list[str]]:
    """Shell scripts, YAML, and documents with Python and shell blocks, holding real strings."""
    legacy = [s for s in strings if " -" in s and "\n" not in s and "'" not in s and '"' not in s and len(s) < 200]
    draw = random.Random(1)
    files: dict[tuple[int, ...], list[str]] = {_SHELL: [], _MARKDOWN: [], _RST: [], _YAML: []}
    for before in sorted((DATA / "fix").glob("*/*.sh.before")):
        files[_SHELL].append(before.read_text(encoding="utf-8")[:_EXCERPT_CHARS])
    for _ in range(count if legacy else 0):
        a, b = draw.choice(legacy), draw.choice(legacy)
        files[_SHELL].append(f'tvmc compile --target "{a}" --target-host="{b}" -o m.tar m.onnx\n')
        files[_SHELL].append(f"export TVM_TEST_TARGETS='{a};cuda'\npython -m pytest\n")
        files[_YAML].append(f"tuning:\n  target: {a}  # the board\n  target_host: '{b}'\n")
        files[_MARKDOWN].append(
            f"# Build\n\n```python\nimport tvm\nlib = tvm.compile(mod, target={a!r})\n```\n\n"
            f"```sh\ntvmc compile --target '{b}' model.onnx\n```\n"
        )
        files[_MARKDOWN].append(f"1. Build:\n\n    ```python\n    t = tvm.target.Target({b!r})\n    ```\n")
        files[_RST].append(
            f"Build\n=====\n\n.. code-block:: python\n\n   import tvm\n   t = tvm.target.Target({a!r})\n\n"
            f"and ``--target={b}``.\n"
        )
    guide = ROOT / "docs" / "fix.md"
    if guide.exists():
        examples = guide.read_text(encoding="utf-8")
        files[_SHELL] += re.findall(r"^```sh before\n(.*?)^```$", examples, re.M | re.S)
        files[_YAML] += re.findall(r"^```yaml before\n(.*?)^```$", examples, re.M | re.S)
        files[_MARKDOWN] += re.findall(r"^````markdown before\n(.*?)^````$", examples, re.M | re.S)
    return files


def fix_seeds(strings: list[str], generated: int) -> list[bytes]:
    if importlib.util.find_spec("libcst") is None:
        print("make_seeds: no LibCST (pip install '.[fuzz]'): no seeds for fix", file=sys.stderr)
        return []
    seeds = _with_choice(_PYTHON, fix_python_texts() + fix_generated_texts(strings, max(generated // 3, 15)))
    for languages, texts in fix_text_files(strings, max(generated // 30, 3)).items():
        seeds += _with_choice(languages, texts)
    return seeds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("out", type=Path)
    parser.add_argument("--generated", type=int, default=300, help="grammar-made texts (default: %(default)s)")
    args = parser.parse_args(argv)
    if not DATA.is_dir():
        print(f"make_seeds: no {DATA}: no real targets or logs among the seeds", file=sys.stderr)
    texts = real_texts() + grammar_texts(args.generated)
    encoded = [t.encode("utf-8", "surrogateescape") for t in texts]
    dicts = [t.encode() for t in texts if t.lstrip().startswith("{")]
    for text in texts:
        try:
            import targetlang

            dicts.append(json.dumps(targetlang.parse(text).to_json()).encode())
        except Exception:
            continue
    counts = {
        "parse_text": _write(args.out / "parse_text", encoded),
        "printers": _write(args.out / "printers", encoded),
        # migrate's first byte picks the era and policy (see targets.migrate): seeds cycle through them
        "migrate": _write(args.out / "migrate", [bytes([i % 12]) + e for i, e in enumerate(encoded)]),
        "parse_dict": _write(args.out / "parse_dict", dicts),
        "log_line": _write(args.out / "log_line", log_lines()),
        "fix": _write(args.out / "fix", fix_seeds(texts, args.generated)),
    }
    print("seeds: " + ", ".join(f"{name} {n}" for name, n in counts.items()), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
