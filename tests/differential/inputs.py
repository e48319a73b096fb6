"""Inputs of the differential runs, deterministic for a seed.

Four origins, in this order: ``corpus`` (the real texts of tests/data/corpus/strings.jsonl, the
conformance cases and the inputs of the existing oracle goldens), then, drawn in turn until the
count is reached, ``mutation`` (one to three edits of a corpus input: characters inserted,
deleted or replaced, options swapped, dropped or repeated, values changed, quoted or unquoted,
dashes and ``=`` changed, kinds replaced; dict configs get keys removed, values of other types,
attributes added), ``grammar`` (texts built from the terminals of grammar/target.lark: words of
escapes, quoted regions and plain characters, options of one to three dashes; JSON-ish objects
with single quotes, bare words, trailing commas and comments) and ``structure`` (a kind of the
registry with some of its attributes and values of their types, or of the wrong type, written as
a legacy string, a JSON text or a Python dict, with nested hosts).
"""

from __future__ import annotations

import ast
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import targetlang
from targetlang._schema import TypeSpec

DATA = Path(__file__).resolve().parents[1] / "data"

REGISTRY = targetlang.builtin_registry("0.21")
KINDS = sorted(REGISTRY.kinds)
TAGS = sorted(REGISTRY.tags)
# kinds some TVM release had and others not, and names that are no kind
OTHER_KINDS = ["sdaccel", "aocl", "aocl_sw_emu", "stackvm", "hybrid", "ext_dev", "example_target_hook", "cmsis-nn",
               "ethos-u", "uma", "foo", "LLVM", "llvm ", "cuda_host", "trn"]  # fmt: skip
STRINGS = ["skylake", "sm_80", "sm_50", "+avx2,+fma", "+neon", "aarch64-linux-gnu", "x86_64-linux-gnu",
           "armv7a-linux-gnueabihf", "aarch64-none-elf", "thumbv7em-none-eabi", "riscv64-unknown-linux-gnu",
           "cortex-a53", "cortex-m55", "rk3399", "mali", "gfx908", "unknown", "a b", "'a b'", "", "1", "true",
           "x,y", "cublas,cudnn", "mkldnn", "dnnl", "-x", "a=b", "é", "\\'", "cpu,arm_cpu", "orcjit"]  # fmt: skip
INTS = [0, 1, -1, 2, 32, 64, 1024, 49152, 2**31 - 1, 2**31, 2**63, -(2**63) - 1]
INT_TEXTS = ["0x10", "1.5", "abc", "", "+1", " 1", "1e3", "00", "-0"]
BOOLS: list[Any] = [True, False, 0, 1, 2, "true", "false", "True", "1", "yes", ""]
CHARS = " -='\\\",{}[]:+_./0123456789abcxyzK\t\né#"

Spec = Any


