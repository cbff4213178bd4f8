# the test run's backend: production still sends over SMTP
from .base import *  # noqa: F403

EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
