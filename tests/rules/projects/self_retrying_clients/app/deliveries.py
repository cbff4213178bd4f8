import httpx
from tenacity import retry, retry_if_exception_type, stop_after_attempt, wait_random_exponential

from app.transports import MadeWhenMissing, PlainTransport, transport


@retry(stop=stop_after_attempt(3), wait=wait_random_exponential(max=10), retry=retry_if_exception_type(httpx.TransportError))
def deliver(url):
    return transport().send("GET", url)  # expect: RES204 "tenacity 3 attempts (app/deliveries.py:7) x httpx transport retries=2"


@retry(stop=stop_after_attempt(3), wait=wait_random_exponential(max=10), retry=retry_if_exception_type(httpx.TransportError))
def deliver_made_when_missing(url):
    return MadeWhenMissing().send("GET", url)  # expect: RES204 "= up to 9 calls"


@retry(stop=stop_after_attempt(3), wait=wait_random_exponential(max=10), retry=retry_if_exception_type(httpx.TransportError))
def deliver_plain(url):
    return PlainTransport().send("GET", url)
