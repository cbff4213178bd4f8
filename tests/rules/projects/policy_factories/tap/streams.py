# select: RES201, RES204
import requests

from tap import utils


# singer-python's ``utils.backoff(...)``: a function of another module that returns a policy
@utils.ratelimit_backoff((requests.exceptions.RequestException,))
def create(url, payload, timeout):
    return requests.post(url, json=payload, timeout=timeout)  # expect: RES201


@utils.ratelimit_backoff((requests.exceptions.RequestException,))
def fetch(url, timeout):
    return requests.get(url, timeout=timeout)


@utils.ratelimit_backoff((requests.exceptions.RequestException,))
def fetch_twice_over(url, timeout):
    return fetch(url, timeout)  # expect: RES204 "backoff 5 attempts"


def create_once(url, payload, timeout):
    return requests.post(url, json=payload, timeout=timeout)
