"""Record the CPU and feature names each installed LLVM knows, per target architecture, as the
package data targetlang/data/llvm-names.json that ``targetlang check --llvm`` and
``targetlang kinds llvm --cpus`` read.

Run from the repository root, with Debian's ``llvm-N`` packages installed
(``apt-get install llvm-13 llvm-14 llvm-15 llvm-16 llvm-19 llvm-22``):

    python tests/oracle/record_llvm_cpus.py [OUT]

OUT defaults to targetlang/data/llvm-names.json. For each ``llc-N`` on the PATH the script runs
``llc-N -mtriple=ARCH -mcpu=help`` for every architecture of ``ARCHES`` that ``llc-N --version``
registers; LLVM prints the CPUs and then the features of that architecture (``-mattr=help`` prints
the same two lists). ``-mcpu=help`` leaves out a processor alias (LLVM 19 lists no ``apple-m1`` nor
``apple-latest`` for aarch64, yet accepts both), so every CPU name another version lists is also
given to ``llc-N -mcpu=NAME`` on an empty module: one it compiles without "is not a recognized
processor" is recorded as an alias of that version (``aliases``). The llc version and the Debian
package's version (``dpkg-query``) are written with the tables.

The file is kept small: an architecture whose lists equal another's in every version refers to
it (``arches``), and in a table each name is written once, under the set of versions that know it.

Recording a new LLVM: install ``llvm-M``, add M to ``VERSIONS`` and run the script again; the
tables of the versions already recorded come out the same.

This file is not a test (pytest does not collect it): it needs the LLVM packages, which the
project's tests do not.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

VERSIONS = (13, 14, 15, 16, 19, 22)

# The architecture names of a triple that TVM users write, each as llc's -mtriple takes it;
# the value is the llc target that serves it (llc --version's "Registered Targets"). MIPS is left
# out: llc 13 aborts on -mcpu=help for it, and TVM has no MIPS target of its own.
ARCHES = {
    "x86_64": "x86-64",
    "i686": "x86",
    "aarch64": "aarch64",
    "arm": "arm",
    "thumb": "thumb",
    "riscv32": "riscv32",
    "riscv64": "riscv64",
    "wasm32": "wasm32",
    "wasm64": "wasm64",
    "nvptx": "nvptx",
    "nvptx64": "nvptx64",
    "amdgcn": "amdgcn",
    "hexagon": "hexagon",
    "powerpc64le": "ppc64le",
    "powerpc64": "ppc64",
    "systemz": "systemz",
    "loongarch64": "loongarch64",
}

_OUT = Path("targetlang/data/llvm-names.json")
_SOURCE = (
    "llc -mtriple=ARCH -mcpu=help of Debian's llvm-N packages (bookworm and bookworm-security, "
    "deb.debian.org; LLVM is Apache-2.0 WITH LLVM-exception), recorded by tests/oracle/record_llvm_cpus.py"
)
_NAME = re.compile(r"^  (\S+)\s+- ")


def _run(*argv: str) -> str:
    done = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True, check=True)
    return done.stdout + done.stderr  # llc prints its help on stderr in some versions


def _registered(llc: str) -> set[str]:
    text = _run(llc, "--version")
    return {line.split()[0] for line in text.split("Registered Targets:", 1)[1].splitlines() if line.strip()}


def _lists(llc: str, arch: str) -> tuple[list[str], list[str]]:
    cpus: list[str] = []
    features: list[str] = []
    into = None
    for line in _run(llc, f"-mtriple={arch}", "-mcpu=help").splitlines():
        if line.startswith("Available CPUs"):
            into = cpus
        elif line.startswith("Available features"):
            into = features
        elif into is not None:
            found = _NAME.match(line)
            if found:
                into.append(found.group(1))
    return sorted(set(cpus)), sorted(set(features))


def _accepts(llc: str, arch: str, cpu: str, module: str) -> bool:
    done = subprocess.run(
        (llc, f"-mtriple={arch}", f"-mcpu={cpu}", "-filetype=null", module),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
    )
    return done.returncode == 0 and "is not a recognized processor" not in done.stderr


def _aliases(arch: str, per_version: dict[str, tuple[list[str], list[str]]], module: str) -> dict[str, list[str]]:
    """The CPU names each version accepts though its ``-mcpu=help`` does not list them."""
    every = sorted({cpu for cpus, _ in per_version.values() for cpu in cpus})
    return {
        version: [cpu for cpu in every if cpu not in cpus and _accepts(f"llc-{version}", arch, cpu, module)]
        for version, (cpus, _) in per_version.items()
    }


def _by_versions(per_version: dict[str, list[str]]) -> dict[str, list[str]]:
    """``{"13 14 ...": [names]}``: each name once, under the versions that know it."""
    known: dict[str, list[str]] = {}
    for version, names in per_version.items():
        for name in names:
            known.setdefault(name, []).append(version)
    grouped: dict[str, list[str]] = {}
    for name in sorted(known):
        grouped.setdefault(" ".join(known[name]), []).append(name)
    return dict(sorted(grouped.items(), key=lambda item: (-len(item[0].split()), item[0])))


def record() -> dict[str, object]:
    llvm: dict[str, object] = {}
    raw: dict[str, dict[str, tuple[list[str], list[str]]]] = {}  # arch -> version -> lists
    for major in VERSIONS:
        llc = f"llc-{major}"
        found = re.search(r"LLVM version (\S+)", _run(llc, "--version"))
        assert found, llc
        package = _run("dpkg-query", "-W", "-f=${Version}", f"llvm-{major}").strip()
        registered = _registered(llc)
        arches = [arch for arch, target in ARCHES.items() if target in registered]
        llvm[str(major)] = {
            "llc": found.group(1),
            "package": f"llvm-{major}",
            "package_version": package,
            "arches": arches,
        }
        for arch in arches:
            raw.setdefault(arch, {})[str(major)] = _lists(llc, arch)
    module = Path(tempfile.mkdtemp()) / "empty.ll"
    module.write_text("define void @f() {\n  ret void\n}\n", encoding="utf-8")
    tables: dict[str, object] = {}
    first_of: dict[str, str] = {}  # the data's JSON -> the first arch that has it
    names: dict[str, str] = {}
    for arch, per_version in raw.items():
        table = {
            "cpus": _by_versions({v: lists[0] for v, lists in per_version.items()}),
            "aliases": _by_versions(_aliases(arch, per_version, str(module))),
            "features": _by_versions({v: lists[1] for v, lists in per_version.items()}),
        }
        key = json.dumps(table, sort_keys=True)
        names[arch] = first_of.setdefault(key, arch)
        if names[arch] == arch:
            tables[arch] = table
    return {"source": _SOURCE, "versions": llvm, "arches": names, "tables": tables}


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else _OUT
    text = json.dumps(record(), indent=1, ensure_ascii=False) + "\n"
    out.write_text(text, encoding="utf-8")
    print(f"wrote {out}: {len(text.encode())} bytes")


if __name__ == "__main__":
    main()
