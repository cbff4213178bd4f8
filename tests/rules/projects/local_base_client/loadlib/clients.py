import requests


class HttpSession(requests.Session):
    def __init__(self, base_url, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.base_url = base_url

    def _build_url(self, path):
        if path.startswith("http"):
            return path
        return f"{self.base_url}{path}"

    def request(self, method, url, name=None, **kwargs):
        return super().request(method, self._build_url(url), **kwargs)
