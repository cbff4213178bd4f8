import os

INSTALLED_APPS = ["django.contrib.contenttypes", "notify"]

# nobody to mail errors to: Django sends nothing by itself, every mail goes through notify's
# bounded connection
ADMINS = (
    # ("Your Name", "your_email@example.com"),
)
MANAGERS = ADMINS
EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
EMAIL_HOST = os.getenv("EMAIL_HOST")
EMAIL_PORT = int(os.getenv("EMAIL_PORT", "587"))
MAIL_TIMEOUT = 10
