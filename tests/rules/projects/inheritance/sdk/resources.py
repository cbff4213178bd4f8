import tenacity


class Resource:
    """A part of the API, handed the client that owns it (``Files(self)``)."""

    def __init__(self, client):
        self._client = client

    @property
    def http(self):
        """The owner's session, through the owner's own property."""
        return self._client.http


class Files(Resource):
    def download(self, path):
        return self._client.session.get(f"{self._client.base_url}/files/{path}")  # expect: RES101

    @tenacity.retry(stop=tenacity.stop_after_attempt(2), wait=tenacity.wait_random(0, 1), reraise=True)
    def fetch(self, path):
        # the owner's method, inherited from its base class, on its retrying session
        return self._client.fetch_file(path)  # expect: RES204 "tenacity 2 attempts (sdk/resources.py:20) x urllib3 Retry total=3"


class Exports(Resource):
    def __init__(self, client, fmt="csv"):
        super().__init__(client)
        self.fmt = fmt

    def fetch(self, name):
        return self._client.session.get(f"{self._client.base_url}/exports/{name}.{self.fmt}")  # expect: RES101

