from requests import Session


class HTTPSession(Session):
    def __init__(self):
        super().__init__()
        self.timeout = 20.0

    def request(self, method, url, timeout=None, **kwargs):
        timeout = timeout or self.timeout
        return super().request(method, url, timeout=timeout, **kwargs)


class PlainSession(Session):
    pass
