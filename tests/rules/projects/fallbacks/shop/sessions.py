import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry


def retrying_session():
    session = requests.Session()
    session.mount("https://", HTTPAdapter(max_retries=Retry(total=3, backoff_factor=0.5, backoff_jitter=1.0)))
    return session


def single_attempt_session():
    session = requests.Session()
    session.mount("https://", HTTPAdapter(max_retries=0))
    return session
