# select: RES201
import random
import time
import uuid

import urllib3
from tenacity import retry, retry_if_exception_type, stop_after_attempt, wait_random_exponential

from .pools import index_pool

index_retry = retry(
    stop=stop_after_attempt(5),
    wait=wait_random_exponential(multiplier=0.5, max=10),
    retry=retry_if_exception_type(urllib3.exceptions.HTTPError),
)


@index_retry
def submit(body):
    # the pool of another module is urllib3's: its request(method, url) sends a POST here
    return index_pool.request("POST", "https://index.example/docs", body=body)  # expect: RES201 "retried here by a tenacity retry"


def submit_keyed(body):
    key = str(uuid.uuid4())  # once per batch, before the loop: the same on every attempt
    for attempt in range(3):
        try:
            return index_pool.request("POST", "https://index.example/docs", body=body, headers={"Idempotency-Key": key})
        except urllib3.exceptions.HTTPError:
            if attempt == 2:
                raise
            time.sleep(random.uniform(0, 2 ** attempt))


@index_retry
def submit_keyed_again(body):
    # a key made on each call of a function its decorator retries: new on every attempt
    key = str(uuid.uuid4())
    return index_pool.request("POST", "https://index.example/docs", body=body, headers={"Idempotency-Key": key})  # expect: RES201 "created on each call"
