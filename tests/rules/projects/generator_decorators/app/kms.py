import backoff
import boto3
import botocore.exceptions

from app.retryutil import handle_regions


@handle_regions
def key_details(session: boto3.session.Session, keys: list, region: str):
    # a generator: the decorator's retry only sees the generator made, the body runs later
    client = session.client("kms", region_name=region)
    for key in keys:
        yield key, client.get_key_policy(KeyId=key, PolicyName="default")


@backoff.on_exception(backoff.expo, botocore.exceptions.ClientError, max_tries=3)
def aliases(session: boto3.session.Session, region: str):
    client = session.client("kms", region_name=region)
    yield from client.list_aliases()["Aliases"]


@handle_regions
def key_list(session: boto3.session.Session, region: str) -> list:
    client = session.client("kms", region_name=region)
    return client.list_keys()["Keys"]  # expect: RES204
