# select: RES204
import time

import backoff
import requests


def retries_with_backoff(func, exception_type, max_tries):
    # the classes it retries are what each call tells it
    @backoff.on_exception(backoff.expo, exception_type, max_tries=max_tries)
    def inner(*args, **kwargs):
        return func(*args, **kwargs)  # expect: RES204 "through `func` (`members`) -> `fetch_rest`"

    return inner


def fetch_all(url, retries=5):
    attempt = 0
    while True:
        try:
            return requests.get(url, timeout=10).json()
        except requests.RequestException:
            attempt += 1
            if attempt >= retries:
                raise
            time.sleep(2 ** attempt)


def fetch_rest(url, retries=5):
    for attempt in range(retries):
        try:
            return requests.get(url, timeout=10).json()
        except requests.ConnectionError:
            if attempt == retries - 1:
                raise
            time.sleep(2 ** attempt)
