# the demo site prints its mail
INSTALLED_APPS = ["django.contrib.auth", "helpdesk"]
EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
