import requests


class Consumer:
    def __init__(self, api_host="api.example.com", request_timeout=None):
        self._url = f"https://{api_host}/track"
        self._request_timeout = request_timeout
        self._session = requests.Session()

    def send(self, data):
        return self._session.post(self._url, data=data, timeout=self._request_timeout)
