# select: RES201
import random
import time

from sdk.session import pinned_session


class ServerError(Exception):
    pass


class Transport:
    # dropbox-sdk-python: the session comes from another module's factory
    def __init__(self, refresh_token, app_key, retries=4):
        self._refresh_token = refresh_token
        self._app_key = app_key
        self._retries = retries
        self._session = pinned_session()

    def refresh_access_token(self, url):
        # an OAuth token request: sent again, it mints another token
        body = {"grant_type": "refresh_token", "refresh_token": self._refresh_token, "client_id": self._app_key}
        attempt = 0
        while True:
            res = self._session.post(url, data=body, timeout=10)
            try:
                self.raise_for_status(res)
                return res.json()["access_token"]
            except ServerError:
                attempt += 1
                if attempt > self._retries:
                    raise
                time.sleep(2**attempt * random.random())

    def upload(self, url, payload):
        attempt = 0
        while True:
            res = self._session.post(url, data=payload, timeout=10)  # expect: RES201
            try:
                self.raise_for_status(res)
                return res.json()
            except ServerError:
                attempt += 1
                if attempt > self._retries:
                    raise
                time.sleep(2**attempt * random.random())

    def raise_for_status(self, res):
        if res.status_code >= 500:
            raise ServerError(res.status_code)
