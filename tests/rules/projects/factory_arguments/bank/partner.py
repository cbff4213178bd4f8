import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry


def _session(max_retries):
    session = requests.Session()
    session.mount("https://", HTTPAdapter(max_retries=max_retries))
    return session


# writes: the retry policies of the callers decide, the transport never repeats them
writes = _session(0)
# reads: urllib3 may retry a failed connect
reads = _session(Retry(total=2, backoff_factor=0.3, backoff_jitter=0.3))


def post_adjustment(account, amount):
    return writes.post("https://bank.example/adjustments", json={"account": account, "amount": amount}, timeout=5)


def balance(account):
    return reads.get(f"https://bank.example/accounts/{account}", timeout=5)


def send(method, url, session=None, **kwargs):
    session = session or writes
    return session.request(method, url, timeout=5, **kwargs)
