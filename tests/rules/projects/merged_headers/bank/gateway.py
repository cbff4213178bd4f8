"""A gateway client whose request merges the caller's headers into its own (which carry no key)."""
import requests

from bank.partner import TIMEOUT


def idem_headers(key):
    return {"Idempotency-Key": key, "Accept": "application/json"}


class GatewayClient:
    def __init__(self, session=None):
        self.session = session or requests.Session()

    def _auth(self):
        return {"Authorization": "Bearer token"}

    def request(self, method, path, headers=None, **kwargs):
        merged = self._auth()
        if headers:
            merged.update(headers)
        return self.session.request(method, "https://gateway.example" + path, headers=merged, timeout=TIMEOUT, **kwargs)


gateway = GatewayClient()
