from shop.db import engine, in_transaction
from shop.http import Supplier, get_bounded


@in_transaction
def refresh_prices(conn, skus):
    for sku in skus:
        price = get_bounded(f"https://prices.example/{sku}")  # expect: RES301 "until the call returns"
        conn.execute("UPDATE items SET price = %s WHERE sku = %s", (price, sku))


def sync_quotes(skus):
    with engine.connect() as conn:
        conn.execute("SELECT 1")
        for sku in skus:
            quote = Supplier().quote(sku)  # expect: RES301 "holds a DB connection until the call returns"
            conn.execute("UPDATE items SET quote = %s WHERE sku = %s", (quote, sku))
        conn.commit()


def quote_first(sku):
    quote = Supplier().quote(sku)
    with engine.begin() as conn:
        conn.execute("UPDATE items SET quote = %s WHERE sku = %s", (quote, sku))
