"""The fixing pipeline, above the engine: the codemods run for a file's findings in memory, each
result checked before it is reported (the edits of ``check``'s JSON and SARIF) or written
(``fix``, ``check --fix``, ``codemod``). The command line asks this layer for what it needs and
hands the engine only a function (``fix_edits.with_fixes``): ``lint/`` never imports it.

* ``codemod_run``: one codemod over one file's bytes, and the checks a result must pass;
* ``attribution``: each finding's edits from one run over all of them;
* ``edits``: the smallest line-wise edits between two texts;
* ``fix_edits``: the edits of the findings' fixes, for the reports;
* ``fixer``: fixes applied in rounds, verified and written;
* ``report``: what fixing prints (diffs, the fixes applied, the summary line).
"""
