import boto3
from botocore.config import Config


def get_change(change_id):
    client = boto3.client("route53", config=Config(retries={"max_attempts": 20}))
    return client.get_change(Id=change_id)
