"""Holding the signals that stop a command (Ctrl-C, SIGTERM, SIGHUP) while a handler that raised
would leave something half done."""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from collections.abc import Iterator

__all__ = ["STOPS", "say_stopped", "signals_held"]

# The signals that stop a command, where the platform has them.
STOPS = frozenset(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """Ctrl-C, SIGTERM and SIGHUP wait until the block is over, and arrive then. A process
    started in the block (a forked worker) starts with them held too, and lets them in once it
    has set its own handling; so does a thread (a process pool's), for good. Outside the main
    thread, or where signals cannot be held, the block runs as it is.

    The signals are held from the main thread, where Python runs their handlers: a thread that
    lets them in takes them, and the handler runs at once. The command line starts no thread
    before it holds them (its pool's threads, and a progress bar's monitor thread, are started
    inside the block, and hold them)."""
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        yield
        return
    # The mask as it is, first: Python runs a stop's handler as pthread_sigmask returns, after it
    # changed the mask, and one that raised out of the call that holds them would leave them
    # held for good (Ctrl-C dead in the rest of a Python session)
    before = signal.pthread_sigmask(signal.SIG_BLOCK, ())
    try:
        signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def say_stopped(signum: int) -> None:
    """The one line a command stopped by a signal leaves on standard error (where it still can:
    a closed or broken standard error says nothing)."""
    name = "Ctrl-C (SIGINT)" if signum == signal.SIGINT else signal.Signals(signum).name
    with contextlib.suppress(OSError, ValueError, AttributeError):
        print(f"targetlang: stopped by {name}; no file was left half-written", file=sys.stderr, flush=True)
