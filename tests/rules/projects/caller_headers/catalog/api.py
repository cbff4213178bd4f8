# select: RES201
import requests

T = (3.05, 20)


class CatalogError(Exception):
    pass


class Catalog:
    def __init__(self, base_url):
        self.base_url = base_url
        self.cookie = None

    def _request(self, path, method="GET", data=None, headers=None):
        headers = headers or {}
        if self.cookie:
            headers["Cookie"] = self.cookie
        response = requests.request(method, self.base_url + path, data=data, headers=headers, timeout=T)
        if response.status_code >= 500:
            raise CatalogError(response.status_code)
        return response

    def import_record(self, record):
        headers = {"Content-Type": "application/json"}  # read in full: no Idempotency-Key
        return self._request("/api/import", method="POST", data=record, headers=headers)

    def import_inline(self, record):
        return self._request("/api/import", method="POST", data=record, headers={"Content-Type": "application/json"})

    def import_keyed(self, record, key):
        return self._request("/api/import", method="POST", data=record, headers={"Idempotency-Key": key})
