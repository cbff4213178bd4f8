"""The base of rules that also read the project pass: they summarise each file with the
library layer's summariser and report in ``check_project`` (lint/project.py)."""

from __future__ import annotations

from resilint.libraries.summaries import summarise
from resilint.lint.rule import Rule


class ProjectRule(Rule):
    project = True
    summarise = staticmethod(summarise)