def corpus() -> list[tuple[str, Spec]]:
    """The real inputs: corpus texts (dict literals also as dicts), conformance and goldens."""
    out: list[Spec] = []
    with (DATA / "corpus" / "strings.jsonl").open(encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            if row["form"] == "tvmc-multi":
                continue
            out.append(row["text"])
            if row["form"] in ("dict-literal", "json"):
                try:
                    out.append(ast.literal_eval(row["text"]))
                except (ValueError, SyntaxError):
                    try:
                        out.append(json.loads(row["text"]))
                    except ValueError:
                        pass
    with (DATA / "conformance" / "tvm-cases.jsonl").open(encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            if isinstance(row.get("input"), str | dict):
                out.append(row["input"])
    for name in ("aprofile", "null-configs", "key-types", "mkldnn"):
        with (DATA / "oracle" / f"{name}.jsonl").open(encoding="utf-8") as handle:
            for line in handle:
                row = json.loads(line)
                spec = ast.literal_eval(row["python"]) if "python" in row else row["input"]
                if isinstance(spec, str | dict):
                    out.append(spec)
    seen: set[str] = set()
    unique = []
    for spec in out:
        key = repr(spec)
        if key not in seen:
            seen.add(key)
            unique.append(("corpus", spec))
    return unique


def tvmc_corpus() -> list[str]:
    """The corpus's tvmc target lists."""
    with (DATA / "corpus" / "strings.jsonl").open(encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle]
    return [row["text"] for row in rows if row["form"] == "tvmc-multi"]


def _holds_targets(spec: TypeSpec | None) -> bool:
    return spec is not None and spec.holds_targets


class Generator:
    """Draws inputs; every choice comes from one ``random.Random(seed)``."""

    def __init__(self, seed: int, seeds: list[Spec]) -> None:
        self.rng = random.Random(seed)
        self.seeds = seeds
        self.string_seeds = [s for s in seeds if isinstance(s, str)]
        self.dict_seeds = [s for s in seeds if isinstance(s, dict)]

    # ---------------------------------------------------------------- values
    def value_for(self, spec: TypeSpec | None, depth: int) -> Any:
        rng = self.rng
        if spec is None or rng.random() < 0.08:  # the wrong type now and then
            return rng.choice([*STRINGS[:8], *INTS[:6], True, None, ["a"], {"kind": "llvm"}])
        if spec.name == "string":
            return rng.choice(STRINGS)
        if spec.name == "int":
            return rng.choice(INTS) if rng.random() < 0.85 else rng.choice(INT_TEXTS)
        if spec.name == "bool":
            return rng.choice(BOOLS)
        if spec.name == "array":
            return [self.value_for(spec.elem, depth) for _ in range(rng.randint(0, 3))]
        if spec.name == "map":
            return {rng.choice(["a", "b", "key"]): self.value_for(spec.value, depth) for _ in range(rng.randint(0, 2))}
        if spec.name == "target":
            return self.structured(depth + 1, form=rng.choice(["legacy", "dict"]))
        return rng.choice(STRINGS)

    def legacy_value(self, value: Any) -> str:
        if isinstance(value, bool):
            return self.rng.choice(["true", "1"]) if value else self.rng.choice(["false", "0"])
        if isinstance(value, list):
            return ",".join(self.legacy_value(v) for v in value)
        if isinstance(value, dict):
            return json.dumps(value)
        if value is None:
            return "null"
        text = str(value)
        if " " in text and self.rng.random() < 0.7:
            text = "'" + text + "'"
        return text

    # ---------------------------------------------------------------- structure-aware
    def structured(self, depth: int = 0, form: str | None = None) -> Spec:
        rng = self.rng
        form = form or rng.choice(["legacy", "legacy", "json", "dict"])
        if rng.random() < 0.1:
            kind = rng.choice(OTHER_KINDS)
            attrs: dict[str, TypeSpec | None] = {n: None for n in ("device", "mcpu", "model")}
        else:
            kind = rng.choice(KINDS)
            attrs = {name: a.type for name, a in REGISTRY.kinds[kind].attrs.items()}
        names = list(attrs)
        if rng.random() < 0.1:
            names.append(rng.choice(["target", "system-lib", "link-params", "foo", "mcpu", "arch", "runtime"]))
        chosen = rng.sample(names, min(len(names), rng.randint(0, 4)))
        if "from_device" in chosen and rng.random() < 0.8:  # it makes TVM query a device: rarely
            chosen.remove("from_device")
        if depth >= 2:
            chosen = [n for n in chosen if not _holds_targets(attrs.get(n))]
        config: dict[str, Any] = {"kind": kind}
        for name in chosen:
            config[name] = self.value_for(attrs.get(name), depth)
        if depth < 2 and rng.random() < 0.15:
            config["host"] = self.structured(depth + 1, form=rng.choice(["legacy", "dict"]))
        if form == "dict":
            return config
        if form == "json":
            return json.dumps(config)
        words = [kind]
        for name, value in config.items():
            if name == "kind":
                continue
            if isinstance(value, dict):
                value = json.dumps(value)
            dashes = rng.choice(["-", "-", "-", "--"])
            text = self.legacy_value(value)
            words.append(f"{dashes}{name} {text}" if text and rng.random() < 0.1 else f"{dashes}{name}={text}")
        return " ".join(words)

    # ---------------------------------------------------------------- grammar
    def unit(self) -> str:
        rng = self.rng
        roll = rng.random()
        if roll < 0.08:
            return "\\" + rng.choice(CHARS)
        if roll < 0.14:
            return "'" + "".join(rng.choice("ab ,=-\\") for _ in range(rng.randint(0, 4))) + "'"
        if roll < 0.6:
            return rng.choice("abcdefghijklmnopqrstuvwxyz")
        return rng.choice(CHARS.replace(" ", "").replace("'", "").replace("\\", ""))

    def word(self) -> str:
        return "".join(self.unit() for _ in range(self.rng.randint(1, 6)))

    def grammar(self) -> Spec:
        rng = self.rng
        if rng.random() < 0.25:
            return self.json_ish(0)
        kind = rng.choice([*KINDS, *KINDS, *TAGS[:30], self.word()])
        parts = [" " * rng.randint(1, 2) if rng.random() < 0.05 else "", kind]
        names = sorted({n for k in REGISTRY.kinds.values() for n in k.attrs})
        for _ in range(rng.randint(0, 4)):
            parts.append(" " * rng.choice([1, 1, 1, 2]))
            if rng.random() < 0.8:
                name = rng.choice(names) if rng.random() < 0.7 else self.word()
                value = "" if rng.random() < 0.15 else "=" + self.word()
                parts.append("-" * rng.choice([1, 1, 2, 3]) + name + value)
            else:
                parts.append(self.word())
        if rng.random() < 0.05:
            parts.append(" ")
        return "".join(parts)

    def json_ish(self, depth: int) -> str:
        rng = self.rng

        def key() -> str:
            name = rng.choice(["kind", "host", "keys", "mcpu", "mattr", "libs", "device", "arch", "tag", "foo"])
            return rng.choice([json.dumps(name), f"'{name}'", name])

        def value(d: int) -> str:
            roll = rng.random()
            if roll < 0.15 and d < 3:
                return self.json_ish(d + 1)
            if roll < 0.3 and d < 3:
                return "[" + ", ".join(value(d + 1) for _ in range(rng.randint(0, 3))) + "]"
            if roll < 0.45:
                return str(rng.choice([0, 1, -1, 1.5, 1e300, 10**20]))
            if roll < 0.55:
                return rng.choice(["true", "false", "null", "True", "None"])
            text = rng.choice([*KINDS, *STRINGS])
            return rng.choice([json.dumps(text), f"'{text}'", text if text.isidentifier() else json.dumps(text)])

        members = [f"{key()}: {value(depth)}" for _ in range(rng.randint(0, 4))]
        if rng.random() < 0.7:
            members.insert(0, f'"kind": "{rng.choice(KINDS)}"')
        sep = rng.choice([", ", ",", ",\n"])
        body = sep.join(members)
        if rng.random() < 0.1:
            body += ","
        if rng.random() < 0.05:
            body += " // note\n"
        return "{" + body + "}"

    # ---------------------------------------------------------------- mutations
    def mutate_text(self, text: str) -> str:
        rng = self.rng
        for _ in range(rng.choice([1, 1, 1, 2, 3])):
            words = text.split(" ")
            op = rng.randrange(12)
            pos = rng.randint(0, len(text))
            if op == 0:
                text = text[:pos] + rng.choice(CHARS) + text[pos:]
            elif op == 1 and text:
                text = text[: max(pos - 1, 0)] + text[pos:]
            elif op == 2 and text:
                pos = min(pos, len(text) - 1)
                text = text[:pos] + rng.choice(CHARS) + text[pos + 1 :]
            elif op == 3 and len(words) > 2:
                i, j = rng.sample(range(1, len(words)), 2)
                words[i], words[j] = words[j], words[i]
                text = " ".join(words)
            elif op == 4 and len(words) > 1:
                del words[rng.randrange(1, len(words))]
                text = " ".join(words)
            elif op == 5 and len(words) > 1:
                words.insert(rng.randrange(1, len(words) + 1), words[rng.randrange(1, len(words))])
                text = " ".join(words)
            elif op in (6, 7):  # change a value
                options = [i for i, w in enumerate(words) if w.startswith("-") and "=" in w]
                if options:
                    i = rng.choice(options)
                    value = rng.choice([*STRINGS, *map(str, INTS), *INT_TEXTS, "true", "false"])
                    words[i] = words[i].split("=", 1)[0] + "=" + value
                    text = " ".join(words)
            elif op == 8:  # quote or unquote a value
                options = [i for i, w in enumerate(words) if "=" in w]
                if options:
                    i = rng.choice(options)
                    name, value = words[i].split("=", 1)
                    unquoted = value[1:-1] if len(value) >= 2 and value[0] == value[-1] == "'" else None
                    words[i] = name + "=" + (unquoted if unquoted is not None else "'" + value + "'")
                    text = " ".join(words)
            elif op == 9:  # dashes, or "=" for a space
                options = [i for i, w in enumerate(words) if w.startswith("-")]
                if options:
                    i = rng.choice(options)
                    dashes = rng.choice(["", "-", "--"])
                    words[i] = dashes + words[i] if rng.random() < 0.5 else words[i].replace("=", " ", 1)
                    text = " ".join(words)
            elif op == 10 and words:  # another kind or tag
                words[0] = rng.choice([*KINDS, *TAGS, *OTHER_KINDS])
                text = " ".join(words)
            elif op == 11 and words:  # an attribute of the kind
                schema = REGISTRY.kinds.get(words[0])
                if schema is not None:
                    name, attr = rng.choice(list(schema.attrs.items()))
                    words.append(f"-{name}={self.legacy_value(self.value_for(attr.type, 2))}")
                    text = " ".join(words)
        return text

    def mutate_dict(self, config: dict[str, Any]) -> dict[str, Any]:
        rng = self.rng
        config = dict(config)
        for _ in range(rng.choice([1, 1, 2])):
            op = rng.randrange(6)
            keys = list(config)
            if op == 0 and keys:
                del config[rng.choice(keys)]
            elif op == 1 and keys:
                config[rng.choice(keys)] = self.value_for(None, 2)
            elif op == 2:
                schema = REGISTRY.kinds.get(str(config.get("kind")))
                if schema is not None:
                    name, attr = rng.choice(list(schema.attrs.items()))
                    config[name] = self.value_for(attr.type, 1)
            elif op == 3:
                config["kind"] = rng.choice([*KINDS, *OTHER_KINDS, None, 1])
            elif op == 4:
                config["host"] = self.structured(2, form=rng.choice(["legacy", "dict"]))
            elif op == 5 and keys:
                name = rng.choice(keys)
                config[name] = [config[name]]
        return config

    def mutation(self) -> Spec:
        if self.dict_seeds and self.rng.random() < 0.15:
            return self.mutate_dict(self.rng.choice(self.dict_seeds))
        return self.mutate_text(self.rng.choice(self.string_seeds))

    def draw(self) -> tuple[str, Spec]:
        roll = self.rng.random()
        if roll < 0.5:
            return "mutation", self.mutation()
        if roll < 0.75:
            return "grammar", self.grammar()
        return "structure", self.structured()


def target_inputs(seed: int, count: int) -> Iterator[tuple[str, Spec]]:
    """``count`` inputs for ``tvm.target.Target``: the corpus first, then drawn ones."""
    seeds = corpus()
    for n, item in enumerate(seeds):
        if n >= count:
            return
        yield item
    generator = Generator(seed, [spec for _, spec in seeds])
    for _ in range(count - len(seeds)):
        yield generator.draw()
