"""Copy each rule's explanation (``targetlang/data/rules/<rule-id>.md``, what ``targetlang rule``
prints) into docs/fix.md, between its ``<!-- begin rule ID -->`` and ``<!-- end rule ID -->``.

    python tests/rule_docs.py           # exit 1, naming the rules, if docs/fix.md differs
    python tests/rule_docs.py --write   # make docs/fix.md hold the files' text

Every file present is copied, a new rule's section placed after the rule before it in ``RULES``;
``tests/test_fix_report.py`` fails while the page and the files differ.
"""

from __future__ import annotations

import sys
from pathlib import Path

from targetlang.fix import RULES
from targetlang.fix._rule_docs import rule_doc, rule_doc_ids, synced_page

PAGE = Path(__file__).resolve().parents[1] / "docs" / "fix.md"


def rule_texts() -> dict[str, str]:
    """Every rule's file, by id."""
    texts = {}
    for rule in rule_doc_ids():
        text = rule_doc(rule)
        assert text is not None, rule
        texts[rule] = text
    return texts


def synced() -> str:
    """docs/fix.md as it is to be."""
    return synced_page(PAGE.read_text(encoding="utf-8"), rule_texts(), list(RULES))


def main(argv: list[str]) -> int:
    page, wanted = PAGE.read_text(encoding="utf-8"), synced()
    if page == wanted:
        return 0
    if argv == ["--write"]:
        PAGE.write_text(wanted, encoding="utf-8")
        print(f"{PAGE}: the rules' sections copied from targetlang/data/rules/")
        return 0
    print(f"{PAGE} differs from targetlang/data/rules/: run python tests/rule_docs.py --write", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
