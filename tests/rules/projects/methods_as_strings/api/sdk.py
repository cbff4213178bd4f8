"""An SDK base client whose loop runs once unless the caller asks for retries, and retries
some statuses by a name of codes."""
import random
import time

import requests
import tenacity

RETRYABLE_STATUS = (429, 502, 503, 504)


class BaseClient:
    def __init__(self, session, max_attempts=3):
        self.session = session
        self.max_attempts = max_attempts

    def _send(self, method, path, *, retry=False, **kwargs):
        attempts = self.max_attempts if retry else 1
        for attempt in range(attempts):
            try:
                response = self.session.request(method, path, **kwargs)
            except (requests.ConnectionError, requests.Timeout):
                if attempt == attempts - 1:
                    raise
            else:
                if response.status_code not in RETRYABLE_STATUS or attempt == attempts - 1:
                    return response
            time.sleep(random.uniform(0, 2 ** attempt))


class Members:
    def __init__(self, client: BaseClient):
        self._client = client

    def create(self, email):
        return self._client._send("POST", "/members", json={"email": email}, retry=True)  # expect: RES201 "is retried in `_send`"

    def create_once(self, email):
        return self._client._send("POST", "/members", json={"email": email})

    def retrieve(self, member_id):
        return self._client._send("GET", f"/members/{member_id}", retry=True)


members = Members(BaseClient(requests.Session()))
api_retry = tenacity.retry(stop=tenacity.stop_after_attempt(4), wait=tenacity.wait_random(0, 2), retry=tenacity.retry_if_exception_type(requests.ConnectionError), reraise=True)


@api_retry
def member_page(member_id):
    return members._client._send("GET", f"/members/{member_id}", retry=True)  # expect: RES204 "x a hand-written retry loop"


@api_retry
def member_page_once(member_id):
    return members._client._send("GET", f"/members/{member_id}")
