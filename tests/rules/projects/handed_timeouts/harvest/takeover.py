import aiohttp

from harvest.fetcher import AsyncFetcher

BOUNDED = aiohttp.ClientTimeout(total=30)


async def probe(hosts):
    session = await AsyncFetcher.build_session(
        {"User-Agent": "scanner"},
        aiohttp.ClientTimeout(total=None),  # expect: RES102 "aiohttp.ClientTimeout(total=None) with no sock_read; it may wait forever (passed through `AsyncFetcher.build_session`)"
        None,
    )
    try:
        for hostname in hosts:
            await AsyncFetcher.fetch_text(f"https://{hostname}", session=session)
    finally:
        await session.close()


async def probe_bounded(hosts):
    session = await AsyncFetcher.build_session({"User-Agent": "scanner"}, BOUNDED)
    try:
        for hostname in hosts:
            await AsyncFetcher.fetch_text(f"https://{hostname}", session=session)
    finally:
        await session.close()
