"""What each modern release knows is its own: ``fix --target-version V`` and ``migrate --target-version V``
judge and write by V's kinds, attributes and tags (``targetlang/data/kinds-vV.json``, ``tags-vV.json``),
not by what a later release added."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from targetlang._registry import builtin_registry, modern_tag, reading_tags_of
from targetlang.errors import TargetError
from targetlang.fix import fix_source
from targetlang.migration import equal_tags, migrate

from .newest import NEWEST

# (what TVM added, in which release, as its kinds and tags files list it)
_ADDED = [
    ('{"kind": "trn"}', "0.25", "target-unknown-kind"),
    ('{"kind": "cuda_host"}', "0.27", "target-unknown-kind"),
    ('{"tag": "aws/trn1/trn1.2xlarge"}', "0.25", "target-unknown-tag"),
    ('{"tag": "nvidia/jetson-agx-thor"}', "0.27", "target-unknown-tag"),
    ('{"kind": "webgpu", "max_shared_memory_per_block": 16384}', "0.27", "target-unknown-attr"),
]


@pytest.mark.parametrize("release", ["0.24", "0.25", "0.26", "0.27"])
@pytest.mark.parametrize(("config", "added_in", "rule"), _ADDED)
def test_fix_judges_by_the_release_s_own_data(config: str, added_in: str, rule: str, release: str) -> None:
    source = f"import tvm\ntvm.target.Target({config})\n"
    rules = [finding.rule for finding in fix_source(source, target_version=release).findings]
    expected = [] if float(release) >= float(added_in) else [rule]
    assert rules == expected


def test_the_finding_names_the_release() -> None:
    source = 'import tvm\ntvm.target.Target({"kind": "trn"})\n'
    (finding,) = fix_source(source, target_version="0.24").findings
    assert finding.message == "TVM 0.24 has no target kind 'trn'"


# -- migrate --compress-tags: the tag as the release written for has it


@pytest.mark.parametrize("release", ["0.24", "0.25", "0.26", "0.27"])
@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        # 0.24-0.26's tags files hold the registered config, without the cuda kind's default max_num_threads
        ("nvidia/geforce-rtx-3070", {"tag": "nvidia/geforce-rtx-3070"}),
        ('{"tag": "nvidia/geforce-rtx-3070"}', {"tag": "nvidia/geforce-rtx-3070"}),
        # the RISC-V tags' keys were arm_cpu before 0.26 (apache/tvm#19915): the tag named is kept
        ('{"tag": "riscv/sifive-u74"}', {"tag": "riscv/sifive-u74"}),
        ({"tag": "riscv/sifive-u74"}, {"tag": "riscv/sifive-u74"}),
        ('{"tag": "riscv/sifive-u74", "mcpu": "sifive-u54"}', {"tag": "riscv/sifive-u74", "mcpu": "sifive-u54"}),
    ],
)
def test_compressed_tag_is_the_release_s(spec: Any, expected: dict[str, Any], release: str) -> None:
    assert migrate(spec, to=release, compress_tags=True).json == expected


@pytest.mark.parametrize("release", ["0.24", "0.27"])
def test_equal_tags_expand_the_release_s_tags_alike(release: str) -> None:
    config = {"kind": "cuda", "arch": "sm_86", "max_shared_memory_per_block": 49152, "max_threads_per_block": 1024}
    config |= {"thread_warp_size": 32, "registers_per_block": 65536}
    assert "nvidia/geforce-rtx-3070" in equal_tags(config, to=release)


@pytest.mark.parametrize(("release", "known"), [("0.24", False), ("0.26", False), ("0.27", True)])
def test_a_release_s_registry_reads_only_its_own_tags(release: str, known: bool) -> None:
    registry = builtin_registry(release)
    assert (modern_tag(registry, "nvidia/jetson-agx-thor") is not None) is known


# -- migrate without --compress-tags: a {"tag": NAME} of a tag added since v0.22 means that release's tag

_U74 = {"kind": "llvm", "mtriple": "riscv64-unknown-linux-gnu", "mcpu": "sifive-u74", "mabi": "lp64d"}


@pytest.mark.parametrize(
    ("release", "keys", "device"),
    [
        # apache/tvm#19915 gave the RISC-V tags riscv_cpu keys in 0.26 (src/target/tag.cc at v0.25.0 and v0.26.0)
        ("0.24", ["arm_cpu", "cpu"], "arm_cpu"),
        ("0.25", ["arm_cpu", "cpu"], "arm_cpu"),
        ("0.26", ["riscv_cpu", "cpu"], "riscv_cpu"),
        ("0.27", ["riscv_cpu", "cpu"], "riscv_cpu"),
        ("tirx-0.1", ["riscv_cpu", "cpu"], "riscv_cpu"),
    ],
)
@pytest.mark.parametrize("spec", ['{"tag": "riscv/sifive-u74"}', {"tag": "riscv/sifive-u74"}])
def test_a_tag_named_expands_as_the_release_written_for(spec: Any, release: str, keys: list[str], device: str) -> None:
    written = migrate(spec, to=release).json
    assert written == {**_U74, "tag": "riscv/sifive-u74", "keys": keys, "device": device, "model": "sifive-u74"}


@pytest.mark.parametrize(
    ("release", "name", "title"),
    [
        # the release that first registered the tag (tags-v0.24.json on), whatever the release written for
        ("0.24", "riscv/sifive-u74", "TVM 0.24"),
        ("0.27", "riscv/sifive-u74", "TVM 0.24"),
        ("tirx-0.1", "riscv/sifive-u74", "TVM 0.24"),
        ("0.27", "riscv/spacemit-k3", "TVM 0.26"),
        ("0.27", "nvidia/jetson-agx-thor", "TVM 0.27"),
    ],
)
def test_a_string_naming_a_modern_tag_says_which_release_added_it(release: str, name: str, title: str) -> None:
    with pytest.raises(TargetError, match=f"'{name}' is a tag {title} added, after TVM v0.22"):
        migrate(name, to=release)


def test_a_registry_reading_another_release_s_tags_pickles_as_itself() -> None:
    reading = reading_tags_of(builtin_registry(), "0.25")
    assert reading != builtin_registry()
    assert pickle.loads(pickle.dumps(reading)) == reading
    assert modern_tag(pickle.loads(pickle.dumps(reading)), "riscv/sifive-u74") == modern_tag(
        reading, "riscv/sifive-u74"
    )
    assert reading_tags_of(builtin_registry(), NEWEST) is builtin_registry()
