# select: RES101, RES102, RES105
from functools import partial

import requests


class Context:
    def __init__(self, quiet: bool = False, request_timeout: float = 300.0):
        self.quiet = quiet
        self.request_timeout = request_timeout
        self._session = self.anonymous_session()

    def anonymous_session(self) -> requests.Session:
        session = requests.Session()
        # every request of the session sends the timeout the context was made with
        session.request = partial(session.request, timeout=self.request_timeout)
        return session

    def get_json(self, path, params):
        return self._session.get("https://www.example.com/" + path, params=params).json()
