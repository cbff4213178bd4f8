import random
import time

import requests


class ClientBase:
    def __init__(self, token, *, endpoint, timeout=None):
        self._endpoint = endpoint
        self._headers = {"Authorization": f"Bearer {token}"}
        self._timeout = timeout
        self._session = requests.Session()

    def request(self, method, url, **kwargs):
        kwargs.setdefault("timeout", self._timeout)
        for attempt in range(5):
            try:
                response = self._session.request(method=method, url=self._endpoint + url, headers=self._headers, **kwargs)
            except requests.Timeout:
                time.sleep(random.uniform(0, 2 ** attempt))
                continue
            return response.json()
