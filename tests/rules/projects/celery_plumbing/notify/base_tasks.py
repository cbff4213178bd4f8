import requests
from celery import Task, shared_task
from requests.exceptions import RequestException

REQUEST_TIMEOUT = (1, 5)


class ZerotierService:
    def __init__(self, host, token):
        self.url = f"https://{host}/controller/network"
        self.headers = {"X-ZT1-Auth": token}

    def update_network(self, config):
        return requests.post(self.url, json=config, headers=self.headers, timeout=REQUEST_TIMEOUT)


class ApiTask(Task):
    def handle_api_call(self, fn, *args):
        return fn(*args)


# ``self`` of a bound task is an instance of its ``base=`` class
@shared_task(bind=True, base=ApiTask, autoretry_for=(RequestException,), max_retries=5, retry_backoff=True)
def update_network(self, host, token, config):
    self.handle_api_call(ZerotierService(host, token).update_network, config)  # expect: RES201


@shared_task(bind=True, base=ApiTask, max_retries=5)
def update_network_once(self, host, token, config):
    self.handle_api_call(ZerotierService(host, token).update_network, config)
