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

    def fetch_pair(self, url, timeout=30):
        """The body and the status as a pair, as tubearchivist's ``ElasticWrap.get`` hands them back."""
        res = requests.get(url, timeout=timeout)
        return res.json(), res.status_code
