import requests
from django.conf import settings


class CatalogSession(requests.Session):
    """Every request gets the catalog timeout unless the call gives its own."""

    def request(self, method, url, **kwargs):
        kwargs.setdefault("timeout", settings.CATALOG_TIMEOUT)  # expect: RES104 "CATALOG_TIMEOUT = 10"
        return super().request(method, url, **kwargs)


def catalog_session():
    return CatalogSession()
