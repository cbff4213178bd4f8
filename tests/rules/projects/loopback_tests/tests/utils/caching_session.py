import requests


class CachingSession(requests.Session):
    def request(self, method, url, params=None, timeout=None, retry_on_404=False):
        return super().request(method, url, params=params, timeout=timeout)
