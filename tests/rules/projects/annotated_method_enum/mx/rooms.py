# select: RES201
from .api import HTTPAPI, Method


class RoomMethods:
    def __init__(self, api: HTTPAPI):
        self.api = api

    async def create_room(self, content):
        return await self.api.request(Method.POST, "/createRoom", content)  # expect: RES201 "`request` sends a POST (`aiohttp.ClientSession.request`) through `_send`"

    async def get_state(self, room_id):
        return await self.api.request(Method.GET, f"/rooms/{room_id}/state")
