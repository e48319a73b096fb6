"""What the readers share below the parser: the nesting limit of the parse under way, and the
errors every reader builds the same way (an unknown kind or attribute with its history and the
closest names, a missing required attribute).

The era readers (:mod:`targetlang._eras`) and the parser (:mod:`targetlang._parsing`) both use
them, so they live beneath both: the eras never import the parser.
"""

from __future__ import annotations

import contextvars
import sys
import threading
from collections.abc import Callable, Mapping
from types import CodeType, FrameType
from typing import Any, TypeVar

from ._json_text import json_string_offsets
from ._lexical import Span, interpret, interpret_offsets
from ._registry import Registry, modern_tag, tag_added_in
from ._release_schemas import attribute_releases
from ._resolution import feature_name
from ._schema import KindSchema
from ._signals import signals_held
from ._versions import DEFAULT, LAST_LEGACY, Version, release_title
from .errors import (
    LeafKindError,
    MissingAttributeError,
    NestingTooDeepError,
    TargetError,
    UnknownAttributeError,
    UnknownKindError,
    show,
)

MAX_DEPTH = 32
"""How deeply targets may nest inside targets (hosts of hosts, devices of composites), by default."""

# The limit of the parse under way: a context variable, so that threads parsing at once each
# keep their own.
LIMIT: contextvars.ContextVar[int] = contextvars.ContextVar("targetlang_max_depth", default=MAX_DEPTH)


def depth_limit() -> int:
    """How deeply targets may nest in the parse under way (``parse``'s ``max_depth``)."""
    return LIMIT.get()


_R = TypeVar("_R")

# Deeply nested targets (a host chain 10,000 deep that parse(..., max_depth=10_000) allows) are
# read, printed, compared and resolved by recursive code; every level takes about ten Python
# frames. Rather than make each of those walks iterative, a call that runs out of Python's stack
# is run again, whole, in a thread with a large stack and a raised recursion limit. That keeps
# the everyday path as it is (no cost until a RecursionError is raised), and it is robust: the
# retried call is the same code, so it gives the same result or the same error. The stack is
# address space reserved for the thread and touched only as deep as the call goes; 2 kB per
# allowed frame keeps the C stack from overflowing before Python's limit stops the call.
# sys.setrecursionlimit is process-wide, so the limit is raised only while such a call runs and
# put back when the last one ends. Deeper than that (about 20,000 levels) is a
# NestingTooDeepError, never a RecursionError.
LARGE_STACK_FRAMES = 250_000
STACK_EXHAUSTED = "targets nest deeper than Python's stack allows"
_LARGE_STACK_BYTES = 2048 * LARGE_STACK_FRAMES
_large = threading.local()
_large_lock = threading.Lock()
_large_calls = 0
_normal_limit = 0


# The functions whose handler of a RecursionError calls on_large_stack (answers_recursion). A
# handler with another of them further up the stack leaves the error to it: the call moves to
# the large stack whole, from the outermost handler, at a shallow depth. (From deep inside, as a
# comparison of long host chains catches it at its innermost level, Python 3.12 on refuses to
# put the recursion limit back below the depth it is called at.)
_HANDLERS: set[CodeType] = set()
_F = TypeVar("_F", bound=Callable[..., Any])


def answers_recursion(function: _F) -> _F:
    """Mark ``function`` as one whose handler of a RecursionError calls :func:`on_large_stack`."""
    _HANDLERS.add(function.__code__)
    return function


def _handled_further_up() -> bool:
    """Whether a caller of the handler that called on_large_stack is a handler too."""
    frame: FrameType | None = sys._getframe(3)  # this, on_large_stack, the handler: above those
    while frame is not None:
        if frame.f_code in _HANDLERS:
            return True
        frame = frame.f_back
    return False


