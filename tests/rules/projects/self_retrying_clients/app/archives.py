# select: RES204
from functools import lru_cache

import boto3
import tenacity

from app.aws import tables


@lru_cache(maxsize=None)
def s3():
    return boto3.resource("s3")


@tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_random(0, 1))
def upload(path, bucket, key):
    # the resource's parts send through its client, in whatever module it was made
    s3().Bucket(bucket).upload_file(path, key)  # expect: RES204 "x boto3 resource retries"


@tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_random(0, 1))
def store(item):
    return tables.Table("archive").put_item(Item=item)  # expect: RES204 "x boto3 resource retries (max_attempts=2 retries) (app/aws.py:16)"
