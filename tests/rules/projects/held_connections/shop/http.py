import functools

import requests


class TimeoutSession(requests.Session):
    def request(self, method, url, **kwargs):
        kwargs.setdefault("timeout", 5)
        return super().request(method, url, **kwargs)


_plain = requests.Session()
get_bounded = functools.partial(_plain.get, timeout=5)


class Supplier:
    def __init__(self):
        self.session = TimeoutSession()

    def quote(self, sku):
        return self.session.get(f"https://supplier.example/quotes/{sku}").json()
