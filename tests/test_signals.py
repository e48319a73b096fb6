"""``signals_held``: Ctrl-C, SIGTERM and SIGHUP wait for the end of the block, then arrive."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading

import pytest

from targetlang._signals import STOPS, signals_held

pytestmark = pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="signals cannot be held here")


def test_the_stops_are_the_three_that_stop_a_command() -> None:
    assert STOPS == {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}


# In a process of its own: the test runner's threads (pytest-xdist's) let the signals in.
_HELD_STOP = """
import os, signal
from targetlang._signals import signals_held
arrived = []
signal.signal(signal.SIGHUP, lambda signum, frame: arrived.append(signum))
with signals_held():
    os.kill(os.getpid(), signal.SIGHUP)
    for _ in range(1000):  # the handler would run here, between bytecodes, were it not held
        pass
    print(arrived, signal.SIGHUP in signal.sigpending())
print(arrived, signal.SIGHUP in signal.pthread_sigmask(signal.SIG_BLOCK, []))
"""


def test_a_stop_sent_in_the_block_arrives_when_it_ends() -> None:
    done = subprocess.run([sys.executable, "-c", _HELD_STOP], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["[] True", f"[{int(signal.SIGHUP)}] False"]


def test_outside_the_main_thread_the_block_runs_as_it_is() -> None:
    masks: list[set[int]] = []

    def inside() -> None:
        with signals_held():
            masks.append(set(signal.pthread_sigmask(signal.SIG_BLOCK, [])))

    thread = threading.Thread(target=inside)
    thread.start()
    thread.join()
    assert not masks[0] & STOPS
