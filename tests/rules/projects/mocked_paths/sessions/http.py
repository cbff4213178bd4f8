import requests


class ConfiguredSession(requests.Session):
    def request(self, *args, **kwargs):
        kwargs.update({"allow_redirects": False})
        return super().request(*args, **kwargs)


requests_session = ConfiguredSession()