def on_large_stack(call: Callable[[], _R]) -> _R:
    """``call()`` again, in a thread with a large stack: for the handler of a RecursionError.

    Inside such a thread the RecursionError is raised again (one large stack is all there is);
    when the large stack does not suffice either, the caller gets a :class:`NestingTooDeepError`.
    A handler called by another (see :func:`answers_recursion`) raises it again too, for the
    outermost one to answer.
    """
    global _large_calls, _normal_limit
    if getattr(_large, "inside", False):
        raise RecursionError("nested too deeply for the large stack")
    if _handled_further_up():
        raise RecursionError("left to the outermost handler")
    result: list[_R] = []
    failure: list[BaseException] = []
    context = contextvars.copy_context()  # the parse limits under way go along

    def run() -> None:
        _large.inside = True
        try:
            result.append(context.run(call))
        except BaseException as exc:  # handed to the calling thread
            failure.append(exc)

    thread: threading.Thread | None = None
    counted = False
    try:
        # The thread is started with the stops held, so that it never takes one (see _signals);
        # one that came meanwhile arrives as the block ends, in this try.
        with signals_held(), _large_lock:
            if _large_calls == 0:
                _normal_limit = sys.getrecursionlimit()
                sys.setrecursionlimit(max(_normal_limit, LARGE_STACK_FRAMES))
            _large_calls += 1
            counted = True
            try:
                size = threading.stack_size(_LARGE_STACK_BYTES)
                try:
                    thread = threading.Thread(target=run, name="targetlang-large-stack", daemon=True)
                    thread.start()
                finally:
                    threading.stack_size(size)
            except (RuntimeError, ValueError, MemoryError):  # no thread, or no stack that size
                thread = None
        if thread is not None:
            thread.join()
    finally:
        if counted:
            with _large_lock:
                _large_calls -= 1
                if _large_calls == 0 and sys.getrecursionlimit() == max(_normal_limit, LARGE_STACK_FRAMES):
                    sys.setrecursionlimit(_normal_limit)
    if failure and not isinstance(failure[0], RecursionError):
        raise failure[0]
    if result:
        return result[0]
    raise NestingTooDeepError(STACK_EXHAUSTED)


@answers_recursion
def run_deep(call: Callable[[], _R]) -> _R:
    """``call()``; if a deeply nested target runs it out of Python's stack, ``call()`` on a large
    stack (see :func:`on_large_stack`). Free until the stack runs out."""
    try:
        return call()
    except RecursionError:
        pass
    return on_large_stack(call)


def nested_error_in_text(err: TargetError, text: str | None, text_form: str, span: Span | None) -> TargetError:
    """An error about a nested target (a host) moved into the text of the target holding it,
    whose member stands at ``span`` (key start, key end, value start, value end) of ``text``
    (``text_form`` ``"json"`` or legacy); ``err`` itself when the nested text is not there as
    the error read it."""
    if text is None or span is None or not err.source:
        return err
    start, end = span[2], span[3]
    raw = text[start:end]
    if text_form == "json" and raw.startswith('"'):
        offsets = json_string_offsets(text, start, end)
        inner = "".join(text[i] for i in offsets) if "\\" not in raw else None
    elif text_form == "json":
        offsets, inner = list(range(start, end)), raw
    else:
        offsets = [start + i for i in interpret_offsets(raw)]
        inner = interpret(raw)
    if inner is not None and inner != err.source:
        return err
    return err.relocated(text, offsets, end)


def suggest(name: str, choices: Any) -> tuple[str, ...]:
    import difflib  # only on the error path: it costs import time

    return tuple(difflib.get_close_matches(name, list(choices), n=3, cutoff=0.6))


def hint(close: tuple[str, ...]) -> str:
    return f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""


def unknown_kind(name: str, registry: Registry, source: str, start: int, end: int) -> UnknownKindError:
    if name not in registry.tags and modern_tag(registry, name) is not None:
        added = f"{release_title(tag_added_in(registry, name))} added, after TVM v{registry.version or DEFAULT}"
        message = f'{show(name)} is a tag {added}: write {{"tag": "{name}"}}'
        return UnknownKindError(message, source, start, end)
    meant = _NOT_KINDS.get(name.lower())
    if meant is not None and meant[1].split(" ", 1)[0] in registry.kinds:
        what, spec = meant
        return UnknownKindError(
            f"unknown target kind {show(name)}: {what}; did you mean {show(spec)}?", source, start, end
        )
    close = suggest(name, [*registry.kinds, *registry.tags])
    err = UnknownKindError(f"unknown target kind {show(name)}{hint(close)}", source, start, end)
    return err


# Words written where a kind goes that name no kind, and the target people mean by them: TVM's
# dispatch keys and the devices of its removed helper constructors (tvm.target.mali() built
# "opencl -device=mali ...", arm_cpu() "llvm -device=arm_cpu ...").
_NOT_KINDS: Mapping[str, tuple[str, str]] = {
    "cpu": ("'cpu' is a dispatch key of kind 'llvm'", "llvm -keys=cpu"),
    "gpu": ("'gpu' is a dispatch key of kinds 'cuda', 'rocm', 'opencl', 'vulkan' and 'metal'", "cuda"),
    "arm_cpu": ("'arm_cpu' is a device of kind 'llvm'", "llvm -device=arm_cpu"),
    "mali": ("'mali' is a device of kind 'opencl'", "opencl -device=mali"),
    "intel_graphics": ("'intel_graphics' is a device of kind 'opencl'", "opencl -device=intel_graphics"),
    "bifrost": ("'bifrost' is a device of kind 'opencl'", "opencl -device=bifrost"),
    "adreno": ("'adreno' is a device of kind 'opencl'", "opencl -device=adreno"),
    "x86": ("x86 CPUs are kind 'llvm'", "llvm"),
    "x86_64": ("x86 CPUs are kind 'llvm'", "llvm"),
}


