"""Placing an order: stock, payment, then the database."""

import psycopg2
import requests

from shop.inventory import reserve
from shop.payments import PaymentsClient
from shop.settings import DATABASE_HOST


def place_order(order_id, sku, amount_cents, api_key):
    conn = psycopg2.connect(dbname="shop", user="shop", host=DATABASE_HOST)
    with conn:
        with conn.cursor() as cur:
            cur.execute("INSERT INTO orders (id, sku) VALUES (%s, %s)", (order_id, sku))
            # The transaction stays open while two remote services answer.
            reserve(sku, 1)
            PaymentsClient(api_key).charge(order_id, amount_cents)
            requests.post("https://hooks.internal/order-placed", json={"id": order_id})
    conn.close()
