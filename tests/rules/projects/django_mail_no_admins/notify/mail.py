# select: RES101
from django.conf import settings
from django.core.mail import get_connection, send_mail


def notify(user, subject, body):
    # every mail goes through a connection built with its own timeout
    connection = get_connection(host=settings.EMAIL_HOST, port=settings.EMAIL_PORT, timeout=settings.MAIL_TIMEOUT)
    send_mail(subject, body, "noreply@example.com", [user.email], connection=connection)
