import time

import requests

from .checks import check_response_code, check_server
from .errors import RateLimitError, ServerError

TIMEOUT = (3, 15)


class RestSession:
    def __init__(self):
        self._session = requests.Session()

    def request(self, method, url, erc, **kwargs):
        while True:
            response = self._session.request(method, url, timeout=TIMEOUT, **kwargs)
            try:
                check_response_code(response, erc)
            except RateLimitError as e:
                time.sleep(e.retry_after)
                continue
            return response

    def post(self, url, json=None):
        return self.request("POST", url, 200, json=json).json()

    def server_retried(self, method, url, **kwargs):
        for _ in range(3):
            response = self._session.request(method, url, timeout=TIMEOUT, **kwargs)
            try:
                check_server(response)
            except ServerError:
                time.sleep(1)
                continue
            return response

    def post_again(self, url, json=None):
        # a 5xx may come after the server acted on the POST
        return self.server_retried("POST", url, json=json).json()  # expect: RES201
