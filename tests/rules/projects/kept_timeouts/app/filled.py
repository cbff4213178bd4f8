import requests


class ApiClient:
    # the timeout kept by __init__ is filled in for callers that pass none (hcloud-python)
    def __init__(self, token, *, endpoint, timeout=None):
        self._endpoint = endpoint
        self._headers = {"Authorization": f"Bearer {token}"}
        self._timeout = timeout
        self._session = requests.Session()

    def request(self, method, url, **kwargs):
        kwargs.setdefault("timeout", self._timeout)
        return self._session.request(method=method, url=self._endpoint + url, headers=self._headers, **kwargs).json()


class Servers:
    def __init__(self, client):
        self._client = client

    def get_all(self):
        return self._client.request(url="/servers", method="GET")
