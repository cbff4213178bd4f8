from functools import cached_property

from .base import Client
from .resource import Charges


class Api(Client):
    @cached_property
    def charges(self):
        return Charges(self)


api = Api()


def charge_invoice(invoice):
    return api.charges.create(invoice["amount"], idempotency_key=invoice["key"])
