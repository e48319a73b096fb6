"""Differential tests of targetlang against real TVM releases.

One command runs one area, from the repository root, with the project's dev venv::

    python -m tests.differential run --area target --count 500000

``--area``:

* ``target``: TVM v0.21.0's ``tvm.target.Target(spec)`` (the C++ legacy parser, tags, JSON texts,
  Python dict configs) against ``targetlang.parse(spec, registry=builtin_registry("0.21"))``
  resolved in ``Environment(host_triple="x86_64-pc-linux-gnu")`` (the oracle's machine: no GPU,
  so ``sm_50``/``gfx900``): accepted or rejected (and the Python class of the error), ``export()``
  (kind, tag, keys, host, attributes) and ``str()``.
* ``migrate``: ``targetlang.migrate(spec)``'s JSON must be accepted by apache-tvm 0.27 (a Python
  given by ``--tvm027``), and 0.27's export must equal v0.21's export of the original where
  comparable (see :class:`tests.differential.areas.MigrateArea`).

The TVM side runs in worker processes (tests/differential/worker.py, speaking the protocol of
tests/oracle/oracle_common.py) started with the shared oracle's ``run.sh`` (``--oracle``, default
``../shared/tools/tvm-oracle/run.sh``, or ``$TARGETLANG_TVM_ORACLE``); a worker that an input
crashes or hangs is restarted, and the input counted as ``TVM crashed``.

Inputs (tests/differential/inputs.py), deterministic for ``--seed``: the real corpus first
(tests/data/corpus/strings.jsonl, the conformance cases, the inputs of the existing oracle goldens),
then mutations of it, grammar-generated texts and structure-aware configs, drawn in turn.

Each run prints the counts (compared, agree, decision, disagree) and every class with an example,
writes the summary as JSON (``tests/differential/results/AREA-COUNT.json``: counts, classes with
counts by origin and up to three examples, the reasons of the decisions met) and a deterministic
sample of TVM's outcomes as the golden file ``tests/data/oracle/differential-AREA.jsonl``, which
tests/test_differential_goldens.py replays without TVM. Disagreements are classified by
:func:`tests.differential.compare.classify`; the documented decisions, counted apart, are the
table ``DECISIONS`` of tests/differential/compare.py.
"""
