"""``python -m targetlang``: the command-line tool of :mod:`targetlang._cli`."""

from __future__ import annotations

import signal

from ._signals import STOPS, say_stopped, signals_held


def run() -> int:
    """The command line of this process, from its start to its exit. The command's modules are
    imported with the stops (Ctrl-C, SIGTERM, SIGHUP) held, as :func:`targetlang._cli.main` reads
    its options and imports the rest: a stop then arrives once they are in, here, where Ctrl-C is
    exit 130, and SIGTERM or SIGHUP ends the process as it would have before (no handler of
    targetlang's is set yet). Once the command is over the stops are held for good: one that came
    then would only turn its exit into a traceback."""
    try:
        try:
            with signals_held():
                from ._cli import main

            return main()
        finally:
            if hasattr(signal, "pthread_sigmask"):
                signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)
    except KeyboardInterrupt:
        say_stopped(signal.SIGINT)
        return 130


if __name__ == "__main__":
    raise SystemExit(run())
