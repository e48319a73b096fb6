"""``python -m targetlang``: the command-line tool of :mod:`targetlang._cli`."""

from ._cli import main

if __name__ == "__main__":
    raise SystemExit(main())
