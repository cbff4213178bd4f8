import functools

import requests
from requests.adapters import HTTPAdapter


class TimeoutSession(requests.Session):
    def request(self, method, url, **kwargs):
        kwargs.setdefault("timeout", 10)
        return super().request(method, url, **kwargs)


class TimeoutAdapter(HTTPAdapter):
    def send(self, request, **kwargs):
        kwargs["timeout"] = kwargs.get("timeout") or 10
        return super().send(request, **kwargs)


class DefaultTimeoutSession(requests.Session):
    def request(self, method, url, params=None, data=None, headers=None, cookies=None, files=None, auth=None,
                timeout=30, allow_redirects=True):
        return super().request(method, url, params, data, headers, cookies, files, auth, timeout, allow_redirects)


bounded = TimeoutSession()
defaulted = DefaultTimeoutSession()
mounted = requests.Session()
mounted.mount("https://", TimeoutAdapter())
plain = requests.Session()

get_with_timeout = functools.partial(requests.get, timeout=5)
get_without_timeout = functools.partial(requests.get, allow_redirects=False)
session_post = functools.partial(plain.post, timeout=(3.05, 10))
