# select: RES101, RES102, RES105
import requests

from .container import ContainerApiMixin
from .image import ImageApiMixin

DEFAULT_TIMEOUT_SECONDS = 20


class APIClient(requests.Session, ContainerApiMixin, ImageApiMixin):
    """docker-py's client: a session with its API mixed in, whose wrappers fill in its timeout
    through a helper that returns the keyword arguments."""

    def __init__(self, base_url, timeout=DEFAULT_TIMEOUT_SECONDS):
        super().__init__()
        self.base_url = base_url
        self.timeout = timeout

    def _set_request_timeout(self, kwargs):
        kwargs.setdefault("timeout", self.timeout)
        return kwargs

    def _post(self, url, **kwargs):
        return self.post(url, **self._set_request_timeout(kwargs))

    def _get(self, url, **kwargs):
        return self.get(url, **self._set_request_timeout(kwargs))

    def _url(self, path):
        return self.base_url + path
