# select: RES202
import random

import requests

from worker.cancellation import cancellable_sleep, log_wait


def fetch(url):
    backoff = 1
    for _ in range(5):
        try:
            return requests.get(url, timeout=3)
        except requests.ConnectionError:
            cancellable_sleep(backoff)  # expect: RES202 "grows exponentially"
            backoff *= 2


def fetch_jittered(url):
    for attempt in range(5):
        try:
            return requests.get(url, timeout=3)
        except requests.ConnectionError:
            cancellable_sleep(random.uniform(0, 2 ** attempt))


def fetch_logged(url):
    for _ in range(5):
        try:
            return requests.get(url, timeout=3)
        except requests.ConnectionError:
            log_wait(5)  # says how long, waits nothing: the loop's wait is not this call's
