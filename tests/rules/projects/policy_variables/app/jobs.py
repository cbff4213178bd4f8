import requests
import tenacity

from app.policies import api_retry, catch_all, forever, net_backoff, retrying_task

URL = "https://api.example/orders"
RETRYING = tenacity.Retrying(
    stop=tenacity.stop_after_attempt(3),
    wait=tenacity.wait_random(0, 1),
    retry=tenacity.retry_if_exception_type(requests.ConnectionError),
    reraise=True,
)


@api_retry
def create(order):
    return requests.post(URL, json=order, timeout=5)  # expect: RES201


@net_backoff
def update(order):
    return requests.patch(URL, json=order, timeout=5)  # expect: RES201


@forever
def read(order_id):
    return requests.get(f"{URL}/{order_id}", timeout=5)


@retrying_task
def push(order):
    return requests.post(URL, json=order, timeout=5)  # expect: RES201


@catch_all
def ping():
    return requests.get(URL, timeout=5)


def submit(order):
    for attempt in RETRYING:
        with attempt:
            return requests.post(URL, json=order, timeout=5)  # expect: RES201


def submit_call(order):
    return RETRYING(requests.post, URL, json=order, timeout=5)  # expect: RES201


@api_retry
def fetch_all():
    # ``forever`` retries every ConnectionError for ever: none reaches ``api_retry``
    return [read(i) for i in range(3)]


@api_retry
def lookup_all():
    return [lookup(i) for i in range(3)]  # expect: RES204 "tenacity 5 attempts (app/policies.py:8) x backoff 4 attempts (app/policies.py:9) = up to 20 calls"


@net_backoff
def lookup(order_id):
    return requests.get(f"{URL}/{order_id}", timeout=5)
