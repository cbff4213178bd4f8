import random
import time

import requests

WRITE_METHOD = "POST"


class ApiClient:
    def __init__(self, base):
        self.base = base
        self.session = requests.Session()

    def request(self, method, path, **kwargs):
        return self.session.request(method, self.base + path, timeout=10, **kwargs)

    def call(self, verb, path, **kwargs):
        return getattr(self.session, verb.lower())(self.base + path, timeout=10, **kwargs)

    def write(self, path, body):
        return getattr(self.session, WRITE_METHOD.lower())(self.base + path, json=body, timeout=10)


session = requests.Session()


def send(method, url, retry=False, **kwargs):
    if retry:
        for attempt in range(3):
            try:
                return session.request(method, url, timeout=5, **kwargs)
            except requests.ConnectionError:
                time.sleep(random.uniform(0, 2**attempt))
    return session.request(method, url, timeout=5, **kwargs)


HANDLERS = {"create": session.post, "read": session.get}
READERS = {"one": session.get, "all": session.get}
