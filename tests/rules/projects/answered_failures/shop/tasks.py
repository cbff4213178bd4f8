# select: RES201
from celery import shared_task

from shop.avatax import post_loudly, post_quietly
from shop.errors import TaxError


@shared_task(autoretry_for=(TaxError,), retry_backoff=30, retry_kwargs={"max_retries": 5})
def commit_transaction(url, data):
    response = post_quietly(url, data)  # expect: RES201 "`post_quietly` sends a POST"
    if not response or "error" in response:
        raise TaxError


@shared_task(autoretry_for=(TaxError,), retry_backoff=30, retry_kwargs={"max_retries": 5})
def commit_transaction_loudly(url, data):
    # a lost response raises ``requests.RequestException``: it leaves the task
    response = post_loudly(url, data)
    if "error" in response:
        raise TaxError
