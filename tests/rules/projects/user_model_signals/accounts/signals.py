from django.conf import settings
from django.contrib.auth.models import User
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from accounts.mail import send_audit, send_welcome


@receiver(post_save, sender=User)
def welcome(sender, instance, created, **kwargs):
    if created:
        send_welcome(instance)


@receiver(post_delete, sender=settings.AUTH_USER_MODEL)
def audit(sender, instance, **kwargs):
    send_audit(instance)


def team_saved(sender, instance, **kwargs):
    send_audit(instance)


post_save.connect(team_saved, sender="accounts.Team")
