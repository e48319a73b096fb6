"""The explanation of each rule of ``targetlang fix``: its section of docs/fix.md (why, what it
rewrites, how safe, examples), shipped as package data ``targetlang/data/rules/<rule-id>.md``.

The files are the source: docs/fix.md holds a copy of each between ``<!-- begin rule ID -->``
and ``<!-- end rule ID -->`` (``python tests/rule_docs.py --write`` copies them, and a test
fails while the two differ). Reading them needs no LibCST, so ``targetlang rule`` works without it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

__all__ = ["RULE_DOCS", "begin_marker", "end_marker", "rule_doc", "rule_doc_ids", "synced_page"]

RULE_DOCS = "data/rules"
"""Where the files are, inside the package ``targetlang``."""

_ID = re.compile(r"^[a-z][a-z0-9-]*$")


def begin_marker(rule: str) -> str:
    return f"<!-- begin rule {rule} -->"


def end_marker(rule: str) -> str:
    return f"<!-- end rule {rule} -->"


def _folder() -> Traversable:
    # (importlib.resources imported here: 12 ms of the start of a run that reports nothing)
    from importlib import resources

    return resources.files("targetlang").joinpath(RULE_DOCS)


def rule_doc_ids() -> list[str]:
    """The ids of the rules that have a file, sorted."""
    folder = _folder()
    if not folder.is_dir():
        return []
    return sorted(
        entry.name.removesuffix(".md")
        for entry in folder.iterdir()
        if entry.name.endswith(".md") and _ID.match(entry.name.removesuffix(".md"))
    )


def rule_doc(rule: str) -> str | None:
    """The explanation of ``rule`` (Markdown, from its ``## <rule-id>`` heading, ending in a
    newline), or ``None`` when it has no file."""
    if not _ID.match(rule):  # no path of any other file, however the id is spelt
        return None
    try:
        return _folder().joinpath(f"{rule}.md").read_text(encoding="utf-8")
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return None


def synced_page(page: str, docs: Mapping[str, str], order: Sequence[str] = ()) -> str:
    """``page`` with each rule's text of ``docs`` (id to text) between its markers. A rule the page
    has no markers for is added after the last marked rule that comes before it in ``order``
    (else after the last marked rule, else at the end), a blank line either side."""
    rank = {rule: index for index, rule in enumerate(order)}
    for rule in sorted(docs, key=lambda r: (rank.get(r, len(rank)), r)):
        begin, end = begin_marker(rule), end_marker(rule)
        block = f"{begin}\n{docs[rule]}{end}\n"
        if begin in page and end in page:
            head, rest = page.split(begin + "\n", 1)
            page = head + block + rest.split(end + "\n", 1)[1]
            continue
        marked = [other for other in docs if begin_marker(other) in page and end_marker(other) in page]
        earlier = [other for other in marked if rank.get(other, len(rank)) <= rank.get(rule, len(rank))]
        if earlier:  # after the last of the rules before it
            cut = page.index("\n", max(page.index(end_marker(other)) for other in earlier)) + 1
            page = page[:cut] + "\n" + block + page[cut:]
        elif marked:  # before the first of those after it
            cut = min(page.index(begin_marker(other)) for other in marked)
            page = page[:cut] + block + "\n" + page[cut:]
        else:
            page = page.rstrip("\n") + "\n\n" + block
    return page
