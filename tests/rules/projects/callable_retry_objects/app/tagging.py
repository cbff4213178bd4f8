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
