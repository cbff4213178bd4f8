import uuid

import requests
import tenacity

from pay.headers import keyed_headers

retried = tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_random(0, 1), reraise=True)


class Api:
    def __init__(self):
        self.session = requests.Session()

    def request(self, method, path, **kwargs):
        return self.session.request(method, "https://pay.example" + path, timeout=5, **kwargs)

    def create_charge(self, amount, token, key):
        return self.request("POST", "/charges", json={"amount": amount}, headers=keyed_headers(token, key))


api = Api()


@retried
def charge_with_a_fresh_key(amount, token):
    return api.create_charge(amount, token, key=str(uuid.uuid4()))  # expect: RES201 "created on each call"


@retried
def charge_with_the_callers_key(amount, token, key):
    return api.create_charge(amount, token, key=key)


def charge(amount, token):
    return charge_with_the_callers_key(amount, token, str(uuid.uuid4()))
