"""Certificates uploaded through clients the decorators inject."""
import logging

from tenacity import retry, retry_if_exception_type, stop_after_attempt, wait_random_exponential
from botocore.exceptions import ClientError

from ops.credentials import assumed_client, single_attempt_client, with_session

log = logging.getLogger(__name__)
throttled = retry(
    retry=retry_if_exception_type(ClientError), stop=stop_after_attempt(5), wait=wait_random_exponential(max=20),
    reraise=True,
)


@assumed_client("acm")
@throttled
def upload(name, body, key, **kwargs):
    client = kwargs.pop("client")
    return client.import_certificate(Certificate=body, PrivateKey=key)  # expect: RES204 "x botocore client retries (max_attempts=8 retries)"


@single_attempt_client("acm")
@throttled
def upload_once(name, body, key, **kwargs):
    client = kwargs["client"]
    return client.import_certificate(Certificate=body, PrivateKey=key)


@assumed_client("acm")
def describe(arn, **kwargs):
    return _describe(arn, **kwargs)


@throttled
def _describe(arn, **kwargs):
    client = kwargs.get("client")
    return client.describe_certificate(CertificateArn=arn)  # expect: RES204 "x botocore client retries (max_attempts=8 retries)"


@with_session
def notify(url, payload, **kwargs):
    http = kwargs["http"]
    return http.post(url, json=payload)  # expect: RES101


@throttled
def own_client(arn, **kwargs):
    client = kwargs.get("client")
    return client.describe_certificate(CertificateArn=arn)


@assumed_client("acm")
def wait_issued(arn, client=None):
    # ``client`` is a parameter of its own, which the decorator's wrapper fills in
    return client.describe_certificate(CertificateArn=arn)


@throttled
def renew(arn):
    return wait_issued(arn)  # expect: RES204 "x botocore client retries (max_attempts=8 retries)"
