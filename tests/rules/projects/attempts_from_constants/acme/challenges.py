# select: RES204
import random

import backoff
import tenacity
from retrying import retry

from acme.constants import ACME_ADDITIONAL_ATTEMPTS, DNS_TRIES
from acme.route53 import get_change


@retry(stop_max_attempt_number=ACME_ADDITIONAL_ATTEMPTS, wait_random_min=1000, wait_random_max=5000)
def finalize(change_id):
    return get_change(change_id)  # expect: RES204 "retrying 2 attempts (acme/challenges.py:12) x botocore client retries (max_attempts=20 retries) (acme/route53.py:6) = up to 42 calls"


@tenacity.retry(stop=tenacity.stop_after_attempt(DNS_TRIES), wait=tenacity.wait_random(0, 2))
def wait_for_dns(change_id):
    return get_change(change_id)  # expect: RES204 "tenacity 3 attempts"


@backoff.on_exception(backoff.expo, Exception, max_tries=DNS_TRIES)
def poll(change_id):
    return get_change(change_id)  # expect: RES204 "backoff 3 attempts"


def pause():
    return random.uniform(0, 1)
