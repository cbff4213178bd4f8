"""The retries library clients add by themselves (libraries/client_retries.py,
grpc_retries.py), as RES204 counts them: the fixture project ``self_retrying_clients`` shows
each client across modules, these the edges of reading their settings."""

from __future__ import annotations

import textwrap
from typing import List, Tuple

import pytest

from resilint.libraries.client_retries import library_setting
from resilint.lint.checker import check_source

RETRY = "@tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_random(0, 1), reraise=True)"


def nested(source: str) -> List[Tuple[int, str]]:
    code = textwrap.dedent(source).lstrip("\n").replace("@RETRY", RETRY)
    return [(f.line, f.message) for f in check_source(code, ["RES204"])]


def total(source: str) -> str:
    """The product a single RES204 finding states ("" when there is none)."""
    found = nested(source)
    assert len(found) <= 1, found
    if not found:
        return ""
    message = found[0][1]
    return message[message.index(" = ") + 3:message.index(" per operation")]


@pytest.mark.parametrize("retries, calls", [
    ('{"total_max_attempts": 2, "max_attempts": 9}', "up to 6 calls"),  # total_max_attempts wins
    ('{"max_attempts": 0, "mode": "standard"}', ""),
    ('{"total_max_attempts": 1}', ""),
    ('dict(max_attempts=3)', "up to 12 calls"),
    ('{"mode": "adaptive"}', "an unknown number of calls"),  # the mode's default, or AWS_MAX_ATTEMPTS
    ('{"max_attempts": settings.RETRIES}', "an unknown number of calls"),
])
def test_botocore_counts_total_attempts_or_retries_after_the_first(retries, calls):
    assert total(f"""
        import boto3, tenacity
        from botocore.config import Config
        from app import settings
        sqs = boto3.client("sqs", config=Config(read_timeout=5, retries={retries}))
        @RETRY
        def send(body):
            return sqs.send_message(QueueUrl="q", MessageBody=body)
        """) == calls


def test_a_botocore_config_that_is_not_readable_leaves_the_count_unknown():
    assert total("""
        import boto3, tenacity
        def make(config):
            return boto3.client("s3", config=config)
        @RETRY
        def head(key):
            return make(None).head_object(Bucket="b", Key=key)
        """) == "an unknown number of calls"


@pytest.mark.parametrize("built, calls", [
    ("AzureOpenAI(timeout=5)", "up to 9 calls"),
    ("OpenAI(timeout=5, **load_options())", "an unknown number of calls"),  # the options may set it
    ("OpenAI(timeout=5, **options)", "up to 9 calls"),  # a dict written out without the setting: the default
    ("OpenAI(timeout=5, max_retries=False)", ""),
    ("OpenAI(timeout=5).with_options(max_retries=0)", ""),
    ("OpenAI(timeout=5, max_retries=0).with_options(max_retries=1)", "up to 6 calls"),
])
def test_openai_max_retries(built, calls):
    assert total(f"""
        import tenacity
        from openai import AzureOpenAI, OpenAI
        options = {{}}
        @RETRY
        def ask(text):
            return {built}.chat.completions.create(model="m", messages=[text])
        """) == calls


def test_a_request_through_options_uses_its_retries():
    assert total("""
        import tenacity
        from elasticsearch import Elasticsearch
        es = Elasticsearch("http://es:9200", max_retries=0)
        @RETRY
        def find(query):
            return es.options(max_retries=2).search(index="i", query=query)
        """) == "up to 9 calls"


@pytest.mark.parametrize("built, calls", [
    ('redis.from_url("redis://cache", retry_on_timeout=True)', "an unknown number of calls"),
    ('redis.Redis(retry=Retry(NoBackoff(), 2), connection_pool=pool)', ""),  # the pool's settings apply
    ('redis.Redis(retry_on_error=[redis.ConnectionError], retry=None)', "up to 6 calls"),
    ('redis.Redis(retry=settings.RETRY)', ""),  # a retry the file cannot read
    ('redis.Redis(retry_on_timeout=False)', ""),
])
def test_redis_retry_settings(built, calls):
    assert total(f"""
        import redis, tenacity
        from redis.backoff import NoBackoff
        from redis.retry import Retry
        from app import settings
        pool = redis.ConnectionPool()
        client = {built}
        @RETRY
        def bump(name):
            return client.incr(name)
        """) == calls


@pytest.mark.parametrize("call, calls", [
    ('pool.request("GET", url, retries=urllib3.Retry(total=1))', "up to 6 calls"),  # the request's own
    ('pool.request("GET", url, retries=0)', ""),
    ('pool.request("GET", url, retries=None)', "up to 12 calls"),  # None: the pool's
    ('urllib3.request("GET", url, retries=2)', "up to 9 calls"),
    ('pool.urlopen("GET", url)', "up to 12 calls"),
    ('pool.clear()', ""),
])
def test_urllib3_requests_may_replace_the_pools_retries(call, calls):
    assert total(f"""
        import tenacity, urllib3
        pool = urllib3.PoolManager(retries=urllib3.Retry(total=3), timeout=urllib3.Timeout(total=5))
        @RETRY
        def fetch(url):
            return {call}
        """) == calls


