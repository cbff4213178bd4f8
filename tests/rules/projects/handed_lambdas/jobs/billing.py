# select: RES201, RES301
import requests
import tenacity
from django.db import transaction

from jobs.retry import run_now, with_retries

TIMEOUT = 5


def charge(url, payload):
    return with_retries(lambda: requests.post(url, json=payload, timeout=TIMEOUT))


def balance(url):
    # a GET handed to the same retry
    return with_retries(lambda: requests.get(url, timeout=TIMEOUT))


def settle(order, url):
    with transaction.atomic():
        order.save()
        run_now(lambda: requests.get(url, timeout=TIMEOUT))  # expect: RES301 "`run_now` -> `(fn)` -> `requests.get`"


def settle_later(order, url):
    with transaction.atomic():
        order.save()
        # runs after the commit, not while the transaction is held
        transaction.on_commit(lambda: requests.post(url, timeout=TIMEOUT))


def notify(url):
    return run_now(lambda: requests.post(url, timeout=TIMEOUT))


@tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_random_exponential(max=10))
def refresh(url):
    # `run_now` runs the GET this call hands it, not the POST `notify` hands it
    return run_now(lambda: requests.get(url, timeout=TIMEOUT))
