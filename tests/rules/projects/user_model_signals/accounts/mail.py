from django.core.mail import EmailMultiAlternatives


def send_welcome(user):
    EmailMultiAlternatives(subject="Hi", body="Welcome", to=[user.email]).send()


def send_audit(user):
    EmailMultiAlternatives(subject="Audit", body="A user changed", to=["audit@example.com"]).send()
