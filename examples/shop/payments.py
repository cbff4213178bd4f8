"""Charging customers through the payments provider."""

import time
import uuid

import requests
import tenacity

from shop.settings import PAYMENTS_URL


class PaymentsClient:
    def __init__(self, api_key):
        self.session = requests.Session()
        self.session.headers["Authorization"] = f"Bearer {api_key}"

    def charge(self, order_id, amount_cents):
        # Retried on any failure, with no idempotency key: a lost response means a double charge.
        for attempt in range(5):
            try:
                response = self.session.post(
                    f"{PAYMENTS_URL}/charges",
                    json={"order": order_id, "amount": amount_cents},
                )
                response.raise_for_status()
                return response.json()
            except requests.RequestException:
                time.sleep(2 ** attempt)
        raise RuntimeError("payment failed")

    def refund(self, charge_id):
        headers = {"Idempotency-Key": str(uuid.uuid4())}
        return self.session.post(f"{PAYMENTS_URL}/refunds/{charge_id}", headers=headers, timeout=(3.05, 10))


@tenacity.retry(wait=tenacity.wait_fixed(2))
def capture(charge_id):
    return requests.post(f"{PAYMENTS_URL}/charges/{charge_id}/capture", timeout=10)
