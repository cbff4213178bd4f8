"""Clients whose session falls back to another module's retrying one when the caller gives none."""
from shop.sessions import retrying_session


class ErpClient:
    def __init__(self, session=None):
        self.session = session or retrying_session()

    def stock(self, sku):
        return self.session.get(f"https://erp.example/stock/{sku}", timeout=(3.05, 10))


class LegacyErpClient:
    def __init__(self, session=None):
        self.session = session or retrying_session()

    def stock(self, sku):
        return self.session.get(f"https://erp.example/v1/stock/{sku}", timeout=(3.05, 10))
