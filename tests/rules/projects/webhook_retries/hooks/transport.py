# select: RES201
from requests import RequestException

from hooks.http_client import HTTPClient


def send_webhook(url, data):
    try:
        response = HTTPClient.send_request("POST", url, data=data)
    except RequestException:
        return False
    return response.status_code < 300


def fetch_webhook(url):
    try:
        response = HTTPClient.send_request("GET", url)
    except RequestException:
        return False
    return response.status_code < 300


def handle_webhook_retry(celery_task):
    celery_task.retry(countdown=celery_task.retry_backoff * 2 ** celery_task.request.retries)


def reschedule(celery_task):
    celery_task.retry(countdown=3600)
