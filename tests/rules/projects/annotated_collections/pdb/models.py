# select: RES301
from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.core.mail.message import EmailMultiAlternatives


class User(AbstractUser):
    def email_user(self, subject, message, from_email=settings.DEFAULT_FROM_EMAIL, email=None):
        if not email:
            email = self.email
        mail = EmailMultiAlternatives(subject, message, from_email, [email])
        mail.send(fail_silently=False)
