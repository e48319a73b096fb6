"""The rules of ``targetlang fix``, one module a rule, named for its id (``target-string`` is
:mod:`.target_string`). Each registers its survey and rewrite hooks (:mod:`.._plugins`); its row
in ``targetlang.fix.RULES`` gives its id, safety and summary; its section of ``docs/fix.md`` is
titled by its id. ``docs/fix.md`` ("Adding a rule") says how to add one."""
