import time

import requests
from requests.adapters import HTTPAdapter
from urllib3 import Retry

TIMEOUT = (5, 30)


def build_api_session(token: str) -> requests.Session:
    session = requests.Session()
    # honours a 429's Retry-After, and hands the last 429 back once spent
    retry = Retry(total=3, backoff_factor=1, backoff_jitter=1, raise_on_status=False)
    session.mount("https://", HTTPAdapter(max_retries=retry))
    session.headers.update({"Authorization": f"Bearer {token}"})
    return session


def call_api(api_session: requests.Session, url: str) -> dict:
    # the annotation names the class; the caller's session carries the retries it mounted
    for attempt in range(4):
        response = api_session.get(url, timeout=TIMEOUT)  # expect: RES204 "up to 16 calls"
        if response.status_code != 429:
            break
        time.sleep(attempt + 1)
    response.raise_for_status()
    return response.json()


def sync(token: str, url: str) -> dict:
    return call_api(build_api_session(token), url)
