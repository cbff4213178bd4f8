import backoff
import requests
import tenacity
from celery import shared_task

ON_NETWORK = tenacity.retry_if_exception_type(requests.ConnectionError)

api_retry = tenacity.retry(stop=tenacity.stop_after_attempt(5), wait=tenacity.wait_fixed(2), retry=ON_NETWORK, reraise=True)  # expect: RES202
net_backoff = backoff.on_exception(backoff.expo, requests.ConnectionError, max_tries=4)
forever = tenacity.retry(wait=tenacity.wait_random(0, 1), retry=ON_NETWORK)  # expect: RES203
retrying_task = shared_task(autoretry_for=(requests.RequestException,), retry_backoff=True, max_retries=3)
catch_all = tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_random(0, 1), reraise=True)  # expect: RES205