_NON_LEAF_FIELDS = ("executor", "runtime", "devices")


def unknown_attr(
    key: str, schema: KindSchema, source: str, start: int, end: int, version: str = ""
) -> UnknownAttributeError:
    """The error for option ``key`` that kind ``schema`` does not take, as read by TVM ``version``.

    It says why where TVM's history does: an attribute of an older or a newer TVM, ``-target``
    (TVM <= v0.6's ``-mtriple``), a composite's field on a leaf kind; else the closest names.
    """
    name = show(schema.name)
    if key in schema.attrs:
        return UnknownAttributeError(
            f"attribute {show(key)} of kind {name} came after TVM v{LAST_LEGACY}: write this target in the JSON form",
            source,
            start,
            end,
        )
    was = _history(schema.name, key, Version.parse(version) if version else DEFAULT)
    if schema.leaf and key in _NON_LEAF_FIELDS:
        said = f"has no attribute {show(key)}{was}: it is a leaf target, and" if was else "is a leaf target:"
        return LeafKindError(
            f"kind {name} {said} {show(key)} belongs on a composite target that contains it",
            source,
            start,
            end,
        )
    if key == "target" and "mtriple" in schema.attrs:
        close: tuple[str, ...] = ("mtriple",)
        message = f"kind {name} has no attribute 'target' since TVM v0.7: it is TVM <= v0.6's 'mtriple'"
    elif feature_name(key) is not None:
        close = ()
        message = (
            f"kind {name} has no attribute {show(key)} as TVM v{version or DEFAULT} read it: 'feature.*' keys are "
            "read from TVM v0.24 on, in the JSON form (apache/tvm#18883)"
        )
    elif key == "target_host" and "host" in schema.attrs:
        close = ("host",)
        message = (
            f"kind {name} has no attribute 'target_host': TVM's separate target_host argument became "
            "the target's own 'host' (-host=... in a string, \"host\" in JSON)"
        )
    else:
        close = suggest(key, schema.attrs)
        message = f"kind {name} has no attribute {show(key)}{was}{hint(close)}"
    err = UnknownAttributeError(message, source, start, end)
    err.suggestions = close
    return err


def _history(kind: str, attr: str, version: Version) -> str:
    """Why TVM ``version``'s kind has no ``attr`` when another release's had it: `` since TVM
    v0.10 (TVM v0.8 - v0.9 had it)`` or `` until TVM v0.20 added it``."""
    had = attribute_releases(kind, attr)
    if not had:
        return ""
    before = [v for v in had if v < version]
    run = _last_run(before) if before else _first_run([v for v in had if v > version])
    first, last = run[0], run[-1]
    span = f"TVM v{first}" if first == last else f"TVM v{first} - v{last}"
    if before:
        return f" since TVM v{_next(last)} ({span} had it)"
    return f" until TVM v{first} added it"


def _next(version: Version) -> Version:
    return Version(version.major, version.minor + 1)  # TVM's release lines follow each other by minor


def _last_run(versions: list[Version]) -> list[Version]:
    run = [versions[-1]]
    for v in reversed(versions[:-1]):
        if _next(v) != run[0]:
            break
        run.insert(0, v)
    return run


def _first_run(versions: list[Version]) -> list[Version]:
    run = [versions[0]]
    for v in versions[1:]:
        if _next(run[-1]) != v:
            break
        run.append(v)
    return run


def modern_kind(schema: KindSchema, source: str, start: int, end: int) -> UnknownKindError:
    """The error for a kind only the JSON form of TVM v0.24 on knows, written as a legacy string."""
    return UnknownKindError(
        f"kind {show(schema.name)} came after TVM v{LAST_LEGACY}: write this target in the JSON form",
        source,
        start,
        end,
    )


def check_required(schema: KindSchema, given: Mapping[str, Any], source: str, start: int, end: int) -> None:
    missing = [name for name in schema.required_names if name not in given]
    if missing:
        names = ", ".join(show(name) for name in missing)
        raise MissingAttributeError(f"kind {show(schema.name)} needs {names}", source, start, end)
