"""Write the seed inputs of each fuzz target into a directory: real texts and grammar-made ones.

    python fuzz/make_seeds.py OUT_DIR [--generated N]

OUT_DIR gets one subdirectory per target. Seeds come from ``tests/data`` (the corpus of real
target strings, the conformance inputs, the real tuning logs; its SOURCES.md names their origins)
and from ``grammar/target.lark`` itself: N texts drawn by hypothesis's ``from_lark``
strategy (the same one the property tests use), so the fuzzer starts from inputs of the right
structure as well as from real ones, and mutates both byte by byte.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
TARGETS = ("parse_text", "parse_dict", "printers", "migrate", "log_line")


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
    }
    print("seeds: " + ", ".join(f"{name} {n}" for name, n in counts.items()), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
