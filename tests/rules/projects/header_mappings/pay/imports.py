"""A wrapper whose headers default to None: a caller that passes none sends no key."""
import random
import time

import requests


class Catalog:
    def __init__(self, base, session=None):
        self.base = base
        self.session = session or requests.Session()

    def _request(self, path, method="GET", data=None, headers=None):
        headers = headers or {}
        headers["Content-Type"] = "application/json"
        return self.session.request(method, self.base + path, data=data, headers=headers, timeout=(3.05, 10))

    def import_record(self, record):
        return self._request("/api/import", method="POST", data=record)

    def import_keyed(self, record, key):
        return self._request("/api/import", method="POST", data=record, headers={"Idempotency-Key": key})


def import_all(catalog: Catalog, records):
    for record in records:
        for attempt in range(5):
            try:
                catalog.import_record(record)  # expect: RES201 "`import_record` sends a POST"
                catalog.import_keyed(record, record["id"])
                break
            except requests.ConnectionError:
                time.sleep(random.uniform(0, 2 ** attempt))
