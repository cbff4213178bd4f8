import requests
from django.conf import settings


def notify(obj):
    requests.post(settings.WEBHOOK_URL, json={"id": obj.pk}, timeout=settings.WEBHOOK_TIMEOUT)
