import requests
from django.conf import settings

from app.db import LockedAtomicTransaction, Timer


class License:
    pass


def fetch_status(payloads):
    return requests.post(settings.AUTHORITY_URL, json={"licenses": payloads}, timeout=settings.AUTHORITY_TIMEOUT).json()


def register(data):
    with LockedAtomicTransaction(License):
        return fetch_status([data["license"]])  # expect: RES301 "inside `LockedAtomicTransaction()`"


def timed_register(data):
    with Timer():
        return fetch_status([data["license"]])
