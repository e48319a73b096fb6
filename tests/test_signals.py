"""``signals_held``: Ctrl-C, SIGTERM and SIGHUP wait for the end of the block, then arrive."""

from __future__ import annotations

import os
import signal
import threading
from types import FrameType

import pytest

from targetlang._signals import STOPS, signals_held

pytestmark = pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="signals cannot be held here")


def test_the_stops_are_the_three_that_stop_a_command() -> None:
    assert STOPS == {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}


def test_a_stop_sent_in_the_block_arrives_when_it_ends() -> None:
    arrived: list[int] = []

    def handler(signum: int, frame: FrameType | None) -> None:
        arrived.append(signum)

    before = signal.signal(signal.SIGHUP, handler)
    try:
        with signals_held():
            os.kill(os.getpid(), signal.SIGHUP)
            for _ in range(1000):  # the handler would run here, between bytecodes, were it not held
                pass
            assert arrived == []
            assert signal.SIGHUP in signal.sigpending()
        assert arrived == [signal.SIGHUP]
        assert signal.SIGHUP not in signal.pthread_sigmask(signal.SIG_BLOCK, [])
    finally:
        signal.signal(signal.SIGHUP, before)


def test_outside_the_main_thread_the_block_runs_as_it_is() -> None:
    masks: list[set[int]] = []

    def inside() -> None:
        with signals_held():
            masks.append(set(signal.pthread_sigmask(signal.SIG_BLOCK, [])))

    thread = threading.Thread(target=inside)
    thread.start()
    thread.join()
    assert not masks[0] & STOPS
