from django.db import transaction
from djmail import template_mail

from app.mails import WelcomeMail, mail_builder


def send_register_email(user):
    # djmail renders the template into Django's message; ``send()`` goes to the mail backend
    email = mail_builder.registered_user(user, {"user": user})
    return bool(email.send())


@transaction.atomic
def public_register(user):
    user.save()
    send_register_email(user)  # expect: RES301 "`django.core.mail.EmailMultiAlternatives.send`"
    return user


@transaction.atomic
def welcome(user):
    user.save()
    WelcomeMail().send(user.email, {"user": user})  # expect: RES301 "`djmail.template_mail.TemplateMail.send`"


def register_then_mail(user):
    with transaction.atomic():
        user.save()
    # the message is built and sent after the commit
    email = mail_builder.registered_user(user, {"user": user})
    email.send()


def _make_template_mail(name):
    # a template mail class made on the fly for the template's name
    cls = type("InlineCSSTemplateMail", (template_mail.InlineCSSTemplateMail,), {"name": name})
    return cls()


@transaction.atomic
def send_sync_notifications(notification):
    email = _make_template_mail("notification")
    for user in notification.notify_users.all():
        try:
            email.send(user.email, {"user": user})  # expect: RES301 "`djmail.template_mail.TemplateMail.send`"
        except Exception:
            pass
    notification.delete()
