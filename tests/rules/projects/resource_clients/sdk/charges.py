import uuid

from .base import Client

client = Client()


def create(amount, idempotency_key=None):
    return client.request("POST", "/charges", json={"amount": amount}, idempotency_key=idempotency_key)


def capture(charge_id):
    return client.request("POST", f"/charges/{charge_id}/capture")  # expect: RES201


def charge_invoice(invoice):
    return create(invoice["amount"], idempotency_key=invoice["key"])


def charge_new(amount):
    return create(amount, idempotency_key=str(uuid.uuid4()))


def refund(charge_id):
    return client.request("POST", "/refunds", json={"charge": charge_id}, idempotency_key=str(uuid.uuid4()))
