"""What is cheap to look at first: whether a file may hold anything the rules look for, read
in its text, before LibCST is imported or run (:mod:`._candidates` asks the same of a node)."""

from __future__ import annotations

import functools
import re

from .._registry import Registry
from ._apis import DEFAULT_TABLE, EVERY_POSITIONAL, ApiTable
from ._convert import reading_registry
from ._properties import REMOVED_PROPERTIES

__all__ = [
    "GUESSED_RECEIVERS",
    "former_kinds",
    "helper_names",
    "hits",
    "hits_of",
    "kind_names",
    "worth_parsing",
]

GUESSED_RECEIVERS = frozenset({"target", "tgt", "tvm_target", "target_host", "host"})
"""The names a receiver is taken for a ``Target`` by, where nothing else says what it holds."""


def helper_names() -> frozenset[str]:
    """The names of the helper constructors TVM 0.24 removed (``cuda``, ``arm_cpu``, ...)."""
    from ..helpers import HELPERS

    return frozenset(HELPERS)


def worth_parsing(text: str, registry: Registry | None = None, *, written: bool = False) -> bool:
    """Whether ``text`` has anything the rules look for at all: most files of a tree have not,
    and reading them with LibCST is most of the time a run takes. ``written``: ``text`` is the
    code a fix wrote, which holds modern targets by design: only a legacy one counts there."""
    looks, modern, legacy, properties = _prefilter(registry)
    return (
        any(pattern.search(text) for pattern in (legacy if written else looks + modern))
        or any(_option_searched(text, match) for match in _IN_STR.finditer(text))
        or any(_tag_unknown(text, match) for match in _TAG_TARGET.finditer(text))
        or (not written and bool(_unknown_tags(_tag_texts(text))))
        or bool(_property_read(text, properties) and _TARGET_WORD.search(text))
        or any(_helper_call(alias).search(text) for alias in _module_aliases(text))
    )


def hits(text: str, registry: Registry | None = None, table: ApiTable = DEFAULT_TABLE) -> list[tuple[int, int]]:
    """The spans of ``text`` that may hold what the rules look for (empty where
    :func:`worth_parsing` says no): the statements they are in are the ones LibCST reads
    (:mod:`._sparse`). ``table``: the APIs that take a target."""
    return hits_of(text, registry, table)[0]


def hits_of(
    text: str, registry: Registry | None = None, table: ApiTable = DEFAULT_TABLE
) -> tuple[list[tuple[int, int]], bool]:
    """:func:`hits`, and whether every one is of a modern target alone (a dict or JSON text
    with a kind or a tag, a removed kind's name alone in quotes, a tag in ``Target(...)``, a
    literal shaped as a tag that a release may not know): what those rules report is a value
    that reaches a target position of an API (:func:`._modern.is_target`), which only a call in
    the same text makes (:func:`._python_syntax.calls_target_api`)."""
    looks, modern_looks, legacy, properties = _prefilter(registry)
    found: list[tuple[int, int]] = []
    modern = True
    for index, pattern in enumerate(looks):
        for match in pattern.finditer(text):
            found.append(match.span())
            modern = modern and not index and match["former"] is not None
    for pattern in modern_looks:
        found += [match.span() for match in pattern.finditer(text)]
    found += [match.span() for match in _TAG_TARGET.finditer(text) if _tag_unknown(text, match)]
    tag_texts = _tag_texts(text)
    found += _unknown_tags(tag_texts)
    others = len(found)
    found += [match.span() for match in _IN_STR.finditer(text) if _option_searched(text, match)]
    read = _property_read(text, properties)
    if read and _TARGET_WORD.search(text):
        found += read
    for alias in _module_aliases(text):
        found += [match.span() for match in _helper_call(alias).finditer(text)]
    # (a removed kind's name matched took its closing quote, which may open what the legacy
    # patterns look for: they are asked again, alone, where nothing else was found)
    modern = modern and bool(found) and len(found) == others and legacy[0].search(text) is None
    if found:
        # in a file that has any, what the survey looks at is broader than what gates the file:
        # any text with an option (of a kind no registry knows), every call where a target is
        # read (a text built there is read whole), and any text shaped as a tag
        found += [match.span() for match in _ANY_OPTION.finditer(text)]
        found += [match.span() for match in tag_texts]
        # (a name that ends in an API's, _target( or cache_build(, is another function; a call
        # whose target is a name or a literal of one word, or none, builds no text there, unless
        # an import gives an API's word to another function, whose target is elsewhere)
        calls, renames, renamed_to = _api_patterns(table)
        renamed = renamed_to.search(text) is not None
        found += [
            match.span()
            for match in calls.finditer(text)
            if (not match.start() or not _NAME_CHARACTER.match(text, match.start() - 1))
            and (renamed or _may_build_target(text, match, table))
        ]
        # (and every call of a name an import gives an API: from tvm import build as b)
        for alias in {match[1] for match in renames.finditer(text)}:
            found += [match.span() for match in re.finditer(rf"\b{re.escape(alias)}\s*\(", text)]
    return found, bool(found) and modern


