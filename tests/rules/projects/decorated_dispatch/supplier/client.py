from functools import lru_cache
from typing import Optional

import requests

from .session import build_session


class SupplierClient:
    def __init__(self, session: Optional[requests.Session] = None):
        # the annotation says what callers may pass; none does, so the session is ours
        self.session = session or build_session()

    def _send(self, method, path, **kwargs):
        send = getattr(self.session, method.lower())
        return send("https://supplier.example" + path, **kwargs).json()

    def stock(self, sku):
        return self._send("GET", f"/stock/{sku}")

    def order(self, payload):
        return self._send("POST", "/orders", json=payload)


@lru_cache(maxsize=1)
def get_client():
    return SupplierClient()
