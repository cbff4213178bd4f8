# a developer's machine prints mail: production still sends over SMTP
from .base import *  # noqa: F403

EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