def test_storage_default_retry_is_a_google_api_core_retry():
    found = nested("""
        import tenacity
        from google.cloud import storage
        from google.cloud.storage.retry import DEFAULT_RETRY
        @RETRY
        def download(blob, path):
            blob.download_to_filename(path, retry=DEFAULT_RETRY, timeout=30)
        @RETRY
        def download_quickly(blob, path):
            blob.download_to_filename(path, retry=DEFAULT_RETRY.with_timeout(10.0), timeout=30)
        @RETRY
        def download_once(blob, path):
            blob.download_to_filename(path, timeout=30)
        """)
    assert [(line, "until its timeout" in m, "for up to 10 s" in m) for line, m in found] == [
        (6, True, False), (9, False, True),
    ]


GRPC = """
    import grpc, json, tenacity
    from app.protos.stock_pb2_grpc import StockStub
    {config}
    def channel():
        return grpc.intercept_channel(grpc.insecure_channel("stock:443", options={options}), object())
    @RETRY
    def reserve(sku):
        return StockStub(channel()).Reserve(sku, timeout=3)
"""


@pytest.mark.parametrize("config, options, calls", [
    ('CONFIG = {"methodConfig": [{"name": [{"service": "inventory.Stock"}], "retryPolicy": {"maxAttempts": 3}}]}',
     '[("grpc.service_config", json.dumps(CONFIG))]', "up to 9 calls"),
    ('CONFIG = {"methodConfig": [{"name": [{"service": "inventory.Audit"}], "retryPolicy": {"maxAttempts": 3}}]}',
     '[("grpc.service_config", json.dumps(CONFIG))]', ""),  # another service's policy
    ('CONFIG = {"methodConfig": [{"retryPolicy": {"maxAttempts": 3}}]}',
     '(("grpc.service_config", json.dumps(CONFIG)), ("grpc.enable_retries", False))', ""),
    ('CONFIG = {"methodConfig": [{"name": [{}], "retryPolicy": {"maxAttempts": ATTEMPTS}}]}',
     '[("grpc.service_config", json.dumps(CONFIG))]', "an unknown number of calls"),
    ('CONFIG = open("service_config.json").read()',
     '[("grpc.service_config", CONFIG)]', ""),  # the file cannot tell whether it retries
    ('CONFIG = "{not json"', '[("grpc.service_config", CONFIG)]', ""),
])
def test_grpc_retry_policy(config, options, calls):
    assert total(GRPC.format(config=config, options=options)) == calls


@pytest.mark.parametrize("name, setting", [
    ("stripe.PaymentIntent.create", "stripe.max_network_retries"),
    ("stripe.checkout.Session.create", "stripe.max_network_retries"),
    ("stripe.Customer.list", "stripe.max_network_retries"),
    ("stripe.Webhook.construct_event", None),
    ("stripe.error.CardError", None),
    ("stripe.Customer.construct_from", None),
    ("stripe.StripeClient.customers.create", None),  # the client's own setting
    ("requests.get", None),
])
def test_stripe_module_requests_retry_as_the_module_setting_says(name, setting):
    assert library_setting(name) == setting


def test_an_unreadable_stripe_setting_is_a_layer_of_unknown_count():
    found = nested("""
        import stripe, tenacity
        from app import settings
        stripe.max_network_retries = settings.STRIPE_RETRIES
        @RETRY
        def charge(amount, key):
            return stripe.Charge.create(amount=amount, idempotency_key=key)
        """)
    assert len(found) == 1 and "x stripe.max_network_retries = settings.STRIPE_RETRIES" in found[0][1]


def test_stripe_setting_switched_off():
    assert total("""
        import stripe, tenacity
        stripe.max_network_retries = 0
        @RETRY
        def charge(amount, key):
            return stripe.Charge.create(amount=amount, idempotency_key=key)
        """) == ""


def test_what_a_request_returned_is_not_the_client():
    # a botocore operation's dict, a boto3 resource action's dict and an OpenAI answer's text:
    # their methods are not requests, so only the request itself is under the client's retries
    assert [line for line, _ in nested(
        """
        import boto3, openai, tenacity

        @RETRY
        def domains():
            client = boto3.client("es")
            data = client.list_domain_names()
            return data.get("DomainNames")

        @RETRY
        def keys(bucket):
            client = boto3.client("s3")
            pages = client.get_paginator("list_objects_v2").paginate(Bucket=bucket)
            return [page["Contents"] for page in pages]

        @RETRY
        def body(bucket, key):
            obj = boto3.resource("s3").Object(bucket, key)
            answer = obj.get()
            return answer.get("Body")

        @RETRY
        def ask(prompt):
            client = openai.OpenAI()
            reply = client.chat.completions.create(model="m", messages=[prompt])
            text = reply.choices[0].message.content
            return text.strip()
        """
    )] == [6, 12, 18, 24]
