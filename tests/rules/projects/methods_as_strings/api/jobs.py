import tenacity

from api.client import HANDLERS, READERS, ApiClient, send

client = ApiClient("https://api.example")
retried = tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_random(0, 1), reraise=True)


@retried
def create_order(order):
    return client.request("POST", "/orders", json=order)  # expect: RES201


@retried
def read_order(order_id):
    return client.request("GET", f"/orders/{order_id}")


@retried
def update_order(order_id, data):
    return client.call("PATCH", f"/orders/{order_id}", json=data)  # expect: RES201


@retried
def create_with_key(order, key):
    return client.request("POST", "/orders", json=order, headers={"Idempotency-Key": key})


@retried
def archive(order_id):
    return client.write(f"/orders/{order_id}/archive", {})  # expect: RES201


def notify(url, event):
    return send("POST", url, retry=True, json=event)  # expect: RES201


def notify_once(url, event):
    return send("POST", url, json=event)


def poll(url):
    return send("GET", url, retry=True)


@retried
def dispatch(action, url, data):
    return HANDLERS[action](url, json=data, timeout=5)  # expect: RES201


@retried
def read(kind, url):
    return READERS[kind](url, timeout=5)
