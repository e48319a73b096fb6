"""``python -m tests.attacks``: see the package's docstring."""

from . import main

raise SystemExit(main())
