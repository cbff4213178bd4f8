import os

INSTALLED_APPS = ["django.contrib.contenttypes", "notify"]

# Django mails errors to ADMINS itself, through the default connection: no EMAIL_TIMEOUT there
ADMINS = [("Ops", "ops@example.com")]
EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
EMAIL_HOST = os.getenv("EMAIL_HOST")  # expect: RES101
EMAIL_PORT = int(os.getenv("EMAIL_PORT", "587"))
MAIL_TIMEOUT = 10
