import uuid

import requests
from celery import shared_task

from bank.partner import TIMEOUT


def book(payload, key):
    return requests.post("https://carrier.example/book", json=payload, headers={"Idempotency-Key": key}, timeout=TIMEOUT)


@shared_task(bind=True, autoretry_for=(requests.RequestException,), retry_backoff=True, max_retries=5)
def book_shipment(self, payload):
    # the task body runs again on every retry: a new key each time
    key = str(uuid.uuid4())
    return book(payload, key=key)  # expect: RES201 "key = "


def book_keyed(payload):
    key = str(uuid.uuid4())
    for attempt in range(3):
        try:
            return book(payload, key=key)
        except requests.ConnectionError:
            continue
    raise RuntimeError("book")
