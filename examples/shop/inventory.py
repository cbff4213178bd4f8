"""Stock levels, from the inventory service."""

import httpx
import requests

from shop.settings import INVENTORY_URL

RESERVE_TIMEOUT = None  # "use the default" -- which for requests means waiting forever
REPORT_TIMEOUT = 300


def make_session():
    return requests.Session()


def stock_level(sku):
    session = make_session()
    return session.get(f"{INVENTORY_URL}/stock/{sku}").json()["level"]


def reserve(sku, quantity):
    response = make_session().put(
        f"{INVENTORY_URL}/stock/{sku}/reservations", json={"quantity": quantity}, timeout=RESERVE_TIMEOUT
    )
    return response.status_code == 201


def export_report():
    with httpx.Client(timeout=None) as client:
        return client.get(f"{INVENTORY_URL}/report", timeout=REPORT_TIMEOUT).content
