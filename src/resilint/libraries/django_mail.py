"""Django's SMTP mail without a timeout: the settings say so, not a call.

Django sends mail (``send_mail``, ``EmailMessage.send``, password resets, ``mail_admins``)
through the backend ``EMAIL_BACKEND`` names, the SMTP one by default, which opens
``smtplib.SMTP(host, port, timeout=EMAIL_TIMEOUT)``; ``EMAIL_TIMEOUT`` defaults to ``None``, so
a mail server that accepts the connection and stops answering holds the sending worker for
good. The calls pass no timeout of their own: the one place to bound them is the settings, so
that is where the finding goes, at the ``EMAIL_HOST`` assignment that configures the server;
a project that names no host in its settings (it gives ``get_connection(host=...)`` one from
its database at each send) gets it at each such ``get_connection`` call.

The local pass records the module-level assignments of the settings read here
(``settings_assigned``); the project pass (``unbounded_smtp_settings``) joins them over every
module of the project, since a split settings package may set the timeout in another module
than the host.
"""

from __future__ import annotations

import os
import re
from typing import Callable, Dict, Iterable, Iterator, List, Set, Tuple

import libcst as cst

from resilint.lint.nodes import dotted_strings, module_assignments
from resilint.lint.summary import Call, ModuleSummary, Place, Setting

# Backends that hand each mail to a task queue, by the setting naming the backend the task
# sends it through (Django's SMTP backend when it is not set): django-celery-email's.
_RELAYS = {"djcelery_email.backends.CeleryEmailBackend": "CELERY_EMAIL_BACKEND"}
READ = ("EMAIL_HOST", "EMAIL_BACKEND", "EMAIL_TIMEOUT", "INSTALLED_APPS", "ADMINS", "MANAGERS", *_RELAYS.values())
# The project's own sends, which take the connection to send through (``connection=``); a
# connection it builds with ``get_connection(timeout=...)`` is bounded whatever the settings say.
_SENDS = frozenset({
    "django.core.mail.send_mail", "django.core.mail.send_mass_mail", "django.core.mail.mail_admins",
    "django.core.mail.mail_managers",
})
_MESSAGE_SENDS = frozenset({"django.core.mail.EmailMessage.send", "django.core.mail.EmailMultiAlternatives.send"})
_GET_CONNECTION = "django.core.mail.get_connection"
# What makes Django send mail by itself, through the default connection: error mails to
# ``ADMINS`` and broken-link mails to ``MANAGERS``, and the password-reset views and form.
_DJANGO_SENDS_ITSELF = ("ADMINS", "MANAGERS")
_PASSWORD_RESET = ("django.contrib.auth.views", "django.contrib.auth.forms.PasswordResetForm")
_SMTP_BACKEND = "smtp"
# Settings modules of another environment than production (``settings/test.py``,
# ``dev_settings.py``): the backend chosen there is not the one production sends through.
_OTHER_ENVIRONMENTS = frozenset({"test", "tests", "testing", "dev", "develop", "development", "local", "ci"})
MESSAGE = (
    "Django sends mail over SMTP without a timeout: no settings module sets `EMAIL_TIMEOUT` "
    "(Django's default is None), so a mail server that stops answering blocks the worker "
    "sending the mail forever; set `EMAIL_TIMEOUT` in the settings"
)

CONNECTION_MESSAGE = (
    "`django.core.mail.get_connection` opens Django's SMTP backend without a timeout: no "
    "settings module sets `EMAIL_TIMEOUT` (Django's default is None), so a mail server that "
    "stops answering blocks the worker sending the mail forever; pass `timeout=` or set "
    "`EMAIL_TIMEOUT` in the settings"
)


def settings_assigned(module: cst.Module, locate: Callable[[cst.CSTNode], Place]) -> List[Setting]:
    """The module-level assignments of the settings in ``READ``, in source order; not an
    empty ``ADMINS`` or ``MANAGERS`` (``ADMINS = ()``, ``MANAGERS = ADMINS``): Django mails
    nobody then."""
    found: List[Setting] = []
    empty: Set[str] = set()
    for name, value, assignment, conditional in module_assignments(module):
        if name not in READ:
            continue
        if name in _DJANGO_SENDS_ITSELF and (
            (isinstance(value, (cst.Tuple, cst.List)) and not value.elements)
            or (isinstance(value, cst.Name) and value.value in empty)
        ):
            empty.add(name)
            continue
        empty.discard(name)
        found.append(Setting(name, locate(assignment), conditional, dotted_strings(value)))
    return found


def unbounded_smtp_settings(
    modules: Iterable[ModuleSummary], is_test: Callable[[str], bool], reported: Callable[[str], bool] = lambda path: True,
) -> List[Tuple[Place, str]]:
    """``_unbounded_settings`` for each Django project among ``modules``: the settings modules
    under the directory of one ``manage.py`` are that project's (a repository may hold a
    standalone site beside a demo one, each with its own settings); those under none, one
    project. The code outside the settings modules is every project's. ``reported``: the files
    whose findings are shown; none is judged when none of them holds a setting or opens a
    connection (an editor's pass over a view)."""
    modules = list(modules)
    if not any(reported(m.path) and (m.settings or next(_connections(m), None)) for m in modules):
        return []
    projects: Dict[str, List[ModuleSummary]] = {}
    for module in modules:
        if module.settings:
            projects.setdefault(_project_of(module.path), []).append(module)
    if len(projects) <= 1:
        return _unbounded_settings(modules, is_test)
    shared = [m for m in modules if not m.settings]
    return [found for settings in projects.values() for found in _unbounded_settings(settings + shared, is_test)]