def _property_read(text: str, properties: re.Pattern[str]) -> list[tuple[int, int]]:
    """Where ``text`` may read a removed property: ``.name`` (the word after: it reads every
    character), or, in a text that calls ``hasattr``, the name alone in quotes
    (``hasattr(t, "device_name")``, whatever the receiver)."""
    read = [match.span() for match in properties.finditer(text)]
    if "hasattr" in text:
        read += [match.span() for match in _property_named().finditer(text)]
    return read


@functools.cache
def _property_named() -> re.Pattern[str]:
    return re.compile(rf"""["'](?:{"|".join(sorted(REMOVED_PROPERTIES))})["']""")


# A call's arguments on one line, brackets one level deep inside, with no backslash or comment:
# the arguments that may be a target are read from it (a call otherwise is kept)
# (a string inside the inner brackets is not read: such a call is kept)
_ARGUMENTS = re.compile(r"""(?:[^()\[\]{}"'\\#\n]|[(\[{][^()\[\]{}"'\\#\n]*[)\]}]|"[^"\\\n]*"|'[^'\\\n]*')*\)""")
_ARGUMENT = re.compile(r"""(?:[^,()\[\]{}"']|[(\[{][^()\[\]{}"']*[)\]}]|"[^"]*"|'[^']*')+""")
_KEYWORD = re.compile(r"""\s*(\w+)\s*=(?!=)""")
# a target a call cannot build: a name, or a literal with no space, brace, percent or backslash
_WHOLE_TARGET = re.compile(r"""\s*(?:[A-Za-z_][\w.]*|[rRuUbB]{0,2}(["'])[^"'\\\s{}%]*\1)\s*""")


def _may_build_target(text: str, match: re.Match[str], table: ApiTable) -> bool:
    """Whether the call of an API at ``match`` may build a target where it reads one: not when
    each argument ``table`` reads as a target (by the positions and keywords of the APIs of that
    name) is a name or a one-word literal, or absent; what a rule reads of such a call is found
    at the literal, or where the name is bound (the prefilter's own patterns). A call whose
    arguments are not read so (over lines, a comment, brackets two deep, a triple-quoted or an
    empty string: quotes that pair otherwise) may."""
    arguments = _ARGUMENTS.match(text, match.end(), match.end() + 2000)
    if arguments is None or '""' in arguments[0] or "''" in arguments[0]:
        return True
    positions, keywords = table.last_words[match[0][:-1].rstrip()]
    position = 0
    for argument in _ARGUMENT.finditer(text, match.end(), arguments.end() - 1):
        value, keyword = argument[0], _KEYWORD.match(argument[0])
        if value.lstrip().startswith("*"):
            return True
        if keyword is not None:
            reads, value = keyword[1] in keywords, value[keyword.end() :]
        else:
            reads = position in positions or EVERY_POSITIONAL in positions
            position += 1
        if reads and not _WHOLE_TARGET.fullmatch(value):
            return True
    return False


