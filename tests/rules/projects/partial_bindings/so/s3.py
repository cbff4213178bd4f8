# The client reaches the retry loop only as what a functools.partial binds (smart_open's
# iter_bucket handing _download_key to an executor).
import functools

import boto3
import botocore.client
import botocore.exceptions

import so.concurrency


def iter_bucket(bucket_name, keys, workers=4, retries=3, session_kwargs=None, client_kwargs=None):
    if session_kwargs is None:
        session_kwargs = {}
    session = boto3.session.Session(**session_kwargs)
    if client_kwargs is None:
        client_kwargs = {}
    if "config" not in client_kwargs:
        client_kwargs["config"] = botocore.client.Config(
            tcp_keepalive=True,
            retries={"max_attempts": retries * 2, "mode": "adaptive"},
        )
    client = session.client("s3", **client_kwargs)
    download_key = functools.partial(_download_key, bucket_name=bucket_name, retries=retries, client=client)
    with so.concurrency.ThreadPoolExecutor(workers) as executor:
        for key, content in executor.imap(download_key, keys):
            yield key, content


def _download_key(key_name, *, client, bucket_name, retries):
    for x in range(retries + 1):
        try:
            content_bytes = _download_fileobj(client=client, bucket_name=bucket_name, key_name=key_name)  # expect: RES204 "x botocore client retries"
        except botocore.exceptions.ClientError as err:
            if "Error" in err.response and err.response["Error"].get("Code") == "404":
                return None, None
            if x == retries:
                raise
            continue
        return key_name, content_bytes
    return None


def _download_fileobj(*, client, bucket_name, key_name):
    client.download_fileobj(Bucket=bucket_name, Key=key_name, Fileobj=None)
    return b""
