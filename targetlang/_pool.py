"""The worker processes of a command's ``-j N`` (``fix``, the ``logs`` commands): calls run in
them and their results come back in order.

A worker only computes; whatever is written is written by the command. So a stop is the
command's alone: a worker ignores Ctrl-C (sent to the whole process group, it would otherwise
interrupt a worker in the middle of taking a task, and the pool would wait for that task forever),
dies of SIGTERM and SIGHUP as a plain process does (the pool itself ends a broken worker with
SIGTERM), and dies with the command, even one killed with SIGKILL, which can tell it nothing.
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, Self

from ._signals import STOPS, signals_held

__all__ = ["Pool"]

_PR_SET_PDEATHSIG = 1  # prctl(2): the signal the kernel sends a process when its parent dies
_WATCH_SECONDS = 0.5  # how often a worker that cannot have that signal looks for its parent


def _start_worker(parent: int | None) -> None:
    """A worker's handling of the stops (see the module's docstring), set before it lets them in:
    it was started with them held (:meth:`Pool.map`). ``parent`` is the command's process id,
    when the worker is its child (not the fork server's)."""
    _die_with(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in ("SIGTERM", "SIGHUP"):
        number = getattr(signal, name, None)
        if number is not None and signal.getsignal(number) is not signal.SIG_IGN:
            signal.signal(number, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPS)


def _die_with(parent: int | None) -> None:
    """Make this worker end when the command does: on Linux the kernel kills it (SIGKILL) as the
    command dies; elsewhere a thread of its own looks for the command every half second. A worker
    whose command died before this was set exits now: no one would tell it."""
    if _death_signal():
        if parent is not None and os.getppid() != parent:
            os._exit(1)
        return
    if parent is not None and os.name == "posix":  # (on Windows the parent's id never changes)
        threading.Thread(target=_watch, args=(parent,), name="targetlang-parent", daemon=True).start()


def _death_signal() -> bool:
    """Whether the kernel will kill this process when its parent dies (set now, on Linux)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        return bool(ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0)
    except (OSError, AttributeError):  # no C library to load, or no prctl in it
        return False


def _watch(parent: int) -> None:
    # A process whose parent dies is given another (init, or a subreaper).
    while os.getppid() == parent:
        time.sleep(_WATCH_SECONDS)
    os._exit(1)


class Pool:
    """``jobs`` worker processes, started when first needed (a run whose files are all small
    starts none), and their results in the order asked for."""

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs
        self._executor: ProcessPoolExecutor | None = None

    def _start(self) -> ProcessPoolExecutor:
        context = multiprocessing.get_context()
        # A forked or spawned worker is the command's child; one the fork server makes is the
        # server's, which ends with the command, and the kernel then kills the worker.
        parent = os.getpid() if context.get_start_method() in ("fork", "spawn") else None
        with signals_held():  # (as submit: the pool imports its locks' module as it is made)
            self._executor = ProcessPoolExecutor(
                max_workers=self.jobs, mp_context=context, initializer=_start_worker, initargs=(parent,)
            )
        return self._executor

    def map(self, calls: Iterable[tuple[Callable[..., Any], tuple[Any, ...]]]) -> Iterator[Any]:
        """``function(*arguments)`` of each call, in a worker, in order; at most two calls a worker
        are under way (so the results waiting to be taken stay few)."""
        executor = self._executor if self._executor is not None else self._start()
        waiting: list[Future[Any]] = []
        try:
            for given in calls:
                function, arguments = self._task(*given)
                # A stop that raised inside submit (which starts the workers the first time)
                # could leave a task half given out, waited for forever, or a worker forked
                # with the command's handlers: it waits until the task is given out.
                with signals_held():
                    waiting.append(executor.submit(function, *arguments))
                if len(waiting) >= 2 * self.jobs:
                    yield self._result(waiting.pop(0).result())
            while waiting:
                yield self._result(waiting.pop(0).result())
        finally:
            # Stopped midway: the calls given out are waited for (two calls' time at most: the
            # workers ignore Ctrl-C, and those a signal killed fail their calls at once), so that
            # none of them is still at work when the pool is used again, or closed. None is
            # cancelled: Python 3.11's pool, broken (its workers killed by SIGTERM to the process
            # group), sets an exception on every call it holds, and one cancelled meanwhile stops
            # it dead, and the command with it (waiting forever).
            concurrent.futures.wait(waiting)

    def _task(self, function: Callable[..., Any], arguments: tuple[Any, ...]) -> tuple[Callable[..., Any], Any]:
        """What a worker is given to call for the call ``function(*arguments)``."""
        return function, arguments

    def _result(self, result: Any) -> Any:
        """What :meth:`map` gives for what a worker returned."""
        return result

    def close(self) -> None:
        """Stop the workers (those at work finish their call first: they only compute)."""
        if self._executor is not None:
            with signals_held():  # (a call's time at most)
                self._executor.shutdown(wait=True)  # (no call is cancelled: see map())
            self._executor = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
