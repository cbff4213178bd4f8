import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry


class BaseClient:
    timeout = 10
    events = requests.Session()

    def __init__(self, base_url):
        self.base_url = base_url
        self.session = requests.Session()
        self.session.mount("https://", HTTPAdapter(max_retries=Retry(total=3, backoff_factor=0.5, backoff_jitter=1)))

    @property
    def http(self):
        return self.session

    def fetch_file(self, path):
        return self.session.get(f"{self.base_url}/files/{path}", timeout=self.timeout)
