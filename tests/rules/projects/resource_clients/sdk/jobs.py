import tenacity
from .api import api


@tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_random(0, 1))
def charge_invoice(invoice):
    # `self._client.request(...)` in the resource is the SDK's own method: the invoice's key
    # reaches its Idempotency-Key header, the same on every attempt
    return api.charges.create(invoice["amount"], idempotency_key=invoice["key"])


@tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_random(0, 1))
def capture(charge_id):
    return api.charges.capture(charge_id)  # expect: RES201 "`capture` sends a POST"
