import requests
from requests.adapters import HTTPAdapter
from urllib3 import Retry

_session = None


def get_session():
    global _session
    if _session is None:
        _session = requests.Session()
        _session.mount("https://", HTTPAdapter(max_retries=Retry(total=3, backoff_factor=0.5, backoff_jitter=1)))
    return _session
