"""A target written as text in Python, where the survey found one may stand: read, converted and
judged, for the rules that find target text (``target-string`` and ``dynamic-target``)."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence

import libcst as cst

from ._compose import compose, quote_of
from ._convert import known_kind, options_of, reading_registry
from ._flow import TEXT_USES, unsafe_use
from ._literal import PLACEHOLDER, render
from ._literal_node import WrittenCode, literal_node
from ._rewriter import Rewriter
from ._rules import Safety
from ._runtime import shown, typed, written_values
from ._walk import walk

__all__ = ["built_target", "merge", "merged", "target_text"]


def target_text(
    rewriter: Rewriter,
    original: cst.BaseExpression,
    updated: cst.BaseExpression,
    text: str,
    exprs: Sequence[str],
    rule: str,
) -> cst.BaseExpression:
    """``original``, whose text is ``text`` (with a placeholder for each of ``exprs``, the code
    of its run-time parts), fixed as ``rule`` if it is a legacy target; its safety is the flow's
    (:mod:`._flow`): safe only when every use of the value is a target position, and at best
    unsafe when a part is known only at run time."""
    context = rewriter.survey.contexts[id(original)]
    words = options_of(text)
    if words is None:
        return updated
    if PLACEHOLDER.search(words[0]):
        if context.strict and PLACEHOLDER.fullmatch(words[0]):
            return merged(rewriter, original, updated, words[0], words[1], exprs, rule)
        return updated
    if not known_kind(words[0], rewriter.options.registry) and not context.strict:
        return updated
    kept = typed(text, rewriter.options.registry) if exprs else None
    if kept is not None and kept.arrays:
        # an array of one run-time value each time (a parametrize list of "+sve", "+neon"): [value]
        singles = {i for i in kept.arrays if _values_have_no_comma(rewriter, original, exprs[i])}
        kept = dataclasses.replace(kept, arrays=kept.arrays - singles)
    conversion = rewriter.convert(kept.text if kept is not None else text)
    if conversion.config is None and not context.strict and conversion.changes == ():
        return updated  # a string that merely starts like a target: only where one must stand is it one
    quote = quote_of(original)
    written = None
    if conversion.tag is not None and not exprs:
        written = quote + conversion.tag + quote
    elif conversion.config is not None and (kept is None or kept.problem is None):
        config = written_values(conversion.config, kept, exprs, quote) if kept is not None else conversion.config
        written = render(config, quote, exprs)
    safety: Safety = conversion.safety if written is not None else "report-only"
    message = shown(conversion.message, exprs)
    uses = rewriter.flow.uses(original)
    blocker = unsafe_use(uses, original)
    if blocker is not None and blocker.kind == "rejection":
        # a test that TVM rejects the string form: the string is what it tests
        message = "legacy target string in a test that expects an error (left as it is: TVM >= 0.24 rejects it)"
        safety, written = "report-only", None
    elif blocker is not None and safety == "safe":
        safety = "unsafe"
    if exprs and written is not None:
        # right for every value TVM's reader took as it is: what a run-time value holds is unknown here
        safety = "unsafe" if safety == "safe" else safety
        message += "; built from values known only at run time: each is written where it stood"
    elif exprs and kept is not None and kept.problem is not None:
        message += f"; {kept.problem}: write the dict by hand"
    as_text = written is not None and conversion.tag is None and blocker is not None and blocker.kind in TEXT_USES
    if as_text:
        # read as text somewhere: JSON text, which TVM >= 0.24 reads as a target, stays a string
        assert conversion.config is not None
        written = f"json.dumps({written})" if exprs else repr(json.dumps(conversion.config))
        message += "; written as JSON text, a string TVM >= 0.24 reads as a target"
    if not rewriter.report(original, rule, message, written, safety, conversion.rule_ids, uses, blocker):
        return updated
    assert written is not None
    rewriter.need_json |= as_text and bool(exprs)
    made: cst.BaseExpression | None = None
    if not exprs:  # a literal: its node made, not parsed
        if as_text:
            made = cst.SimpleString(written)  # (repr's: one string literal)
        elif conversion.tag is not None:
            tag = literal_node(conversion.tag, quote)
            made = tag if isinstance(tag, cst.SimpleString) and tag.value == written else None
        elif rewriter.options.check:  # (the findings alone: the node is read for its code)
            made = WrittenCode(written)
            rewriter.wrote_code = True
        else:
            made = literal_node(conversion.config, quote)
    return rewriter.parsed(written, updated, made)


def merged(
    rewriter: Rewriter,
    original: cst.BaseExpression,
    updated: cst.BaseExpression,
    first: str,
    options: list[str],
    exprs: Sequence[str],
    rule: str,
) -> cst.BaseExpression:
    """A target known only at run time with options appended (``target + " -libs=thrust"``,
    ``f"{kind} -mcpu={cpu}"``) where a target stands: its export with the options merged over
    it, ``{**Target(target).export(), "libs": ["thrust"]}``, an unsafe fix."""
    target = exprs[int(PLACEHOLDER.fullmatch(first)[1])]  # type: ignore[index]
    written, message = merge(
        rewriter, target, options, exprs, quote_of(original), _kinds_only(rewriter, original, target)
    )
    uses = rewriter.flow.uses(original)
    blocker = unsafe_use(uses, original)
    if blocker is not None and blocker.kind == "rejection":
        return updated
    if not rewriter.report(original, rule, message, written, "unsafe" if written else "report-only", (), uses, blocker):
        return updated
    assert written is not None
    return rewriter.parsed(written, updated)


def _values(rewriter: Rewriter, original: cst.CSTNode, code: str) -> list[object] | None:
    """Every value the name ``code`` in ``original`` may hold, by the literals of each binding
    that reaches it (an assignment, a ``parametrize`` list), or ``None``."""
    if not code.isidentifier():
        return None
    finder = _NameFinder(code)
    walk(original, finder)
    return None if finder.found is None else rewriter.flow.literal_values(finder.found)


def _values_have_no_comma(rewriter: Rewriter, original: cst.CSTNode, code: str) -> bool:
    values = _values(rewriter, original, code)
    return values is not None and all(isinstance(v, str) and "," not in v for v in values)


def _kinds_only(rewriter: Rewriter, original: cst.CSTNode, code: str) -> bool:
    """Whether the name ``code`` in ``original`` holds only bare kind names (``"opencl"``), by
    every binding that reaches it (a literal, a ``parametrize`` list)."""
    values = _values(rewriter, original, code)
    registry = rewriter.options.registry
    return values is not None and all(isinstance(v, str) and known_kind(v, registry) for v in values)


class _NameFinder(cst.CSTVisitor):
    def __init__(self, name: str) -> None:
        self.name = name
        self.found: cst.Name | None = None

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, cst.Name) and node.value == self.name and self.found is None:
            self.found = node
        return self.found is None


def merge(
    rewriter: Rewriter,
    target: str,
    options: Sequence[str],
    exprs: Sequence[str],
    quote: str,
    kinds_only: bool = False,
) -> tuple[str | None, str]:
    """The dict that merges ``options`` (legacy options, with placeholders for ``exprs``) over
    the export of the target ``target`` (code), and the message; ``None`` for a dict when the
    options are no kind's (they are read as those of the first kind that has them all). Where
    ``target`` is known to hold only bare kind names, it is the dict's kind instead."""
    registry = reading_registry(rewriter.options.registry)
    keys = [word.lstrip("-").split("=", 1)[0] for word in options if word.startswith("-")]
    fits = (k for k in _MERGE_KINDS if k in registry.kinds and all(key in registry.kinds[k].attrs for key in keys))
    kind = next(fits, None)
    message = "a legacy target known only at run time, with options appended"
    if kind is None or any(PLACEHOLDER.search(key) for key in keys):
        return None, message + "; the options are no kind's: write the dict by hand"
    kept = typed(" ".join([kind, *options]), rewriter.options.registry)
    conversion = rewriter.convert(kept.text)
    if conversion.config is None or kept.problem is not None:
        return None, message + f"; {kept.problem or shown(conversion.message, exprs)}"
    config = written_values(conversion.config, kept, exprs, quote)
    entries = render({k: v for k, v in config.items() if k != "kind"}, quote, exprs)
    if entries is None:
        return None, message
    if kinds_only:
        kind_key = render("kind", quote)
        return f"{{{kind_key}: {target}, {entries[1:-1]}}}", message + ": it holds a kind name, written as the kind"
    constructor = rewriter.target_name()
    written = f"{{**{constructor}({target}).export(), {entries[1:-1]}}}"
    return written, message + f": merge them over its export (read as options of a {kind!r} target)"


# The kinds whose options an appended option is read as, in turn: the first that has them all.
_MERGE_KINDS = ("llvm", "cuda", "rocm", "opencl", "vulkan", "metal", "nvptx", "hexagon", "c", "webgpu")


def built_target(
    rewriter: Rewriter, original: cst.BaseExpression, updated: cst.BaseExpression, literal_rule: str = "dynamic-target"
) -> cst.BaseExpression:
    """A target text built of parts: ``dynamic-target`` when a part is known only at run time,
    ``literal_rule`` when every part is a literal."""
    if id(original) not in rewriter.survey.contexts:
        return updated
    built = compose(original, rewriter.code)
    if built is None:
        return updated
    text, exprs = built
    return target_text(rewriter, original, updated, text, exprs, "dynamic-target" if exprs else literal_rule)
