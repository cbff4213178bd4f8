from typing import Any, Optional

import aiohttp


class AsyncFetcher:
    @classmethod
    async def build_session(
        cls, headers: dict, client_timeout: Optional[aiohttp.ClientTimeout], proxy_url: Optional[str] = None,
    ) -> aiohttp.ClientSession:
        # a dict written out, keys added under ``if``s: its ``timeout`` is the parameter
        session_kwargs: dict[str, Any] = {"headers": headers, "timeout": client_timeout}
        if proxy_url is not None:
            session_kwargs["proxy"] = proxy_url
        return aiohttp.ClientSession(**session_kwargs)

    @classmethod
    async def fetch_text(cls, url: str, *, session: aiohttp.ClientSession) -> str:
        async with session.request("GET", url, allow_redirects=False) as response:
            return await response.text()
