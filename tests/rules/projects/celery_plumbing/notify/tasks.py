import requests
from celery import Celery

from notify.helpers import RETRY_KWARGS, ProviderTask, SafeTask, retry_doubling, retry_jittered, retry_later

app = Celery("notify")
URL = "https://push.example"


@app.task(bind=True, base=ProviderTask)
def register_device(self, token):
    return requests.post(f"{URL}/devices", json={"token": token}, timeout=5)  # expect: RES201


@app.task(bind=True, base=SafeTask)
def read_device(self, device_id):
    return requests.get(f"{URL}/devices/{device_id}", timeout=5)


@app.task(bind=True, max_retries=None)  # expect: RES203
def deliver_webhook(self, url, payload):
    try:
        return requests.post(url, json=payload, timeout=5)  # expect: RES201
    except requests.RequestException as exc:
        retry_later(self, exc)


@app.task(bind=True, max_retries=5)
def refresh_feed(self, url):
    try:
        return requests.get(url, timeout=5)
    except requests.RequestException as exc:
        retry_doubling(self, exc)


@app.task(bind=True, max_retries=5)
def deliver_twice(self, url, payload):
    try:
        return requests.get(url, timeout=5)
    except requests.RequestException as exc:
        retry_jittered(self, exc)


@app.task(bind=True)
def sync_preferences(self, user_id):
    try:
        return requests.get(f"{URL}/prefs/{user_id}", timeout=5)
    except requests.RequestException as exc:
        raise self.retry(exc=exc, **RETRY_KWARGS)  # expect: RES202 "countdown=60"
