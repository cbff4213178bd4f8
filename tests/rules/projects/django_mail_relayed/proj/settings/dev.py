from .base import *  # noqa: F403

# the development mail catcher: the production host in base.py carries the finding
CELERY_EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
EMAIL_HOST = "mailhog"