_TARGET_WORD = re.compile(r"target|tgt", re.IGNORECASE)
# What target-str-compare reads (rules/target_str_compare.py): str() of a name, or of an
# attribute named as a target is, compared with a string literal (in parentheses, after a line
# break or a comment, as may be) or tested with startswith/endswith; and a literal with a dash
# searched for in str() of anything (the literal is looked at by _option_searched).
_THEN_A_STRING = r"""(?:\s|\\|\(|#[^\n]*)*[rRuUbBfF]*["']"""
_CALL = r"""[\w.]+\((?:[^()\n]|\([^()\n]*\))*\)"""  # (a call that may make a target: Target("..."))
_IN_STR = re.compile(r"""in\s+str\(""")
# A string literal alone on its line right before ``in`` (or ``not in``), that is none of a
# triple-quoted one's quotes, written without a backslash (and its opening quote after none):
# its text is all it can be.
_LITERAL_BEFORE = re.compile(r"""(?<!["'\\])(["'])([^"'\\\n]*)\1\s*(?:not\s+)?$""")
# A comprehension or generator in the brackets of a join, whose parts hold no option: its first
# element (words, calls and subscripts of no more than two levels, and whole literals written
# without a backslash or a dash), then the keyword "for", on the same line. ("for" in no string
# can be anything else there; a literal with a dash may make the options a target is built of:
# " ".join(f"--{k}={v}" for k, v in args.items()).)
_COMPREHENSION = (
    r"""(?:[^\[\]()"'\\\n#]|\((?:[^()"'\\\n]|\([^()"'\\\n]*\)|"[^"\\\n-]*"|'[^'\\\n-]*')*\)"""
    r"""|\[(?:[^\[\]"'\\\n]|"[^"\\\n-]*"|'[^'\\\n-]*')*\]|"[^"\\\n-]*"|'[^'\\\n-]*')*?\bfor\b"""
)


def _option_searched(text: str, match: re.Match[str]) -> bool:
    """Whether the ``in str(`` at ``match`` may search for an option (``"-mcpu" in str(t)``):
    not where a literal that does not start with a dash is all there is before it."""
    start = text.rfind("\n", 0, match.start()) + 1
    literal = _LITERAL_BEFORE.search(text, start, match.start())
    return literal is None or literal[2].startswith("-")


# The names an import statement imports, up to the one a pattern looks for: in parentheses
# (comments skipped whole), or to the end of its logical line. (Read on past the statement, a
# pattern met "cuda" in the Target("cuda") of a function below an import of Target.)
_IMPORTED = r"""\s*(?:\((?:[^)#]|#[^\n]*){0,300}?|(?:[^\n;\\#]|\\[\s\S]){0,300}?)"""
# A helper is called under a name the survey resolves into tvm.target (Survey.helper): as
# tvm.target.cuda() or target.cuda() (found as "target.cuda"), by the name an import from
# tvm.target binds (found at that import), or through another name the module is imported under,
# which this finds. Any other call of a helper's name (tvm.cuda(0), a device; rpc.hexagon(0); any
# create()) is no helper's: in most of the files of TVM's tree that LibCST read for nothing, that
# was all there was.
# Two patterns, each starting with a literal the regular expression engine skips to (one
# alternation of both, which starts with neither, is tried at every position), looked for only
# in a text that says "target as" at all (most do not: the second reads on for 300 characters
# after every "from tvm").
_MODULE_ALIAS = (
    re.compile(r"tvm\.target(?:\.target)?\s+as\s+(\w+)"),
    re.compile(rf"from\s+tvm(?:\.target)?\s+import{_IMPORTED}\btarget\s+as\s+(\w+)"),
)
_TARGET_AS = re.compile(r"target\s+as\s")
# what _candidates reads as an option: a dash after a space, then a name, a dash, a quote (the
# next part of a concatenation) or a brace (a field of an f-string)
_ANY_OPTION = re.compile(r"""\s-(?:[^\W\d]|-\w|["'{])""")
# a field of an f-string or .format() template, or a % placeholder: a run-time value, which may
# end in a space
_FIELD = r"""(?:\{[^{}\n]*\}|%[-#0 +\d.]*[a-z])"""
_SPACE_OR_FIELD = rf"""(?:\s|{_FIELD})"""
_NAME_CHARACTER = re.compile(r"\w")
_TAG_TEXT = re.compile(r"""["']\s*[A-Za-z0-9_.-]+/[A-Za-z0-9_.+-]+\s*["']""")


@functools.lru_cache(maxsize=8)
def _api_patterns(table: ApiTable) -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """By the last words of ``table``'s APIs: a call of one (``build(``); an import that gives
    one another name (``build as b``); an import that gives one's word to whatever it imports
    (``... import create_executor as build``)."""
    words = "|".join(sorted(map(re.escape, table.last_words), key=len, reverse=True))
    return (
        re.compile(rf"(?:{words})\s*\("),
        re.compile(rf"\b(?:{words})\s+as\s+(\w+)"),
        re.compile(rf"\bas\s+(?:{words})\b"),
    )


