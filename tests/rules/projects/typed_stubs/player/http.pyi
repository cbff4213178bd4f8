from typing import overload

from requests import Response, Session

class HTTPSession(Session):
    timeout: float
    @overload
    def get(self, url: str, **kwargs: object) -> Response: ...
    @overload
    def get(self, url: str, schema: object, **kwargs: object) -> object: ...

class PlainSession(Session): ...
