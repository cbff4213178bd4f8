import uuid

import requests
import tenacity

from pay.headers import auth_headers, new_key

retried = tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_random(0, 1), reraise=True)


def local_key():
    return uuid.uuid4().hex


@retried
def refund(amount, token):
    headers = {**auth_headers(token), "Idempotency-Key": new_key()}
    return requests.post("https://pay.example/refunds", json={"amount": amount}, headers=headers, timeout=5)  # expect: RES201 "created on each call (`new_key()`)"


@retried
def capture(charge_id):
    return requests.post(  # expect: RES201 "(`local_key()`) is created inside the retried code"
        f"https://pay.example/charges/{charge_id}/capture", headers={"Idempotency-Key": local_key()}, timeout=5,
    )


def capture_once(charge_id):
    key = new_key()
    return _capture_keyed(charge_id, key)


@retried
def _capture_keyed(charge_id, key):
    return requests.post(f"https://pay.example/charges/{charge_id}/capture", headers={"Idempotency-Key": key}, timeout=5)
