import requests
from requests.auth import AuthBase


class HTTPAuthBase(AuthBase):
    def __init__(self, timeout=5):
        self.timeout = timeout

    def __call__(self, req):
        return req


class HttpSession(requests.Session):
    def request(self, method, url, params=None, data=None, headers=None, cookies=None,
                files=None, auth=None, timeout=None, allow_redirects=True, proxies=None,
                hooks=None, stream=None, verify=None, cert=None):
        a = auth or self.auth
        if timeout is None:
            timeout = a.timeout
        return super().request(method, url, params, data, headers, cookies, files, auth,
                               timeout, allow_redirects, proxies, hooks, stream, verify, cert)


class Backend:
    def __init__(self, host, timeout=5):
        self.base_url = f"https://{host}:8006/api2/json"
        self.auth = HTTPAuthBase(timeout=timeout)

    def get_session(self):
        session = HttpSession()
        session.auth = self.auth
        return session
