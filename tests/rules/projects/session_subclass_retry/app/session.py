import random
import time

from requests import Response, Session
from requests.exceptions import ConnectionError

from app.settings import HTTP_TIMEOUT


class ResilientSession(Session):
    """Retries every request (any method) on ConnectionError and on 503: `post` runs it too."""

    def __init__(self, timeout=HTTP_TIMEOUT, max_retries: int = 3):
        self.timeout = timeout
        self.max_retries = max_retries
        super().__init__()

    def request(self, method, url, **kwargs) -> Response:
        retry_number = 0
        exception = None
        response = None
        while retry_number <= self.max_retries:
            response = None
            exception = None
            try:
                response = super().request(method, url, timeout=self.timeout, **kwargs)
                if response.ok:
                    return response
            except ConnectionError as e:
                exception = e
            retry_number += 1
            if retry_number <= self.max_retries and self._recoverable(response, exception):
                time.sleep(min(60, 10 * 2**retry_number) * random.uniform(0.5, 1.0))
            else:
                retry_number = self.max_retries + 1
        if exception is not None:
            raise exception
        response.raise_for_status()
        return response

    def _recoverable(self, response, exception):
        if exception is not None:
            return True
        return response is not None and response.status_code == 503
