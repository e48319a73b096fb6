"""Progress on standard error for long runs, only when stderr is a terminal and tqdm is installed."""

from __future__ import annotations

import contextlib
import importlib
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from ._signals import signals_held

__all__ = ["Progress", "tqdm_or_none"]


class Progress:
    """A progress bar on stderr, only when stderr is a terminal and tqdm is installed."""

    def __init__(self) -> None:
        self.bar: Any = None

    def lines(self, handle: Iterable[bytes], total: int | None, name: str) -> Iterator[bytes]:
        """``handle``'s lines (or blocks of bytes), with a bar of the bytes they hold."""
        with self.track(total, name) as advance:
            for raw in handle:
                advance(len(raw))
                yield raw

    @contextlib.contextmanager
    def track(self, total: int | None, name: str) -> Iterator[Callable[[int], None]]:
        """A bar for ``total`` bytes of ``name`` while the block runs: it gives the function that
        moves the bar on by so many bytes (a function that does nothing without a bar)."""
        tqdm = tqdm_or_none()
        if tqdm is None:
            yield _nothing
            return
        self.bar = tqdm(total=total, desc=name, unit="B", unit_scale=True, leave=False, file=sys.stderr)
        try:
            yield self.bar.update
        finally:
            self.bar.close()
            self.bar = None

    def say(self, text: str) -> None:
        """Print ``text`` on stderr without tearing the bar (tqdm moves the bar below it)."""
        if self.bar is not None:
            self.bar.write(text, file=sys.stderr)
        else:
            print(text, file=sys.stderr)


def _nothing(size: int) -> None:
    pass


def tqdm_or_none() -> Callable[..., Any] | None:
    """tqdm's bar, called as ``tqdm`` is, where standard error is a terminal and tqdm is installed
    (``pip install 'targetlang[progress]'``); else ``None``."""
    stderr = sys.stderr
    if stderr is None or not stderr.isatty():
        return None
    try:
        with signals_held():  # (imported as the command line imports its modules)
            tqdm = importlib.import_module("tqdm").tqdm
    except ImportError:
        return None

    def held_bar(*args: Any, **kwargs: Any) -> Any:
        # A bar starts tqdm's monitor thread, which takes the signal mask of the thread that
        # starts it: started with the stops let in, it could take one while the main thread
        # holds them, and Python would run the handler at once, inside the block that holds them.
        with signals_held():
            return tqdm(*args, **kwargs)

    return held_bar