@functools.lru_cache(maxsize=8)
def _prefilter(
    registry: Registry | None,
) -> tuple[tuple[re.Pattern[str], ...], tuple[re.Pattern[str], ...], tuple[re.Pattern[str], ...], re.Pattern[str]]:
    """What may hold a legacy target: a string that starts like one (a kind, or a template's
    field, and an option later in it), the parts of a built one (a kind and a space, then a field
    or the end of the string; a space and an option alone), a string with options where a target
    must stand, a string written with escapes, a join of a literal list, a helper or ``canon_*``
    call; what may be a modern target (a dict or JSON text with a kind or a tag); what may be a
    legacy target in the code a fix wrote; and a removed property (in a file that speaks of
    targets).

    Each pattern starts with a literal or one class of characters, so that the regular
    expression engine skips to where it may match (one alternation of them all tries every
    position: eight times as slow); none asks for a word boundary first, for the same reason (a
    pattern may find a little more, never less)."""
    kinds = "|".join(sorted(map(re.escape, kind_names(registry)), key=len, reverse=True))
    removed = _removed_alternation()
    # where a target must stand, a text with a dash (in the code a fix wrote: a dash first, after
    # a space or after a field, whose value may end in one, an option; "num-cores" in a dict it
    # wrote is none)
    stands = (
        r"""Target\([^)]{0,400}?["']""",
        r"""target(?:_host)?\s*=[^)]{0,400}?["']""",
        r"""host\s*=[^)]{0,400}?["']""",
    )
    # What follows a quote: the engine stops at every quote of the text (most of the time this
    # pattern takes), so the modern rules' kind TVM removed, alone in its quotes, is looked for
    # in the same pass (a pattern of its own took as long again). After the blanks, a kind (then
    # an option later, or a blank and the end of the text), or a field then an option: one
    # alternation of the kinds tried once, each kind with both endings. (The matches are those of
    # the kinds tried with each ending in turn: a kind that fails the option's ending fails it
    # with any kind that is a prefix of it too, kind names holding no blank.)
    after_blanks = rf"""(?:{kinds})(?:[^"'\n]*?\s-|\s+["'{{%])|{_FIELD}[^"'\n]*?\s-"""
    after_quote = (
        rf"""\s+-\w|[^"'\n]*\\[xuUN0-7]|\.join\(\s*[\[(](?!{_COMPREHENSION})"""
        # a literal compared with str() of what may be a target ("llvm" == str(t)), read by
        # target-str-compare
        r"""|\)*\s*[=!]=\s*str\("""
    )
    former = "|".join(sorted(map(re.escape, former_kinds())))
    looks = (
        rf"""["'](?:\s*(?:{after_blanks}|(?P<former>(?:{former})\s*["']))|{after_quote})""",
        # (or a run-time value first, then options: f"{kind} {options}", "%s %s" % (...), read by
        # dynamic-target as a target with options appended)
        *(rf"""{where}(?:(?:[^"'\n]*?{_SPACE_OR_FIELD})?-|\s*{_FIELD}\s)""" for where in stands),
        r"canon_",
        # a helper imported or named without a call (removed: the import fails)
        rf"""target\.(?:{removed})\b""",
        rf"""from\s+tvm\.target(?:\.target)?\s+import{_IMPORTED}\b(?:{removed})\b""",
        # str() of a target tested
        rf"""str\(\s*(?:\w+|[\w.]+\.(?:{"|".join(GUESSED_RECEIVERS)})|{_CALL})\s*\)\s*(?:[=!]={_THEN_A_STRING}|\.(?:starts|ends)with\b)""",
    )
    legacy = (
        rf"""["'](?:\s*(?:{after_blanks})|{after_quote})""",
        *(rf"""{where}(?:[^"'\n]*?{_SPACE_OR_FIELD})?-""" for where in stands),
        *looks[4:],
    )
    modern = (
        # a dict or JSON with a kind or tag (a tag where a target stands: _TAG_TARGET; a kind TVM
        # removed: the first pattern)
        r"""kind\\?["']\s*:""",
        r"""tag\\?["']\s*:""",
    )
    return (
        tuple(map(re.compile, looks)),
        tuple(map(re.compile, modern)),
        tuple(map(re.compile, legacy)),
        re.compile(rf"\.(?:{'|'.join(sorted(REMOVED_PROPERTIES))})\b"),
    )


