from ._base import AsyncAPIClient


class AsyncAPIResource:
    def __init__(self, client: AsyncAPIClient) -> None:
        self._client = client
        self._post = client.post
