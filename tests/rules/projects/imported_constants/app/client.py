# select: RES104, RES105
import requests

from app import settings
from app.settings import HTTP_TIMEOUT, SHORT_TIMEOUT, SPLIT_TIMEOUT, TUNED_TIMEOUT


def fetch(url):
    return requests.get(url, timeout=HTTP_TIMEOUT)  # expect: RES105 "HTTP_TIMEOUT = 120"


def fetch_through_module(url):
    return requests.get(url, timeout=settings.HTTP_TIMEOUT)  # expect: RES105


def fetch_short(url):
    return requests.get(url, timeout=SHORT_TIMEOUT)  # expect: RES104 "7.5 s"


def fetch_split(url):
    # a tuple the summaries do not read: unknown, not flagged
    return requests.get(url, timeout=SPLIT_TIMEOUT)


def fetch_tuned(url):
    # set again at run time to what a caller gives: not one number
    return requests.get(url, timeout=TUNED_TIMEOUT)


def fetch_reexported(url):
    from app.defaults import LONG_TIMEOUT

    return requests.get(url, timeout=LONG_TIMEOUT)  # expect: RES105 "300 s"
