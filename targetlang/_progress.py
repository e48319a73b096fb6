"""Progress on standard error for long runs, only when stderr is a terminal and tqdm is installed."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterable, Iterator
from typing import Any

__all__ = ["Progress", "tqdm_or_none"]


class Progress:
    """A progress bar on stderr, only when stderr is a terminal and tqdm is installed."""

    def __init__(self) -> None:
        self.bar: Any = None

    def lines(self, handle: Iterable[bytes], total: int | None, name: str) -> Iterator[bytes]:
        tqdm = tqdm_or_none()
        if tqdm is None:
            yield from handle
            return
        self.bar = tqdm(total=total, desc=name, unit="B", unit_scale=True, leave=False, file=sys.stderr)
        try:
            for raw in handle:
                self.bar.update(len(raw))
                yield raw
        finally:
            self.bar.close()
            self.bar = None

    def say(self, text: str) -> None:
        """Print ``text`` on stderr without tearing the bar (tqdm moves the bar below it)."""
        if self.bar is not None:
            self.bar.write(text, file=sys.stderr)
        else:
            print(text, file=sys.stderr)


def tqdm_or_none() -> Any:
    stderr = sys.stderr
    if stderr is None or not stderr.isatty():
        return None
    try:
        return importlib.import_module("tqdm").tqdm  # an optional dependency: pip install 'targetlang[progress]'
    except ImportError:
        return None
