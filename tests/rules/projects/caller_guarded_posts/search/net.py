import random
import time

import requests


def call(method, url, **kwargs):
    for attempt in range(3):
        try:
            return requests.request(method, url, timeout=5, **kwargs)
        except requests.ConnectionError:
            time.sleep(random.uniform(0, 2 ** attempt))
    raise RuntimeError(url)


def get(url, **kwargs):
    return call("GET", url, **kwargs)


def post(url, **kwargs):
    return call("POST", url, **kwargs)