def _project_of(path: str) -> str:
    """The directory of the nearest ``manage.py`` above ``path``; "" when there is none."""
    directory = os.path.dirname(os.path.abspath(path))
    while True:
        if os.path.isfile(os.path.join(directory, "manage.py")):
            return directory
        parent = os.path.dirname(directory)
        if parent == directory:
            return ""
        directory = parent


def _unbounded_settings(modules: List[ModuleSummary], is_test: Callable[[str], bool]) -> List[Tuple[Place, str]]:
    """Where a Django project configures an SMTP server (``EMAIL_HOST``, else each
    ``get_connection(...)`` without a timeout) while no module of it sets ``EMAIL_TIMEOUT``,
    with the message: none when the project is not Django's (no ``INSTALLED_APPS``, no
    setting naming a ``django.`` backend), or
    when every unconditional ``EMAIL_BACKEND`` names only backends that are not SMTP (a
    console or an API backend; one read from the environment with an SMTP default counts as
    SMTP) in the settings modules not named for another environment (``test.py``,
    ``dev.py``, ``local_settings.py``). Settings in test code do not count either way."""
    settings = [s for m in modules if m.settings and not is_test(m.path) for s in m.settings]
    names = {s.name for s in settings}
    django = "INSTALLED_APPS" in names or any(d.startswith("django.") for s in settings for d in s.dotted)
    if not django or "EMAIL_TIMEOUT" in names:
        return []
    production = [
        s for m in modules if m.settings and not is_test(m.path) and not _other_environment(m.path)
        for s in m.settings if not s.conditional
    ]
    backends = [_relayed(s.dotted, production) for s in production if s.name == "EMAIL_BACKEND"]
    if backends and all(dotted and not any(_SMTP_BACKEND in d for d in dotted) for dotted in backends):
        return []
    checked = [m for m in modules if not is_test(m.path)]
    if not names & set(_DJANGO_SENDS_ITSELF) and _sends_through_bounded_connections(checked):
        return []
    hosts = [(s.place, MESSAGE) for s in settings if s.name == "EMAIL_HOST"]
    # a development server's host (``settings/dev.py``: mailhog) is no anchor when production's is there
    production_hosts = [host for host in hosts if not _other_environment(host[0].path)]
    return production_hosts or hosts or list(_unbounded_connections(checked))


def _relayed(dotted: Tuple[str, ...], production: List[Setting]) -> Tuple[str, ...]:
    """The backends an ``EMAIL_BACKEND`` sends through: a relay's are those its own setting
    names where it is set unconditionally, else Django's SMTP backend."""
    if not dotted or not all(d in _RELAYS for d in dotted):
        return dotted
    settings = {_RELAYS[d] for d in dotted}
    named = tuple(d for s in production if s.name in settings for d in s.dotted)
    return named or ("django.core.mail.backends.smtp.EmailBackend",)


def _other_environment(path: str) -> bool:
    stem = os.path.splitext(os.path.basename(path))[0].lower()
    return any(part in _OTHER_ENVIRONMENTS for part in re.split(r"[_.-]", stem))


def _unbounded_connections(modules: List[ModuleSummary]) -> Iterator[Tuple[Place, str]]:
    """Where the project opens the settings' SMTP backend itself, without a timeout
    (``get_connection(host=..., port=...)`` with no ``timeout=`` and no other ``backend=``):
    the anchor when no settings module names the SMTP host (it comes from the database or
    the environment at each send)."""
    for module in modules:
        for call in _connections(module):
            args = call.arguments
            if (args is not None and not args.double_star and not args.positional
                    and not {"timeout", "backend"} & set(args.keywords)):
                yield call.place, CONNECTION_MESSAGE


def _connections(module: ModuleSummary) -> Iterator[Call]:
    """The module's calls of Django's ``get_connection``."""
    return (call for function in module.functions.values() for call in function.calls if call.target == _GET_CONNECTION)


def _sends_through_bounded_connections(modules: List[ModuleSummary]) -> bool:
    """Whether the project sends mail, and only through connections it builds with a timeout:
    every ``send_mail``/``send_mass_mail``/``mail_admins``/``mail_managers`` passes
    ``connection=``, every ``get_connection(...)`` passes ``timeout=``, no message is sent with
    ``.send()`` (its connection is not followed), and nothing imports Django's password-reset
    views or form."""
    sends = 0
    for module in modules:
        if any(name.startswith(_PASSWORD_RESET) for name in module.imports.values()):
            return False
        for function in module.functions.values():
            for call in function.calls:
                keywords = call.arguments.keywords if call.arguments is not None else ()
                if call.target in _MESSAGE_SENDS:
                    return False
                if call.target in _SENDS:
                    if "connection" not in keywords:
                        return False
                    sends += 1
                elif call.target == _GET_CONNECTION and "timeout" not in keywords:
                    return False
    return sends > 0
