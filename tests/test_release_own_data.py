"""What each modern release knows is its own: ``fix --target-version V`` and ``migrate --target-version V``
judge and write by V's kinds, attributes and tags (``targetlang/data/kinds-vV.json``, ``tags-vV.json``),
not by what a later release added."""

from __future__ import annotations

import pytest

from targetlang.fix import fix_source

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
