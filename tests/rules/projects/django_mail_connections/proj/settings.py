import os

INSTALLED_APPS = ["django.contrib.contenttypes", "notify"]

EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
EMAIL_HOST = os.getenv("EMAIL_HOST")
EMAIL_PORT = int(os.getenv("EMAIL_PORT", "587"))
MAIL_TIMEOUT = 10
