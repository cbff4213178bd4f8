from api import config


class Resource:
    def __init__(self, client):
        self._client = client


class Events(Resource):
    def poll(self):
        # ``Events(self)`` runs ``Resource.__init__``: ``_client`` is the API client that made it,
        # whose own ``_client`` is the httpx client
        return self._client._client.get("/events", timeout=config.LONG_POLL_TIMEOUT)  # expect: RES105 "120 s (LONG_POLL_TIMEOUT = 120)"

