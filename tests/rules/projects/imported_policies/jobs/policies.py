import requests
from tenacity import Retrying, retry_if_exception_type, stop_after_attempt, wait_random_exponential

TRANSIENT = (requests.ConnectionError, requests.Timeout)

api_retrying = Retrying(
    stop=stop_after_attempt(4),
    wait=wait_random_exponential(max=5),
    retry=retry_if_exception_type(TRANSIENT),
    reraise=True,
)


def run_later(function, *args):
    return function(*args)