# a tag where a target stands (checked by _tag_unknown)
_TAG_TARGET = re.compile(r"""Target\(\s*["'][\w.-]+/""")
_WHOLE_TAG = re.compile(r"""\s*(["'])([^"'\\\n]+)\1\s*[,)]""")


def _tag_unknown(text: str, match: re.Match[str]) -> bool:
    """Whether the tag ``match`` (of :data:`_TAG_TARGET`) found may be one a modern release does
    not know (target-unknown-tag): a tag every release a fix may write for knows is none, if it
    is the whole of the argument (a string put together is read as the survey reads it)."""
    whole = _WHOLE_TAG.match(text, match.start() + len("Target("))
    return whole is None or whole[2] not in _tags_everywhere()


# the end of a literal shaped as a tag (of every match of _TAG_TEXT): a tenth of its time over a
# tree, where few texts have one
_TAG_TEXT_END = re.compile(r"""/[A-Za-z0-9_.+-]+\s*["']""")


def _tag_texts(text: str) -> list[re.Match[str]]:
    """The literals of ``text`` shaped as a tag (:data:`_TAG_TEXT`)."""
    return [] if _TAG_TEXT_END.search(text) is None else list(_TAG_TEXT.finditer(text))


def _unknown_tags(tag_texts: list[re.Match[str]]) -> list[tuple[int, int]]:
    """Where ``tag_texts`` (of :func:`_tag_texts`) are tags a modern release may not know:
    wherever one is written, a name or an alias may take it to a target (``T("nvidia/foo")``
    after ``from tvm.target import Target as T``; ``t = "nvidia/foo"``, then
    ``tvm.build(m, target=t)``)."""
    known = _tags_everywhere()
    return [match.span() for match in tag_texts if match[0][1:-1].strip() not in known]


@functools.cache
def _tags_everywhere() -> frozenset[str]:
    """The tags every distribution a fix may write for holds (a user's registry only adds)."""
    from .._release_schemas import load_data
    from .._versions import DISTRIBUTIONS, data_file

    every = [load_data(data_file("tags", name))["tags"] for name in DISTRIBUTIONS]
    return frozenset(every[0]).intersection(*every[1:])


def _module_aliases(text: str) -> set[str]:
    """The names ``text`` imports the module ``tvm.target`` under, other than ``target``."""
    if not _TARGET_AS.search(text):
        return set()
    return {match[1] for pattern in _MODULE_ALIAS for match in pattern.finditer(text)}


@functools.lru_cache(maxsize=64)
def _helper_call(module: str) -> re.Pattern[str]:
    """A helper (or ``create``) named through ``module``, a name of ``tvm.target``: called, or
    taken as a value (``functools.partial(T.arm_cpu, ...)``)."""
    return re.compile(rf"""\b{re.escape(module)}\s*\.\s*(?:{_removed_alternation()})\b""")


@functools.cache
def _removed_alternation() -> str:
    """The names TVM 0.24 removed from ``tvm.target`` (the helpers, ``create``, the ``vta`` and
    ``micro`` modules), as one alternation of a pattern."""
    return "|".join(sorted(helper_names() | {"create", "vta", "micro"}))


def kind_names(registry: Registry | None) -> frozenset[str]:
    """The kinds a legacy text is read with: without a registry, every release's (what the legacy
    registry holds, without building it and its tags: 90 ms of a short run)."""
    if registry is None:
        return frozenset().union(*_release_kind_names())
    return frozenset(reading_registry(registry).kinds)


@functools.cache
def former_kinds() -> frozenset[str]:
    """Every kind some release had that the newest has not."""
    every = _release_kind_names()
    return frozenset().union(*every) - every[-1]


@functools.cache
def _release_kind_names() -> tuple[frozenset[str], ...]:
    """Each schema release's kinds, oldest first (the kinds alone: a registry's tags cost most of
    building one)."""
    from .._release_schemas import release_kind_names
    from .._versions import SCHEMA_RELEASES

    return tuple(release_kind_names(version) for version in SCHEMA_RELEASES)
