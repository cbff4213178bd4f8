# the standalone site sends over SMTP, and nothing bounds it: the demo's console backend is
# another site's
import os

INSTALLED_APPS = ["django.contrib.auth", "helpdesk"]
EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")  # expect: RES101 "EMAIL_TIMEOUT"
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
