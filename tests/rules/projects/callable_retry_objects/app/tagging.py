import random
import time

import boto3
import urllib3
from botocore.config import Config

from app.retrying import with_retry


def tag_instance(client, role):
    # its client makes one attempt: the pool another caller hands the helper is not its
    client.create_tags(Resources=["i-1"], Tags=[{"Key": "Role", "Value": role}])


def notify(pool, url):
    return pool.request("GET", url, timeout=5)


def change(role):
    with_retry(tag_instance, boto3.client("ec2", config=Config(retries={"total_max_attempts": 1})), role)


def ping(url):
    with_retry(notify, urllib3.PoolManager(retries=urllib3.Retry(total=3)), url)


def sync(role):
    # the helper's loop, and below it only what `change` hands it (not `ping`'s retrying pool)
    for attempt in range(3):
        try:
            return change(role)  # expect: RES204 "a hand-written retry loop 3 attempts (app/tagging.py:30) x a hand-written retry loop 4 attempts (app/retrying.py:36) = up to 12 calls per operation"
        except OSError:
            time.sleep(random.uniform(0, 2 ** attempt))
