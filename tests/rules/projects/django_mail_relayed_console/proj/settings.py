# select: RES101
import os

INSTALLED_APPS = ["django.contrib.auth", "djcelery_email"]

# the celery task sends every mail to the console: nothing waits on a mail server
EMAIL_BACKEND = "djcelery_email.backends.CeleryEmailBackend"
CELERY_EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
EMAIL_HOST = os.getenv("EMAIL_SMTP_HOST", "localhost")
