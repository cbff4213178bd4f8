# select: RES201
import uuid

from .http import HTTPClient


class Issues:
    def __init__(self, http: HTTPClient):
        self._http = http

    def create(self, title):
        # the decorator of ``request`` retries the POST; the headers are this call's
        return self._http.post("/issues", json={"title": title})  # expect: RES201 "through `request`"

    def close(self, number):
        return self._http.request("POST", f"/issues/{number}/close")  # expect: RES201 "retried in `request`"

    def comment(self, number, body, key):
        return self._http.post(f"/issues/{number}/comments", json={"body": body}, headers={"Idempotency-Key": key})

    def label(self, number, name):
        # one key for the operation, made before the retry starts: the same on every attempt
        return self._http.post(f"/issues/{number}/labels", json=[name], headers={"Idempotency-Key": str(uuid.uuid4())})

    def read(self, number):
        return self._http.request("GET", f"/issues/{number}")
