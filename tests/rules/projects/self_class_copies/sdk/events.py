from ._resource import AsyncAPIResource


class AsyncEvents(AsyncAPIResource):
    async def send(self, session_id: str, *, events):
        return await self._post(f"/v1/sessions/{session_id}/events", body={"events": events})
