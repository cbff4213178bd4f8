# select: RES301
# Celery tasks run in the caller's process: the task's body holds the caller's transaction.
import requests
from celery import shared_task
from django.conf import settings
from django.db import transaction


@shared_task
def ping(event):
    requests.post(settings.HOOK_URL, json={"event": event}, timeout=settings.HOOK_TIMEOUT)


def run_here(event):
    with transaction.atomic():
        ping.run(event)  # expect: RES301 "`run` -> `requests.post`"


def apply_here(event):
    with transaction.atomic():
        ping.apply(args=(event,))  # expect: RES301 "`apply` -> `requests.post`"


def apply_signature(event):
    with transaction.atomic():
        ping.si(event).apply()  # expect: RES301


def queue_it(event):
    # a worker runs it, after the caller's transaction is long gone
    with transaction.atomic():
        ping.delay(event)


def dispatch(task, *args, eager=False, **kwargs):
    signature = task.si(*args, **kwargs)
    if not eager:
        return signature.apply_async()
    return signature.apply().get(propagate=True)


def dispatch_here(event):
    with transaction.atomic():
        dispatch(ping, event, eager=True)  # expect: RES301 "`dispatch` -> `apply` -> `requests.post`"
