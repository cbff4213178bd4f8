import httpx

async_session = httpx.AsyncClient()


async def metadata(isbn, timeout=None):
    return await async_session.get(f"https://vendor.example/{isbn}", timeout=timeout)
