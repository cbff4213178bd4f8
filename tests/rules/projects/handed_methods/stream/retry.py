import random
import time

import requests


def request_with_retry(func, *args, **kwargs):
    # wandb's file stream: the method and its arguments are handed in, and called again
    delay = 2
    for _ in range(30):
        try:
            response = func(*args, **kwargs)
            response.raise_for_status()
            return response
        except (requests.ConnectionError, requests.Timeout, requests.HTTPError):
            time.sleep(delay + random.random() * delay)
            delay *= 2
    return None
