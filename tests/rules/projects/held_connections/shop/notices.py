# select: RES301
from django.core.mail import EmailMultiAlternatives, send_mail
from django.db import transaction


def welcome(user):
    send_mail("Welcome", "Hello", "shop@example.org", [user.email])


@transaction.atomic
def register(user):
    user.save()
    welcome(user)  # expect: RES301 "django.core.mail.send_mail"


def close_account(user):
    with transaction.atomic():
        user.delete()
        message = EmailMultiAlternatives("Goodbye", "Bye", to=[user.email])
        message.send()  # expect: RES301 "its DB connection until the call returns"


def confirm(user):
    with transaction.atomic():
        user.save()
        transaction.on_commit(lambda: welcome(user))  # after the commit: nothing is held
