import requests


class PlainClient(requests.Session):
    def upload(self, url, **kwargs):
        return self.request("PUT", url, **kwargs)

    def request(self, method, url, **kwargs):
        kwargs.setdefault("timeout", 10)
        return super().request(method, url, **kwargs)
