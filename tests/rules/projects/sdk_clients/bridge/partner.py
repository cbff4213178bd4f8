from tenacity import retry, retry_if_exception_type, stop_after_attempt, wait_random_exponential
import requests

from bridge import settings
from bridge.clients import HTTP, erp, partner_session


def partner_orders(token, since):
    resp = partner_session(token).get(f"{settings.PARTNER_API}/orders", params={"since": since})  # expect: RES101 "requests waits forever"
    resp.raise_for_status()
    return resp.json()


def new_token(token):
    return partner_session(token).fetch_token(f"{settings.PARTNER_API}/token")  # expect: RES101


@retry(stop=stop_after_attempt(3), wait=wait_random_exponential(max=4), retry=retry_if_exception_type(requests.ConnectionError))
def partner_ack(token, order_id):
    return partner_session(token).post(f"{settings.PARTNER_API}/orders/{order_id}/ack", timeout=settings.HTTP_TIMEOUT)  # expect: RES201


def webhook_target(url):
    return HTTP.send_request("GET", url, allow_redirects=False)


def customer(customer_id):
    return erp.customers(customer_id).get()
