from api.base import BaseClient
from api.resources import Customers, Invoices


class FullClient(BaseClient):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.customers = Customers(self)
        self.invoices = Invoices(self)
