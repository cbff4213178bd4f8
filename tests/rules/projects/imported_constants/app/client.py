# select: RES102, RES104, RES105
import httpx
import requests

from app import settings
from app.sessions import api_session, send
from app.settings import HTTP_TIMEOUT, SHORT_TIMEOUT, SPLIT_TIMEOUT, TUNED_TIMEOUT


def fetch(url):
    return requests.get(url, timeout=HTTP_TIMEOUT)  # expect: RES105 "HTTP_TIMEOUT = 120"


def fetch_through_module(url):
    return requests.get(url, timeout=settings.HTTP_TIMEOUT)  # expect: RES105


def fetch_short(url):
    return requests.get(url, timeout=SHORT_TIMEOUT)  # expect: RES104 "7.5 s"


def fetch_split(url):
    # split, and neither phase above max-timeout
    return requests.get(url, timeout=SPLIT_TIMEOUT)


def fetch_report(url):
    return requests.get(url, timeout=settings.REPORT_TIMEOUT)  # expect: RES105 "300 s in the read phase (REPORT_TIMEOUT = (5, 300))"


def fetch_unbounded(url):
    return requests.post(url, timeout=settings.FRAUD_TIMEOUT)  # expect: RES102 "FRAUD_TIMEOUT is None"


def fetch_through_a_factory(url):
    return api_session().get(url, timeout=settings.HTTP_TIMEOUT)  # expect: RES105 "HTTP_TIMEOUT = 120"


def fetch_sometimes_unbounded(url):
    # None on one assignment, a number on another: not one value
    return requests.get(url, timeout=settings.MAYBE_TIMEOUT)


def fetch_labels(url):
    # a tuple of strings is no timeout
    return requests.get(url, timeout=settings.LABELS)


def fetch_tuned(url):
    # set again at run time to what a caller gives: not one number
    return requests.get(url, timeout=TUNED_TIMEOUT)


def fetch_reexported(url):
    from app.defaults import LONG_TIMEOUT

    return requests.get(url, timeout=LONG_TIMEOUT)  # expect: RES105 "300 s"


def stream(url):
    return httpx.get(url, timeout=settings.STREAM_TIMEOUT)  # expect: RES102 "STREAM_TIMEOUT is httpx.Timeout with read=None"


def ping_slow_consumer(url):
    return requests.get(url, timeout=settings.SLOW_CONSUMER)  # expect: RES105 "120 s (SLOW_CONSUMER)"


def ping_through_a_wrapper(url):
    return send("GET", url, timeout=settings.SLOW_CONSUMER)  # expect: RES105 "(passed through `send`)"


def pull_backup(url):
    return requests.get(url, timeout=settings.BACKUP_TIMEOUT)  # expect: RES105 "150 s"
