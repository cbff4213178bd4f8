"""The session comes from the second base: the first is another project class without it."""
import aiohttp

from .common import FileConfiguration
from .websession import WebSession, WebSessionAttributes


class Updater(FileConfiguration, WebSessionAttributes):
    def __init__(self, web: WebSession):
        super().__init__("/data/updater.json")
        self.web = web

    async def fetch_data(self):
        timeout = aiohttp.ClientTimeout(total=10)
        async with self.sys_websession.get("https://version.example/stable.json", timeout=timeout) as r:  # expect: RES104
            return await r.read()
