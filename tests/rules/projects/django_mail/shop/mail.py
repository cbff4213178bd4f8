from django.core.mail import send_mail


def welcome(user):
    # the timeout belongs in the settings, not at each call
    send_mail("Welcome", "Hello", "shop@example.com", [user.email])
