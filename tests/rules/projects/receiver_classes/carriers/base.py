from carriers.http import TIMEOUT, plain_session


class Carrier:
    base_url = ""

    def __init__(self, session=None):
        self.session = session or plain_session()

    def _call(self, method, path, **kwargs):
        return self.session.request(method, self.base_url + path, timeout=TIMEOUT, **kwargs).json()

    def get(self, path):
        return self._call("GET", path)
