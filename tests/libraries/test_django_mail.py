"""When Django's mail settings leave SMTP unbounded (libraries/django_mail.py): the project
fixtures ``django_mail`` and ``django_mail_bounded`` show the finding end to end, these the
settings shapes one by one."""

from __future__ import annotations

import textwrap
from typing import Dict, List

import libcst as cst

from resilint.libraries.django_mail import settings_assigned, unbounded_smtp_settings
from resilint.lint.summary import ModuleSummary, Place


def summary(path: str, source: str) -> ModuleSummary:
    module = cst.parse_module(textwrap.dedent(source).lstrip("\n"))
    lines: Dict[int, int] = {}

    def locate(node: cst.CSTNode) -> Place:  # the statement's index stands in for its line
        line = lines.setdefault(id(node), len(lines) + 1)
        return Place(path, line, 1, line, 2)

    found = ModuleSummary(path.replace("/", ".")[:-3], path)
    found.settings = settings_assigned(module, locate)
    return found


def flagged(*modules: ModuleSummary) -> List[str]:
    return [p.path for p, _ in unbounded_smtp_settings(modules, lambda path: path.startswith("tests/"))]


DJANGO = 'INSTALLED_APPS = ["django.contrib.auth"]\n'


def test_the_assignments_read_and_which_run_on_some_paths_only():
    found = summary("app/settings.py", """
        import os
        INSTALLED_APPS = []
        EMAIL_HOST: str = os.environ["EMAIL_HOST"]
        if os.environ.get("DEBUG"):
            EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
        try:
            EMAIL_TIMEOUT = int(os.environ["EMAIL_TIMEOUT"])
        except KeyError:
            pass
        def f():
            EMAIL_TIMEOUT = 3
        EMAIL_PORT = 25
    """).settings
    assert [(s.name, s.conditional, s.dotted) for s in found] == [
        ("INSTALLED_APPS", False, ()),
        ("EMAIL_HOST", False, ()),
        ("EMAIL_BACKEND", True, ("django.core.mail.backends.console.EmailBackend",)),
        ("EMAIL_TIMEOUT", True, ()),
    ]


def test_a_host_without_a_timeout_is_flagged_where_the_host_is_set():
    assert flagged(summary("app/settings.py", DJANGO + 'EMAIL_HOST = "mail.example"\n')) == ["app/settings.py"]


def test_a_timeout_in_any_module_of_the_project_bounds_it():
    assert flagged(
        summary("app/settings/base.py", DJANGO + 'EMAIL_HOST = "mail.example"\n'),
        summary("app/settings/prod.py", "EMAIL_TIMEOUT = 10\n"),
    ) == []


def test_a_timeout_only_in_test_settings_does_not():
    assert flagged(
        summary("app/settings.py", DJANGO + 'EMAIL_HOST = "mail.example"\n'),
        summary("tests/settings.py", "EMAIL_TIMEOUT = 1\n"),
    ) == ["app/settings.py"]


def test_backends_that_are_not_smtp_on_every_path_are_not_flagged():
    console = 'EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")\n'
    assert flagged(summary("app/settings.py", DJANGO + console + 'EMAIL_HOST = "mail"\n')) == []
    api = 'EMAIL_BACKEND = "anymail.backends.mailgun.EmailBackend"\n'
    assert flagged(summary("app/settings.py", DJANGO + api + 'EMAIL_HOST = "mail"\n')) == []


def test_smtp_unknown_or_conditional_backends_leave_smtp_possible():
    smtp_default = 'EMAIL_BACKEND = env("EMAIL_BACKEND", "django.core.mail.backends.smtp.EmailBackend")\n'
    unknown = "EMAIL_BACKEND = env('EMAIL_BACKEND', default=DEFAULT_BACKEND)\n"
    debug_only = 'if DEBUG:\n    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"\n'
    for backend in (smtp_default, unknown, debug_only):
        assert flagged(summary("app/settings.py", DJANGO + backend + 'EMAIL_HOST = "mail"\n')) == ["app/settings.py"]


def test_not_a_django_project_or_no_host_configured():
    assert flagged(summary("app/config.py", 'EMAIL_HOST = "mail.example"\n')) == []
    assert flagged(summary("app/settings.py", DJANGO)) == []


def test_a_django_backend_named_in_the_settings_makes_it_a_django_project():
    smtp = 'EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"\nEMAIL_HOST = "mail"\n'
    assert flagged(summary("app/settings.py", smtp)) == ["app/settings.py"]
