"""The shipping carrier's API. Its session retries failed requests by itself."""

import requests
from requests.adapters import HTTPAdapter
from urllib3 import Retry

from shop.settings import CARRIER_URL, CARRIER_TIMEOUT

session = requests.Session()
session.mount("https://", HTTPAdapter(max_retries=Retry(total=3, backoff_factor=0.5, backoff_jitter=0.5)))


def track(parcel_id):
    return session.get(f"{CARRIER_URL}/parcels/{parcel_id}", timeout=CARRIER_TIMEOUT).json()
