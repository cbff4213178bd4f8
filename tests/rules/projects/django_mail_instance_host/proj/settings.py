INSTALLED_APPS = ["django.contrib.contenttypes", "invites"]

EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
# No EMAIL_HOST: the SMTP host and credentials are instance settings kept in the database,
# given to get_connection() at each send. No EMAIL_TIMEOUT either.
