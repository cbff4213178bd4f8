import uuid

import tenacity

from bank.gateway import gateway, idem_headers

retry = tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_random_exponential(max=4), reraise=True)


@retry
def capture(charge_id, key):
    # the key is made once by the caller, outside the retry: the merge keeps it
    return gateway.request("POST", f"/charges/{charge_id}/capture", headers=idem_headers(key))


def capture_order(order):
    return capture(order.charge_id, str(uuid.uuid4()))


@retry
def void(charge_id):
    return gateway.request("POST", f"/charges/{charge_id}/void", headers=idem_headers(str(uuid.uuid4())))  # expect: RES201 "created on each call"


@retry
def charge(order):
    return gateway.request("POST", "/charges", json=order)  # expect: RES201 "without an `Idempotency-Key`"
