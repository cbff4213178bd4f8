import random
import time

import requests


class Client:
    def __init__(self):
        self._session = requests.Session()

    def _send(self, method, url, **kwargs):
        send = getattr(self._session, method.lower())
        return send(url, timeout=5, **kwargs)

    def request(self, method, path, *, json=None, headers=None, idempotency_key=None):
        merged = {"Authorization": "x", **(headers or {})}
        if idempotency_key:
            merged["Idempotency-Key"] = idempotency_key
        for attempt in range(3):
            try:
                return self._send(method, path, json=json, headers=merged)
            except requests.ConnectionError:
                time.sleep(random.uniform(0, 2 ** attempt))
        raise RuntimeError("failed")
