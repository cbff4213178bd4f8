import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

SUPPLIER_RETRY = Retry(total=3, backoff_factor=0.5, backoff_jitter=0.5, status_forcelist=(502, 503, 504))


class SupplierSession(requests.Session):
    """Fills in a timeout for every request that gives none."""

    def request(self, method, url, **kwargs):
        kwargs.setdefault("timeout", (3.05, 10))
        return super().request(method, url, **kwargs)


def build_session():
    session = SupplierSession()
    session.mount("https://", HTTPAdapter(max_retries=SUPPLIER_RETRY))
    return session
