import random

import requests
from celery import Task

RETRY_KWARGS = {"countdown": 60, "max_retries": 3}


def retry_later(task, exc):
    """Re-queue the running task with a delay that grows with each retry."""
    countdown = 30 * (task.request.retries + 1)
    raise task.retry(exc=exc, countdown=countdown)  # expect: RES202 "grows linearly"


def retry_doubling(task, exc):
    countdown = task.retry_backoff * (2 ** task.request.retries)
    raise task.retry(exc=exc, countdown=countdown)  # expect: RES202 "`countdown=countdown` grows exponentially but has no random term: clients"


def retry_jittered(task, exc):
    raise task.retry(exc=exc, countdown=random.uniform(0, 60))


class ProviderTask(Task):
    autoretry_for = (Exception,)  # expect: RES205
    retry_kwargs = {"max_retries": 4}
    retry_backoff = True
    retry_jitter = False  # expect: RES202


class SafeTask(Task):
    autoretry_for = (requests.ConnectionError,)
    retry_backoff = True
    max_retries = 3
