"""Target strings as older TVM versions wrote and read them: reading by era (spec 1.2, 6.3, 9).

The string language changed three times before TVM v0.10 fixed the form that :func:`targetlang.parse`
reads. Tuning logs keep the strings their TVM printed, so a log is read with the rules of the TVM
that wrote it:

====  ======  ==================  =====================================================================
name  label   releases            how a string is read
====  ======  ==================  =====================================================================
0.6   E0      TVM <= v0.6         words split at any whitespace; options kept verbatim and recognised
                                  by their spelling (``-device=``, ``-keys=``, ``-libs=``, ``-model=``,
                                  ``-system-lib``; for ``llvm``, ``nvptx``, ``rocm`` also LLVM's
                                  ``-target``/``-mtriple``, ``-mcpu``, ``-mattr``, ``-mfloat-abi``)
0.7   E1      TVM v0.7            words split at any whitespace, no quoting; a string is the word;
                                  integers are 32-bit without ``true``/``false``; an empty array item
                                  is an error
0.8   E2      TVM v0.8 - v0.9     words split at spaces outside quotes; the quotes are removed and
                                  ``\\'`` becomes ``'``; no later interpretation; arrays split the same
                                  way at commas; strings trimmed; 32-bit integers or ``true``/``false``
0.22  E3      TVM v0.10 - v0.23   what :func:`targetlang.parse` reads (the default)
====  ======  ==================  =====================================================================

:func:`parse_in_era` returns a :class:`~targetlang.Target` whose ``str()`` is the text it was read
from, byte for byte; its fields (kind, declared keys, host, typed attributes) mean what that era's
TVM understood. Nothing is resolved, as with :func:`targetlang.parse`.

Decisions (where the era's TVM did something a typed reader cannot or should not reproduce):

* **E0 options.** TVM <= v0.6 kept every option as an opaque word: its Target creation only scanned
  ``-device=``, ``-keys=`` and ``-libs=`` by prefix, its Python layer scanned ``-model=``, and the
  LLVM code generator (also used by ``nvptx`` and ``rocm``) read ``-target``/``-mtriple``,
  ``-mcpu``, ``-mattr``, ``-mfloat-abi`` (``hard``/``soft``) as ``-key=value`` or ``-key value``,
  skipped ``-system-lib``/``--system-lib`` and stopped on anything else. We accept exactly those
  spellings (``-target`` gives ``mtriple``) and reject every other option with
  :class:`~targetlang.UnknownAttributeError`: TVM either failed on it later (LLVM kinds) or ignored
  it (other kinds), and a target cannot hold an option without a meaning. ``-device``, ``-keys``,
  ``-libs`` and ``-model`` count only in their ``=`` form, as TVM's scans did; their spaced form is a
  :class:`~targetlang.TargetSyntaxError`. Comma lists split as C++ ``getline`` did: empty items kept,
  a trailing comma ending the list. A repeated option and an empty value are errors (TVM let the last
  one win and kept empty values). An unknown kind is an :class:`~targetlang.UnknownKindError`, where
  TVM logged an error and silently used ``stackvm``.
* **E0 registry.** E0's kinds (``llvm``, ``c``, ``cuda``, ``nvptx``, ``rocm``, ``opencl``,
  ``metal``, ``vulkan``, ``opengl``, ``sdaccel``, ``aocl``, ``aocl_sw_emu``, ``stackvm``,
  ``ext_dev``, ``hybrid``, ``hexagon``) with the attribute types of ``builtin_registry("0.7")``
  (the first schema that has ``system-lib`` and the legacy kinds), plus ``opengl``; no tags. Since
  E0 had no attribute schema at all, only the option table above decides what is accepted.
* **E1 and E2** read a text that is exactly a tag name, or that starts with ``{``, as
  :func:`targetlang.parse` does (tags and JSON targets came with the unified constructor of v0.7/v0.8,
  and a config dict was read the same way until v0.23); E0 had neither. A string value that is only
  spaces, which crashed TVM v0.8 - v0.9, is a :class:`~targetlang.ValueConversionError`. Whether
  v0.7.0 still rejected a second ``=`` in an option (its development line did) could not be checked;
  like v0.8 we split at the first one.
* **Registries.** An era reads only what its releases had: E1 uses ``builtin_registry("0.7")``
  (v0.7's own schema), E2 what ``builtin_registry("0.8")`` and ``builtin_registry("0.9")`` had
  together (v0.9's kinds and tags plus v0.8's ``cuda.shared_memory_per_block``), E3
  ``builtin_registry()`` (v0.22's, as :func:`targetlang.parse`). ``parse(text, era=...)`` with a
  registry, or :func:`release_reading` for one release (``--tvm-version`` on the command line),
  reads with exactly that release's schema.

Each era is an object (:class:`Era`) that does its own splitting, value conversion and option
reading; this module sits beneath the parser, which hands it the default reader for tags, JSON
and E3.

How ``resolve()`` differs from what each era's TVM did: ``resolve()`` is always v0.22's pipeline,
run over the target's registry (whose kinds have no CPU target parser before v0.10); the keys below
are what the era's TVM computed, and what AutoTVM dispatched on:

* E0: keys were every ``-device=`` value and ``-keys=`` item in option order, the device name
  again, then the kind's default keys, without de-duplication; no attribute defaults, no
  canonicalisation (the LLVM triple came from the code generator).
* E1, E2: keys were the declared keys, then ``device``, then the kind's default keys *always*
  (v0.10 stopped adding them when keys are declared), duplicates removed; defaults inserted (E2:
  ``link-params=0``); no CPU target parser (no ``arm_cpu`` key merging, no M-profile features).
* E3: as :meth:`targetlang.Target.resolve`.

A target read here keeps its text marked with its era (so it pickles); its edits fall back to a text-less
target (the splice-and-reread path speaks E3 only).
"""

from __future__ import annotations

from ._era import DEFAULT_ERA, ERAS, Era, era_for_version, era_named, era_registry, release_reading

__all__ = [
    "DEFAULT_ERA",
    "ERAS",
    "Era",
    "era_for_version",
    "era_named",
    "era_registry",
    "release_reading",
]
