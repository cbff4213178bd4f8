import requests

from app.retrying import logged, retry_forever, with_retries
from app.session import session

URL = "https://api.example/orders"


@with_retries(attempts=5)
def create(order):
    return requests.post(URL, json=order, timeout=5)  # expect: RES201


@with_retries(5)
def read(order_id):
    return session.get(f"{URL}/{order_id}", timeout=5)  # expect: RES204 "a hand-written retry loop 5 attempts (app/retrying.py:12) x urllib3 Retry total=2 (app/session.py:6) = up to 15 calls"


@with_retries()
def read_default(order_id):
    return session.get(f"{URL}/{order_id}", timeout=5)  # expect: RES204 "= up to 9 calls"


@retry_forever
def update(order):
    return requests.patch(URL, json=order, timeout=5)  # expect: RES201


@logged
def delete(order_id):
    return requests.post(f"{URL}/{order_id}/delete", timeout=5)


@with_retries(attempts=3)
def sync_all(order_ids):
    return [read(i) for i in order_ids]  # expect: RES204 "3 attempts (app/retrying.py:12) x a hand-written retry loop 5 attempts"


@with_retries(1)
def read_once(order_id):
    return session.get(f"{URL}/{order_id}", timeout=5)
