# select: RES101
from django.core.mail import EmailMultiAlternatives, get_connection

from invites.models import MailConfiguration


def send_invitation(email, html):
    config = MailConfiguration.objects.get()
    connection = get_connection(host=config.host, port=config.port, username=config.user, password=config.password)  # expect: RES101 "`django.core.mail.get_connection` opens Django's SMTP backend without a timeout"
    message = EmailMultiAlternatives(subject="Invitation", body=html, to=[email], connection=connection)
    message.send()


def send_bounded(email, html, seconds):
    config = MailConfiguration.objects.get()
    connection = get_connection(host=config.host, port=config.port, timeout=seconds)
    EmailMultiAlternatives(subject="Invitation", body=html, to=[email], connection=connection).send()


def preview(email, html):
    # a console backend: nothing leaves the process
    connection = get_connection(backend="django.core.mail.backends.console.EmailBackend")
    EmailMultiAlternatives(subject="Preview", body=html, to=[email], connection=connection).send()
