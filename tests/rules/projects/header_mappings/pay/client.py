import uuid

import requests
import tenacity

from pay.headers import DEFAULT_HEADERS, auth_headers, fresh_key_headers, keyed_headers

URL = "https://pay.example/charges"
retried = tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_random(0, 1), reraise=True)

keyed_session = requests.Session()
keyed_session.headers.update({"Idempotency-Key": str(uuid.uuid4())})
plain_session = requests.Session()
plain_session.headers.update(DEFAULT_HEADERS)


@retried
def charge(amount, token):
    return requests.post(URL, json={"amount": amount}, headers=auth_headers(token), timeout=5)  # expect: RES201


@retried
def charge_merged(amount):
    headers = dict(DEFAULT_HEADERS)
    headers.update({"X-Request-Source": "web"})
    return requests.post(URL, json={"amount": amount}, headers=headers, timeout=5)  # expect: RES201


@retried
def charge_keyed(amount, token, key):
    return requests.post(URL, json={"amount": amount}, headers=keyed_headers(token, key), timeout=5)


@retried
def charge_on_session(amount):
    return keyed_session.post(URL, json={"amount": amount}, timeout=5)


@retried
def charge_on_plain_session(amount):
    return plain_session.post(URL, json={"amount": amount}, timeout=5)  # expect: RES201


@retried
def charge_unknown(amount, headers):
    return requests.post(URL, json={"amount": amount}, headers=headers, timeout=5)


@retried
def charge_fresh(amount, token):
    return requests.post(URL, json={"amount": amount}, headers=fresh_key_headers(token), timeout=5)  # expect: RES201
