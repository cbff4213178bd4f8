import requests
from django.conf import settings
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from audit.models import Engagement, Note
from audit.tasks import index_note


def notify(instance):
    return requests.post(settings.WEBHOOK_URL, json={"id": instance.pk}, timeout=settings.WEBHOOK_TIMEOUT)


@receiver(post_save, sender=Engagement)
def engagement_saved(sender, instance, created, **kwargs):
    if created:
        notify(instance)


def engagement_deleted(sender, instance, **kwargs):
    notify(instance)


post_delete.connect(engagement_deleted, sender=Engagement)


@receiver(post_save, sender=Note)
def note_saved(sender, instance, **kwargs):
    # queued for a worker: nothing waits on the network here
    index_note.delay(instance.pk)
