# select: RES102, RES104, RES105
import aiohttp
import httpx

from store import limits


async def notify(session: aiohttp.ClientSession, url, payload):
    timeout = aiohttp.ClientTimeout(total=limits.WEBHOOK_TIMEOUT)
    async with session.post(url, json=payload, timeout=timeout):  # expect: RES104 "WEBHOOK_TIMEOUT = 10"
        pass


async def export(session: aiohttp.ClientSession, url):
    async with session.get(url, timeout=aiohttp.ClientTimeout(total=limits.EXPORT_TIMEOUT)):  # expect: RES105 "EXPORT_TIMEOUT = 180"
        pass


async def stream(session: aiohttp.ClientSession, url):
    # no total, a bounded read: whether None is unbounded depends on the other phases
    async with session.get(url, timeout=aiohttp.ClientTimeout(total=limits.NO_LIMIT, sock_read=10)):
        pass


def pull(url):
    return httpx.get(url, timeout=httpx.Timeout(limits.NO_LIMIT))  # expect: RES102 "NO_LIMIT is None"
