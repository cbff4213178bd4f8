import functools

import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

TIMEOUT = (3.05, 10)


@functools.lru_cache(maxsize=None)
def plain_session():
    return requests.Session()


@functools.lru_cache(maxsize=None)
def retrying_session():
    session = requests.Session()
    session.mount("https://", HTTPAdapter(max_retries=Retry(total=3, backoff_factor=0.5, backoff_jitter=0.5)))
    return session
