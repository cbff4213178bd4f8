import requests
from django.conf import settings


def address_saved(sender, instance, **kwargs):
    requests.post(settings.DNS_URL, json={"host": instance.host}, timeout=settings.DNS_TIMEOUT)


def subnet_saved(sender, instance, **kwargs):
    requests.post(settings.DNS_URL, json={"subnet": instance.name}, timeout=settings.DNS_TIMEOUT)
