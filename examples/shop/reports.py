"""Nightly reports."""

import requests

from shop.settings import INVENTORY_URL


def nightly_totals():
    # This suppression outlived the call it was written for (RES001, opt-in).
    response = requests.get(f"{INVENTORY_URL}/totals", timeout=(3.05, 10))  # noqa: RES101
    return response.json()
