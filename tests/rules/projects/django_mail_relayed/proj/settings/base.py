# select: RES101
import os

INSTALLED_APPS = ["django.contrib.auth", "djcelery_email"]

# every mail goes to a celery task, which sends it through CELERY_EMAIL_BACKEND: SMTP here
EMAIL_BACKEND = "djcelery_email.backends.CeleryEmailBackend"

if os.getenv("EMAIL_SMTP", ""):
    CELERY_EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = os.getenv("EMAIL_SMTP_HOST", "localhost")  # expect: RES101 "no settings module sets `EMAIL_TIMEOUT`"
    EMAIL_PORT = os.getenv("EMAIL_SMTP_PORT", "25")
else:
    CELERY_EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
