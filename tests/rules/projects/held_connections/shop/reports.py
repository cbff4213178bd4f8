"""psycopg2 connections from a helper: ``with conn:`` ends the transaction, the connection stays."""
import psycopg2
import requests

from shop.http import get_bounded


def replica_conn():
    return psycopg2.connect("dbname=replica", connect_timeout=5)


def refund_totals(day):
    with replica_conn() as conn:
        with conn.cursor() as cur:
            cur.execute("SELECT currency, sum(amount) FROM refunds WHERE day = %s GROUP BY 1", (day,))
            totals = dict(cur.fetchall())
    requests.post("https://hooks.example/refunds", json=totals, timeout=5)
    return totals


def refund_totals_inside(day):
    with replica_conn() as conn:
        with conn.cursor() as cur:
            cur.execute("SELECT currency, sum(amount) FROM refunds WHERE day = %s GROUP BY 1", (day,))
            get_bounded("https://rates.example/today")  # expect: RES301
            return dict(cur.fetchall())
