import psycopg2

from bridge import settings
from bridge.partner import customer, partner_orders


def orders_connection():
    return psycopg2.connect(settings.ORDERS_DSN, connect_timeout=settings.PG_CONNECT_TIMEOUT)


def import_partner_orders(token, since):
    conn = orders_connection()
    with conn:
        with conn.cursor() as cur:
            cur.execute("SELECT max(updated_at) FROM partner_orders")
            orders = partner_orders(token, since)  # expect: RES301
            cur.executemany("INSERT INTO partner_orders (id, body) VALUES (%s, %s)", [(o["id"], o) for o in orders])


def refresh_customer(customer_id):
    conn = orders_connection()
    with conn:
        with conn.cursor() as cur:
            row = customer(customer_id)  # expect: RES301
            cur.execute("UPDATE customers SET body = %s WHERE id = %s", (row, customer_id))
