# select: RES301
from contextlib import contextmanager

from django.conf import settings
from django.db import transaction

from .http_client import HTTPClient


@contextmanager
def traced_atomic_transaction():
    with transaction.atomic():
        yield


def probe_media_url(media_url):
    with HTTPClient.send_request(
        "GET", media_url, stream=True, allow_redirects=False,
        timeout=settings.COMMON_REQUESTS_TIMEOUT,
    ) as response:
        return response.headers.get("content-type")


class ProductBulkCreate:
    @classmethod
    @traced_atomic_transaction()
    def perform_mutation(cls, media_url):
        return probe_media_url(media_url)  # expect: RES301 "for as long as `requests_hardened.Manager.send_request` waits: up to 20 s per attempt"
