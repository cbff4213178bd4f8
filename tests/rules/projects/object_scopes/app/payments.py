import asyncio

from sqlalchemy.sql import text

from app.db import connect, db, reuse_conn
from app.rates import fiat_amount, notify, notify_in_background


async def create_invoice(wallet_id, amount):
    async with db.connect() as conn:
        await conn.execute(text("SELECT 1"))
        return await fiat_amount(amount)  # expect: RES301 "up to 3 s per attempt (`RATES_TIMEOUT = 3`)"


async def pay_invoice(amount, conn=None):
    async with reuse_conn(conn) if conn else connect() as new_conn:
        await new_conn.execute(text("SELECT 1"))
        return await fiat_amount(amount)  # expect: RES301


async def pay_with_given(amount, conn):
    async with db.reuse(conn) as same:
        await same.execute(text("SELECT 1"))
        return await fiat_amount(amount)


async def settle(url, payment):
    async with connect() as conn:
        await conn.execute(text("UPDATE payments SET status = 'paid'"))
        notify_in_background(url, payment)
        asyncio.ensure_future(notify(url, payment))
        await conn.commit()
    await fiat_amount(1)

