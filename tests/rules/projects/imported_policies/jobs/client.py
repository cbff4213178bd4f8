import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

session = requests.Session()
session.mount("https://", HTTPAdapter(max_retries=Retry(total=2, backoff_factor=0.5, backoff_jitter=1)))


def create(order):
    return session.post("https://api.example/orders", json=order, timeout=5)


def read(order_id):
    return session.get(f"https://api.example/orders/{order_id}", timeout=5)
