# select: RES201
import requests

from stream.retry import request_with_retry


class FileStreamApi:
    def __init__(self, endpoint):
        self.endpoint = endpoint
        self.client = requests.Session()

    def send_final(self, exitcode):
        return request_with_retry(self.client.post, self.endpoint, json={"exitcode": exitcode}, timeout=10)  # expect: RES201 "`requests.Session.post` handed to `request_with_retry` sends a POST"

    def send_keyed(self, exitcode, key):
        return request_with_retry(
            self.client.post, self.endpoint, json={"exitcode": exitcode}, headers={"Idempotency-Key": key}, timeout=10,
        )

    def status(self):
        return request_with_retry(self.client.get, self.endpoint, timeout=10)
