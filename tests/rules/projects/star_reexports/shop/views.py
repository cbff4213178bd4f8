# select: RES101, RES105
import requests

from shop.http import fetch_json
from shop.limits import READ_TIMEOUT


def product(url):
    return fetch_json(url)  # expect: RES101


def price(url):
    return requests.get(url, timeout=READ_TIMEOUT)  # expect: RES105 "READ_TIMEOUT = 45"
