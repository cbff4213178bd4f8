from functools import cached_property

from typing_extensions import Self

from ._base import AsyncAPIClient


class AsyncSessions:
    def __init__(self, client: AsyncAPIClient) -> None:
        self._client = client

    @cached_property
    def events(self):
        from .events import AsyncEvents

        return AsyncEvents(self._client)


class AsyncAnthropic(AsyncAPIClient):
    @cached_property
    def sessions(self) -> AsyncSessions:
        return AsyncSessions(self)

    def copy(self, max_retries: int | None = None) -> Self:
        return self.__class__(self.base_url, max_retries=max_retries or self.max_retries)

    with_options = copy
