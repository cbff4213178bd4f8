import requests


class TimeoutHTTPAdapter(requests.adapters.HTTPAdapter):
    def __init__(self, *args, timeout=None, **kwargs):
        self.timeout = timeout
        super().__init__(*args, **kwargs)

    def send(self, *args, **kwargs):
        kwargs["timeout"] = self.timeout
        return super().send(*args, **kwargs)


def create_request_session(timeout) -> requests.Session:
    session = requests.Session()
    adapter = TimeoutHTTPAdapter(timeout=timeout)
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    return session
