import requests


class Fetcher:
    """The project's own fetch wrapper: errors swallowed, the status handed back as text."""

    def __init__(self, proxy=None):
        self.proxy = proxy

    def fetch_url(self, url, timeout=30, headers=None):
        result = {"code": None, "content": None}
        try:
            res = requests.get(url, headers=headers or {}, timeout=timeout)
        except requests.RequestException:
            return result
        result["code"] = str(res.status_code)
        result["content"] = res.text
        return result
