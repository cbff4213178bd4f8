import os

DEBUG = os.environ.get("DEBUG") == "1"
INSTALLED_APPS = ["django.contrib.auth", "shop"]

# Django's SMTP backend, unless debugging; its EMAIL_TIMEOUT defaults to None.
if DEBUG:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
else:
    EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")  # expect: RES101 "EMAIL_TIMEOUT"
    EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
