"""The ``tag-compressed`` rule: a migrated config that a tag of the modern release expands to
(the same config, or that tag with a few overrides) written as that tag, and the tags a config
equals (:func:`equal_tags`)."""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .._parsing import parse
from .._registry import builtin_registry, reading_tags_of
from .._resolution import Environment
from .._versions import MODERN
from ..errors import TargetError, show
from ._model import modern_names

if TYPE_CHECKING:
    from ._rules import Level

__all__ = ["equal_tags", "tag_compressed"]


def tag_compressed(level: Level, config: dict[str, Any]) -> None:
    run = level.run
    if not level.top or not run.compress_tags or not level.ok or run.failed():
        return
    # the tag the input names: its whole text, as TVM read a tag, or its own tag field
    named = run.source if run.source in modern_names(run.to)[1] else level.target.tag
    given = level.written if level.written is not None else _json_object(run.source)
    # a modern config naming the tag, kindless, was read as the tag: to the release written for
    # it is that release's tag, whatever the reader's expansion of it (0.27's RISC-V keys)
    as_tag = given is not None and given.get("tag") == named and "kind" not in given
    read_as = _read_tag(named, run.env, run.to) if as_tag else None
    compressed, note = _compress(config, run.env, named, run.to, read_as)
    if note is not None:
        config.clear()
        config.update(compressed)
        level.report("tag-compressed", note)


def _json_object(text: str) -> Mapping[str, Any] | None:
    if not text.lstrip().startswith("{"):
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _read_tag(name: str, env: Environment, to: str) -> dict[str, Any] | None:
    """Built-in tag ``name`` as the reader expanded it for release ``to``, resolved; ``None`` if it
    does not read."""
    try:
        resolved = parse({"tag": name}, registry=reading_tags_of(builtin_registry(), to)).resolve(env).to_json()
    except TargetError:
        return None
    resolved.pop("tag", None)
    return resolved


def _tag_config(tag: Mapping[str, Any]) -> dict[str, Any]:
    """A 0.27 tag's configuration as it compares with a resolved target's JSON: without the
    ``feature.*`` entries TVM computes and the empty ``tag``."""
    return {k: v for k, v in tag.items() if k != "tag" and not k.startswith("feature.")}


# keyed by the names of a release's tags and the environments given: a few of each
@functools.lru_cache(maxsize=4096)
def _tag_expansion(to: str, name: str, env: Environment) -> Mapping[str, Any] | None:
    """Tag ``name`` of distribution ``to`` as a resolved target's JSON compares with it: TVM's
    export of it where the tags file holds that (0.27's, with its empty ``tag``), else the tag's
    registered config (0.24-0.26's, without the kind's defaults) resolved as an input is; ``None``
    when it does not read."""
    tag = modern_names(to)[1][name]
    if tag.get("tag") == "":
        return _tag_config(tag)
    try:
        resolved = parse(_tag_config(tag)).resolve(env).to_json()
    except TargetError:
        return None
    resolved.pop("tag", None)
    return resolved


def equal_tags(config: Mapping[str, Any], env: Environment | None = None, to: str = str(MODERN)) -> tuple[str, ...]:
    """The tags of TVM ``to`` (the newest by default) whose expansion equals ``config`` (a modern
    config) exactly, once both are resolved; none when ``config`` does not read."""
    env = env or Environment()
    try:
        resolved = parse(dict(config)).resolve(env).to_json()
    except TargetError:
        return ()
    resolved.pop("tag", None)
    return tuple(name for name in modern_names(to)[1] if _tag_expansion(to, name, env) == resolved)


def _compress(
    config: dict[str, Any],
    env: Environment,
    named: str = "",
    to: str = str(MODERN),
    read_as: Mapping[str, Any] | None = None,
) -> tuple[dict[str, Any], str | None]:
    """``{"tag": name}`` (plus overrides) when the resolved config equals a 0.27 tag's, with the
    note saying so; ``config`` and ``None`` otherwise.

    Many products share one config (a Jetson Nano is a Tegra X1 to TVM), so the tag must name the
    product the input does: the tag the input names (``named``) if it still fits; otherwise only
    a tag whose own ``model`` is the input's, or whose name, without its vendor, is the input's
    ``model`` or ``device``, or ends with ``-`` and it (``tesla-t4`` for ``t4``). No such tag, no
    compression.

    ``read_as`` is the expansion the reader gave tag ``named`` when the input was that tag (plus
    overrides): the tag is kept, with the same overrides, whatever ``to``'s tag holds.
    """
    _, tags = modern_names(to)
    try:
        resolved = parse(config).resolve(env).to_json()
    except TargetError:
        return config, None
    mine = {k: v for k, v in resolved.items() if k != "tag"}
    if read_as is not None and named in tags and "host" not in read_as and not set(read_as) - set(mine):
        kept = {k: v for k, v in mine.items() if read_as.get(k) != v}
        if len(kept) <= 2:
            shown = f" with {', '.join(map(show, kept))} overridden" if kept else ""
            return {"tag": named, **kept}, f"equals tag {show(named)}{shown}"
    products = {v for k, v in mine.items() if k in ("model", "device") and isinstance(v, str) and v}
    best: tuple[int, str, dict[str, Any]] | None = None
    for name, tag in tags.items():
        theirs = _tag_config(tag)  # (its own fields name its product; its expansion is compared)
        short = name.rsplit("/", 1)[-1]
        about = (
            name == named
            or any(short == p or short.endswith("-" + p) for p in products)
            or ("model" in theirs and theirs["model"] == mine.get("model"))  # the tag's own model
        )
        if not about:
            continue
        expansion = _tag_expansion(to, name, env)
        if expansion is None:
            continue
        theirs = dict(expansion)
        if theirs.get("kind") != mine.get("kind") or set(theirs) - set(mine) or "host" in theirs:
            continue
        overrides = {k: v for k, v in mine.items() if theirs.get(k) != v}
        if len(overrides) <= 2 and (best is None or len(overrides) < best[0]):
            best = (len(overrides), name, overrides)
    if best is None:
        return config, None
    _, name, overrides = best
    expanded = {**(_tag_expansion(to, name, env) or {}), **overrides}
    if expanded != mine:
        return config, None
    note = f"equals tag {show(name)}" + (f" with {', '.join(map(show, overrides))} overridden" if overrides else "")
    return {"tag": name, **overrides}, note
