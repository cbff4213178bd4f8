import logging

import httpx

logger = logging.getLogger(__name__)
TIMEOUT = 10


async def dispatch_webhook(url, payment):
    async with httpx.AsyncClient() as client:
        r = await client.post(url, json=payment, timeout=TIMEOUT)
        r.raise_for_status()


async def notify_quietly(url, payment):
    try:
        await dispatch_webhook(url, payment)
    except Exception as exc:
        logger.error("webhook failed: %s", exc)


async def notify_loudly(url, payment):
    await dispatch_webhook(url, payment)
