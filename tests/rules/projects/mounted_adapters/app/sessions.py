import requests

from app.adapters import RateLimitAdapter, StrictTimeoutAdapter, TimeoutAdapter


class PacedSession(requests.Session):
    def __init__(self):
        super().__init__()
        self.mount("https://", RateLimitAdapter())


class BoundedSession(requests.Session):
    def __init__(self):
        super().__init__()
        self.mount("https://", TimeoutAdapter())


class StrictSession(requests.Session):
    def __init__(self):
        super().__init__()
        self.mount("https://", StrictTimeoutAdapter())
