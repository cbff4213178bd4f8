import random
import time
import uuid

import requests
import tenacity

from bank import config

TIMEOUT = (3.05, 10)
retry = tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_random_exponential(max=4), reraise=True)


@retry
def adjust(body):
    # the helper merges nothing in: its own headers carry no key
    return requests.post("https://bank.example/adjustments", json=body, headers=config.partner_headers(), timeout=TIMEOUT)  # expect: RES201 "without an `Idempotency-Key`"


@retry
def transfer(body):
    headers = config.partner_headers({"Idempotency-Key": str(uuid.uuid4())})
    return requests.post("https://bank.example/transfers", json=body, headers=headers, timeout=TIMEOUT)  # expect: RES201


@retry
def _send(body, key):
    headers = config.partner_headers({"Idempotency-Key": key})
    return requests.post("https://bank.example/transfers", json=body, headers=headers, timeout=TIMEOUT)


def send(body):
    # made once, outside the retried function: the same on every attempt
    return _send(body, config.new_key("xfer"))


def journal(entries):
    for attempt in range(3):
        headers = config.partner_headers({"Idempotency-Key": config.new_key("journal")})
        try:
            return requests.post("https://bank.example/journal", json=entries, headers=headers, timeout=TIMEOUT)  # expect: RES201
        except requests.ConnectionError:
            time.sleep(random.uniform(0, 2 ** attempt))
    raise RuntimeError("journal")


def batch(entries):
    key = config.new_key("batch")
    for attempt in range(3):
        headers = config.partner_headers({"Idempotency-Key": key})
        try:
            return requests.post("https://bank.example/batches", json=entries, headers=headers, timeout=TIMEOUT)
        except requests.ConnectionError:
            time.sleep(random.uniform(0, 2 ** attempt))
    raise RuntimeError("batch")


def _post_batch(body, key=None):
    extra = {"Idempotency-Key": key} if key else None
    return requests.post("https://bank.example/batches", json=body, headers=config.partner_headers(extra), timeout=TIMEOUT)


@retry
def post_batch(body):
    # no key given: the conditional mapping is None, and the helper's own headers have none
    return _post_batch(body)  # expect: RES201 "without an `Idempotency-Key`"


@retry
def post_batch_keyed(body, key):
    return _post_batch(body, key=key)
